"""A click usage error (bad option, command, choice, argument) as one `fives: error:` line,
with "did you mean" where a close name exists, like every other mistake the CLI reports."""
from __future__ import annotations

import re

import click

from fives.support.sanitize import message_line
from fives.support.suggest import did_you_mean

_NO_COMMAND = re.compile(r"No such command '(.*)'\.")
_NOT_ONE_OF = re.compile(r"'([^']*)' is not one of ")


def usage_line(e: click.ClickException) -> str:
    """`fives: error: COMMAND PATH: what is wrong (did you mean ...?) (see 'COMMAND --help')`."""
    ctx = e.ctx if isinstance(e, click.UsageError) else None
    text = e.format_message()
    hint = ""
    if isinstance(e, click.NoSuchOption):
        text = f"no such option {e.option_name}"
        names = [o for p in (ctx.command.params if ctx else []) for o in (*p.opts, *p.secondary_opts)
                 if o.startswith("-")]
        hint = did_you_mean(e.option_name, names + ["--help"])
    elif ctx is not None and (m := _NO_COMMAND.match(text)) and isinstance(ctx.command, click.Group):
        text = f"no such command {m[1]!r}"
        hint = did_you_mean(m[1], ctx.command.list_commands(ctx))
    elif isinstance(e, click.BadParameter) and (m := _NOT_ONE_OF.search(text)):
        choices = getattr(getattr(e.param, "type", None), "choices", ())
        hint = did_you_mean(m[1], [str(c) for c in choices])
    where = f"{ctx.command_path.partition(' ')[2]}: " if ctx is not None and " " in ctx.command_path else ""
    helper = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
    return f"fives: error: {where}{message_line(text.rstrip('.') + hint)}{helper}"
