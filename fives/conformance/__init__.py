"""The conformance side: case data (`cases/`), talking to engines (`engines/`), running cases
(`runner`, `bisect`, `stopping`), mutants (`mutants/`), reports (`reports/`), the fuzzer
(`fuzz/`), golden suites (`golden/`), diagnosis (`diagnose/`), the sessions every door goes
through (`sessions/`) and the pytest plugin; the map is docs/architecture.md, and `fives.suite`
is the public face.
"""
