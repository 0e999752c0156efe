"""Every limit a rules file, a save or a game is held to, in one place (docs/limits.md lists
them with their reasons). The check of a YAML text against the file limits, before it is
parsed, is load/yaml_guard.py.
"""

from __future__ import annotations

# ---- a file ---------------------------------------------------------------------------------
MAX_FILE_BYTES = 1_000_000           # a rules file (the 2016 edition: about 15 kB)
MAX_YAML_DEPTH = 40                  # mappings and lists inside each other
MAX_YAML_VALUES = 200_000            # values in the file once aliases are expanded
MAX_DIGITS = 15                      # digits of a number, in YAML or in the DSL (below 10^15)
MAX_EXTENDS = 16                     # files in an `extends` chain
MAX_PATH_BYTES = 4_096                # a file name `extends` gives (the system's own limit, PATH_MAX)

# ---- the DSL ------------------------------------------------------------------------------------
MAX_DSL_LENGTH = 2_000               # characters of one DSL string
MAX_DSL_DEPTH = 50                   # expressions nested in each other (parentheses, operators)
MAX_DSL_COST = 1_000_000             # steps one evaluation of a rule may take, by dsl/cost.py (shipped: 520,716)

# ---- what a rules file declares (the first three also stated in grammar/rules.schema.json) ------
MAX_PLAYERS = 8
MAX_SUPPLY = 100_000                 # pieces of one token supply
MAX_CARD_COPIES = 10_000             # copies of one card
MAX_PLACES = 1_000
MAX_FLOW_NODES = 1_000               # nodes of the order of play (phases, sequences, repeats, branches)
MAX_PASSES = 10_000                  # passes of a repeat with a fixed number of `times`
MAX_PHASES_RUN = 10_000              # phases a flow runs, its repeats of no fixed number counted once
MAX_CARDS = 10_000                   # cards of all decks together
MAX_ACTIONS = 100_000                # ids of the action space (sized by bid spaces, supplies, a resource's max...)
MAX_HELD_AMOUNT = 10_000             # the max of a resource held as cards (a payment searches the sums of its cards)

# ---- a game ---------------------------------------------------------------------------------------
MAX_AMOUNT = 10 ** 15                # any resource of a seat, in either direction
STEP_LIMIT = 1_000_000               # automatic steps between two decisions: more, and the rules are stuck
MAX_DECISIONS_PER_STEP = 100_000     # decisions within one step of the schedule
MAX_SAVE_ACTIONS = 1_000_000         # actions a save may hold (also in grammar/save.schema.json)
MAX_LOG_BYTES = 200_000_000          # a game log that `amunre replay` reads

# ---- what the tools and the command line run ---------------------------------------------------
MAX_GAMES = 10_000_000               # games of one simulation, comparison, arena or `validate --play`
MAX_ITERATIONS = 10_000_000          # iterations of a search agent per decision (ismcts: 300 by default)
MAX_DECISION_MS = 3_600_000          # milliseconds a search agent may think per decision: an hour
RAY_CONNECT_SECONDS = 60             # to reach a Ray cluster (`--backend ray --address`): then it is not there
