"""The observation (SPEC.md, Observation) and the legal mask: the fast table-driven encoder
gives exactly the floats of the layout as SPEC.md states it, written here plainly."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from cove.core.rng import Rng
from cove.games.tricky_tides import GAME
from cove.games.tricky_tides.constants import HANDS, ISLAND_GOODS, ORDER_GOLD, ROUNDS, SEATS, G
from cove.games.tricky_tides.data import DATA, NAV_CARDS
from cove.games.tricky_tides.decision_stack import OVER, PHASE_NAMES, SEA_STEP
from cove.games.tricky_tides.geometry import CELLS
from cove.games.tricky_tides.observation import OBS_SIZE
from cove.games.tricky_tides.state import TidesState


def spec_observation(s: TidesState, player: int) -> list[float]:
    """SPEC.md's table, row by row, with nothing precomputed."""
    n = s.n
    seats = [(player + i) % n if i < n else -1 for i in range(SEATS)]

    def bits(mask: int, k: int) -> list[float]:
        return [float(mask >> i & 1) for i in range(k)]

    def one_hot(i: int, k: int) -> list[float]:
        return [1.0 if j == i else 0.0 for j in range(k)]

    out = bits(s.hands[player], NAV_CARDS) + bits(s.played, NAV_CARDS)
    for q in seats:
        out += one_hot(s.trick[q] if q >= 0 else -1, NAV_CARDS)
    for q in seats:
        out += one_hot(s.pos[q] if q >= 0 else -1, CELLS)
    out += [float(x) for x in s.sea]
    out += [ISLAND_GOODS[s.layout[c]] / 5.0 for c in range(CELLS)]
    out += [k / 10.0 for k in s.goods]
    for o in s.orders_on:
        if o < 0:
            out += [0.0] * 10
        else:
            od = DATA.orders[o]
            out += [k / 5.0 for k in od.need] + [od.gold / 10.0] + one_hot(od.monster, 4)
    for q in seats:
        out += [s.hold[q * G + t] / 10.0 for t in range(G)] if q >= 0 else [0.0] * G
    for q in seats:
        out += [float(s.anchors >> q & 1)] if q >= 0 else [0.0]
    for q in seats:
        out += bits(s.voids >> (q * 4), 4) if q >= 0 else [0.0] * 4
    for q in seats:
        out += ([sum(ORDER_GOLD[o] for o in s.won[q]) / 40.0, len(s.won[q]) / 10.0]
                if q >= 0 else [0.0, 0.0])
    out += [b / 3.0 for b in DATA.sightings[s.sight[player]].bonus]
    out += one_hot(s.round, ROUNDS) + one_hot(s.hand_no, HANDS)
    out += one_hot(s.phase, len(PHASE_NAMES))
    slot = {q: i for i, q in enumerate(seats) if q >= 0}
    out += one_hot(-1 if s.phase == OVER else slot.get(s.cur, -1), SEATS)
    out += one_hot(slot[s.leader], SEATS) + one_hot(slot[s.lead], SEATS)
    out += one_hot(s.heading if s.phase == SEA_STEP else -1, 8)
    out += [s.hold_limit / 10.0] + [k / 20.0 for k in s.bag]
    for c in s.mod.mpos or (-1,) * 4:
        out += one_hot(c, CELLS)
    out += one_hot(s.mod.event, len(DATA.events))
    out += [float(q >= 0) for q in seats]
    return out


def sampled_states(options: dict[str, Any], games: int) -> Iterator[TidesState]:
    """Every third state of random games at 2, 3 and 4 players, the end included."""
    for n in (2, 3, 4):
        for seed in range(games):
            s = GAME.new(n, seed, log=False, **options)
            assert isinstance(s, TidesState)
            rng = Rng(seed + 100 * n)
            step = 0
            while True:
                if step % 3 == 0 or s.is_over:
                    yield s
                if s.is_over:
                    break
                p = s.to_move()[0]
                s.apply(p, rng.choice(s.legal_actions(p)))
                step += 1


@pytest.mark.parametrize("options", [{}, {"events": "true", "monsters": "true"},
                                     {"first_leader": "ask"}],
                         ids=["base", "modules", "first-leader-ask"])
def test_observation_is_the_spec_layout_value_for_value(options: dict[str, Any]) -> None:
    checked = 0
    for s in sampled_states(options, games=2):
        for p in range(s.n):
            got = s.observation(p)
            assert len(got) == OBS_SIZE and all(type(x) is float for x in got)
            assert got == spec_observation(s, p)
            checked += 1
    assert checked > 300


def test_observation_of_a_clone_follows_the_clone_not_the_original() -> None:
    s = GAME.new(3, 4, log=False)
    assert isinstance(s, TidesState)
    before = s.observation(0)
    c = s.clone()
    p = c.to_move()[0]
    c.apply(p, c.legal_actions(p)[0])
    assert s.observation(0) == before
    assert c.observation(0) == spec_observation(c, 0) != before


def test_legal_mask_is_the_action_space_mask_of_the_legal_actions() -> None:
    checked = 0
    for s in sampled_states({"events": "true", "monsters": "true"}, games=1):
        for p in range(s.n):
            want = s.action_space.mask(s.legal_actions(p))
            assert s.legal_mask(p) == want and len(want) == s.action_space.size
            checked += any(want)
    assert checked > 50
