"""`amunre simulate` and `amunre compare`: many games on every core (or a Ray cluster), a
progress bar, then the report (cli/simulate_render.py) and, on request, JSON, CSV and a plot.
The work is the library's (tools/simulate/); this module parses options and prints.
Its public functions (options, running a study with its progress bar, writing the outputs) are
shared with `amunre arena` (cli/arena.py)."""

from __future__ import annotations

import functools
import json
import secrets
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, overload

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from ..interpreter.base.errors import AmunreError
from ..interpreter.base.limits import MAX_GAMES
from ..interpreter.model import Rules
from ..tools.simulate.backends import BACKENDS
from . import editions
from . import play as runner
from .conventions import fail, load_or_exit
from .outputs import output_file, refuse_overwriting, replacing, rules_inputs, write_text
from .simulate_render import print_comparison, print_simulation

if TYPE_CHECKING:
    from ..tools.simulate.studies import RuleSet

# The studies themselves (tools/simulate: the runner, numpy) are imported where a command runs
# one, not here: every `amunre` command, `--help` and each tab completion import this module.

# ---- shared options ------------------------------------------------------------------------------

Games = Annotated[int, typer.Option("--games", "-n", min=1, max=MAX_GAMES, metavar="N",
                                    help=f"Number of games (for compare: of pairs), at most {MAX_GAMES:,}.")]
Players = Annotated[int | None, typer.Option(
    "--players", "-p", metavar="N", help="Number of players. Default: the number of --agents, else 4.",
    show_default=False)]
Agents = Annotated[str | None, typer.Option(
    "--agents", "-a", metavar="LIST", help="Comma-separated agent per seat (bots only: "
    + ", ".join(n for n in runner.AGENT_NAMES if n != "human") + "). Default: greedy in every seat.",
    show_default=False)]
Seed = Annotated[int | None, typer.Option(
    "--seed", "-s", metavar="N",
    help="Base seed: game i is played with a seed made from it and i, so the same seed gives "
    "the same report whatever --jobs or --backend. Default: a fresh seed, printed.", show_default=False)]
Jobs = Annotated[int | None, typer.Option(
    "--jobs", "-j", min=1, metavar="N",
    help="Worker processes (with --backend ray: Ray CPUs to start). Default: every core.", show_default=False)]
Json = Annotated[Path | None, typer.Option(
    "--json", metavar="FILE",
    help="Write the report as JSON to this file ('-': to standard output, instead of the tables).",
    dir_okay=False, show_default=False)]
Csv = Annotated[Path | None, typer.Option(
    "--csv", metavar="FILE", help="Write one row per game (seed, scores, winners...) to this CSV file.", dir_okay=False,
    show_default=False)]
Plot = Annotated[Path | None, typer.Option(
    "--plot", metavar="FILE.png", help="Draw the score distributions and points by source to this picture "
    "file, in the format its extension names (.png, .svg, .pdf...; needs matplotlib: "
    "pip install 'amunre[plot]').", dir_okay=False, show_default=False)]
Backend = Annotated[str, typer.Option(
    "--backend", metavar="local|ray",
    help=f"Where games run: {' or '.join(BACKENDS)} (needs pip install 'amunre[ray]').")]
Address = Annotated[str | None, typer.Option(
    "--address", metavar="ADDRESS",
    help="With --backend ray: the address of a running Ray cluster (e.g. ray://host:10001 or "
    "auto). Default: start a local Ray for this run.", show_default=False)]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")]
Causes = Annotated[bool, typer.Option(
    "--causes", help="Also count every change (of a resource, token, owner...) by the rule that caused it, "
    "from the engine's change events: how often each effect fired. About 12% slower.")]
Engine = Annotated[str, typer.Option(
    "--engine", metavar="ENGINE", help="Where random agents play and the greedy, heuristic and ismcts bots "
    "look ahead: 'compiled' (machine code, where the rules compile; compiled once, then kept; a study too small "
    "to gain from it plays in the interpreter and says so) or 'interpreter'. The totals are the same.")]
Option = Annotated[list[str] | None, typer.Option(
    "--option", "-o", metavar="NAME=VALUE", help="Set one of the rules' options (repeatable).", show_default=False)]
Start = Annotated[list[str] | None, typer.Option(
    "--start", metavar="RESOURCE=N,N,...", help="Starting amounts by seat: seat 0 gets the first number, "
    "seat 1 the next... (repeatable; e.g. a handicap).", show_default=False)]


def load_ruleset(given: str, options: list[str], starts: list[str], hint: str) -> tuple[RuleSet, Rules]:
    """The rule set a study plays, and its rules (compiled once, to check options and amounts)."""
    from ..tools.simulate.studies import RuleSet
    path = runner.resolve_rules(given)
    rules = load_or_exit(path)
    try:
        chosen = editions.chosen_options(rules, options)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint=f"'--option{hint}'") from None
    return RuleSet(path, chosen, _starts(rules, starts, hint), label=given), rules


def _starts(rules: Rules, given: list[str], hint: str) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for text in given:
        name, sep, values = text.partition("=")
        name = name.strip()
        if not sep or name not in rules.resources:
            raise typer.BadParameter(f"'{text}' is not RESOURCE=N,N,... with one of the rules' resources "
                                     f"({', '.join(rules.resources)})", param_hint=f"'--start{hint}'")
        try:
            out[name] = [int(v) for v in values.split(",")]
        except ValueError:
            raise typer.BadParameter(f"'{values}' is not a list of whole numbers",
                                     param_hint=f"'--start{hint}'") from None
    return out


@overload
def agent_names(spec: str, players: int | None) -> list[str]: ...
@overload
def agent_names(spec: str | None, players: int | None) -> list[str] | None: ...
def agent_names(spec: str | None, players: int | None) -> list[str] | None:
    """The agent of each seat: from --agents, else greedy in each of --players seats, else None
    (the rules' own player count, not known yet)."""
    if players is not None and not 0 < players <= 1000:
        raise typer.BadParameter(f"{players} players?", param_hint="'--players'")
    if spec is None:
        return None if players is None else ["greedy"] * players
    try:
        names = runner.parse_agents(spec, players)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="'--agents'") from None
    if "human" in names:
        raise typer.BadParameter("a simulation plays bots only, not 'human'", param_hint="'--agents'")
    return names


class _Speed(ProgressColumn):
    def render(self, task: Any) -> Text:
        return Text(f"{task.speed:.1f} games/s" if task.speed else "", style="progress.data.speed")


def _progress(quiet: bool, label: str) -> tuple[Any, Any]:
    """A progress bar on standard error (games, games/s, elapsed, ETA) and its update function."""
    if quiet:
        return None, None
    # No refresh thread (auto_refresh off): the pool's processes may then be forked safely.
    bar = Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), _Speed(), TimeElapsedColumn(),
                   TextColumn("ETA"), TimeRemainingColumn(), console=Console(stderr=True), transient=True,
                   auto_refresh=False)
    task = bar.add_task(label, total=None)
    shown = [0.0]

    def update(done: int, total: int) -> None:
        now = time.monotonic()
        bar.update(task, completed=done, total=total)
        if now - shown[0] >= 0.1 or done == total:
            shown[0] = now
            bar.refresh()
    return bar, update


LONG_STUDY = 180.0       # seconds: a study expected to take longer is worth a word before the wait


def _forecast(update: Any, say: Any, kind: str, seats: int, agents: list[str] | None) -> Any:
    """The progress callback, saying once, when the first games show a long wait, about how
    long the study will take; and, where bots play, that random agents (machine code) give a
    quick look in seconds. The pace is taken from the first game done on: what comes before it
    (starting the processes, compiling the rules) is paid once, not per game."""
    started = time.monotonic()
    said = [False]
    first: list[tuple[float, int]] = []          # when the first games were done, and how many
    unit = "pairs" if kind == "compare" else "games"

    def progress(done: int, total: int) -> None:
        if update is not None:
            update(done, total)
        if said[0] or done <= 0 or done >= total:
            return
        now = time.monotonic()
        if not first:
            first.append((now, done))
            return
        window, games = now - first[0][0], done - first[0][1]
        if games <= 0 or (window < 10 and games * 20 < total):    # too few games yet to tell the pace
            return
        said[0] = True
        pace = games / max(window, 1e-9)
        expected = (now - started) + (total - done) / pace
        if expected < LONG_STUDY:
            return
        line = f"about {_duration(expected)} for {total:,} {unit} ({pace:.1f} {unit}/s)"
        if kind != "arena" and any(spec != "random" for spec in agents or ["greedy"]):
            line += (f"; for a quick look, random agents play in machine code in seconds: "
                     f"--agents {','.join(['random'] * seats)}")
        say(line)
    return progress


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{max(round(seconds), 1)} s"
    minutes = round(seconds / 60)
    if minutes < 120:
        return f"{minutes} minutes"
    return f"{minutes // 60} hours {minutes % 60} minutes"


def run_study(kind: str, study: Any, arms: list[RuleSet], rules: Rules, players: int | None,
               agents: list[str] | None, csv_path: Path | None, quiet: bool) -> Any:
    """Run a study with the progress bar and the CSV file (its columns from `rules`, the first
    rule set's); refuse what cannot be done."""
    from ..tools.simulate.records import RowSink, WithRows, columns
    from ..tools.simulate.studies import default_players
    try:
        with ExitStack() as stack:
            wrap = None
            sink = None
            seats = players or (len(agents) if agents else default_players(rules))
            if csv_path is not None:
                # Line-buffered: each game's row reaches the file in progress as it is written
                # (`tail -f` follows a long run there, and a run stopped hard keeps every row
                # written); it takes the place of `csv_path` when the study returns, interrupted
                # too, and a study that fails leaves `csv_path` as it was.
                handle = stack.enter_context(output_file(csv_path, newline="", buffering=1))
                sink = RowSink(handle, columns(seats, rules.winner.score, tuple(rules.winner.report)))
                labels = ("A", "B") if kind == "compare" else (arms[0].label,)
                wrap = lambda make: functools.partial(WithRows, make, sink, labels, tuple(rules.winner.report))  # noqa: E731
            bar, update = _progress(quiet, "pairs" if kind == "compare" else "games")
            if bar is not None:
                stack.enter_context(bar)
            console = bar.console if bar is not None else Console(stderr=True)
            say = lambda line: console.print(line, markup=False, highlight=False, soft_wrap=True)  # noqa: E731
            try:
                result = study(wrap=wrap, progress=_forecast(update, say, kind, seats, agents), notice=say)
            except AmunreError as error:
                raise fail(str(error)) from None
            if sink is not None:
                sink.close()
    except OSError as error:         # the CSV file could not be made, or put in place at the end
        if csv_path is None:
            raise
        raise fail(f"cannot write '{csv_path}': {error.strerror or error}") from None
    return result


def write_outputs(report: dict[str, Any], json_path: Path | None, plot_path: Path | None, draw: Any) -> None:
    """Write the report as JSON and its plot, each whole or not at all (cli/outputs.py)."""
    if json_path is not None and str(json_path) != "-":
        try:
            write_text(json_path, json.dumps(report, indent=1) + "\n")
        except OSError as error:
            raise fail(f"cannot write '{json_path}': {error.strerror or error}") from None
    if plot_path is not None:
        try:
            with replacing(plot_path) as temporary:
                draw(report, temporary)
        except ImportError:
            raise fail("--plot needs matplotlib: pip install 'amunre[plot]'") from None
        except OSError as error:
            raise fail(f"cannot write '{plot_path}': {error.strerror or error}") from None


def finish_study(report: dict[str, Any], side: dict[str, Any], json_path: Path | None, printer: Any) -> None:
    console = Console(highlight=False, soft_wrap=False)
    if not console.is_terminal:                   # a file or a pipe: wide enough for the tables
        console = Console(highlight=False, soft_wrap=False, width=120)
    if json_path is not None and str(json_path) == "-":
        sys.stdout.write(json.dumps(report) + "\n")
    else:
        printer(console, report)
        run, played = report["run"], side["games"]["played"]
        paired = report.get("kind") == "compare"            # a compare counts pairs: two games each
        what, unit = (f"{played:,} pairs ({2 * played:,} games)", "pairs/s") if paired else (f"{played:,} games",
                                                                                            "games/s")
        console.print(f"[dim]{what} in {run['seconds']:.1f} s "
                      f"({run['games_per_second'] or 0:.1f} {unit}) on {run['jobs']} "
                      f"{'Ray CPUs' if run['backend'] == 'ray' else 'processes' if run['jobs'] > 1 else 'process'}"
                      f"{', compiled engine' if run.get('engine') == 'compiled' else ''}[/]")
    if side["games"]["interrupted"]:
        raise typer.Exit(130)
    if side["games"]["failed"]:
        raise typer.Exit(1)


def chosen_seed(seed: int | None) -> int:
    if seed is not None:
        return seed
    seed = secrets.randbelow(10 ** 6)
    print(f"seed {seed} (run it again with --seed {seed})", file=sys.stderr)
    return seed


# ---- the commands --------------------------------------------------------------------------------

def simulate_command(
    rules_path: Annotated[str, typer.Argument(metavar="RULES", help="A rules file, or a shipped rules file's name.",
                                              show_default=False)],
    games: Games = 1000, players: Players = None, agents: Agents = None, seed: Seed = None, jobs: Jobs = None,
    option: Option = None, start: Start = None, json_path: Json = None, csv_path: Csv = None,
    plot_path: Plot = None, backend: Backend = "local", address: Address = None, quiet: Quiet = False,
    causes: Causes = False, engine: Engine = "compiled",
) -> None:
    """Play many games between bots and report what the rules do: win rates by seat with
    intervals, scores, points by source, balance, drama, what was played and what never was."""
    names = agent_names(agents, players)
    check_backend(backend, address)
    check_engine(engine)
    ruleset, rules = load_ruleset(rules_path, option or [], start or [], "")
    refuse_overwriting({"--json": json_path, "--csv": csv_path, "--plot": plot_path},
                       rules_inputs("the rules file", rules))
    check_plot(plot_path)
    seed = chosen_seed(seed)
    from ..tools.simulate.studies import simulate
    study = functools.partial(simulate, ruleset, games, agents=names, players=players, seed=seed, jobs=jobs,
                              backend=backend, address=address, causes=causes, engine=engine)
    result = run_study("simulate", study, [ruleset], rules, players, names, csv_path, quiet)
    from ..tools.simulate.plot import draw_simulation
    write_outputs(result.report, json_path, plot_path, draw_simulation)
    finish_study(result.report, result.report, json_path, print_simulation)


def compare_command(
    first: Annotated[str, typer.Argument(metavar="A", help="A rules file, or a shipped rules file's name.",
                                         show_default=False)],
    second: Annotated[str | None, typer.Argument(
        metavar="B", help="Another one (default: A again, to compare option settings).", show_default=False)] = None,
    games: Games = 1000, players: Players = None, agents: Agents = None, seed: Seed = None, jobs: Jobs = None,
    option: Option = None,
    option_a: Annotated[list[str] | None, typer.Option(
        "--option-a", metavar="NAME=VALUE", help="An option set for A only (repeatable).", show_default=False)] = None,
    option_b: Annotated[list[str] | None, typer.Option(
        "--option-b", metavar="NAME=VALUE", help="An option set for B only (repeatable).", show_default=False)] = None,
    start_a: Annotated[list[str] | None, typer.Option(
        "--start-a", metavar="RESOURCE=N,N,...", help="Starting amounts by seat for A only.",
        show_default=False)] = None,
    start_b: Annotated[list[str] | None, typer.Option(
        "--start-b", metavar="RESOURCE=N,N,...", help="Starting amounts by seat for B only.",
        show_default=False)] = None,
    json_path: Json = None, csv_path: Csv = None, plot_path: Plot = None, backend: Backend = "local",
    address: Address = None, quiet: Quiet = False, causes: Causes = False,
    everything: Annotated[bool, typer.Option("--all", help="List every row on cards and picks, not only "
                                             "the significant ones.")] = False,
    engine: Engine = "compiled",
) -> None:
    """Play the same seeds under two rule sets (two files, or one file with other options) and
    show, statistic by statistic, A, B, the difference with its interval and its significance."""
    names = agent_names(agents, players)
    check_backend(backend, address)
    check_engine(engine)
    a, rules = load_ruleset(first, (option or []) + (option_a or []), start_a or [], "-a")
    b, rules_b = load_ruleset(second or first, (option or []) + (option_b or []), start_b or [], "-b")
    refuse_overwriting({"--json": json_path, "--csv": csv_path, "--plot": plot_path},
                       rules_inputs("rules file A", rules) + rules_inputs("rules file B", rules_b))
    check_plot(plot_path)
    seed = chosen_seed(seed)
    from ..tools.simulate.studies import compare
    study = functools.partial(compare, a, b, games, agents=names, players=players, seed=seed, jobs=jobs,
                              backend=backend, address=address, causes=causes, engine=engine)
    result = run_study("compare", study, [a, b], rules, players, names, csv_path, quiet)
    from ..tools.simulate.plot import draw_comparison
    write_outputs(result.report, json_path, plot_path, draw_comparison)
    finish_study(result.report, result.report["a"], json_path,
                 functools.partial(print_comparison, everything=everything))


def check_plot(path: Path | None) -> None:
    """Before any game: matplotlib is there, and the file's extension is a format it writes (it
    picks the format by the extension; found only after the games, the games were lost)."""
    if path is None:
        return
    try:
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError:
        raise fail("--plot needs matplotlib: pip install 'amunre[plot]'") from None
    formats = sorted(FigureCanvasBase.get_supported_filetypes())
    extension = path.suffix.lower().removeprefix(".")
    if extension not in formats:
        raise typer.BadParameter(f"'{path}' does not end in the extension of a picture format; end it in "
                                 f"{', '.join('.' + f for f in formats)} (e.g. scores.png)", param_hint="'--plot'")


def check_engine(engine: str) -> None:
    from ..tools.simulate.compiled_games import ENGINES
    if engine not in ENGINES:
        raise typer.BadParameter(f"'{engine}' is not one of {', '.join(ENGINES)}", param_hint="'--engine'")


def check_backend(backend: str, address: str | None) -> None:
    if backend not in BACKENDS:
        raise typer.BadParameter(f"'{backend}' is not one of {', '.join(BACKENDS)}", param_hint="'--backend'")
    if address is not None and backend != "ray":
        raise typer.BadParameter("--address is for --backend ray", param_hint="'--address'")
