"""What a seat may see: its own hand, never another seat's hidden cards or secret offer, and
never the order of a deck (nor the seed or generator state that would give it away).

Hypothesis drives seeded random games to arbitrary points; at each point a copy of the game is
changed only in what a seat must not see, and that seat's observation must not move.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import amunre
from amunre.interpreter.mechanics.lot_auction import LotAuction
from amunre.tools.determinize import seen_cards
from conftest import REPO, every_edition, fit, phase_steps, play_random

rules = pytest.fixture(scope="session", name="rules")(every_edition)   # each bundled rules file

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

players_st = st.sampled_from([3, 4, 5])
seeds_st = st.integers(min_value=0, max_value=10**6)


def hidden_cards(rules: Any) -> list[str]:
    hidden = {name for name, deck in rules.decks.items() if deck.hidden}
    return sorted(c.id for c in rules.cards.values() if c.deck in hidden)


def drive(rules: Any, players: int, seed: int, actions: int) -> amunre.Game:
    return play_random(rules, fit(rules, players), seed, stop=lambda g: len(g.history) >= actions)


def other_observations(game: amunre.Game, changed_seat: int) -> dict[int, Any]:
    """What every other seat sees: its observation and its observation tensor."""
    return {s: (game.observation(s), game.observation_tensor(s))
            for s in range(game.state.players) if s != changed_seat}


# ---- hands -------------------------------------------------------------------------------

@SETTINGS
@given(players=players_st, seed=seeds_st, actions=st.integers(0, 320), pick=st.integers(0, 10**6))
def test_another_seats_hidden_card_is_not_seen(rules: Any, players: int, seed: int, actions: int,
                                               pick: int) -> None:
    secret = hidden_cards(rules)
    if not secret:
        pytest.skip(f"{rules.id} deals no cards into hands")
    game = drive(rules, players, seed, actions)
    holders = [s for s in range(game.state.players) if any(c in secret for c in game.state.hands[s])]
    assume(holders)
    other = holders[pick % len(holders)]
    hand = game.state.hands[other]
    i = next(i for i, c in enumerate(hand) if c in secret)
    replacement = next(c for c in secret[pick % len(secret):] + secret if c != hand[i])

    changed = game.clone()
    changed.state.hands[other][i] = replacement
    assert changed.state.hands[other] != game.state.hands[other]
    assert other_observations(changed, other) == other_observations(game, other)
    # The change is real: the holder itself sees it.
    assert changed.observation(other)["hands"][other] != game.observation(other)["hands"][other]
    assert changed.observation_tensor(other) != game.observation_tensor(other)


@SETTINGS
@given(players=players_st, seed=seeds_st, actions=st.integers(0, 320), shuffle=st.integers(0, 10**6))
def test_order_of_another_seats_hand_is_not_seen(rules: Any, players: int, seed: int, actions: int,
                                                 shuffle: int) -> None:
    game = drive(rules, players, seed, actions)
    players = game.state.players
    changed = game.clone()
    for seat in range(players):
        random.Random(shuffle + seat).shuffle(changed.state.hands[seat])
    for seat in range(players):
        mine = game.observation(seat)
        assert changed.observation(seat)["hands"][:seat] == mine["hands"][:seat]
        assert changed.observation(seat)["hands"][seat + 1:] == mine["hands"][seat + 1:]
        assert changed.observation_tensor(seat) == game.observation_tensor(seat)   # counts, not order


@SETTINGS
@given(players=players_st, seed=seeds_st, actions=st.integers(0, 320))
def test_own_hand_visible_and_public_cards_of_others_visible(rules: Any, players: int, seed: int,
                                                             actions: int) -> None:
    game = drive(rules, players, seed, actions)
    players = game.state.players
    secret = set(hidden_cards(rules))
    for seat in range(players):
        obs = game.observation(seat)
        assert obs["seat"] == seat
        assert obs["hands"][seat] == game.state.hands[seat]
        for other in range(players):
            if other == seat:
                continue
            hand = game.state.hands[other]
            shown = obs["hands"][other]
            assert len(shown) == len(hand)
            assert sorted(c for c in shown if c != "?") == sorted(c for c in hand if c not in secret)
            assert shown.count("?") == sum(c in secret for c in hand)
            assert not secret & set(shown)


@SETTINGS
@given(players=players_st, seed=seeds_st, actions=st.integers(0, 320), pick=st.integers(0, 10**6))
def test_another_seats_cards_of_a_resource_are_not_seen(rules: Any, players: int, seed: int, actions: int,
                                                       pick: int) -> None:
    """A resource held as cards (an option of the 2003 file): others see the total only."""
    if not amunre.new_game(rules, players=3, seed=0).state.held:
        pytest.skip("no resource is held as cards under these rules")
    game = drive(rules, players, seed, actions)
    name = sorted(game.state.held)[pick % len(game.state.held)]
    other = pick % players
    cards = game.state.held[name][other]
    assume(sum(cards) >= 2)
    changed = game.clone()
    changed.state.held[name][other] = [1] * sum(cards) if cards != [1] * sum(cards) else [2] + [1] * (sum(cards) - 2)
    assert sum(changed.state.held[name][other]) == game.state.resources[other][name]
    assert other_observations(changed, other) == other_observations(game, other)
    for seat in range(players):
        if seat != other:
            assert game.observation(seat)["held"][name][other] == "hidden"
    # The change is real: the holder sees it, in the dict and in the tensor.
    assert changed.observation(other)["held"][name][other] == changed.state.held[name][other]
    assert changed.observation(other)["held"] != game.observation(other)["held"]
    assert changed.observation_tensor(other) != game.observation_tensor(other)


def test_theft_card_is_public_and_favor_cards_are_not(rules_2016: Any) -> None:
    rules = rules_2016
    game = amunre.new_game(rules, players=4, seed=0)
    assert game.state.hands[1] == ["theft", "architect"]
    obs = game.observation(0)
    assert obs["hands"][0] == ["theft", "architect"]
    assert obs["hands"][1] == ["theft", "?"]


# ---- the secret offer --------------------------------------------------------------------

def offering_point(rules: Any, players: int, seed: int, which: int, offered: int) -> amunre.Game:
    """The game during the `which`-th offering, after `offered` seats offered, before the reveal."""
    steps = phase_steps(rules, "offering")
    target = steps[which % len(steps)]
    offered = 1 + offered % (players - 1)

    def stop(game: Any) -> bool:
        phase = game.state.working
        return game.state.step == target and phase.get("stage") == "offer" and phase["idx"] >= offered
    game = play_random(rules, players, seed, stop=stop)
    assert stop(game), "the game passed the offering without stopping"
    return game


@SETTINGS
@given(players=players_st, seed=seeds_st, which=st.integers(0, 5), offered=st.integers(0, 3),
       amount=st.integers(0, 60), cards=st.lists(st.sampled_from(["offering_adjustment", "bribery",
                                                                   "treasury", "architect"]),
                                                  min_size=2, max_size=2, unique=True))
def test_secret_offer_is_not_seen_before_the_reveal(rules_2016: Any, players: int, seed: int, which: int,
                                                    offered: int, amount: int, cards: list[str]) -> None:
    rules = rules_2016
    game = offering_point(rules, players, seed, which, offered)
    phase = game.state.working
    done = phase["order"][:phase["idx"]]
    assert all(phase["offers"][s] is not None for s in done)
    for other in done:
        before, after = game.clone(), game.clone()
        # the same number of attached cards, different ones
        n = len(phase["attached"][other]) or 1
        before.state.working["attached"][other] = [cards[0]] * n
        after.state.working["attached"][other] = [cards[1]] * n
        old = game.state.working["offers"][other]
        new = {"amount": amount} if old != {"amount": amount} else {"card": "theft"}
        after.state.working["offers"][other] = new
        assert after.state.working != before.state.working
        assert other_observations(after, other) == other_observations(before, other)
        if game.state.working["attached"][other]:       # only the count of attached cards shows
            assert other_observations(before, other) == other_observations(game, other)
        # The offering seat sees its own offer and attached cards as they are.
        mine = after.observation(other)["phase"]
        assert mine["offers"][other] == new
        assert mine["attached"][other] == [cards[1]] * n
        for seat in range(players):
            if seat != other:
                assert after.observation(seat)["phase"]["offers"][other] == "hidden"


@SETTINGS
@given(players=players_st, seed=seeds_st, which=st.integers(0, 5), offered=st.integers(0, 3))
def test_real_offer_and_attached_card_hidden_until_the_reveal(rules_2016: Any, players: int, seed: int,
                                                              which: int, offered: int) -> None:
    """An actual offer, with an offering card really attached, is hidden; after the last offer
    the reveal shows every offer to everyone."""
    rules = rules_2016
    game = offering_point(rules, players, seed, which, offered)
    phase = game.state.working
    seat = game.to_move
    assert phase["offers"][seat] is None
    # Give the seat to move an offering card (taken from the deck or the discards, so the
    # game stays whole) and let it attach the card and offer its gold.
    position = game.state.clone()
    card = "offering_adjustment"
    pile = position.decks["favor"] if card in position.decks["favor"] else position.discards["favor"]
    assume(card in pile and card not in position.hands[seat] and position.resources[seat]["gold"] >= 1)
    pile.remove(card)
    position.hands[seat].append(card)
    # A position set up by hand (a save of it is refused: no actions reach it); the game works
    # out the seat's decision from it.
    game = amunre.Game(rules, position)
    game.apply({"type": "attach", "card": card})
    game.apply({"type": "offer", "amount": 1})
    if game.state.working.get("stage") == "offer":
        for other in range(players):
            if other != seat:
                obs = game.observation(other)["phase"]
                assert obs["offers"][seat] == "hidden"
                assert obs["attached"][seat] == ["?"]
                assert card not in game.observation(other)["hands"][seat]
        assert game.observation(seat)["phase"]["attached"][seat] == [card]
    # Play on to the reveal: then the offers are public.
    while game.state.working.get("stage") == "offer":
        game.apply({"type": "offer", "amount": 1} if {"type": "offer", "amount": 1} in game.legal_actions()
                   else next(a for a in game.legal_actions() if a["type"] == "offer"))
    if game.state.working.get("offers"):
        for other in range(players):
            assert game.observation(other)["phase"]["offers"] == game.state.working["offers"]


# ---- decks and chance --------------------------------------------------------------------

@SETTINGS
@given(players=players_st, seed=seeds_st, actions=st.integers(0, 320), shuffle=st.integers(0, 10**6))
def test_deck_order_is_not_seen(rules: Any, players: int, seed: int, actions: int, shuffle: int) -> None:
    game = drive(rules, players, seed, actions)
    players = game.state.players
    changed = game.clone()
    rng = random.Random(shuffle)
    looked_at = set().union(*(seen_cards(game, seat) for seat in range(players)))  # a card some seat may see stays put
    for piles in (changed.state.decks, changed.state.boxed):
        for name, pile in piles.items():
            kept = [i for i in range(len(pile)) if (name, i) in looked_at and piles is changed.state.decks]
            rest = [card for i, card in enumerate(pile) if i not in kept]
            rng.shuffle(rest)
            rest.reverse()
            for i in kept:
                rest.insert(i, pile[i])
            pile[:] = rest
    changed.state.rng ^= 0x5DEECE66D
    for seat in range(players):
        obs = game.observation(seat)
        assert changed.observation(seat) == obs
        assert changed.observation_tensor(seat) == game.observation_tensor(seat)
        assert obs["decks"] == {name: len(pile) for name, pile in game.state.decks.items()}
        assert obs["boxed"] == {name: len(pile) for name, pile in game.state.boxed.items()}
        assert "rng" not in obs and "seed" not in obs


def test_deck_sizes_follow_draws(rules_2016: Any) -> None:
    rules = rules_2016
    game = amunre.new_game(rules, players=4, seed=2)
    obs = game.observation(0)
    # 3 province cards per player, 4 drawn as the first auction's lots; 15 - 12 boxed
    assert obs["decks"]["provinces"] == 3 * 4 - 4
    assert obs["boxed"]["provinces"] == 15 - 12
    favor = sum(c.count for c in rules.cards.values() if c.deck == "favor")
    assert obs["decks"]["favor"] == favor - 4      # each seat starts with an architect


# ---- the observation tensor ---------------------------------------------------------------

def test_tensor_layout_is_fixed_by_the_rules(rules: Any) -> None:
    layout = amunre.new_game(rules, players=3, seed=1).observation_layout()
    names = [piece["name"] for piece in layout]
    assert len(names) == len(set(names))
    assert all(a["offset"] + a["size"] == b["offset"] for a, b in zip(layout, layout[1:]))
    total = layout[-1]["offset"] + layout[-1]["size"]
    by_mechanic = {"auction": ("bids",), "secret_offer": ("offers", "tile"), "reveal": ("card", "next")}
    by_class = {LotAuction: ("lot",)}                  # an auction of one lot at a time has no bid track
    phase_pieces = {f"{pid}.{piece}" for pid, mech in rules.phases.items()
                    for piece in by_class.get(type(mech), by_mechanic.get(mech.name, ()))}
    assert phase_pieces and {"seat", "resources", "hand", "tokens"} | phase_pieces <= set(names)

    def check(game: Any, action: Any, index: int) -> None:
        for seat in range(game.state.players):
            tensor = game.observation_tensor(seat)
            assert len(tensor) == total and all(isinstance(x, float) for x in tensor)
    for players in (rules.min_players, rules.max_players):
        play_random(rules, players, players, after=check)


def test_tensor_pieces_say_what_the_dict_says(rules: Any) -> None:
    game = play_random(rules, 4, 2, stop=lambda g: len(g.history) >= 90)
    layout = {p["name"]: p for p in game.observation_layout()}
    tensor = game.observation_tensor(1)

    def piece(name: str) -> list[float]:
        p = layout[name]
        return tensor[p["offset"]:p["offset"] + p["size"]]
    assert piece("seat")[:4] == [0.0, 1.0, 0.0, 0.0]
    assert piece("to_move")[game.to_move] == 1.0
    resources = list(rules.resources)
    amounts = [float(r[name]) if seat == 1 or name not in rules.hidden_resources else 0.0    # others' hidden: 0
               for seat, r in enumerate(game.state.resources) for name in resources]
    assert piece("resources")[:4 * len(resources)] == amounts
    cards = sorted(rules.cards)
    assert piece("hand") == [float(game.state.hands[1].count(c)) for c in cards]
    assert piece("hand_sizes")[:4] == [float(len(h)) for h in game.state.hands]
    for name, held in rules.denominations.items():
        mine = game.state.held[name][1] if game.state.held else []
        assert piece(f"held.{name}") == [float(mine.count(v)) for v in held.values]


# ---- secrets in the tensor: the seat's own, never another's --------------------------------

def piece_of(game: amunre.Game, seat: int, name: str) -> list[float]:
    piece = next(p for p in game.observation_layout() if p["name"] == name)
    return game.observation_tensor(seat)[piece["offset"]:piece["offset"] + piece["size"]]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_own_secret_pick_is_in_the_tensor_and_hidden_from_others(seed: int) -> None:
    """The dict observation shows a seat its own face-down pick; the tensor must too (an RL
    agent reads only the tensor), and must not show it to anyone else before the reveal."""
    rules = amunre.load_rules(Path(__file__).parent.parent / "rules" / "knizia2016-expert.yaml")
    game = drive_until(rules, 4, seed, lambda g: g.step.phase == "pick_lots" and g.state.working["idx"] == 1)
    seat = game.state.working["order"][0]
    pick = game.state.working["picks"][seat]
    other_card = next(c for c in sorted(rules.place_ids) if c != pick)
    changed = game.clone()
    changed.state.working["picks"][seat] = other_card
    assert piece_of(changed, seat, "pick_lots.picks") != piece_of(game, seat, "pick_lots.picks")
    assert other_observations(changed, seat) == other_observations(game, seat)
    while game.step.phase == "pick_lots" and not game.state.working["revealed"]:
        game.apply_id(game.legal_action_ids()[0])
    if game.step.phase == "pick_lots":          # revealed: every seat sees every pick
        views = {tuple(piece_of(game, s, "pick_lots.picks")) for s in range(4)}
        assert len(views) == 1


def test_own_attached_card_is_in_the_tensor_and_hidden_from_others() -> None:
    """The 2003 online edition offers power cards alongside gold: which ones, only the seat's
    own tensor shows (the others see how many) until every offer is in."""
    rules = amunre.load_rules(Path(__file__).parent.parent / "rules" / "knizia2003-online.yaml")
    game = drive_until(rules, 4, 5, lambda g: g.step.phase == "sacrifice" and g.state.working.get("stage") == "offer")
    seat = game.to_move
    piece = next(p for p in game.observation_layout() if p["name"] == "sacrifice.attached")
    first, second = sorted(c for c in rules.cards if rules.cards[c].deck == "power")[:2]
    one, other = game.clone(), game.clone()
    one.state.working["attached"][seat] = [first]
    other.state.working["attached"][seat] = [second]
    assert piece_of(one, seat, "sacrifice.attached") != piece_of(other, seat, "sacrifice.attached")
    assert sum(piece_of(one, seat, "sacrifice.attached")) == 1.0 and piece["shape"][1] > 1
    assert other_observations(one, seat) == other_observations(other, seat)


def drive_until(rules: Any, players: int, seed: int, done: Any) -> amunre.Game:
    game = play_random(rules, players, seed, stop=done)
    assert done(game), "the game never reached the position asked for"
    return game


# ---- a card one seat may look at ---------------------------------------------------------

@pytest.fixture(scope="module")
def rules_pharaoh() -> Any:
    return amunre.load_rules(REPO / "rules" / "pharaohs-heir.yaml")


def looked_at(game: amunre.Game) -> bool:
    return any(game.observation(s)["private"] for s in range(game.state.players))


@SETTINGS
@given(players=st.sampled_from([3, 4]), seed=seeds_st, other=st.integers(1, 10))
def test_the_next_tile_an_overseer_looked_at_is_seen_by_it_alone(rules_pharaoh: Any, players: int, seed: int,
                                                                 other: int) -> None:
    """[P] Sacrifice: the Overseer may look at the next Nile tile in secret. Only that seat's
    observation shows it, until it is turned; another tile in its place changes no other view."""
    game = play_random(rules_pharaoh, players, seed, stop=looked_at)
    assume(not game.over)
    seat = next(s for s in range(players) if game.observation(s)["private"])
    pile = game.state.decks["nile_tiles"]
    assert game.observation(seat)["private"] == {"nile": {"next": pile[0]}}
    assume(len(pile) > 1 and pile[other % len(pile)] != pile[0])
    changed = game.clone()
    top = changed.state.decks["nile_tiles"]
    top[0], top[other % len(top)] = top[other % len(top)], top[0]
    assert other_observations(changed, seat) == other_observations(game, seat)
    assert changed.observation(seat)["private"] != game.observation(seat)["private"]
    assert changed.observation_tensor(seat) != game.observation_tensor(seat)
    upcoming, turned = pile[0], len(game.log)               # the look ends as the tile is turned
    while not any(e["event"] == "turned" for e in game.log[turned:]):
        game.apply(game.legal_actions()[0])
    assert [e["card"] for e in game.log[turned:] if e["event"] == "turned"] == [upcoming]
    assert not looked_at(game)


def test_a_sealed_auctions_count_of_declines_is_not_seen_before_the_reveal() -> None:
    """A sealed bid of nothing is counted in `passed`; shown, the count would tell who bid nothing."""
    rules = amunre.load_rules("modern-art")
    found = 0
    for seed in range(40):
        game = amunre.new_game(rules, 4, seed=seed, events=False)
        pick = random.Random(seed)
        while not game.over:
            data = game.state.working or {}
            if data.get("style") == "sealed" and None in data["sealed"] and data["passed"]:
                for seat in range(4):
                    assert game.observation(seat)["phase"]["passed"] == "hidden"
                assert game.public_observation()["phase"]["passed"] == "hidden"
                found += 1
                break
            game.apply_id(pick.choice(game.legal_action_ids()))
        if found >= 3:
            break
    assert found >= 3
