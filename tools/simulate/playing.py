"""One game of a simulation, played to the end and boiled down to a `GameRecord`: the few
numbers the statistics need, so that no game, log or position outlives its own play.

What a record counts comes from the engine's own bookkeeping, never from a particular
mechanic's events: card plays and sales from the action history (the card layer's blocks),
points and every other amount by source from the state's `sources`, what phases pick and keep
(a row of a table, a tile, an option) from `state.kept`, counted as each phase keeps a value
there, and who leads from the score resource, looked at whenever a phase ends. On request
(`causes`), the engine's change events, each naming the rule that caused it
(docs/log-format.md), are counted by kind and id as they happen, without keeping the log: the
engine writes them only for a game that keeps a log, which costs about 12%.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...interpreter.base.actions import Values
from ...interpreter.base.errors import AmunreError
from ...interpreter.game import Game, new_game
from ...interpreter.model import Rules
from ..agents import choose_id, make_agent
from .picks import picked_keys
from .seeds import agent_seed


@dataclass(frozen=True)
class Arm:
    """One way of playing: a rules file (its merged document, so a worker anywhere builds the
    very same rules without reading files) with options and per-seat starting resources."""
    label: str                                   # as the user named it
    document: dict[str, Any]                     # interpreter.document.Document.to_json()
    options: tuple[tuple[str, str], ...] = ()
    start: tuple[tuple[str, tuple[int, ...]], ...] = ()   # resource -> amounts of seats 0, 1, ...

    def setup(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.options:
            out["options"] = dict(self.options)
        if self.start:
            out["resources"] = {name: list(values) for name, values in self.start}
        return out


@dataclass
class GameRecord:
    """What the statistics keep of one game. Seats are indexed as in the game."""
    index: int
    seed: int
    agents: tuple[str, ...]
    error: str | None = None
    scores: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()                  # after the rules' tie-breaks
    top_shared: bool = False                       # more than one seat had the top score
    start_seat: int = 0                            # the first start player
    length: int = 0                                # actions (decisions) in the game
    reported: dict[str, tuple[int, ...]] = field(default_factory=dict)   # the rules' `report` resources
    points: tuple[dict[str, int], ...] = ()        # per seat: score points by source
    gained: dict[tuple[str, str], int] = field(default_factory=dict)     # (resource, source): all seats' gains
    lost: dict[tuple[str, str], int] = field(default_factory=dict)       # (resource, source): all seats' losses
    cards: dict[tuple[str, str], int] = field(default_factory=dict)      # (action type, card) -> times
    picks: dict[tuple[str, str, Any], int] = field(default_factory=dict)  # (phase, key, value) -> times kept
    causes: dict[tuple[str, str], int] = field(default_factory=dict)     # (kind, id) -> changes made
    first_age: tuple[int, ...] | None = None       # scores as the first age ended
    decided_at: int = 0                            # actions played before the winner led for good
    rounds: int = 1                                # rounds played (passes of the repeats named age and round)

    def margin(self) -> int:
        """The winners' score less the best score of the others (0 when every seat won)."""
        others = [score for seat, score in enumerate(self.scores) if seat not in self.winners]
        return max(self.scores) - max(others) if others else 0


class PickCounter(dict):
    """A state's `kept` that counts the picks in each value a phase keeps there, as it keeps
    it (what it held before the first decision included): so a pick is counted once, even
    when the same row is picked again or when several phases run between two decisions.

    A mechanic keeps each pick as a new value: it assigns `state.kept[phase]`; changes made
    inside a kept value are not picks. Simulate's registry `PICKED_KEYS` (tools/simulate/picks.py)
    may name the keys of a mechanic that are picks (by default every key with a plain value).
    Nothing (None: no choice yet, an empty deck) is not a pick."""

    def __init__(self, kept: dict[str, Any], phases: dict[str, Any]) -> None:
        super().__init__(kept)
        self.picked_keys = {phase: picked_keys(mech) for phase, mech in phases.items()}
        self.counts: dict[tuple[str, str, Any], int] = {}
        for phase, value in kept.items():
            self._count(phase, value)

    def __setitem__(self, phase: str, value: dict[str, Any]) -> None:
        super().__setitem__(phase, value)
        self._count(phase, value)

    def _count(self, phase: str, value: dict[str, Any]) -> None:
        keys = self.picked_keys.get(phase)
        for key, picked in value.items():
            if (keys is None or key in keys) and isinstance(picked, (str, int, bool)):
                pick = (phase, key, picked)
                self.counts[pick] = self.counts.get(pick, 0) + 1


class CauseCounter(list):
    """A game's log that keeps nothing: it counts the events that name a `cause`."""

    def __init__(self) -> None:
        super().__init__()
        self.counts: dict[tuple[str, str], int] = {}

    def append(self, event: Any) -> None:
        cause = event.get("cause")
        if cause:
            key = (cause["kind"], cause["id"])
            self.counts[key] = self.counts.get(key, 0) + 1


def play_game(rules: Rules, arm: Arm, players: int, agents: tuple[str, ...], index: int, seed: int,
              causes: bool = False, engine: str = "compiled") -> GameRecord:
    """Play one whole game; a game the rules cannot finish (AmunreError) is a record with `error`.
    `engine` is where the bots that look ahead do it (the same choices on either)."""
    record = GameRecord(index, seed, agents)
    try:
        _play(rules, arm, players, record, causes, engine)
    except AmunreError as error:
        record.error = f"{type(error).__name__}: {error}"
    return record


def _play(rules: Rules, arm: Arm, players: int, record: GameRecord, causes: bool, engine: str) -> None:
    bots = [make_agent(spec, agent_seed(record.seed, seat), engine) for seat, spec in enumerate(record.agents)]
    game = new_game(rules, players=players, seed=record.seed, setup=arm.setup(), events=causes)
    counter = CauseCounter()
    if causes:
        assert game.log is not None         # a game made with events=True keeps its log
        for event in game.log:
            counter.append(event)
        game.log = counter
    state, score = game.state, rules.winner.score
    state.kept = picks = PickCounter(state.kept, rules.phases)
    record.start_seat = state.start_player
    watch = _Watch(rules, game)
    step = state.step
    while not state.over:
        seat = state.to_move
        assert seat is not None             # a game not over has a seat to move
        game.apply_id(choose_id(bots[seat], game))
        if state.step != step:
            step = state.step
            watch.phase_ended(len(game.history))
    result = game.result()
    scores = tuple(result["scores"])
    record.scores, record.winners = scores, tuple(result["winners"])
    record.top_shared = scores.count(max(scores)) > 1
    record.length = len(game.history)
    record.reported = {name: tuple(result[name]) for name in rules.winner.report}
    record.points = tuple(dict(seat.get(score, {})) for seat in state.sources)
    record.gained, record.lost = _amounts(state.sources)
    record.cards = _cards(rules, game.history)
    record.picks, record.causes = picks.counts, counter.counts
    record.first_age = watch.first_age
    record.rounds = watch.rounds
    record.decided_at = watch.since if len(record.winners) == 1 and watch.leader == record.winners[0] else record.length


class _Watch:
    """Looks at the game whenever a phase ends: who leads, and the scores as the first age ends."""

    def __init__(self, rules: Rules, game: Game) -> None:
        self.game, self.score = game, rules.winner.score
        self.age = rules.flow.age            # the counter of the flow's repeat named `age` (-1: none)
        self.round = rules.flow.round        # and of the one named `round`
        self.first_age: tuple[int, ...] | None = None
        self.leader: int | None = None
        self.since = 0
        self.rounds, self.at = 1, self._round()

    def _round(self) -> tuple[int, int]:
        """Which round the game is in: the passes of the repeats named age and round."""
        passes = self.game.state.passes
        return (passes[self.age] if self.age >= 0 else 0, passes[self.round] if self.round >= 0 else 0)

    def phase_ended(self, actions: int) -> None:
        state = self.game.state
        scores = tuple(resources[self.score] for resources in state.resources)
        top = max(scores)
        leader = scores.index(top) if scores.count(top) == 1 else None
        if leader != self.leader:
            self.leader, self.since = leader, actions
        if self.first_age is None and self.age >= 0 and state.passes[self.age] > 1:
            self.first_age = scores             # the second age has begun
        at = self._round()
        if at != self.at:
            self.rounds, self.at = self.rounds + 1, at


def _amounts(sources: list[dict[str, dict[str, int]]]) -> tuple[dict, dict]:
    gained: dict[tuple[str, str], int] = {}
    lost: dict[tuple[str, str], int] = {}
    for seat in sources:
        for resource, by_source in seat.items():
            for source, amount in by_source.items():
                if amount > 0:
                    gained[resource, source] = gained.get((resource, source), 0) + amount
                elif amount < 0:
                    lost[resource, source] = lost.get((resource, source), 0) - amount
    return gained, lost


def _cards(rules: Rules, history: list[int]) -> dict[tuple[str, str], int]:
    """How often each card was named by each kind of action (played, sold, offered...), read
    from the action ids: an action's block names the card, fixed or as a field."""
    naming = card_naming(rules)
    space = rules.actions
    out: dict[tuple[str, str], int] = {}
    for action in history:
        block = space.block_at[action]
        found = naming.get(block.base)
        if found is not None:
            kind, card = found                  # the card itself, or the index of the field naming it
            if not isinstance(card, str):
                domain = block.fields[card][1]
                assert isinstance(domain, Values)     # a card field lists card ids (load/build_rules.py)
                card = domain.values[space.indices_at[action][card]]
            out[kind, card] = out.get((kind, card), 0) + 1
    return out


_NAMING: dict[int, tuple[Any, dict]] = {}


def card_naming(rules: Rules) -> dict[int, tuple[str, str | int]]:
    """A block's first id -> (its action type, the card it names, or the index of its card field)."""
    known = _NAMING.get(id(rules))
    if known is not None and known[0] is rules:
        return known[1]
    naming: dict[int, tuple[str, str | int]] = {}
    for block in rules.actions.blocks:
        fixed = dict(block.fixed)
        if "card" in fixed:
            naming[block.base] = (block.type, fixed["card"])
        else:
            ranging = [i for i, (name, _) in enumerate(block.fields) if name == "card"]
            if ranging:
                naming[block.base] = (block.type, ranging[0])
    if len(_NAMING) > 8:                 # a worker plays one rules set, two for a compare
        _NAMING.clear()
    _NAMING[id(rules)] = (rules, naming)
    return naming
