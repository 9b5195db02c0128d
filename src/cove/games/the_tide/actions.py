"""The Tide's actions. Each is a small frozen value whose str() is its stable text form."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from cove.core.actions import ActionSpace
from cove.core.options import Options
from cove.core.serial import pickle_by_fields
from cove.games.the_tide.beach import COL_NAMES, RAYS, SQ_NAMES
from cove.games.the_tide.data import DATA
from cove.games.the_tide.options import TideOptions


@dataclass(frozen=True, slots=True)
class Place:
    """The left neighbour puts a friend of the player to their right on a square."""

    sq: int

    def __str__(self) -> str:
        return f"place friend at {SQ_NAMES[self.sq]}"


@dataclass(frozen=True, slots=True)
class Move:
    src: int
    dst: int

    def __str__(self) -> str:
        return f"move {SQ_NAMES[self.src]} to {SQ_NAMES[self.dst]}"


@dataclass(frozen=True, slots=True)
class Collect:
    """Collect the tile under the friend at ``sq`` (and, for rubbish, its group)."""

    sq: int
    tile: int
    count: int

    def __str__(self) -> str:
        if self.count == 1:
            return f"collect {DATA.names[self.tile]} at {SQ_NAMES[self.sq]}"
        return f"collect {self.count} {DATA.plurals[self.tile]} at {SQ_NAMES[self.sq]}"


@dataclass(frozen=True, slots=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Return:
    """Put a held tile on top of a pile (shirking penalty, recycling, collections)."""

    tile: int
    pile: int

    def __str__(self) -> str:
        return f"return {DATA.names[self.tile]} to pile {COL_NAMES[self.pile]}"


@dataclass(frozen=True, slots=True)
class Reward:
    """Double recycling: 3 points, or 1 point and a new friend."""

    friend: bool

    def __str__(self) -> str:
        if self.friend:
            return f"take {DATA.double_friend_points} point and a new friend"
        return f"take {DATA.double_points} points"


pickle_by_fields(Place, Move, Collect, Pass, Return, Reward)


PASS = Pass()
PLACES = tuple(Place(s) for s in range(len(SQ_NAMES)))
RETURNS = tuple(tuple(Return(t, c) for c in range(len(COL_NAMES))) for t in range(6))
MOVES = tuple(tuple(Move(s, d) for d in range(len(SQ_NAMES))) for s in range(len(SQ_NAMES)))
REWARDS = (Reward(False), Reward(True))


def action_key(action: Any) -> Hashable:
    """An action's entry in the universe. A collection is keyed by its square alone: at
    any moment one friend stands there and one collection is legal from it, whatever the
    size of the group (which changes from turn to turn)."""
    if isinstance(action, Collect):
        return ("collect", action.sq)
    key: Hashable = action
    return key


def universe(players: int, options: Options) -> list[Hashable]:
    """Every action (key) a configuration can offer, in a fixed order: 36 placements, 36
    collections (by square), the moves along this configuration's rays (square by square,
    ray by ray), pass, 5 tile types x 6 piles of returns, and the 2 rewards."""
    assert isinstance(options, TideOptions)
    out: list[Hashable] = list(PLACES)
    out += [("collect", s) for s in range(len(SQ_NAMES))]
    for s, rays in enumerate(RAYS[options.move_dirs]):
        out += [MOVES[s][d] for ray in rays for d in ray]
    out.append(PASS)
    out += [r for t in range(1, 6) for r in RETURNS[t]]
    out += list(REWARDS)
    return out


class MaskIndex:
    """Each action's index in one configuration's action space, found from the action's
    own numbers (the legal actions are numbered once per step of a learner: this skips
    the key and the hashing of a dataclass per legal action, a Python call each). Made
    from the space, so it agrees with ``ActionSpace.encode`` by construction."""

    __slots__ = ("collect", "moves", "pass_", "places", "returns", "rewards")

    def __init__(self, space: ActionSpace) -> None:
        squares = len(SQ_NAMES)
        index = space.index
        self.places = tuple(index[p] for p in PLACES)
        self.collect = tuple(index[("collect", s)] for s in range(squares))
        moves: list[list[int]] = [[-1] * squares for _ in range(squares)]
        for key, i in index.items():
            if isinstance(key, Move):
                moves[key.src][key.dst] = i
        self.moves = moves
        self.pass_ = index[PASS]
        self.returns = tuple(tuple(index.get(r, -1) for r in row) for row in RETURNS)
        self.rewards = tuple(index[r] for r in REWARDS)

    def indices(self, legal: Sequence[Any]) -> list[int] | None:
        """The indices of ``legal``, in its order; None when an action is not one this
        index knows (the caller then asks the space, which names the action in its
        error)."""
        out = []
        moves = self.moves
        for a in legal:
            t = type(a)
            if t is Move:
                i = moves[a.src][a.dst]
            elif t is Collect:
                i = self.collect[a.sq]
            elif t is Place:
                i = self.places[a.sq]
            elif t is Return:
                i = self.returns[a.tile][a.pile]
            elif t is Pass:
                i = self.pass_
            elif t is Reward:
                i = self.rewards[a.friend]
            else:
                return None
            if i < 0:
                return None
            out.append(i)
        return out
