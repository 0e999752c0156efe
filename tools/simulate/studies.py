"""Simulations, paired comparisons and arenas from Python, as `amunre simulate`, `amunre compare`
and `amunre arena` run them: check what is asked, play the games (runner.py), and make the report.

    from amunre.tools.simulate import simulate
    study = simulate("my_house_rule.yaml", games=500, agents=["random"] * 4, seed=1)
    study.report["metrics"]["balance"]
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...interpreter.base.errors import AmunreError
from ...interpreter.load.rules_cache import load_rules_and_document
from ...interpreter.model import Rules
from ...interpreter.play.setup import check_setup
from ..agents import make_agent
from .arena_report import ArenaTally, arena_report
from .batch import Batch, Fixed, Rotating, arm_of
from .catalogue import catalogue
from .compare_report import comparison_report
from .compiled_games import chosen_engine
from .paired import PairedTally
from .playing import Arm
from .report import simulation_report
from .runner import Outcome, Progress, available_cores, run
from .tally import Tally


@dataclass(frozen=True)
class RuleSet:
    """A rules file as a study plays it: the path, options set, per-seat starting amounts."""
    path: str
    options: dict[str, str] = field(default_factory=dict)
    start: dict[str, list[int]] = field(default_factory=dict)   # resource -> amounts of seats 0, 1, ...
    label: str = ""                                                # as the user named it (default: path)


@dataclass
class Study:
    report: dict[str, Any]        # the JSON report (grammar/report.schema.json)
    fold: Any                     # the totals it was made from (a Tally, or a PairedTally)
    outcome: Outcome


def simulate(rules: RuleSet | str, games: int, agents: list[str] | None = None, players: int | None = None,
             seed: int = 0, jobs: int | None = None, backend: str = "local", address: str | None = None,
             progress: Progress | None = None, wrap: Callable[[Callable[[], Any]], Callable[[], Any]] | None = None,
             causes: bool = False, engine: str = "compiled", notice: Callable[[str], None] | None = None) -> Study:
    """Play `games` games of one rule set and report on them. `wrap` may wrap the totals'
    factory (the command line adds one that writes each game to a CSV file); `causes` counts
    every change by the rule that caused it (about 12% slower); `engine` says where random
    agents play (the compiled engine, where the rules compile; else the interpreter): the
    totals are the same. `notice` is told of a compile first, and of the interpreter playing
    in place of the compiled engine (and why); the report's run says it too."""
    ruleset = rules if isinstance(rules, RuleSet) else RuleSet(rules)
    arm, compiled = _arm(ruleset)
    specs, players = _seats(compiled, agents, players)
    check_setup(compiled, players, arm.setup())              # as new_game will, once, before any game
    make = functools.partial(Tally, players)
    engine, note = _engine(engine, [compiled], specs, games, jobs, causes, notice)
    batch = Batch((arm,), players, Fixed(tuple(specs)), seed, games, causes, engine)
    outcome = run(batch, wrap(make) if wrap else make, jobs, backend, address, progress)
    tally = _inner(outcome.fold)
    about = {"rules": _describe(ruleset, compiled), "players": players, "agents": list(specs), "seed": seed,
             "run": _run_info(outcome, engine, note)}
    report = simulation_report(tally, catalogue(compiled), about, games, outcome.interrupted)
    return Study(report, outcome.fold, outcome)


def compare(first: RuleSet | str, second: RuleSet | str, games: int, agents: list[str] | None = None,
            players: int | None = None, seed: int = 0, jobs: int | None = None, backend: str = "local",
            address: str | None = None, progress: Progress | None = None,
            wrap: Callable[[Callable[[], Any]], Callable[[], Any]] | None = None, causes: bool = False,
            engine: str = "compiled", notice: Callable[[str], None] | None = None) -> Study:
    """Play the same `games` seeds under two rule sets and compare them pair by pair (`engine`
    and `notice` as for `simulate`)."""
    sets = [r if isinstance(r, RuleSet) else RuleSet(r) for r in (first, second)]
    arms, compiled = zip(*(_arm(s) for s in sets))
    specs, players = _seats(compiled[0], agents, players)
    for arm, rules in zip(arms, compiled):
        _seats(rules, specs, players)
        check_setup(rules, players, arm.setup())
    make = functools.partial(PairedTally, players)
    engine, note = _engine(engine, list(compiled), specs, games, jobs, causes, notice)
    batch = Batch(tuple(arms), players, Fixed(tuple(specs)), seed, games, causes, engine)
    outcome = run(batch, wrap(make) if wrap else make, jobs, backend, address, progress)
    paired = _inner(outcome.fold)
    reports = []
    for ruleset, rules, tally in zip(sets, compiled, (paired.a, paired.b)):
        about = {"rules": _describe(ruleset, rules), "players": players, "agents": list(specs), "seed": seed}
        reports.append(simulation_report(tally, catalogue(rules), about, games, outcome.interrupted))
    about = {"players": players, "agents": list(specs), "seed": seed, "run": _run_info(outcome, engine, note)}
    report = comparison_report(paired, reports[0], reports[1], about, games, outcome.interrupted)
    return Study(report, outcome.fold, outcome)


def arena(rules: RuleSet | str, games: int, agents: list[str], seed: int = 0, jobs: int | None = None,
          backend: str = "local", address: str | None = None, progress: Progress | None = None,
          wrap: Callable[[Callable[[], Any]], Callable[[], Any]] | None = None, engine: str = "compiled",
          notice: Callable[[str], None] | None = None) -> Study:
    """Play `games` games with one seat per agent listed, the agents moving one seat on from
    game to game, and rate the agents (arena_report.py). `wrap`, `engine` and `notice` as for `simulate`."""
    ruleset = rules if isinstance(rules, RuleSet) else RuleSet(rules)
    arm, compiled = _arm(ruleset)
    specs, players = _seats(compiled, agents, None)
    check_setup(compiled, players, arm.setup())
    make = functools.partial(ArenaTally, tuple(specs))
    engine, note = _engine(engine, [compiled], specs, games, jobs, False, notice)
    batch = Batch((arm,), players, Rotating(tuple(specs)), seed, games, engine=engine)
    outcome = run(batch, wrap(make) if wrap else make, jobs, backend, address, progress)
    about = {"rules": _describe(ruleset, compiled), "players": players, "agents": list(specs), "seed": seed,
             "run": _run_info(outcome, engine, note)}
    report = arena_report(_inner(outcome.fold), players, about, games, outcome.interrupted)
    return Study(report, outcome.fold, outcome)


def _arm(ruleset: RuleSet) -> tuple[Arm, Rules]:
    rules, document = load_rules_and_document(ruleset.path)
    return arm_of(ruleset.label or ruleset.path, document, ruleset.options, ruleset.start), rules


def default_players(rules: Rules) -> int:
    """The player count of a study that names neither players nor agents: 4, if the rules allow."""
    return min(max(4, rules.min_players), rules.max_players)


def _seats(rules: Rules, agents: list[str] | None, players: int | None) -> tuple[list[str], int]:
    """One agent spec per seat (default: greedy in every seat), every spec tried once so a
    wrong one fails now rather than in every game."""
    if agents is None:
        players = players if players is not None else default_players(rules)
        agents = ["greedy"] * players
    if players is None:
        players = len(agents)
    if len(agents) != players:
        raise AmunreError(f"{len(agents)} agents given for {players} players: name one per seat")
    if not rules.min_players <= players <= rules.max_players:
        raise AmunreError(f"{rules.title or rules.id} is for {rules.min_players} to {rules.max_players} "
                          f"players, not {players}")
    for spec in dict.fromkeys(agents):
        try:
            make_agent(spec, 0)
        except ValueError as error:
            raise AmunreError(str(error)) from None
    return list(agents), players


def _describe(ruleset: RuleSet, rules: Rules) -> dict[str, Any]:
    return {"path": ruleset.label or ruleset.path, "id": rules.id, "title": rules.title, "digest": rules.digest,
            "options": dict(ruleset.options), "start": {k: list(v) for k, v in ruleset.start.items()},
            "score": rules.winner.score, "report": list(rules.winner.report)}


def _engine(engine: str, rules: list[Rules], specs: list[str], games: int, jobs: int | None, causes: bool,
            notice: Callable[[str], None] | None) -> tuple[str, str | None]:
    """The engine the games play on, readied before any worker starts, and why not the one
    asked for (told to `notice` too)."""
    chosen, note = chosen_engine(engine, rules, specs, games, jobs or available_cores(), causes, notice)
    if note is not None and notice is not None:
        notice(f"playing on the interpreter: {note}")
    return chosen, note


def _run_info(outcome: Outcome, engine: str, note: str | None) -> dict[str, Any]:
    info = {"backend": outcome.backend, "jobs": outcome.jobs, "engine": engine, "seconds": round(outcome.seconds, 3),
            "games_per_second": round(outcome.done / outcome.seconds, 3) if outcome.seconds > 0 else None,
            "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    if note is not None:
        info["engine_note"] = note
    return info


def _inner(fold: Any) -> Any:
    """The totals, inside whatever `wrap` put around them."""
    return getattr(fold, "inner", fold)
