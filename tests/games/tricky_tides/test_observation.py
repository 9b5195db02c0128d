"""The observation (SPEC.md, Observation) and the legal mask.

The fast table-driven encoder gives exactly the floats of the layout as SPEC.md states it,
written here plainly (``spec_observation``). Every observer's kept observation
(``TidesState.obs_seen``, and the runs the observers share in ``obs_table``, brought up to
date on each call: observation.py) equals the observation made from nothing
(``observation.encode_sparse``, a fresh ``Seen``) and that plain encoding after every
step, whatever happened in between: 2-4 players with and without the modules, observers
asked in any order or left out for many steps, clones played on after the original was
observed, ``for_player``, ``redeterminize``, JSON and pickle copies, and fields changed by
hand. The kept observation is never copied by ``clone``, pickling or ``to_json``, and a
state nobody observes never makes one."""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from typing import Any

import pytest

from cove.core.rng import Rng
from cove.games.tricky_tides import GAME
from cove.games.tricky_tides.constants import HANDS, ISLAND_GOODS, ORDER_GOLD, ROUNDS, SEATS, G
from cove.games.tricky_tides.data import DATA, NAV_CARDS
from cove.games.tricky_tides.decision_stack import OVER, PHASE_NAMES, SEA_STEP
from cove.games.tricky_tides.geometry import CELLS
from cove.games.tricky_tides.observation import OBS_SIZE, WHOLE, encode_sparse
from cove.games.tricky_tides.state import TidesState
from tests.games.observations import check_copies_played_on, check_kept_along_a_game


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


# ------------------------------------------------------------------ the kept observation
OPTIONS: list[dict[str, Any]] = [{}, {"events": "true", "monsters": "true"},
                                 {"first_leader": "ask"}]
IDS = ["base", "modules", "first-leader-ask"]


def new(n: int, seed: int, **options: Any) -> TidesState:
    s = GAME.new(n, seed, log=False, **options)
    assert isinstance(s, TidesState)
    return s


def check(s: TidesState, players: list[int] | None = None) -> None:
    """The kept observation of each of ``players`` (default all) is one whole run equal to
    the one made from nothing and to SPEC.md's plain encoding, in both forms."""
    for p in range(s.n) if players is None else players:
        want = spec_observation(s, p)
        ones, at, values = s.observation_sparse(p)
        assert not len(ones) and at is WHOLE
        assert list(values) == want
        fresh_ones, fresh_at, fresh_values = encode_sparse(s, p)
        assert not len(fresh_ones) and fresh_at is WHOLE and list(fresh_values) == want
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
def test_copies_start_without_the_kept_observation_and_never_go_stale(
        n: int, options: dict[str, Any]) -> None:
    """A clone, ``for_player`` and ``redeterminize`` copies, JSON and pickle copies of an
    observed state start with nothing kept and observe correctly as they are played on;
    the original's kept observations stay right (a copy's moves never reach them)."""
    s = new(n, 40 + n, **options)
    rng = Rng(40 + n)
    k = 0
    while not s.is_over:
        check(s)
        if k % 5 == 0:
            check_copies_played_on(s, check, rng, seed=k, moves=7,
                                   kept=("obs_seen", "obs_table"))
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
    (tuples, ``mod``, the step stack), shows in every seat's next observation."""
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
        lambda: s.pos.__setitem__(2, (s.pos[2] + 5) % 12),
        lambda: s.goods.__setitem__(3 * G + 1, s.goods[3 * G + 1] + 2),
        lambda: s.orders_on.__setitem__(0, 1 if s.orders_on[0] != 1 else -1),
        lambda: s.hold.__setitem__(G + 2, s.hold[G + 2] + 1),
        lambda: s.hold.__setitem__(2, s.hold[2] + 3),
        lambda: setattr(s, "anchors", s.anchors ^ 0b101),
        lambda: setattr(s, "voids", s.voids ^ 0b1001_0110_0001),
        lambda: s.won.__setitem__(2, (*s.won[2], 0)),
        lambda: setattr(s, "sight", (*s.sight[1:], s.sight[0])),
        lambda: s.bag.__setitem__(4, s.bag[4] + 1),
        lambda: setattr(s, "hold_limit", s.hold_limit - 2),
        lambda: setattr(s, "round", (s.round + 1) % ROUNDS),
        lambda: setattr(s, "hand_no", (s.hand_no + 2) % 6),
        lambda: setattr(s, "leader", (s.leader + 1) % 3),
        lambda: setattr(s, "lead", (s.lead + 2) % 3),
        lambda: setattr(s, "mod", s.mod._replace(
            event=(s.mod.event + 1) % len(DATA.events),
            mpos=(*s.mod.mpos[1:], s.mod.mpos[0]))),
        lambda: setattr(s, "layout", tuple(reversed(s.layout))),
        lambda: setattr(s, "sea", tuple(not x for x in s.sea)),
        lambda: setattr(s, "_steps", s._steps[:-1]),
    ]
    for change in changes:
        change()
        s._legal = None
        check(s)
    copy = GAME.from_json(s.to_json())  # a state observed for the first time agrees
    assert isinstance(copy, TidesState)
    check(copy)


def test_clone_pickle_and_json_do_not_carry_the_kept_observation() -> None:
    s = new(4, 3)
    rng = Rng(3)
    for _ in range(15):
        random_step(s, rng)
    doc, print_before = s.to_json(), s.fingerprint()
    check(s)
    assert s.obs_seen is not None and all(v is not None for v in s.obs_seen)
    assert s.obs_table is not None
    for c in (s.clone(), pickle.loads(pickle.dumps(s)), GAME.from_json(s.to_json())):
        assert isinstance(c, TidesState)
        assert c.obs_seen is None and c.obs_table is None
    assert not {"obs_seen", "obs_table"} & set(s.to_json()["state"])
    assert s.to_json() == doc and s.fingerprint() == print_before  # observing changes nothing


def test_raw_play_makes_no_kept_observation() -> None:
    """The apply path never makes or touches the kept observation: a state nobody observes
    plays a whole game with none, and an observed one keeps the observer's parts as they
    were made until it is observed again."""
    s = new(3, 8)
    rng = Rng(8)
    while not s.is_over:
        random_step(s, rng)
        assert s.obs_seen is None and s.obs_table is None
    s = new(3, 8)
    check(s, [0])
    assert s.obs_seen is not None
    view = s.obs_seen[0]
    assert view is not None
    kept = list(view.values)
    for _ in range(10):
        random_step(s, rng)
    assert s.obs_seen[0] is view and list(view.values) == kept
    check(s)
