"""The conformance suite from Python (`fives.suite`): the public face of `fives.conformance.cases.suite`.

Kept at the top of the package because engine authors' harnesses import it by this name
(docs/api.md); the code lives with the rest of the conformance machinery.
"""
from fives.conformance.cases.suite import Case, compare, kinds, load_suite, reference_answer

__all__ = ["Case", "compare", "kinds", "load_suite", "reference_answer"]
