"""evaluate, filled in for tests/test_new_engine.py: the reference engine's own answer
(`fives.evaluate`), as docs/engine-authors.md's first step does before an author writes theirs.
It replaces the skeleton's kinds/evaluate.py, stub mark gone."""


def answer(game, input):
    import fives  # the engine runs with fives importable (the test's interpreter)

    return fives.evaluate(game, input["placements"])
