"""The sessions: one piece of work each (a conformance run over a list of engines, a diagnosis,
the mutants' kill matrix, perft through an engine), with a typed options object and a Python
entry point. Every door goes through them: the CLI only parses options, calls a session,
prints and chooses the exit code; the pytest plugin, `fives.suite` and the benchmarks call the
same functions (docs/architecture.md, docs/api.md)."""
