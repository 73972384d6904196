"""`--rules NAME|FILE`, shared by every command that plays, checks or generates under a rule
profile (not a command module: the leading underscore keeps it out of the command table).

The option hands the command a loaded `fives.profiles.Profile` (or None when not given), so a
bad name or file is one line, exit 2, before any work starts. `fives.profiles` is imported only
when the option is given: commands without it pay nothing."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

import click

if TYPE_CHECKING:
    from fives.profiles import Profile

F = Callable[..., Any]

HELP = ("Play under this rule profile: a shipped name (spec/variants/) or a profile YAML file "
        "(spec/variants.md). Default: the seeds' rules.")


def _load(ctx: click.Context, param: click.Parameter, value: str | None) -> Profile | None:
    if value is None:
        return None
    from fives.profiles import load_profile  # UserError (one line, exit 2) for a bad name or file

    return load_profile(value)


def rules_option(f: F, help: str = HELP) -> F:
    """--rules NAME|FILE, passed to the command as `profile` (a Profile, or None)."""
    return click.option("--rules", "profile", metavar="NAME|FILE", default=None, callback=_load,
                        expose_value=True, help=help)(f)



def check_recorded(recorded: Any, profile: Profile | None, name: str, games: list[str], verb: str = "verify") -> None:
    """UserError (exit 2) unless data that records the rule profile it was made under
    (`recorded`: {name, extends, digest, overrides}, or None for the seeds' rules) is checked
    under the same rules: no --rules for the seeds', --rules P (equal digests) for P's. A
    profile that changes none of `games` counts as the seeds' rules."""
    from fives.support.errors import UserError

    if profile is not None and (profile.extends not in games or not profile.overrides):
        profile = None
    have = recorded.get("digest") if isinstance(recorded, dict) else None
    made = f"rules profile {recorded.get('name')} (digest {have})" if have else "the seeds' rules (no rules profile)"
    if profile is None and have is not None:
        raise UserError(f"{name}: generated under {made}: {verb} it with --rules {recorded.get('name')}")
    if profile is not None and have != profile.digest:
        raise UserError(f"{name}: generated under {made}, not under {profile.name} (digest {profile.digest})")
