"""The conformance hooks (``check_invariants``, ``private_items``, ``max_actions``): each one
fails when the state is broken on purpose."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from cove.core import Rng, Step
from cove.games.tricky_tides import GAME
from cove.games.tricky_tides.options import TidesOptions
from cove.games.tricky_tides.state import TidesState
from tests.games.tricky_tides.helpers import new, play_random


def _played(n: int = 3, seed: int = 3, moves: int = 40, **options: Any) -> TidesState:
    s = new(n, seed, **options)
    rng = Rng(seed)
    for _ in range(moves):
        p = s.to_move()[0]
        s.apply(p, rng.choice(s.legal_actions(p)))
    return s


def _lose_cube(s: TidesState) -> None:
    t = next(t for t in range(5) if s.bag[t])
    s.bag[t] -= 1
    s.bag_count -= 1


def _card_twice(s: TidesState) -> None:
    s.aside |= s.hands[0] & -s.hands[0]          # P1's lowest card also set aside


def _lose_card(s: TidesState) -> None:
    s.hands[0] &= s.hands[0] - 1                 # P1's lowest card vanishes


def _lose_order(s: TidesState) -> None:
    s.order_deck = s.order_deck[:-1]


def _bag_count(s: TidesState) -> None:
    s.bag_count += 1


def _hold_count(s: TidesState) -> None:
    s.hold_count[1] += 1


def _round(s: TidesState) -> None:
    s.round = 7


def _sightings(s: TidesState) -> None:
    s.sightings = (s.sightings[0], s.sightings[0], *s.sightings[2:])


def _ship_off_map(s: TidesState) -> None:
    s.ship_cells[0] = 12


def _monsters_share(s: TidesState) -> None:
    cells = s.modules.monster_cells
    s.modules = s.modules._replace(monster_cells=(cells[0], cells[0], *cells[2:]))


def _unknown_step(s: TidesState) -> None:
    s.push(Step("draw_cards", (0,)))


def _step_seat(s: TidesState) -> None:
    top = s.pop()
    s.push(Step(top.kind, (s.n,), top.data))


BREAKS: dict[str, Callable[[TidesState], None]] = {
    "cube lost": _lose_cube, "card in two places": _card_twice, "card lost": _lose_card,
    "order lost": _lose_order, "bag count": _bag_count, "hold count": _hold_count,
    "round out of range": _round, "sightings dealt twice": _sightings,
    "ship off the map": _ship_off_map, "two monsters on one island": _monsters_share,
    "unknown step on the stack": _unknown_step, "step for no seat": _step_seat,
}


@pytest.mark.parametrize("name", list(BREAKS))
def test_check_invariants_fails_on_a_broken_state(name: str) -> None:
    s = _played(monsters=True, events=True)
    s.check_invariants()                         # whole
    broken = s.clone()
    BREAKS[name](broken)
    with pytest.raises(AssertionError):
        broken.check_invariants()
    s.check_invariants()                         # the clone was broken, not s


def _subvalues(x: Any) -> list[Any]:
    out = [x]
    if isinstance(x, dict):
        for v in x.values():
            out += _subvalues(v)
    elif isinstance(x, list):
        for v in x:
            out += _subvalues(v)
    return out


def leaks(private: dict[int, dict[str, Any]], views: dict[int | None, Any]) -> list[str]:
    """The harness's check, done locally: a player's private item (not a scalar, not
    empty) that appears anywhere in another player's or the spectator's view."""
    found = []
    for p, items in private.items():
        for name, value in items.items():
            if not isinstance(value, (dict, list)) or not value:
                continue
            for q, v in views.items():
                if q != p and any(value == sub for sub in _subvalues(v)):
                    found.append(f"P{p + 1}'s {name} in the view of {q}")
    return found


def test_private_items_are_in_the_own_view_and_leak_check_catches_a_leak() -> None:
    s = _played(4, 5, 30)
    private = {p: s.private_items(p) for p in range(4)}
    views: dict[int | None, Any] = {p: s.view(p) for p in range(4)}
    views[None] = s.view(None)
    for p in range(4):
        assert private[p]["hand"] and private[p]["hand"] == views[p]["hand"]
        assert private[p]["sightings"] == views[p]["sightings"]
    assert leaks(private, views) == []
    views[0]["seats"][1]["cards"] = s.view(1)["hand"]          # P2's hand put in P1's view
    assert leaks(private, views) == ["P2's hand in the view of 0"]
    views[0]["seats"][1]["cards"] = None
    views[None]["secret"] = {"card": s.view(2)["sightings"]}   # P3's sightings card
    assert leaks(private, views) == ["P3's sightings in the view of None"]


def test_private_items_end_when_the_game_reveals_them() -> None:
    s = new(3, 2)
    play_random(s, 2)
    assert all("sightings" not in s.private_items(p) for p in range(3))  # revealed at the end


def test_max_actions_bounds_real_games() -> None:
    assert GAME.max_actions is not None
    for n, seed, opts in ((2, 1, {}), (3, 2, {"monsters": True, "events": True}),
                          (4, 3, {"monsters": True, "events": True, "first_leader": "ask"})):
        s = GAME.new(n, seed, **opts)
        play_random(s, seed)  # type: ignore[arg-type]
        used = len(s.record()["actions"])
        assert isinstance(s.options, TidesOptions)
        bound = GAME.max_actions(n, s.options)
        assert used <= bound
        # the bound is about a game's size, not absurd
        assert bound < 100 * used


@pytest.mark.pure_build
def test_the_harness_catches_a_broken_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule broken on purpose (a delivered good never reaches the bag, R6) fails the
    conformance harness, which passes the unbroken game."""
    from cove.testing import HarnessError, random_sim_test

    random_sim_test(GAME.id, 3, games=1, seed=1)
    deliver = TidesState._deliver

    def broken(self: TidesState, p: int, tax: int = -1) -> None:
        deliver(self, p, tax)
        for t in range(len(self.bag)):
            if self.bag[t] > 0:
                self.bag[t] -= 1  # the bug: a delivered good is lost, not bagged
                self.bag_count -= 1
                break

    monkeypatch.setattr(TidesState, "_deliver", broken)
    with pytest.raises(HarnessError, match="invariants"):
        random_sim_test(GAME.id, 3, games=2, seed=1)
