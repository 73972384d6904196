"""Talking to an engine under test: the child process and its deadline, the protocol, the
drivers (in-process reference, process engines) and `fives serve`. Above `cases/`, below the
runner (docs/architecture.md)."""
