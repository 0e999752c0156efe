"""The most decisions a game of a rules file can take, for a player count: a bound that holds
for every agent and every option, read from the rules alone (OpenSpiel's `max_game_length`).

The engine's own limit (MAX_DECISIONS_PER_STEP decisions in each phase the flow may run) is a
safety net, millions of decisions for a game that takes a few hundred. Here each phase's
mechanic says the most decisions one run of it can take for these players and this material
(`MOST_DECISIONS`, a registry by mechanic class as tools/mechanic_hooks.py describes: the
engine never asks it, so it stays out of the mechanic's contract), the card plays its window
allows are added, and the flow is summed as `Flow.most_phases` walks it. Selling cards, which a
seat may do at any decision, is bounded over the whole game: a card sold left a hand, and a
sellable card reaches a hand only from the set-up or a draw, which the phases bound too
(`MOST_DRAWN`).

Where the rules give no bound, the answer is None and the caller keeps the engine's limit:
a repeat that runs `until` a condition (its passes are bounded by what the condition reads,
which this reading of the rules does not follow), a moves phase with a move of no `times`,
cards played outside a one-per-kind rule from a deck that reshuffles, a draw of a sellable
card this module does not account for. docs/adapters.md has the table of bounds against the
longest of 1,000 random games (benchmarks/game_length.py measures it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import product
from typing import Any

from ..interpreter import new_game
from ..interpreter.base.errors import AmunreError
from ..interpreter.dsl import ast
from ..interpreter.dsl.context import Ctx
from ..interpreter.mechanics.auction import LOT_STYLES
from ..interpreter.mechanics.card_window import ClosingTurns
from ..interpreter.mechanics.deal import Deal
from ..interpreter.mechanics.draft import Draft
from ..interpreter.mechanics.lay_card import LayCard
from ..interpreter.mechanics.lot_auction import LotAuction
from ..interpreter.mechanics.market import Market
from ..interpreter.mechanics.moves import Moves
from ..interpreter.mechanics.placement import PlacementAuction
from ..interpreter.mechanics.reset import Reset
from ..interpreter.mechanics.reveal import Reveal
from ..interpreter.mechanics.score import Score
from ..interpreter.mechanics.secret_offer import SecretOffer
from ..interpreter.mechanics.secret_pick import SecretPick
from ..interpreter.mechanics.select import Select
from ..interpreter.mechanics.transition import Transition
from ..interpreter.model import Rules
from .mechanic_hooks import entry


@dataclass(frozen=True)
class Reach:
    """What a bound reads: the rules, the player count, and the set-ups a game of that count may
    start from (one per combination of option values), where an expression that reads nothing
    but the player count and the options (a lot count of `players`) is worked out exactly."""
    rules: Rules
    players: int
    starts: tuple[Any, ...]
    sold: tuple[str, ...] = ()        # the decks whose cards a seat may sell at any decision

    def most(self, expression: Any) -> int | None:
        """The largest value of an expression fixed by the set-up, over every option; None if it
        reads anything else (the position, a seat, a phase) or cannot be worked out."""
        if expression is None:
            return None
        if isinstance(expression.constant, int) and not isinstance(expression.constant, bool):
            return expression.constant
        if expression.tree is None or not _set_up_only(expression.tree):
            return None
        try:
            values = [expression.fn(Ctx(game)) for game in self.starts]
        except AmunreError:
            return None
        if not values or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            return None
        return max(values)


def _set_up_only(tree: ast.Node) -> bool:
    """Whether an expression's names are only the player count and options (and numbers)."""
    for node in _nodes(tree):
        if isinstance(node, ast.Name) and node.parts[0].name not in ("players", "option"):
            return False
        if isinstance(node, ast.Where | ast.Call):
            return False
    return True


def _nodes(node: Any) -> Iterator[Any]:
    """Every node below (and with) this one of a DSL tree."""
    yield node
    for value in vars(node).values():
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, ast.Node):
                yield from _nodes(item)


# ---- one run of a phase: its own decisions -----------------------------------------------------
Bound = Callable[[Any, Reach], int | None]


def _turns(mech: ClosingTurns, reach: Reach) -> int:
    """Each seat closes its turn once."""
    return reach.players


def _nothing(mech: Any, reach: Reach) -> int:
    """Automatic work only: nobody decides."""
    return 0


def _one_each(mech: Any, reach: Reach) -> int:
    """Each seat decides once at most (lays or declines, takes, picks)."""
    return reach.players


def _select(mech: Select, reach: Reach) -> int:
    """One seat chooses one option."""
    return 1


def _market(mech: Market, reach: Reach) -> int:
    """Each seat: one buy (or pass) per good, each token bought placed one at a time, and `done`.
    A buy is at most the good's bound (its action's largest count) and, when the price is a
    curve of the count, what the most a seat can spend in a turn pays for, all goods together."""
    caps = [_good_cap(good, limit, reach) if good.token else 0 for good, limit in mech.goods]
    return reach.players * (len(mech.goods) + _affordable(mech, reach, caps) + 1)


def _good_cap(good: Any, limit: Any, reach: Reach) -> int:
    """The most of a good one buy takes: its action's largest count, and its limit where that is
    a number or the largest of a place property (`max(my.PLACES, PROPERTY)`)."""
    cap = min(_good_bound(good, SimpleMaterial(reach.rules)), PRICE_CAP)
    if limit is not None and limit.tree is not None:
        tree = limit.tree
        most = reach.most(limit)
        if most is None and isinstance(tree, ast.Call) and tree.func.name == "max" and len(tree.args) == 2:
            most = _column_most(tree.args[1], reach)
        if most is not None:
            cap = max(0, min(cap, most))
    return cap


def _column_most(expr: ast.Expr, reach: Reach) -> int | None:
    """The largest value of a place property named bare (`PROPERTY`), over every place."""
    if not (isinstance(expr, ast.Name) and len(expr.parts) == 1):
        return None
    column = [props.get(expr.parts[0].name) for props in reach.rules.place_props]
    numbers = [v for v in column if isinstance(v, int) and not isinstance(v, bool)]
    return max(numbers) if numbers and len(numbers) == len(column) else None


def _affordable(mech: Market, reach: Reach, caps: list[int]) -> int:
    """The most items of the capped kinds a seat's turn pays for (the caps alone if the price
    reads more than the count)."""
    prices = mech.prices
    if prices is None or len(prices) <= max(caps, default=0):
        return sum(caps)
    return _most_items(caps, prices.__getitem__, _purse(reach, mech.pay))


def _purse(reach: Reach, resource: str) -> int:
    """The most of a resource a seat can spend in one turn: the most it holds, and what selling
    cards brings meanwhile (every sellable card twice: held, and drawn again after a sale)."""
    rules = reach.rules
    sales = sum(2 * card.count * rules.decks[card.deck].sell for card in rules.cards.values()
                if rules.decks[card.deck].sell and rules.decks[card.deck].sell_resource == resource)
    return rules.resource_top[resource] + sales


PRICE_CAP = 1000          # the counts a price curve is searched for (the market tables as many)


def _most_items(caps: list[int], price: Callable[[int], int], purse: int) -> int:
    """The most items of the capped kinds (caps of 0 are not placed) a purse pays for, each kind
    at the price of its count: a small knapsack over the counts."""
    best = {0: 0}                   # spent -> the most items for it
    for cap in caps:
        if not cap:
            continue
        step: dict[int, int] = {}
        for spent, items in best.items():
            for n in range(cap + 1):
                cost = spent + price(n)
                if cost > purse:
                    break
                if step.get(cost, -1) < items + n:
                    step[cost] = items + n
        best = step
    return max(best.values())


def _placement(mech: PlacementAuction, reach: Reach) -> int:
    """Every bid on a lot is above its best bid, and the best bidder never bids again (nor leaves
    it): a lot takes at most one bid per space. Lots: the count, or the places the deck holds."""
    return _placement_lots(mech, reach) * len(mech.spaces)


def _placement_lots(mech: PlacementAuction, reach: Reach) -> int:
    held = len(reach.rules.decks[mech.deck].places) or len(reach.rules.place_ids)
    count = reach.most(mech.count)
    return held if count is None else max(0, min(count, held))


def _lot_auction(mech: LotAuction, reach: Reach) -> int:
    """Open: each bid above the best one, at most the pay resource's max, with at most one seat
    fewer than all declining between two bids; once around and sealed: each seat once; fixed
    price: the price, then each other seat once. A style an expression picks: the longest."""
    n = reach.players
    styles = (mech.style,) if isinstance(mech.style, str) else LOT_STYLES
    longest = 0
    for style in styles:
        if style == "open":
            longest = max(longest, mech.most * (n - 1) + n)
        else:
            longest = max(longest, n)
    return longest


def _secret_offer(mech: SecretOffer, reach: Reach) -> int:
    """Each seat: a card attached per kind, its offer, a resolution per card attached, and its
    rewards (one decision each)."""
    kinds = len(mech.attached_cards.values) if mech.attach is not None else 0
    rewards = max([*mech.ranks, mech.others], default=0) if mech.goods else 0
    return reach.players * (2 * kinds + 1 + rewards)


def _moves(mech: Moves, reach: Reach) -> int | None:
    """Each seat: every move at most its `times`, and `done`; a move without `times` has no
    bound in the mechanic (what ends it is written in the rules' own effects)."""
    if any(move.times is None for move in mech.moves):
        return None
    return reach.players * (sum(move.times for move in mech.moves) + 1)


MOST_DECISIONS: dict[type, Bound] = {
    ClosingTurns: _turns, Score: _nothing, Reset: _nothing, Transition: _nothing, Reveal: _nothing, Deal: _nothing,
    LayCard: _one_each, Draft: _one_each, SecretPick: _one_each, Select: _select,
    Market: _market, PlacementAuction: _placement, LotAuction: _lot_auction, SecretOffer: _secret_offer,
    Moves: _moves,
}
"""Mechanic class -> the most decisions of its own (not card plays, not sales) one run takes."""


# ---- cards drawn, for the sales ------------------------------------------------------------------
def _market_drawn(mech: Market, reach: Reach, deck: str) -> int:
    caps = [_good_cap(good, limit, reach) if good.draw == deck else 0 for good, limit in mech.goods]
    return reach.players * _affordable(mech, reach, caps)


def _offer_drawn(mech: SecretOffer, reach: Reach, deck: str) -> int:
    if not any(good.draw == deck for good in mech.goods):
        return 0
    n, ranks = reach.players, mech.ranks
    return sum(ranks[:n]) + mech.others * max(0, n - len(ranks))


def _placement_drawn(mech: PlacementAuction, reach: Reach, deck: str) -> int | None:
    per_lot = _effect_draws(mech.on_win, reach, deck)
    return None if per_lot is None else per_lot * min(_placement_lots(mech, reach), reach.players)


def _lot_drawn(mech: LotAuction, reach: Reach, deck: str) -> int | None:
    per_place = _effect_draws(mech.on_win, reach, deck)
    return None if per_place is None else per_place * len(reach.rules.place_ids)


MOST_DRAWN: dict[type, Callable[[Any, Reach, str], int | None]] = {
    Market: _market_drawn, SecretOffer: _offer_drawn, PlacementAuction: _placement_drawn, LotAuction: _lot_drawn,
}
"""Mechanic class -> the most cards of a deck one run puts in hands (a class without an entry
puts none there but through a DSL effect, which `_unaccounted_draws` looks for)."""
ACCOUNTED_EFFECTS: dict[type, tuple[str, ...]] = {PlacementAuction: ("on_win",), LotAuction: ("on_win",)}
"""Mechanic class -> its effects whose draws its MOST_DRAWN entry counts."""


def _effect_draws(effect: Any, reach: Reach, deck: str) -> int | None:
    """The most cards of the deck one run of an effect draws: a count that is a number or a
    property of `it` (its largest value); a draw inside `each` or of another count: None."""
    if effect is None or effect.tree is None:
        return 0
    total = 0
    for stmt in _nodes(effect.tree):
        if isinstance(stmt, ast.Each) and any(isinstance(s, ast.Draw) for s in _nodes(stmt.body)):
            return None
        if isinstance(stmt, ast.Draw) and stmt.deck.name == deck:
            most = _count_most(stmt.count, reach)
            if most is None:
                return None
            total += most
    return total


def _count_most(count: ast.Expr, reach: Reach) -> int | None:
    if isinstance(count, ast.Number):
        return int(count.value)
    if isinstance(count, ast.Name) and len(count.parts) == 2 and count.parts[0].name == "it":
        most = _column_most(ast.Name(parts=count.parts[1:]), reach)
        return None if most is None else max(0, most)
    return None


def _unaccounted_draws(rules: Rules, deck: str) -> bool:
    """Whether some DSL string of the rules draws from the deck where no MOST_DRAWN entry counts it."""
    for string in rules.dsl:
        if string.tree is None or not any(isinstance(n, ast.Draw) and n.deck.name == deck for n in _nodes(string.tree)):
            continue
        path = string.path
        mech = rules.phases.get(str(path[1])) if len(path) > 2 and path[0] == "phases" else None
        if mech is None or path[2] not in (entry(ACCOUNTED_EFFECTS, mech) or ()):
            return True
    return False


# ---- cards played in a phase's window ------------------------------------------------------------
def _plays(mech: Any, reach: Reach) -> int | None:
    """The most cards a seat plays in one run of the phase: one of each kind where its deck plays
    one per kind, else every copy (when played cards cannot come back: the deck never reshuffles)."""
    rules = reach.rules
    window = getattr(mech, "window", None)
    if window is None:
        return 0
    per_seat = 0
    for card_id in rules.window_cards.get(window, frozenset()):
        card = rules.cards[card_id]
        deck = rules.decks[card.deck]
        if deck.one_per_kind is not None:
            per_seat += 1
        elif deck.reshuffle:
            return None
        else:
            per_seat += card.count
    return reach.players * per_seat


# ---- the whole game ------------------------------------------------------------------------------
def starts(rules: Rules, players: int) -> tuple[Any, ...]:
    """A new game of the player count for each combination of option values it allows."""
    names = sorted(rules.options)
    games = []
    for values in product(*(rules.options[name].values for name in names)):
        setup = {"options": dict(zip(names, values))} if names else None
        try:
            games.append(new_game(rules, players, seed=0, setup=setup, events=False))
        except AmunreError:
            continue            # an option not for this player count
    return tuple(games)


def phase_bound(mech: Any, reach: Reach) -> int | None:
    """The most decisions one run of a phase takes: its mechanic's own and the cards played in
    its window, and the sales of the sellable cards it may put in hands (each sold at most once
    before it is drawn again)."""
    own, drawn = phase_decisions(mech, reach), phase_drawn(mech, reach)
    return None if own is None or drawn is None else own + drawn


def phase_decisions(mech: Any, reach: Reach) -> int | None:
    """The most decisions of one run of a phase but sales: its mechanic's own and the cards played."""
    own = entry(MOST_DECISIONS, mech)
    if own is None:
        return None
    mine, plays = own(mech, reach), _plays(mech, reach)
    return None if mine is None or plays is None else mine + plays


def phase_drawn(mech: Any, reach: Reach) -> int | None:
    """The most sellable cards one run of a phase puts in hands (0 where no deck sells)."""
    drawn = entry(MOST_DRAWN, mech)
    total = 0
    for deck in reach.sold:
        more = 0 if drawn is None else drawn(mech, reach, deck)
        if more is None:
            return None
        total += more
    return total


def most_decisions(rules: Rules, players: int) -> int | None:
    """The most decisions (actions of the seats) a game of these rules for this many players can
    take, whatever the seats do and whatever options are chosen; None where the rules give no bound."""
    if any(_unaccounted_draws(rules, deck) for deck in sold_decks(rules)):
        return None
    reach = reach_of(rules, players)
    bounds: dict[str, int | None] = {}

    def most(index: int) -> int | None:
        node = rules.flow.nodes[index]
        if node.kind == "phase":
            if node.phase not in bounds:
                bounds[node.phase] = phase_bound(rules.phases[node.phase], reach)
            return bounds[node.phase]
        inner = [most(child) for child in node.children]
        if any(value is None for value in inner):
            return None
        known = [value for value in inner if value is not None]
        if node.kind == "sequence":
            return sum(known)
        if node.kind == "branch":
            return max(known, default=0)
        passes = reach.most(node.times) if node.until is None else None
        if passes is None:
            return None
        return passes * known[0] + max(passes - 1, 0) * sum(known[1:])     # `between` runs one time fewer

    flow = most(0)
    if flow is None:
        return None
    return flow + dealt(rules, players)


def sold_decks(rules: Rules) -> tuple[str, ...]:
    """The decks whose cards a seat may sell at any decision."""
    return tuple(deck for deck, spec in rules.decks.items() if spec.sell)


def reach_of(rules: Rules, players: int) -> Reach:
    return Reach(rules, players, starts(rules, players), sold_decks(rules))


def dealt(rules: Rules, players: int) -> int:
    """The sellable cards the set-up deals, each sold once at most before it is drawn again."""
    sold = sold_decks(rules)
    return players * sum(1 for card in rules.setup_hand if rules.cards[card].deck in sold)


class SimpleMaterial:
    """The rules as good_bound reads its material (deck sizes, supplies)."""

    def __init__(self, rules: Rules) -> None:
        counts: dict[str, int] = {}
        for card in rules.cards.values():
            counts[card.deck] = counts.get(card.deck, 0) + card.count
        self.deck_sizes = {name: len(deck.places) if deck.of_places else counts.get(name, 0)
                           for name, deck in rules.decks.items()}
        self.token_supply, self.supply = rules.token_supply, rules.supply


def _good_bound(good: Any, material: SimpleMaterial) -> int:
    from ..interpreter.play.goods import good_bound
    return good_bound(good, material)
