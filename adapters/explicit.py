"""A game whose every random draw is a chance node, for tools that choose or enumerate chance
outcomes (OpenSpiel's explicit-stochastic games, expectimax, search with chance nodes).

The engine draws at random only through `Game.random_below(n)` (a shuffle of k cards is k - 1
draws, the first choosing the card that goes to the bottom; the start player is one draw of
`players`). Here each such draw is a chance node with outcomes 0..n-1, each of probability
1/n: exactly the distribution of the seeded generator, made visible. A game is then one list
of moves, each either a seat's action id or a chance outcome: the set-up's draws come first,
and an action that draws (a reshuffle, say) is followed by its own chance nodes before anyone
decides again.

The engine cannot stop half-way through an action, so an outcome not yet chosen interrupts
it: the position the action started from is kept (and is what the seats see meanwhile), and
when the outcome is chosen the action is carried out again from there, its earlier draws
answered from the outcomes already chosen. Nothing else is kept: the rules, the player
count, the set-up and the moves replay the game exactly, and that is how it is saved
(`to_json`, `from_json`, and pickling).

`engine` ("auto" by default, "compiled" or "interpreter") plays the actions that draw nothing,
nearly all of them, on the compiled engine where it plays the rules file
(adapters/compiled_positions.py): the set-up and every action that draws are the
interpreter's, whose draws are the chance nodes, and each position they reach is handed to the
compiled engine. The moves, chance nodes, positions, tensors and results are the same on
either. `position` is the position the seats see, answering the integer API (a compiled one,
or the interpreter's Game); `game` is always the interpreter's Game of it (brought up to date
from the last one it made, by the actions played since on the compiled engine).

`guess(seat, rng)` is the one exception: a copy with every fact the seat cannot see drawn anew
(tools/determinize.py), for search that samples the worlds a seat may be in. Its past is not
known (its moves so far are -1), so it plays on, its later draws chance nodes again, but it
cannot be saved.
"""

from __future__ import annotations

import random
from typing import Any

from ..interpreter import ENGINES
from ..interpreter.base.errors import AmunreError, IllegalAction, shown_repr
from ..interpreter.game import Game, new_game
from ..interpreter.load.rules_cache import rules_for_save
from ..interpreter.model import Rules
from ..interpreter.play.setup import check_setup
from ..tools.determinize import determinize


class _Undrawn(Exception):
    """A draw whose outcome is not chosen yet (not an AmunreError: no rule may catch it)."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.n = n


def _undrawn(n: int) -> int:
    raise _Undrawn(n)


class ExplicitGame:
    """One game played as moves: action ids at decisions, outcomes at chance nodes."""

    def __init__(self, rules: Rules, players: int, setup: dict[str, Any] | None = None,
                 engine: str = "auto") -> None:
        self.rules, self.players = rules, players
        self.setup = check_setup(rules, players, setup)
        if engine not in ENGINES:
            raise AmunreError(f"engine is one of {', '.join(ENGINES)}, not {shown_repr(engine, 40)}")
        self.engine = engine
        self.moves: list[int] = []                  # every move so far, chance outcomes included
        self.chance_size = 0                        # outcomes of the pending draw (0: no chance node)
        self._game: Game | None = None              # the interpreter's position after the last whole move ...
        self._since: list[int] = []                 # ... but for these actions, played on the compiled engine
        self._fast: Any = None                      # the compiled position after the last whole move (None: none)
        self._action: int | None = None             # an action interrupted by a draw (None: the set-up)
        self._outcomes: list[int] = []              # the outcomes chosen for its draws so far
        self.guessed = False                        # a guess (see guess()): no past to save
        self._known: tuple[bool, int | None] | None = None     # (over, to move), None: not worked out yet
        self._machine: Any = None                   # the compiled rules (None: the interpreter plays it all)
        if engine != "interpreter":
            from .compiled_positions import machine_for
            self._machine = machine_for(rules, self.setup, engine)
        self._run()

    # ---- reading ----------------------------------------------------------------------------------
    @property
    def is_chance(self) -> bool:
        return self.chance_size > 0

    @property
    def game(self) -> Game | None:
        """The interpreter's Game of the position the seats see: after the last whole move (at
        a chance node inside an action, the position it started from; None while the set-up
        draws). Read it, never change it: the adapter moves on to a new one."""
        if self._since:
            assert self._game is not None           # actions follow a position
            game = self._game.clone(events=False)
            game.chance = _undrawn                  # they drew nothing on the compiled engine: nor here
            for action in self._since:
                game.apply_id(action)
            self._game, self._since = game, []
        return self._game

    @property
    def position(self) -> Any:
        """The position the seats see, for the integer API (`legal_action_ids`, `over`,
        `to_move`, `result`, and the tensors through adapters/engine.py): the compiled
        engine's where it plays, else the interpreter's Game (None while the set-up draws)."""
        return self._fast if self._fast is not None else self._game

    @property
    def over(self) -> bool:
        return self._status()[0]

    @property
    def to_move(self) -> int | None:
        """The seat to decide, or None (a chance node, or the end)."""
        return self._status()[1]

    def _status(self) -> tuple[bool, int | None]:
        """Whether the game is over, and the seat to decide: worked out once per move (a
        tool asks both many times a node)."""
        status = self._known
        if status is None:
            position = self.position
            over = not self.is_chance and position is not None and position.over
            status = self._known = (over, None if self.is_chance or position is None or over else position.to_move)
        return status

    def legal_moves(self) -> list[int]:
        """The outcomes of a chance node, or the seat's legal action ids; sorted."""
        if self.is_chance:
            return list(range(self.chance_size))
        position = self.position
        return [] if position is None or position.over else position.legal_action_ids()

    def result(self) -> dict[str, Any]:
        """The result of the position (Game.result), from the compiled engine where it plays."""
        if self._fast is not None:
            from .engine import Stopped
            try:
                return self._fast.result()
            except Stopped:
                pass
        game = self.game
        assert game is not None                     # a result is asked once there is a position
        return game.result()

    def pending_action(self) -> int | None:
        """The action being carried out while its draws are chosen (None: none, or the set-up)."""
        return self._action if self.is_chance else None

    # ---- playing ----------------------------------------------------------------------------------
    def apply(self, move: int) -> None:
        """A chance outcome at a chance node, else an action id of the seat to move."""
        if type(move) is not int or move not in self.legal_moves():
            what = f"chance outcome from 0 to {self.chance_size - 1}" if self.is_chance else "legal action id"
            raise IllegalAction(f"{move!r} is not a {what} here", move)
        self.moves.append(move)
        self._known = None
        if self.is_chance:
            self._outcomes.append(move)
        else:
            if self._fast is not None:
                from .compiled_positions import step
                after = step(self._fast, move)
                if after is not None:               # it drew nothing: no chance node, no interpreter
                    self._fast = after
                    self._since.append(move)
                    return
            self._action, self._outcomes = move, []
        self._run()

    def _run(self) -> None:
        """Carry out the set-up or the pending action with the outcomes chosen so far."""
        given = iter(self._outcomes)

        def chance(n: int) -> int:
            outcome = next(given, None)
            if outcome is None:
                raise _Undrawn(n)
            return outcome
        try:
            before = self.game
            if before is None:
                game = new_game(self.rules, self.players, 0, self.setup, events=False, chance=chance)
            else:
                assert self._action is not None     # None only for the set-up, before there is a game
                game = before.clone(events=False)
                game.chance = chance
                game.apply_id(self._action)
        except _Undrawn as undrawn:
            self.chance_size = undrawn.n
            return
        game.chance = _undrawn
        self._game, self._action, self._outcomes, self.chance_size = game, None, [], 0
        self._fast = self._packed(game)

    def _packed(self, game: Game) -> Any:
        """The compiled engine's position of an interpreter one (None: the interpreter plays on)."""
        if self._machine is None:
            return None
        from .compiled_positions import packed
        return packed(self._machine, game)

    def clone(self) -> ExplicitGame:
        copy = ExplicitGame.__new__(ExplicitGame)
        copy.__dict__.update(self.__dict__)
        copy.moves, copy._outcomes, copy._since = list(self.moves), list(self._outcomes), list(self._since)
        if self._fast is None:                      # on the compiled engine, positions are never changed: shared
            copy._game = None if self._game is None else self._game.clone(events=False)
        return copy

    def __deepcopy__(self, memo: dict) -> ExplicitGame:
        return self.clone()

    def guess(self, seat: int, rng: random.Random) -> ExplicitGame:
        """A game `seat` cannot tell from this one (the same observation and tensor), with every
        fact it cannot see drawn anew from `rng` (tools/determinize.py). Only at a decision or
        the end: at a chance node no seat decides, so no search asks for one there (and a
        pending action of another seat would be a secret to draw as well). Its moves so far
        become -1, as its history: what was drawn and chosen in secret must not show."""
        if self.is_chance or self._game is None:
            raise AmunreError("a guess of the hidden facts is made at a seat's decision or the end, "
                              "not at a chance node")
        game = self.game
        assert game is not None                     # not at the set-up's chance nodes
        drawn = determinize(game, seat, rng)
        copy = self.clone()
        copy.moves = [-1] * len(self.moves)
        # Its own draws explicit again: determinize gives a seeded game, which would draw the
        # future from a generator instead of chance nodes.
        copy._game = Game(self.rules, drawn.state, drawn.history, False, drawn.setup, drawn.unlimited,
                          chance=_undrawn)
        copy._since, copy._fast, copy._known = [], self._packed(copy._game), None
        copy.guessed = True
        return copy

    # ---- saving -----------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Plain data that replays this game: the rules (path and digest), players, set-up, moves."""
        if self.guessed:
            raise AmunreError("a guessed game has no past to replay: it cannot be saved")
        rules = self.rules
        return {"rules": {"path": rules.path, "id": rules.id, "digest": rules.digest},
                "players": self.players, "setup": self.setup, "moves": list(self.moves)}

    @classmethod
    def from_json(cls, data: dict[str, Any], rules: Rules | None = None, engine: str = "auto") -> ExplicitGame:
        """The game `to_json` wrote, replayed move by move (the rules reloaded unless given)."""
        try:
            game = cls(rules_for_save(data["rules"], rules), data["players"], data["setup"], engine)
            for move in data["moves"]:
                game.apply(move)
        except (KeyError, TypeError) as error:
            raise AmunreError(f"not a saved explicit-chance game: {error}") from None
        except IllegalAction as error:
            raise AmunreError(f"the saved moves are not a game of these rules: {error.reason}") from None
        return game

    def __reduce__(self) -> tuple:
        return (_restore, (self.to_json(), self.engine))


def _restore(data: dict[str, Any], engine: str = "auto") -> ExplicitGame:
    return ExplicitGame.from_json(data, engine=engine)
