"""The shipped mutants: the registry (`registry`), layout misreadings (`layout`) and play
misreadings and variants (`play`). Above the runner, which checks them (docs/architecture.md).
"""
