"""The observation tensor's plan for the compiled engine: where each piece lies, taken from the
interpreter's own layout (interpreter/play/observe.py `observation_layout`), so that the two
fill one layout and a test can compare them number for number.
"""

from __future__ import annotations

from typing import Any

from ..play.observe import observation_layout
from . import ops


def lower_tensor(lowering: Any) -> tuple[int, dict[str, int]]:
    """The plan's row of T (ops.TN_* fields); and each phase's first piece (its offset), by phase."""
    rules = lowering.rules
    layout = {piece["name"]: piece for piece in observation_layout(rules)}

    def at(name: str) -> int:
        return layout[name]["offset"] if name in layout else -1
    options = []
    for name, option in rules.options.items():
        words = [lowering.value(v) for v in option.values]
        options.append(lowering.put([at(f"option.{name}"), len(words), *words]))
    held = [at(f"held.{name}") for name in rules.denominations]
    mods = []
    for name, mod in rules.vocab.all_modifiers().items():
        words = [lowering.value(w) for w in rules.vocab.enums.get(mod.enum, ())] if mod.enum is not None else []
        mods.append(lowering.put([at(f"mod.{name}"), len(words), *words]))
    played = [at(f"played.{name}") for name in lowering.lifetimes]
    public = [int(not rules.decks[rules.cards[card].deck].hidden) for card in lowering.cards]
    size = sum(piece["size"] for piece in layout.values())
    plan = [0] * ops.TN_FIELDS
    for field, name in ((ops.TN_SEAT, "seat"), (ops.TN_PLAYERS, "players"), (ops.TN_TO_MOVE, "to_move"),
                        (ops.TN_START, "start_player"), (ops.TN_AT, "at"), (ops.TN_PASSES, "passes"),
                        (ops.TN_RESOURCES, "resources"), (ops.TN_HAND, "hand"), (ops.TN_SIZES, "hand_sizes"),
                        (ops.TN_PUBLIC, "public_hands"), (ops.TN_DECKS, "decks"), (ops.TN_DISCARDS, "discards"),
                        (ops.TN_SHOWN, "shown"), (ops.TN_OWNER, "owner"), (ops.TN_TOKENS, "tokens"),
                        (ops.TN_SUPPLY, "supply")):
        plan[field] = at(name)
    plan[ops.TN_SIZE] = size
    plan[ops.TN_OPTIONS] = lowering.put(options)
    plan[ops.TN_HELD] = lowering.put(held)
    plan[ops.TN_MODS] = lowering.put(mods)
    plan[ops.TN_PLAYED] = lowering.put(played)
    plan[ops.TN_PUBLIC_CARD] = lowering.put(public)
    plan[ops.TN_SECRET] = int(bool(rules.hidden_resources))
    firsts = {}
    for pid, mech in rules.phases.items():
        names = [piece.name for piece in mech.tensor_pieces(rules)]
        firsts[pid] = at(names[0]) if names else -1
    plan[ops.TN_PHASES] = min((first for first in firsts.values() if first >= 0), default=size)
    return lowering.put(plan), firsts
