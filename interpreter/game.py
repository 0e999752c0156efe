"""The public game API: a Game steps a GameState through the rules' schedule, one action at a
time, as dicts or as integer ids.

The engine knows nothing of any edition: after each action the automatic step
(interpreter/play/flow.py) asks the running phase's mechanic who decides next and works out what
that seat may do, once; everything else comes from the compiled Rules.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from . import saves
from .base import rng
from .base.actions import CLOSE, DECIDE, PLAY, STANDING
from .base.causes import Cause
from .base.errors import AmunreError, GameError, IllegalAction, shown_repr, shown_value
from .base.limits import MAX_DECISIONS_PER_STEP
from .base.state import GameState, plain_copy
from .dsl.context import Ctx
from .dsl.printer import to_text
from .load.rules_cache import load_rules
from .model import Rules, Step
from .play import cards, cursor, flow
from .play.observe import observation, observation_layout, observation_tensor
from .play.outcomes import Outcome, outcomes_of
from .play.setup import build_decks, check_start, deal, deal_held_cards, start_events
from .position import DeckView, PlaceView, SeatView, deck_view, last_event, place_view, seat_view

__all__ = ["Game", "load_rules", "new_game"]


class Game:
    def __init__(self, rules: Rules, state: GameState, history: list[int] | None = None,
                 events: bool = True, setup: dict[str, Any] | None = None,
                 unlimited: frozenset[str] | None = None, chance: Callable[[int], int] | None = None,
                 draws: list[int] | None = None) -> None:
        self.rules = rules
        self.state = state
        self.setup = setup or {}                                            # as new_game was given it
        self.history: list[int] = history if history is not None else []   # every action id applied
        self.log: list[dict[str, Any]] | None = [] if events else None     # readable events, if kept
        self.owned: tuple[list[int], list[list[int]]] | None = None   # (owners, places per seat): material.owned_places
        self.decisions_in_step = 0       # taken in the step now running (flow.end_step starts it again)
        self.decision: list[int] | None = None   # the legal ids now (the automatic step works them out)
        # The state's seat to move and end of game, mirrored as plain attributes: every playing
        # loop reads them after each action, and a property is a call of its own in Python 3.11.
        # Only the automatic step (flow.py) and apply_id change them, always with the state's.
        self.to_move: int | None = state.to_move
        self.over: bool = state.over
        # Where random draws come from: None, the seeded generator in the state; else a function
        # (n -> a whole number in [0, n)) whose every answer is recorded in `draws`, in order.
        self.draws: list[int] | None = draws if draws is not None else [] if chance is not None else None
        self._chance = chance
        # The supplies that never run out: fixed by the options as the game starts (a copy is told).
        self.unlimited = unlimited if unlimited is not None else frozenset(
            kind for kind, holds in rules.unlimited_if.items() if holds.fn(Ctx(self)))
    # ---- reading -------------------------------------------------------------------------------
    @property
    def step(self) -> Step:
        """The phase at the cursor of the flow, in its age and round (the last phase run, once
        the game is over)."""
        return cursor.step(self)

    def num_distinct_actions(self) -> int:
        """The size of the rules file's action space: every id is in range(this)."""
        return self.rules.actions.size

    def legal_action_ids(self) -> list[int]:
        """The ids of the actions the seat to move may take now, sorted."""
        legal = self.decision
        return list(legal if legal is not None else self._decision_ids())

    def legal_actions(self) -> list[dict[str, Any]]:
        """The actions the seat to move may take now, as dicts, in the order of their ids."""
        return self.rules.actions.dicts(self._decision_ids(), self)

    def outcomes(self) -> dict[int, Outcome]:
        """Each legal action id with what it would change for the seat taking it, if taken now
        (its price and gain; interpreter/play/outcomes.py), worked out on copies."""
        return outcomes_of(self)

    def _decision_ids(self) -> list[int]:
        if self.decision is None:       # a restored game: the decision is worked out again
            self.decide_again()
        assert self.decision is not None            # set by decide_again
        return self.decision

    def decide_again(self) -> bool:
        """Work out the decision of a restored position again (a save, or a search's guess of
        the hidden facts, tools/determinize.py); whether the position stood still meanwhile
        (flow.advance: nothing ran, only the seat to move was asked). AmunreError if another
        seat is to move than the saved one."""
        self.decision = []
        if self.state.to_move is None:
            return True
        saved = self.state.to_move
        still = flow.advance(self)
        if self.state.to_move != saved:
            raise AmunreError("the saved position does not agree with its rules")
        return still

    def actions(self) -> list[dict[str, Any]]:
        """The actions applied so far, as dicts (an id's dict depends on its position, so they
        are worked out by replaying the game from its seed and set-up)."""
        replay = new_game(self.rules, self.state.players, self.state.seed, self.setup, events=False,
                          chance=None if self.draws is None else rng.replaying(self.draws))
        out = []
        for action_id in self.history:
            out.append(replay.action_from_id(action_id))
            replay.apply_id(action_id)
        return out

    def action_to_id(self, action: dict[str, Any]) -> int:
        """The id of a dict action in this position; IllegalAction if it has none."""
        found = self.rules.actions.encode(action, self)
        if found is None:
            raise IllegalAction("no action of these rules looks like this", action)
        return found

    def action_from_id(self, action_id: int) -> dict[str, Any]:
        """The dict action of an id in this position."""
        if type(action_id) is not int:
            action_id = self._id(action_id)
        if not 0 <= action_id < self.rules.actions.size:
            raise IllegalAction(f"action ids are 0 to {self.rules.actions.size - 1}", action_id)
        return self.rules.actions.to_dict(action_id, self)

    def _id(self, value: Any) -> int:
        """An action id given as another integral type (a numpy integer, anything with
        `__index__`) as a plain int; IllegalAction for a bool (Python's True is 1, not an id)
        and for anything not integral (a float, a text), never coerced."""
        index = _whole(value)
        if index is None:
            raise IllegalAction(f"an action id is a whole number from 0 to {self.rules.actions.size - 1}, "
                                f"not {shown_repr(value, 40)}")
        return index

    # ---- acting --------------------------------------------------------------------------------
    def apply(self, action: dict[str, Any]) -> None:
        """Carry out one legal action of the seat to move; IllegalAction says why not."""
        legal = self._decision_ids()
        try:
            action_id = self.rules.actions.encode(action, self)
        except (TypeError, ValueError, RecursionError):
            action_id = None
        if action_id is None or action_id not in legal:
            raise IllegalAction(self._why_illegal(action), action)
        self.apply_id(action_id)

    def apply_id(self, action_id: int) -> None:
        """Carry out one legal action given by its id."""
        legal = self.decision if self.decision is not None else self._decision_ids()
        if type(action_id) is not int:
            action_id = self._id(action_id)
        if action_id not in legal:
            more = " ..." if len(self._decision_ids()) > 12 else ""
            raise IllegalAction(f"{shown_value(action_id, 60)} is not among the legal action ids "
                                f"{self.legal_action_ids()[:12]}{more}", action_id)
        state = self.state
        seat = state.to_move
        assert seat is not None                  # an id is legal only while a seat is to move
        self.decision = self.to_move = state.to_move = None
        self.history.append(action_id)
        self.decisions_in_step += 1
        if self.decisions_in_step > MAX_DECISIONS_PER_STEP:
            raise GameError(f"phase '{self.step.phase}' asked for more than {MAX_DECISIONS_PER_STEP:,} decisions: "
                            "its rules never let it end")
        self.carry_out(seat, action_id)
        flow.advance(self)

    def carry_out(self, seat: int, action_id: int) -> None:
        """The action's own change, without the automatic steps it lets run after it: apart from
        apply_id, so that what an action would change can be worked out on a copy without
        running on into what the seat may not know yet (interpreter/play/outcomes.py)."""
        rules = self.rules
        space = rules.actions
        block, indices = space.block_at[action_id], space.indices_at[action_id]
        rank = block.rank
        standing = rules.standing
        if rank == DECIDE or rank == CLOSE and (standing is None or action_id != standing.decline):
            apply = rules.leaf_plans[self.state.at].apply                   # the mechanic's own (through a
            apply(self, seat, block, indices)                               # local: see Plan)
        elif rank == PLAY:
            cards.play(self, seat, block, indices)
        elif rank == STANDING:
            assert standing is not None
            standing.apply(self, seat, block, indices)
        else:                                    # declining, when asked only for standing actions
            rules.leaf_plans[self.state.at].pass_turn(self, seat)

    def _why_illegal(self, action: Any, ) -> str:
        if self.state.over:
            return "the game is over"
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            return "an action is a dict with a 'type' key"
        legal = self.legal_actions()
        types = list(dict.fromkeys(a["type"] for a in legal))
        if action["type"] not in types:
            return (f"a {shown_value(action['type'], 60)} action is not possible now (phase "
                    f"'{self.step.phase}', seat {self.to_move}); possible: {', '.join(sorted(types))}")
        same = [a for a in legal if a["type"] == action["type"]]
        sample = ", ".join(str(a) for a in same[:5]) + (" ..." if len(same) > 5 else "")
        return f"{shown_value(action)} is not allowed now; allowed '{action['type']}' actions: {sample}"

    def event(self, event: dict[str, Any]) -> None:
        if self.log is not None:
            self.log.append(event)

    # ---- chance ---------------------------------------------------------------------------------
    @property
    def chance(self) -> Callable[[int], int] | None:
        """What answers the game's random draws (None: the seeded generator)."""
        return self._chance

    @chance.setter
    def chance(self, answer: Callable[[int], int] | None) -> None:
        """A game started with `chance` may be given another answerer (to go on from a restored
        save, say); a seeded game's draws stay its generator's, or its save would not replay."""
        if self.draws is None:
            raise AmunreError("a seeded game draws from its generator: start it with new_game(..., chance=...) "
                              "to answer its draws from outside")
        self._chance = answer

    def random_below(self, n: int) -> int:
        """A uniform whole number in [0, n): the one way any rule draws at random (new_game's
        `chance` says who answers)."""
        if self._chance is None:
            self.state.rng, value = rng.below(self.state.rng, n)
            return value
        value = self._chance(n)
        if type(value) is not int or not 0 <= value < n:
            raise AmunreError(f"a chance outcome here is a whole number from 0 to {n - 1}, "
                              f"not {shown_value(value, 40)}")
        assert self.draws is not None            # a game given `chance` records its draws
        self.draws.append(value)
        return value

    def shuffle(self, items: list) -> None:
        """Shuffle in place (Fisher-Yates from the end): k items take k - 1 draws, the first of
        them choosing which item goes last (index 0 is a deck's top)."""
        if self._chance is None:                 # the seeded generator: the same draws, fewer calls
            self.state.rng = rng.shuffle(self.state.rng, items)
            return
        for i in range(len(items) - 1, 0, -1):
            j = self.random_below(i + 1)
            items[i], items[j] = items[j], items[i]

    def set_start_player(self, seat: int, announce: bool = True, cause: Cause | None = None) -> None:
        """The named effect any mechanic or rule uses to change the start player (a mechanic
        whose own event tells the new start player does not `announce` it again)."""
        self.state.start_player = seat
        if announce and self.log is not None:
            self.log.append({"event": "start_player", "seat": seat, **({"cause": cause.to_json()} if cause else {})})

    # ---- results -------------------------------------------------------------------------------
    def result(self) -> dict[str, Any]:
        """Scores, winners (after tie-breaks), the resources the rules report, and each seat's
        points by source."""
        winner, state = self.rules.winner, self.state
        n = state.players
        scores = [state.resources[s][winner.score] for s in range(n)]
        keys = self._ranking_keys(scores)
        best = max(keys)
        out: dict[str, Any] = {"scores": scores, "winners": [s for s in range(n) if keys[s] == best]}
        for name in winner.report:
            out[name] = [state.resources[s][name] for s in range(n)]
        out["breakdown"] = [{k: v for k, v in state.sources[s].get(winner.score, {}).items() if v}
                            for s in range(n)]
        out["over"] = state.over
        return out

    def _ranking_keys(self, scores: list[int]) -> list[tuple]:
        """Each seat's ranking: `winner.by` (else its score), then each tie-break; the highest wins."""
        winner = self.rules.winner
        keys = []
        for s in range(self.state.players):
            ctx = Ctx(self, s)
            keys.append(tuple([winner.by.fn(ctx) if winner.by else scores[s]] + [t.fn(ctx) for t in winner.tiebreaks]))
        return keys

    def lost_ties(self) -> list[dict[str, Any]]:
        """The seats that ranked with the winners (their score, or `winner.by`) but lost on a
        tie-break, each with the tie-break that decided (its text), its value and the winners':
        what the end of a game says beside the winners, so that no tie is hidden."""
        winner = self.rules.winner
        keys = self._ranking_keys([self.state.resources[s][winner.score] for s in range(self.state.players)])
        best = max(keys)
        lost = []
        for seat, key in enumerate(keys):
            if key[0] == best[0] and key != best:
                k = next(i for i in range(1, len(key)) if key[i] != best[i])
                tree = winner.tiebreaks[k - 1].tree
                lost.append({"seat": seat, "tiebreak": to_text(tree) if tree is not None else f"tie-break {k}",
                             "value": key[k], "against": best[k]})
        return lost

    # ---- the position by name (interpreter/position.py) -----------------------------------------
    def place(self, place_id: str) -> PlaceView:
        """A place by its id: owner, tokens, properties, modifiers (a copy)."""
        return place_view(self, place_id)

    def seat(self, seat: int) -> SeatView:
        """A seat: resources (`game.seat(0)[RESOURCE]`), hand, places owned (a copy)."""
        return seat_view(self, seat)

    def deck(self, name: str) -> DeckView:
        """A deck by its name: draw pile, discards, face-up cards, cards out of the game (a copy)."""
        return deck_view(self, name)

    def last(self, kind: str) -> dict[str, Any] | None:
        """The newest logged event of a kind (`sell`, `won`, `income`...), or None."""
        return last_event(self, kind)

    # ---- what a seat may see -------------------------------------------------------------------
    def observation(self, seat: int) -> dict[str, Any]:
        """The position as the seat sees it: others' hidden hands and secret offers are masked,
        deck order and the generator are left out, the past is given as counts."""
        return observation(self, self._seat(seat))

    def observation_tensor(self, seat: int) -> list[float]:
        """The observation as a flat list of numbers (layout: observation_layout())."""
        return observation_tensor(self, self._seat(seat))

    def public_observation(self) -> dict[str, Any]:
        """What every seat sees: a seat's observation without anything only it may see (its
        hidden cards, its secret choices, what a phase shows it alone); `seat` is None. For
        tools that reason from the public information only (OpenSpiel's public observer)."""
        return observation(self, None)

    def public_observation_tensor(self) -> list[float]:
        """The public observation as numbers, in the layout of observation_tensor (the
        observing seat's one-hot and own cards all zero)."""
        return observation_tensor(self, None)

    def _seat(self, seat: Any) -> int:
        """A seat given from outside, as a plain int; AmunreError for anything else. Python would
        take -1 as the last seat and True as seat 1, and show a seat another seat's view."""
        index = _whole(seat)
        if index is None or not 0 <= index < self.state.players:
            raise AmunreError(f"a seat of this game is a whole number from 0 to {self.state.players - 1}, "
                              f"not {shown_repr(seat, 40)}")
        return index

    def observation_layout(self) -> list[dict[str, Any]]:
        """The named pieces of observation_tensor(): name, offset, shape, meaning."""
        return observation_layout(self.rules)

    # ---- saving and copying --------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """A save: the rules (path and digest), the seed's set-up, the action ids, the position."""
        return saves.save(self)

    @classmethod
    def from_json(cls, data: dict[str, Any], rules: Rules | None = None) -> Game:
        """Restore a save by replaying its actions (the rules are reloaded from their path unless
        given); AmunreError for anything that is not a game these rules reach."""
        return saves.restore(data, rules, new_game)

    def clone(self, events: bool | None = None, chance: Callable[[int], int] | None = None) -> Game:
        """An independent copy of the position and its action history, and of the event log
        if it is kept; `events=False` keeps none in the copy (lookahead needs none). With
        `chance`, the copy's draws are answered by it, not by the game's generator, and recorded
        in its `draws` from none (what an action would change is worked out so: play/outcomes.py)."""
        keep = self.log is not None if events is None else events
        draws = [] if chance is not None else None if self.draws is None else list(self.draws)
        copy = Game(self.rules, self.state.clone(), list(self.history), keep, self.setup, self.unlimited,
                    chance or self._chance, draws)
        if keep and self.log is not None:
            copy.log = list(self.log)
        copy.decision = self.decision
        copy.decisions_in_step = self.decisions_in_step   # the copy goes on as the game would (its limit too)
        copy.owned = self.owned         # checked against the owners before any use (material.owned_places)
        return copy


def _whole(value: Any) -> int | None:
    """A whole number given from outside (an int, a numpy integer, anything with `__index__`)
    as a plain int; None for a bool (Python's True is 1) and for anything not integral (a
    float, a text), never coerced."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def new_game(rules: Rules, players: int = 4, seed: int = 0, setup: dict[str, Any] | None = None,
             events: bool = True, chance: Callable[[int], int] | None = None) -> Game:
    """A new game at its first decision. `setup` may fix `start_player`, stack named decks
    (`decks: {name: [top cards...]}`), deal seats more cards (`hands: [[cards of seat 0], ...]`,
    each taken from its deck once the decks are ready), set `options`, set per-seat start
    `resources`, and give places owners (`owners: {place id: seat}`; the place's card, in a
    deck of places, stays in its deck) (interpreter/play/setup.py checks them all).
    Without `events` the game keeps no readable log (faster, for simulations).
    `chance`, if given, answers every random draw instead of the seeded generator: called with n,
    it returns a whole number in [0, n) (explicit chance outcomes, for search and game-theory
    tools); the game records the answers in `game.draws`, and its save holds them."""
    setup = check_start(rules, players, seed, setup)
    options = {name: opt.default for name, opt in rules.options.items()}
    options.update(setup.get("options", {}))
    state = GameState(
        players=players, seed=seed, rng=seed & ((1 << 64) - 1), options=options,
        resources=[dict(rules.resources) for _ in range(players)], sources=[{} for _ in range(players)],
        hands=[[] for _ in range(players)], decks={}, discards={}, boxed={},
        owner=[o if o < players else -1 for o in rules.start_owner], tokens=[{} for _ in rules.place_ids],
        supply=dict(rules.supply), start_player=0)
    for name, values in setup.get("resources", {}).items():
        for seat, value in enumerate(values):
            state.resources[seat][name] = value
    for place, seat in setup.get("owners", {}).items():
        state.owner[rules.place_index[place]] = seat
    game = Game(rules, state, events=events, setup=plain_copy(setup), chance=chance)
    for name, option in rules.options.items():
        if option.allowed_if is not None and not option.allowed_if.fn(Ctx(game)):
            needs = to_text(option.allowed_if.tree) if option.allowed_if.tree is not None else "another set-up"
            raise AmunreError(f"option {name}={options[name]} is not for this game ({players} players): "
                              f"the rules allow it only when {needs}")
    if rules.denominations:
        deal_held_cards(game, setup.get("resources", {}))
    build_decks(game, setup.get("decks", {}))
    deal(game, setup.get("hands", []))
    if "start_player" in setup:
        state.start_player = setup["start_player"]
    else:
        state.start_player = game.random_below(players)
    if game.log is not None:
        start_events(game, setup)
    cursor.start(game)
    flow.advance(game)
    return game
