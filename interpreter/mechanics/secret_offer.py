"""Secret simultaneous contribution: offers are made one seat at a time but stay hidden until
all are in, then revealed, adjusted, looked up in the phase's table, ranked and rewarded.

The table row the total picks (a tile) is kept after the phase ends, for other
phases to read as `<phase>.tile.<column>`.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from ..base.actions import ActionSpace, Block, Count, Places, Values
from ..dsl.names import Member, ModifierDef
from ..dsl.types import BOOL, NUM, row
from ..model import Game, Rules
from ..play import cards, choices, denominations, material, modifiers
from ..play.choices import choice_fields
from ..play.goods import place_targets
from ..play.observe import Piece, one_hot
from .base import Doc, Mechanic
from .params import Builder, Group, Int, Ints, OneOf, Param, PhaseBuilder, Ref, Refs


@dataclass(frozen=True)
class Row:
    id: str
    label: str
    least: int | None         # the smallest total that picks the row (None: no bound)
    most: int | None
    values: dict[str, Any]


_NOT_COLUMNS = ("id", "same_as", "label", "min", "max")      # a row's keys that are not values read


class Table(Param):
    """The rows the total picks from: each with an id, an optional label, the range of totals
    it takes (`min`, `max`), and values other phases read."""
    kind = "list of rows"

    def value_schema(self) -> dict[str, Any]:
        return {"type": "array", "minItems": 1, "items": {
            "type": "object", "required": ["id"], "propertyNames": {"$ref": "#/$defs/name"},
            "properties": {
                "id": {"description": "The row's name.", "$ref": "#/$defs/name"},
                "same_as": {"description": "The id this row has in another edition (for amunre diff).",
                            "$ref": "#/$defs/name"},
                "label": {"description": "The row as printed, e.g. 3>12.", "type": "string"},
                "min": {"description": "Smallest total that picks this row (no lower bound if omitted).",
                        "type": "integer"},
                "max": {"description": "Largest total that picks this row (no upper bound if omitted).",
                        "type": "integer"}},
            "additionalProperties": {"description": "A value of the row, read in the DSL as "
                                     "<phase>.tile.<name>.", "type": ["integer", "boolean"]}}}

    def compile(self, build: Builder, path: tuple) -> Any:
        return [_row(spec) for spec in build.get(path)]

    def absent(self, build: Builder, path: tuple) -> Any:
        return []


def _row(spec: dict[str, Any]) -> Row:
    values = {k: v for k, v in spec.items() if k not in _NOT_COLUMNS}
    return Row(spec["id"], spec.get("label", spec["id"]), spec.get("min"), spec.get("max"), values)


class SecretOffer(Mechanic):
    automatic = True
    name = "secret_offer"
    doc = ("Each seat secretly offers a resource (or a card instead); the offers are revealed, "
           "attached cards resolved, and the total picks a row of the phase's table; the offers "
           "are ranked, highest first, and rewarded.")
    params = (
        Ref("pay", "The resource offered.", "resource", required=True),
        Int("minimum", "The smallest offer of the resource.", minimum=0, default=1),
        Group("steal", "Stealing instead of an offer: with a card, or (without `card`) by any seat's choice.",
              Ref("card", "The card offered to steal (it stays in the seat's hand); without it, any seat "
                  "may choose to steal (`{\"type\": \"steal\"}`).", "card"),
              Int("gain", "What a seat that offered it takes, in `pay`, once the offers are settled.", default=0),
              Int("counts", "What that offer adds to the total (negative: subtracts).", default=0)),
        Ref("attach_window", "The card window of cards offered alongside, resolved after the reveal.", "window"),
        Group("card_offers", "Cards a seat may add to its offer, each counting as some of `pay` (spent "
              "at the reveal; a card of `attach_window` is resolved instead).",
              Ref("deck", "The deck whose cards may be offered.", "deck", required=True),
              Int("worth", "What each card offered counts as.", minimum=1, default=1)),
        Group("rewards", "What the offers earn, from the highest down.",
              Ints("ranks", "How many rewards the 1st, 2nd, ... highest offers earn.", minimum=0),
              Int("others", "How many rewards every other offer earns.", minimum=0, default=0),
              OneOf("others_order", "In which order the other offers take theirs: `turn`, in turn order; "
                    "`offer`, highest offer first.", ("turn", "offer"), default="turn"),
              Refs("goods", "The goods a reward may be.", "good")),
        OneOf("new_start_player", "`highest`: the highest offer becomes start player (ties: earlier "
              "in turn order); `unchanged`: it does not change.", ("highest", "unchanged"), default="highest"),
        Table("tiles", "The table the total (plus the `adjustment` modifier) picks a row of; the row "
              "is kept as `<phase>.tile` until the phase runs again."),
    )
    actions = (Doc("attach", '{"type": "attach", "card": "CARD"}', "offer a card alongside"),
               Doc("offer", '{"type": "offer", "amount": 5}', "offer an amount of the resource"),
               Doc("offer", '{"type": "offer", "card": "CARD"}', "offer the steal card instead"),
               Doc("steal", '{"type": "steal"}', "steal instead of making an offer (a `steal` without `card`)"),
               Doc("resolve", '{"type": "resolve", "card": "CARD", "CHOICE": -3}',
                   "resolve an attached card, with its choices"),
               Doc("take", '{"type": "take", "good": "GOOD", "at": "PLACE"}',
                   "take one reward (`at`: where a token goes)"))
    events = (Doc("reveal", '{"event": "reveal", "offers": [...], "attached": [...], "total": 9}', "the offers shown"),
              Doc("adjust", '{"event": "adjust", "seat": 1, "card": "CARD", "CHOICE": 3}',
                  "an attached card resolved"),
              Doc("settled", '{"event": "settled", "total": 9, "tile": "ROW", "label": "3>12", '
                  '"ranking": [0, 1], "start_player": 0}', "the row picked and the ranking"),
              Doc("reward", '{"event": "reward", "seat": 0, "good": "GOOD", "at": "PLACE"}', "a reward taken"))
    hidden = (Doc("offers", '"hidden"', "each other seat's offer, until every offer is in"),
              Doc("attached", '["?"]', "the cards each other seat attached, until every offer is in"))
    modifiers = {"adjustment": ModifierDef("adjustment", "game", 0, "phase",
                                           "added to the total before the row is picked")}

    @classmethod
    def members(cls, phase_id: str, spec: dict[str, Any]) -> dict[str, Member]:
        found = super().members(phase_id, spec)
        rows = {r["id"]: r for r in spec.get("tiles") or [] if isinstance(r, dict) and "id" in r}

        def tile(ctx: Any) -> Any:
            kept = ctx.state.kept.get(phase_id)
            return rows.get(kept["tile"]) if kept else None
        found["tile"] = Member(row(f"{phase_id}.tile"), tile, doc="the row the total picked when the phase last ran",
                               reads=(("kept", phase_id),))
        return found

    @classmethod
    def tables(cls, phase_id: str, spec: dict[str, Any]) -> dict[str, dict[str, Any]]:
        columns: dict[str, Any] = {}
        for item in spec.get("tiles") or []:
            for key, value in (item.items() if isinstance(item, dict) else ()):
                if key not in _NOT_COLUMNS:
                    columns[key] = BOOL if isinstance(value, bool) else NUM
        return {f"{phase_id}.tile": columns}

    def __init__(self, phase_id: str, build: PhaseBuilder) -> None:
        super().__init__(phase_id, build)
        p = self.p
        self.pay, self.minimum = p.pay, p.minimum
        self.steal_card, self.steal_gain, self.steal_counts = p.steal.card, p.steal.gain, p.steal.counts
        self.can_steal = build.get("steal") is not None
        self.attach_window = p.attach_window
        self.card_deck: str | None = p.card_offers.deck if p.card_offers else None
        self.card_worth: int = p.card_offers.worth if p.card_offers else 0
        self.ranks, self.others = list(p.rewards.ranks or []), p.rewards.others or 0
        self.others_by_turn = p.rewards.others_order == "turn"
        goods = build.material["good"]
        self.goods = [goods[g] for g in p.rewards.goods or [] if g in goods]     # unknown ones: reported
        self.new_start = p.new_start_player
        self.tiles = p.tiles
        self.adjust = self.modifier("adjustment")
        self.offer_cause, self.reward_cause = build.cause("offer", "pay"), build.cause("reward", "rewards")
        self.steal_cause = build.cause("steal", "steal", id_=self.steal_card or "steal")
        if self.pay in build.material["material"].resource_max:
            self.most = build.material["material"].resource_max[self.pay]
        else:
            self.most = 0
            build.problem("pay", message=f"offers of '{self.pay}' are actions, one per amount: give the "
                          f"resource a `max` (the most a seat may hold)")

    def declare(self, space: ActionSpace, material_: SimpleNamespace) -> None:
        window_cards = sorted(c for c, card in material_.cards.items()
                              if self.attach_window and card.window == self.attach_window)
        offered = sorted(set(window_cards) | {c for c, card in material_.cards.items() if card.deck == self.card_deck})
        self.attached_cards = Values(tuple(offered))     # the cards a seat may attach, as its field
        self.attach = space.declare("attach", None, (("card", self.attached_cards),),
                                    doc=self.actions[0].meaning) if offered else None
        self.attachable = frozenset(offered)      # a hand without any is not searched at each offer
        self.offer = space.declare("offer", None, (("amount", Count(self.most)),), doc=self.actions[1].meaning)
        self.steal: Block | None
        if self.steal_card:
            self.steal = space.declare("offer", {"card": self.steal_card}, (), doc=self.actions[2].meaning)
        else:
            self.steal = space.declare("steal", None, (), doc=self.actions[3].meaning) if self.can_steal else None
        self.resolves = {c: space.declare("resolve", {"card": c}, choice_fields(material_.cards[c].effect, material_),
                                          doc=self.actions[4].meaning)
                         for c in window_cards if material_.cards[c].effect is not None}
        places = Places(material_.places)
        self.takes = [space.declare("take", {"good": g.id}, () if g.draw else (("at", places),),
                                    doc=self.actions[5].meaning) for g in self.goods]

    def describe(self) -> str:
        instead = f" or its {self.steal_card} card" if self.steal_card else " or steals" if self.steal else ""
        return (f"Each seat secretly offers {self.pay} (at least {self.minimum}){instead}; the total "
                f"picks the tile; rewards {self.ranks} go to the offers from highest, then {self.others} to "
                f"each other offer{' in turn order' if self.others_by_turn else ''}.")

    def tile_for(self, total: int) -> Row | None:
        for tile in self.tiles:
            if (tile.least is None or total >= tile.least) and (tile.most is None or total <= tile.most):
                return tile
        if not self.tiles:
            return None
        return self.tiles[0] if total < (self.tiles[0].least or 0) else self.tiles[-1]

    # ---- the contract -------------------------------------------------------------------------
    def begin(self, game: Game) -> None:
        n = game.state.players
        game.state.working = {"stage": "offer", "order": self.order(game), "idx": 0,
                            "offers": [None] * n, "attached": [[] for _ in range(n)], "queue": []}

    def auto(self, game: Game) -> bool:
        data = game.state.working
        stage = data["stage"]
        if stage == "offer" and data["idx"] == len(data["order"]):
            self._reveal(game)
            return True
        if stage == "resolve" and not data["queue"]:
            self._settle(game)
            return True
        return False

    def to_move(self, game: Game) -> int | None:
        data = game.state.working
        if data["stage"] == "offer":
            return data["order"][data["idx"]]
        return data["queue"][0][0] if data["queue"] else None

    def legal(self, game: Game, seat: int) -> list[int]:
        data = game.state.working
        stage = data["stage"]
        if stage == "offer":
            return self._offers(game, seat)
        if stage == "resolve":
            card = data["queue"][0][1]
            block = self.resolves.get(card)
            if block is None:
                return []
            return choices.allowed_ids(game, seat, game.rules.cards[card].effect, block, game.rules.cards[card].cause)
        return self._rewards(game, seat) if data["queue"][0][1] > 0 else []

    def _offers(self, game: Game, seat: int) -> list[int]:
        state = game.state
        hand = state.hands[seat]
        attach = []
        if self.attach is not None and not self.attachable.isdisjoint(hand):
            attached = state.working["attached"][seat]
            lookup = self.attached_cards.lookup
            attach = [self.attach.base + lookup[("str", card)] for card in sorted(set(hand))
                      if ("str", card) in lookup and card not in attached]
        purse = state.resources[seat][self.pay]
        if state.held and self.pay in state.held:       # held as cards: only what some of them make
            reach = denominations.sums(state.held[self.pay][seat])
            offers = [self.offer.base + n for n in range(self.minimum, purse + 1) if reach >> n & 1]
        else:
            offers = game.rules.actions.ids[self.offer.base + self.minimum:self.offer.base + purse + 1]
        if self.steal is not None and (self.steal_card is None or self.steal_card in hand):
            offers.append(self.steal.base)
        return attach + (offers or [self.offer.base])        # nothing to give: an empty offer

    def _rewards(self, game: Game, seat: int) -> list[int]:
        ids = []
        for good, block in zip(self.goods, self.takes):
            if good.draw is not None:
                if material.cards_available(game, good.draw) > 0:
                    ids.append(block.base)
            elif material.supply_of(game, good.token) > 0:
                ids += place_targets(game, seat, good.token, block.base)
        return ids

    def pass_turn(self, game: Game, seat: int) -> None:
        data = game.state.working
        head = data["queue"].pop(0)
        if data["stage"] == "resolve":             # a card its owner cannot use: spent
            card = head[1]
            game.state.discards[game.rules.cards[card].deck].append(card)

    def apply(self, game: Game, seat: int, block: Block, indices: tuple[int, ...]) -> None:
        state = game.state
        data = state.working
        if block is self.attach:
            card = self.attached_cards.values[indices[0]]
            state.hands[seat].remove(card)
            data["attached"][seat].append(card)
        elif block is self.offer or block is self.steal:
            data["offers"][seat] = self.offer_of(block, indices)
            data["idx"] += 1
        elif block.type == "resolve":
            card = data["queue"].pop(0)[1]
            state.discards[game.rules.cards[card].deck].append(card)
            if game.log is not None:
                game.event({"event": "adjust", "seat": seat, "card": card,
                            **cards.shown_choices(game, block, indices)})
            definition = game.rules.cards[card]
            assert definition.effect is not None             # only cards with an effect are resolved
            cards.run(game, seat, definition.effect, choices.env_of(block, indices), definition.cause)
        else:
            good = game.rules.goods[block.fixed[0][1]]          # a take's one fixed field: its good
            at = indices[0] if indices else None
            if game.log is not None:
                game.event({"event": "reward", "seat": seat, "good": good.id,
                            "at": None if at is None else game.rules.place_ids[at]})
            if good.draw is not None:
                material.draw(game, seat, good.draw, 1, self.reward_cause)
            else:
                assert at is not None and good.token is not None     # a token's take names its place
                material.place_tokens(game, at, good.token, 1, self.reward_cause)
            head = data["queue"][0]
            head[1] -= 1
            if head[1] == 0:          # its last reward: with none left it could only pass (selling cannot
                data["queue"].pop(0)  # change that), so its turn ends now, not at one more engine step

    def deferred(self, game: Game, seat: int, block: Block, indices: tuple[int, ...]) -> dict[str, int]:
        """An offer's amount, paid as the offers are shown; a steal's gain, taken once they are
        settled."""
        if block is self.offer:
            return {self.pay: -indices[0]}
        if block is self.steal and self.steal_gain:
            return {self.pay: self.steal_gain}
        return {}

    def offer_of(self, block: Block, indices: tuple[int, ...]) -> dict[str, Any]:
        """An offer as the phase keeps it: an amount, or the steal card, or a steal."""
        if block is self.offer:
            return {"amount": indices[0]}
        return {"card": self.steal_card} if self.steal_card else {"steal": True}

    # ---- automatic steps -----------------------------------------------------------------------
    def _reveal(self, game: Game) -> None:
        data = game.state.working
        total = 0
        rules = game.rules
        paid = []
        for seat, offer in enumerate(data["offers"]):
            if "amount" not in offer:
                total += self.steal_counts
            else:
                paid.append((seat, offer["amount"]))
            for card in data["attached"][seat]:
                if rules.cards[card].window == self.attach_window:
                    data["queue"].append([seat, card])
                elif "amount" in offer:                # a card offered as `pay`: spent
                    game.state.discards[rules.cards[card].deck].append(card)
                    offer["amount"] += self.card_worth
                else:                                  # ... but a seat that steals gives nothing
                    game.state.hands[seat].append(card)
            total += offer.get("amount", 0)
        order = data["order"]
        data["queue"].sort(key=lambda item: order.index(item[0]))
        data["total"] = total
        data["stage"] = "resolve"
        if game.log is not None:
            game.event({"event": "reveal", "offers": data["offers"], "attached": data["attached"], "total": total})
        for seat, amount in paid:
            material.gain(game, seat, self.pay, -amount, self.offer_cause)

    def _settle(self, game: Game) -> None:
        state = game.state
        data = state.working
        total = data["total"] + modifiers.read(state, self.adjust)
        tile = self.tile_for(total)
        state.kept[self.phase_id] = {"tile": tile.id if tile else None}
        order = data["order"]
        givers = [s for s in order if "amount" in data["offers"][s]]
        ranking = sorted(givers, key=lambda s: (-data["offers"][s]["amount"], order.index(s)))
        if self.new_start == "highest" and ranking:
            game.set_start_player(ranking[0], announce=False)
        ranked, others = ranking[:len(self.ranks)], ranking[len(self.ranks):]
        if self.others_by_turn:
            others.sort(key=order.index)
        data["queue"] = [[seat, n] for seat, n in zip(ranked, self.ranks)] + [[seat, self.others] for seat in others]
        data["stage"] = "reward"
        if game.log is not None:
            game.event({"event": "settled", "total": total, "tile": tile.id if tile else None,
                        "label": tile.label if tile else None, "ranking": ranking, "start_player": state.start_player})
        for seat in order:
            if "amount" not in data["offers"][seat]:
                material.gain(game, seat, self.pay, self.steal_gain, self.steal_cause)

    # ---- information ---------------------------------------------------------------------------
    def describe_kept(self, key: str, value: Any) -> str:
        row_ = next((t for t in self.tiles if t.id == value), None)
        if key != "tile" or row_ is None or row_.label == row_.id:
            return f"{key} {value}"
        return f"{key} {row_.label} ({row_.id})"

    def observe(self, data: dict[str, Any], seat: int | None) -> dict[str, Any]:
        seen = super().observe(data, seat)
        if seen.get("stage") == "offer":
            seen["offers"] = [o if s == seat or o is None else "hidden" for s, o in enumerate(seen["offers"])]
            seen["attached"] = [a if s == seat else ["?"] * len(a) for s, a in enumerate(seen["attached"])]
        return seen

    def tensor_pieces(self, rules: Rules) -> list[Piece]:
        found = [self._offers_piece(rules.max_players), self._tile_piece()]
        return found if self.attach is None else found + [self._attached_piece(rules.max_players)]

    def _offers_piece(self, seats: int) -> Piece:
        stages = ("offer", "resolve", "reward")

        def offers(game: Game, seat: int | None, out: list[float], at: int) -> None:
            data = self.running(game)
            if data is None:
                return
            one_hot(out, at, stages.index(data["stage"]), 3)
            secret = data["stage"] == "offer"
            for other, offer in enumerate(data["offers"]):
                row_at = at + 3 + other * 4
                if offer is not None:
                    out[row_at] = 1.0
                    if not secret or other == seat:
                        out[row_at + 1] = float(offer.get("amount", 0))
                        out[row_at + 2] = 0.0 if "amount" in offer else 1.0       # stole
                out[row_at + 3] = float(len(data["attached"][other]))
            out[at + 3 + seats * 4] = float(data.get("total", 0))
        return Piece(f"{self.phase_id}.offers", (3 + seats * 4 + 1,),
                     "the stage (one-hot: offer, resolve, reward); per seat: offered, amount, steal card, cards "
                     "attached (amounts and cards of others hidden until all are in); the total once revealed", offers,
                     phase=self.phase_id)

    def _tile_piece(self) -> Piece:
        ids = [t.id for t in self.tiles]

        def tile(game: Game, seat: int | None, out: list[float], at: int) -> None:
            kept = game.state.kept.get(self.phase_id)
            if kept and kept["tile"] in ids:
                out[at + ids.index(kept["tile"])] = 1.0
        return Piece(f"{self.phase_id}.tile", (len(self.tiles),),
                     "the row the total picked when the phase last ran (one-hot)", tile, least=0.0, most=1.0)

    def _attached_piece(self, seats: int) -> Piece:
        kinds = self.attached_cards.lookup

        def attached(game: Game, seat: int | None, out: list[float], at: int) -> None:
            data = self.running(game)
            if data is None:
                return
            for other, held in enumerate(data["attached"]):
                if other == seat or data["stage"] != "offer":
                    for card in held:
                        out[at + other * len(kinds) + kinds[("str", card)]] += 1.0
        return Piece(f"{self.phase_id}.attached", (seats, len(kinds)),
                     f"per seat: the cards attached to its offer, by kind {list(self.attached_cards.values)} "
                     "(others' only once every offer is in)", attached, phase=self.phase_id, least=0.0)
