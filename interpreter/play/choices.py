"""An effect's choices as actions: every allowed combination of its `choose`s is one action id
of the effect's block (one field per choice), and an action's fields give the values back.

Requirements are checked as soon as the choices they read are made, so a combination that
cannot be allowed is dropped without enumerating the choices after it.
"""

from __future__ import annotations

from typing import Any

from ..base.actions import Block, Domain, Places, Seats, Values, value_key
from ..dsl.context import Ctx
from ..model import Game


def allowed_ids(game: Game, seat: int, effect: Any, block: Block, cause: Any, env: dict[str, Any] | None = None,
                first: int = 0, base: int | None = None) -> list[int]:
    """The ids of `block` (an effect's actions) whose choices meet every requirement, in id order.
    The choices' fields may start at field `first` of the block, from the id `base`, with names
    already bound in `env` (a draft's card, say)."""
    ctx = Ctx(game, seat, dict(env) if env else {}, None, cause)
    choices, requires = effect.choices, effect.requires
    start = block.base if base is None else base
    if not choices:                                  # requirements only (all read no choice)
        for _, req in requires:
            if not req(ctx):
                return []
        return [start]
    if not requires and len(choices) == 1:           # one choice, nothing required: each option
        lookup, stride = getattr(block.fields[first][1], "lookup", None), block.strides[first]
        ids = []                                     # a loop: cheaper than a comprehension's call
        for value in choices[0].options(ctx):
            ids.append(start + (value if lookup is None else lookup[value_key(value)]) * stride)
        return ids
    strides, domains = block.strides[first:], [domain for _, domain in block.fields[first:]]
    out: list[int] = []

    def walk(level: int, total: int) -> None:
        for need, req in requires:
            if need == level and not req(ctx):
                return
        if level == len(choices):
            out.append(total)
            return
        choice, stride, domain = choices[level], strides[level], domains[level]
        lookup = getattr(domain, "lookup", None)
        for value in choice.options(ctx):
            ctx.env[choice.name] = value
            index = value if lookup is None else lookup[value_key(value)]
            walk(level + 1, total + index * stride)
        ctx.env.pop(choice.name, None)

    walk(0, start)
    return out


def env_of(block: Block, indices: tuple[int, ...], first: int = 0) -> dict[str, Any]:
    """The chosen values of an action of an effect's block, by choice name (places and seats as
    indices, other values as written), from field `first` on."""
    env = {}
    for (name, domain), index in zip(block.fields[first:], indices[first:]):
        values = getattr(domain, "values", None)
        env[name] = index if values is None else values[index]
    return env


def choice_fields(effect: Any, material: Any) -> tuple:
    """The fields of the actions that make an effect's choices: one per `choose`, in order."""
    fields = []
    for choice in effect.choices:
        kind = choice.choice.kind
        domain: Domain
        if kind == "places":
            domain = Places(material.places)
        elif kind == "seats":
            domain = Seats(material.players)
        else:
            domain = Values(choice.choice.values)
        fields.append((choice.name, domain))
    return tuple(fields)
