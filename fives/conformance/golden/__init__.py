"""Golden suites: large, deterministic, generated conformance fixtures (`fives golden generate`)."""

#: The suite version golden manifests and last-failed records carry (generate.py writes it);
#: here, not in generate.py, so that a run can read it without importing the generator (issue 41)
SUITE_VERSION = "2"
