"""The reference's actions and position in the interpreter's words, for the oracle test: an
action number as the dict the interpreter's `legal_actions()` would list, and the material
position as plain data comparable with the interpreter's GameState."""

from __future__ import annotations

from typing import Any

from .board import (
    ATTACH,
    BID,
    BID_SPACES,
    BUY_FARMER,
    BUY_FAVOR,
    BUY_STONE,
    COLLECT,
    DONE,
    KINDS,
    NAMES,
    OFFER,
    OFFER_THEFT,
    PASS,
    PLACE_FARMER,
    PLACE_STONE,
    PLAY_ARCHITECT,
    PLAY_BIG_HARVEST,
    PLAY_BRIBERY,
    PLAY_FREE_FARMER,
    PLAY_PROTECTION,
    PLAY_SCORING,
    PLAY_TREASURY,
    RESOLVE,
    SELL,
    TAKE_FARMER,
    TAKE_FAVOR,
    TAKE_STONE,
    TILES,
)

_PLAYS_WITHOUT_TARGET = {PLAY_BRIBERY: "bribery", PLAY_PROTECTION: "protection",
                         **{play: KINDS[kind] for kind, play in PLAY_SCORING.items()}}
_PLAYS_WITH_TARGET = ((PLAY_ARCHITECT, "architect"), (PLAY_BIG_HARVEST, "big_harvest"),
                      (PLAY_FREE_FARMER, "free_farmer"), (PLAY_TREASURY, "treasury"))


def action_dict(game: Any, action: int) -> dict[str, Any]:
    """The action as the interpreter writes it. board.py numbers the actions in runs, phase by
    phase, so the run an action lies in says which phase's words it takes."""
    if action < ATTACH:
        return _auction_or_market(game, action)
    if action < TAKE_FAVOR:
        return _offering(action)
    if action < PLAY_ARCHITECT:
        return _take(action)
    return _card_or_turn(action)


def _auction_or_market(game: Any, action: int) -> dict[str, Any]:
    """A bid (its lot is the slot's province in this auction), a purchase, or a placement."""
    if action < BUY_FAVOR:
        slot, space = divmod(action - BID, len(BID_SPACES))
        return {"type": "bid", "lot": NAMES[game.lots[slot]], "space": BID_SPACES[space]}
    if action < PLACE_FARMER:
        good, base = (("favor", BUY_FAVOR) if action < BUY_FARMER else ("farmer", BUY_FARMER) if action < BUY_STONE
                      else ("stone", BUY_STONE))
        return {"type": "buy", "good": good, "count": action - base}
    token, base = ("farmer", PLACE_FARMER) if action < PLACE_STONE else ("stone", PLACE_STONE)
    return {"type": "place", "token": token, "at": NAMES[action - base]}


def _offering(action: int) -> dict[str, Any]:
    """The secret offer: the card attached to it, the gold or the theft card offered, and the
    adjustment's resolution."""
    if action == ATTACH:
        return {"type": "attach", "card": "offering_adjustment"}
    if OFFER <= action < OFFER_THEFT:
        return {"type": "offer", "amount": action - OFFER}
    if action == OFFER_THEFT:
        return {"type": "offer", "card": "theft"}
    return {"type": "resolve", "card": "offering_adjustment", "delta": (3, -3, 0)[action - RESOLVE]}


def _take(action: int) -> dict[str, Any]:
    """A good taken: a favor card, or a token onto a province."""
    if action == TAKE_FAVOR:
        return {"type": "take", "good": "favor"}
    good, base = ("farmer", TAKE_FARMER) if action < TAKE_STONE else ("stone", TAKE_STONE)
    return {"type": "take", "good": good, "at": NAMES[action - base]}


def _card_or_turn(action: int) -> dict[str, Any]:
    """A card played (some on a province) or sold, or the end of a seat's turn."""
    if action in _PLAYS_WITHOUT_TARGET:
        return {"type": "play", "card": _PLAYS_WITHOUT_TARGET[action]}
    for base, card in _PLAYS_WITH_TARGET:
        if base <= action < base + len(NAMES):
            return {"type": "play", "card": card, "target": NAMES[action - base]}
    if action >= SELL:
        return {"type": "sell", "card": KINDS[action - SELL]}
    return {"type": {DONE: "done", COLLECT: "collect", PASS: "pass"}[action]}


def legal_dicts(game: Any) -> list[dict[str, Any]]:
    return [action_dict(game, action) for action in game.legal]


def action_of(game: Any, wanted: dict[str, Any]) -> int:
    """The legal action that the interpreter's dict names (KeyError if none)."""
    for action in game.legal:
        if action_dict(game, action) == wanted:
            return action
    raise KeyError(f"the reference has no legal action {wanted}")


def position(game: Any) -> dict[str, Any]:
    """The material position: resources, hands, provinces, supplies, decks, start player, tile,
    the generator."""
    provinces = len(NAMES)
    tokens = [{k: v for k, v in (("farmer", game.farmer[p]), ("free_farmer", game.free_farmer[p]),
                                 ("stone", game.stone[p]), ("pyramid", game.pyramid[p]),
                                 ("double_pyramid", game.double[p])) if v} for p in range(provinces)]
    return {
        "gold": list(game.gold), "vp": list(game.vp),
        "hands": [sorted(["theft"] + [KINDS[k] for k, count in enumerate(hand) for _ in range(count)])
                  for hand in game.hand],
        "owner": list(game.owner), "tokens": tokens, "supply": dict(game.supply),
        "province_deck": [NAMES[p] for p in game.provinces],
        "province_discards": [NAMES[p] for p in game.province_discards],
        "favor_deck": [KINDS[k] for k in reversed(game.favor)],
        "favor_discards": [KINDS[k] for k in game.favor_discards],
        "start_player": game.start, "tile": TILES[game.tile][0] if game.tile >= 0 else None,
        "rng": game.rng, "over": game.over, "to_move": game.to_move,
    }
