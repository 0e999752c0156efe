"""A study's games of random agents played on the compiled engine, as the records the interpreter's
play gives (playing.py `GameRecord`), so that every total (`Tally`, `PairedTally`, the arena's)
is the same whichever engine played.

The compiled engine plays whole games of random agents in machine code and hands back arrays
(interpreter/compiled/study.py); this module turns each row into the record of that game. What
it does not play is played as before, game by game in the interpreter: games of other agents,
games whose change events are counted (`causes`), rules it does not compile, and any game the
machine stopped in (a rule failing as it runs): that game's record, error included, is the
interpreter's own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ...interpreter.base.actions import Values
from ...interpreter.base.errors import AmunreError
from ...interpreter.model import Rules
from ..agents import AGENTS
from ..agents.options import parse_spec
from .playing import Arm, GameRecord, card_naming, play_game
from .tally_rows import add_rows

ENGINES = ("compiled", "interpreter")
RANDOM = "random"
# What a game of bots that look ahead costs in the interpreter, in random games of the same
# rules, when a study weighs a cold compile against it. Measured on four shipped rules files
# (28 November 2026, the interpreter, one core): greedy 45 to 745 random games (745: four
# players), ismcts:iterations=50 1,000 to 1,540. Counting engine steps alone (150: greedy plays
# 46,876 in a game of 318 actions) left out the bot's own work: a first study of 20 greedy games
# ran 67 s in the interpreter instead of compiling (then estimated at 31 s; hubs.COST now says
# about 66 s). Too high a number costs at most one compile, kept for every later study.
BOT_GAME_IN_RANDOM_GAMES = 750


def compiled_rows(rules: Rules, arm: Arm, players: int, agents: tuple[str, ...],
                  seeds: list[int]) -> tuple[Any, list[tuple[str, str]]] | None:
    """These games played on the compiled engine, as rows (and the card columns of their
    counts); None where it does not play them (agents other than random, rules it does not
    compile: the caller plays them)."""
    if any(spec != RANDOM for spec in agents):
        return None
    from ...interpreter.compiled.not_compiled import NotCompiled  # here: numba loads only for a study of it
    from ...interpreter.compiled.study import play_random
    names, columns = _columns(rules)
    try:
        return play_random(rules, players, seeds, arm.setup(), names, len(columns)), columns
    except NotCompiled:
        return None


def compiled_range(rules: Rules, arm: Arm, players: int, agents: tuple[str, ...], indices: list[int],
                   seeds: list[int]) -> list[GameRecord] | None:
    """The records of these games played on the compiled engine (compiled_rows), or None."""
    found = compiled_rows(rules, arm, players, agents, seeds)
    if found is None:
        return None
    rows, columns = found
    return [_record(rules, arm, rows, row, columns, agents, index, seed)
            for row, (index, seed) in enumerate(zip(indices, seeds))]


def count_range(tally: Any, rules: Rules, arm: Arm, agents: tuple[str, ...], indices: list[int],
                seeds: list[int]) -> bool:
    """Count these games into a Tally straight from their rows (tally_rows.py); False, counting
    nothing, where the compiled engine does not play them. A game the machine stopped in is
    played in the interpreter and counted from its record."""
    from ...interpreter.compiled.playout import G_STATUS
    found = compiled_rows(rules, arm, tally.players, agents, seeds)
    if found is None:
        return False
    rows, columns = found
    stopped = rows.games[:, G_STATUS] != 0
    add_rows(tally, rows, ~stopped, columns, agents, list(rules.resources), rules.winner.score)
    for row in np.flatnonzero(stopped):
        tally.add(play_game(rules, arm, tally.players, agents, indices[row], seeds[row]))
    return True


_COLUMNS: dict[int, tuple[Rules, tuple[np.ndarray, list[tuple[str, str]]]]] = {}


def _columns(rules: Rules) -> tuple[np.ndarray, list[tuple[str, str]]]:
    """Per action id, the column of the (action type, card) it names (-1: none), as `_cards`
    counts them; and the columns."""
    known = _COLUMNS.get(id(rules))
    if known is not None and known[0] is rules:
        return known[1]
    naming = card_naming(rules)
    space = rules.actions
    columns: dict[tuple[str, str], int] = {}
    names = np.full(space.size, -1, dtype=np.int64)
    for action in range(space.size):
        block = space.block_at[action]
        found = naming.get(block.base)
        if found is None:
            continue
        kind, card = found
        if not isinstance(card, str):
            domain = block.fields[card][1]
            assert isinstance(domain, Values)
            card = domain.values[space.indices_at[action][card]]
        names[action] = columns.setdefault((kind, card), len(columns))
    if len(_COLUMNS) > 8:
        _COLUMNS.clear()
    _COLUMNS[id(rules)] = (rules, (names, list(columns)))
    return names, list(columns)


def _record(rules: Rules, arm: Arm, rows: Any, row: int, columns: list[tuple[str, str]], agents: tuple[str, ...],
            index: int, seed: int) -> GameRecord:
    """One game's record from its row (or, where the machine stopped, from the interpreter)."""
    from ...interpreter.compiled.playout import G_FIRST_AGE, G_LEADER, G_LENGTH, G_ROUNDS, G_SINCE, G_START, G_STATUS
    g = rows.games[row]
    if g[G_STATUS]:
        return play_game(rules, arm, rows.players, agents, index, seed)
    players, width = rows.players, rows.width
    record = GameRecord(index, seed, agents)
    seats = [rows.seat_at(seat) for seat in range(players)]
    record.scores = tuple(int(g[at]) for at in seats)
    record.winners = tuple(seat for seat, at in enumerate(seats) if g[at + 1 + width])
    record.top_shared = record.scores.count(max(record.scores)) > 1
    record.start_seat = int(g[G_START])
    record.length = int(g[G_LENGTH])
    record.reported = {name: tuple(int(g[at + 2 + width + r]) for at in seats) for r, name in enumerate(rows.reported)}
    record.points, record.gained, record.lost = _sources(rules, rows, row, players)
    record.cards = {columns[c]: int(n) for c in np.flatnonzero(rows.cards[row]) for n in (rows.cards[row, c],)}
    record.picks = {rows.pick_names[c]: int(rows.picks[row, c]) for c in np.flatnonzero(rows.picks[row])}
    if g[G_FIRST_AGE]:
        record.first_age = tuple(int(g[rows.first_age_at() + seat]) for seat in range(players))
    leader = int(g[G_LEADER])
    winners = record.winners
    record.decided_at = int(g[G_SINCE]) if len(winners) == 1 and leader == winners[0] else record.length
    record.rounds = int(g[G_ROUNDS])
    return record


def _sources(rules: Rules, rows: Any, row: int, players: int) -> tuple[tuple[dict[str, int], ...], dict, dict]:
    """Points by source of each seat, and every resource's gains and losses by source."""
    resources = list(rules.resources)
    keys = rows.keys
    amounts = rows.sources[row].reshape(-1, len(resources), max(len(keys), 1))
    score = resources.index(rules.winner.score)
    points = tuple({keys[k]: int(amounts[seat, score, k]) for k in np.flatnonzero(amounts[seat, score])}
                   for seat in range(players))
    gained: dict[tuple[str, str], int] = {}
    lost: dict[tuple[str, str], int] = {}
    for seat, r, k in zip(*np.nonzero(amounts[:players])):
        amount = int(amounts[seat, r, k])
        into, value = (gained, amount) if amount > 0 else (lost, -amount)
        key = (resources[r], keys[k])
        into[key] = into.get(key, 0) + value
    return points, gained, lost


def engine_plays(engine: str) -> Callable[..., list[GameRecord] | None]:
    """How a worker plays a range of games on an engine: the compiled engine where it can."""
    if engine not in ENGINES:
        raise AmunreError(f"unknown engine '{engine}'; choose from {', '.join(ENGINES)}")
    return compiled_range if engine == "compiled" else (lambda *args: None)


def looks_ahead(spec: str) -> bool:
    """Whether an agent of this spec looks ahead on the compiled engine where it can (the
    one-step bots and the search: tools/agents/machine_lookahead.py, machine_search.py)."""
    return hasattr(AGENTS.get(parse_spec(spec)[0]), "engine")


def chosen_engine(engine: str, rules: list[Rules], agents: list[str], games: int, jobs: int | None,
                  causes: bool, notice: Callable[[str], None] | None) -> tuple[str, str | None]:
    """The engine a study's games play on (random agents) or its bots look ahead on (greedy,
    heuristic, ismcts), and why not the one asked for (None: as asked, or agents that think in
    the interpreter's terms only). The compiled engine is readied here, in the
    parent, before any worker starts (a forked worker inherits it): a cold compile is said
    through `notice`, and skipped when the interpreter would finish the whole study first."""
    random_only = all(spec == RANDOM for spec in agents)
    if engine != "compiled" or not (random_only or any(looks_ahead(spec) for spec in agents)):
        return "interpreter", None          # asked for, or bots that think in the interpreter's terms
    if causes and random_only:
        return "interpreter", "counting changes by cause needs the interpreter's change events"
    from ...interpreter.compiled import hubs
    from ...interpreter.compiled.game import compiled, parts_of
    from ...interpreter.compiled.not_compiled import NotCompiled
    try:
        loop = {"playout"} if random_only else {"lookahead"}
        for spec in agents:                 # a search's whole decisions are a part of their own
            loop |= set(getattr(AGENTS.get(parse_spec(spec)[0]), "machine_parts", ()))
        names = sorted({name for each in rules for name in parts_of(each)} | loop)
    except NotCompiled as error:
        return "interpreter", str(error)
    cold = hubs.missing(names)
    if cold:
        compile_seconds = hubs.estimate(cold)
        game_seconds = _interpreter_seconds(rules[0], len(agents)) * (1 if random_only
                                                                       else BOT_GAME_IN_RANDOM_GAMES)
        played = games * len(rules)                 # a paired study plays each seed under each rule set
        if played * game_seconds / max(jobs or 1, 1) < compile_seconds:
            return "interpreter", (f"{played:,} games take less in the interpreter than compiling the rules for "
                                   f"speed (about {compile_seconds:.0f} s, once)")
    hubs.prepare(names, notice)
    for each in rules:
        compiled(each)
    return "compiled", None


def _interpreter_seconds(rules: Rules, players: int) -> float:
    """What one random game takes in the interpreter here (one game played and timed; a game a
    rule breaks counts as far as it went, its error is the study's to report)."""
    import random
    import time

    from ...interpreter.game import new_game
    started = time.perf_counter()
    try:
        game = new_game(rules, players, seed=0, events=False)
        chooser = random.Random(0)
        while not game.over:
            game.apply_id(chooser.choice(game.legal_action_ids()))
    except AmunreError:
        pass
    return time.perf_counter() - started
