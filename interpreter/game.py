"""The public game API: a Game steps a GameState through the rules' schedule, one action at a time.

The engine knows nothing of any edition: it asks the running phase's mechanic who decides
next and what they may do; everything else comes from the compiled Rules.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from . import cards, rng
from .context import Ctx
from .errors import AmunreError, IllegalAction, RulesError
from .loader import load_document
from .model import Rules, build_rules
from .schema import validate_document
from .state import GameState

_RULES_CACHE: dict[str, Rules] = {}


def load_rules(path: str | Path) -> Rules:
    """Load, check and compile a rules file; RulesError lists every problem found."""
    doc = load_document(path)
    problems = validate_document(doc)
    if problems:
        raise RulesError(problems)
    rules = build_rules(doc)
    rules.digest = hashlib.sha256(doc.text.encode()).hexdigest()[:16]
    _RULES_CACHE[str(Path(path).resolve())] = rules
    return rules


class Game:
    def __init__(self, rules: Rules, state: GameState) -> None:
        self.rules = rules
        self.state = state
        self._legal_cache: list[dict[str, Any]] | None = None

    # ---- reading -------------------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        return self.state.to_move

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def step(self):
        """The schedule entry now running (phase, age, round)."""
        return self.rules.schedule[min(self.state.step, len(self.rules.schedule) - 1)]

    def legal_actions(self) -> list[dict[str, Any]]:
        """The actions the seat to move may take now (fresh copies: the caller may keep or edit them)."""
        return [dict(action) for action in self._legal()]

    def _legal(self) -> list[dict[str, Any]]:
        # Agents ask for the legal actions and apply() checks against them: compute them once
        # per position (the position changes only through apply(), which drops the cache).
        if self._legal_cache is None:
            seat = self.state.to_move
            self._legal_cache = [] if seat is None else (
                self.rules.mechanic(self.state.step).legal(self, seat) + cards.sell_actions(self, seat))
        return self._legal_cache

    # ---- acting --------------------------------------------------------------------------
    def apply(self, action: dict[str, Any]) -> None:
        """Carry out one legal action of the seat to move; IllegalAction says why not."""
        legal = self._legal()
        try:
            action = dict(legal[legal.index(action)])   # the engine's own copy, not the caller's
        except ValueError:
            raise IllegalAction(self._why_illegal(action, legal), action) from None
        seat = self.state.to_move
        self._legal_cache = None
        self.state.history.append(action)
        if action["type"] == "sell":
            cards.sell(self, seat, action["card"])
            self.event({"event": "sell", "seat": seat, "card": action["card"]})
        else:
            self.rules.mechanic(self.state.step).apply(self, seat, action)
        self.state.to_move = None
        self._advance()

    def _why_illegal(self, action: Any, legal: list[dict[str, Any]]) -> str:
        if self.state.over:
            return "the game is over"
        if not isinstance(action, dict) or "type" not in action:
            return "an action is a dict with a 'type' key"
        types = sorted({a["type"] for a in legal})
        if action["type"] not in types:
            return (f"a '{action['type']}' action is not possible now (phase "
                    f"'{self.step.phase}', seat {self.to_move}); possible: {', '.join(types)}")
        same = [a for a in legal if a["type"] == action["type"]]
        sample = ", ".join(str(a) for a in same[:5]) + (" ..." if len(same) > 5 else "")
        return f"{action} is not allowed now; allowed '{action['type']}' actions: {sample}"

    def _advance(self) -> None:
        """Run automatic steps until a seat must decide or the game ends."""
        state = self.state
        schedule = self.rules.schedule
        while not state.over:
            mechanic = self.rules.mechanic(state.step)
            if not state.phase:
                step = schedule[state.step]
                self.event({"event": "phase", "phase": step.phase, "age": step.age, "round": step.round})
                state.phase = {"begun": True}
                mechanic.begin(self)
                state.phase.setdefault("begun", True)
            seat = mechanic.next_seat(self)
            if seat is not None:
                state.to_move = seat
                return
            state.phase = {}
            state.mods = {}
            state.played = [[] for _ in range(state.players)]
            state.step += 1
            if state.step >= len(schedule):
                state.over = True
                state.to_move = None
                self.event({"event": "game_over", **self.result()})

    def event(self, event: dict[str, Any]) -> None:
        self.state.log.append(event)

    # ---- results -------------------------------------------------------------------------
    def result(self) -> dict[str, Any]:
        """Scores, winners (after tie-breaks) and each seat's points by source."""
        n = self.state.players
        keys = [tuple([self.rules.winner_by(Ctx(self, s))] + [t(Ctx(self, s)) for t in self.rules.tiebreaks])
                for s in range(n)]
        best = max(keys)
        breakdown = []
        for s in range(n):
            vp = {k.split(":", 1)[1]: v for k, v in self.state.vp_sources[s].items() if k.startswith("vp:") and v}
            breakdown.append(vp)
        return {"scores": [self.state.resources[s]["vp"] for s in range(n)],
                "winners": [s for s in range(n) if keys[s] == best],
                "gold": [self.state.resources[s]["gold"] for s in range(n)],
                "breakdown": breakdown, "over": self.state.over}

    # ---- what a seat may see -------------------------------------------------------------
    def observation(self, seat: int) -> dict[str, Any]:
        """The state as the seat sees it: others' hidden hands and secret offers are masked."""
        data = self.state.to_json()
        hidden_decks = {name for name, deck in self.rules.decks.items() if deck.hidden}
        for other in range(self.state.players):
            if other != seat:
                hand = data["hands"][other]
                data["hands"][other] = sorted(c for c in hand if self.rules.cards[c].deck not in hidden_decks)
                data["hands"][other] += ["?"] * (len(hand) - len(data["hands"][other]))
        data["decks"] = {name: len(pile) for name, pile in data["decks"].items()}
        data["boxed"] = {name: len(pile) for name, pile in data["boxed"].items()}
        data.pop("rng")
        data.pop("seed")
        phase = data["phase"]
        if "offers" in phase and phase.get("stage") == "offer":
            phase["offers"] = [o if s == seat or o is None else "hidden" for s, o in enumerate(phase["offers"])]
            phase["attached"] = [a if s == seat else ["?"] * len(a) for s, a in enumerate(phase["attached"])]
        data["history"] = len(data["history"])
        data["log"] = len(data["log"])
        data["seat"] = seat
        return data

    # ---- saving and copying --------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {"rules": {"path": self.rules.path, "id": self.rules.id, "digest": self.rules.digest},
                "state": self.state.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any], rules: Rules | None = None) -> Game:
        """Restore a saved game; the rules are reloaded from their path unless given."""
        if rules is None:
            path = str(Path(data["rules"]["path"]).resolve())
            rules = _RULES_CACHE.get(path) or load_rules(data["rules"]["path"])
        if rules.digest != data["rules"]["digest"]:
            raise AmunreError(f"the rules file {data['rules']['path']} changed since this game was saved")
        return cls(rules, GameState.from_json(data["state"]))

    def clone(self) -> Game:
        return Game(self.rules, self.state.clone())


def new_game(rules: Rules, players: int = 4, seed: int = 0, setup: dict[str, Any] | None = None) -> Game:
    """A new game at its first decision. `setup` may fix `start_player`, stack named decks
    (`decks: {name: [top cards...]}`), set `options`, and set per-seat start `resources`."""
    setup = setup or {}
    if not rules.min_players <= players <= rules.max_players:
        raise AmunreError(f"{rules.title or rules.id} is for {rules.min_players} to {rules.max_players} "
                          f"players, not {players}")
    options = {name: opt.default for name, opt in rules.options.items()}
    for name, value in setup.get("options", {}).items():
        if name not in rules.options or value not in rules.options[name].values:
            raise AmunreError(f"unknown option value {name}={value}")
        options[name] = value
    state = GameState(
        players=players, seed=seed, rng=seed & ((1 << 64) - 1), options=options,
        resources=[dict(rules.resources) for _ in range(players)],
        vp_sources=[{} for _ in range(players)], hands=[[] for _ in range(players)],
        decks={}, discards={}, boxed={}, owner=[-1] * len(rules.place_ids),
        tokens=[{} for _ in rules.place_ids], supply=dict(rules.supply), start_player=0,
        played=[[] for _ in range(players)])
    for name, values in setup.get("resources", {}).items():
        for seat, value in enumerate(values):
            state.resources[seat][name] = value
    game = Game(rules, state)
    _build_decks(game, setup.get("decks", {}))
    if "start_player" in setup:
        state.start_player = int(setup["start_player"]) % players
    else:
        state.rng, state.start_player = rng.below(state.rng, players)
    game._advance()
    return game


def _build_decks(game: Game, stacked: dict[str, list[str]]) -> None:
    rules, state = game.rules, game.state
    for name, deck in rules.decks.items():
        pile = list(rules.place_ids) if deck.of_places else [
            c.id for c in rules.cards.values() if c.deck == name for _ in range(c.count)]
        state.decks[name], state.discards[name], state.boxed[name] = pile, [], []
    for seat in range(state.players):
        for card in rules.setup_hand:
            state.decks[rules.cards[card].deck].remove(card)
            state.hands[seat].append(card)
    for name, pile in state.decks.items():
        state.rng = rng.shuffle(state.rng, pile)
        if name in rules.setup_deck_counts:
            count = rules.setup_deck_counts[name](Ctx(game))
            state.boxed[name], state.decks[name] = pile[count:], pile[:count]
    for name, top in stacked.items():
        if name not in state.decks:
            raise AmunreError(f"setup stacks unknown deck '{name}'")
        pile, box = state.decks[name], state.boxed[name]
        for card in reversed(top):
            if card in pile:
                pile.remove(card)
            elif card in box:
                box.remove(card)
                box.append(pile.pop())     # keep the deck's size: the last card goes to the box
            else:
                raise AmunreError(f"setup stacks '{card}' on deck '{name}', which has no such card left")
            pile.insert(0, card)
