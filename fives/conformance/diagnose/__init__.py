"""`fives conformance diagnose`: the diagnosis (`diagnosis`), its search over candidate causes
(`search`), its probes for minimal examples (`probe`), its --out folder (`files`) and the
comparison of rule variants (`variant_compare`). Below the sessions layer: the session that
runs them as phases is fives/conformance/sessions/diagnose.py (docs/architecture.md).
"""
