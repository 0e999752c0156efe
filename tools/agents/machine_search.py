"""The search bot's positions on the compiled engine: a guess of the hidden facts handed to the
machine as its state row (compiled/pack.py), stepped there, its winners read and its seats
valued there, while the search itself (its tree, its generator, its choices) stays in Python.

An iteration of ismcts plays a guess some fifteen decisions on and values where it ends; in
the interpreter the steps and the valuation were two thirds of its time. Here a step is one
call into machine code (0.6 us against 7), the same ids in the same order, and the worths are
the heuristic's own numbers to the bit (tools/agents/machine_lookahead.py), so the search makes
the same choices. A guess the machine cannot take (a region it cannot pack) raises
`Unplayable`, a rule the machine stops at raises `MachineStop`: the search then starts its
decision again in the interpreter from the generator's state before it (tools/agents/ismcts.py).
"""

from __future__ import annotations

import numpy as np

from ...interpreter.compiled import ops
from ...interpreter.compiled.entry import APPLY, RESULT
from ...interpreter.compiled.game import winners
from ...interpreter.game import Game
from ..determinize import Guesses
from .machine_lookahead import Lookahead
from .value import Weights

_OVER, _TO_MOVE, _NLEGAL = ops.S_OVER, ops.S_TO_MOVE, ops.S_NLEGAL


class Unplayable(Exception):
    """A guess the machine cannot take: the search goes back to the interpreter."""


class MachinePosition:
    """A guessed position on the machine, with the few questions a search asks of a game."""
    __slots__ = ("S", "words", "look", "players")

    def __init__(self, S: np.ndarray, look: Lookahead, players: int) -> None:
        self.S, self.words, self.look, self.players = S, memoryview(S.data), look, players

    @property
    def over(self) -> bool:
        return self.words[_OVER] != 0

    @property
    def to_move(self) -> int | None:
        seat = self.words[_TO_MOVE]
        return None if seat < 0 else seat

    def legal_action_ids(self) -> list[int]:
        words, at = self.words, self.look.machine.legal_at
        return words[at:at + words[_NLEGAL]].tolist()

    def apply_id(self, action_id: int) -> None:
        """Take one of the ids legal now (the search takes no other)."""
        machine = self.look.machine
        if not machine.step(self.S, machine.M, machine.R, APPLY, action_id):
            raise ValueError(f"action id {action_id} is not legal here: the search took an id it was not given")

    def winners(self) -> list[int]:
        """The seats that won the game (over): Game.result()["winners"]."""
        machine, n = self.look.machine, self.players
        R = np.zeros(n * (2 + len(machine.rules.winner.tiebreaks)), dtype=np.int64)
        machine.call(self.S, RESULT, 0, R)
        return winners(R.tolist(), n)

    def worths(self, weights: Weights) -> list[float]:
        """Every seat's worth by the weights: tools/agents/value.py `values`, the same floats."""
        return self.look.values(self.S, self.players, weights)


def position(look: Lookahead, guess: Game, drawn_from: Guesses) -> MachinePosition:
    """The guess, one of those drawn from `drawn_from`, as a position on the machine."""
    S, unknown = look.packed(guess, drawn_from)
    if any(not region.startswith("picks ") for region in unknown):
        raise Unplayable(f"the machine cannot take a guess with {sorted(unknown)[0]}")
    return MachinePosition(S, look, guess.state.players)
