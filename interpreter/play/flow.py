"""The engine's automatic step: everything that happens between two decisions.

After every action (and at set-up) the engine runs this loop until a seat must decide or the
game ends. It begins the phase at the cursor of the flow (or skips it by its `skip_if`), ends
it (by its `end_if`, or when its mechanic has no one left to ask) and moves the cursor on
(play/cursor.py), lets the mechanic do its automatic work,
asks it who decides next, and works out that seat's legal actions once: the mechanic's own,
the card plays of the window it opens, and the standing actions the rules opt into
(play/standing.py: selling cards). A seat with nothing to decide is not asked, unless a
standing action would let it do more; a seat whose only move is to close its turn has it
closed for it.
"""

from __future__ import annotations

from ..base.errors import GameError
from ..base.limits import STEP_LIMIT
from ..dsl.context import Ctx
from ..model import Game
from . import cards, cursor, modifiers

STEPS = range(STEP_LIMIT)          # made once: the loop below runs at every decision


def advance(game: Game) -> bool:  # noqa: C901 (the hot loop between two decisions, kept whole: see benchmarks/README.md)
    """Run automatic steps until a seat must decide or the game is over; whether the position
    stood still (no step run, no phase begun: at most the seat to move and its legal ids
    worked out), which a search's guess of a position asks (tools/determinize.py)."""
    state, rules = game.state, game.rules
    plans, hands, standing = rules.leaf_plans, state.hands, rules.standing
    begun = False
    for n in STEPS:
        if state.over:
            return n == 0
        plan = plans[state.at]
        if state.working is None:
            begun = True
            mech = plan.mech
            if mech.skip_if is not None and mech.skip_if.fn(Ctx(game)):
                if game.log is not None:
                    step = cursor.step(game)
                    game.event({"event": "skip", "phase": step.phase, "age": step.age, "round": step.round})
                end_step(game)
                continue
            if game.log is not None:
                step = cursor.step(game)
                game.event({"event": "phase", "phase": step.phase, "age": step.age, "round": step.round})
            mech.begin(game)
        if plan.end_if is not None and plan.end_if.fn(Ctx(game)):
            end_step(game)
            continue
        auto, to_move, legal_of = plan.auto, plan.to_move, plan.legal
        if plan.automatic and auto(game):
            continue
        seat = to_move(game)
        if seat is None:
            end_step(game)
            continue
        legal = legal_of(game, seat)                # a fresh list, in id order
        if not legal:
            if standing is None or not standing.enables(game, legal_of, seat, 0):
                pass_turn = plan.pass_turn
                pass_turn(game, seat)
                continue
            legal = [standing.decline]              # asked only for standing actions, or to decline
        hand = hands[seat]
        plays = None if plan.window_cards.isdisjoint(hand) else cards.playable(game, seat, plan.window)
        if plays:
            legal = legal + plays if legal[-1] < plays[0] else sorted(legal + plays)
        elif (legal[0] == plan.closing_id and len(legal) == 1
              and (standing is None
                   or not (plan.asks_standing and standing.ids(game, seat))
                   and (plan.closing_ignores_purse or not standing.enables(game, legal_of, seat, 1)))):
            apply, closing = plan.apply, plan.closing
            assert closing is not None              # its id was the one legal id
            apply(game, seat, closing, ())
            continue
        if standing is not None:
            legal.extend(standing.ids(game, seat))  # standing actions rank last
        state.to_move = game.to_move = seat                 # the step stops: the seat chooses among these
        game.decision = legal
        return n == 0 and not begun
    raise GameError(f"phase '{rules.flow.leaf_phase(state.at)}' ran {STEP_LIMIT} automatic steps "
                    "without asking anyone: the rules never let it end")


def end_step(game: Game) -> None:
    """End the running phase: its working data goes, with every modifier and record of cards
    played that lasts a phase; then the cursor moves on (ending the lifetimes of the nodes of
    the flow it leaves), or the game is over."""
    state, rules = game.state, game.rules
    if state.working is not None:
        rules.leaf_plans[state.at].mech.end(game)
    state.working = None
    game.decisions_in_step = 0
    modifiers.expire(state, rules.expiring["phase"])
    state.played.pop("phase", None)
    state.step += 1
    cursor.leaf_done(game)
