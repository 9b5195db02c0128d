"""Test-only helpers: build positions on a Trails of Tucana state (``position``) and play
them on."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from itertools import pairwise
from typing import Any

from cove.core import Rng, Step, replaced
from cove.games.trails_of_tucana import GAME
from cove.games.trails_of_tucana.data import CARD_NAMES
from cove.games.trails_of_tucana.island import Island
from cove.games.trails_of_tucana.rules import END_ROUND, TurnStep
from cove.games.trails_of_tucana.sheets import link as link_edge
from cove.games.trails_of_tucana.state import TucanaState


def new(n: int = 2, seed: int = 1, **opts: Any) -> TucanaState:
    s = GAME.new(n, seed=seed, **opts)
    assert isinstance(s, TucanaState)
    return s


def position(
    n: int = 2,
    seed: int = 1,
    *,
    played_out: bool = False,
    red_cards: Iterable[int] | None = None,
    trails: Mapping[int, Iterable[str]] | None = None,
    revealed: tuple[str, str] | None = None,
    bonus_owed: Mapping[int, int] | None = None,
    boxes: list[int] | None = None,
    pairs: list[int] | None = None,
    blue_points: list[int] | None = None,
    red_points: list[int] | None = None,
    **opts: Any,
) -> TucanaState:
    """A seeded new game (played to its end at random first when ``played_out``) with
    only the named parts set, in this order:

    ``red_cards``: the sight kinds of the red cards in play (Special Bonus);
    ``trails``: per seat, segments (``"i1-j2"``) drawn before this turn began, scored as
    in play; ``revealed``: the two cards of the turn (``("desert", "any")``);
    ``bonus_owed``: per seat, bonus segments owed, the pending step becoming the turn's
    first bonus step; ``boxes`` (every seat's sight boxes, flat), ``pairs`` (per seat, a
    set of letters), ``blue_points`` and ``red_points``: the scores as written."""
    s = new(n, seed, **opts)
    if played_out:
        play_out(s, Rng(seed))
    if red_cards is not None:
        s.red_cards = tuple(red_cards)
    for seat, segments in (trails or {}).items():
        for segment in segments:
            link(s, seat, *segment.split("-"))
    if revealed is not None:
        reveal(s, *revealed)
    for seat, owed in (bonus_owed or {}).items():
        owe_bonus(s, seat, owed)
    if boxes is not None:
        s.boxes = tuple(boxes)
    if pairs is not None:
        s.pairs = tuple(pairs)
    if blue_points is not None:
        s.blue_points = tuple(blue_points)
    if red_points is not None:
        s.red_points = tuple(red_points)
    return s


def link(s: TucanaState, p: int, a: str, b: str) -> None:
    """Draw segment a-b on seat p's sheet outside the turn (scores as in play). Before p's
    first decision of a turn the segment counts as drawn before the turn began."""
    link_edge(s, p, s.island.edge(a, b))
    if not s.moves[p]:
        s.circled_at_turn_start = replaced(s.circled_at_turn_start, p, s.circled[p])
        s.pairs_at_turn_start = replaced(s.pairs_at_turn_start, p, s.pairs[p])
    s.settle()  # the legal moves are found again


def reveal(s: TucanaState, c1: str, c2: str) -> None:
    """Replace the two revealed cards (e.g. "desert", "any")."""
    s.revealed = (CARD_NAMES.index(c1), CARD_NAMES.index(c2))
    s.settle()


def texts(s: TucanaState, p: int) -> list[str]:
    return [str(a) for a in s.legal_actions(p)]


def finish_turn(s: TucanaState, rng: Rng, skip: tuple[int, ...] = ()) -> None:
    """Random moves for every waiting player not in ``skip`` until they are done."""
    now = (s.round, s.turn)
    while not s.is_over and (s.round, s.turn) == now:
        waiting = [p for p in s.to_move() if p not in skip]
        if not waiting:
            return
        p = waiting[0]
        s.apply(p, rng.choice(s.legal_actions(p)))


def play_out(s: TucanaState, rng: Rng) -> None:
    while not s.is_over:
        p = s.to_move()[0]
        s.apply(p, rng.choice(s.legal_actions(p)))


def play_turns(s: TucanaState, rng: Rng, turns: int) -> None:
    for _ in range(turns):
        if s.is_over:
            return
        finish_turn(s, rng)


def mark_drawn(s: TucanaState, p: int, edges: Iterable[int]) -> None:
    """Mark edges as drawn on seat p's sheet without linking (for legality tests)."""
    set_drawn(s, p, edges, 1)


def set_drawn(s: TucanaState, p: int, edges: Iterable[int], flag: int) -> None:
    """Set the drawn flag of ``edges`` on seat p's sheet (1 drawn, 0 free) without
    linking, then find the legal moves again."""
    flags = bytearray(s.drawn[p])
    for e in edges:
        flags[e] = flag
    s.drawn = replaced(s.drawn, p, bytes(flags))
    s.settle()


def owe_bonus(s: TucanaState, p: int, owed: int) -> None:
    """Seat p owes ``owed`` bonus segments and the pending step becomes the turn's first
    bonus step, for every seat that owes one (as after a draw step's reveal)."""
    s.bonus_owed = replaced(s.bonus_owed, p, owed)
    s.clear_steps()
    s.push(Step("bonus", tuple(q for q in range(s.n) if s.bonus_owed[q]), TurnStep(1)))
    s.settle()


def end_round(s: TucanaState) -> None:
    """End the round now, as the game does after its 13th turn: the pending step is
    dropped, the sheets are scored, then the next round's first turn (or the end)."""
    s.clear_steps()
    s.push(END_ROUND)
    s.settle()


def path(isl: Island, a: str, b: str) -> list[str]:
    """Shortest chain of spaces from a to b avoiding sights and other villages."""
    start, goal = isl.space(a), isl.space(b)
    prev = {start: start}
    todo = deque([start])
    while todo:
        x = todo.popleft()
        if x == goal:
            break
        for y in isl.adj[x]:
            if y in prev:
                continue
            if y != goal and (isl.sight[y] >= 0 or isl.village[y] >= 0):
                continue
            prev[y] = x
            todo.append(y)
    out = [goal]
    while out[-1] != start:
        out.append(prev[out[-1]])
    return [isl.labels[i] for i in reversed(out)]


def village_label(isl: Island, number: int) -> str:
    return isl.labels[isl.village_space[number - 1]]


def pair_villages(s: TucanaState, p: int, letter: str) -> list[str]:
    return [village_label(s.island, v + 1) for v in range(10) if "ABCDE"[s.letters[p][v]] == letter]


def build_pair_but_last(s: TucanaState, p: int, letter: str) -> tuple[str, str]:
    """Link all of a village pair's path but its last segment; return that segment."""
    a, b = pair_villages(s, p, letter)
    chain = path(s.island, a, b)
    for x, y in pairwise(chain[:-1]):
        link(s, p, x, y)
    return chain[-2], chain[-1]


def terrain_name(isl: Island, label: str) -> str:
    return CARD_NAMES[isl.terrain[isl.space(label)]]


def draw_now(s: TucanaState, p: int, a: str, b: str) -> None:
    """Reveal cards matching segment a-b and draw it as seat p's turn action."""
    reveal(s, terrain_name(s.island, a), terrain_name(s.island, b))
    s.apply(p, f"draw {'-'.join(sorted((a, b), key=s.island.space))}")
