"""The observation (SPEC.md, Observation), built by the game in sparse form, against a plain
list encoding of the same layout (the encoder before the sparse form, one part after
another): the same floats, bit for bit, at every player count, under the options that
change what is shown, in clones, redeterminized copies and states rebuilt from JSON. The
legal actions' indices (``legal_indices``, from MaskIndex: each action's numbers, no
hashing) are the action space's own, in the legal list's order, and the mask is made from
them."""

from __future__ import annotations

from typing import Any

import pytest

from cove.core import Rng
from cove.games.the_tide import GAME
from cove.games.the_tide.beach import SQUARES
from cove.games.the_tide.data import DATA, TILE_TYPES
from cove.games.the_tide.observation import HEIGHT, MAX_FRIENDS
from cove.games.the_tide.rules import PHASE_INDEX, PLACE, RETURN, PendingReturn, Placing
from cove.games.the_tide.state import TideState
from tests.games.observations import check_against_plain


def one_hot(i: int, k: int) -> list[float]:
    """``k`` floats with 1.0 at ``i`` (none for ``i = -1``)."""
    return [1.0 if j == i else 0.0 for j in range(k)]


def plain_observation(s: TideState, player: int) -> list[float]:
    n = s.n
    out: list[float] = []
    for t in s.grid:
        out += one_hot(t, 6)
    friends = [0.0] * (SQUARES * n)
    for i, f in enumerate(s.friends):
        if f >= 0:
            friends[i * n + (f - player) % n] = 1.0
    out += friends
    for c, pile in enumerate(s.piles):
        out.append(len(pile) / HEIGHT)
        slots = [0.0] * (HEIGHT * 5)
        for k in range(s.hidden[c], len(pile)):
            slots[k * 5 + pile[k] - 1] = 1.0
        out += slots
    counts = [DATA.counts[t] for t in TILE_TYPES]
    for i in range(n):
        p = (player + i) % n
        out += [s.held[p][t] / counts[t - 1] for t in TILE_TYPES]
        out += [s.points[p] / DATA.win_points, s.friends_on_beach[p] / MAX_FRIENDS,
                s.friends_waiting[p] / MAX_FRIENDS]
    out += [s.removed[t] / counts[t - 1] for t in TILE_TYPES]
    out += one_hot((s.active - player) % n, n)
    top = s.top_step
    out += one_hot(-1 if top is None else (top.players[0] - player) % n, n)
    out += one_hot(-1 if top is None else PHASE_INDEX[top.kind], 5)
    placing: Placing | None = top.data if top is not None and top.kind == PLACE else None
    out += one_hot((placing.owners[0] - player) % n if placing else -1, n)
    out.append(len(placing.owners) / MAX_FRIENDS if placing else 0.0)
    if top is not None and top.kind == RETURN:
        pending: PendingReturn = top.data
        out += [pending.pool[t] / 4 for t in TILE_TYPES] + [s.tiles_to_return / 4]
        out += one_hot(pending.reason - 1, 3)
    else:
        out += [0.0] * 5 + [s.tiles_to_return / 4] + [0.0] * 3
    out += [s.idle_turns / (s.rules.stall_rounds * n), s.turns / s.rules.turn_limit,
            1.0 if s.column_end else 0.0]
    return out


OPTIONS = [{}, {"pile_visibility": "all", "check_timing": "every_turn",
                "column_end": "after_check"},
           {"stall_counts": "idle", "stall_rounds": 1, "move_dirs": 8,
            "gravity": "one_step", "shirk_penalty": "per_player"}]


@pytest.mark.parametrize("options", OPTIONS, ids=["base", "visible", "variants"])
def test_observation_is_the_plain_layout_value_for_value(options: dict[str, Any]) -> None:
    checked = sum(check_against_plain(GAME, plain_observation, n, seed=n, rng_seed=n,
                                      every=3, options=options)
                  for n in range(GAME.min_players, GAME.max_players + 1))
    assert checked > 100


# -- the kept blocks (cove.core.observer): never stale, whatever changes the state -------
def sparse_is_plain(s: TideState, player: int) -> None:
    """``player``'s sparse form stands for exactly the plain encoding, with no index out of
    range or given twice."""
    ones, at, values = s.observation_sparse(player)
    size = GAME.observation_size(s.n)
    assert len(at) == len(values)
    indices = [*ones, *at]
    assert len(set(indices)) == len(indices), "an index given twice"
    assert all(type(i) is int and 0 <= i < size for i in indices)
    dense = [0.0] * size
    for i in ones:
        dense[i] = 1.0
    for i, v in zip(at, values, strict=True):
        assert type(v) is float
        dense[i] = v
    assert dense == plain_observation(s, player)


def all_seats_are_plain(s: TideState) -> None:
    for p in range(s.n):
        sparse_is_plain(s, p)


def random_step(s: TideState, rng: Rng) -> None:
    p = s.to_move()[0]
    s.apply(p, rng.choice(s.legal_actions(p)))


@pytest.mark.parametrize("options", OPTIONS, ids=["base", "visible", "variants"])
@pytest.mark.parametrize("n", range(GAME.min_players, GAME.max_players + 1))
def test_kept_parts_equal_a_fresh_encoding_after_every_step(
        n: int, options: dict[str, Any]) -> None:
    """Along seeded random games, after every step: every seat of the state itself (its
    parts kept from the steps before), of a clone, a ``for_player`` copy, a
    redeterminized copy (the unseen pile bottoms resampled) and, every fifth step, a
    state rebuilt from JSON (which starts with no parts), each also after a move of its
    own; and the original again after the clone has moved on (the clone shares its parts
    until it makes its own). Two games under the default options, one under each
    other set."""
    for seed in (n, 100 + n) if not options else (200 + n,):
        s = GAME.new(n, seed=seed, log=False, **options)
        assert isinstance(s, TideState)
        rng = Rng(seed)
        step = 0
        while not s.is_over:
            all_seats_are_plain(s)
            q = rng.below(n)
            clone = s.clone()
            assert isinstance(clone, TideState)
            sparse_is_plain(clone, q)
            copies = [s.for_player(q, Rng(step)), s.redeterminize(q, Rng(step + 1))]
            if step % 5 == 0:  # (its history makes the round trip the slow part)
                copies.append(GAME.from_json(s.to_json()))
            for copy in copies:
                assert isinstance(copy, TideState)
                sparse_is_plain(copy, q)
            if not clone.is_over:
                random_step(clone, rng)
                all_seats_are_plain(clone)
                all_seats_are_plain(s)
            for copy in copies:
                if not copy.is_over:
                    random_step(copy, rng)
                    sparse_is_plain(copy, q)
            random_step(s, rng)
            step += 1
        all_seats_are_plain(s)


def midgame(n: int, seed: int, steps: int = 40) -> TideState:
    s = GAME.new(n, seed=seed, log=False)
    assert isinstance(s, TideState)
    rng = Rng(seed)
    for _ in range(steps):
        random_step(s, rng)
    assert not s.is_over
    return s


HAND_CHANGES = {
    "beach tile": lambda s: s.grid.__setitem__(next(i for i, t in enumerate(s.grid) if t), 0),
    "friend": lambda s: s.friends.__setitem__(s.friends.index(-1), 0),
    "friend removed": lambda s: s.friends.__setitem__(
        next(i for i, f in enumerate(s.friends) if f >= 0), -1),
    "pile tile": lambda s: s.piles[0].pop(),
    "pile appended": lambda s: s.piles[1].append(2),
    "pile swapped": lambda s: s.piles.__setitem__(2, s.piles[2][::-1]),
    "hidden": lambda s: s.hidden.__setitem__(3, 0),
    "held": lambda s: s.held[1].__setitem__(2, s.held[1][2] + 1),
    "points": lambda s: s.points.__setitem__(2, 7),
    "friends_on_beach": lambda s: s.friends_on_beach.__setitem__(0, 2),
    "friends_waiting": lambda s: s.friends_waiting.__setitem__(1, 2),
    "removed": lambda s: s.removed.__setitem__(4, 3),
    "grid replaced": lambda s: setattr(s, "grid", s.grid[::-1]),
    "counters": lambda s: (setattr(s, "idle_turns", 2), setattr(s, "turns", 9),
                           setattr(s, "column_end", True), setattr(s, "tiles_to_return", 2)),
}


@pytest.mark.parametrize("change", list(HAND_CHANGES))
@pytest.mark.parametrize("legal_dropped", [True, False], ids=["legal_dropped", "as_is"])
def test_kept_parts_follow_changes_made_by_hand(change: str, legal_dropped: bool) -> None:
    """A state changed in place by hand, as tools and tests do (with or without
    ``_legal = None``), observes the change at once, in every seat; so does a clone made
    before the change, which shares the parts (the clone's own observation is unchanged)."""
    s = midgame(3, seed=5)
    all_seats_are_plain(s)  # the parts are kept now
    before = s.clone()
    assert isinstance(before, TideState)
    old = [before.observation(p) for p in range(3)]
    HAND_CHANGES[change](s)
    if legal_dropped:
        s._legal = None
    all_seats_are_plain(s)
    assert [s.observation(p) for p in range(3)] != old
    assert [before.observation(p) for p in range(3)] == old
    all_seats_are_plain(before)


# -- the legal actions' indices (the action space's numbers, and the mask made from them) ---
@pytest.mark.parametrize("move_dirs", [4, 8])
def test_legal_indices_are_the_spaces_in_order(move_dirs: int) -> None:
    for n in (2, 3, 6):
        s = GAME.new(n, seed=n, log=False, move_dirs=move_dirs)
        space = s.action_space
        rng = Rng(n)
        steps = 0
        while not s.is_over:
            p = s.to_move()[0]
            legal = s.legal_actions(p)
            got = s.legal_indices(p)
            assert got == [space.encode(a) for a in legal]
            assert all(type(i) is int for i in got)
            assert [i for i, on in enumerate(s.legal_mask(p)) if on] == sorted(got)
            s.apply(p, rng.choice(legal))
            steps += 1
        assert steps > 50
