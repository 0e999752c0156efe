"""The public observation: what every seat sees, with nothing only one seat may see. Proved by
guesses: a guess drawn for any seat redraws everything that seat cannot see (other hands, the
decks' order, others' secret choices), so a view equal in every seat's guesses holds nothing
private to any seat. And the OpenSpiel public observer built on it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import amunre
from amunre.interpreter.play.observe import observation_bounds
from amunre.tools.determinize import determinize

REPO = Path(__file__).parents[1]
EDITIONS = sorted(path.stem for path in REPO.glob("rules/*.yaml"))


@pytest.mark.parametrize("name", EDITIONS)
def test_the_public_view_is_the_same_in_every_seats_guess(name: str) -> None:
    rules = amunre.load_rules(name)
    players = rules.max_players
    least, most = observation_bounds(rules)
    game = amunre.new_game(rules, players, seed=11, events=False)
    pick, checked, private = random.Random(11), 0, 0
    while not game.over:
        if len(game.history) % 7 == 3:
            public, tensor = game.public_observation(), game.public_observation_tensor()
            assert public["seat"] is None and public["private"] == {}
            assert all(least[i] <= x <= most[i] for i, x in enumerate(tensor))
            for seat in range(players):
                guess = determinize(game, seat, random.Random(seat + len(game.history)))
                assert guess.public_observation() == public, (name, len(game.history), seat)
                assert guess.public_observation_tensor() == tensor, (name, len(game.history), seat)
                private += game.observation_tensor(seat) != tensor      # a seat sees more than the public
            checked += 1
        game.apply_id(pick.choice(game.legal_action_ids()))
    assert checked > 10 and private == checked * players          # at least its own seat's one-hot


def test_the_public_view_shows_no_hand_and_no_secret_offer() -> None:
    game = amunre.new_game(amunre.load_rules("knizia2016-expert"), 4, seed=2, events=False)
    pick = random.Random(2)
    while not (game.state.working and game.state.working.get("stage") == "offer"
               and any(game.state.working["offers"])):
        game.apply_id(pick.choice(game.legal_action_ids()))
    public = game.public_observation()
    assert all(card == "?" for hand in public["hands"] for card in hand if card != "theft")
    assert all(offer in (None, "hidden") for offer in public["phase"]["offers"])
    layout = {piece["name"]: piece for piece in game.observation_layout()}
    tensor = game.public_observation_tensor()
    for name in ("seat", "hand"):
        piece = layout[name]
        assert tensor[piece["offset"]:piece["offset"] + piece["size"]] == [0.0] * piece["size"]


def test_openspiels_public_observer_is_the_same_for_every_player_and_every_guess() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.observation import make_observation

    from amunre.adapters.openspiel import short_name

    game = pyspiel.load_game(short_name("knizia2016-expert"), {"players": 3})
    public = pyspiel.IIGObservationType(public_info=True, perfect_recall=False,
                                        private_info=pyspiel.PrivateInfoType.NONE)
    observer = make_observation(game, public)
    pick = random.Random(5)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.history()) < 140:
        state.apply_action(pick.choice([o for o, _ in state.chance_outcomes()] if state.is_chance_node()
                                       else state.legal_actions()))
    views = []
    for player in range(3):
        observer.set_from(state, player)
        views.append((observer.tensor.tolist(), observer.string_from(state, player)))
    assert views[0] == views[1] == views[2]
    for player in range(3):
        guess = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(player, 0.0, 1.0))
        observer.set_from(guess, 0)
        assert (observer.tensor.tolist(), observer.string_from(guess, 0)) == views[0]
    with pytest.raises(ValueError, match="public information alone"):
        make_observation(game, pyspiel.IIGObservationType(public_info=True, perfect_recall=True,
                                                          private_info=pyspiel.PrivateInfoType.NONE))
