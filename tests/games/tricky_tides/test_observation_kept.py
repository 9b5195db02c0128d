"""Every observer's kept observation (``TidesState.obs_seen``, and the runs the observers
share in ``obs_table``, brought up to date on each call: observe.py) equals the
observation made from nothing (``observe.encode_sparse``, a fresh ``Seen``) and the plain
encoding of SPEC.md's table after every step, whatever happened in between: 2-4 players
with and without the modules, observers asked in any order or left out for many steps,
clones played on after the original was observed, ``for_player``, ``redeterminize``,
JSON and pickle copies, and fields changed by hand. The kept observation is never copied
by ``clone``, pickling or ``to_json``, and a state nobody observes never makes one."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from cove.core.rng import Rng
from cove.games.tricky_tides import GAME
from cove.games.tricky_tides.constants import ROUNDS, G
from cove.games.tricky_tides.data import DATA, NAV_CARDS
from cove.games.tricky_tides.observation import WHOLE, encode_sparse
from cove.games.tricky_tides.state import TidesState
from tests.games.observations import check_copies_played_on, check_kept_along_a_game
from tests.games.tricky_tides.test_observation import spec_observation

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
