"""Test helpers for High Water: the position builders (``trick_position``,
``segment_position``), reach a segment, set up holds by hand, count dice, play at random,
find a value inside a view."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cove.core import AUTO, Rng, State, Step
from cove.games.high_water import GAME
from cove.games.high_water.data import DATA
from cove.games.high_water.rules import SEG, SegmentOf, SegmentStep
from cove.games.high_water.state import ActiveQuest, HighWaterState

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


QuestSpec = tuple[str, int, int]
"""An active quest by hand: (card name, tasks done, sabotage markers)."""


def quest(name: str, done: int = 0, markers: int = 0) -> ActiveQuest:
    """The active quest ``name`` with ``done`` tasks done and ``markers`` markers."""
    return ActiveQuest(CARD[name], done, markers)


def give(s: HighWaterState, p: int, labels: str = "", gold: int | None = None,
         rum: int | None = None, crew: Sequence[str] | None = None,
         quests: Sequence[QuestSpec] | None = None) -> None:
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
        s.quests[p] = [quest(name, done, markers) for name, done, markers in quests]
    s._legal = None


def _without_segment(s: HighWaterState, p: int) -> tuple[Step, ...]:
    """The stack below the current segment, without a later segment of p's."""
    rest = s.steps
    while rest and rest[-1].kind not in ("segment", "round_end"):
        rest = rest[:-1]
    return tuple(st for st in rest if st != Step("segment", AUTO, SegmentOf(p)))


def goto(s: HighWaterState, step: int) -> None:
    """Jump the current segment to the start of a step (2-6) and let the flow settle."""
    p = s.segment_player()
    me = (p,)
    rest = (Step("step", me, SegmentStep(k)) for k in range(step, 6))
    below = _without_segment(s, p)
    s.clear_steps()
    s.push(*below)
    s.then(*rest, Step("free_removal", me), Step("paid_removal", me), Step("carry_cap", me),
           Step("end_segment", AUTO, SegmentOf(p)))
    s._legal = None
    s.settle()


def restart_segment(s: HighWaterState, p: int | None = None) -> None:
    """Run Step 1 again for the current player, or start p's segment now (after ``give``)."""
    if p is None:
        p = s.segment_player()
    below = _without_segment(s, p)
    s.clear_steps()
    s.push(*below, Step("segment", AUTO, SegmentOf(p)))
    s._legal = None
    s.settle()


# -- the position builders ---------------------------------------------------------------------
def trick_position(players: int = 2, seed: int = 0, *, high_water: bool | None = None,
                   hands: Mapping[int, Sequence[int]] | None = None,
                   played: Mapping[int, Sequence[int]] | None = None,
                   **options: Any) -> HighWaterState:
    """Round 1's trick of a seeded new game, with the water coin (``high_water``) and some
    seats' hands and played piles (seat -> trick cards) set; the rest as the game dealt."""
    s = new(players, seed, **options)
    if high_water is not None:
        s.high_water = high_water
    for seat, cards in (hands or {}).items():
        s.hands[seat] = list(cards)
    for seat, cards in (played or {}).items():
        s.played[seat] = list(cards)
    s._legal = None
    return s


@dataclass(frozen=True)
class Seat:
    """What the other seats hold in ``segment_position`` (their dice are always set: none
    unless given); None leaves what the seeded game dealt."""

    dice: str = ""
    gold: int | None = None
    rum: int | None = None
    crew: Sequence[str] | None = None
    quests: Sequence[QuestSpec] | None = None
    completed: Sequence[str] | None = None
    influence: int | None = None


def segment_position(step: int | None = 2, players: int = 2, seed: int = 1, *,
                     dice: str = "", gold: int | None = None, rum: int | None = None,
                     crew: Sequence[str] | None = None,
                     quests: Sequence[QuestSpec] | None = None,
                     completed: Sequence[str] | None = None, influence: int | None = None,
                     others: Seat | None = None,
                     crew_row: Sequence[str | None] | None = None,
                     quest_row: Sequence[str | None] | None = None,
                     **options: Any) -> tuple[HighWaterState, int]:
    """The first action segment of a seeded game (``to_segment``), its player's holdings
    and the market set by name, then the segment started again at ``step``; returns the
    state and the segment's player.

    The segment's player gets the hold ``dice`` (labels, "y3 br5"; none by default, taken
    from the bag), and ``gold``, ``rum``, ``crew`` (card names), ``quests`` ((name, tasks
    done, markers)), ``completed`` (quest names) and ``influence`` when given. ``others``:
    the same for every other seat (given first). ``crew_row`` and ``quest_row`` replace
    the first face-up cards of the market by name (None: an empty slot). ``step``: 1 runs
    Step 1 again (the passives), 2-6 starts that step, None leaves the stack as it is.
    Everything not named is as the seeded game dealt it."""
    s = to_segment(players, seed, **options)
    p = s.segment_player()
    for row, names in ((s.crew_row, crew_row), (s.quest_row, quest_row)):
        for slot, name in enumerate(names or ()):
            row[slot] = -1 if name is None else CARD[name]
    if others is not None:
        for o in range(players):
            if o != p:
                _hold(s, o, others.dice, others.gold, others.rum, others.crew, others.quests,
                      others.completed, others.influence)
    _hold(s, p, dice, gold, rum, crew, quests, completed, influence)
    if step == 1:
        restart_segment(s)
    elif step is not None:
        goto(s, step)
    return s, p


def _hold(s: HighWaterState, p: int, dice: str, gold: int | None, rum: int | None,
          crew: Sequence[str] | None, quests: Sequence[QuestSpec] | None,
          completed: Sequence[str] | None, influence: int | None) -> None:
    give(s, p, dice, gold=gold, rum=rum, crew=crew, quests=quests)
    if completed is not None:
        s.completed[p] = [CARD[name] for name in completed]
    if influence is not None:
        s.influence[p] = influence


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
