"""Test-only helpers: start games, build positions (``position``, ``pirate``), set the
decision stack, check invariants."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cove.core import Rng, Step
from cove.games.tiny_epic_pirates import GAME, turn
from cove.games.tiny_epic_pirates.actions import Act
from cove.games.tiny_epic_pirates.state import PiratesState
from cove.games.tiny_epic_pirates.turn import Battle


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
    """p's cubes go back to the bag."""
    for booty in s.booty[p]:
        s.bag[booty] += 1
    s.booty[p] = []


def load_ship(s: PiratesState, p: int, booty: Sequence[int]) -> None:
    """p's ship carries exactly ``booty`` (cube types): the old cubes go back to the bag,
    these come out of it."""
    empty_ship(s, p)
    for cube in booty:
        s.bag[cube] -= 1
        s.booty[p].append(cube)


def give_crew(s: PiratesState, p: int, name: str) -> int:
    """The crew card named ``name`` joins p's crew, from the crew line (refilled from the
    deck) or the deck; its id."""
    card = next(i for i, crew in enumerate(s.ruleset.crew) if crew.name == name)
    for pile in (s.crew_line, s.crew_deck):
        if card in pile:
            pile.remove(card)
    if len(s.crew_line) < 3:
        s.crew_line.append(s.crew_deck.pop())
    s.crew[p].append(card)
    return card


def pirate(s: PiratesState, p: int, *, ship_at: int | None = None,
           hidden: bool | None = None, captain: int | None = None,
           captain_side: int | None = None, captain_space: int | None = None,
           assignments: Sequence[int] | None = None,
           wheel_deckhands: Sequence[int] | None = None,
           deckhand_on_legend_mat: int | None = None, gold: int | None = None,
           legend_level: int | None = None, surefire: int | None = None,
           booty: Sequence[int] | None = None, crew: Sequence[str] = (),
           sail_tokens: Sequence[int] | None = None) -> None:
    """Set the fields of pirate ``p`` that are given, the rest as they are. Sure-fire
    tokens come out of the supply, cubes out of the bag (``load_ship``), crew cards (by
    name, added to the crew) out of the crew line or deck (``give_crew``)."""
    seat_fields: dict[str, Any] = {
        "ship_at": ship_at, "hidden": hidden, "captain": captain,
        "captain_side": captain_side, "captain_space": captain_space,
        "assignments": assignments, "wheel_deckhands": wheel_deckhands,
        "deckhand_on_legend_mat": deckhand_on_legend_mat, "gold": gold,
        "legend_level": legend_level, "sail_tokens": sail_tokens}
    for field, value in seat_fields.items():
        if value is not None:  # a list field gets its own copy
            getattr(s, field)[p] = list(value) if isinstance(value, Sequence) else value
    if surefire is not None:
        s.surefire_supply -= surefire - s.surefire[p]
        s.surefire[p] = surefire
    if booty is not None:
        load_ship(s, p, booty)
    for name in crew:
        give_crew(s, p, name)


def position(players: int = 2, seed: int = 0, *, seat: int = 0,
             options: dict[str, Any] | None = None, **fields: Any) -> PiratesState:
    """A seeded game past the setup choices (``after_setup``) with pirate ``seat``'s
    ``fields`` set as :func:`pirate` sets them; P1's wheel decision is pending."""
    s = after_setup(players, seed, **(options or {}))
    pirate(s, seat, **fields)
    return s


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
"""A step written as (kind, player, number) for tests: see turn.step_of."""


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


def battle(s: PiratesState) -> Battle | None:
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
    ruleset = s.ruleset
    cubes = sum(s.bag) + len(s.market) + sum(1 for c in s.merchant_cube if c >= 0)
    cubes += sum(len(b) for b in s.booty) + limbo_cubes(s)
    assert cubes == sum(ruleset.cubes), "booty cubes"
    for t in range(len(ruleset.cubes)):
        held = (s.bag[t] + s.market.count(t) + s.merchant_cube.count(t)
                + sum(b.count(t) for b in s.booty)
                + sum(1 for k in s.steps if k.kind == turn.T_KEEP and k.data.cube == t))
        assert held == ruleset.cubes[t], f"cubes of type {t}"
    for p in range(s.pirate_count):
        deckhands = (sum(s.wheel_deckhands[p]) + sum(s.assignments[p])
                     + s.deckhand_on_legend_mat[p])
        assert deckhands == ruleset.deckhands
        assert min(s.assignments[p]) >= 0 and all(w in (0, 1) for w in s.wheel_deckhands[p])
        assert 0 <= s.gold[p] <= ruleset.gold_cap
        assert len(s.booty[p]) <= ruleset.ship_capacity
        assert len(s.crew[p]) <= 4
        assert 1 <= s.legend_level[p] <= 7
        assert len(s.treasures[p]) <= 3
    crew = len(s.crew_deck) + len(s.crew_line) + sum(len(c) for c in s.crew)
    assert crew == 24, "crew cards"
    every = sorted(s.crew_deck + s.crew_line + [c for cs in s.crew for c in cs])
    assert every == list(range(24))
    assert len(s.merchant_deck) + 2 + s.merchant_cards_removed == 11, "merchant cards"
    assert s.surefire_supply + sum(s.surefire) == ruleset.surefire_tokens, "sure-fire tokens"
    assert 0 <= s.crew_bottom_seen <= len(s.crew_deck)
    assert len(s.box_tokens) == 4
    used = [t for t in s.search_tokens if t >= 0] + s.box_tokens
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
    s.captain_space[p] = s.wheel[p].index(order)
    s.turn = p
    s.battle = None
    s.crossed_ship_line = False
    s.crew_line_refreshed = False
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
