"""Test-only helpers: start games, build positions by setting fields, check invariants."""

from __future__ import annotations

from typing import Any

from cove.core.decisions import Step
from cove.core.rng import Rng
from cove.games.tiny_epic_pirates import GAME, turn
from cove.games.tiny_epic_pirates.actions import Act
from cove.games.tiny_epic_pirates.state import PiratesState


class FixedDice(Rng):
    """An Rng whose die rolls (randint(1, 6)) come from a list first (test-only)."""

    def __init__(self, seed: int, dice: list[int]) -> None:
        super().__init__(seed)
        self.dice = list(dice)

    def randint(self, lo: int, hi: int) -> int:
        if (lo, hi) == (1, 6) and self.dice:
            return self.dice.pop(0)
        return super().randint(lo, hi)

    def copy(self) -> Rng:
        r = FixedDice(0, self.dice)
        r.state = self.state
        return r


def rig_dice(s: PiratesState, dice: list[int]) -> None:
    s.rng = FixedDice(s.rng.state, dice)


def empty_ship(s: PiratesState, p: int) -> None:
    for t in s.booty[p]:
        s.bag[t] += 1
    s.booty[p] = []


def new(n: int = 2, seed: int = 0, **opts: Any) -> PiratesState:
    s = GAME.new(n, seed=seed, **opts)
    assert isinstance(s, PiratesState)
    return s


def after_setup(n: int = 2, seed: int = 0, **opts: Any) -> PiratesState:
    """A game past the setup choices (first legal option each time), at P1's wheel."""
    s = new(n, seed, **opts)
    while s.steps[-1].kind in (turn.T_NAVY_SETUP, turn.T_COVE, turn.T_SIDE):
        p = s.to_move()[0]
        s.apply(p, s.legal_actions(p)[0])
    assert s.steps[-1] == turn.step_of(turn.T_WHEEL, 0)
    return s


def turn_of(s: PiratesState, p: int, *, clear: bool = True) -> None:
    """Start p's turn afresh (the wheel decision is on top, unless it is auto-taken)."""
    s.turn = p
    s.battle = None
    set_steps(s, settle=False)
    s._start_turn(p)
    s.settle()


Task = tuple[str, int, int]
"""A step written as (kind, player, x) for tests: see turn.step_of."""


def set_steps(s: PiratesState, *tasks: Task, settle: bool = True) -> None:
    """Replace the decision stack (last one on top), then settle unless told not to."""
    s.clear_steps()
    s.push(*(turn.step_of(*t) for t in tasks))
    s._legal = None
    if settle:
        s.settle()


def push(s: PiratesState, *tasks: Task) -> None:
    """Put decision steps on top of the stack (last one on top) and settle."""
    s.push(*(turn.step_of(*t) for t in tasks))
    s._legal = None
    s.settle()


def legal_of(s: PiratesState, task: Task) -> list[Act]:
    """What the rule of the step ``task`` offers now (whether or not it is on the stack)."""
    st = turn.step_of(*task)
    out = [a for a in s.STEPS[st.kind].legal(s, st, task[1]) if isinstance(a, Act)]
    return out


def step(task: Task) -> Step:
    return turn.step_of(*task)


def run_step(s: PiratesState, task: Task, act: Act) -> None:
    """Carry out ``act`` for the step ``task`` (popped already, as the engine does)."""
    st = turn.step_of(*task)
    s.STEPS[st.kind].apply(s, st, task[1], act)


def acts(s: PiratesState, p: int) -> list[Act]:
    """p's legal actions, typed as the game's Act values."""
    out = [a for a in s.legal_actions(p) if isinstance(a, Act)]
    assert len(out) == len(s.legal_actions(p))
    return out


def battle(s: PiratesState) -> list[Any] | None:
    """The battle under way (a call, so a type checker does not narrow it across moves)."""
    return s.battle


def over(s: PiratesState) -> bool:
    return s.is_over


def texts(s: PiratesState) -> list[str]:
    p = s.to_move()[0]
    return [str(a) for a in s.legal_actions(p)]


def do(s: PiratesState, text: str) -> None:
    s.apply(s.to_move()[0], text)


def do_prefix(s: PiratesState, prefix: str) -> None:
    """Apply the first legal action whose text starts with prefix."""
    for t in texts(s):
        if t.startswith(prefix):
            do(s, t)
            return
    raise AssertionError(f"no action starting {prefix!r} in {texts(s)}")


def top(s: PiratesState) -> str:
    return s.steps[-1].kind


def limbo_cubes(s: PiratesState) -> int:
    return sum(1 for t in s.steps if t.kind == turn.T_KEEP)


def check_conservation(s: PiratesState) -> None:
    R = s.R
    cubes = sum(s.bag) + len(s.market) + sum(1 for c in s.m_cube if c >= 0)
    cubes += sum(len(b) for b in s.booty) + limbo_cubes(s)
    assert cubes == sum(R.cubes), "booty cubes"
    for t in range(len(R.cubes)):
        held = (s.bag[t] + s.market.count(t) + s.m_cube.count(t)
                + sum(b.count(t) for b in s.booty)
                + sum(1 for k in s.steps if k.kind == turn.T_KEEP and k.data[0] == t))
        assert held == R.cubes[t], f"cubes of type {t}"
    for p in range(s.np):
        assert sum(s.wheel_dh[p]) + sum(s.assign[p]) + s.dh_reserve[p] == R.deckhands
        assert min(s.assign[p]) >= 0 and all(w in (0, 1) for w in s.wheel_dh[p])
        assert 0 <= s.gold[p] <= R.gold_cap
        assert len(s.booty[p]) <= R.ship_capacity
        assert len(s.crew[p]) <= 4
        assert 1 <= s.level[p] <= 7
        assert len(s.treasures[p]) <= 3
    crew = len(s.crew_deck) + len(s.crew_line) + sum(len(c) for c in s.crew)
    assert crew == 24, "crew cards"
    every = sorted(s.crew_deck + s.crew_line + [c for cs in s.crew for c in cs])
    assert every == list(range(24))
    assert len(s.m_deck) + 2 + s.m_removed == 11, "merchant cards"
    assert s.sure_supply + sum(s.sure) == R.surefire_tokens, "sure-fire tokens"
    assert 0 <= s.crew_known <= len(s.crew_deck)
    assert len(s.box_tokens) == 4
    used = [t for t in s.tokens if t >= 0] + s.box_tokens
    assert len(set(used)) == len(used)


def play_random(s: PiratesState, seed: int, check: bool = False, limit: int = 10**6) -> int:
    rng = Rng(seed)
    k = 0
    while not s.is_over and k < limit:
        p = s.to_move()[0]
        s.apply(p, rng.choice(s.legal_actions(p)))
        k += 1
        if check:
            check_conservation(s)
    return k


def at_order(s: PiratesState, p: int, order: int) -> None:
    """Make it p's turn with the captain on ``order`` and the order decision pending."""
    s.cap[p] = s.wheel[p].index(order)
    s.turn = p
    s.battle = None
    s.crossed = False
    s.refreshed = False
    s.rerolls = 0
    s.bonus_left = []
    set_steps(s, (turn.T_END_TURN, p, 0), (turn.T_BONUS_SETUP, p, 0), (turn.T_ORDER, p, 0))


def find_card(s: PiratesState, kind: int, **want: int) -> int:
    """The sea position of the first map card of this kind (and fields)."""
    for i in range(16):
        c = s.card(i)
        if c.kind == kind and all(getattr(c, k) == v for k, v in want.items()):
            return i
    raise AssertionError("no such card")
