"""Secret simultaneous contribution: offers are made one seat at a time but stay hidden until
all are in, then revealed, adjusted, turned into a tile, ranked and rewarded.

Parameters: `pay` (resource), `minimum` (smallest offer), `steal` (a card offered instead:
`gain` taken from the reserve, `counts` added to the total), `attach_window` (cards offered
alongside and resolved after the reveal), `adjustment` (the game modifier those cards add to),
`rewards` (`ranks`: rewards for 1st, 2nd..., `others`, `goods`), `new_start_player: highest`.
"""

from __future__ import annotations

from typing import Any

from .. import board, cards
from ..dsl_names import ModifierDef, read_modifier
from .base import Mechanic, turn_order
from .goods import available, place_targets

_ADJUST = ModifierDef("adjustment", "game", 0, "added to the collective offering")


class SecretOffer(Mechanic):
    name = "secret_offer"
    modifiers = {"adjustment": _ADJUST}

    def __init__(self, phase_id: str, build: Any) -> None:
        super().__init__(phase_id, build)
        self.pay = build.ref("pay", known=build.vocab.resources, what="resource")
        self.minimum = build.get("minimum", default=1)
        steal = build.get("steal") or {}
        self.steal_card = steal.get("card")
        self.steal_gain = steal.get("gain", 0)
        self.steal_counts = steal.get("counts", 0)
        self.window = build.get("attach_window")
        rewards = build.get("rewards") or {}
        self.ranks = list(rewards.get("ranks", []))
        self.others = rewards.get("others", 0)
        self.goods = [build.goods.get(build.ref("rewards", "goods", i, known=build.goods, what="good"))
                      for i in range(len(rewards.get("goods", [])))]
        self.new_start = build.get("new_start_player", default="highest")
        self.adjust = self.modifier("adjustment")

    def describe(self) -> str:
        return (f"Each seat secretly offers {self.pay} (at least {self.minimum}) or its "
                f"{self.steal_card} card; the total picks the tile; rewards {self.ranks} then "
                f"{self.others} each go to the offers from highest.")

    def begin(self, game: Any) -> None:
        n = game.state.players
        game.state.mods.pop(self.adjust.name, None)
        game.state.phase = {"stage": "offer", "order": turn_order(game.state), "idx": 0,
                            "offers": [None] * n, "attached": [[] for _ in range(n)],
                            "queue": []}

    # ---- whose turn ----------------------------------------------------------------------
    def next_seat(self, game: Any) -> int | None:
        phase = game.state.phase
        if phase["stage"] == "offer":
            if phase["idx"] < len(phase["order"]):
                return phase["order"][phase["idx"]]
            self._reveal(game)
        if phase["stage"] == "resolve":
            while phase["queue"]:
                seat, card = phase["queue"][0]
                if self.legal(game, seat):
                    return seat
                phase["queue"].pop(0)           # nothing it could do: the card is spent
                state_discard = game.state.discards[game.rules.cards[card].deck]
                state_discard.append(card)
            self._settle(game)
        while phase["queue"]:
            seat, left = phase["queue"][0]
            if left > 0 and self._reward_actions(game, seat):
                return seat
            phase["queue"].pop(0)
        return None

    def legal(self, game: Any, seat: int) -> list[dict[str, Any]]:
        phase = game.state.phase
        if phase["stage"] == "offer":
            return self._offer_actions(game, seat)
        if phase["stage"] == "resolve":
            card = game.rules.cards[phase["queue"][0][1]]
            return [cards.to_action(game, card.effect, env, {"type": "resolve", "card": card.id})
                    for env in cards.bindings(game, seat, card.effect, card.id)]
        return self._reward_actions(game, seat)

    def _offer_actions(self, game: Any, seat: int) -> list[dict[str, Any]]:
        state = game.state
        actions = []
        attached = state.phase["attached"][seat]
        if self.window:
            for card_id in sorted(set(state.hands[seat])):
                card = game.rules.cards[card_id]
                if card.window == self.window and card_id not in attached:
                    actions.append({"type": "attach", "card": card_id})
        gold = state.resources[seat][self.pay]
        actions += [{"type": "offer", "amount": a} for a in range(self.minimum, gold + 1)]
        if self.steal_card and self.steal_card in state.hands[seat]:
            actions.append({"type": "offer", "card": self.steal_card})
        if not any(a["type"] == "offer" for a in actions):
            actions.append({"type": "offer", "amount": 0})   # nothing to give: an empty offer
        return actions

    def _reward_actions(self, game: Any, seat: int) -> list[dict[str, Any]]:
        actions = []
        for good in self.goods:
            if available(game, seat, good) <= 0:
                continue
            if good.draw is not None:
                actions.append({"type": "take", "good": good.id})
            else:
                actions += [{"type": "take", "good": good.id, "at": game.rules.place_ids[p]}
                            for p in place_targets(game, seat, good.token)]
        return actions

    # ---- actions -------------------------------------------------------------------------
    def apply(self, game: Any, seat: int, action: dict[str, Any]) -> None:
        state = game.state
        phase = state.phase
        kind = action["type"]
        if kind == "attach":
            state.hands[seat].remove(action["card"])
            phase["attached"][seat].append(action["card"])
        elif kind == "offer":
            phase["offers"][seat] = {"card": action["card"]} if "card" in action else {"amount": action["amount"]}
            phase["idx"] += 1
        elif kind == "resolve":
            card = phase["queue"].pop(0)[1]
            state.discards[game.rules.cards[card].deck].append(card)
            cards.run(game, seat, game.rules.cards[card].effect, action, card)
            game.event({"event": "adjust", "seat": seat, "card": card,
                        **{k: v for k, v in action.items() if k not in ("type", "card")}})
        else:   # take
            good = game.rules.goods[action["good"]]
            game.event({"event": "reward", "seat": seat, "good": good.id, "at": action.get("at")})
            if good.draw is not None:
                board.draw(game, seat, good.draw, 1)
            else:
                board.place_tokens(game, game.rules.place_index[action["at"]], good.token, 1)
            phase["queue"][0][1] -= 1

    # ---- automatic steps -----------------------------------------------------------------
    def _reveal(self, game: Any) -> None:
        state = game.state
        phase = state.phase
        total = 0
        for seat, offer in enumerate(phase["offers"]):
            if "card" in offer:
                total += self.steal_counts
            else:
                total += offer["amount"]
                board.gain(game, seat, self.pay, -offer["amount"], self.phase_id)
            for card in phase["attached"][seat]:
                phase["queue"].append([seat, card])
        order = phase["order"]
        phase["queue"].sort(key=lambda item: order.index(item[0]))
        phase["total"] = total
        phase["stage"] = "resolve"
        game.event({"event": "reveal", "offers": phase["offers"], "attached": phase["attached"],
                    "total": total})

    def _settle(self, game: Any) -> None:
        state = game.state
        phase = state.phase
        total = phase["total"] + read_modifier(state, self.adjust)
        tile = game.rules.tile_for(total)
        state.tile = tile.id
        order = phase["order"]
        givers = [s for s in order if "amount" in phase["offers"][s]]
        ranking = sorted(givers, key=lambda s: (-phase["offers"][s]["amount"], order.index(s)))
        for seat in order:
            if "card" in phase["offers"][seat]:
                board.gain(game, seat, self.pay, self.steal_gain, self.steal_card)
        if self.new_start == "highest" and ranking:
            state.start_player = ranking[0]
        phase["queue"] = [[seat, self.ranks[i] if i < len(self.ranks) else self.others]
                          for i, seat in enumerate(ranking)]
        phase["stage"] = "reward"
        game.event({"event": "offering", "total": total, "tile": tile.id, "label": tile.label,
                    "ranking": ranking, "start_player": state.start_player})
