"""The 2016 edition's printed facts and the numbering of its actions, as plain constants.

The province table is the one rules/knizia2016.yaml gives ([B] in docs/sources.md); the
card counts are the 2016 Components. Actions are small integers numbered the way the
interpreter numbers the 2016 action space (its action ids), so that the same seeded random
agents, choosing by position in the same ordered list, play the very same games in both
engines: the benchmark then times equal work, and the oracle test can walk both in lockstep.
"""

from __future__ import annotations

# ---- provinces, in the rules file's order --------------------------------------------------
#          id        west   upper  nile   fields limit bonus_favor bonus_stone bonus_gold mine caravan temples
PROVINCES = (
    ("buto",     True,  False, True,  6, 0, 1, 0, 0,  0, 0, 0),
    ("damanhur", True,  False, True,  2, 1, 0, 0, 0,  0, 0, 2),
    ("mendes",   False, False, True,  5, 0, 0, 0, 0,  0, 0, 0),
    ("avaris",   False, False, True,  2, 1, 0, 0, 0,  0, 8, 0),
    ("memphis",  True,  False, True,  3, 3, 0, 2, 0,  0, 0, 0),
    ("baharya",  True,  False, False, 2, 2, 0, 0, 0,  0, 0, 0),
    ("amarna",   False, False, True,  3, 1, 0, 0, 0,  0, 0, 1),
    ("sawu",     False, True,  False, 0, 2, 0, 0, 0,  0, 7, 0),
    ("kharga",   True,  True,  False, 1, 2, 0, 0, 0,  0, 5, 0),
    ("dakhla",   True,  True,  False, 0, 1, 1, 0, 12, 0, 0, 0),
    ("abydos",   True,  True,  True,  4, 1, 0, 1, 0,  0, 0, 0),
    ("thebes",   False, True,  True,  4, 2, 2, 0, 0,  0, 0, 0),
    ("edfu",     True,  True,  True,  3, 2, 1, 0, 0,  0, 0, 1),
    ("abu",      False, True,  True,  3, 1, 0, 0, 0,  4, 0, 0),
    ("berenike", False, True,  False, 0, 4, 0, 0, 0,  8, 0, 0),
)
NAMES = tuple(p[0] for p in PROVINCES)
INDEX = {name: i for i, name in enumerate(NAMES)}
PLACES = range(len(PROVINCES))
WEST = tuple(p[1] for p in PROVINCES)
UPPER = tuple(p[2] for p in PROVINCES)
NILE = tuple(p[3] for p in PROVINCES)
FIELDS = tuple(p[4] for p in PROVINCES)
LIMIT = tuple(p[5] for p in PROVINCES)             # favor cards buyable in the market
BONUS_FAVOR = tuple(p[6] for p in PROVINCES)
BONUS_STONE = tuple(p[7] for p in PROVINCES)
BONUS_GOLD = tuple(p[8] for p in PROVINCES)
MINE = tuple(p[9] for p in PROVINCES)
CARAVAN = tuple(p[10] for p in PROVINCES)
TEMPLES = tuple(p[11] for p in PROVINCES)
SYMBOLS = tuple(p[5] + p[6] for p in PROVINCES)    # favor symbols, immediate and permanent

BID_SPACES = (0, 1, 3, 6, 10, 15, 21, 28, 36)
START_GOLD = 20
MAX_GOLD = 392                                     # all the gold cards of the box
SUPPLY = {"farmer": 48, "stone": 15, "pyramid": 15, "double_pyramid": 15}

# Offering tiles: (least total, gold per farmer, VP per temple, camel).
TILES = (("low", 1, 1, True), ("mid_low", 2, 2, True), ("mid_high", 3, 3, False), ("high", 4, 4, False))


def tile_of(total: int) -> int:
    return 0 if total <= 2 else 1 if total <= 12 else 2 if total <= 22 else 3


# ---- favor cards: kinds in alphabetical order (the order of their sell actions) ---------------
KINDS = ("architect", "big_harvest", "bribery", "free_farmer", "master_of_farmers", "master_of_scribes",
         "nile_or_frontier", "offering_adjustment", "protection", "treasury", "upper_or_lower", "west_or_east")
(ARCHITECT, BIG_HARVEST, BRIBERY, FREE_FARMER, MASTER_OF_FARMERS, MASTER_OF_SCRIBES, NILE_OR_FRONTIER,
 OFFERING_ADJUSTMENT, PROTECTION, TREASURY, UPPER_OR_LOWER, WEST_OR_EAST) = range(len(KINDS))
KIND = {name: k for k, name in enumerate(KINDS)}
# The favor deck as the box holds it (the rules file's order of cards; it is shuffled at set-up).
FAVOR_DECK = ((PROTECTION, 2), (BRIBERY, 2), (ARCHITECT, 8), (FREE_FARMER, 5), (OFFERING_ADJUSTMENT, 4),
              (TREASURY, 3), (BIG_HARVEST, 5), (MASTER_OF_SCRIBES, 2), (MASTER_OF_FARMERS, 2),
              (WEST_OR_EAST, 2), (NILE_OR_FRONTIER, 2), (UPPER_OR_LOWER, 2))
THEFT_CARDS = 5
SCORING_CARDS = (MASTER_OF_FARMERS, MASTER_OF_SCRIBES, NILE_OR_FRONTIER, UPPER_OR_LOWER, WEST_OR_EAST)

# ---- actions ----------------------------------------------------------------------------------
N = len(PROVINCES)
BID = 0                          # + lot slot * 9 + bid space index
BUY_FAVOR = 135                  # + count
BUY_FARMER = 175
BUY_STONE = 224
PLACE_FARMER = 240               # + province
PLACE_STONE = 255
ATTACH = 270                     # the offering adjustment card, offered with the gold
OFFER = 271                      # + amount
OFFER_THEFT = 664
RESOLVE = 665                    # + 0: add 3, + 1: subtract 3
TAKE_FAVOR = 668
TAKE_FARMER = 669                # + province
TAKE_STONE = 684
PLAY_ARCHITECT = 699             # + province
PLAY_BIG_HARVEST = 714
PLAY_BRIBERY = 729
PLAY_FREE_FARMER = 730
PLAY_MASTER_OF_FARMERS = 745
PLAY_MASTER_OF_SCRIBES = 746
PLAY_NILE_OR_FRONTIER = 747
PLAY_PROTECTION = 748
PLAY_TREASURY = 749
PLAY_UPPER_OR_LOWER = 764
PLAY_WEST_OR_EAST = 765
DONE = 766
COLLECT = 767
PASS = 768                       # asked only because selling would pay for a purchase
SELL = 769                       # + kind
ACTIONS = SELL + len(KINDS)
PLAY_SCORING = {MASTER_OF_FARMERS: PLAY_MASTER_OF_FARMERS, MASTER_OF_SCRIBES: PLAY_MASTER_OF_SCRIBES,
                NILE_OR_FRONTIER: PLAY_NILE_OR_FRONTIER, UPPER_OR_LOWER: PLAY_UPPER_OR_LOWER,
                WEST_OR_EAST: PLAY_WEST_OR_EAST}
