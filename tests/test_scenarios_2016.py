"""The worked examples of the 2016 rulebook ([R] in docs/sources.md), played through the public
API with their exact numbers. Where the text contradicts itself, the test says which reading it
follows.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import amunre

RULES = Path(__file__).resolve().parent.parent / "rules" / "knizia2016.yaml"


@pytest.fixture(scope="module")
def rules():
    return amunre.load_rules(RULES)


def act(game, seat, **action):
    """Apply an action for the seat that must be to move, checking it is offered as legal."""
    assert game.to_move == seat, f"expected seat {seat} to move, not {game.to_move}"
    assert action in game.legal_actions(), f"{action} not legal; legal: {game.legal_actions()}"
    game.apply(action)


def gold(game, seat):
    return game.state.resources[seat]["gold"]


def place(game, rules, pid):
    return game.state.tokens[rules.place_index[pid]]


def owner(game, rules, pid):
    return game.state.owner[rules.place_index[pid]]


def phase(game):
    return game.step.phase


def events(game, kind):
    return [e for e in game.log if e["event"] == kind]


def lots(game):
    """The places up for auction: the running auction's own data."""
    return game.state.working["lots"]


# ---------------------------------------------------------------------------------------
# [R] 1. The Auction Phase, example: Seb, Arnaud and Charles; Thebes, Dakhla and Abydos.
SEB, ARNAUD, CHARLES = 0, 1, 2


def test_auction_example(rules):
    game = amunre.new_game(rules, players=3, seed=1, setup={
        "start_player": SEB, "decks": {"provinces": ["thebes", "dakhla", "abydos"]}})
    assert lots(game) == [rules.place_index[p] for p in ("thebes", "dakhla", "abydos")]
    act(game, SEB, type="bid", lot="dakhla", space=10)
    act(game, ARNAUD, type="bid", lot="thebes", space=3)
    act(game, CHARLES, type="bid", lot="thebes", space=6)
    # Seb is not outbid: she passes (her turn is skipped); Arnaud must bid elsewhere.
    assert game.to_move == ARNAUD
    bids = [a for a in game.legal_actions() if a["type"] == "bid"]
    assert {a["lot"] for a in bids} == {"dakhla", "abydos"}          # not Thebes again
    assert not [a for a in bids if a["lot"] == "dakhla" and a["space"] <= 10]
    act(game, ARNAUD, type="bid", lot="abydos", space=0)
    # No province is contested: the auction is over and the market begins.
    assert phase(game) == "market"
    assert gold(game, SEB) == 20 - 10 + 12
    assert len(game.state.hands[SEB]) == 3                 # theft, architect + 1 favor card
    assert gold(game, ARNAUD) == 20
    assert place(game, rules, "abydos").get("stone") == 1
    assert gold(game, CHARLES) == 20 - 6
    assert len(game.state.hands[CHARLES]) == 4             # + 2 favor cards from Thebes
    assert [owner(game, rules, p) for p in ("dakhla", "abydos", "thebes")] == [SEB, ARNAUD, CHARLES]


def test_auction_bid_cannot_exceed_gold(rules):
    game = amunre.new_game(rules, players=3, seed=2, setup={"start_player": 0, "resources": {"gold": [5, 20, 20]}})
    assert max(a["space"] for a in game.legal_actions() if a["type"] == "bid") == 3


def _auction_all_zero(game, rules, order, lots):
    """Each seat in order bids 0 on its own lot."""
    for seat, lot in zip(order, lots):
        act(game, seat, type="bid", lot=lot, space=0)


def _skip_market(game):
    """Every seat buys nothing and plays nothing."""
    while phase(game) == "market":
        legal = game.legal_actions()
        act(game, game.to_move, **next(a for a in legal if a.get("count") == 0 or a["type"] == "done"))


def test_protection_blocks_the_next_space(rules):
    game = amunre.new_game(rules, players=3, seed=3, setup={
        "start_player": 0, "decks": {"provinces": ["thebes", "dakhla", "abydos"], "favor": ["protection"]},
        "hands": [["protection"]]})
    act(game, 0, type="play", card="protection")
    act(game, 0, type="bid", lot="thebes", space=3)
    spaces = [a["space"] for a in game.legal_actions() if a["type"] == "bid" and a["lot"] == "thebes"]
    assert spaces[0] == 10                    # 6 is blocked: the overbid skips one more space
    act(game, 1, type="bid", lot="thebes", space=10)
    # Protection goes with its owner: seat 0 moves to Dakhla, still protected there.
    act(game, 2, type="bid", lot="abydos", space=0)
    act(game, 0, type="bid", lot="dakhla", space=1)
    assert game.to_move is None or phase(game) == "market"


def test_bribery_allows_a_rebid_on_the_same_lot(rules):
    game = amunre.new_game(rules, players=3, seed=4, setup={
        "start_player": 0, "decks": {"provinces": ["thebes", "dakhla", "abydos"], "favor": ["bribery"]},
        "hands": [["bribery"]]})
    act(game, 0, type="bid", lot="thebes", space=3)
    assert {"type": "play", "card": "bribery"} not in game.legal_actions()   # not outbid yet
    act(game, 1, type="bid", lot="thebes", space=6)
    act(game, 2, type="bid", lot="abydos", space=0)
    assert not [a for a in game.legal_actions() if a.get("lot") == "thebes"]
    act(game, 0, type="play", card="bribery")
    act(game, 0, type="bid", lot="thebes", space=10)
    assert game.to_move == 1 and not [a for a in game.legal_actions() if a.get("lot") == "thebes"]


# ---------------------------------------------------------------------------------------
# [R] 2. The Market Phase, example: Charles controls Thebes and Edfu.
def test_market_example(rules):
    game = amunre.new_game(rules, players=3, seed=5, setup={
        "start_player": 0, "decks": {"provinces": ["buto", "mendes", "thebes"]}})
    _auction_all_zero(game, rules, [0, 1, 2], ["buto", "mendes", "thebes"])
    # The example gives Charles Edfu as well (won in an earlier round).
    game.state.owner[rules.place_index["edfu"]] = 2
    for seat in (0, 1):                                   # the others buy nothing
        while game.to_move == seat:
            act(game, seat, type="buy", good=game.legal_actions()[0]["good"], count=0)
    start = gold(game, 2)
    assert [a["count"] for a in game.legal_actions() if a["type"] == "buy"] == [0, 1, 2]   # Thebes: 2
    act(game, 2, type="buy", good="favor", count=1)
    assert gold(game, 2) == start - 1
    act(game, 2, type="buy", good="farmer", count=4)
    assert gold(game, 2) == start - 1 - 10
    for pid in ("thebes", "thebes", "edfu", "edfu"):
        act(game, 2, type="place", token="farmer", at=pid)
    act(game, 2, type="buy", good="stone", count=3)
    assert gold(game, 2) == start - 1 - 10 - 6
    for _ in range(3):
        act(game, 2, type="place", token="stone", at="thebes")
    thebes = place(game, rules, "thebes")
    assert (thebes.get("stone"), thebes.get("pyramid"), thebes.get("farmer")) == (0, 1, 2)
    assert game.state.supply["stone"] == 15 and game.state.supply["pyramid"] == 14


def test_market_price_curve_beyond_the_printed_scale(rules):
    market = rules.phases["market"]
    game = amunre.new_game(rules, players=3, seed=6)
    assert [market.cost(game, 0, n) for n in range(1, 10)] == [1, 3, 6, 10, 15, 21, 28, 36, 45]


# ---------------------------------------------------------------------------------------
# [R] 3. The Offering Phase, example: Arnaud 6, Charles 6, Seb the Theft card.
def test_offering_example(rules):
    arnaud, charles, seb = 0, 1, 2
    game = amunre.new_game(rules, players=3, seed=7, setup={
        "start_player": arnaud, "decks": {"provinces": ["buto", "mendes", "thebes"]}})
    _auction_all_zero(game, rules, [arnaud, charles, seb], ["buto", "mendes", "thebes"])
    _skip_market(game)
    before = [gold(game, s) for s in range(3)]
    act(game, arnaud, type="offer", amount=6)
    act(game, charles, type="offer", amount=6)
    act(game, seb, type="offer", card="theft")
    offering = events(game, "settled")[-1]
    assert offering["total"] == 6 + 6 - 3 == 9
    assert offering["label"] == "3>12"
    assert game.state.start_player == arnaud        # tie with Charles: earlier in turn order
    assert gold(game, seb) == before[seb] + 3
    assert "theft" in game.state.hands[seb]
    hand = len(game.state.hands[arnaud])
    for _ in range(3):
        act(game, arnaud, type="take", good="favor")
    assert len(game.state.hands[arnaud]) == hand + 3
    act(game, charles, type="take", good="stone", at="mendes")
    act(game, charles, type="take", good="farmer", at="mendes")
    assert phase(game) == "harvest" or game.to_move != seb
    assert not events(game, "reward") or all(e["seat"] != seb for e in events(game, "reward"))


def test_offering_needs_at_least_one_gold_or_theft(rules):
    game = amunre.new_game(rules, players=3, seed=8, setup={"start_player": 0,
                                                             "decks": {"provinces": ["buto", "mendes", "thebes"]}})
    _auction_all_zero(game, rules, [0, 1, 2], ["buto", "mendes", "thebes"])
    _skip_market(game)
    offers = [a for a in game.legal_actions() if a["type"] == "offer"]
    assert {"type": "offer", "amount": 0} not in offers
    assert offers[0] == {"type": "offer", "amount": 1} and {"type": "offer", "card": "theft"} in offers


# ---------------------------------------------------------------------------------------
# [R] "Example of the beginning of a game": 4 players, Bernard starts.
BERNARD, CHARLES4, ARNAUD4, ALEXANDRE = 0, 1, 2, 3


def test_example_of_the_beginning_of_a_game(rules):
    # Readings where the text contradicts itself:
    # - Charles ends the market with 1 gold (20 - 6 - 13) yet offers 2: we give him 21 at the
    #   start, so every printed payment and offering stays as written.
    # - Bernard (4 gold left) offers a 5 and Arnaud (5 left) offers 5 + 1: each first turns a
    #   favor card in for 1 gold, which the rules allow at any time.
    # - The text has Arnaud reveal the Offering Adjustment card but Charles use it; Charles has
    #   no favor card then, so the card's owner, Arnaud, makes the +3.
    favor_top = ["protection", "bribery",             # Thebes' 2 cards, for Bernard
                 "offering_adjustment",               # Buto's card, for Arnaud
                 "master_of_scribes", "upper_or_lower",  # Bernard buys 2
                 "treasury",                          # Alexandre buys 1
                 "master_of_farmers", "west_or_east", "nile_or_frontier"]  # rewards
    game = amunre.new_game(rules, players=4, seed=9, setup={
        "start_player": BERNARD, "resources": {"gold": [20, 21, 20, 20]},
        "decks": {"provinces": ["thebes", "avaris", "buto", "mendes"], "favor": favor_top}})

    # 1. Auction
    assert [rules.place_ids[p] for p in lots(game)] == ["thebes", "avaris", "buto", "mendes"]
    act(game, BERNARD, type="bid", lot="thebes", space=6)
    act(game, CHARLES4, type="bid", lot="buto", space=0)
    act(game, ARNAUD4, type="bid", lot="buto", space=3)
    act(game, ALEXANDRE, type="bid", lot="mendes", space=3)
    act(game, CHARLES4, type="bid", lot="mendes", space=6)   # Bernard passes: not outbid
    act(game, ALEXANDRE, type="bid", lot="avaris", space=0)  # Arnaud passes
    assert phase(game) == "market"
    assert [gold(game, s) for s in range(4)] == [14, 15, 17, 20]
    assert sorted(game.state.hands[BERNARD]) == ["architect", "bribery", "protection", "theft"]
    assert "offering_adjustment" in game.state.hands[ARNAUD4]

    # 2. Market
    act(game, BERNARD, type="buy", good="favor", count=2)            # 3 gold
    act(game, BERNARD, type="buy", good="farmer", count=3)           # 6 gold
    for _ in range(3):
        act(game, BERNARD, type="place", token="farmer", at="thebes")
    act(game, BERNARD, type="buy", good="stone", count=1)            # 1 gold
    act(game, BERNARD, type="place", token="stone", at="thebes")
    assert gold(game, BERNARD) == 14 - 10
    # Charles: Mendes has no favor symbol, so he cannot buy favor cards.
    assert game.legal_actions()[0] == {"type": "buy", "good": "farmer", "count": 0}
    act(game, CHARLES4, type="buy", good="farmer", count=4)          # 10 gold
    for _ in range(4):
        act(game, CHARLES4, type="place", token="farmer", at="mendes")
    act(game, CHARLES4, type="buy", good="stone", count=2)           # 3 gold
    for _ in range(2):
        act(game, CHARLES4, type="place", token="stone", at="mendes")
    act(game, CHARLES4, type="play", card="architect", target="mendes")
    assert place(game, rules, "mendes").get("pyramid") == 1 and place(game, rules, "mendes").get("stone") == 0
    # No other market card to play: his turn ends by itself.
    assert gold(game, CHARLES4) == 15 - 13
    act(game, ARNAUD4, type="buy", good="farmer", count=3)           # 6 gold
    for _ in range(3):
        act(game, ARNAUD4, type="place", token="farmer", at="buto")
    act(game, ARNAUD4, type="buy", good="stone", count=3)            # 6 gold
    for _ in range(3):
        act(game, ARNAUD4, type="place", token="stone", at="buto")
    assert place(game, rules, "buto").get("pyramid") == 1
    assert gold(game, ARNAUD4) == 17 - 12
    act(game, ALEXANDRE, type="buy", good="favor", count=1)          # 1 gold
    act(game, ALEXANDRE, type="buy", good="farmer", count=1)         # 1 gold
    act(game, ALEXANDRE, type="place", token="farmer", at="avaris")
    act(game, ALEXANDRE, type="buy", good="stone", count=5)          # 15 gold
    for _ in range(5):
        act(game, ALEXANDRE, type="place", token="stone", at="avaris")
    assert (place(game, rules, "avaris").get("pyramid"), place(game, rules, "avaris").get("stone")) == (1, 2)
    act(game, ALEXANDRE, type="play", card="architect", target="avaris")
    avaris = place(game, rules, "avaris")
    assert (avaris.get("double_pyramid"), avaris.get("pyramid"), avaris.get("stone")) == (1, 0, 0)
    assert gold(game, ALEXANDRE) == 20 - 17
    assert phase(game) == "offering"

    # 3. Offering
    act(game, BERNARD, type="sell", card="protection")
    act(game, BERNARD, type="offer", amount=5)
    act(game, CHARLES4, type="offer", amount=2)
    act(game, ARNAUD4, type="sell", card="architect")
    act(game, ARNAUD4, type="attach", card="offering_adjustment")
    act(game, ARNAUD4, type="offer", amount=6)
    act(game, ALEXANDRE, type="offer", card="theft")
    assert events(game, "reveal")[-1]["total"] == 5 + 2 + 6 - 3 == 10
    act(game, ARNAUD4, type="resolve", card="offering_adjustment", delta=3)
    offering = events(game, "settled")[-1]
    assert (offering["total"], offering["label"]) == (13, "13>22")
    assert offering["ranking"] == [ARNAUD4, BERNARD, CHARLES4]
    assert game.state.start_player == ARNAUD4
    act(game, ARNAUD4, type="take", good="favor")
    act(game, ARNAUD4, type="take", good="farmer", at="buto")
    act(game, ARNAUD4, type="take", good="farmer", at="buto")
    act(game, BERNARD, type="take", good="favor")
    act(game, BERNARD, type="take", good="stone", at="thebes")
    act(game, CHARLES4, type="take", good="favor")
    assert gold(game, ALEXANDRE) == 3 + 3 and "theft" in game.state.hands[ALEXANDRE]

    # 4. Harvest: in the new turn order, Arnaud first.
    assert phase(game) == "harvest" and game.to_move == ALEXANDRE   # Arnaud collected at once
    act(game, ALEXANDRE, type="play", card="treasury", target="avaris")   # then collects at once
    income = {e["seat"]: e["total"] for e in events(game, "income")}
    assert income == {ARNAUD4: 15, ALEXANDRE: 8, BERNARD: 9, CHARLES4: 12}
    assert [e["seat"] for e in events(game, "income")] == [ARNAUD4, ALEXANDRE, BERNARD, CHARLES4]
    # Round 2 begins: Arnaud, the new start player, draws 4 new provinces and bids first.
    assert phase(game) == "auction" and game.step.round == 2
    assert game.to_move == ARNAUD4 and len(lots(game)) == 4


@pytest.mark.parametrize("option,deltas", [("must_change", [3, -3]), ("may_pass", [3, -3, 0])])
def test_offering_adjustment_option(rules, option, deltas):
    # [R] the adjuster must raise or lower the total by 3; [T] may also leave it.
    game = amunre.new_game(rules, players=3, seed=10, setup={
        "start_player": 0, "options": {"offering_adjustment": option},
        "decks": {"provinces": ["buto", "mendes", "thebes"]}, "hands": [["offering_adjustment"]]})
    _auction_all_zero(game, rules, [0, 1, 2], ["buto", "mendes", "thebes"])
    _skip_market(game)
    act(game, 0, type="attach", card="offering_adjustment")
    act(game, 0, type="offer", amount=2)
    act(game, 1, type="offer", amount=2)
    act(game, 2, type="offer", amount=2)
    assert [a["delta"] for a in game.legal_actions() if a["type"] == "resolve"] == deltas
    act(game, 0, type="resolve", card="offering_adjustment", delta=deltas[-1])
    assert events(game, "settled")[-1]["total"] == 6 + deltas[-1]
