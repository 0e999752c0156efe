"""Building `Rules` from a schema-valid document: every reference checked, every DSL string
compiled, every problem kept with its place in the file and raised together.

The steps run in the order names become known: places and their values, the DSL vocabulary
(resources, options, modifiers, each phase's names), material (tokens, decks, goods), the
phases' mechanics, the cards, the action space, then set-up, the order of play and the winner.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ..base.actions import PLAY, ActionSpace
from ..base.causes import Cause
from ..base.errors import Problem, RulesError, did_you_mean
from ..base.limits import MAX_ACTIONS, MAX_AMOUNT, MAX_CARDS, MAX_PLACES
from ..mechanics import MECHANICS
from ..model import CardDef, DeckDef, Plan, Rules, WinnerDef
from ..play.choices import choice_fields
from ..play.standing import Selling
from . import build_material
from . import build_vocabulary as vocabulary
from .build_context import Build, PhaseBuild
from .build_examples import build_examples
from .build_flow import RESERVED_LIFETIMES, build_flow
from .build_layout import build_layout
from .document import Document


def _setup_hand(build: Build, hand: list[str], cards: dict[str, Any], max_players: int) -> None:
    """Every seat is dealt the whole setup hand, so the deck must hold that many copies at the
    largest table; a file that lowers a card's count below that is refused here, not mid-deal."""
    for i, card in enumerate(hand):
        build.ref(("setup", "hand", i), "card")
        if card in cards and hand.index(card) == i:
            needed = max_players * hand.count(card)
            if cards[card].count < needed:
                build.problem(("setup", "hand", i), f"every seat starts with '{card}', so {max_players} "
                              f"players need {needed} copies; the card has count {cards[card].count}")


def build_rules(doc: Document) -> Rules:
    """Compile a schema-valid document into Rules; RulesError lists every problem found."""
    build = Build(doc)
    data = doc.data
    _sizes(build, data)
    places = vocabulary.places(build, data["places"])
    vocabulary.vocabulary(build, data)
    material = build_material.material(build, data)
    held = build_material.denominations(build, data)
    phases = _phases(build, data.get("phases", {}))
    cards = _cards(build, data.get("cards", {}), phases, material.decks, places.ids)
    space, play_blocks, standing = _action_space(build, phases, cards, material)
    setup = data.get("setup", {})
    _setup_hand(build, setup.get("hand", []), cards, data["players"]["max"])
    deck_setups = {name: build_material.deck_setup(build, name, material.decks) for name in setup.get("decks", {})}
    flow = build_flow(build, data, phases)
    winner = _winner(build, data.get("winner", {}))
    layout = build_layout(build, data.get("layout", {}))
    examples = build_examples(build, data.get("examples", []), places.ids)
    if build.problems:
        raise RulesError(sorted(build.problems, key=_problem_order))
    mods = build.vocab.all_modifiers()
    window_cards = {w: frozenset(c for c in play_blocks if cards[c].window == w)      # every window named
                    for w in {card.window for card in cards.values() if card.window}
                    | {phase.window for phase in phases.values() if phase.window}}
    plans = {pid: Plan.of(mech, window_cards) for pid, mech in phases.items()}
    return Rules(
        path=doc.path, id=data.get("id", ""), title=data.get("title", ""),
        min_players=data["players"]["min"], max_players=data["players"]["max"],
        options=build.known["options"],
        resources={k: v.get("start", 0) for k, v in data.get("resources", {}).items()},
        resource_max={k: v["max"] for k, v in data.get("resources", {}).items() if "max" in v},
        resource_top={k: min(v.get("max", MAX_AMOUNT), MAX_AMOUNT) for k, v in data.get("resources", {}).items()},
        hidden_resources=frozenset(k for k, v in data.get("resources", {}).items() if v.get("hidden")),
        place_ids=places.ids, place_index={pid: i for i, pid in enumerate(places.ids)},
        place_props=places.props, reconstructed=places.reconstructed, ownership=build.vocab.ownership,
        start_owner=places.owners,
        token_supply=material.token_supply, supply=material.supply, token_capacity=material.capacity,
        unlimited_if=material.unlimited, denominations=held,
        conversions=material.conversions, converted=frozenset(c[0] for c in material.conversions),
        goods=material.goods, decks=material.decks, cards=cards,
        vocab=build.vocab, setup_hand=tuple(setup.get("hand", [])), deck_setups=deck_setups,
        flow=flow, phases=phases, leaf_plans=tuple(plans[flow.leaf_phase(at)] for at in range(len(flow.leaves))),
        winner=winner, actions=space, play_blocks=play_blocks,
        window_cards=window_cards,
        standing=standing,
        expiring={life: tuple(n for n, m in mods.items() if m.lasts == life)
                  for life in RESERVED_LIFETIMES + tuple(n.name for n in flow.nodes if n.name)},
        digest=rules_digest(data), start_causes=_start_causes(build, data), year=data.get("year"),
        publisher=data.get("publisher", ""), source=data.get("source", ""), dsl=tuple(build.strings),
        parents=doc.parents, layout=layout, examples=examples)


def _start_causes(build: Build, data: dict[str, Any]) -> dict[str, Cause]:
    """What the set-up gives, by what it sets: each resource's start, the hand, the start player."""
    causes = {name: build.cause("start", name, ("resources", name, "start")) for name in data.get("resources", {})}
    causes["hand"] = build.cause("start", "hand", ("setup", "hand"))
    causes["start_player"] = build.cause("start", "start_player", ("setup", "start_player"))
    causes["owner"] = build.cause("start", "owner", ("places", "items"))
    return causes


def rules_digest(data: Any) -> str:
    """A hash of the merged rules data: a saved game must meet the same rules, parents included.
    The layout and the worked examples are left out: play never reads them, and a save or log
    made before they changed still replays the same game."""
    played = {k: v for k, v in data.items() if k not in ("layout", "examples")} if isinstance(data, dict) else data
    text = json.dumps(played, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


# ---- phases and cards ---------------------------------------------------------------------------

def _phases(build: Build, specs: dict[str, Any]) -> dict[str, Any]:
    phases = {}
    build.known["window"] = None        # any name: cards are checked against the phases' windows
    for pid, spec in specs.items():
        cls = MECHANICS.get(spec.get("mechanic"))
        if cls is None:
            build.known["mechanic"] = MECHANICS
            build.ref(("phases", pid, "mechanic"), "mechanic")
            continue
        phases[pid] = cls(pid, PhaseBuild(build, pid, cls.params))
    return phases


def _cards(build: Build, specs: dict[str, Any], phases: dict[str, Any], decks: dict[str, DeckDef],
           place_ids: tuple[str, ...]) -> dict[str, CardDef]:
    """The cards of the rules file, then one card per place for each deck of places: so a
    province card is a card like any other, dealt, held, picked and discarded."""
    windows = set()
    for mech in phases.values():
        windows |= {w for w in (mech.window, getattr(mech, "attach_window", None)) if w}
    cards = {}
    for cid, spec in specs.items():
        build.ref(("cards", cid, "deck"), "deck")
        window = spec.get("window")
        if window is not None and window not in windows:
            build.problem(("cards", cid, "window"), f"no phase opens the card window '{window}'",
                          did_you_mean(window, windows))
        effect = build.effect(("cards", cid, "effect")) if "effect" in spec else None
        deck = decks.get(spec["deck"])
        sells = deck is not None and deck.sell
        sale = build.cause("sale", "sold " + cid, ("decks", spec["deck"], "sell")) if sells else None
        cards[cid] = CardDef(cid, spec["deck"], spec.get("count", 1), window, effect, spec.get("doc", ""),
                             build.cause("card", cid, ("cards", cid, "effect") if effect else ("cards", cid)), sale)
    for name, deck in decks.items():
        if deck.of_places:
            for pid in deck.places:
                if pid in cards and cards[pid].deck != name and cards[pid].deck in decks \
                        and decks[cards[pid].deck].of_places:
                    build.problem(("decks", name, "where"), f"the place '{pid}' is a card of two decks of places, "
                                  f"'{cards[pid].deck}' and '{name}'")
                elif pid in cards:
                    build.problem(("cards", pid), f"the card '{pid}' has the id of a place, whose card the deck "
                                  f"'{name}' holds", key=True)
                sale = build.cause("sale", "sold " + pid, ("decks", name, "sell")) if deck.sell else None
                cards.setdefault(pid, CardDef(pid, name, 1, None, None, f"the card of {pid}", sale=sale))
    build.known["card"] = cards
    return cards


def _sizes(build: Build, data: dict[str, Any]) -> None:
    """Refuse, before anything is built from them, sizes that would take the machine's time or
    memory (interpreter/base/limits.py): RulesError at once."""
    players = data["players"]
    if players["min"] > players["max"]:
        build.problem(("players", "min"),
                      f"the fewest players ({players['min']}) is more than the most ({players['max']})")
    if len(data["places"]["items"]) > MAX_PLACES:
        build.problem(("places", "items"), f"more than {MAX_PLACES:,} places")
    cards = data.get("cards", {})
    if sum(spec.get("count", 1) for spec in cards.values()) > MAX_CARDS:
        largest = max(cards, key=lambda c: cards[c].get("count", 1))
        build.problem(("cards", largest, "count"), f"the decks would hold more than {MAX_CARDS:,} cards")
    if build.problems:
        raise RulesError(build.problems)


def _action_space(build: Build, phases: dict[str, Any], cards: dict[str, CardDef], material: Any) -> tuple:
    space = ActionSpace()
    material.cards = cards
    for pid, mech in phases.items():
        before = space.total()
        mech.declare(space, material)
        _not_too_many(build, space, before, ("phases", pid))
    windows = {mech.window for mech in phases.values() if mech.window}
    play_blocks = {}
    for cid in sorted(cards):
        card = cards[cid]
        if card.effect is not None and card.window in windows:
            before = space.total()
            play_blocks[cid] = space.declare("play", {"card": cid}, choice_fields(card.effect, material), PLAY)
            _not_too_many(build, space, before, ("cards", cid, "effect"))
    sell_block, pass_block = Selling.declare(space, cards, material.decks)
    if space.total() <= MAX_ACTIONS:
        space.number()
    standing = None if sell_block is None else Selling(sell_block, pass_block, cards, material.decks)
    return space, play_blocks, standing


def _not_too_many(build: Build, space: ActionSpace, before: int, path: tuple) -> None:
    if space.total() > MAX_ACTIONS >= before:
        build.problem(path, f"its actions would number {space.total() - before:,} ids, and the rules at most "
                      f"{MAX_ACTIONS:,} in all (a resource's max, a supply, a deck or a choice sizes them)")


# ---- winner ---------------------------------------------------------------------------------------

def _winner(build: Build, spec: dict[str, Any]) -> WinnerDef:
    score = build.ref(("winner", "score"), "resource")
    by = build.expression(("winner", "by")) if "by" in spec else None
    tiebreaks = tuple(build.expression(("winner", "tiebreak", i)) for i in range(len(spec.get("tiebreak", []))))
    report = tuple(build.ref(("winner", "report", i), "resource") for i in range(len(spec.get("report", []))))
    return WinnerDef(score, by, tiebreaks, report)


def _problem_order(problem: Problem) -> tuple:
    span = problem.span
    return (span.file, span.line, span.col) if span else ("", 0, 0)


