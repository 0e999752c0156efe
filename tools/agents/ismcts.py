"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley and Whitehouse
2012): one tree over the seat's own view, searched through a fresh guess of the hidden facts
at every iteration.

Each iteration draws a determinization (tools/determinize.py: other hands, secret
choices, deck order and chance drawn anew, consistently with the seat's observation), walks
the tree from the root by UCB among the actions legal in that guess (an action's exploration
term counts the iterations in which it was available), adds one node, plays on with a cheap
policy for `horizon` decisions (or to the end), and backs up one reward per seat: its share of
the win at the end, or, for a position left unfinished, its chance of winning as a softmax of
every seat's heuristic worth (tools/agents/value.py) over `spread` points. Every seat's
choices in the tree are made by its own statistics, so no seat is assumed to play by the
searching seat's interest. The action chosen is the root's most visited.

It reads only the public API (clone, legal_action_ids, apply_id, result, observation-based
determinizations) and never the real hidden facts: the position it searches from is always
a guess. Where the rules compile, it searches on the compiled engine with the same draws and
numbers, hence the same choices (tools/agents/machine_search.py); its modules are imported
where the bot first decides, as heuristic.py says why.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from ...interpreter.base.limits import MAX_DECISION_MS, MAX_ITERATIONS
from ...interpreter.game import Game
from ..determinize import Guesses
from ..sampling import below
from .heuristic import STYLES
from .options import Option
from .value import values

if TYPE_CHECKING:
    from .machine_guesses import MachinePosition

DEFAULT_ITERATIONS = 300     # per decision, without a time budget


class Node:
    """The statistics of one action taken from a node, for the seat that took it."""
    __slots__ = ("mover", "visits", "total", "avail", "children")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.visits = 0
        self.total = 0.0
        self.avail = 1
        self.children: dict[int, Node] = {}


class IsmctsAgent:
    name: ClassVar[str] = "ismcts"
    doc: ClassVar[str] = ("Tree search over guesses of the hidden facts (information-set MCTS), with a budget "
                          "of iterations or milliseconds per decision.")
    options: ClassVar[tuple[Option, ...]] = (
        Option("iterations", int, None, "iterations per decision at most (default: 300 without ms, no limit "
               "with it; 0: no limit, then give ms)", least=0, most=MAX_ITERATIONS),
        Option("ms", int, 0, "milliseconds per decision at most (0: no limit); a time budget makes a game "
               "depend on the machine's speed, so it does not replay exactly", least=0, most=MAX_DECISION_MS),
        Option("c", float, 0.7, "exploration constant of UCB (rewards are between 0 and 1)", least=0.0),
        Option("horizon", int, 12, "decisions played after leaving the tree before the position is valued "
               "(0: play to the end)", least=0),
        Option("spread", float, 6.0, "points of heuristic worth that make one seat e times likelier to win "
               "than another, when an unfinished playout is valued", least=0.01),
        Option("style", str, "balanced", "the weights unfinished playouts are valued by: " + ", ".join(STYLES),
               choices=tuple(STYLES)),
    )

    # Where the iterations play: "auto", the compiled engine where the rules compile and its
    # machine code is kept already; "compiled", compiling it first if need be (a study sets it);
    # "interpreter". The same choices on each (tools/agents/machine_search.py).
    engine: str = "auto"
    machine_parts: ClassVar[tuple[str, ...]] = ("lookahead", "search")   # what a study readies for it

    @staticmethod
    def check_settings(settings: dict[str, Any]) -> None:
        """ValueError if the options, each in its range, leave no budget (iterations=0 and no ms):
        a search that would never stop. Asked when a spec is checked, before any game starts."""
        if settings.get("iterations") == 0 and not settings.get("ms"):
            raise ValueError("ismcts: give a budget, iterations or ms (both are 0)")

    def __init__(self, seed: int = 0, iterations: int | None = None, ms: int = 0, c: float = 0.7, horizon: int = 12,
                 spread: float = 6.0, style: str = "balanced") -> None:
        self.check_settings({"iterations": iterations, "ms": ms})
        if iterations is None:
            iterations = 0 if ms else DEFAULT_ITERATIONS
        self.rng = random.Random(seed)
        self.iterations, self.ms, self.c = iterations, ms, c
        self.horizon, self.spread, self.weights = horizon, spread, STYLES[style]
        self.searched = 0            # iterations run over the whole game, for reports

    def choose(self, game: Game, legal: list[dict[str, Any]]) -> dict[str, Any]:
        ids = game.legal_action_ids()
        return legal[ids.index(self.choose_id(game, ids))]

    def choose_id(self, game: Game, ids: list[int]) -> int:
        if len(ids) == 1:
            return ids[0]
        seat = game.to_move
        assert seat is not None                 # an agent is asked only while a seat decides
        deadline = time.perf_counter() + self.ms / 1000 if self.ms else math.inf
        guesses = Guesses(game, seat)
        players = game.state.players
        look = None
        if self.engine != "interpreter":
            from ...interpreter.compiled.core import MachineStop
            from .machine_guesses import MachineGuesses, Unplayable
            from .machine_lookahead import lookahead
            from .machine_search import machine_search
            look = lookahead(game.rules, compile=self.engine == "compiled")
        if look is not None:
            before = self.rng.getstate()
            try:
                drawing = MachineGuesses(look, guesses)
                whole = machine_search(look, compile=self.engine == "compiled")
                found = (whole.decide(drawing, ids, self.rng, self.iterations, self.c, self.horizon, self.spread,
                                      self.weights, deadline) if whole is not None else None)
                if found is not None:
                    chosen, done = found
                    self.searched += done
                    return chosen
                return self._search(ids, seat, players, deadline, lambda: drawing.draw(self.rng))
            except (MachineStop, Unplayable):
                self.rng.setstate(before)       # the same search again, in the interpreter
        return self._search(ids, seat, players, deadline, lambda: guesses.draw(self.rng))

    def _search(self, ids: list[int], seat: int, players: int, deadline: float,
                draw: Callable[[], Game | MachinePosition]) -> int:
        """The root's most visited action after the iterations, each on a guess from `draw`."""
        return self._visited(ids, seat, players, deadline, draw)[0]

    def _visited(self, ids: list[int], seat: int, players: int, deadline: float,
                 draw: Callable[[], Game | MachinePosition]) -> tuple[int, dict[int, int]]:
        """The root's most visited action after the iterations, and each legal action's visits."""
        root, done = Node(seat), 0
        while (not self.iterations or done < self.iterations) and (done == 0 or time.perf_counter() < deadline):
            self._iterate(root, draw(), players)
            done += 1
        self.searched += done
        allowed = set(ids)
        visits = {action: child.visits for action, child in root.children.items() if action in allowed}
        visited = [(count, -action) for action, count in visits.items()]
        return (-max(visited)[1] if visited else ids[0]), visits

    def ranked(self, game: Game, ids: list[int]) -> tuple[int, list[tuple[int, float]]]:
        """The action the search chooses here, and each action it visited with its share of the
        root's visits, most visited first (a hint: tools/agents/hints.py). The search runs in the
        interpreter, which chooses as the compiled engine does, so that the visits can be read."""
        seat = game.to_move
        assert seat is not None                 # a hint is asked only while a seat decides
        if len(ids) == 1:
            return ids[0], [(ids[0], 1.0)]
        deadline = time.perf_counter() + self.ms / 1000 if self.ms else math.inf
        guesses = Guesses(game, seat)
        chosen, visits = self._visited(ids, seat, game.state.players, deadline, lambda: guesses.draw(self.rng))
        total = sum(visits.values()) or 1
        return chosen, sorted(((action, count / total) for action, count in visits.items()),
                              key=lambda pair: (pair[0] != chosen, -pair[1], pair[0]))

    def _iterate(self, root: Node, game: Game | MachinePosition, players: int) -> None:
        path, node, c, rng = [], root, self.c, self.rng
        while not game.over:
            ids = game.legal_action_ids()
            children = node.children
            untried = [a for a in ids if a not in children]
            if untried:
                action = untried[below(rng, len(untried))] if len(untried) > 1 else untried[0]
                mover = game.to_move
                assert mover is not None        # the game is not over: a seat decides
                child = children[action] = Node(mover)
                for a in ids:
                    if a in children:
                        children[a].avail += 1
                game.apply_id(action)
                path.append(child)
                break
            best, best_score = ids[0], -math.inf
            for a in ids:
                child = children[a]
                child.avail += 1
                score = child.total / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
                if score > best_score:
                    best, best_score = a, score
            node = children[best]
            game.apply_id(best)
            path.append(node)
        rewards = self._playout(game, players)
        for node in path:
            node.visits += 1
            node.total += rewards[node.mover]

    def _playout(self, game: Game | MachinePosition, players: int) -> list[float]:
        """Random decisions for `horizon` steps (or to the end); each seat's reward."""
        rng, left = self.rng, self.horizon or math.inf
        while not game.over and left > 0:
            ids = game.legal_action_ids()
            game.apply_id(ids[below(rng, len(ids))])
            left -= 1
        if game.over:
            winners = game.result()["winners"] if isinstance(game, Game) else game.winners()
            return [1.0 / len(winners) if s in winners else 0.0 for s in range(players)]
        worths = values(game, self.weights) if isinstance(game, Game) else game.worths(self.weights)
        worth = [w / self.spread for w in worths]
        top = max(worth)
        odds = [math.exp(w - top) for w in worth]
        total = 0.0
        for odd in odds:        # added in order, as the machine does (sum() compensates from Python 3.12 on)
            total += odd
        return [o / total for o in odds]
