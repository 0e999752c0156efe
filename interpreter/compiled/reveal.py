"""Reveal (interpreter/mechanics/reveal.py), in machine code: as the phase begins the top card
of a deck of places is turned (it goes to the discard pile) and kept as `PHASE.card`; the
`peek` modifier is cleared; then the `then` effect runs, with no seat. No decisions.

Working data: none. It keeps the place turned last (-1 for none).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import cards, material, ops
from .jit import jit_inline
from .lower_mechanics import row
from .mechanics import answer
from .turns import count_pick, params

if TYPE_CHECKING:
    from ..mechanics.reveal import Reveal

# the phase's row of parameters
RV_DECK, RV_THEN, RV_PEEK, RV_KEY = 0, 1, 2, 3


@jit_inline
def begin(S, M, phase):
    p = params(M, phase)
    deck = M[p + RV_DECK]
    draw = material.pile(M, deck, ops.DECK_S_DRAW)
    card = -1
    if S[draw] > 0:
        card = material.pop_top(S, draw)
    material.mod_expire(S, M, M[p + RV_PEEK])
    kept = M[M[ops.TH_KEPT] + phase]
    S[kept] = 1
    if card < 0:
        S[kept + 1] = -1
        return
    place = M[cards.card_row(M, card) + ops.CARD_PLACE]
    if place < 0:
        answer(S, ops.CALL_APPLY, phase)           # not a place: the interpreter's look-up fails
    S[kept + 1] = place
    count_pick(S, M, phase, place)
    material.push(S, M, material.pile(M, deck, ops.DECK_S_DISCARD), deck, card)
    then = M[p + RV_THEN]
    if then >= 0:
        cards.run_effect(S, M, then, -1, M[p + RV_KEY])


@jit_inline
def tensor(S, M, phase, seat, at):
    """Its pieces: the card turned last (one-hot over places); the deck's next card, for a seat
    whose `peek` is set."""
    places = M[ops.TH_PLACES]
    kept = M[M[ops.TH_KEPT] + phase]
    if S[kept] != 0 and 0 <= S[kept + 1] < places:
        M[at + S[kept + 1]] = 1
    p = params(M, phase)
    if seat >= 0 and material.mod_read(S, M, M[p + RV_PEEK], seat) != 0:
        draw = material.pile(M, M[p + RV_DECK], ops.DECK_S_DRAW)
        if S[draw] > 0:
            place = M[cards.card_row(M, S[draw + 1]) + ops.CARD_PLACE]
            if 0 <= place < places:
                M[at + places + place] = 1


def hub(S, M, call, phase, seat, arg):
    """The part compiled for the phases of this mechanic (compiled/hubs.py): one call of the
    mechanic contract (ops.CALL_*), as mechanics.py sends it."""
    if call == ops.CALL_BEGIN:
        begin(S, M, phase)
        return 0
    if call == ops.CALL_TENSOR:
        tensor(S, M, phase, seat, arg)
        return 0
    return answer(S, call, phase)


# ---- lowering: the parameters of a phase of this mechanic, as the row its hub reads ----------------


def lower(lowering: Any, pid: str, mech: Reveal) -> tuple[int, int, int]:
    params = row({RV_DECK: lowering.deck(mech.deck), RV_THEN: lowering.effect(mech.then),
                  RV_PEEK: lowering.modifier(mech.peek.name),
                  RV_KEY: lowering.key(mech.cause)})
    return lowering.put(params), 0, 1


def member(lowering: Any, phase: int, mech: Reveal, name: str) -> tuple[int, int, int] | None:
    """`PHASE.card`: the place turned last (-1 before the phase first runs)."""
    return (ops.MEMBER_KEPT, phase, 0) if name == "card" else None


def pack_work(lowering: Any, pid: str, data: dict[str, Any], state: Any) -> list[int]:
    """The running phase's data: none."""
    return []


def pack_kept(lowering: Any, pid: str, kept: dict[str, Any]) -> list[int]:
    card = kept.get("card")
    return [-1 if card is None else card]


def picks(lowering: Any, pid: str, mech: Reveal) -> list[tuple[str, Any]]:
    """Every pick it may keep, as simulate counts them: a place turned up, by its index."""
    return [("card", place) for place in range(lowering.place_count)]
