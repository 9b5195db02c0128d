"""The conformance hooks: check_invariants, private_items and max_actions each fail when
the state is broken on purpose (the shared harness runs them over whole random games)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cove.core import Rng, Step, replaced
from cove.core.bits import first_n, set_of
from cove.games.trails_of_tucana import GAME
from cove.games.trails_of_tucana.data import LETTERS, TABLES
from cove.games.trails_of_tucana.rules import TurnStep
from cove.games.trails_of_tucana.state import TucanaState
from cove.games.trails_of_tucana.view import sheet
from tests.games.trails_of_tucana.helpers import link, new, play_turns, reveal


def contains(haystack: Any, needle: Any) -> bool:
    """Whether ``needle`` is ``haystack`` or a sub-value of it (the harness's leak test)."""
    if haystack == needle:
        return True
    if isinstance(haystack, dict):
        return any(contains(v, needle) for v in haystack.values())
    if isinstance(haystack, list):
        return any(contains(v, needle) for v in haystack)
    return False


def leaks(s: TucanaState) -> list[str]:
    out = []
    for p in range(s.n):
        for name, value in s.private_items(p).items():
            if not isinstance(value, (dict, list)) or not value:
                continue  # the harness skips scalars and empty containers
            for q in [None, *(q for q in range(s.n) if q != p)]:
                if contains(json.loads(json.dumps(s.view(q))), value):
                    out.append(f"P{p + 1} {name} in view of {q}")
    return out


def mid_game() -> TucanaState:
    s = new(3, seed=5)
    play_turns(s, Rng(5), 4)
    s.check_invariants()
    return s


def decided_but_still_to_move(s: TucanaState) -> None:
    """P1 decides, then the pending step is put back as it was before."""
    before = s.steps
    s.apply(0, s.legal_actions(0)[0])
    s.clear_steps()
    s.push(*before)


@pytest.mark.parametrize(
    ("what", "breaks"),
    [
        ("a card lost from the deck", lambda s: setattr(s, "deck", s.deck[:-1])),
        ("a card seen twice", lambda s: setattr(s, "seen", (*s.seen, s.seen[0]))),
        ("a blue card vanished", lambda s: setattr(s, "blue_cards", ((), *s.blue_cards[1:]))),
        ("a segment flag not 0 or 1",
         lambda s: setattr(s, "drawn", replaced(s.drawn, 0, s.drawn[0][:-1] + b"\x02"))),
        ("a sight circled but not linked",
         lambda s: setattr(s, "circled", replaced(s.circled, 0, set_of([0])))),
        ("a pair scored but not joined",
         lambda s: setattr(s, "pairs", replaced(s.pairs, 1, first_n(LETTERS)))),
        ("a decided player still to move", decided_but_still_to_move),
        ("a second pending step", lambda s: s.push(Step("draw", (1,), TurnStep(0)))),
        ("a mover of a bonus step owing nothing",
         lambda s: (s.clear_steps(), s.push(Step("bonus", (0,), TurnStep(1))))),
        ("a negative bonus count",
         lambda s: setattr(s, "bonus_owed", replaced(s.bonus_owed, 2, -1))),
        ("a box filled before its round",
         lambda s: setattr(s, "boxes", (s.boxes[0], 4, *s.boxes[2:]))),
    ],
)
def test_check_invariants_catches_a_broken_state(what: str, breaks: Any) -> None:
    s = mid_game()
    breaks(s)
    with pytest.raises(AssertionError, match="trails-of-tucana"):
        s.check_invariants()


def pending_draw() -> TucanaState:
    """P1's draw made, P2's and P3's not: P1's sheet is private until the step ends."""
    s = new(3)
    link(s, 0, "i1", "j2")
    link(s, 0, "j2", "k3")
    link(s, 0, "j10", "k9")
    reveal(s, "desert", "desert")
    assert s.private_items(0) == {}  # nothing pending: the sheet is public
    s.apply(0, "draw j8-k9")
    return s


def test_private_items_are_the_pending_step_and_do_not_leak() -> None:
    s = pending_draw()
    items = s.private_items(0)
    assert items["own_sheet"] == s.view(0)["sheets"][0]
    assert "j8-k9" in items["own_sheet"]["segments"]
    assert leaks(s) == []
    s.apply(1, "draw e1-g1")
    s.apply(2, "draw e1-g1")  # the step is revealed: nothing is private any more
    assert s.private_items(0) == {} and leaks(s) == []


@pytest.mark.pure_build
def test_a_view_that_shows_a_pending_sheet_is_found_leaking() -> None:
    s = pending_draw()
    # broken on purpose: the spectator view shows every sheet as it is now
    orig = TucanaState._view

    def leaky(self: TucanaState, player: int | None) -> dict[str, Any]:
        v = orig(self, player)
        if player is None:
            v["sheets"] = [sheet(self, q, False) for q in range(self.n)]
        return v

    try:
        TucanaState._view = leaky  # type: ignore[method-assign]
        assert leaks(s) == ["P1 own_sheet in view of None"]
    finally:
        TucanaState._view = orig  # type: ignore[method-assign]
    assert leaks(s) == []


def test_private_items_never_leak_in_random_games() -> None:
    for n in (2, 4):
        s = new(n, seed=11 * n, symmetry=True)  # the same letters on every sheet
        rng = Rng(n)
        k = 0
        while not s.is_over and k < 120:
            p = s.to_move()[rng.below(len(s.to_move()))]
            s.apply(p, rng.choice(s.legal_actions(p)))
            assert leaks(s) == [], k
            k += 1


def test_max_actions_bounds_every_game() -> None:
    assert GAME.max_actions is not None
    for n, mp in ((1, "petit"), (3, "petit"), (2, "grande")):
        s = new(n, seed=3, map=mp)
        bound = GAME.max_actions(n, s.options)
        assert bound == n * (13 * TABLES.islands[mp].rounds + 5)
        rng = Rng(3)
        while not s.is_over:
            p = s.to_move()[0]
            s.apply(p, rng.choice(s.legal_actions(p)))
        assert s.decisions <= bound
    # broken on purpose: a turn that never ends would run past the bound
    s = new(1, seed=3)
    bound = GAME.max_actions(1, s.options)
    rng = Rng(3)
    for _ in range(bound + 1):
        s.apply(0, rng.choice(s.legal_actions(0)))
        s.turn = 0  # the round never ends
        s.deck = TABLES.deck[:25]
    assert s.decisions > bound and not s.is_over


@pytest.mark.pure_build
def test_the_harness_catches_a_broken_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule broken on purpose (the view shows the hidden order of the deck, R2) fails the
    conformance harness, which passes the unbroken game."""
    from cove.testing import HarnessError, random_sim_test

    random_sim_test(GAME.id, 2, games=1, seed=1)
    view = TucanaState._view

    def broken(self: TucanaState, player: int | None) -> dict[str, Any]:
        v: dict[str, Any] = view(self, player)
        v["deck_order"] = [str(c) for c in self.deck]  # the bug: the hidden deck is shown
        return v

    monkeypatch.setattr(TucanaState, "_view", broken)
    with pytest.raises(HarnessError, match=r"redeterminize|secrecy"):
        random_sim_test(GAME.id, 2, games=2, seed=1)
