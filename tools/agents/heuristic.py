"""One-step heuristic players: `greedy` (fixed weights, no randomness beyond its guesses of
hidden facts) and `heuristic` (weights from a named style and options, with noise so that no
two games are alike).

Both value each legal action by the position it leads to (tools/agents/value.py), on a
guess of what the seat cannot see (tools/determinize.py), never on the real position:
they know their own hand and what the observation shows, not other hands, secret choices or
the order of a deck. Two things are looked through before valuing:

- follow-ups: an action whose only sequels are the same seat's follow-ups (placing what it
  just bought) is valued after making them the best way;
- a reveal: in a phase that keeps something secret (a mechanic declaring `hidden` fields),
  an action's worth shows only once every seat has chosen and the phase has settled (the
  rank of an offer, what it earns, the row its total picks). Such an action is valued after
  playing the phase to its end on several guesses, the other seats choosing at random
  among what they may do and this seat taking the best of what comes to it.

The modules of the compiled lookahead (machine_*.py) are imported where a bot is made or
decides, not with this module: they load numba and the machine's parts (about a second),
and every command of the CLI imports the agents' list, most of them to make no bot.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any, ClassVar

from ...interpreter.base.actions import PLAY, STANDING
from ...interpreter.game import Game
from ...interpreter.mechanics.base import Mechanic
from ...interpreter.mechanics.lot_auction import LotAuction
from ..determinize import Guesses
from ..mechanic_hooks import entry
from .options import Option
from .value import WEIGHT_NAMES, Weights, value

STYLES: dict[str, Weights] = {
    "balanced": Weights(),
    "cautious": Weights(money=0.45, income=0.6, cards=0.6),
    "build": Weights(money=0.15, tokens=0.6, places=1.5),
    "high_offer": Weights(money=0.12, cards=1.4, start=2.0),
}

FOLLOW_UPS = 12           # follow-up actions made before valuing an action
REVEAL_LIMIT = 200        # actions played at most to see a secret phase settle
MANY = 100                # more actions of one kind than this (every amount a seat could bid) ...
SPREAD = 33               # ... are valued at this many of them, evenly spaced

_WEIGHT_DOCS = {
    "points": "worth of a point of the score, and of each point the scoring phases would give now",
    "money": "worth of one unit of any other resource held",
    "income": "worth of one unit the phases would pay now (income)",
    "cards": "worth of a card in hand",
    "tokens": "worth of a token on one of the seat's places",
    "places": "worth of a place owned",
    "start": "worth of being the start player",
}


def _options(style: str, noise: float, temperature: float) -> tuple[Option, ...]:
    return ((Option("style", str, style, "the preset weights: " + ", ".join(STYLES), choices=tuple(STYLES)),)
            + tuple(Option(name, float, None, _WEIGHT_DOCS[name] + " (default: the style's)") for name in WEIGHT_NAMES)
            + (Option("noise", float, noise, "spread of the weights, drawn once per game: each is multiplied "
                      "by exp(noise x a normal draw)", least=0.0, most=5.0),
               Option("temperature", float, temperature, "random spread added to each action's worth when "
                      "choosing, in points (a Gumbel draw times this); 0: always the best", least=0.0),
               Option("samples", int, 4, "guesses of the hidden facts an action is valued over when its worth "
                      "shows only after a reveal", least=1, most=100)))


# Phases that keep a secret in some of their forms only: whether the running one keeps one now
# (a lot auction: only when sealed). A phase with hidden fields and no entry always keeps one.
KEEPS_SECRET: dict[type[Mechanic], Callable[[Any, Game], bool]] = {
    LotAuction: lambda mech, game: game.state.working.get("style") == "sealed",
}


def keeps_secret(game: Game) -> bool:
    """Whether the running phase hides what other seats choose, so that an action's worth shows
    only after the reveal (valued on several guesses, played through)."""
    mech = game.rules.mechanic_at(game.state.at)
    if not mech.hidden:
        return False
    keeps = entry(KEEPS_SECRET, mech)
    return True if keeps is None else keeps(mech, game)


class HeuristicAgent:
    """Takes the action whose outcome is worth most by its weights, with noise."""
    name: ClassVar[str] = "heuristic"
    doc: ClassVar[str] = ("One step ahead by weights (points, money, income, cards, tokens, places, start "
                          "player) from a style, varied by noise; looks through follow-ups and secret phases.")
    options: ClassVar[tuple[Option, ...]] = _options("balanced", 0.15, 0.25)
    # Where the lookahead plays: "auto", the compiled engine where the rules compile and its
    # machine code is kept already (no compile for a game or two); "compiled", compiling it
    # first if need be (a study sets it); "interpreter". The same choices on each.
    engine: str = "auto"

    def __init__(self, seed: int = 0, **settings: Any) -> None:
        known = {o.key: o.default for o in self.options}
        unknown = set(settings) - set(known)
        if unknown:
            raise TypeError(f"{self.name} has no option {sorted(unknown)[0]}")
        known.update(settings)
        self.rng = random.Random(seed)                  # held as a MachineGenerator (the setter)
        base = STYLES[known["style"]]
        chosen = Weights(**{name: getattr(base, name) if known[name] is None else known[name]
                            for name in WEIGHT_NAMES})
        noise = known["noise"]
        self.weights = chosen.scaled({name: math.exp(noise * self.rng.gauss(0.0, 1.0)) for name in WEIGHT_NAMES}
                                     if noise else {})
        self.temperature, self.samples = known["temperature"], known["samples"]

    @property
    def rng(self) -> random.Random:
        """The bot's generator (taken back from the machine, where it drew last)."""
        return self.generator.python()

    @rng.setter
    def rng(self, rng: random.Random) -> None:
        from .machine_generator import MachineGenerator
        self.generator = MachineGenerator(rng)

    def choose(self, game: Game, legal: list[dict[str, Any]]) -> dict[str, Any]:
        ids = game.legal_action_ids()
        return legal[ids.index(self.choose_id(game, ids))]

    def choose_id(self, game: Game, ids: list[int]) -> int:
        return ids[0] if len(ids) == 1 else self.best(game, ids)

    def best(self, game: Game, ids: list[int]) -> int:
        """The action worth most on average over guesses of the hidden facts; ties go to the
        earlier action (sales of cards come last)."""
        return self._weighed(game, ids)[0]

    def ranked(self, game: Game, ids: list[int]) -> tuple[int, list[tuple[int, float]]]:
        """The action `choose_id` would take here (drawing as it would), and every action it
        weighed with its worth on average over the guesses, its choice first, then the worthiest
        (a hint: tools/agents/hints.py). Actions it did not weigh (bids between those it tried)
        are left out."""
        if len(ids) == 1:
            return ids[0], [(ids[0], math.nan)]
        chosen, worths = self._weighed(game, ids)
        return chosen, sorted(worths, key=lambda pair: (pair[0] != chosen, -pair[1]))

    def _weighed(self, game: Game, ids: list[int]) -> tuple[int, list[tuple[int, float]]]:
        """The action chosen, and each action weighed with its average worth (before the noise
        of `temperature`, which the choice adds)."""
        seat, step = game.to_move, game.state.step
        assert seat is not None                 # an agent is asked only while a seat decides
        ids = spread(game, ids)
        secret = keeps_secret(game)
        guessing = Guesses(game, seat)
        samples = self.samples if secret else 1
        worths = self._machine_worths(guessing, ids, secret, samples)
        if worths is None:
            guesses = [guessing.draw(self.rng) for _ in range(samples)]
            seeds = [self.rng.getrandbits(32) for _ in guesses]
            drawn_from = guessing if len(guesses) > 1 else None
            worths = [self._worths(guess, ids, seat, step, secret, seed, drawn_from)
                      for guess, seed in zip(guesses, seeds)]
        best, best_value = ids[0], -math.inf
        weighed = []
        for n, action in enumerate(ids):
            total, count = 0.0, 0
            for on_guess in worths:
                found = on_guess[n]
                if found is not None:
                    total += found
                    count += 1
            if not count:
                continue
            worth = total / count
            weighed.append((action, worth))
            if self.temperature:
                worth -= self.temperature * math.log(-math.log(self.rng.random() or 1e-300))
            if worth > best_value + 1e-9:
                best, best_value = action, worth
        return best, weighed

    def _machine_worths(self, guessing: Guesses, ids: list[int], secret: bool,
                        samples: int) -> list[list[float | None]] | None:
        """What each action is worth on each guess, the guesses drawn and valued by the machine
        in one call (tools/agents/machine_lookahead.py `decide`, the same draws and numbers);
        None where it cannot, the generator untouched."""
        if self.engine == "interpreter":
            return None
        from .machine_guesses import MachineGuesses
        from .machine_lookahead import lookahead
        machine = lookahead(guessing.game.rules, compile=self.engine == "compiled")
        if machine is None:
            return None
        drawing = MachineGuesses(machine, guessing)
        if not drawing.whole():
            return None
        assert drawing.base is not None
        return machine.decide(drawing.base, drawing.deal_table, guessing.seat, ids, self.weights, secret, samples,
                              self.generator.machine(samples if secret else 0))

    def _worths(self, guess: Game, ids: list[int], seat: int, step: int, secret: bool,
                seed: int, drawn_from: Guesses | None = None) -> list[float | None]:
        """What each action is worth to the seat on one guess (None: not legal there): on the
        compiled engine where it plays the rules (tools/agents/machine_lookahead.py, the same
        numbers), else here."""
        if self.engine != "interpreter":
            from .machine_lookahead import lookahead
            machine = lookahead(guess.rules, compile=self.engine == "compiled")
            found = (machine.worths(guess, ids, seat, self.weights, secret, seed, drawn_from)
                     if machine is not None else None)
            if found is not None:
                return found
        allowed = set(guess.legal_action_ids())
        worths: list[float | None] = []
        for action in ids:
            if action not in allowed:
                worths.append(None)
                continue
            trial = guess.clone(events=False)
            trial.apply_id(action)
            if secret:
                trial = self._through_reveal(trial, seat, step, random.Random(seed))
            else:
                trial = self._follow_ups(trial, seat, step)
            worths.append(value(trial, seat, self.weights))
        return worths

    def _follow_ups(self, game: Game, seat: int, step: int) -> Game:
        """Make the seat's follow-ups (placing what it just got) the best way; returns the game
        played on (the copy a chosen action was tried on, or `game` itself)."""
        blocks = game.rules.actions
        for _ in range(FOLLOW_UPS):
            if game.to_move != seat or game.state.step != step:
                return game
            ids = [i for i in game.legal_action_ids() if blocks.block_of(i).rank not in (PLAY, STANDING)]
            if not ids or not all(blocks.block_of(i).follow_up for i in ids):
                return game
            game = self._step_on(game, ids, seat)
        return game

    def _through_reveal(self, game: Game, seat: int, step: int, rng: random.Random) -> Game:
        """Play the secret phase to its end: others at random, this seat one step ahead over
        the first action of each kind (which of its places a reward goes to is left aside);
        returns the game played on (see `_step_on`)."""
        block_of = game.rules.actions.block_of
        for _ in range(REVEAL_LIMIT):
            if game.over or game.state.step != step:
                return game
            ids = game.legal_action_ids()
            if game.to_move == seat:
                kinds = {id(block_of(i)): i for i in reversed(ids)}
                game = self._step_on(game, sorted(kinds.values()), seat)
            else:
                game.apply_id(rng.choice(ids))
        return game

    def _step_on(self, game: Game, ids: list[int], seat: int) -> Game:
        """The game after the seat's best action of `ids`, one step ahead; `game` is a
        lookahead copy of the caller's own, given up to this call. The best action is not
        applied again to `game`: the copy it was tried on goes on (an engine step saved), and
        the last action is tried on `game` itself (a clone saved), issue 23. A copy is the same
        position: a lookahead game draws from the seeded generator in its state, which the copy
        carries; a game answering draws from outside (`chance`) is stepped the plain way, as its
        answerer may not be asked more often than before."""
        if len(ids) == 1:           # nothing to compare: a fifth of the calls in a 2016 game
            game.apply_id(ids[0])
            return game
        own = game.chance is None
        last = len(ids) - 1 if own else -1
        best, best_value, best_trial = ids[0], -math.inf, None
        for n, action in enumerate(ids):
            trial = game if n == last else game.clone(events=False)
            trial.apply_id(action)
            worth = value(trial, seat, self.weights)
            if worth > best_value + 1e-9:
                best, best_value, best_trial = action, worth, trial
            elif best_trial is None:                # the first action kept while none is worth more
                best_trial = trial
        if not own:
            game.apply_id(best)
            return game
        assert best_trial is not None               # set at the first action
        return best_trial


def spread(game: Game, ids: list[int]) -> list[int]:
    """The actions worth valuing: of each kind with more than MANY (every amount a seat could
    bid, in a game of large sums), SPREAD evenly spaced ones, the least and the most included.
    One step ahead, neighbouring amounts are worth nearly the same, and valuing hundreds of
    them on every guess is what made a bot take seconds a decision."""
    block_of = game.rules.actions.block_of
    kinds: dict[int, list[int]] = {}
    for action in ids:
        kinds.setdefault(id(block_of(action)), []).append(action)
    if all(len(kind) <= MANY for kind in kinds.values()):
        return ids
    kept: list[int] = []
    for kind in kinds.values():
        if len(kind) > MANY:
            gap = (len(kind) - 1) / (SPREAD - 1)
            kind = sorted({kind[round(k * gap)] for k in range(SPREAD)})
        kept += kind
    return sorted(kept)


class GreedyAgent(HeuristicAgent):
    """The heuristic with the balanced weights and no noise: the same choices for the same
    guesses, which its seed fixes."""
    name: ClassVar[str] = "greedy"
    doc: ClassVar[str] = ("One step ahead by fixed weights (the balanced style, no noise); looks through "
                          "follow-ups and secret phases.")
    options: ClassVar[tuple[Option, ...]] = _options("balanced", 0.0, 0.0)
