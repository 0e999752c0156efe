"""Any rules file as an environment of the tools reinforcement-learning and game-theory
researchers already use, with no code per game:

- `amunre.adapters.pettingzoo`: `env(rules, players, seed)`, a PettingZoo AEC environment
  (`pip install 'amunre[pettingzoo]'`);
- `amunre.adapters.openspiel`: every shipped rules file registered as an OpenSpiel game,
  `pyspiel.load_game("amunre_<file name>")`, with explicit chance nodes
  (`pip install 'amunre[openspiel]'`);
- `amunre.adapters.gymnasium`: a single-agent Gymnasium environment, one learner against our
  bots (`pip install 'amunre[gymnasium]'`);
- `amunre.adapters.explicit`: a game whose every random draw is a chance node, for any tool
  that wants chance outcomes (OpenSpiel's adapter is built on it).

Each steps its games on the compiled engine where it plays the rules file (`engine="auto"`,
the default; `adapters/engine.py`), else on the interpreter: the same games either way.

Each module imports its library itself, so `import amunre` never needs them. See
docs/adapters.md for the observation and action spaces, rewards, seeding and chance.
"""
