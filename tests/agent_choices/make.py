"""Record the choices of the deterministic bots on seeded games, once, before the speed work
of the agents (issue 23): tests/test_agent_choices.py plays the same games and requires the
very same action ids, so that a faster search is the same search.

    python tests/agent_choices/make.py            # writes choices.json beside this file

Run it only to record a new reference on purpose (a change meant to alter the bots' play):
never to make the test pass.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from amunre.interpreter.game import load_rules, new_game
from amunre.tools.agents import choose_id, make_agent
from amunre.tools.simulate.seeds import agent_seed, game_seed

HERE = Path(__file__).parent
RULES = Path(__file__).parents[2] / "rules"

# (rules file, players, agent spec per seat, games): 50 games of each bot.
SETS = (
    ("knizia2016.yaml", 4, ("greedy",) * 4, 20),
    ("knizia2016-expert.yaml", 3, ("greedy",) * 3, 6),
    ("knizia2003.yaml", 5, ("greedy",) * 5, 6),
    ("knizia2003-online.yaml", 4, ("greedy",) * 4, 6),
    ("pharaohs-heir.yaml", 3, ("greedy",) * 3, 6),
    ("modern-art.yaml", 4, ("greedy",) * 4, 6),
    ("knizia2016.yaml", 4, ("ismcts:iterations=12", "random", "greedy", "random"), 20),
    ("knizia2016-expert.yaml", 3, ("ismcts:iterations=12",) * 3, 6),
    ("knizia2003.yaml", 3, ("ismcts:iterations=12", "greedy", "ismcts:iterations=12"), 6),
    ("knizia2003-online.yaml", 4, ("random", "ismcts:iterations=12", "random", "random"), 6),
    ("pharaohs-heir.yaml", 3, ("ismcts:iterations=12", "greedy", "random"), 6),
    ("modern-art.yaml", 3, ("ismcts:iterations=12", "random", "random"), 6),
)


def play(rules_file: str, players: int, specs: tuple[str, ...], index: int) -> list[int]:
    """The action ids of one seeded game, as `amunre simulate` would seed it."""
    rules = load_rules(str(RULES / rules_file))
    seed = game_seed(23, index)
    bots = [make_agent(spec, agent_seed(seed, seat)) for seat, spec in enumerate(specs)]
    game = new_game(rules, players=players, seed=seed, events=False)
    while not game.state.over:
        seat = game.state.to_move
        assert seat is not None
        game.apply_id(choose_id(bots[seat], game))
    return list(game.history)


def main() -> None:
    games = []
    for rules_file, players, specs, count in SETS:
        for index in range(count):
            games.append({"rules": rules_file, "players": players, "agents": list(specs), "index": index,
                          "actions": play(rules_file, players, specs, index)})
            print(rules_file, index, len(games[-1]["actions"]), file=sys.stderr, flush=True)
    (HERE / "choices.json").write_text(json.dumps({"games": games}, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
