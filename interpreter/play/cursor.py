"""The cursor in the order of play: which phase of the flow runs (`state.at`, a leaf of the
tree model.py's `Flow` holds) and which pass each repeat is in (`state.passes`).

When a phase is done the cursor walks the tree: on to the next node of a sequence, into
another pass of a repeat (its `between` first) or out of it, out of a branch; entering a node
goes down to its first phase (a branch picks its case, a repeat may run no pass at all). Each
node with a name ends that lifetime when it is done (a repeat: after each pass), and the
game's own `end_if` is checked where the rules say. A repeat's pass reads 1 before the repeat
first runs within the pass of the repeats around it, its number while it runs, and its last
number after it is done: so `round` at an age's end is the age's last round.
"""

from __future__ import annotations

from ..base.errors import GameError
from ..base.limits import STEP_LIMIT
from ..dsl.context import Ctx
from ..model import Flow, FlowNode, Game, Step
from . import modifiers

WALK = range(STEP_LIMIT)          # a walk that goes on for ever: a flow that never reaches a phase


def start(game: Game) -> None:
    """The cursor at the first phase of the flow (the game is over at once if it runs none)."""
    game.state.passes = [1] * game.rules.flow.counters
    _walk(game, 0, entering=True)


def leaf_done(game: Game) -> None:
    """The phase at the cursor is done: on to the next one, or the game is over."""
    flow = game.rules.flow
    _walk(game, flow.leaves[game.state.at], entering=False)


def step(game: Game) -> Step:
    """The phase at the cursor, in its age and round (the passes of the repeats so named)."""
    flow, state = game.rules.flow, game.state
    age = state.passes[flow.age] if flow.age >= 0 else 1
    rnd = state.passes[flow.round] if flow.round >= 0 else 1
    return Step(flow.leaf_phase(state.at), age, rnd)


def _walk(game: Game, node: int, entering: bool) -> None:
    """From a node being entered (or one that is done) to the next phase to run."""
    nodes = game.rules.flow.nodes
    for _ in WALK:
        here = nodes[node]
        if entering:
            if here.kind == "phase":
                game.state.at = here.leaf
                return
            inner = _enter(game, node, here)
            if inner < 0:
                entering = False           # it runs nothing this time: it is done at once
            else:
                node = inner
            continue
        jump = _done(game, node, here)
        if jump is not None:
            if jump < 0:
                _game_over(game)
                return
            node, entering = jump, True
            continue
        if here.parent < 0:
            _game_over(game)
            return
        node, entering = _after(game, node, here.parent)
        if node < 0:
            _game_over(game)
            return
    raise GameError(f"the flow went through {STEP_LIMIT:,} nodes without reaching a phase: its loops never end")


def _enter(game: Game, index: int, node: FlowNode) -> int:
    """The child to go into on entering a node; -1 if it runs nothing now."""
    if node.kind == "sequence":
        return node.children[0]
    if node.kind == "repeat":
        _new_pass(game, node, 1)
        return node.children[0] if _another_pass(game, node, first=True) else -1
    value = node.on.fn(Ctx(game)) if node.on is not None else None
    for case, child in node.cases:
        if case == value:
            return child
    return node.otherwise


def _after(game: Game, child: int, parent: int) -> tuple[int, bool]:
    """Where play goes on once `child` is done: (node, entering it); the parent itself, done,
    when it has nothing more to run."""
    node = game.rules.flow.nodes[parent]
    if node.kind == "sequence":
        at = node.children.index(child)
        return (node.children[at + 1], True) if at + 1 < len(node.children) else (parent, False)
    if node.kind == "branch":
        return parent, False
    body = node.children[0]
    if child == body and _another_pass(game, node, first=False):
        if len(node.children) > 1:
            return node.children[1], True                  # between two passes
        jump = _pass_done(game, parent, node)
        if jump is not None:
            return jump, True
        _new_pass(game, node, game.state.passes[node.counter] + 1)
        return body, True
    jump = _pass_done(game, parent, node)
    if jump is not None:
        return jump, True
    if child != body:                                      # after `between`: the next pass
        _new_pass(game, node, game.state.passes[node.counter] + 1)
        return body, True
    return parent, False                                   # the last pass: the repeat is done


def _another_pass(game: Game, node: FlowNode, first: bool) -> bool:
    """Whether the repeat runs a pass now (first: its first one; else one more after the one just run)."""
    ctx = Ctx(game)
    if node.times is not None:
        times = node.times.fn(ctx)
        if not isinstance(times, int):
            raise GameError(f"{node.times.rule.name}: a repeat runs a whole number of times, not {times!r}",
                            node.times.rule.span)
        done = 0 if first else game.state.passes[node.counter]
        if done >= times:
            return False
    if node.until is not None and (not first or node.check_before):
        return not node.until.fn(ctx)
    return True


def _new_pass(game: Game, node: FlowNode, number: int) -> None:
    """The repeat begins a pass: the repeats inside it read 1 again."""
    passes, nodes = game.state.passes, game.rules.flow.nodes
    passes[node.counter] = number
    stack = list(node.children)
    while stack:
        inner = nodes[stack.pop()]
        if inner.kind == "repeat":
            passes[inner.counter] = 1
        stack.extend(inner.children)


def _pass_done(game: Game, index: int, node: FlowNode) -> int | None:
    """A pass of the repeat is over: its lifetime ends; the node to jump to if the game's end_if
    holds here."""
    _lifetime_ends(game, node.name)
    return _end_check(game, index)


def _done(game: Game, index: int, node: FlowNode) -> int | None:
    """A node other than a repeat is done (a repeat's passes end its lifetime): its lifetime
    ends; the node to jump to if the game's end_if holds here."""
    if node.kind == "repeat":
        return None
    _lifetime_ends(game, node.name)
    return _end_check(game, index)


def _end_check(game: Game, index: int) -> int | None:
    """If the game's `end_if` is checked at this node and holds: every lifetime around the node
    ends, and play goes on at the `then` node (or the game is over: -1). None: play goes on."""
    flow = game.rules.flow
    if flow.end_if is None or not _checked_here(flow, index) or not _before_then(flow, index):
        return None
    if not flow.end_if.fn(Ctx(game)):
        return None
    parent = flow.nodes[index].parent
    while parent >= 0:
        _lifetime_ends(game, flow.nodes[parent].name)
        parent = flow.nodes[parent].parent
    if game.log is not None:
        game.event({"event": "game_ends", "after": flow.nodes[index].name or flow.nodes[index].phase})
    return flow.end_then if flow.end_then >= 0 else -1


def _checked_here(flow: Flow, index: int) -> bool:
    if flow.end_after >= 0:
        return index == flow.end_after
    return flow.nodes[index].kind == "phase"


def _before_then(flow: Flow, index: int) -> bool:
    """Whether the node comes before the part the game's end leads to (once there, the end has come)."""
    if flow.end_then < 0:
        return True
    top = index
    while flow.nodes[top].parent > 0:
        top = flow.nodes[top].parent
    if top == 0:
        return True
    children = flow.nodes[0].children
    return children.index(top) < children.index(flow.end_then)


def _lifetime_ends(game: Game, name: str | None) -> None:
    if name is not None:
        state = game.state
        modifiers.expire(state, game.rules.expiring.get(name, ()))
        state.played.pop(name, None)


def _game_over(game: Game) -> None:
    state = game.state
    _lifetime_ends(game, "game")
    state.over = game.over = True
    state.to_move = game.to_move = None
    if game.log is not None:
        game.event({"event": "game_over", **game.result()})
