"""A hand-written reference engine for the 2016 rules (default options), for speed and truth.

No rules file, no DSL: the rules are coded directly, as fast as plain Python plays them. Only
the random generator is the interpreter's (amunre.interpreter.base.rng), drawn from in the same
order, so that a seed deals the same cards and the same random agents play the same games. The
benchmark times it against the interpreter (benchmarks/bench_reference.py), and
tests/test_reference_oracle.py plays both in lockstep and requires them to agree on every
legal action, the income and the scoring.
"""

from .engine import Game, IllegalAction

__all__ = ["Game", "IllegalAction"]
