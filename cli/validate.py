"""`amunre validate`: load and check rules files, print the lint's warnings, and with `--play`
play random games to find what only a running game shows.

Random games are seeded and replayable: game k of `--play N --seed S` has the seed S + k, a
player count and options drawn from that seed, and random agents seeded as `amunre run`
seeds them, so the printed replay command plays the very same game.
"""

from __future__ import annotations

import random
import shlex
import sys
from dataclasses import dataclass, field
from typing import Annotated, Any

import typer

from ..interpreter.base.errors import AmunreError, RulesError
from ..interpreter.base.limits import MAX_GAMES
from ..interpreter.game import new_game
from ..interpreter.load.rules_cache import load_rules_and_document
from ..interpreter.model import Rules
from ..tools.lint import lint
from . import play as runner


def validate(
    paths: Annotated[list[str], typer.Argument(
        metavar="RULES", help="Rules files to check (paths, or names of shipped rules files).", show_default=False)],
    provenance: Annotated[bool, typer.Option(
        "--provenance", help="Also list, per place, the board facts marked as reconstructed "
        "(not confirmed by a rulebook).")] = False,
    strict: Annotated[bool, typer.Option(
        "--strict", help="Count the lint's warnings as errors (exit status 1).")] = False,
    play: Annotated[int, typer.Option(
        "--play", metavar="N", min=0, max=MAX_GAMES, help="Also play N random games per file and report any "
        f"error a rule raises while a game runs, with the seed that replays it (at most {MAX_GAMES:,}).")] = 0,
    seed: Annotated[int, typer.Option(
        "--seed", metavar="S", min=0, help="The seed of the first game --play plays (then S+1, ...).")] = 0,
) -> None:
    """Check rules files: schema, names, DSL, then the lint's warnings (rules that load but would
    not play as meant); print OK or every problem with its position."""
    failed = 0
    for path in paths:
        failed += not _check(path, provenance, strict, play, seed)
    if failed:
        if len(paths) > 1:
            print(f"{failed} of {len(paths)} files have problems.")
        raise typer.Exit(1)


def _check(path: str, provenance: bool, strict: bool, games: int, seed: int) -> bool:
    """Check one file and print what was found; whether it passed."""
    resolved = runner.resolve_rules(path)
    try:
        rules, doc = load_rules_and_document(resolved)
    except RulesError as error:
        print(error.format())
        return False
    except AmunreError as error:
        print(f"{path}: {error}")
        return False
    findings = lint(doc, rules)
    for finding in findings:
        print(finding.format("error" if strict else "warning") + "\n")
    ok = not (strict and findings)
    if ok:
        said = [f"{len(rules.examples)} example{'s' if len(rules.examples) != 1 else ''}"] if rules.examples else []
        said += [f"{len(findings)} warning{'s' if len(findings) != 1 else ''}"] if findings else []
        print(f"OK {path}" + (f" ({', '.join(said)})" if said else ""))
    else:
        print(f"{len(findings)} problem{'s' if len(findings) != 1 else ''} found.")
    if provenance:
        _print_provenance(rules)
    if games:
        ok = play_games(rules, path, games, seed) and ok
    return ok


# ---- random games ------------------------------------------------------------------------------

@dataclass
class _Failure:
    message: str
    seeds: list[int] = field(default_factory=list)
    replay: str = ""


def game_setup(rules: Rules, seed: int, first: bool) -> tuple[int, dict[str, str]]:
    """The player count and options of the random game with this seed (the first game of a
    run keeps the default options)."""
    chance = random.Random(seed)
    players = rules.min_players + seed % (rules.max_players - rules.min_players + 1)
    options = {} if first else {name: chance.choice(opt.values) for name, opt in rules.options.items()}
    return players, {name: value for name, value in options.items() if value != rules.options[name].default}


def play_games(rules: Rules, path: str, games: int, first_seed: int) -> bool:
    """Play `games` random games, print each distinct error once with the seeds that raise it
    and a command that replays the first; whether all games ended without one."""
    failures: dict[str, _Failure] = {}
    show = sys.stderr.isatty()
    for k in range(games):
        seed = first_seed + k
        if show:
            print(f"\rplaying {k + 1}/{games}", end="", file=sys.stderr, flush=True)
        players, options = game_setup(rules, seed, k == 0)
        message = _play_one(rules, seed, players, options)
        if message is not None:
            failure = failures.setdefault(message, _Failure(message))
            if not failure.seeds:
                failure.replay = _replay(path, seed, players, options)
            failure.seeds.append(seed)
    if show:
        print("\r" + " " * 30 + "\r", end="", file=sys.stderr, flush=True)
    last = first_seed + games - 1
    span = f"seed {first_seed}" if games == 1 else f"seeds {first_seed} to {last}"
    if not failures:
        print(f"  played {games} random game{'s' if games != 1 else ''} ({span}): no errors")
        return True
    failed = sum(len(f.seeds) for f in failures.values())
    print(f"  {failed} of {games} random games ({span}) stopped with an error:")
    for failure in failures.values():
        seeds = ", ".join(map(str, failure.seeds[:20])) + (", ..." if len(failure.seeds) > 20 else "")
        print(f"\nseed{'s' if len(failure.seeds) > 1 else ''} {seeds}: {failure.message}")
        print(f"  replay: {failure.replay}")
    return False


def _play_one(rules: Rules, seed: int, players: int, options: dict[str, str]) -> str | None:
    """Play one game with random agents; the error that stopped it, if any."""
    names = ["random"] * players
    try:
        game = new_game(rules, players=players, seed=seed, setup={"options": options})
        runner.play(game, runner.build_agents(names, seed, lambda: None), lambda *_: None)
    except AmunreError as error:
        return str(error)
    except Exception as error:          # a bug of amunre's, which a random game found: report it
        return (f"amunre failed unexpectedly ({type(error).__name__}: {error}); "
                "`amunre --debug run ...` shows where")
    return None


def _replay(path: str, seed: int, players: int, options: dict[str, str]) -> str:
    return (f"amunre run {shlex.quote(path)} --seed {seed} --agents {','.join(['random'] * players)}"
            + "".join(f" -o {shlex.quote(f'{n}={v}')}" for n, v in options.items()))


# ---- provenance ----------------------------------------------------------------------------------

def _print_provenance(rules: Rules) -> None:
    marked = {p: names for p, names in rules.reconstructed.items() if names}
    if not marked:
        print("  every board fact is confirmed by the sources")
        return
    print(f"  reconstructed board facts ({len(marked)} of {len(rules.place_ids)} places):")
    width = max(len(p) for p in marked)
    for index, place in enumerate(rules.place_ids):
        names = rules.reconstructed.get(place) or []
        props = rules.place_props[index]
        facts = ", ".join(f"{n}={_fact(props.get(n))}" for n in names)
        print(f"    {place:<{width}}  {facts if names else '(all confirmed)'}")


def _fact(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
