"""`fives conformance diagnose`: the diagnosis (`diagnosis`), its search over candidate causes
(`search`), its probes for minimal examples (`probe`) and the comparison of rule variants
(`variant_compare`). The top layer of `fives.conformance` bar the sessions and the pytest
plugin (docs/architecture.md).
"""
