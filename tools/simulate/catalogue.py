"""Everything a rules file could make happen, so a report can list what never did: every way
an action can name a card (play it, sell it, offer it...), every scoring award, every row a
phase can pick and keep (a row of a table, such as a tile), each with the label the rules give it.

Read from the compiled rules alone: the action space's blocks for cards, the `score`
mechanic's awards, and every phase's possible picks (simulate's registry `POSSIBLE_PICKS`,
tools/simulate/picks.py: a secret offer's tiles, a select phase's options, the places a reveal
may turn up).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...interpreter.base.actions import Values
from ...interpreter.mechanics.score import Score
from ...interpreter.model import Rules
from .picks import possible_picks


@dataclass(frozen=True)
class Catalogue:
    card_actions: tuple[tuple[str, str], ...]          # (action type, card), in action-space order
    awards: tuple[tuple[str, str], ...]                # (resource, award id): what it gives, and its source
    picks: tuple[tuple[str, str, Any], ...]            # (phase, key, value) a phase may keep
    labels: dict[tuple[str, str, Any], str]            # a pick as the rules label it


def catalogue(rules: Rules) -> Catalogue:
    cards: list[tuple[str, str]] = []
    for block in rules.actions.blocks:
        fixed = dict(block.fixed)
        if "card" in fixed:
            cards.append((block.type, fixed["card"]))
        for name, domain in block.fields:
            if name == "card":
                assert isinstance(domain, Values)     # a card field lists card ids (load/build_rules.py)
                cards.extend((block.type, card) for card in domain.values)
    awards: list[tuple[str, str]] = []
    picks: list[tuple[str, str, Any]] = []
    labels: dict[tuple[str, str, Any], str] = {}
    for phase, mech in rules.phases.items():
        if isinstance(mech, Score):
            awards.extend((mech.resource, award.id) for award in mech.awards)
        for key, value in possible_picks(mech, rules):
            pick = (phase, key, value)
            picks.append(pick)
            labels[pick] = mech.describe_kept(key, value)
    return Catalogue(tuple(dict.fromkeys(cards)), tuple(dict.fromkeys(awards)), tuple(picks), labels)
