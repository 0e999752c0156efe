"""Modern Art (rules/modern-art.yaml), written as a rules file alone: the worked examples of
the CMON rulebook ([M]) with their numbers, the rules they illustrate, and random games.

Hands are stacked (the set-up's `decks`) so that each scenario knows the cards; a turn is
played by `lay`: the seat to move plays a painting of an artist, and every seat declines to
bid, so that the auctioneer keeps it for nothing.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from typer.testing import CliRunner

import amunre
from amunre.cli.app import app
from conftest import REPO

PLAIN = ("open", "once_around", "sealed")        # the auctions everyone may decline for nothing


@pytest.fixture(scope="module")
def rules() -> Any:
    return amunre.load_rules(REPO / "rules" / "modern-art.yaml")


def painting(rules: Any, artist: str, taken: set[str], styles: tuple[str, ...] = PLAIN) -> str:
    """A painting of the artist in one of the styles, not yet taken."""
    for place in rules.place_ids:
        if place.startswith(artist + "_") and place not in taken and any(f"_{s}_" in place for s in styles):
            taken.add(place)
            return place
    raise AssertionError(f"no {artist} painting left in {styles}")


def lay(game: amunre.Game, artist: str) -> int:
    """The seat to move plays a painting of the artist (not a double, not at a fixed price);
    every seat declines to bid. The seat that laid it."""
    seat = game.to_move
    card = next(c for c in sorted(game.state.hands[seat]) if c.startswith(artist + "_")
                and any(f"_{s}_" in c for s in PLAIN))
    game.apply({"type": "lay", "card": card})
    while game.step.phase == "auction_painting" and game.to_move is not None:
        game.apply({"type": "decline"})
    return seat


def funds(game: amunre.Game) -> list[int]:
    return [r["funds"] for r in game.state.resources]


def tiles(game: amunre.Game, artist: str) -> int:
    return game.state.tokens[game.rules.place_index[artist]].get("tiles_won", 0)


# ---- [M] Example - value of an artist: 30, then 40, then nothing, then 60 ------------------------

# Who lays what, round by round, from the round's first auctioneer on (3 players): Krypto is
# first in round 1, third in round 2, fourth in round 3 (a tie of one painting each with Yoko
# and Christin P., who stand left of it) and second in round 4.
ROUNDS = [
    (0, ["krypto", "karl_gitter", "krypto", "krypto", "christin_p", "krypto", "karl_gitter", "krypto"]),
    (2, ["yoko", "yoko", "christin_p", "yoko", "christin_p", "krypto", "yoko", "yoko"]),
    (1, ["lite_metal", "lite_metal", "yoko", "christin_p", "krypto", "lite_metal", "lite_metal", "lite_metal"]),
    (0, ["karl_gitter", "krypto", "karl_gitter", "krypto", "karl_gitter", "karl_gitter", "karl_gitter"]),
]
# Each seat's funds after each round: 100 to start, plus what its paintings sold for.
FUNDS = [[180, 130, 160], [240, 200, 250], [320, 300, 280], [430, 410, 380]]
KRYPTO_TILES = [30, 40, 40, 60]           # what a Krypto painting sells for: 30, 40, (0), 60


def value_example_game(rules: Any) -> amunre.Game:
    """Each seat is dealt in round 1 the paintings it lays all game; seat 0, which lays
    eleven, gets its last one in round 2. Doubles and fixed-price paintings fill the deals."""
    needs: list[list[str]] = [[], [], []]
    for start, artists in ROUNDS:
        for turn, artist in enumerate(artists):
            needs[(start + turn) % 3].append(artist)
    taken: set[str] = set()
    hands = [[painting(rules, artist, taken) for artist in need] for need in needs]
    filler = [p for p in rules.place_ids if "_double_" in p or "_fixed_price_" in p]
    assert [len(hand) for hand in hands] == [11, 10, 10]
    top = hands[0][:10] + hands[1] + hands[2] + filler[:6] + hands[0][10:] + filler[6:11]
    return amunre.new_game(rules, players=3, seed=5, setup={"start_player": 0, "decks": {"paintings": top}})


def test_the_value_of_an_artist_adds_up_its_tiles_only_while_it_is_ranked(rules: Any) -> None:
    """[M] Example - value of Rafael Silveira (here Krypto, the artist of 16 paintings): 30 in
    round 1 (first), 40 in round 2 (third: 10 + 30), nothing in round 3 (not ranked, whatever
    its tiles), 60 in round 4 (second: 20 + 10 + 30)."""
    game = value_example_game(rules)
    for number, (start, artists) in enumerate(ROUNDS):
        assert game.state.start_player == start, f"round {number + 1}"
        for artist in artists:
            lay(game, artist)
        assert tiles(game, "krypto") == KRYPTO_TILES[number], f"round {number + 1}"
        assert funds(game) == FUNDS[number], f"round {number + 1}"
    assert game.over
    first_sales = [(e["seat"], e["amount"]) for e in game.log
                   if e["event"] == "gain" and e["cause"]["id"] == "sell_paintings"][:5]
    # Round 1, artist by artist: Christin P. 10, Karl Gitter 20 each; a player with two
    # Krypto paintings gets 60.
    assert first_sales == [(1, 10), (0, 20), (1, 20), (0, 60), (2, 60)]


def test_the_fifth_painting_ends_the_round_unsold_but_counts(rules: Any) -> None:
    """[M] Ending the auction round; Selling to the bank 1: the fifth Krypto is not auctioned,
    belongs to nobody, and counts for Krypto's place."""
    game = value_example_game(rules)
    start, artists = ROUNDS[0]
    for artist in artists[:-1]:
        lay(game, artist)
    auctions = sum(e["event"] == "auctioned" for e in game.log)
    fifth = lay(game, "krypto")
    laid = [e for e in game.log if e["event"] == "laid"][-1]["card"]
    assert fifth == 1 and sum(e["event"] == "auctioned" for e in game.log) == auctions
    assert game.state.owner[rules.place_index[laid]] < 0                # nobody's
    assert game.step.round == 2 and tiles(game, "krypto") == 30            # first, with its five
    assert game.state.start_player == 2                                     # the left of its player


# ---- [M] Example - double auction ------------------------------------------------------------------

def test_a_double_completed_by_another_dealer_is_theirs_to_sell(rules: Any) -> None:
    """[M] E. Double auction and its example (4 players): Paul (seat 0) plays a double of the
    15-painting artist and adds nothing; Mark (seat 1) adds nothing; Marie (seat 2) adds a
    sealed one and runs the sealed auction; she bids highest, 25, so she pays the bank and
    takes both. The next auction is the one on Marie's left, not Mark's."""
    taken = {"karl_gitter_double_1", "karl_gitter_sealed_1", "karl_gitter_open_1", "karl_gitter_open_2"}
    fill = iter(p for p in rules.place_ids if p.startswith(("lite_metal_", "yoko_", "christin_p_")))
    hands = [["karl_gitter_double_1", "karl_gitter_open_1"], ["karl_gitter_open_2"], ["karl_gitter_sealed_1"], []]
    top = [card for hand in hands for card in hand + [next(fill) for _ in range(9 - len(hand))]]
    assert len(top) == 36 and len(set(top)) == 36 and taken <= set(top)
    game = amunre.new_game(rules, players=4, seed=1, setup={"start_player": 0, "decks": {"paintings": top}})
    game.apply({"type": "lay", "card": "karl_gitter_double_1"})
    assert game.step.phase == "add_second" and game.to_move == 0
    assert {"type": "lay", "card": "karl_gitter_open_1"} in game.legal_actions()
    game.apply({"type": "decline"})                                         # Paul adds nothing
    game.apply({"type": "decline"})                                         # nor does Mark
    game.apply({"type": "lay", "card": "karl_gitter_sealed_1"})             # Marie does
    assert game.step.phase == "auction_pair" and game.to_move == 3
    for seat, bid in ((3, 10), (0, 20), (1, None), (2, 25)):
        assert game.to_move == seat
        game.apply({"type": "decline"} if bid is None else {"type": "bid", "amount": bid})
    sold = [e for e in game.log if e["event"] == "sold"][-1]
    assert (sold["seat"], sold["price"], sold["to"]) == (2, 25, None)         # Marie pays the bank
    assert sorted(sold["lot"]) == ["karl_gitter_double_1", "karl_gitter_sealed_1"]
    assert funds(game) == [100, 100, 75, 100]
    assert game.step.phase == "play_painting" and game.to_move == 3
    assert tiles(game, "karl_gitter") == 0 and game.state.tokens[rules.place_index["karl_gitter"]]["exhibited"] == 2


def test_a_double_nobody_completes_is_the_auctioneers_for_nothing(rules: Any) -> None:
    """[M] E. Double auction: if no dealer adds a painting, the auctioneer keeps the double free."""
    game = amunre.new_game(rules, players=3, seed=2, setup={"start_player": 0,
                                                            "decks": {"paintings": ["yoko_double_1"]}})
    game.apply({"type": "lay", "card": "yoko_double_1"})
    while game.step.phase == "add_second":
        game.apply({"type": "decline"})
    assert game.state.owner[rules.place_index["yoko_double_1"]] == 0 and funds(game) == [100, 100, 100]


def test_a_fixed_price_nobody_pays_is_paid_by_the_auctioneer(rules: Any) -> None:
    """[M] D. Fixed price auction: the auctioneer sets a price no higher than its money; if
    nobody buys, it pays that price to the bank."""
    game = amunre.new_game(rules, players=3, seed=2, setup={"start_player": 0,
                                                            "decks": {"paintings": ["krypto_fixed_price_1"]}})
    game.apply({"type": "lay", "card": "krypto_fixed_price_1"})
    assert {"type": "price", "amount": 101} not in game.legal_actions()
    game.apply({"type": "price", "amount": 12})
    game.apply({"type": "decline"})
    game.apply({"type": "decline"})
    assert funds(game) == [88, 100, 100] and game.state.owner[rules.place_index["krypto_fixed_price_1"]] == 0


# ---- set-up, hidden information, whole games ------------------------------------------------------

def test_seventy_paintings_twelve_to_sixteen_per_artist(rules: Any) -> None:
    """[W] Game components: 70 paintings; 12, 13, 14, 15 and 16 by the five artists, left to right."""
    artists = ["lite_metal", "yoko", "christin_p", "karl_gitter", "krypto"]
    per_artist = Counter(a for p in rules.place_ids for a in artists if p.startswith(a + "_"))
    assert [per_artist[a] for a in artists] == [12, 13, 14, 15, 16] and sum(per_artist.values()) == 70


@pytest.mark.parametrize(("players", "deals"), [(3, [10, 6, 6]), (4, [9, 4, 4]), (5, [8, 3, 3])])
def test_cards_dealt_each_round(rules: Any, players: int, deals: list[int]) -> None:
    """[M] The following auction rounds: the table of cards dealt; none in round 4."""
    game = play_random(rules, players, seed=players)
    dealt = [(e["count"], rnd) for rnd, e in rounds_of(game) if e["event"] == "draw"]
    by_round = {rnd: {count for count, r in dealt if r == rnd} for _, rnd in dealt}
    assert {rnd: counts for rnd, counts in by_round.items()} == {r + 1: {n} for r, n in enumerate(deals)
                                                                  if r + 1 in by_round}
    assert 4 not in by_round and 1 in by_round


def rounds_of(game: amunre.Game) -> list[tuple[int, dict[str, Any]]]:
    found, rnd = [], 0
    for event in game.log:
        if event["event"] == "phase":
            rnd = event["round"]
        found.append((rnd, event))
    return found


def play_random(rules: Any, players: int, seed: int) -> amunre.Game:
    game = amunre.new_game(rules, players=players, seed=seed)
    pick = random.Random(seed)
    while not game.over:
        game.apply_id(pick.choice(game.legal_action_ids()))
    return game


def test_money_is_hidden_from_the_other_dealers(rules: Any) -> None:
    """[M] Game setup 3: money stays behind each screen."""
    game = amunre.new_game(rules, players=4, seed=3)
    seen = game.observation(1)["resources"]
    assert seen[1]["funds"] == 100 and all(seen[s]["funds"] == "hidden" for s in (0, 2, 3))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_games_end_with_money_accounted_for(rules: Any, players: int) -> None:
    """Every game ends after four rounds at most; money only moves from buyer to seller, to the
    bank, or from the bank for paintings sold; no painting is owned at the end."""
    for seed in range(4):
        game = play_random(rules, players, seed)
        to_bank = sum(e["price"] for e in game.log if e["event"] == "sold" and e["to"] is None)
        from_bank = sum(e["amount"] for e in game.log if e["event"] == "gain" and e["cause"]["id"] == "sell_paintings")
        assert sum(funds(game)) == 100 * players - to_bank + from_bank
        assert all(owner < 0 for owner in game.state.owner)                 # every painting sold back
        assert max(e["round"] for e in game.log if e["event"] == "phase") <= 4


@pytest.mark.parametrize("players", ["3", "4", "5"])
def test_the_cli_plays_it_by_its_shipped_name(players: str) -> None:
    result = CliRunner().invoke(app, ["run", "modern-art", "--players", players, "--seed", "1",
                                      "--agents", ",".join(["random"] * int(players))])
    assert result.exit_code == 0, result.output
    assert "Round 4" in result.stdout and "Winner" in result.stdout and "Age" not in result.stdout


def test_no_game_comes_near_the_money_bound(rules: Any) -> None:
    """The file bounds money (the game does not): games of greedy bots stay well below it, so
    the bound, which would keep a seat's money from growing, never plays a part."""
    from amunre.tools.agents import make_agent
    most = 0
    for seed in range(6):
        players = 3 + seed % 3
        game = amunre.new_game(rules, players=players, seed=seed, events=False)
        agents = [make_agent("greedy", seed * 7 + seat) for seat in range(players)]
        while not game.over:
            game.apply_id(agents[game.to_move].choose_id(game, game.legal_action_ids()))
            most = max(most, *funds(game))
    assert most < rules.resource_max["funds"] // 2
