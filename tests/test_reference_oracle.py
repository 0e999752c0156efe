"""The interpreter against an oracle: benchmarks/reference/, the 2016 rules (default options)
coded by hand in plain Python, with no rules file and no DSL.

Both engines start from the same seed (the reference draws from the same random generator in
the same order), and the same choices are applied to both, one action at a time. At every
position they must agree on the material position (gold, points, hands, provinces and their
pieces, supplies, decks and discard piles, start player, tile, generator), on the legal
actions (as sets of the interpreter's dicts, then in the same order, which lets the benchmark
play the very same games in both), on what each seat's harvest would yield now, on what each
seat would score at an age's end now (by source) and at the game's end, and at last on the
result. Agents of three styles reach different corners: uniform choices; a spender who
mostly takes the biggest action; a hoarder starting rich, who plays every card it can and
never sells unless asked to, so supplies run out and every card is played.

A test that cannot fail is a defect: `test_the_oracle_catches_a_wrong_rule` breaks one rule of
the reference at a time (among them the corrections of the 2016 rules audit: the sales to
afford, the last chance to sell, single rewards in turn order) and requires the comparison to
find the difference.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Callable
from typing import Any

import pytest

import amunre
from amunre.interpreter.dsl.context import Ctx
from amunre.tools.agents.forecast import forecast
from conftest import REPO, RULES_PATH


def _load_reference() -> Any:
    """benchmarks/reference/ by its path (it is benchmark code, not part of the package)."""
    name, folder = "amunre_reference_engine", REPO / "benchmarks" / "reference"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, folder / "__init__.py",
                                                      submodule_search_locations=[str(folder)])
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


reference = _load_reference()
from amunre_reference_engine import board, dicts  # noqa: E402  (found by path just above)
from amunre_reference_engine.auction import Auction  # noqa: E402
from amunre_reference_engine.market import Market  # noqa: E402
from amunre_reference_engine.offering import Offering  # noqa: E402
from amunre_reference_engine.scoring import Scoring  # noqa: E402

STYLES = ("uniform", "spender", "hoarder")
SEEDS = range(3)             # per style and player count


@pytest.fixture(scope="module")
def rules() -> Any:
    return amunre.load_rules(RULES_PATH)


# ---- what each engine says about a position ------------------------------------------------------
def interpreter_position(game: amunre.Game) -> dict[str, Any]:
    state = game.state
    return {
        "gold": [r["gold"] for r in state.resources], "vp": [r["vp"] for r in state.resources],
        "hands": [sorted(hand) for hand in state.hands], "owner": list(state.owner),
        "tokens": [{k: v for k, v in tokens.items() if v} for tokens in state.tokens], "supply": dict(state.supply),
        "province_deck": list(state.decks["provinces"]), "province_discards": list(state.discards["provinces"]),
        "favor_deck": list(state.decks["favor"]), "favor_discards": list(state.discards["favor"]),
        "start_player": state.start_player, "tile": (state.kept.get("offering") or {}).get("tile"),
        "rng": state.rng, "over": state.over, "to_move": state.to_move,
    }


def interpreter_forecasts(game: amunre.Game) -> dict[str, Any]:
    """Each seat's harvest now, its age's-end points by source now, its final points now."""
    phases, n = game.rules.phases, game.state.players
    age: dict[str, list[int]] = {}
    scoring = phases["age_scoring"]
    for award in scoring.awards:
        if award.when is None or award.when.fn(Ctx(game)):
            row = age.setdefault(award.id, [0] * n)
            for seat, points in scoring.points(game, award).items():
                row[seat] += points
    return {"income": [forecast(phases["harvest"], game, seat)["gold"] for seat in range(n)],
            "age_end": age, "final": [forecast(phases["final_scoring"], game, seat)["vp"] for seat in range(n)]}


def reference_forecasts(game: Any) -> dict[str, Any]:
    return {"income": [game.income(seat) for seat in range(game.players)], "age_end": game.age_points(),
            "final": game.final_points()}


# ---- playing both in lockstep -------------------------------------------------------------------
def choose(legal: list[dict[str, Any]], rnd: random.Random, style: str) -> int:
    """The index of the action an agent of this style picks."""
    if style == "uniform":
        return rnd.randrange(len(legal))
    if style == "spender":
        keep = [i for i, action in enumerate(legal) if action["type"] != "sell"]
        return max(keep) if keep and rnd.random() < 0.7 else rnd.randrange(len(legal))
    acts = [i for i, action in enumerate(legal) if action["type"] not in ("sell", "pass", "done", "collect")]
    plays = [i for i in acts if legal[i]["type"] == "play"]
    if plays:
        return rnd.choice(plays)
    if acts:
        return max(acts) if rnd.random() < 0.8 else rnd.choice(acts)
    return rnd.randrange(len(legal))


def disagreement(rules: Any, players: int, seed: int, style: str) -> str | None:
    """Play one game in both engines; the first thing they disagree on, or None."""
    rnd = random.Random(seed)
    gold = None
    if style == "hoarder":
        gold = [392] * players
    elif seed % 2:
        gold = [rnd.choice([0, 5, 20, 60, 150]) for _ in range(players)]
    interpreter = amunre.new_game(rules, players, seed, setup={"resources": {"gold": gold}} if gold else None,
                                  events=False)
    ref = reference.Game(players, seed, gold)
    for step in range(5000):
        where = f"{players} players, seed {seed}, {style}, action {step} ({interpreter.step.phase})"
        mine, theirs = interpreter_position(interpreter), dicts.position(ref)
        if mine != theirs:
            return where + ": positions differ: " + "; ".join(
                f"{key}: interpreter {mine[key]}, reference {theirs[key]}" for key in mine if mine[key] != theirs[key])
        mine, theirs = interpreter_forecasts(interpreter), reference_forecasts(ref)
        if mine != theirs:
            return f"{where}: forecasts differ: interpreter {mine}, reference {theirs}"
        if interpreter.over:
            mine, theirs = interpreter.result(), ref.result()
            return None if mine == theirs else f"{where}: results differ: interpreter {mine}, reference {theirs}"
        legal, ref_legal = interpreter.legal_actions(), dicts.legal_dicts(ref)
        as_set = {tuple(sorted(a.items())) for a in legal}
        ref_set = {tuple(sorted(a.items())) for a in ref_legal}
        if as_set != ref_set:
            return (f"{where}: seat {interpreter.to_move}: only the interpreter allows {sorted(as_set - ref_set)}; "
                    f"only the reference allows {sorted(ref_set - as_set)}")
        if legal != ref_legal:
            return f"{where}: the same legal actions in another order: {legal} / {ref_legal}"
        index = choose(legal, rnd, style)
        interpreter.apply(legal[index])
        ref.apply(dicts.action_of(ref, legal[index]))
    return f"{players} players, seed {seed}, {style}: no end after 5000 actions"


@pytest.mark.parametrize("players", (3, 4, 5))
@pytest.mark.parametrize("style", STYLES)
def test_both_engines_agree_at_every_position(rules: Any, style: str, players: int) -> None:
    for seed in SEEDS:
        found = disagreement(rules, players, seed, style)
        assert found is None, found


def test_the_reference_plays_a_whole_game_by_itself() -> None:
    game = reference.Game(4, 7)
    rnd = random.Random(7)
    actions = 0
    while not game.over:
        game.apply(rnd.choice(game.legal))
        actions += 1
    result = game.result()
    assert 150 < actions < 400 and result["over"] and result["winners"]
    with pytest.raises(reference.IllegalAction):
        game.apply(0)


# ---- a broken reference must be caught -----------------------------------------------------------
def _wrapped(cls: type, name: str, after: Callable[..., None]) -> Callable[..., Any]:
    """cls.name, then `after` with the same arguments."""
    original = getattr(cls, name)

    def method(self: Any, *args: Any) -> Any:
        out = original(self, *args)
        after(self, *args)
        return out
    return method


def _filtered(cls: type, name: str, keep: Callable[[Any, int], bool]) -> Callable[..., list[int]]:
    """cls.name, keeping only the actions `keep(game, action)` allows."""
    original = getattr(cls, name)
    return lambda self, *args: [action for action in original(self, *args) if keep(self, action)]


def _open_field(self: Any, action: int) -> bool:
    province = action - board.PLAY_FREE_FARMER
    return not 0 <= province < len(board.NAMES) or board.FIELDS[province] > self.farmer[province]


def _no_protection(self: Any, seat: int, action: int) -> None:
    self.protected[seat] = 0


def _rewards_by_offer(self: Any) -> None:
    self.queue[2:] = sorted(self.queue[2:], key=lambda item: -self.offers[item[0]])


BROKEN = {
    "sales to afford ignored": (Market, "_selling_would_pay", lambda self, seat, gold: False),
    "no last chance to sell": (Scoring, "_last_sales", lambda self, seat: []),
    "single rewards by offer, not turn order": (Offering, "_settle", _wrapped(Offering, "_settle", _rewards_by_offer)),
    "protection blocks nothing": (Auction, "_auction_act", _wrapped(Auction, "_auction_act", _no_protection)),
    "nile ties not broken by stones": (Scoring, "_side_key", lambda self, province: (self.pyramids(province), 0)),
    "free farmers need an open field": (Market, "_market_plays", _filtered(Market, "_market_plays", _open_field)),
}


@pytest.mark.parametrize("broken", BROKEN)
def test_the_oracle_catches_a_wrong_rule(rules: Any, broken: str, monkeypatch: pytest.MonkeyPatch) -> None:
    cls, name, replacement = BROKEN[broken]
    monkeypatch.setattr(cls, name, replacement)
    for seed in range(10):
        for style in STYLES:
            for players in (3, 4, 5):
                if disagreement(rules, players, seed, style) is not None:
                    return
    pytest.fail(f"the oracle did not notice: {broken}")
