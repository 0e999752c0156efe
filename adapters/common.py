"""What every adapter shares: the rules by object, path or shipped name, the player count,
the seats' names, and the reward convention at the end of a game."""

from __future__ import annotations

import io
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..interpreter.base.errors import AmunreError, shown_repr
from ..interpreter.base.limits import MAX_AMOUNT
from ..interpreter.game import Game, load_rules
from ..interpreter.model import Rules
from ..interpreter.play.observe import observation_bounds

if TYPE_CHECKING:
    from gymnasium.spaces import Box

# How the end of a game pays each seat:
#   win_loss:       +1 to a sole winner, 0 to each of several winners (a shared first place), -1
#                   to every other seat (the winners are the engine's, after its tie-breaks);
#                   general-sum: a 3-player game pays +1 - 1 - 1;
#   win_loss_share: the winners share +1 and the other seats share -1 (+1/w each, -1/(n - w)
#                   each), 0 to all if all win: zero-sum, for algorithms that assume it;
#   points:         the seat's final score less the mean of all seats' (zero-sum, in the rules' points).
REWARDS = ("win_loss", "win_loss_share", "points")
ZERO_SUM_REWARDS = ("win_loss_share", "points")
DEFAULT_REWARD = "win_loss"

# The rules an adapter is given: loaded Rules, a rules file's path, or a shipped rules file's name.
RulesSource = Rules | str | Path


def rules_from(rules: RulesSource) -> Rules:
    """Rules as given, or loaded from a path, or from a shipped name (`amunre editions` lists them)."""
    if isinstance(rules, Rules):
        return rules
    if not isinstance(rules, (str, Path)):
        raise AmunreError(f"rules are loaded Rules, a rules file's path or a shipped name, not {type(rules).__name__}")
    return load_rules(rules)


def options_setup(options: Any) -> dict[str, Any] | None:
    """The set-up that sets the rules' options (None: none set); AmunreError for options that
    are not a mapping of option names to values (`amunre options FILE` lists them)."""
    if options is None:
        return None
    if not isinstance(options, Mapping) or not all(isinstance(name, str) for name in options):
        raise AmunreError(f"options are a mapping of the rules' option names to their values, {{name: value}} "
                          f"(`amunre options FILE` lists them), not {shown_repr(options, 40)}")
    return {"options": dict(options)} if options else None


def checked_learner_seat(seat: Any, players: int) -> int | None:
    """The learner's seat as given: a seat of the game, or None (drawn for every game)."""
    if seat is not None and (type(seat) is not int or not 0 <= seat < players):
        raise AmunreError(f"seat is None (drawn for every game) or a seat from 0 to {players - 1}, "
                          f"not {shown_repr(seat, 40)}")
    return seat


def observation_box(rules: Rules) -> Box:
    """The observation tensor's Gymnasium space: float32 within the bounds the rules give each
    value (Gymnasium and numpy are imported here: only its environments and PettingZoo's ask,
    and importing amunre needs neither)."""
    import numpy as np
    from gymnasium import spaces
    least, most = observation_bounds(rules)
    return spaces.Box(np.array(least, np.float32), np.array(most, np.float32), dtype=np.float32)


def default_players(rules: Rules) -> int:
    """Four, or the nearest count the rules allow (the engine's own default)."""
    return min(max(4, rules.min_players), rules.max_players)


def checked_players(rules: Rules, players: Any) -> int:
    if players is None:
        return default_players(rules)
    if type(players) is not int or not rules.min_players <= players <= rules.max_players:
        raise AmunreError(f"{rules.title or rules.id} is for {rules.min_players} to {rules.max_players} players, "
                          f"not {players!r}")
    return players


def checked_reward(reward: Any) -> str:
    if reward not in REWARDS:
        raise AmunreError(f"reward is one of {', '.join(REWARDS)}, not {reward!r}")
    return reward


def seat_names(players: int) -> list[str]:
    return [f"player_{seat}" for seat in range(players)]


def render_view(game: Game, seat: int, printed: bool = False) -> str | None:
    """What the seat may see as text (what `amunre run` shows a human; the final scores once
    the game is over): returned, or printed to the terminal (`printed`, a render mode "human")."""
    from rich.console import Console

    from ..cli.render import result_table
    from ..cli.seat_view import observation_view
    buffer = None if printed else io.StringIO()
    console = Console() if buffer is None else Console(file=buffer, width=100, color_system=None)
    if game.over:
        console.print(result_table(game.result(), title="Final scores"))
    else:
        observation_view(console, game, seat)
    return None if buffer is None else buffer.getvalue()


def final_rewards(result: dict[str, Any], reward: str) -> list[float]:
    """Each seat's reward for a finished game (see REWARDS)."""
    scores, winners = result["scores"], set(result["winners"])
    if reward == "points":
        mean = sum(scores) / len(scores)
        return [float(score - mean) for score in scores]
    if reward == "win_loss_share":
        losers = len(scores) - len(winners)
        if not losers:
            return [0.0] * len(scores)
        return [1.0 / len(winners) if seat in winners else -1.0 / losers for seat in range(len(scores))]
    won = 1.0 if len(winners) == 1 else 0.0
    return [won if seat in winners else -1.0 for seat in range(len(scores))]


def reward_bounds(reward: str, players: int) -> tuple[float, float]:
    """The least and most reward a seat can get (points: scores within the engine's limits)."""
    if reward != "points":              # a sole winner's +1, a sole loser's -1
        return -1.0, 1.0
    most = 2.0 * MAX_AMOUNT * (players - 1) / players
    return -most, most
