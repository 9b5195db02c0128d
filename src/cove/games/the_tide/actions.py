"""The Tide's actions. Each is a small frozen value whose str() is its stable text form."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from cove.core import ActionSpace, Options, pickle_records
from cove.games.the_tide.beach import COLUMN_NAMES, RAYS, SQUARE_NAMES
from cove.games.the_tide.data import DATA
from cove.games.the_tide.options import TideOptions


@dataclass(frozen=True, slots=True)
class Place:
    """The left neighbour puts a friend of the player to their right on a square."""

    sq: int

    def __str__(self) -> str:
        return f"place friend at {SQUARE_NAMES[self.sq]}"


@dataclass(frozen=True, slots=True)
class Move:
    src: int
    dst: int

    def __str__(self) -> str:
        return f"move {SQUARE_NAMES[self.src]} to {SQUARE_NAMES[self.dst]}"


@dataclass(frozen=True, slots=True)
class Collect:
    """Collect the tile under the friend at ``sq`` (and, for rubbish, its group)."""

    sq: int
    tile: int
    count: int

    def __str__(self) -> str:
        if self.count == 1:
            return f"collect {DATA.names[self.tile]} at {SQUARE_NAMES[self.sq]}"
        return f"collect {self.count} {DATA.plurals[self.tile]} at {SQUARE_NAMES[self.sq]}"


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
        return f"return {DATA.names[self.tile]} to pile {COLUMN_NAMES[self.pile]}"


@dataclass(frozen=True, slots=True)
class Reward:
    """Double recycling: 3 points, or 1 point and a new friend."""

    friend: bool

    def __str__(self) -> str:
        if self.friend:
            return f"take {DATA.double_friend_points} point and a new friend"
        return f"take {DATA.double_points} points"


PASS: Final = Pass()
PLACES: Final = tuple(Place(square) for square in range(len(SQUARE_NAMES)))
"""Each square's placement, by square."""
RETURNS: Final = tuple(tuple(Return(tile, pile) for pile in range(len(COLUMN_NAMES)))
                for tile in range(6))
"""Each return, by tile code then pile."""
MOVES: Final = tuple(tuple(Move(source, destination) for destination in range(len(SQUARE_NAMES)))
              for source in range(len(SQUARE_NAMES)))
"""Each move, by source square then destination square."""
REWARDS: Final = (Reward(False), Reward(True))


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
    out += [("collect", square) for square in range(len(SQUARE_NAMES))]
    for square, rays in enumerate(RAYS[options.move_dirs]):
        out += [MOVES[square][destination] for ray in rays for destination in ray]
    out.append(PASS)
    out += [action for tile in range(1, 6) for action in RETURNS[tile]]
    out += list(REWARDS)
    return out


class MaskIndex:
    """Each action's index in one configuration's action space, found from the action's
    own numbers (the legal actions are numbered once per step of a learner: this skips
    the key and the hashing of a dataclass per legal action, a Python call each). Made
    from the space, so it agrees with ``ActionSpace.encode`` by construction."""

    __slots__ = ("collect", "moves", "pass_", "places", "returns", "rewards")

    def __init__(self, space: ActionSpace) -> None:
        squares = len(SQUARE_NAMES)
        index = space.index
        self.places = tuple(index[place] for place in PLACES)
        self.collect = tuple(index[("collect", square)] for square in range(squares))
        moves: list[list[int]] = [[-1] * squares for _ in range(squares)]
        for key, at in index.items():
            if isinstance(key, Move):
                moves[key.src][key.dst] = at
        self.moves = moves
        self.pass_ = index[PASS]
        self.returns = tuple(tuple(index.get(action, -1) for action in row) for row in RETURNS)
        self.rewards = tuple(index[reward] for reward in REWARDS)

    def indices(self, legal: Sequence[Any]) -> list[int] | None:
        """The indices of ``legal``, in its order; None when an action is not one this
        index knows (the caller then asks the space, which names the action in its
        error)."""
        out = []
        moves = self.moves
        for action in legal:
            kind = type(action)
            if kind is Move:
                at = moves[action.src][action.dst]
            elif kind is Collect:
                at = self.collect[action.sq]
            elif kind is Place:
                at = self.places[action.sq]
            elif kind is Return:
                at = self.returns[action.tile][action.pile]
            elif kind is Pass:
                at = self.pass_
            elif kind is Reward:
                at = self.rewards[action.friend]
            else:
                return None
            if at < 0:
                return None
            out.append(at)
        return out

pickle_records(globals())  # records pickle as calls with their fields (docs/BUILD.md)
