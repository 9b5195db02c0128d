"""Shared helpers for the bot tests: the games to test and random positions in them."""

from __future__ import annotations

from typing import Any

import cove
from cove.bots import make_bot
from cove.core.game import Game
from cove.core.rng import Rng
from cove.core.state import Action, State
from cove.example_game import GAME as TOY
from cove.lab.runner import RandomChooser, advance

# Tiny budgets: these tests check legality and information use, not strength. A game's
# own defaults (BOT_DEFAULTS) fill what a spec leaves out, so the specs name the search.
SMALL_SPECS = ["random", "greedy", "greedy:samples=2,mode=self",
               "mcts:iterations=12,depth=6,search=tree,rollout=random",
               "mcts:iterations=8,depth=3,rollout=heuristic,search=tree",
               "mcts:iterations=4,depth=-1,search=tree,rollout=random",
               "mcts:iterations=10,depth=0,prior=1,width=3,search=tree",
               "mcts:iterations=6,depth=2,key=infoset,search=tree,rollout=random",
               "mcts:iterations=8,depth=2,key=own,search=tree,rollout=random",
               "mcts:search=paired,iterations=4,width=3,depth=2,rollout=greedy,others=random",
               "mcts:search=paired,iterations=3,width=2,depth=1,rollout=greedy,versus=best"]


def games_under_test() -> list[Game]:
    """The toy game plus every registered game (whatever has landed so far)."""
    return [TOY, *(cove.load(i) for i in cove.ids())]


def cases() -> list[tuple[Game, int]]:
    """(game, players) for every game and every player count."""
    out = []
    for g in games_under_test():
        for n in range(g.min_players, g.max_players + 1):
            out.append((g, n))
    return out


def case_id(case: tuple[Game, int]) -> str:
    return f"{case[0].id}-{case[1]}p"


def random_position(game: Game, players: int, seed: int, steps: int) -> State | None:
    """A position after up to ``steps`` random actions, or None if the game ended first."""
    s = game.new(players, seed=seed, log=False)
    advance(s, RandomChooser(Rng(seed ^ 0x5EED)), moves=steps)
    return None if s.is_over else s


class ViewGuard:
    """Stands in for a state and lets a bot touch only what its player may use.

    Allowed: the game declaration, the player count, whose move it is, the player's own
    legal actions, and ``redeterminize`` for that same player (a world resampled from
    the player's view). Anything else fails the test.
    """

    def __init__(self, state: State, player: int) -> None:
        object.__setattr__(self, "_s", state)
        object.__setattr__(self, "_p", player)
        object.__setattr__(self, "redeterminized", 0)

    @property
    def game(self) -> Game:
        return self._s.game

    @property
    def n(self) -> int:
        return self._s.n

    @property
    def is_over(self) -> bool:
        return self._s.is_over

    def to_move(self) -> tuple[int, ...]:
        return self._s.to_move()

    def legal_actions(self, player: int) -> Any:
        assert player == self._p, f"bot asked for P{player + 1}'s legal actions"
        return self._s.legal_actions(player)

    def redeterminize(self, player: int, rng: Rng) -> State:
        assert player == self._p, f"bot redeterminized for P{player + 1}, not itself"
        object.__setattr__(self, "redeterminized", self.redeterminized + 1)
        return self._s.redeterminize(player, rng)

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"bot read state.{name}, which its view does not give it")

    def __setattr__(self, name: str, value: Any) -> None:
        raise AssertionError(f"bot wrote state.{name}")


def choose(spec: str, seed: int, state: Any, player: int) -> Action:
    return make_bot(spec, seed).choose(state, player)


def same_worlds(a: State, b: State, player: int, probes: int = 3, steps: int = 40) -> bool:
    """Do ``a`` and ``b`` (same view for ``player``) give identical sampled worlds?

    True when the game's ``_resample`` depends only on what ``player`` sees (not on the
    order of the hidden cards it reshuffles): worlds drawn from both with the same RNG
    show every player the same thing, now and along a random continuation.
    """
    for k in range(probes):
        x, y = a.redeterminize(player, Rng(k)), b.redeterminize(player, Rng(k))
        rng = Rng(1000 + k)
        for _ in range(steps):
            if [x.view(q) for q in range(x.n)] != [y.view(q) for q in range(y.n)]:
                return False
            if x.is_over:
                break
            p = x.to_move()[0]
            acts = x.legal_actions(p)
            if list(map(str, acts)) != list(map(str, y.legal_actions(p))):
                return False
            i = rng.below(len(acts))
            x.apply(p, acts[i])
            y.apply(p, y.legal_actions(p)[i])
    return True
