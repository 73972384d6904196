"""The `fives` command. Each module in this package adds its own commands (see `register`)."""
from __future__ import annotations

import importlib
import pkgutil
import sys

import click

from ..errors import EXIT_INTERRUPTED, UserError


class FivesGroup(click.Group):
    """Turns a user's mistake into one line and a documented exit code, never a traceback."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except UserError as e:
            click.echo(f"fives: error: {e}", err=True)
            sys.exit(e.exit_code)
        except KeyboardInterrupt:
            click.echo("fives: interrupted", err=True)
            sys.exit(EXIT_INTERRUPTED)
        except BrokenPipeError:
            sys.exit(0)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(self.commands)


@click.group(cls=FivesGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="fives")
def main() -> None:
    """Reference rules engine, conformance suite and puzzle generator for American Sniff
    and Horse Race.

    Exit codes: 0 success; 1 a run had failing or erroring cases; 2 bad input (malformed
    file, schema violation, illegal placement, unknown game); 3 an engine could not be
    started; 130 interrupted.
    """


def _register_all() -> None:
    # A module per command group; each defines register(main). Sorted for a stable --help.
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(main)


_register_all()
