"""The case data: fixtures and their cache, the prebuilt suite, selection, schema checks, the
seed examples, clauses and coverage, expectations under a rules profile, reachability, and the
request kinds (`kinds/`). The lowest layer of `fives.conformance` (docs/architecture.md)."""
