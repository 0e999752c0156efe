"""The `amunre` command: play a game, check rules files, print the rules-file schema.

Command functions stay thin: they parse options, call the interpreter and hand the printing to
`render`. Every error the user can cause (bad options, a missing or broken rules file) ends in
a clear message and a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import functools
import importlib.resources
import json
import secrets
import shlex
import sys
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from .. import AmunreError, load_rules, new_game
from ..interpreter.base.errors import IllegalAction, shown_value
from ..interpreter.base.limits import MAX_PLAYERS
from ..interpreter.game import Game
from ..interpreter.load.document import Document
from ..interpreter.load.loader import load_document
from ..interpreter.model import Rules
from ..tools.diff import diff_documents
from . import agents as agent_list
from . import arena, diffs, editions, explain, logs, simulate
from . import check as checking
from . import fmt as formatting
from . import play as runner
from . import resolve as resolving
from . import rulebook as rulebooks
from . import validate as validating
from .conventions import HELP_OPTIONS, App, fail, load_or_exit, show_version
from .human import HumanAgent, HumanQuit
from .listing import listing_console, print_listing
from .outputs import output_file, refuse_overwriting, rules_inputs
from .render import PlayByPlay, esc, result_table, winner_line
from .serve.command import serve_command

app = App(
    name="amunre",
    help="Play, check and study board games whose rules are written as data. Seats are numbered "
         "from 0 everywhere (play-by-play, JSON, logs, options).",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings=HELP_OPTIONS,
)

RulesArg = Annotated[str, typer.Argument(
    metavar="RULES", help="A rules file (YAML), or the name of a rules file shipped with amunre.",
    show_default=False)]


# ---- run -------------------------------------------------------------------------------------

@app.command()
def run(
    rules_path: RulesArg,
    players: Annotated[int | None, typer.Option(
        "--players", "-p", metavar="N", help="Number of players (the rules file says how many it allows). "
        "Default: the number of --agents, else 4.", show_default=False)] = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", "-s", metavar="N", help="Random seed; the same seed, rules and agents replay the same game. "
        "Default: a fresh seed, printed so the game can be replayed.", show_default=False)] = None,
    agents: Annotated[str | None, typer.Option(
        "--agents", "-a", metavar="LIST", help="Comma-separated agent per seat, from: "
        + ", ".join(runner.AGENT_NAMES) + ", each maybe with options, e.g. ismcts:ms=500,c=0.5 "
        "(`amunre agents` lists them). Default: greedy in every seat.", show_default=False)] = None,
    log: Annotated[Path | None, typer.Option(
        "--log", metavar="FILE", help="Write every action and event (each change with its cause) as JSON "
        "lines to this file: replayable, and `amunre explain FILE` reads it.",
        dir_okay=False, show_default=False)] = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print only the result as JSON: seed, rules id and digest, agents, options, scores, "
        "winners, the resources the rules report, breakdown, and the ties lost on a tie-break.")] = False,
    quiet: Annotated[bool, typer.Option(
        "--quiet", "-q", help="Print only the final score table.")] = False,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", metavar="NAME=VALUE", help="Set one of the rules' options (repeatable; "
        "`amunre options RULES` lists them).", show_default=False)] = None,
) -> None:
    """Play a whole game and print it move by move, then the final scores."""
    names = _agent_names(agents, players)
    path = runner.resolve_rules(rules_path)
    rules = load_or_exit(path)
    refuse_overwriting({"--log": log}, rules_inputs("the rules file", rules))
    try:
        chosen = editions.chosen_options(rules, option or [])
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="'--option'") from None
    count = len(names)
    _check_table_size(rules, count, "'--players'" if agents is None or players is not None else "'--agents'")
    seeded = seed is not None
    if seed is None:
        seed = secrets.randbelow(10 ** 6)
    console = Console(highlight=False, soft_wrap=True)
    ui = Console(stderr=True, highlight=False, soft_wrap=True) if as_json else console
    show = PlayByPlay(console, rules, names)
    seat_agents = runner.build_agents(names, seed, lambda: HumanAgent(ui, before=show.flush))
    replay = _replay_command(rules_path, seed, names, chosen)
    if as_json and not seeded:
        print(f"seed {seed} (replay: {replay} --json)", file=sys.stderr)
    if not as_json and not quiet:
        _print_heading(console, rules, count, seed, chosen, replay)
    try:
        game = new_game(rules, players=count, seed=seed, setup={"options": chosen})
    except AmunreError as error:
        raise fail(str(error)) from None
    report = (lambda seat, action, events: None) if as_json or quiet else show.step
    # The rules file's path resolved, so that the log replays from anywhere (`replay --rules`
    # gives the file again if it moves; the digest says it is the same).
    header = functools.partial(runner.JsonlLog.header, rules=rules, path=str(Path(path).resolve()), seed=seed,
                               players=count, agents=names, options=chosen)
    _play_logged(game, seat_agents, report, log, header, ui, replay)
    _finish(console, rules, game.result(), names, as_json, quiet,
            {"seed": seed, "players": count, "agents": names, "options": chosen},
            game.lost_ties() if game.over else [])


def _agent_names(agents: str | None, players: int | None) -> list[str]:
    """The agent of each seat, from --agents and --players; an absurd --players is refused
    before anything is sized by it."""
    if players is not None and not 0 < players <= 1000:
        raise typer.BadParameter(f"{players} players? A rules file is for 1 to {MAX_PLAYERS} at the very most",
                                 param_hint="'--players'")
    try:
        return runner.parse_agents(agents, players)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="'--agents'") from None


def _check_table_size(rules: Rules, count: int, hint: str) -> None:
    """The rules say how many may play; the error points at the option the count came from."""
    if not rules.min_players <= count <= rules.max_players:
        raise typer.BadParameter(f"{rules.title or rules.id} is for {rules.min_players} to "
                                 f"{rules.max_players} players, not {count}", param_hint=hint)


def _replay_command(rules_path: str, seed: int, names: list[str], chosen: dict[str, str]) -> str:
    """The command line that plays this very game again (printed, so a fresh seed is not lost)."""
    options = "".join(f" -o {shlex.quote(f'{name}={value}')}" for name, value in chosen.items())
    return f"amunre run {shlex.quote(rules_path)} --seed {seed} --agents {','.join(names)}" + options


def _print_heading(console: Console, rules: Rules, count: int, seed: int, chosen: dict[str, str],
                   replay: str) -> None:
    console.print(f"[bold]{esc(rules.title or rules.id)}[/] - {count} players, seed {seed}"
                  + "".join(f", {esc(n)}={esc(v)}" for n, v in chosen.items()), highlight=False)
    console.print(f"[dim]replay: {esc(replay)}[/]", highlight=False)


def _play_logged(game: Game, seat_agents: list[Any], report: runner.Report, log: Path | None,
                 header: Callable[[runner.JsonlLog], None], ui: Console, replay: str) -> None:
    """Play the game to its end, into the log file too if there is one. The log is written
    whole (cli/outputs.py): put in place when the game ends or a person leaves it (what it
    holds replays up to there), never half-written over an older file. Every way a game can
    stop early (a person leaving, Ctrl-C, an agent or the rules failing) ends in a message
    and an exit status."""
    try:
        with ExitStack() as outputs:
            if log is not None:
                jsonl = runner.JsonlLog(outputs.enter_context(output_file(log)))
                header(jsonl)
                report = _tee(report, jsonl.step)
            left = _play_until_left(game, seat_agents, report)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        raise typer.Exit(130) from None
    except IllegalAction as error:
        raise fail(f"an agent chose an illegal action: {error}") from None
    except AmunreError as error:
        raise fail(f"the game stopped: {error}") from None
    except OSError as error:       # the log's file could not be made, or put in place at the end
        if log is None:
            raise
        raise fail(f"cannot write log file '{log}': {error.strerror or error}") from None
    if left is not None:
        ui.print(f"Game left ({left}). The same game again: {esc(replay)}", highlight=False)
        raise typer.Exit(0)


def _play_until_left(game: Game, agents: list[Any], report: runner.Report) -> HumanQuit | None:
    """Play the game to its end, or until a person leaves it (returned: a normal end of `run`,
    whose log, the game so far, is kept)."""
    try:
        runner.play(game, agents, report)
    except HumanQuit as stop:
        return stop
    return None


def _tee(first: runner.Report, second: runner.Report) -> runner.Report:
    def both(*args: Any) -> None:
        first(*args)
        second(*args)
    return both


def _finish(console: Console, rules: Rules, result: dict[str, Any], names: list[str], as_json: bool, quiet: bool,
            game: dict[str, Any], ties: list[dict[str, Any]]) -> None:
    """The result: as JSON (what game it was: seed, rules, agents, options; then `game.result()`,
    and the ties lost on a tie-break), or the final table."""
    if as_json:
        about = {"seed": game["seed"], "rules_id": rules.id, "digest": rules.digest, "players": game["players"],
                 "agents": names, "options": game["options"]}
        sys.stdout.write(json.dumps({**about, **result, "ties": ties}) + "\n")
        return
    score = rules.winner.score
    table = result_table(result, names, title="Final scores", score=score)
    if quiet:
        table.caption = f"seed {game['seed']}" + "".join(f", {n}={v}" for n, v in game["options"].items())
    console.print(table)
    console.print(winner_line(result, names, score=score, ties=ties), highlight=False)


# ---- replay ----------------------------------------------------------------------------------

@app.command()
def replay(
    log_path: Annotated[Path, typer.Argument(
        metavar="LOG", help="A game log written by `amunre run --log`.", show_default=False)],
    rules_path: Annotated[str | None, typer.Option(
        "--rules", metavar="FILE", help="The rules file the game was played with, when the path the log "
        "names is not there any more (it must be the same rules: the log's digest is checked).",
        show_default=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print only the result as JSON (as `run --json`).")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only the final score table.")] = False,
) -> None:
    """Replay a logged game from its seed and actions, and print it like `run` does; every line of
    the log (each action's seat, each event) must be what the replayed game did."""
    try:
        header, body = runner.load_log_lines(log_path)
    except AmunreError as error:
        raise fail(str(error)) from None
    rules = logs.logged_rules(header, rules_path)
    console = Console(highlight=False, soft_wrap=True)
    names = list(header.get("agents", []))
    show = PlayByPlay(console, rules, names)
    game = logs.replay_log(log_path, header, body, rules, None if as_json or quiet else show.step)
    _finish(console, rules, game.result(), names, as_json, quiet,
            {"seed": header["seed"], "players": header["players"], "options": header.get("options", {})},
            game.lost_ties() if game.over else [])


# ---- validate --------------------------------------------------------------------------------

app.command("validate")(validating.validate)
app.command("check")(checking.check)
app.command("rulebook")(rulebooks.rulebook)
app.command("resolve")(resolving.resolve)
app.command("fmt")(formatting.fmt)


# ---- diff ------------------------------------------------------------------------------------

@app.command("diff")
def diff_command(
    first: Annotated[str, typer.Argument(metavar="A", help="A rules file, or a shipped rules file's name.",
                                         show_default=False)],
    second: Annotated[str, typer.Argument(metavar="B", help="Another one.", show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help="Print the changes as a JSON list.")] = False,
) -> None:
    """Show how two rules files differ, by meaning: values by key and id, effects as DSL.
    Exit status: 0 the same, 1 different, 2 a file that does not load (like diff)."""
    changes = diff_documents(*(load_or_exit(given, _valid_document, code=2) for given in (first, second)))
    if as_json:
        sys.stdout.write(json.dumps([c.to_json() for c in changes]) + "\n")
    else:
        console = Console(highlight=False, soft_wrap=True)
        for line in diffs.diff_lines(changes, color=True) or ["the same rules"]:
            console.print(line, highlight=False)
    raise typer.Exit(1 if changes else 0)


def _valid_document(path: str) -> Document:
    """A rules file's document, once the file has loaded as valid rules."""
    load_rules(path)
    return load_document(path)


# ---- editions and options --------------------------------------------------------------------

@app.command("editions")
def list_editions(
    as_json: Annotated[bool, typer.Option("--json", help="Print the list as JSON.")] = False,
) -> None:
    """List the rules files shipped with amunre: each runs by its name (`amunre run NAME`)."""
    rows = editions.editions()
    if as_json:
        sys.stdout.write(json.dumps(rows) + "\n")
        return
    columns = ["name", "title", "year", "publisher", "players", "source"]
    lines = [[row["name"], f"does not load: {row['error']}", "", "", "", ""] if "error" in row
             else ["" if row[c] is None else str(row[c]) for c in columns] for row in rows]
    print_listing(listing_console(), columns, lines, {"name"}, title="Rules files shipped with amunre")


@app.command("options")
def list_options(
    rules_path: RulesArg,
    as_json: Annotated[bool, typer.Option("--json", help="Print the options as JSON.")] = False,
) -> None:
    """List a rules file's options (the readings its sources disagree on), with their values."""
    rows = editions.options(load_or_exit(rules_path))
    if as_json:
        sys.stdout.write(json.dumps(rows) + "\n")
        return
    console = listing_console()
    if not rows:
        console.print(f"{esc(rules_path)} has no options.")
        return
    lines = [[row["name"], ", ".join([row["default"]] + [v for v in row["values"] if v != row["default"]]),
              row["doc"]] for row in rows]
    print_listing(console, ["option", "values (default first)", "what it decides"], lines,
                  {"option", "values (default first)"},
                  title=f"Options of {rules_path} (set one with: amunre run RULES -o NAME=VALUE)")


app.command("agents")(agent_list.list_agents)


# ---- schema ----------------------------------------------------------------------------------

@app.command()
def schema(
    overlay: Annotated[bool, typer.Option(
        "--overlay",
        help="The schema of a file with `extends` (a house rule): nothing required, `~` allowed.")] = False,
    log: Annotated[bool, typer.Option(
        "--log", help="The schema of a game log's lines (`run --log`), events included.")] = False,
) -> None:
    """Print the JSON Schema that rules files follow (for editors and other tools)."""
    name = "log.schema.json" if log else "overlay.schema.json" if overlay else "rules.schema.json"
    try:
        text = importlib.resources.files("amunre.grammar").joinpath(name).read_text(encoding="utf-8")
    except OSError as error:
        raise fail(f"the rules schema is missing from this installation: {error}") from None
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


app.command("explain")(explain.explain)

# ---- simulate and compare (cli/simulate.py) --------------------------------------------------------

app.command("simulate")(simulate.simulate_command)
app.command("compare")(simulate.compare_command)
app.command("arena")(arena.arena_command)

# ---- the browser (cli/serve/) -------------------------------------------------------------------

app.command("serve")(serve_command)


@app.callback()
def _options(
    debug: Annotated[bool, typer.Option(
        "--debug", help="On an unexpected failure, show Python's traceback instead of one line.")] = False,
    version: Annotated[bool, typer.Option(
        "--version", callback=show_version, is_eager=True, help="Print amunre's version and exit.")] = False,
) -> None:
    """Play, check and study board games whose rules are written as data."""


def main() -> None:
    """Entry point of the `amunre` console script: every failure ends in one line on standard
    error and exit status 1 (2 for a mistake in the command line itself), never a traceback
    unless `--debug` asks for one."""
    try:
        app()
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        sys.exit(130)
    except AmunreError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(1)
    except Exception as error:          # a bug of amunre's: say so in one line
        if "--debug" in sys.argv[1:]:
            raise
        print(f"error: amunre failed unexpectedly ({type(error).__name__}: {shown_value(str(error), 200)}); "
              "run it again with --debug to see where", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
