"""From a rules file to compiled `Rules`: the YAML read with the position of every value,
`extends` merged, the schema checked, every name and DSL string compiled into the model, and
the result cached. Imports every other part of the engine but game.py and saves.py."""
