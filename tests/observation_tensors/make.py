"""Record what observation_tensor() gives in seeded random games (run once, never to make a test pass).

    python tests/observation_tensors/make.py            # refuses to overwrite digests.json
    python tests/observation_tensors/make.py --add      # record only rules files not recorded yet
    python tests/observation_tensors/make.py --force    # record again (only on purpose)

For every shipped rules file that loads (rules/*.yaml, rules/house/*.yaml), GAMES seeded games
at its fewest and at its most players. Each seat is a random agent choosing uniformly among
`legal_action_ids()` with its own `random.Random`, so the games depend on nothing but the
engine. At every EVERY-th decision (and at the end of the game) the tensor of every seat is
digested: sha256 of its floats packed as IEEE doubles (`struct.pack("<{n}d")`), so two tensors
agree only if they have the same length and the very same floats in the same order (0.0 and
-0.0 differ, as do 1 and 1.0000000000000002). Only the first DIGEST hex digits are kept, to keep
the file small; a 64-bit prefix is ample to catch a change. tests/test_observation_tensor_same.py
plays the same games again and requires the same digests.

`digests.json`: {"every": EVERY, "digest": DIGEST, "games": [{"rules": NAME, "players": P,
"seed": S, "decisions": N, "size": LEN, "digests": [[seat 0, seat 1, ...] per recorded
decision]}]}, NAME relative to rules/.
"""

from __future__ import annotations

import hashlib
import json
import random
import struct
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
OUT = HERE / "digests.json"
GAMES = 3            # per rules file and player count
EVERY = 2            # record every EVERY-th decision
DIGEST = 16          # hex digits kept of each sha256
MAX_DECISIONS = 5000  # a game longer than this is taken to be stuck


def rules_files() -> list[Path]:
    return sorted((REPO / "rules").glob("*.yaml")) + sorted((REPO / "rules" / "house").glob("*.yaml"))


def digest(tensor: list[float]) -> str:
    """The tensor's exact floats, in order, as a short hex digest."""
    return hashlib.sha256(struct.pack(f"<{len(tensor)}d", *tensor)).hexdigest()[:DIGEST]


def seed_of(name: str, players: int, game: int) -> int:
    """A seed that differs between rules files, player counts and games, stable across runs."""
    return int(hashlib.sha256(f"{name}:{players}:{game}".encode()).hexdigest()[:8], 16)


def play(rules: Any, players: int, seed: int, every: int = EVERY) -> Iterator[tuple[int, list[list[float]]]]:
    """(decision number, every seat's tensor) at every `every`-th decision of one seeded game, the
    position after the last action included. The agents draw from their generators at every
    decision, recorded or not, so the games do not depend on `every`."""
    from amunre.interpreter.game import new_game
    game = new_game(rules, players=players, seed=seed, events=False)
    pickers = [random.Random(seed * 101 + s + 1) for s in range(players)]
    decision = 0
    while True:
        if game.over or decision % every == 0:
            yield decision, [game.observation_tensor(s) for s in range(players)]
        if game.over:
            return
        if decision >= MAX_DECISIONS:
            raise RuntimeError(f"seed {seed}: no end after {MAX_DECISIONS} decisions")
        game.apply_id(pickers[game.to_move].choice(game.legal_action_ids()))
        decision += 1


def games(skip: frozenset[str] = frozenset()) -> Iterator[tuple[str, Any, int, int]]:
    """(name, rules, players, seed) of every recorded game, in order, but those of the rules
    files named in `skip`; rules that fail to load are left out (with a note on stderr)."""
    from amunre.interpreter.game import load_rules
    for path in rules_files():
        name = str(path.relative_to(REPO / "rules"))
        if name in skip:
            continue
        try:
            rules = load_rules(str(path))
        except Exception as exc:        # a shipped file that does not load is only left out
            print(f"skipped {name}: {exc}", file=sys.stderr)
            continue
        for players in sorted({rules.min_players, rules.max_players}):
            for g in range(GAMES):
                yield name, rules, players, seed_of(name, players, g)


def record(skip: frozenset[str] = frozenset()) -> dict[str, Any]:
    out: list[dict[str, Any]] = []
    for name, rules, players, seed in games(skip):
        digests, decisions, size = [], 0, 0
        for decision, tensors in play(rules, players, seed):
            digests.append([digest(t) for t in tensors])
            decisions, size = decision, len(tensors[0])
        out.append({"rules": name, "players": players, "seed": seed, "decisions": decisions, "size": size,
                    "digests": digests})
        print(f"{name} {players}p seed {seed}: {decisions} decisions, tensor of {size}", file=sys.stderr)
    return {"every": EVERY, "digest": DIGEST, "games": out}


def main(argv: list[str]) -> int:
    if OUT.exists() and "--add" in argv:        # a new rules file: its games appended, the others kept
        kept = json.loads(OUT.read_text())
        added = record(frozenset(g["rules"] for g in kept["games"]))["games"]
        kept["games"] += added
        OUT.write_text(json.dumps(kept, separators=(",", ":")) + "\n")
        print(f"added {len(added)} games to {OUT}", file=sys.stderr)
        return 0
    if OUT.exists() and "--force" not in argv:
        print(f"{OUT} exists: record again only on purpose (--force)", file=sys.stderr)
        return 1
    data = record()
    OUT.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes, {len(data['games'])} games)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
