"""What every `amunre` command shares, as a command-line user expects it: `-h` as well as
`--help`, `--version`, shell completion, and help that shows each argument by its name
(`RULES`, `[RULES]`, `RULES...`) instead of the placeholders some typer versions print
(`{RULES}`, `RULES <str>`, `<list[str]>`). Options give their own metavar (`N`, `FILE`).

`App` is the typer application: every command registered with `app.command(...)` gets this
help, so a new command needs nothing more. Errors reach the user the same way from every
command: `fail` prints one on standard error, `load_or_exit` loads the rules file a user named.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from typing import Any, TypeVar, overload

import typer
from typer.core import TyperCommand

from ..interpreter.base.errors import AmunreError, RulesError
from ..interpreter.load.rules_cache import load_rules
from ..interpreter.model import Rules
from .play import resolve_rules

HELP_OPTIONS = {"help_option_names": ["-h", "--help"]}

T = TypeVar("T")


def argument_name(param: Any, usage: bool = False) -> str:
    """An argument as help shows it: its metavar (else its name in capitals), `...` when it
    takes several, in brackets on the usage line when it may be left out."""
    name = param.metavar or (param.name or "").upper()
    if param.nargs != 1:
        name += "..."
    return f"[{name}]" if usage and not param.required else name


class Command(TyperCommand):
    """A command whose help names arguments plainly (see the module's docstring)."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        return pieces + [argument_name(p, usage=True) for p in self.get_params(ctx)
                         if p.param_type_name == "argument"]

    def format_options(self, ctx: Any, formatter: Any) -> None:
        arguments, options = [], []
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            if param.param_type_name == "argument":
                arguments.append((argument_name(param), record[1]))
            else:
                options.append(record)
        for title, rows in (("Arguments", arguments), ("Options", options)):
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)


class App(typer.Typer):
    """The typer application, its commands made with `Command`."""

    def command(self, *args: Any, cls: Any = None, **kwargs: Any) -> Any:
        kwargs.setdefault("context_settings", HELP_OPTIONS)
        return super().command(*args, cls=cls or Command, **kwargs)


def amunre_version() -> str:
    try:
        return version("amunre")
    except PackageNotFoundError:          # run from a source tree that was never installed
        return "unknown (not installed)"


def show_version(value: bool) -> None:
    """`--version`: print the version and stop."""
    if value:
        print(f"amunre {amunre_version()}")
        raise typer.Exit()


def fail(message: str, code: int = 1) -> typer.Exit:
    """Print an error for the user on stderr; the Exit to raise."""
    print(message if message.startswith("error") else f"error: {message}", file=sys.stderr)
    return typer.Exit(code)


@overload
def load_or_exit(given: str, *, code: int = 1) -> Rules: ...
@overload
def load_or_exit(given: str, loader: Callable[[str], T], code: int = 1) -> T: ...
def load_or_exit(given: str, loader: Callable[[str], Any] = load_rules, code: int = 1) -> Any:
    """The rules file a user named (a path, or the name of a shipped one) as `loader` loads it;
    what is wrong with it is printed (pointing into the file) and the command exits with `code`."""
    try:
        return loader(resolve_rules(given))
    except RulesError as error:
        raise fail(error.format(), code) from None
    except AmunreError as error:
        raise fail(str(error), code) from None
