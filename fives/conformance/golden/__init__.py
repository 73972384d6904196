"""Golden suites: large, deterministic, generated conformance fixtures (`fives golden generate`)."""
