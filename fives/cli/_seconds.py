"""Click types for every time option (`--timeout`, `--seconds`, `--time-limit`): a finite
number of seconds, never negative; 0 only where the option documents it as "no limit". NaN and
infinity are refused at the command line (one line, exit 2): a limit that compares false with
every time would never fire. Each keeps the metavar and range note its option showed before."""
from __future__ import annotations

import math
from typing import Any

import click


def _finite(t: click.ParamType, seconds: float, value: Any, param: click.Parameter | None,
            ctx: click.Context | None) -> float:
    if not math.isfinite(seconds) or seconds < 0:
        t.fail(f"{value!r} is not a finite number of seconds, 0 or more", param, ctx)
    return seconds


class Seconds(click.ParamType):
    """A finite number of seconds, 0 or more (the option says what 0 means)."""

    name = "float"  # as `type=float` showed it: the help text keeps its bytes

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a valid float.", param, ctx)
        return _finite(self, seconds, value, param, ctx)


class SecondsRange(click.FloatRange):
    """click.FloatRange, finite: `FloatRange(min=0, min_open=True)` lets NaN through (every
    comparison with it is false)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        return _finite(self, super().convert(value, param, ctx), value, param, ctx)
