"""Test helpers for The Tide: build positions by hand, count tiles, play biased games."""

from __future__ import annotations

from typing import Any

from cove.core import Rng
from cove.games.the_tide import GAME
from cove.games.the_tide.actions import Collect
from cove.games.the_tide.beach import parse_square
from cove.games.the_tide.data import DATA
from cove.games.the_tide.rules import BY_RECYCLING, SCORING_REWARD_COUNT, begin_turn
from cove.games.the_tide.state import TideState

LETTERS = {letter: code for code, letter in enumerate(DATA.letters) if code}
SEED_COUNTS = [0, 12, 20, 16, 12, 12]
BASE = "BPCW"
# With the fill() beach these piles hold exactly the rest of the box (12 S 11 B 7 P 3 C 3 W).
DEFAULT_PILES = ["SSBBPC", "SSBBPW", "SSBBPC", "SSBBPW", "SSBBPC", "SSBPPW"]


def fill(cells: dict[str, str] | None = None) -> list[str]:
    """A beach with no two neighbouring tiles of a type (not even diagonally), no friends,
    then the given cells replaced: {"c3": "B1"} puts a bottle with a friend of P1 on c3."""
    grid = [[BASE[(c + 2 * r) % 4] + "." for c in range(6)] for r in range(6)]
    for name, cell in (cells or {}).items():
        grid[int(name[1]) - 1]["abcdef".index(name[0])] = cell
    return [" ".join(row) for row in grid]


def sq(name: str) -> int:
    return parse_square(name)


def position(
    rows: list[str],
    *,
    players: int = 2,
    piles: list[str] | None = None,
    held: dict[int, str] | None = None,
    points: list[int] | None = None,
    waiting: dict[int, int] | None = None,
    active: int = 0,
    **options: Any,
) -> TideState:
    """A state at the start of ``active``'s turn built from a picture of the beach; the
    rest (options, first player 0, counters at 0) from a seeded new game.

    ``rows``: 6 strings (row 1, the sea side, first) of 6 cells separated by spaces; a
    cell is a tile letter (S B P C W) or '.', then a friend owner digit (1-based) or '.'.
    ``piles``: 6 strings of tile letters, bottom first (default: DEFAULT_PILES).
    ``held``: seat -> tile letters held. Tiles not placed anywhere go to 'removed', so
    the 72-tile count holds whenever the picture uses no more than the box has.
    ``points``: each seat's score, kept as won by recycling (the points by reward must
    add up to it).
    ``waiting``: seat -> friends waiting to enter; those of ``active`` are placed first
    (R6.12), so the position then starts with their placement, else with the act.
    """
    s = GAME.new(players, seed=0, log=True, **options)
    assert isinstance(s, TideState)
    assert len(rows) == 6
    grid: list[int] = []
    friends: list[int] = []
    for row in rows:
        cells = row.split()
        assert len(cells) == 6, row
        for cell in cells:
            grid.append(LETTERS[cell[0]] if cell[0] != "." else 0)
            friends.append(int(cell[1]) - 1 if cell[1] != "." else -1)
    s.grid = grid
    s.friends = friends
    s.piles = [[LETTERS[letter] for letter in pile]
               for pile in (piles if piles is not None else DEFAULT_PILES)]
    s.hidden = [0] * 6
    s.held = [[0] * 6 for _ in range(players)]
    for seat, letters in (held or {}).items():
        for letter in letters:
            s.held[seat][LETTERS[letter]] += 1
    s.points = list(points or [0] * players)
    by_reward = [0] * (players * SCORING_REWARD_COUNT)
    for seat, seat_points in enumerate(s.points):
        by_reward[seat * SCORING_REWARD_COUNT + BY_RECYCLING] = seat_points
    s.points_by_reward = tuple(by_reward)
    s.friends_on_beach = [friends.count(seat) for seat in range(players)]
    s.friends_waiting = [(waiting or {}).get(seat, 0) for seat in range(players)]
    s.first_player = 0
    s.clear_steps()  # drop the opening placements: ``active``'s turn starts on this beach
    begin_turn(s, active)
    used = tile_totals(s, removed=False)
    s.removed = [max(0, SEED_COUNTS[t] - used[t]) if t else 0 for t in range(6)]
    return s


def tile_totals(s: TideState, removed: bool = True) -> list[int]:
    """Tiles by type over beach + piles + holdings (+ removed)."""
    tot = [0] * 6
    for t in s.grid:
        tot[t] += 1
    for pile in s.piles:
        for t in pile:
            tot[t] += 1
    for h in s.held:
        for t in range(6):
            tot[t] += h[t]
    if removed:
        for t in range(6):
            tot[t] += s.removed[t]
    return tot


def conserved(s: TideState) -> bool:
    tot = tile_totals(s)
    return tot[1:] == SEED_COUNTS[1:] and all(len(p) <= DATA.pile_height for p in s.piles)


def beach(s: TideState) -> list[str]:
    """The beach as rows of cells, in the same picture format as ``position``."""
    out = []
    for r in range(6):
        cells = []
        for c in range(6):
            tile, owner = s.grid[r * 6 + c], s.friends[r * 6 + c]
            cells.append((DATA.letters[tile] if tile else ".")
                         + (str(owner + 1) if owner >= 0 else "."))
        out.append(" ".join(cells))
    return out


def column(s: TideState, c: str) -> str:
    """Tile letters of a column, row 1 first ('.' = empty)."""
    ci = "abcdef".index(c)
    return "".join(DATA.letters[s.grid[r * 6 + ci]] if s.grid[r * 6 + ci] else "."
                   for r in range(6))


def pile(s: TideState, c: str) -> str:
    return "".join(DATA.letters[t] for t in s.piles["abcdef".index(c)])


def texts(s: TideState) -> list[str]:
    return [str(a) for a in s.legal_actions(s.to_move()[0])] if s.to_move() else []


def log(s: TideState) -> list[str]:
    return [e.text for e in s.events(None)]


def biased_step(s: TideState, rng: Rng, collect_bias: float = 0.7) -> None:
    """One decision: usually a collection (the biggest group) when one is legal."""
    p = s.to_move()[0]
    acts = s.legal_actions(p)
    cs = [a for a in acts if isinstance(a, Collect)]
    if cs and rng.random() < collect_bias:
        best = max(a.count for a in cs)
        s.apply(p, rng.choice([a for a in cs if a.count == best]))
    else:
        s.apply(p, rng.choice(acts))
