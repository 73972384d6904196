"""One validator per schema and process (fives.support.schema_memo.first_error, issue 41): the
same verdicts and the same error lines as `jsonschema.validate`, which checks the schema
against its meta-schema on every call."""
from __future__ import annotations

import copy
from typing import Any

import jsonschema
import pytest

from fives.profiles import load_profile, make_profile, rules_under
from fives.rules import game_data, validate_game_data
from fives.support import paths, schema_memo
from fives.support.errors import UserError
from fives.support.reading import load_json_schema

GAME_SCHEMA = paths.SPEC_SCHEMAS / "game.schema.json"


def _broken(game: str) -> list[dict[str, Any]]:
    """Game documents each broken in one way: a wrong type, an unknown value, a missing key, an extra key."""
    out = []
    for path, value in ((("spinners", "policy"), "sometimes"), (("scoring", "multiple"), "five"),
                        (("counting", "open_branch_side"), 3), (("points", "display_divisor"), -1)):
        data = game_data(game)
        data[path[0]][path[1]] = value
        out.append(data)
    data = game_data(game)
    del data["spinners"]
    out.append(data)
    data = game_data(game)
    data["no_such_rule"] = True
    out.append(data)
    return out


def _jsonschema_line(data: Any, name: str) -> str | None:
    try:
        jsonschema.validate(data, load_json_schema(GAME_SCHEMA))
    except jsonschema.ValidationError as e:
        where = "/".join(str(p) for p in e.absolute_path) or "(top)"
        return f"{name}: {where}: {e.message}"
    return None


@pytest.mark.parametrize("game", ["american-sniff", "horse-race"])
def test_bad_game_documents_fail_with_jsonschemas_message(game: str) -> None:
    for data in _broken(game):
        want = _jsonschema_line(data, "doc.yaml")
        assert want is not None
        with pytest.raises(UserError) as e:
            validate_game_data(copy.deepcopy(data), "doc.yaml")
        assert str(e.value) == want
        # asked again (the validator is now made): the same line
        with pytest.raises(UserError) as again:
            validate_game_data(data, "doc.yaml")
        assert str(again.value) == want


@pytest.mark.parametrize("game", ["american-sniff", "horse-race"])
def test_a_valid_document_passes(game: str) -> None:
    assert _jsonschema_line(game_data(game), "x") is None
    validate_game_data(game_data(game), "x")
    assert schema_memo.first_error(GAME_SCHEMA, game_data(game)) is None


def test_the_validator_is_made_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FIVES_NO_CACHE", "1")  # no memo: every call validates
    schema_memo._validator.cache_clear()
    for _ in range(5):
        validate_game_data(game_data("horse-race"), "x")
    info = schema_memo._validator.cache_info()
    assert (info.misses, info.hits) == (1, 4)


def test_the_memo_skips_only_documents_that_passed(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from fives.support import cache_key

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("FIVES_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("FIVES_CACHE_KEY", raising=False)
    monkeypatch.delenv("FIVES_NO_CACHE", raising=False)
    cache_key._secret.cache_clear()
    asked: list[Any] = []
    real = schema_memo.first_error
    monkeypatch.setattr(schema_memo, "first_error", lambda path, data: asked.append(data) or real(path, data))
    good, bad = game_data("horse-race"), _broken("horse-race")[0]
    for _ in range(3):
        validate_game_data(good, "x")
        with pytest.raises(UserError) as e:
            validate_game_data(bad, "doc.yaml")
        assert str(e.value) == _jsonschema_line(bad, "doc.yaml")
    assert asked.count(good) == 1 and asked.count(bad) == 3  # a bad document is never remembered
    # 2 and "2" are different documents: a note for one does not stand for the other
    other = game_data("horse-race")
    other["deal"]["hand_size"] = {str(k): v for k, v in other["deal"]["hand_size"].items()}
    assert repr(other) != repr(good)
    assert (schema_memo.check(GAME_SCHEMA, other) is None) == (_jsonschema_line(other, "x") is None)
    cache_key._secret.cache_clear()


def test_a_profile_that_breaks_the_schema_names_the_key(tmp_path: Any) -> None:
    assert rules_under(make_profile("horse-race", {"scoring.multiple": 10}), "horse-race").scoring_multiple == 10
    with pytest.raises(UserError) as e:
        make_profile("horse-race", {"counting.open_branch_side": "sometimes"})
    assert str(e.value) == "profile: counting/open_branch_side: 'sometimes' is not one of ['one-half', 'zero']"
    bad = tmp_path / "p.yaml"
    bad.write_text("name: p\nextends: horse-race\nsource: x\nrules: 3\n", encoding="utf-8")
    with pytest.raises(UserError) as e2:
        load_profile(str(bad))
    assert "p.yaml" in str(e2.value) and "rules" in str(e2.value) and "3 is not of type 'object'" in str(e2.value)
