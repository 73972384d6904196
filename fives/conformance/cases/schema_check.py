"""Schema validation for fixture files: compiled validators on the fast path, jsonschema's
explanation only for a document that fails.

`fastjsonschema` compiles a schema to Python code (about 9x faster than jsonschema's
`iter_errors`), but its messages name neither the key nor the branch that failed. So a
document is checked with the compiled validator, and only when that rejects it is the full
jsonschema validator asked why (`explain`), which is also the authority when they disagree.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:  # jsonschema costs ~40 ms to import: only the error path needs it
    import jsonschema


class SchemaSet:
    """Schemas of one folder, each compiled on first use and kept for the run."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self._schemas: dict[str, dict[str, Any]] = {}
        self._fast: dict[str, Callable[[Any], Any]] = {}
        self._full: dict[str, jsonschema.Draft202012Validator] = {}

    def schema(self, name: str) -> dict[str, Any]:
        if name not in self._schemas:
            self._schemas[name] = json.loads((self.base / name).read_text(encoding="utf-8"))
        return self._schemas[name]

    def _compiled(self, name: str) -> Callable[[Any], Any]:
        fast = self._fast.get(name)
        if fast is None:
            import fastjsonschema
            fast = self._fast[name] = fastjsonschema.compile(self.schema(name))
        return fast

    def full(self, name: str) -> jsonschema.Draft202012Validator:
        if name not in self._full:
            import jsonschema
            self._full[name] = jsonschema.Draft202012Validator(self.schema(name))
        return self._full[name]

    def check(self, name: str, data: Any) -> jsonschema.ValidationError | None:
        """None if `data` is valid under schema `name`, else the most telling error."""
        import fastjsonschema
        try:
            self._compiled(name)(data)
            return None
        except fastjsonschema.JsonSchemaException:
            return explain(self.full(name), data)


def explain(validator: jsonschema.Draft202012Validator, data: Any) -> jsonschema.ValidationError | None:
    """The error that says what is wrong, naming the key: jsonschema's best match, and inside
    a oneOf/anyOf that every branch rejects, the best match of the branch that fits best
    (fewest errors, then the deepest, then the fewest missing keys) rather than "not valid under
    any of the given schemas"."""
    from jsonschema.exceptions import best_match
    err = best_match(validator.iter_errors(data))
    while err is not None and err.validator in ("oneOf", "anyOf") and err.context:
        branches: dict[Any, list[jsonschema.ValidationError]] = {}
        for e in err.context:
            branches.setdefault(e.relative_schema_path[0], []).append(e)
        fit = min(branches.values(), key=lambda es: (len(es), -max(len(e.absolute_path) for e in es),
                                                      sum(e.validator == "required" for e in es)))
        err = best_match(fit)
    return err


def where(err: jsonschema.ValidationError) -> str:
    """The failing key's path, `expect/results/1/continues`, or `(top)`."""
    return "/".join(str(p) for p in err.absolute_path) or "(top)"
