"""The observation (SPEC.md, Observation) and the legal mask.

The observation's blocks (``observation.OBSERVER``) give exactly the floats of the layout
as SPEC.md states it, written here plainly (``spec_observation``). The blocks the core
keeps (``cove.core.observer``) equal the observation made from nothing
(``OBSERVER.fresh``) and that plain encoding after every step, whatever happened in
between: 2-4 players with and without the modules, observers asked in any order or left
out for many steps, clones played on after the original was observed, ``for_player``,
``redeterminize``, JSON and pickle copies, and fields changed by hand. Observing a state
changes nothing in it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from cove.core import Rng, replaced
from cove.games.tricky_tides import GAME
from cove.games.tricky_tides.constants import HANDS, ISLAND_GOODS, ORDER_GOLD, ROUNDS, SEATS
from cove.games.tricky_tides.data import DATA, NAV_CARDS
from cove.games.tricky_tides.data import GOODS_TYPES as G
from cove.games.tricky_tides.decision_stack import OVER, PHASE_NAMES, SEA_STEP
from cove.games.tricky_tides.geometry import CELLS
from cove.games.tricky_tides.observation import OBSERVER
from cove.games.tricky_tides.state import TidesState
from tests.games.observations import check_copies_played_on, check_kept_along_a_game, dense_of

SIZE = 604
"""SPEC.md: the observation's floats at every player count."""


def test_the_size_is_the_same_at_every_player_count() -> None:
    assert [GAME.observation_size(n) for n in (2, 3, 4)] == [SIZE] * 3


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
        out += one_hot(s.ship_cells[q] if q >= 0 else -1, CELLS)
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
        out += ([sum(ORDER_GOLD[o] for o in s.delivered[q]) / 40.0, len(s.delivered[q]) / 10.0]
                if q >= 0 else [0.0, 0.0])
    out += [b / 3.0 for b in DATA.sightings[s.sightings[player]].bonus]
    out += one_hot(s.round, ROUNDS) + one_hot(s.hand_no, HANDS)
    out += one_hot(s.phase, len(PHASE_NAMES))
    slot = {q: i for i, q in enumerate(seats) if q >= 0}
    out += one_hot(-1 if s.phase == OVER else slot.get(s.current, -1), SEATS)
    out += one_hot(slot[s.leader], SEATS) + one_hot(slot[s.led_by], SEATS)
    out += one_hot(s.heading if s.phase == SEA_STEP else -1, 8)
    out += [s.hold_limit / 10.0] + [k / 20.0 for k in s.bag]
    for c in s.modules.monster_cells or (-1,) * 4:
        out += one_hot(c, CELLS)
    out += one_hot(s.modules.event, len(DATA.events))
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
            assert len(got) == SIZE and all(type(x) is float for x in got)
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


# ------------------------------------------------------------------ the kept blocks
OPTIONS: list[dict[str, Any]] = [{}, {"events": "true", "monsters": "true"},
                                 {"first_leader": "ask"}]
IDS = ["base", "modules", "first-leader-ask"]


def new(n: int, seed: int, **options: Any) -> TidesState:
    s = GAME.new(n, seed, log=False, **options)
    assert isinstance(s, TidesState)
    return s


def check(s: TidesState, players: list[int] | None = None) -> None:
    """The observation of each of ``players`` (default all), its kept blocks reused, equals
    the one made from nothing and SPEC.md's plain encoding, in both forms."""
    for p in range(s.n) if players is None else players:
        want = spec_observation(s, p)
        assert dense_of(s.observation_sparse(p), SIZE) == want
        assert dense_of(OBSERVER.fresh(s, p), SIZE) == want
        assert s.observation(p) == want


def random_step(s: TidesState, rng: Rng) -> None:
    p = s.to_move()[0]
    s.apply(p, rng.choice(s.legal_actions(p)))


@pytest.mark.parametrize("options", OPTIONS, ids=IDS)
@pytest.mark.parametrize("n", [2, 3, 4])
def test_kept_observation_equals_the_fresh_and_plain_ones_after_every_step(
        n: int, options: dict[str, Any]) -> None:
    """Every seat after every step in one game; in another, a random few observers in a
    random order, the others left out for a while. What a call handed out never changes
    afterwards."""
    for seed in (n, n + 10):
        check_kept_along_a_game(new(n, seed, **options), check, Rng(seed),
                                every_seat=seed == n)


@pytest.mark.parametrize("options", OPTIONS[:2], ids=IDS[:2])
@pytest.mark.parametrize("n", [2, 4])
def test_copies_played_on_never_go_stale(
        n: int, options: dict[str, Any]) -> None:
    """A clone, ``for_player`` and ``redeterminize`` copies, JSON and pickle copies of an
    observed state observe correctly as they are played on; the original's kept blocks
    stay right (a copy's moves never reach them)."""
    s = new(n, 40 + n, **options)
    rng = Rng(40 + n)
    k = 0
    while not s.is_over:
        check(s)
        if k % 5 == 0:
            check_copies_played_on(s, check, rng, seed=k, moves=7, kept=())
        random_step(s, rng)
        k += 1
    check(s)


def test_clone_played_on_after_the_original_was_observed_shows_its_own_moves() -> None:
    """The original observed at every step, its clone played on alone: neither sees the
    other's fields."""
    s = new(3, 5)
    rng = Rng(5)
    for _ in range(12):
        check(s)
        random_step(s, rng)
    check(s)
    c = s.clone()
    for _ in range(25):
        random_step(c, rng)
        check(c)
        check(s)


def test_fields_changed_by_hand_show_in_the_next_observation() -> None:
    """Each field the observation reads, changed in place (lists and masks) or rebound
    (tuples, ``modules``, the step stack), shows in every seat's next observation."""
    s = new(3, 11, events="true", monsters="true")
    rng = Rng(11)
    for _ in range(20):
        random_step(s, rng)
    check(s)
    hand = s.hands[0]
    low = hand & -hand
    changes = [
        lambda: s.hands.__setitem__(0, hand & ~low),                    # a card leaves
        lambda: setattr(s, "played", s.played | low),                  # ... and is out
        lambda: s.hands.__setitem__(1, s.hands[1] ^ 0xFFFF),            # many bits at once
        lambda: s.trick.__setitem__(1, (s.trick[1] + 1) % NAV_CARDS),
        lambda: s.trick.__setitem__(2, -1),
        lambda: s.ship_cells.__setitem__(2, (s.ship_cells[2] + 5) % 12),
        lambda: s.goods.__setitem__(3 * G + 1, s.goods[3 * G + 1] + 2),
        lambda: setattr(s, "orders_on", replaced(s.orders_on, 0, 1 if s.orders_on[0] != 1 else -1)),
        lambda: s.hold.__setitem__(G + 2, s.hold[G + 2] + 1),
        lambda: s.hold.__setitem__(2, s.hold[2] + 3),
        lambda: setattr(s, "anchors", s.anchors ^ 0b101),
        lambda: setattr(s, "voids", s.voids ^ 0b1001_0110_0001),
        lambda: setattr(s, "delivered", replaced(s.delivered, 2, (*s.delivered[2], 0))),
        lambda: setattr(s, "sightings", (*s.sightings[1:], s.sightings[0])),
        lambda: s.bag.__setitem__(4, s.bag[4] + 1),
        lambda: setattr(s, "hold_limit", s.hold_limit - 2),
        lambda: setattr(s, "round", (s.round + 1) % ROUNDS),
        lambda: setattr(s, "hand_no", (s.hand_no + 2) % 6),
        lambda: setattr(s, "leader", (s.leader + 1) % 3),
        lambda: setattr(s, "led_by", (s.led_by + 2) % 3),
        lambda: setattr(s, "modules", s.modules._replace(
            event=(s.modules.event + 1) % len(DATA.events),
            monster_cells=(*s.modules.monster_cells[1:], s.modules.monster_cells[0]))),
        lambda: setattr(s, "layout", tuple(reversed(s.layout))),
        lambda: setattr(s, "sea", tuple(not x for x in s.sea)),
        s.pop,                                                          # the top step
    ]
    for change in changes:
        change()
        s._legal = None
        check(s)
    copy = GAME.from_json(s.to_json())  # a state observed for the first time agrees
    assert isinstance(copy, TidesState)
    check(copy)


def test_observing_changes_nothing_in_the_state() -> None:
    s = new(4, 3)
    rng = Rng(3)
    for _ in range(15):
        random_step(s, rng)
    doc, print_before = s.to_json(), s.fingerprint()
    check(s)
    assert s.to_json() == doc and s.fingerprint() == print_before
