"""Test helpers for High Water: reach a segment, set up holds by hand, count dice, play at
random, find a value inside a view."""

from __future__ import annotations

from typing import Any

from cove.core.decisions import AUTO, Step
from cove.core.rng import Rng
from cove.core.state import State
from cove.games.high_water import GAME
from cove.games.high_water.data import DATA
from cove.games.high_water.rules import SEG
from cove.games.high_water.state import HighWaterState

CODE = {label: code for code, label in DATA.label.items()}
CARD = {c.name: c.id for c in DATA.cards}


def die(label: str) -> int:
    return CODE[label]


def new(players: int = 2, seed: int = 0, **options: Any) -> HighWaterState:
    s = GAME.new(players, seed=seed, **options)
    assert isinstance(s, HighWaterState)
    return s


def play_trick(s: HighWaterState, cards: dict[int, int]) -> None:
    """Everyone waiting commits the given card (seat -> card)."""
    for p in list(s.to_move()):
        s.apply(p, f"play {cards[p]}")


def to_segment(players: int = 2, seed: int = 0, **options: Any) -> HighWaterState:
    """A new game played (distinct trick cards, first crates) up to the first real decision
    of the first action segment of round 1."""
    s = new(players, seed, **options)
    play_trick(s, {p: p + 1 for p in range(players)})
    while s.phase != SEG:
        p = s.to_move()[0]
        s.apply(p, s.legal_actions(p)[0])
    return s


def dice_total(s: HighWaterState) -> int:
    crates = sum(len(c) for c in s.crates if c is not None)
    return sum(s.bag) + crates + sum(len(d) for d in s.dice)


def give(s: HighWaterState, p: int, labels: str = "", gold: int | None = None,
         rum: int | None = None, crew: tuple[str, ...] | None = None,
         quests: list[tuple[str, int, int]] | None = None) -> None:
    """Set p's hold: dice (taken from the bag, old ones returned), gold, rum, crew cards
    and active quests as (name, tasks done, markers)."""
    for d in s.dice[p]:
        s.bag[d // 10] += 1
    s.dice[p] = []
    for lab in labels.split():
        d = die(lab)
        assert s.bag[d // 10] > 0, f"no {lab} colour left in the bag"
        s.bag[d // 10] -= 1
        s.dice[p].append(d)
    if gold is not None:
        s.gold[p] = gold
    if rum is not None:
        s.rum[p] = rum
    if crew is not None:
        s.crew[p] = [CARD[c] for c in crew]
    if quests is not None:
        s.quests[p] = [[CARD[name], done, marks] for name, done, marks in quests]
    s._legal = None


def _without_segment(s: HighWaterState, p: int) -> tuple[Step, ...]:
    """The stack below the current segment, without a later segment of p's."""
    rest = s.steps
    while rest and rest[-1].kind not in ("segment", "round_end"):
        rest = rest[:-1]
    return tuple(st for st in rest if st != Step("segment", AUTO, (p,)))


def goto(s: HighWaterState, step: int) -> None:
    """Jump the current segment to the start of a step (2-6) and let the flow settle."""
    p = s.cur()
    me = (p,)
    rest = (Step("step", me, (k,)) for k in range(step, 6))
    below = _without_segment(s, p)
    s.clear_steps()
    s.push(*below)
    s.then(*rest, Step("free_removal", me), Step("paid_removal", me), Step("carry_cap", me),
           Step("end_segment", AUTO, (p,)))
    s._legal = None
    s.settle()


def restart_segment(s: HighWaterState, p: int | None = None) -> None:
    """Run Step 1 again for the current player, or start p's segment now (after ``give``)."""
    if p is None:
        p = s.cur()
    below = _without_segment(s, p)
    s.clear_steps()
    s.push(*below, Step("segment", AUTO, (p,)))
    s._legal = None
    s.settle()


def pending(s: HighWaterState) -> str | None:
    """The kind of the open sub-decision, if any ("sabotage", "pay", "carry_cap", ...)."""
    top = s.pending
    return None if top is None else top.kind


def texts(s: HighWaterState, p: int | None = None) -> list[str]:
    if p is None:
        p = s.to_move()[0]
    return [str(a) for a in s.legal_actions(p)]


def random_play(s: State, seed: int, check: Any = None, limit: int = 100_000) -> None:
    rng = Rng(seed)
    while not s.is_over and limit > 0:
        for p in s.to_move():
            if p in s.to_move():
                s.apply(p, rng.choice(s.legal_actions(p)))
                limit -= 1
                if check is not None:
                    check(s)


def contains(value: Any, item: Any) -> bool:
    """Whether ``item`` is ``value`` or a sub-value of it (the harness's leak check)."""
    if value == item:
        return True
    if isinstance(value, dict):
        return any(contains(v, item) for v in value.values())
    if isinstance(value, list):
        return any(contains(v, item) for v in value)
    return False
