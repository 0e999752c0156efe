"""What a browser is sent: one seat's view of a game (or the public view), as plain JSON.

Every fact comes from `game.observation(seat)` (or `public_observation()` for a watcher), the
public event log and the rules file, so a seat's page carries exactly what that seat may see:
another seat's hidden cards and secret offers are masked before they reach this module. The
words are the command line's (cli/render.py, cli/seat_view.py), turned from rich markup into
plain text, so the terminal and the browser tell a game alike. The board is laid out by the
rules file's `layout:` section (interpreter/model.py `Layout`), with no Python per game.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from ...interpreter.base.actions import DECIDE, PLAY
from ...interpreter.dsl.sentences import words
from ...interpreter.game import Game
from ...interpreter.model import Rules, Split
from ...interpreter.play.outcomes import trial_copy
from ..render import (
    action_text,
    describe_phase,
    kept_text,
    offer_text,
    outcome_text,
    phase_unit,
    place_facts,
    plain_value,
    seat_label,
    winner_line,
)
from ..seat_view import current_bids, occupied, place_modifiers
from . import scoring
from .phase_tables import phase_tables

NOBODY = -1
# The running phase's data drawn on their own (not in the generic list of its facts): the places
# up for auction (a placement auction's lots, a lot auction's lot) and the offers made.
LOTS = ("lots", "lot")
DRAWN_APART = (*LOTS, "offers")


def plain(markup: str) -> str:
    """Rich markup as the text it shows."""
    return Text.from_markup(markup).plain


def passes_in_all(rules: Rules, counter: int) -> int | None:
    """How many ages (or rounds) a game has, where its repeat runs a fixed number of times: a
    header says "age 1 of 2"; None where it runs until a condition."""
    for node in rules.flow.nodes:
        if node.kind == "repeat" and node.counter == counter and counter >= 0 and node.times is not None:
            fixed = node.times.constant
            return fixed if type(fixed) is int else None
    return None


def game_view(game: Game, seat: int | None, agents: list[str], actions: bool = True) -> dict[str, Any]:
    """What one page shows but the play-by-play (its caller keeps that): the seat's observation
    drawn as data (seat None: the public view), the legal actions when the seat is to move (and
    `actions` asked), and the result."""
    rules = game.rules
    obs = game.observation(seat) if seat is not None else game.public_observation()
    step = game.step
    view: dict[str, Any] = {
        "title": rules.title or rules.id, "rules_id": rules.id, "you": seat, "players": game.state.players,
        "step": {"age": step.age, "round": step.round, "phase": step.phase,
                 "ages": passes_in_all(rules, rules.flow.age), "rounds": passes_in_all(rules, rules.flow.round),
                 "about": describe_phase(rules, step.phase) if step.phase else ""},
        "to_move": obs["to_move"], "over": obs["over"],
        "seats": [_seat(rules, obs, s, seat, agents) for s in range(game.state.players)],
        "board": board(rules, obs),
        "phase": phase_view(game, obs),
        "actions": [],
        "scoring": scoring.latest(rules, game.log or [], game.state.players, obs["over"]),
    }
    if actions and seat is not None and obs["to_move"] == seat and not obs["over"]:
        view["actions"] = legal(game, carriers(view, seat))
    if obs["over"]:
        result = game.result()
        ties = game.lost_ties()
        view["result"] = {"scores": result["scores"], "winners": result["winners"], "score": rules.winner.score,
                          "ties": ties, "text": plain(winner_line(result, agents, rules.winner.score, ties))}
    return view


# The engine's own action that gives up a card held for its price (interpreter/play/standing.py):
# the page asks before it is sent, as a card sold is gone.
CONFIRMED = ("sell",)


def drawn_places(view: dict[str, Any]) -> set[str]:
    """The places a view's board draws."""
    return {place["id"] for column in view["board"]["columns"] for band in column["bands"] for place in band["places"]}


def carriers(view: dict[str, Any], seat: int) -> dict[str, set[str]]:
    """What the page draws that an action can be made on: the seat's cards in hand, the places
    on the board, the running phase's lots."""
    return {"card": {card["id"] for card in view["seats"][seat]["hand"]},
            "place": drawn_places(view) | {lot["id"] for lot in view["phase"]["lots"]}}


def _carrier(action: dict[str, Any], drawn: dict[str, set[str]]) -> tuple[dict[str, str] | None, str]:
    """What the page makes the action on, and the action's words there: a card of the hand it
    plays, sells or lays, else the first drawn place it names; the words are its other values
    (a bid's amount, a card's target), or its type. None: the action is a button of its own."""
    fields = [(key, value) for key, value in action.items() if key != "type"]
    on = None
    for key, value in fields:
        if key == "card" and value in drawn["card"]:
            on = {"card": value, "field": key}
            break
    if on is None:
        for key, value in fields:
            if isinstance(value, str) and value in drawn["place"]:
                on = {"place": value, "field": key}
                break
    if on is None:
        return None, ""
    rest = [plain_value(value) for key, value in fields if key != on["field"]]
    return on, " ".join(str(value).replace("_", " ") for value in rest) or str(action.get("type", ""))


def legal(game: Game, drawn: dict[str, set[str]]) -> list[dict[str, Any]]:
    """The legal actions as the engine numbers them, each with its words, what it would change
    if taken now (`outcome`, from the engine: Game.outcomes, with its words) and whether the page
    asks before sending it. An action made on a card or place the page draws says which (`on`)
    and its words there (`short`). A card play that would pay or score now (a resource gained at
    once or on closing the turn, nothing paid) is marked `pays`, and so is its card in the hand."""
    found = []
    outcomes = game.outcomes()
    for action_id in game.legal_action_ids():
        action = game.action_from_id(action_id)
        kind = str(action.get("type", ""))
        outcome = outcomes[action_id].to_json()
        gains = [n for part in ("now", "then") for n in (outcome.get(part) or {}).values()
                 if game.rules.actions.block_at[action_id].rank == PLAY]
        on, short = _carrier(action, drawn)
        repeat = repeats(game, action_id) if game.rules.actions.block_at[action_id].rank == DECIDE \
            and not outcome.get("later") and not outcome.get("chance") else 1
        found.append({"id": action_id, "type": kind, "label": plain(action_text(game.rules, action)),
                      "card": action.get("card"), "on": on, "short": short, "outcome": outcome,
                      "gain": outcome_text(outcome), "pays": bool(gains) and min(gains) > 0,
                      "repeat": repeat, "confirm": kind in CONFIRMED})
    return found


MOST_REPEATED = 20      # the most times "all N" makes one move in a row


def repeats(game: Game, action_id: int) -> int:
    """How many times in a row the seat to move could make this move now, its turn going on
    (placing every piece it bought on one place): "all N" on the page. Counted on a copy
    whose chance is a stand-in, never the game's, and stopped as the phase or the seat changes;
    asked only of a move that draws nothing (how often one could draw would tell the deck)."""
    seat, step = game.to_move, game.state.step
    copy = trial_copy(game)
    count = 0
    while count < MOST_REPEATED and not copy.over and copy.to_move == seat and copy.state.step == step \
            and action_id in copy.legal_action_ids():
        copy.apply_id(action_id)
        count += 1
    return count


def _seat(rules: Rules, obs: dict[str, Any], other: int, seat: int | None, agents: list[str]) -> dict[str, Any]:
    """One seat's purse and hand as `seat` sees them: its own cards with their text, another's as
    a count and the cards shown."""
    hand = obs["hands"][other] if other < len(obs.get("hands", [])) else []
    entry: dict[str, Any] = {
        "seat": other, "name": seat_label(other), "agent": agents[other] if other < len(agents) else "",
        "resources": {k: plain_value(v) for k, v in obs["resources"][other].items()},
        "start": obs.get("start_player") == other,
    }
    if other == seat:
        entry["hand"] = [_card(rules, card) for card in sorted(hand)]
        held = {name: per_seat[seat] for name, per_seat in (obs.get("held") or {}).items()}
        if held:
            entry["held"] = {name: " ".join(map(str, cards)) for name, cards in held.items()}
    else:
        shown = sorted(c for c in hand if c != "?")
        entry["hand"] = [_card(rules, card) for card in shown]
        entry["hidden_cards"] = len(hand) - len(shown)
    return entry


def _card(rules: Rules, card: str) -> dict[str, str]:
    known = rules.cards.get(card)
    return {"id": card, "doc": getattr(known, "doc", "") or ""}


def board(rules: Rules, obs: dict[str, Any]) -> dict[str, Any]:
    """The places in the rules file's layout: columns side by side, each cut into bands."""
    layout = rules.layout
    face_up = {card for cards in (obs.get("shown") or {}).values() for card in cards}
    owners, tokens = obs.get("owner", []), obs.get("tokens", [])
    mods = place_modifiers(rules, obs)
    drawn = [p for p in range(len(rules.place_ids))
             if layout.show == "all" or occupied(p, owners, tokens) or rules.place_ids[p] in face_up]
    players = obs["players"]
    columns = []
    for label, in_column in _split(rules, layout.columns, drawn, owners, players):
        bands = [{"label": band_label, "places": [_place(rules, p, owners, tokens, mods, face_up) for p in places]}
                 for band_label, places in _split(rules, layout.rows, in_column, owners, players)]
        columns.append({"label": label, "bands": bands})
    return {"title": layout.title, "between": layout.between, "columns": columns, "symbols": bool(layout.symbols),
            "decks": {name: {"left": count, "discards": len((obs.get("discards") or {}).get(name, []))}
                      for name, count in (obs.get("decks") or {}).items()},
            "supply": dict(obs.get("supply") or {})}


def _split(rules: Rules, split: Split | None, places: list[int], owners: list[int],
           players: int) -> list[tuple[str, list[int]]]:
    """Places grouped by a split's values, in its order (one unnamed group without a split)."""
    if split is None:
        return [("", places)]
    if split.by == "owner":
        nobody = [p for p in places if owners[p] == NOBODY]       # what lies between the seats comes first
        return ([("Nobody's", nobody)] if nobody else []) + \
            [(seat_label(s), [p for p in places if owners[p] == s]) for s in range(players)]
    return [(value, [p for p in places if rules.place_props[p].get(split.by) == value]) for value in split.order]


def _place(rules: Rules, p: int, owners: list[int], tokens: list[dict[str, int]],
           mods: dict[int, dict[str, Any]], face_up: set[str]) -> dict[str, Any]:
    place_id = rules.place_ids[p]
    set_here = mods.get(p, {})
    symbols = rules.layout.symbols
    return {"id": place_id, "facts": place_facts(rules, p), "owner": owners[p] if p < len(owners) else NOBODY,
            "tokens": {k: v for k, v in (tokens[p] if p < len(tokens) else {}).items() if v},
            "symbols": shown_symbols(rules, p, set_here), "more": folded_facts(rules, p),
            "marks": {words(name): plain_value(value) for name, value in set_here.items()
                      if not any(symbol.name == name for symbol in symbols)},
            "face_up": place_id in face_up}


def folded_facts(rules: Rules, p: int) -> str:
    """What a layout with symbols folds away: the place's other properties in words (those
    the board is split by go without saying); nothing without symbols (the facts say it all)."""
    layout = rules.layout
    if not layout.symbols:
        return ""
    drawn = {split.by for split in (layout.columns, layout.rows) if split is not None}
    return place_facts(rules, p, frozenset({*drawn, *(symbol.name for symbol in layout.symbols)}))


def shown_symbols(rules: Rules, p: int, set_here: dict[str, Any] | None = None) -> list[dict[str, str]]:
    """The place's properties and modifiers its layout shows as symbols, each with its words
    (a tooltip): a number but 0 as the symbol and the number, a true flag as the symbol, a word
    but `none` as the symbol and the word."""
    shown = []
    values = {**rules.place_props[p], **(set_here or {})}
    for symbol in rules.layout.symbols:
        value = values.get(symbol.name)
        if value is None or value is False or value == 0 or value == "none":
            continue
        said = words(symbol.name) if value is True else f"{words(symbol.name)} {words(str(value))}"
        text = symbol.symbol if value is True else f"{symbol.symbol}{plain_value(value)}"
        shown.append({"name": symbol.name, "text": text.replace("_", " "),
                      "title": f"{said}: {symbol.doc}" if symbol.doc else said})
    return shown


def _amount(value: Any) -> bool:
    """Whether a bid is an amount (a seat's latest bid below the best on its lot was outbid)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def phase_view(game: Game, obs: dict[str, Any]) -> dict[str, Any]:
    """The running phase's public data: its lots and the bids on them, the offers made, what
    phases keep, the cards face up, what only this seat sees, and its other facts."""
    rules, step = game.rules, game.step
    data = obs.get("phase") or {}
    view: dict[str, Any] = {"lots": [], "offers": [], "kept": [], "shown": {}, "private": [], "facts": {},
                            "tables": phase_tables(game)}
    lots = [p for key in LOTS if isinstance(data.get(key), list) for p in data[key] if isinstance(p, int)]
    bids = current_bids(game) if lots else {}
    for p in lots:
        place_id = rules.place_ids[p]
        on_lot = [(s, b) for s, b in sorted(bids.items()) if b.get("lot") == place_id]
        best = max((b["space"] for _, b in on_lot if _amount(b.get("space"))), default=None)
        view["lots"].append({"id": place_id, "facts": place_facts(rules, p), "symbols": shown_symbols(rules, p),
                             "more": folded_facts(rules, p),
                             "bids": [{"seat": s, "space": plain_value(b.get("space")),
                                       "outbid": best is not None and _amount(b.get("space")) and b["space"] < best}
                                      for s, b in on_lot]})
    offers = data.get("offers")
    if isinstance(offers, list):
        unit = phase_unit(rules, step.phase)
        view["offers"] = [{"seat": s, "offer": plain(offer_text(o, unit))}
                          for s, o in enumerate(offers) if o is not None]
    for phase_id, values in (obs.get("kept") or {}).items():
        view["kept"] += [f"{phase_id}: {plain(kept_text(rules, phase_id, key, value))}"
                         for key, value in values.items() if value is not None]
    view["shown"] = {deck: list(cards) for deck, cards in (obs.get("shown") or {}).items() if cards}
    for phase_id, facts in (obs.get("private") or {}).items():
        view["private"] += [f"{phase_id}: {key} {plain_value(value)}" for key, value in facts.items()]
    view["facts"] = {key: plain_value(value) for key, value in data.items()
                     if key not in DRAWN_APART and value is not None}
    return view
