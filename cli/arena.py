"""`amunre arena`: agents play many games in rotating seats; each gets a win rate with its
interval, a mean score and a Bradley-Terry rating. The work is the library's
(tools/simulate/arena_report.py); this module parses options and prints."""

from __future__ import annotations

import functools
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from ..interpreter.base.limits import MAX_GAMES
from . import simulate as shared
from .outputs import refuse_overwriting, rules_inputs
from .render import esc
from .simulate_render import interrupted_note, num, pct, print_failures, span, titled_table

HEAD_TO_HEAD_MOST = 8      # agents beyond which the head-to-head table is left to the JSON


def arena_command(
    rules_path: Annotated[str, typer.Argument(metavar="RULES", help="A rules file, or a shipped rules file's name.",
                                              show_default=False)],
    agents: Annotated[str, typer.Option(
        "--agents", "-a", metavar="LIST", help="Comma-separated agents, one per seat (bots only; options as in "
        "'amunre agents', e.g. ismcts:ms=500). An agent listed twice is one agent playing two seats of every game.",
        show_default=False)],
    games: Annotated[int, typer.Option("--games", "-n", min=1, max=MAX_GAMES, metavar="N",
                                       help=f"Number of games, at most {MAX_GAMES:,}.")] = 100,
    seed: shared.Seed = None, jobs: shared.Jobs = None, option: shared.Option = None,
    json_path: shared.Json = None, csv_path: shared.Csv = None, backend: shared.Backend = "local",
    address: shared.Address = None,
    quiet: shared.Quiet = False, engine: shared.Engine = "compiled",
) -> None:
    """Play agents against each other in rotating seats (each moves one seat on from game to game)
    and rank them: wins with 95% intervals, mean score, and a Bradley-Terry rating on an Elo-like
    scale, each with the games or pairs of seats behind it."""
    names = shared.agent_names(agents, None)
    if len(set(names)) < 2:
        raise typer.BadParameter("an arena needs two different agents or more, one per seat "
                                 "(e.g. greedy,random,random)", param_hint="'--agents'")
    shared.check_backend(backend, address)
    shared.check_engine(engine)
    ruleset, rules = shared.load_ruleset(rules_path, option or [], [], "")
    refuse_overwriting({"--json": json_path, "--csv": csv_path}, rules_inputs("the rules file", rules))
    seed = shared.chosen_seed(seed)
    from ..tools.simulate.studies import arena  # here, not at every start (cli/simulate.py)
    study = functools.partial(arena, ruleset, games, names, seed=seed, jobs=jobs, backend=backend, address=address,
                              engine=engine)
    result = shared.run_study("arena", study, [ruleset], rules, None, names, csv_path, quiet)
    shared.write_outputs(result.report, json_path, None, None)
    shared.finish_study(result.report, result.report, json_path, print_arena)


def print_arena(console: Console, report: dict[str, Any]) -> None:
    rules = report["rules"]
    console.print(f"[bold]{esc(rules['title'] or rules['id'])}[/] ({esc(rules['path'])}): {report['players']} players, "
                  f"{esc(', '.join(report['agents']))} in rotating seats, seed {report['seed']}")
    note = interrupted_note(report)
    if note:
        console.print(note)
    if not print_failures(console, report):
        return
    played = report["games"]
    score = rules["score"]
    table = titled_table(f"Standings ({played['played']:,} games; chance is {pct(report['method']['chance'])} "
                         f"of the games an agent plays)",
                         ("#", "agent", "games", "wins", "win rate", "95% interval (Wilson)", f"mean {score} ± 95%",
                          "rating", "95% interval", "pairs"), left=("agent",), whole=True)
    for rank, row in enumerate(report["standings"], 1):
        mean, (lower, upper) = row["score"]["mean"], row["score"]["interval"]
        half = "" if mean is None or lower is None else f" ± {num((upper - lower) / 2, 1)}"
        table.add_row(str(rank), esc(row["agent"]), f"{row['games']:,}", f"{row['wins']:g}", pct(row["win_rate"]),
                      span(row["interval"]), num(mean) + half, num(row["rating"], 0),
                      span(row["rating_interval"], lambda value: num(value, 0)), f"{row['pairs']:,}")
    console.print(table)
    agents = [row["agent"] for row in report["standings"]]
    if 2 < len(agents) <= HEAD_TO_HEAD_MOST:
        _head_to_head(console, report, agents)
    console.print("[dim]games: seats played (an agent listed twice plays two seats a game); a shared win counts "
                  "a share to each winner. rating: Bradley-Terry, 1500 on average; 200 points apart, the better "
                  "placed higher in about 3 pairs of seats in 4; its interval is a bootstrap of the games. "
                  "pairs: the pairs of seats with other agents behind it.[/]")


def _head_to_head(console: Console, report: dict[str, Any], agents: list[str]) -> None:
    """Share of the pairs of seats the row's agent placed higher than the column's (a tie half)."""
    cells = {(row["agent"], row["other"]): row for row in report["head_to_head"]}
    table = Table(title="Head to head: share of pairs the row placed above the column (pairs)", title_justify="left")
    table.add_column("agent")
    for other in agents:
        table.add_column(esc(other), justify="right")
    for agent in agents:
        row = []
        for other in agents:
            cell = cells.get((agent, other))
            row.append("" if cell is None or not cell["pairs"] else
                       f"{pct((cell['won'] + cell['tied'] / 2) / cell['pairs'], 0)} ({cell['pairs']:,})")
        table.add_row(esc(agent), *row)
    console.print(table)
