"""The `fives` command.

Each module in this package defines `register(main)`, which adds its commands. Modules are
imported only when one of their commands runs: `COMMANDS` below lists every command with the
module that registers it and its one-line help, so `fives --help` and `fives evaluate` do not
pay for the conformance runner, z3 or the SVG code (tests/test_package.py checks that the
table matches what the modules register). A new command needs a row here.
"""
from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, NoReturn

import click

from fives import __version__
from fives.support.errors import EXIT_BAD_INPUT, EXIT_OK, EXIT_INTERRUPTED, EXIT_TERMINATED, Terminated, UserError

if TYPE_CHECKING:
    from fives.support.stop import Stop

#: command name -> (module in fives.cli that registers it, its short help: the first sentence
#: of its help text, exactly as click would show it).
COMMANDS: dict[str, tuple[str, str]] = {
    "book": ("render", "Make a printable HTML puzzle book from PUZZLESET (a `fives-puzzles/1` file): one card per "
                       "puzzle with its diagram, hand, target and difficulty; solutions with their diagrams at the "
                       "back; inline SVG, no external files; cards never split across printed pages."),
    "conformance": ("conformance", "Conformance fixtures: run them against an engine, lint them, measure coverage."),
    "data": ("data", "The samples bundled in the package: puzzle sets, fixtures, the golden suite, the perft "
                     "table, the JavaScript example engine, the seeds and the spec."),
    "evaluate": ("evaluate", "Evaluate the layout in FILE (YAML or JSON; `-` for stdin): a list of placements."),
    "golden": ("golden", "Golden suites: large generated conformance fixtures, deterministic from a seed."),
    "perft": ("perft", "Count the distinct legal placement sequences of length DEPTH (perft)."),
    "play": ("play", "Play one seeded self-play match and print a hand-by-hand summary."),
    "puzzles": ("puzzles", "Puzzles with exactly one answer, proven by z3 and cross-checked by brute force."),
    "render": ("render", "Draw a layout as SVG: tiles with pips, doubles crosswise, spinner branches at right "
                         "angles, arms bending to stay on the page, and the documents' marks: a filled number for "
                         "each counted contribution, a hollow dot for each legal position that does not count, an "
                         "orange frame for each spinner double."),
    "replay": ("play", "Re-check a game record against the rules, event by event."),
    "rules": ("rules", "Rule profiles: what each says per rule dimension, and which shipped cases they answer "
                       "differently."),
    "score-svg": ("render", "Draw scores as SVG: the Sniff tally (a stroke per 5 raw points, 50 points as a large X "
                            "with a small x in each of the four spaces around it) or a pegging board (a hole per 5 "
                            "raw points up to the target, front peg at the score, back peg at the score before)."),
    "serve": ("serve", "Speak the fives engine protocol on stdin/stdout: a hello handshake, then one JSON request "
                       "per line and one JSON reply per line, until end of input."),
    "tally": ("play", "Print the score record the game's document describes for each SCORE."),
}


def _os_error_exit(e: OSError) -> NoReturn:
    """A full disk, an unreadable file the command did not name: one line, exit 2. Standard
    output whose reader is gone (`| head`) is the one rule of every command: no line, exit 0,
    as `list` always did (the reader took what it wanted)."""
    from fives.support.writing import discard_stdout, os_error_line

    if isinstance(e, BrokenPipeError) and e.filename is None:
        discard_stdout()  # what is still buffered goes nowhere: the interpreter's last flush is quiet
        sys.exit(EXIT_OK)

    line = f"fives: error: {os_error_line(e, _stdout_failed())}"
    discard_stdout()
    try:
        click.echo(line, err=True)
    except OSError:  # stderr is on the full disk too: the exit code still says it
        pass
    sys.exit(EXIT_BAD_INPUT)


def _stopped(terminated: bool) -> NoReturn:
    click.echo("fives: interrupted", err=True)
    sys.exit(EXIT_TERMINATED if terminated else EXIT_INTERRUPTED)


class FivesGroup(click.Group):
    """Loads a command's module on first use, and turns a user's mistake into one line and a
    documented exit code, never a traceback."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            try:
                return self._invoke_command(ctx)
            finally:  # here, not at interpreter exit, where a failed flush is a traceback and exit 120
                _flush_stdout()
        except OSError as e:  # a full disk, a closed pipe, an unreadable file the command did not name
            _os_error_exit(e)

    def _invoke_command(self, ctx: click.Context) -> object:
        from fives.support.stop import Stop

        # SIGTERM (how CI cancels a job, how `kill` stops a command) is handled as Ctrl-C in every
        # command, by this one Stop (fives/support/stop.py): `finally` blocks kill engines and
        # workers and write what was found; a command that ends interrupted exits 130, and 143
        # when the signal was SIGTERM, without installing a handler of its own.
        stop = Stop().install()
        ctx.meta["fives.stop"] = stop
        try:
            return self._invoke_guarded(ctx, stop)
        finally:
            stop.restore()

    def _invoke_guarded(self, ctx: click.Context, stop: Stop) -> object:
        from fives.support.stop import is_stop

        try:
            return super().invoke(ctx)
        except SystemExit as e:  # a command that ended interrupted: 143 when the stop was SIGTERM
            if e.code == EXIT_INTERRUPTED and stop.terminated:
                sys.exit(EXIT_TERMINATED)
            raise
        except UserError as e:
            from fives.support.sanitize import message_line  # one bounded line always: input text may hold newlines, ESC

            click.echo(f"fives: error: {message_line(str(e))}", err=True)
            sys.exit(EXIT_TERMINATED if e.exit_code == EXIT_INTERRUPTED and stop.terminated else e.exit_code)
        except KeyboardInterrupt as e:  # Ctrl-C, or SIGTERM (Terminated)
            stop.handled = True
            _stopped(isinstance(e, Terminated) or stop.terminated)
        except Exception as e:
            if stop.signum is None and not is_stop(type(e), e):
                raise
            stop.handled = True
            _stopped(stop.terminated)  # the stop, wrapped by a C call (ctypes.ArgumentError)

    def main(self, *args: object, standalone_mode: bool = True, **kwargs: object) -> object:
        # click would print its three-line Usage/Error block: one `fives: error:` line instead,
        # with "did you mean" (fives/cli/_usage.py); exit 2 as click does
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)  # type: ignore[call-overload]
        try:
            try:
                rv = super().main(*args, standalone_mode=False, **kwargs)  # type: ignore[call-overload]
            finally:  # --help and --version write before any command runs: a full stdout is one line too
                _flush_stdout()
        except OSError as e:
            _os_error_exit(e)
        except click.ClickException as e:
            from fives.cli._usage import usage_line

            click.echo(usage_line(e), err=True)
            sys.exit(e.exit_code)
        except click.Abort:
            click.echo("fives: interrupted", err=True)
            sys.exit(EXIT_INTERRUPTED)
        sys.exit(rv if isinstance(rv, int) else 0)  # an int here is ctx.exit(code) (--help: 0)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(self.commands) | set(COMMANDS))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            entry = COMMANDS.get(cmd_name)
            if entry is not None:
                self.load_module(entry[0])
            else:  # a command missing from the table still runs (the table test fails)
                for name in command_modules():
                    if name not in {m for m, _ in COMMANDS.values()}:
                        self.load_module(name)
        return self.commands.get(cmd_name)

    def load_module(self, name: str) -> None:
        module = importlib.import_module(f"{__name__}.{name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(self)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # as click.Group.format_commands, but from the table: listing imports nothing
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = []
        for name in names:
            if name in COMMANDS:
                rows.append((name, _short(COMMANDS[name][1], limit)))
            else:
                rows.append((name, self.commands[name].get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def _flush_stdout() -> None:
    stream = sys.stdout
    if stream is not None:
        try:
            stream.flush()
        except ValueError:  # already closed (by the command): nothing left to write
            pass


def _stdout_failed() -> bool:
    """Whether standard output is what failed: its buffer still cannot be written."""
    try:
        _flush_stdout()
    except OSError:
        return True
    return False


def _short(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    import textwrap

    return textwrap.shorten(text, max(limit, 3), placeholder="...", break_on_hyphens=False)


def command_modules() -> list[str]:
    """Every module of this package that may register commands, sorted."""
    import pkgutil

    return sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))


@click.group(cls=FivesGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="fives")
def main() -> None:
    """Reference rules engine, conformance suite and puzzle generator for American Sniff
    and Horse Race.

    Exit codes: 0 success; 1 a run had failing or erroring cases; 2 bad input (malformed
    file, schema violation, illegal placement, unknown game); 3 an engine could not be
    started; 5 a conformance run in which no case ran; 130 interrupted (Ctrl-C); 143
    terminated (SIGTERM, `conformance run`: reports still written). Piped into `head`, every
    command stops quietly with 0.
    """
