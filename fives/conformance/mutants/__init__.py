"""The shipped mutants: the registry (`registry`), layout misreadings (`layout`) and play
misreadings and variants (`play`). Above the runner, which checks them (docs/architecture.md).

`fives.conformance.mutants` was one module before this folder; its names are still read from
here (`from fives.conformance.mutants import all_mutants`), loaded on first use.
"""
from fives.conformance import names_of

__getattr__ = names_of(__name__, "registry")
