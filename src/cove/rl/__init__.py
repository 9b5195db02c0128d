"""Research environments for every Cove game: PettingZoo, Gymnasium and OpenSpiel.

Needs the ``rl`` extra (``pip install 'cove[rl]'``: numpy, pettingzoo, gymnasium); the
OpenSpiel games need ``cove[openspiel]`` and live in :mod:`cove.rl.openspiel`. ``import
cove`` never imports this package. Everything here uses the public game contract only.
See docs/RESEARCH.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cove.rl._match import REWARDS, EnvError
from cove.rl.aec import CoveAECEnv
from cove.rl.gym import CoveGymEnv
from cove.rl.parallel import CoveParallelEnv
from cove.rl.vector import CoveVectorEnv
from cove.rl.workers import CoveWorkersVectorEnv


def aec_env(game_id: str, players: int, **kwargs: Any) -> CoveAECEnv:
    """A PettingZoo AEC environment of any game. Keywords: ``reward`` ("win" | "margin" |
    "dense"), ``render_mode`` (None | "ansi"), ``max_cycles`` (decisions per agent),
    ``on_illegal`` ("raise" | "random" | "lose"), and the game's options."""
    return CoveAECEnv(game_id, players, **kwargs)


def parallel_env(game_id: str, players: int = 2, **kwargs: Any) -> CoveParallelEnv:
    """A PettingZoo parallel environment (made for a game whose every turn is
    simultaneous; any game works). Keywords as :func:`aec_env`, ``max_cycles`` counting
    steps."""
    return CoveParallelEnv(game_id, players, **kwargs)


def gym_env(game_id: str, players: int, seat: int = 0,
            opponents: str | Sequence[str] = "mcts", **kwargs: Any) -> CoveGymEnv:
    """A Gymnasium environment for ``seat`` with Cove bots in the other seats
    (``opponents``: bot specs as ``cove play --bots`` takes them). Keywords: ``reward``,
    ``render_mode``, ``on_illegal`` and the game's options."""
    return CoveGymEnv(game_id, players, seat, opponents, **kwargs)


def vector_env(game_id: str, players: int, num_envs: int, workers: int = 0,
               **kwargs: Any) -> CoveVectorEnv | CoveWorkersVectorEnv:
    """A Gymnasium vector environment of ``num_envs`` tables stepped together: in this
    process, or split across ``workers`` processes sharing the arrays (``workers=0``, the
    default: in this process). Keywords: ``opponents`` (None, the default: self-play,
    every seat the learner's; or bot specs for the other seats, as ``gym_env``), ``seat``,
    ``reward``, ``on_illegal``, ``copy`` (False: hand back the environment's own arrays)
    and the game's options. With ``workers``, ``ready=k`` adds the asynchronous loop
    (``async_reset``, ``recv``, ``send``: the first ``k`` tables ready a batch)."""
    if "ready" in kwargs and not workers:
        raise EnvError("ready=k (the first k tables ready) needs worker processes: "
                       "give workers=1 or more")
    if workers:
        from cove.rl.workers import CoveWorkersVectorEnv as Workers
        return Workers(game_id, players, num_envs, workers=workers, **kwargs)
    return CoveVectorEnv(game_id, players, num_envs, **kwargs)


__all__ = ["REWARDS", "CoveAECEnv", "CoveGymEnv", "CoveParallelEnv", "CoveVectorEnv",
           "CoveWorkersVectorEnv",
           "EnvError", "aec_env", "gym_env", "parallel_env", "vector_env"]
