"""The verbs compiled rules call (dsl/names.py `Verbs`): the play layer's functions that read
modifiers and owners and change the material, handed to the DSL with the vocabulary."""

from __future__ import annotations

from ..dsl.names import Verbs
from . import material, modifiers

VERBS = Verbs(gain=material.gain, transfer=material.transfer, draw=material.draw,
              place_tokens=material.place_tokens, remove_tokens=material.remove_tokens,
              move_tokens=material.move_tokens, convert=material.convert, set_owner=material.set_owner,
              owned_places=material.owned_places, read_modifier=modifiers.read, set_modifier=modifiers.set_by_rule)
