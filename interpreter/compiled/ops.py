"""The fixed numbers the lowering (Python) and the machine code (numba) share: where the
position's header fields lie in the state array `S`, where the tables' sections begin in the
machine array `M`, the opcodes of the DSL's bytecode, and the kinds of each table's rows.

`M` is one array per rules file and process: the rules' tables `T` (the lowering's output),
then the scratch room the machine works in, then the addresses of its parts (`H`). Two
arrays, S and M, are all a function of the machine takes: numba passes each array as seven
numbers and counts references to it at every call, so fewer arrays make every call cheaper.

Everything here is a plain module-level integer: numba reads such a global as a constant,
so a field of the header costs what a literal costs. What depends on a rules file (how many
places, seats, cards...) is not here: the lowering writes those sizes and the offsets of the
state's regions into the header of `T` (`TH_*`), and the machine code reads them there.
"""

from __future__ import annotations

# ---- the state array S: its header ---------------------------------------------------------
S_PLAYERS = 0          # seats in this game
S_START = 1            # the start player
S_AT = 2               # the leaf of the flow now running
S_STEP = 3             # phases done (skipped ones too)
S_OVER = 4             # 1 once the game is over
S_TO_MOVE = 5          # the seat to decide; -1 for none
S_RNG = 6              # the splitmix64 generator (its uint64 bits)
S_WORKING = 7          # 1 while the phase at the cursor has begun (the interpreter's working is not None)
S_DECISIONS = 8        # decisions taken in the step now running
S_NLEGAL = 9           # how many legal ids follow at the legal region
S_HELD = 10            # which resources are held as cards in this game: bit i for held row i
S_ERR = 11             # why the machine stopped (ERR_*), when it raised
S_ERR_ARG = 12         # a number that says more (a program, a phase)
S_HEADER = 16          # the regions start here

# ---- the table array T: its header (each slot holds a size, or an offset into T or S) --------
TH_PLACES = 0          # how many places
TH_SEATS = 1           # the most seats (the rules' max players): per-seat regions have this many rows
TH_RES = 2             # resources
TH_TOKENS = 3          # tokens
TH_SUPPLIES = 4        # token supplies
TH_CARDS = 5           # card kinds
TH_DECKS = 6
TH_MODS = 7            # modifiers (the rules file's and every phase's)
TH_PHASES = 8
TH_LEAVES = 9
TH_COUNTERS = 10       # repeats of the flow
TH_OPTIONS = 11
TH_KEYS = 12           # sources (cause ids)
TH_ACTIONS = 13        # the size of the action space
TH_LIFETIMES = 14
TH_NODES = 15          # nodes of the flow
TH_BLOCKS = 16
TH_MIN_PLAYERS = 17
TH_LEGAL_CAP = 18      # room for legal ids in S
TH_SLOTS = 19          # named slots of a program's frame (bound names)
TH_TILES = 20          # the most rows of any row table
TH_HELD = 21           # resources held as cards
TH_WINDOWS = 22
TH_GOODS = 23
TH_CONVERSIONS = 24
# offsets of the state's regions (into S)
TH_S_PASSES = 30
TH_S_OPTIONS = 31
TH_S_UNLIMITED = 32
TH_S_RES = 33
TH_S_SOURCES = 34
TH_S_HANDS = 35
TH_S_HAND_SIZE = 36
TH_S_OWNER = 37
TH_S_TOKENS = 38
TH_S_SUPPLY = 39
TH_S_WORK = 40
TH_S_LEGAL = 41
TH_S_SIZE = 42
TH_S_WORK_SIZE = 43
TH_S_HELD = 44
# offsets of the tables' sections (into T)
TH_RES_START = 50      # per resource: its starting amount
TH_RES_MAX = 51        # per resource: its max, -1 when none is declared
TH_RES_TOP = 52        # per resource: the most a seat may hold (max, at most MAX_AMOUNT)
TH_COLUMNS = 53        # per printed property: places numbers (words as their ids)
TH_START_OWNER = 54    # per place
TH_TOKEN_SUPPLY = 55   # per token: its supply
TH_TOKEN_CAPACITY = 56 # per token: how its capacity is read (CAP_*), and the column or token read
TH_SUPPLY_START = 57   # per supply
TH_UNLIMITED_IF = 58   # per supply: a program, -1 for none
TH_CONVERTED = 59      # per token: 1 if a conversion takes it
TH_CONVERSION = 60     # per conversion: source token, count, target token, cause key
TH_DECK = 61           # per deck: DECK_* fields
TH_CARD = 62           # per card: CARD_* fields
TH_PLACE_CARD = 63     # per place: the card of the place (decks of places), -1 for none
TH_MOD = 64            # per modifier: MOD_* fields
TH_LIFETIME = 65       # per lifetime: its expiring modifiers, then its played region (LIFE_*)
TH_NODE = 66           # per flow node: NODE_* fields
TH_LEAF_PHASE = 67     # per leaf: its phase
TH_PHASE = 68          # per phase: PHASE_* fields
TH_PROGRAM = 69        # per program: PROG_* fields
TH_CODE = 70           # the bytecode, four numbers an instruction
TH_BLOCK = 71          # per block: BLOCK_* fields
TH_BLOCK_OF = 72       # per action id: its block
TH_OPTION = 73         # per option: its default word, its values, allowed_if
TH_WINDOW = 74         # per card window: the cards played in it, sorted by id
TH_GOOD = 75           # per good: GOOD_* fields
TH_EFFECT = 76         # per effect: EFFECT_* fields
TH_SETUP_HAND = 77     # the cards every seat starts with
TH_DECK_SETUP = 78     # per deck: count, where, stacks, top programs
TH_WINNER = 79         # score resource, by, tiebreaks, report
TH_FLOW = 80           # FLOW_* fields
TH_STANDING = 81       # STANDING_* fields, then per card its sale id, resource and amount
TH_ROWS = 82           # the row tables (`PHASE.tile`): per table, per row, per column
TH_HELD_DEF = 83       # per resource held as cards: HELD_* fields
TH_TENSOR = 84         # the observation tensor's plan
TH_WORDS_PLACE = 85    # per place: the word of its id
TH_KEPT = 86           # per phase: the offset of what it keeps, in S (-1: it keeps nothing)
TH_LIST = 87           # constant lists (literals): length, then the items
TH_SOURCE_KEY = 88     # per card: its sale's source key
TH_X_ENV = 89          # the scratch array X: where the bound names lie, and the other regions
TH_X_CALLS = 91
TH_X_ARENA = 92
TH_X_SCRATCH = 93
TH_X_SIZE = 94
TH_LEAF_NODE = 95      # per leaf: its node of the flow
TH_S_PICKS = 100       # the picks' counts of every phase (a study's record), in S, and how many
TH_PICKS_SIZE = 101
TH_SELLABLE = 102      # the cards that sell, by their sale's id: how many, then the cards
TH_RES_HIDDEN = 90     # per resource: 1 if other seats do not see it
TH_H = 96             # where the parts' addresses lie (compiled/pointers.py)
TH_HEADER = 104

# ---- rows of the tables: the fields of each ------------------------------------------------
DECK_OF_PLACES, DECK_SELL, DECK_SELL_RES, DECK_SELL_TO_AFFORD, DECK_RESHUFFLE, DECK_HIDDEN = 0, 1, 2, 3, 4, 5
DECK_ONE_PER_KIND, DECK_DISPLAY, DECK_CAP = 6, 7, 8
DECK_S_DRAW, DECK_S_DISCARD, DECK_S_BOXED, DECK_S_SHOWN = 9, 10, 11, 12   # offsets in S: a pile is [len, cards...]
DECK_PLACES, DECK_N_PLACES = 13, 14     # the places it holds (a list in T), how many
DECK_CARDS, DECK_N_CARDS = 15, 16       # its cards as built: card, count pairs in T
DECK_FIELDS = 17

CARD_DECK, CARD_COUNT, CARD_WINDOW, CARD_EFFECT, CARD_CAUSE, CARD_SALE, CARD_PLACE, CARD_WORD = 0, 1, 2, 3, 4, 5, 6, 7
CARD_PLAY_BLOCK, CARD_SORTED = 8, 9     # its play block (-1: none); its rank by id among all cards
CARD_FIELDS = 10

MOD_S, MOD_SCOPE, MOD_DEFAULT, MOD_SIZE, MOD_LIFETIME = 0, 1, 2, 3, 4   # in S: [set?, values...]
MOD_FIELDS = 5
SCOPE_SEAT, SCOPE_PLACE, SCOPE_GAME = 0, 1, 2

LIFE_MODS, LIFE_N_MODS, LIFE_PLAYED = 0, 1, 2      # the expiring modifiers (a list in T); played region in S or -1
LIFE_FIELDS = 3
LIFE_PHASE, LIFE_GAME = 0, 1          # the lifetimes every rules file has, first (then the flow's names)

NODE_KIND, NODE_PARENT, NODE_LIFETIME, NODE_CHILDREN, NODE_N_CHILDREN, NODE_LEAF = 0, 1, 2, 3, 4, 5
NODE_TIMES, NODE_UNTIL, NODE_CHECK_BEFORE, NODE_COUNTER, NODE_ON, NODE_CASES, NODE_N_CASES = 6, 7, 8, 9, 10, 11, 12
NODE_OTHERWISE, NODE_INNER_REPEATS, NODE_N_INNER = 13, 14, 15
NODE_FIELDS = 16
KIND_PHASE, KIND_SEQUENCE, KIND_REPEAT, KIND_BRANCH = 0, 1, 2, 3

FLOW_AGE, FLOW_ROUND, FLOW_END_IF, FLOW_END_AFTER, FLOW_END_THEN = 0, 1, 2, 3, 4
FLOW_FIELDS = 5

PHASE_MECH, PHASE_PARAMS, PHASE_SKIP_IF, PHASE_END_IF = 0, 1, 2, 3
PHASE_ORDER, PHASE_ORDER_EXPR, PHASE_HIGHEST_FIRST = 4, 5, 6
PHASE_WINDOW, PHASE_CLOSING, PHASE_ASKS_STANDING, PHASE_CLOSING_IGNORES_PURSE, PHASE_AUTOMATIC = 7, 8, 9, 10, 11
# ... what it keeps, its word, its first piece of the tensor, its picks' counts in S
PHASE_KEPT, PHASE_WORD, PHASE_TENSOR, PHASE_PICKS = 12, 13, 14, 15
PHASE_FIELDS = 16
ORDER_CLOCKWISE, ORDER_COUNTER, ORDER_FROM, ORDER_BY = 0, 1, 2, 3

PROG_PC, PROG_LOCALS, PROG_STACK, PROG_RESULT_LIST, PROG_SHAPE = 0, 1, 2, 3, 4    # shape: a row of T, or -1
PROG_FIELDS = 5

BLOCK_BASE, BLOCK_SIZE, BLOCK_RANK, BLOCK_N_FIELDS, BLOCK_STRIDES = 0, 1, 2, 3, 4    # strides: up to 4
BLOCK_FIELDS = 8

GOOD_DECK, GOOD_TOKEN = 0, 1
GOOD_FIELDS = 2

EFFECT_BODY, EFFECT_N_CHOICES, EFFECT_CHOICES, EFFECT_N_REQUIRES, EFFECT_REQUIRES = 0, 1, 2, 3, 4
EFFECT_FIELDS = 5
CHOICE_SLOT, CHOICE_OPTIONS, CHOICE_KIND, CHOICE_N_VALUES, CHOICE_VALUES = 0, 1, 2, 3, 4   # values: a list in T
CHOICE_FIELDS = 5
CHOICE_PLACES, CHOICE_SEATS, CHOICE_VALUES_KIND = 0, 1, 2
REQUIRE_LEVEL, REQUIRE_PROG = 0, 1

STANDING_SELL, STANDING_DECLINE = 0, 1      # the sell block's base (-1: no deck sells); the decline id
STANDING_FIELDS = 2                          # then per card: sale id (-1), sell resource, amount, to afford

WINNER_SCORE, WINNER_BY, WINNER_N_TIEBREAKS, WINNER_TIEBREAKS, WINNER_N_REPORT, WINNER_REPORT = 0, 1, 2, 3, 4, 5

HELD_RES, HELD_N_VALUES, HELD_VALUES, HELD_START, HELD_WHEN, HELD_S = 0, 1, 2, 3, 4, 5
HELD_FIELDS = 6

CAP_NONE, CAP_COLUMN, CAP_TOKEN = -1, 0, 1
X_ARENA_TOP, X_CALL_TOP, X_SCRATCH_TOP = 97, 98, 99   # the tops of the scratch regions (in M's header)

# ---- mechanics ------------------------------------------------------------------------------
M_PLACEMENT, M_LOT_AUCTION, M_MARKET, M_SECRET_OFFER, M_INCOME, M_CARD_WINDOW = 0, 1, 2, 3, 4, 5
M_SCORE, M_RESET, M_DEAL, M_SECRET_PICK, M_MOVES, M_SELECT, M_DRAFT, M_REVEAL, M_TRANSITION, M_LAY_CARD = (
    6, 7, 8, 9, 10, 11, 12, 13, 14, 15)

CALL_BEGIN, CALL_AUTO, CALL_TO_MOVE, CALL_LEGAL, CALL_APPLY, CALL_PASS, CALL_END = 0, 1, 2, 3, 4, 5, 6   # the contract
CALL_TENSOR = 7        # fill the phase's pieces of the tensor (arg: where its first piece lies in M;
                       # seat: the observer)
CALL_FORECAST = 8      # what the phase would give the seat if it ran now (scoring, income: a bot's
                       # valuation, tools/agents/forecast.py), changing nothing
CALL_SECRET_CHOICES = 9    # what the seat could have chosen in secret, among what it did choose and
                           # another seat may not see yet (a guess makes it again, compiled/guess.py):
                           # its ids into M[arg:], how many; -1 for no such choice
CALL_CHOOSE_AGAIN = 10     # the seat's secret choice made again: arg, one of those ids

# ---- the observation tensor's plan (at TH_TENSOR): where each piece of the engine's lies ----------
TN_SIZE, TN_SEAT, TN_PLAYERS, TN_TO_MOVE, TN_START, TN_AT, TN_PASSES, TN_OPTIONS = 0, 1, 2, 3, 4, 5, 6, 7
TN_RESOURCES, TN_HAND, TN_SIZES, TN_PUBLIC, TN_HELD, TN_DECKS, TN_DISCARDS, TN_SHOWN = 8, 9, 10, 11, 12, 13, 14, 15
TN_OWNER, TN_TOKENS, TN_SUPPLY, TN_MODS, TN_PLAYED, TN_PUBLIC_CARD, TN_SECRET = 16, 17, 18, 19, 20, 21, 22
TN_PHASES = 23         # where the phases' pieces begin (after the engine's; TN_SIZE: no phase has any)
TN_FIELDS = 24

# ---- why the machine stopped --------------------------------------------------------------
ERR_RULE = 1           # a rule failed as it ran (the interpreter raises a GameError there)
ERR_OVERFLOW = 2       # a number left the range the machine computes in
ERR_ROOM = 3           # a scratch region ran out of room
ERR_SETUP = 4          # the set-up cannot be made (the interpreter says why)
ERR_STUCK = 5          # a loop of the flow never reached a decision

NONE = -(1 << 62)      # a modifier not set (the interpreter's None), and no value at all
LIMIT = 1 << 62        # computed numbers stay within +-LIMIT, else ERR_OVERFLOW: the interpreter's ints never wrap

# ---- the bytecode ---------------------------------------------------------------------------
# An instruction is four numbers: opcode, a, b, c. Values are int64: numbers, 0/1 for truth,
# words as their ids, places and seats as indices (-1: nobody, nothing), rows as indices (-1),
# lists as offsets into the scratch arena. `slot` operands index the program's frame.
OP_HALT = 0            # return the top of the stack (or 0)
OP_JUMP = 1            # pc = a
OP_JUMP_IF_NOT = 2     # pop; if 0: pc = a
OP_JUMP_IF = 3         # pop; if not 0: pc = a
OP_POP = 4
OP_CONST = 5           # push a
OP_LOAD = 6            # push frame[a]
OP_STORE = 7           # frame[a] = pop
OP_ADD = 8
OP_SUB = 9
OP_MUL = 10
OP_DIV = 11            # floor division; a rule failure on 0
OP_NEG = 12
OP_NOT = 13
OP_BOOL = 14
OP_EQ = 15
OP_NE = 16
OP_LT = 17
OP_LE = 18
OP_GT = 19
OP_GE = 20
OP_MIN = 21
OP_MAX = 22
OP_ABS = 23
OP_PLAYERS = 24
OP_SEAT = 25           # the acting seat
OP_START_PLAYER = 26
OP_NEXT_PLAYER = 27
OP_AGE = 28
OP_ROUND = 29
OP_OPTION = 30         # push the word option a holds
OP_MOD = 31            # pop index; push modifier a's value there (its default when unset)
OP_COLUMN = 32         # pop place; push column a of it
OP_TOKEN = 33          # pop place; push its tokens of kind a
OP_OWNED = 34          # pop place; push 1 if someone owns it
OP_OWNER = 35          # pop place; push its owner, -1 for nobody
OP_RESOURCE = 36       # pop seat; push its resource a
OP_HAND_SIZE = 37      # pop seat; push how many cards it holds
OP_MEMBER = 38         # push a phase's member: a the member kind, b the phase, c an argument
OP_ROW_COLUMN = 39     # pop row; push column b of row table a (0 for no row)
OP_SOME = 40           # the top is a seat of someone: a rule failure for nobody
OP_ALL_PLACES = 41     # push the list of every place
OP_SEATS = 42          # push the list of every seat
OP_OTHERS = 43         # push every seat but the acting one, clockwise from the next
OP_OWNED_PLACES = 44   # pop seat; push the list of the places it owns
OP_LIST = 45           # pop a values; push them as a list, in order
OP_CONST_LIST = 46     # push the constant list at T offset a
OP_LEN = 47            # pop list; push its length
OP_RESERVE = 49        # push a new empty list with room for as many items as the list on top
OP_APPEND = 50         # pop value; append it to the list in frame[a]
OP_MARK = 51           # frame[a] = the arena's top
OP_ACC_MIN = 53        # pop v; frame[a] = v if frame[b] == 0 else min(frame[a], v); frame[b] = 1
OP_ACC_MAX = 54
OP_ACC_ADD = 55        # pop v; frame[a] += v
OP_ACC_ALL = 56        # pop v; frame[a] = frame[a] and bool(v)
OP_ACC_ANY = 57
OP_CHECK_PLACE = 58    # the top is a place: a rule failure if it is not one
OP_CHECK_SEAT = 59     # the top is a seat of this game: a rule failure if it is not one
OP_PLACE_ID = 60       # pop place; push the word of its id
OP_FOR = 61            # a loop's step: the list in slot a, its index and the arena's mark in the two
                       # temporaries after it: give the arena back to the mark; at the list's end pc = c,
                       # else the next element into slot b
OP_SLOT_COLUMN = 62    # push column b of the place in slot a
OP_SLOT_TOKEN = 63     # push the tokens of kind b on the place in slot a
# statements
OP_GAIN = 64           # pop amount, pop seat: seat gains amount of resource a
OP_TRANSFER = 65       # pop amount, pop taker, pop giver: resource a
OP_DRAW = 66           # pop count, pop seat: from deck a
OP_PLACE_TOKENS = 67   # pop count, pop place: token a
OP_REMOVE_TOKENS = 68
OP_MOVE_TOKENS = 69    # pop count, pop target, pop source
OP_CONVERT = 70        # pop count, pop place: a -> b
OP_SET_OWNER = 71      # pop seat (-1: nobody), pop place
OP_SET_MOD = 72        # pop value, pop index: modifier a
OP_ADD_MOD = 73        # pop value, pop index: modifier a += value
OP_SET_START = 74      # pop seat

# members (OP_MEMBER's a)
MEMBER_KEPT = 0        # push kept field c of phase b (NONE-aware: -1 when absent)
MEMBER_OUTBID = 1      # placement: whether the acting seat is outbid (phase b)
MEMBER_DECK_LEFT = 2   # cards left in deck c
MEMBER_KEPT_OR_ZERO = 3   # kept field c of phase b, 0 when the phase has kept nothing
MEMBER_TILE = 4        # the row of phase b's table its kept tile is read as (-1: none)

# ---- each mechanic's row of parameters (at PHASE_PARAMS) and working data (at TH_S_WORK) ------
# Every mechanic that takes turns keeps the same head of working data: how many seats are in
# its order, the order, then its index (or turn counter); its own fields follow (W_OWN + seats).
W_N = 0
W_ORDER = 1
W_DONE = 0             # an automatic mechanic's one flag: its work is done (it keeps no order)

PL_DECK, PL_COUNT, PL_N_SPACES, PL_SPACES, PL_PAY, PL_ON_WIN, PL_PRICE_KEY, PL_WIN_KEY = 0, 1, 2, 3, 4, 5, 6, 7
PL_BLOCK_MOD, PL_REBID_MOD, PL_BID_BASE = 8, 9, 10
WPL_RESOLVED, WPL_NLOTS, WPL_LOTS = 0, 1, 2       # after the turn head; the bids follow the lots (2 a seat)

MK_PAY, MK_N_GOODS, MK_GOODS, MK_PRICE_KEY, MK_GOODS_KEY, MK_PLACE_BASE, MK_CLOSING = 0, 1, 2, 3, 4, 5, 6
MK_N_SOLD, MK_SOLD, MK_N_SLOT = 7, 8, 9
# MK_GOODS: per good MKG_FIELDS numbers: the good, its limit, its buy ids' base, its price curve
# (a program), the curve's prices tabled by count and their running highest (-1: not tabled).
MKG_GOOD, MKG_LIMIT, MKG_BASE, MKG_PRICE, MKG_PRICES, MKG_PEAKS, MKG_FIELDS = 0, 1, 2, 3, 4, 5, 6
WMK_STAGE, WMK_TOKEN, WMK_COUNT = 0, 1, 2

SO_PAY, SO_MINIMUM, SO_STEAL_CARD, SO_STEAL_GAIN, SO_STEAL_COUNTS, SO_ATTACH_WINDOW = 0, 1, 2, 3, 4, 5
SO_CARD_DECK, SO_CARD_WORTH, SO_N_RANKS, SO_RANKS, SO_OTHERS, SO_OTHERS_BY_TURN = 6, 7, 8, 9, 10, 11
SO_N_GOODS, SO_GOODS, SO_NEW_START, SO_TILES, SO_N_TILES, SO_TILE_RANGES, SO_ADJUST_MOD = 12, 13, 14, 15, 16, 17, 18
SO_OFFER_KEY, SO_REWARD_KEY, SO_STEAL_KEY, SO_MOST, SO_ATTACH_BASE, SO_N_ATTACHABLE = 19, 20, 21, 22, 23, 24
SO_ATTACHABLE, SO_OFFER_BASE, SO_STEAL_BASE, SO_RESOLVE, SO_ATTACH_CAP = 25, 26, 27, 28, 29
WSO_STAGE, WSO_TOTAL, WSO_QN = 0, 1, 2      # then offer kinds, amounts, attached counts, attached, queue
OFFER_NONE, OFFER_AMOUNT, OFFER_CARD, OFFER_STEAL = 0, 1, 2, 3
STAGE_OFFER, STAGE_RESOLVE, STAGE_REWARD = 0, 1, 2

SC_RES, SC_N_AWARDS, SC_AWARDS = 0, 1, 2
AW_KEY, AW_KIND, AW_WHEN, AW_VALUE, AW_N_POINTS, AW_POINTS, AW_AMONG, AW_N_KEYS, AW_KEYS = 0, 1, 2, 3, 4, 5, 6, 7, 8
AW_AVERAGE, AW_TALLY = 9, 10
AW_FIELDS = 11
AWARD_POINTS, AWARD_BEST, AWARD_RANK = 0, 1, 2

RS_N_REMOVE, RS_REMOVE, RS_RELEASE, RS_DECK, RS_FROM_DISCARDS, RS_FROM_SET_ASIDE, RS_KEY = 0, 1, 2, 3, 4, 5, 6

IN_AMOUNT, IN_RES, IN_INSTEAD, IN_KEY = 0, 1, 2, 3
