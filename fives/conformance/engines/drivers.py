"""Drivers of the engine under test: what the conformance runner talks to. Here: the driver
interface, the reference engine in process, and the protocol's messages; an executable speaking
the line protocol of spec/protocol.md is driven by `fives.conformance.engines.process`.

Every failure of a third-party engine (crash, hang, garbage, a reply too deep, too long or
not UTF-8, NaN, wrong id, early exit, closed output) becomes an `Outcome` with status
"error" for that one case, and the engine is restarted for the next case. Nothing a reply
holds can raise out of here: it is parsed by the one hardened reader (fives.support.reading) and any
other failure of the parse is caught too. Child processes live in fives/conformance/engines/child.py.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fives.conformance.engines.child import RAW_KEEP, STDERR_KEEP
from fives.conformance.engines.deadline import DeadlineRunner
from fives.support.errors import UserError
from fives.conformance.cases.fixtures import Case
from fives.support.reading import parse_json_line
from fives.support.sanitize import quote
from fives.conformance.cases.kinds import kind_named, load_kinds
from fives.rules import GameRules, game_ids, load_rules

if TYPE_CHECKING:
    from fives.profiles import Profile

__all__ = ["PROTOCOL_VERSION", "RULES_CAPABILITY", "Outcome", "Handshake", "EngineStartError", "Engine", "ReferenceEngine",
           "parse_reply", "check_reply", "scope_problem"]

PROTOCOL_VERSION = 1
MESSAGE_KEEP = 300  # characters of an engine's own error text (or a wrong id) kept in a message


@dataclass
class Outcome:
    status: str  # "ok" | "skipped" | "error"
    answer: Any = None
    message: str = ""
    raw: str | None = None
    stderr: str | None = None
    seconds: float = 0.0
    #: the time limit the case ran under (engines/limits.py), None: no limit or not run
    limit: float | None = None


@dataclass
class Handshake:
    name: str
    version: str
    language: str
    games: list[str]
    capabilities: list[str]
    raw: dict[str, Any] = field(default_factory=dict)
    #: the hello's optional `scope` (spec/protocol.md, "Engine scope"): None, or a mapping of
    #: players (list of counts), partnerships (bool), games and kinds (lists of names)
    scope: dict[str, Any] | None = None


class EngineStartError(Exception):
    pass


class Engine:
    """Base: `start()` once, `run(case)` per case, `close()` at the end.

    `run(case, seq)`: `seq` is the case's 1-based place in the run, used in request ids so
    that messages do not depend on how cases are shared among parallel engines."""

    handshake: Handshake
    #: the rule profile of the run (--rules), None for the seeds' rules
    profile: Profile | None = None

    def start(self) -> Handshake:
        raise NotImplementedError

    def rules_told(self, case: Case | None = None) -> dict[str, Any] | None:
        """The `rules` object a request carries: the run's profile (or a variant case's own),
        and only to an engine that declared the `rules` capability (one that does not is taken
        to play it natively)."""
        profile = case.profile if case is not None and case.profile is not None else self.profile
        if profile is None or RULES_CAPABILITY not in self.handshake.capabilities:
            return None
        return rules_message(profile)

    def run(self, case: Case, seq: int | None = None) -> Outcome:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def abort(self) -> None:
        """Stop at once (Ctrl-C, SIGTERM): may be called from another thread than `run`'s."""
        self.close()

    def clone(self) -> Engine | None:
        """A fresh engine of the same command for a parallel worker, or None if it cannot be."""
        return None

    def out_of_scope(self, case: Case) -> str | None:
        """Why `case` lies outside the scope the engine's hello declares, or None (no scope,
        or inside it): such a case is skipped, never failed (spec/protocol.md, "Engine scope")."""
        return scope_problem(getattr(getattr(self, "handshake", None), "scope", None), case)

    def supports(self, case: Case) -> str | None:
        """None if the engine takes `case`, else why it is skipped."""
        cap = kind_named(case.kind).capability
        if case.game not in self.handshake.games:
            return f"engine does not declare game {case.game}"
        if cap not in self.handshake.capabilities:
            return f"engine does not declare capability {cap}"
        return self._case_rules_problem(case)

    def _case_rules_problem(self, case: Case) -> str | None:
        """Why a case with its own rule profile (a variant fixture) is not run here, or None:
        the engine must be told it (`rules` capability), and a run under another profile
        leaves it out."""
        own = case.profile
        if own is None:
            return None
        if self.profile is not None and self.profile.digest != own.digest:
            return f"the case plays under its own rules {own.name}, not the run's {self.profile.name}"
        if self.profile is None and RULES_CAPABILITY not in self.handshake.capabilities \
                and not isinstance(self, ReferenceEngine):
            return f"the case plays under rules {own.name}: engine does not declare capability {RULES_CAPABILITY}"
        return None


SCOPE_KEYS = ("players", "partnerships", "games", "kinds")


def case_players(case: Case) -> tuple[int | None, bool]:
    """The number of players and the partnership flag a case states (None: it states none,
    as a layout-only case: every scope takes it)."""
    n = case.input.get("players") if isinstance(case.input, dict) else None
    players = n if isinstance(n, int) and not isinstance(n, bool) else None
    return players, bool(case.input.get("partnerships", False)) if isinstance(case.input, dict) else False


def scope_problem(scope: dict[str, Any] | None, case: Case) -> str | None:
    """Why `case` is outside `scope` (a hello's `scope`), or None."""
    if not scope:
        return None
    players, partnerships = case_players(case)
    if "games" in scope and case.game not in scope["games"]:
        return f"outside the engine's scope: game {case.game} (it declares {', '.join(scope['games']) or 'none'})"
    if "kinds" in scope and case.kind not in scope["kinds"]:
        return f"outside the engine's scope: kind {case.kind} (it declares {', '.join(scope['kinds']) or 'none'})"
    if players is not None and "players" in scope and players not in scope["players"]:
        said = ", ".join(map(str, scope["players"])) or "none"
        return f"outside the engine's scope: {players} players (it declares players {said})"
    if partnerships and scope.get("partnerships") is False:
        return "outside the engine's scope: partnerships (it declares partnerships false)"
    return None


def parse_scope(value: Any) -> dict[str, Any] | None:
    """A hello's `scope`, checked; EngineStartError (the handshake fails) for a bad one, since a
    wrong scope would skip, or fail, cases silently."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise EngineStartError(f"hello reply scope must be an object, found {_short(value)}")
    out: dict[str, Any] = {}
    for key, item in value.items():
        if key == "players":
            ok = isinstance(item, list) and all(isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in item)
        elif key == "partnerships":
            ok = isinstance(item, bool)
        elif key in ("games", "kinds"):
            ok = isinstance(item, list) and all(isinstance(n, str) and n for n in item)
        else:
            continue  # a key the runner does not know is ignored, as in games and capabilities
        if not ok:
            raise EngineStartError(f"hello reply scope.{key} is malformed: {_short(item)}")
        out[key] = item
    return out


def request_for(case: Case, request_id: str, rules: dict[str, Any] | None = None) -> dict[str, Any]:
    """The request for one case; `rules` (the profile, `rules_message`) only to an engine that
    declared the `rules` capability."""
    msg = {"id": request_id, "type": case.kind, "game": case.game, "input": case.input}
    if rules is not None:
        msg["rules"] = rules
    return msg


#: The capability an engine declares to be told the rule profile of a run (spec/protocol.md).
RULES_CAPABILITY = "rules"


def rules_message(profile: Profile) -> dict[str, Any]:
    """The `rules` object of a request: everything an engine needs to play `profile`."""
    return {"name": profile.name, "extends": profile.extends, "digest": profile.digest,
            "overrides": json.loads(json.dumps(dict(profile.overrides)))}


def profile_from_message(msg: Any) -> Profile:
    """The profile a request's `rules` object names; UserError (that request's error) when it is
    not one: not an object, an unknown game or parameter, a bad value, a digest that does not
    match its overrides."""
    from fives.profiles import make_profile

    if not isinstance(msg, dict) or not isinstance(msg.get("extends"), str) or not isinstance(msg.get("overrides"), dict):
        raise UserError("rules: expected an object {name, extends, digest, overrides}")
    name = msg.get("name")
    profile = make_profile(msg["extends"], msg["overrides"], name if isinstance(name, str) else "", where="rules")
    if "digest" in msg and msg["digest"] != profile.digest:
        raise UserError(f"rules: digest {quote(msg['digest'], 40)} does not match its overrides ({profile.digest})")
    return profile


class ReferenceEngine(Engine):
    """The built-in engine, in process. `hooks` swap rule pieces (used by mutant engines).
    With `timeout` (seconds) a case over budget is an error and the run goes on."""

    def __init__(self, hooks: dict[str, Any] | None = None, name: str = "fives-reference",
                 timeout: float | None = None, slow_timeout: float | None = None,
                 profile: Profile | None = None, honours_rules: bool = False,
                 scope: dict[str, Any] | None = None, strict: bool = False) -> None:
        self.hooks = hooks or {}
        # `strict` (`fives serve --strict`): a state no play from a deal reaches (reachable.py)
        # is refused with an `unreachable-state` error answer, as a strict engine may
        self.strict = strict
        # the profile played whatever a request says; or, with `honours_rules` (`fives serve`
        # without --rules), the one each request's `rules` names (the `rules` capability)
        self.profile = profile
        self.honours_rules = honours_rules
        self._rules: dict[tuple[str, str], GameRules] = {}
        self._told: dict[str, Profile] = {}
        # a case tagged slow (deep perft, run only with --slow) may take minutes by design:
        # it gets its own budget (None or 0: no limit) unless --timeout was given
        self.slow_timeout = slow_timeout
        self.kinds = load_kinds()
        self.timeout = timeout
        self._deadline = DeadlineRunner()
        from fives import __version__
        caps = {k.capability for k in self.kinds.values()} | ({RULES_CAPABILITY} if honours_rules else set())
        # `scope` (`fives serve --players 2`): the engine declares it and answers nothing outside it
        self.handshake = Handshake(name, __version__, "python", game_ids(), sorted(caps), scope=scope)

    def start(self) -> Handshake:
        return self.handshake

    def rules_for(self, game: str, told: Any = None) -> GameRules:
        """The rules a request of `game` is answered under (`told`: the request's `rules` object)."""
        profile = self.profile
        if told is not None and self.honours_rules:
            key = json.dumps(told, sort_keys=True, default=str)
            if key not in self._told:
                if len(self._told) >= 64:  # a stream of ever new profiles must not grow memory
                    self._told.clear()
                self._told[key] = profile_from_message(told)
            profile = self._told[key]
        if profile is None:
            return load_rules(game)
        if (profile.digest, game) not in self._rules:
            from fives.profiles import rules_under
            self._rules[(profile.digest, game)] = rules_under(profile, game)
        return self._rules[(profile.digest, game)]

    def answer(self, kind: str, game: str, input: dict[str, Any], told: Any = None) -> Any:
        return self.answer_under(self.rules_for(game, told), kind, input)

    def answer_under(self, rules: GameRules, kind: str, input: dict[str, Any]) -> Any:
        """The answer under `rules`; a strict engine's refusal of an unreachable state."""
        if self.strict:
            refusal = unreachable_refusal(rules, kind, input)
            if refusal is not None:
                return refusal
        return self.kinds[kind].run(rules, input, self.hooks)

    def run(self, case: Case, seq: int | None = None) -> Outcome:
        t0 = time.perf_counter()
        from fives.conformance.engines.limits import time_limit
        limit = time_limit(case, self.slow_timeout if "slow" in case.tags else self.timeout)
        if case.profile is not None:  # a variant case plays under its own profile
            from fives.profiles import rules_under

            rules = rules_under(case.profile, case.game)
            call = lambda: self.answer_under(rules, case.kind, case.input)  # noqa: E731
        else:
            call = lambda: self.answer(case.kind, case.game, case.input)  # noqa: E731
        done = self._deadline.call(call, limit)
        seconds = time.perf_counter() - t0
        if done.status == "timeout":
            return Outcome("error", message=f"no answer within {limit:g}s (timeout; the case was stopped; --timeout 0: no limit)",
                           seconds=seconds, limit=limit)
        if done.status == "error":  # an engine bug must not stop the run
            e = done.error
            return Outcome("error", message=f"reference engine raised {type(e).__name__}: {quote(str(e), MESSAGE_KEEP)[1:-1]}",
                           stderr=done.trace[-STDERR_KEEP:], seconds=seconds, limit=limit)
        return Outcome("ok", done.value, seconds=seconds, limit=limit)

    def close(self) -> None:
        self._deadline.close()


UNREACHABLE_STATE = "unreachable-state"


def unreachable_refusal(rules: GameRules, kind: str, input: Any) -> dict[str, Any] | None:
    """A strict engine's answer to a state no play from a deal reaches (spec/protocol.md,
    `unreachable-state`), or None for a reachable one."""
    from fives.conformance.cases.reachable import problems

    why = problems(rules, kind, input)
    if not why:
        return None
    return {"error": {"index": None, "code": UNREACHABLE_STATE, "message": f"unreachable state: {why[0]}"}}


# -- replies -------------------------------------------------------------------------------

class BadReply(Exception):
    """A reply line that is not one acceptable JSON value (the message says why, briefly)."""


def parse_reply(line: bytes) -> Any:
    """The JSON value of one reply line, or BadReply: not UTF-8, malformed, deeper than the
    reader's limit, a number too long, NaN or Infinity. Nothing else escapes."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BadReply(f"not UTF-8 ({e.reason} at byte {e.start})") from None
    try:
        return parse_json_line(text, "reply")
    except UserError as e:
        raise BadReply(str(e).removeprefix("reply: ")) from None
    except Exception as e:  # RecursionError, ValueError, MemoryError...: never out of the runner
        raise BadReply(f"{type(e).__name__}: {quote(str(e), 100)[1:-1]}") from None


def _short(value: Any) -> str:
    return quote(value, MESSAGE_KEEP)


def parse_handshake(msg: Any) -> Handshake:
    if not isinstance(msg, dict) or msg.get("type") != "hello":
        raise EngineStartError(f"expected a hello reply, got {_short(msg)}")
    if msg.get("protocol") != PROTOCOL_VERSION:
        raise EngineStartError(f"engine speaks protocol {_short(msg.get('protocol'))}, runner speaks {PROTOCOL_VERSION}")
    eng = msg.get("engine")
    eng = eng if isinstance(eng, dict) else {}
    games, caps = msg.get("games"), msg.get("capabilities")
    if not isinstance(games, list) or not isinstance(caps, list):
        raise EngineStartError("hello reply lacks the lists games and capabilities")
    name = lambda v: v if isinstance(v, str) else json.dumps(v)[:MESSAGE_KEEP]  # noqa: E731
    return Handshake(name(eng.get("name", "?")), name(eng.get("version", "?")), name(eng.get("language", "?")),
                     [name(g) for g in games], [name(c) for c in caps], msg, parse_scope(msg.get("scope")))


def hello_request() -> dict[str, Any]:
    return {"id": "hello", "type": "hello", "protocol": PROTOCOL_VERSION}


def check_reply(msg: Any, request_id: str, raw: str) -> Outcome:
    """Turn one reply object into an Outcome (the wrong id or shape is an error)."""
    if not isinstance(msg, dict):
        return Outcome("error", message="reply is not a JSON object", raw=raw[:RAW_KEEP])
    if msg.get("id") != request_id:
        return Outcome("error", message=f"reply id {_short(msg.get('id'))} does not match request id {request_id!r}",
                       raw=raw[:RAW_KEEP])
    keys = [k for k in ("result", "skipped", "error") if k in msg]
    if len(keys) != 1:
        return Outcome("error", message="a reply has exactly one of result, skipped, error", raw=raw[:RAW_KEEP])
    if keys[0] == "result":
        return Outcome("ok", msg["result"])
    text = lambda v: quote(v if isinstance(v, str) else json.dumps(v), MESSAGE_KEEP)[1:-1]  # noqa: E731
    if keys[0] == "skipped":
        return Outcome("skipped", message=f"engine skipped: {text(msg['skipped'])}")
    return Outcome("error", message=f"engine reported error: {text(msg['error'])}", raw=raw[:RAW_KEEP])
