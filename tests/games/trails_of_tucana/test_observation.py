"""The observation and the legal mask (SPEC.md, Observation; the action space): their
values follow the documented layout, the blocks the core keeps never go stale, and the
game's own mask equals the core's generic one.

Every observer's observation (its blocks kept by the core while their inputs are
unchanged) equals a plain encoding of SPEC.md's layout made from the state and its views
after every step, whatever happened in between: every player count, both maps, observers
asked in any order or not for many steps, clones played on, ``for_player`` and
``redeterminize`` copies, JSON and pickle copies, and changes made by hand."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from cove.core import Rng
from cove.games.trails_of_tucana import GAME
from cove.games.trails_of_tucana.data import CARD_NAMES, KINDS
from cove.games.trails_of_tucana.sheets import drawn_on
from cove.games.trails_of_tucana.state import TucanaState
from cove.games.trails_of_tucana.view import sheet
from tests.games.observations import check_kept_along_a_game, dense_of
from tests.games.trails_of_tucana.helpers import (
    end_round,
    link,
    mark_drawn,
    new,
    owe_bonus,
    reveal,
    set_drawn,
)


def fresh(s: TucanaState) -> TucanaState:
    """The same state rebuilt from its JSON form: no cache carried over."""
    t = GAME.from_json(s.to_json())
    assert isinstance(t, TucanaState)
    return t


def test_observation_follows_the_documented_layout() -> None:
    s = new(3, seed=4, special_bonus=True, hide_earlier_cards=False)
    rng = Rng(4)
    for _ in range(7):  # into the second step of a turn, P1 having drawn
        p = s.to_move()[0]
        s.apply(p, rng.choice(s.legal_actions(p)))
    island = s.island
    ne = len(island.edges)
    obs = s.observation(1)
    assert len(obs) == 24 + 3 * (ne + 1)
    assert s.revealed is not None
    assert obs[0:5] == [float(list(s.revealed).count(c)) for c in range(len(CARD_NAMES))]
    assert obs[5:10] == [s.seen.count(c) / 8 for c in range(len(CARD_NAMES))]
    assert obs[10:14] == [s.round / island.rounds, s.turn / 13, float(bool(s.bonus_step)),
                          s.bonus_owed[1] / KINDS]
    assert obs[14:19] == [len(b) / 2 for b in s.blue_cards]
    assert obs[19:24] == [float(k in s.red_cards) for k in range(KINDS)]
    for i, q in enumerate((1, 2, 0)):
        row = obs[24 + i * (ne + 1) : 24 + (i + 1) * (ne + 1)]
        before = s.snapshots[q] if q != 1 else None
        drawn = drawn_on(s, q) if before is None else before.drawn
        assert row[:ne] == [float(drawn[e]) for e in range(ne)]
        assert row[ne] == sheet(s, q, q != 1)["score"] / 100


def test_observation_and_mask_equal_those_of_a_fresh_copy_through_games() -> None:
    """The kept blocks never give stale values: every player's observation equals that
    of the same state rebuilt without them, and the game's mask equals the core's (the
    action space's mask of the legal actions)."""
    for n, opts in ((1, {}), (3, {"map": "grande"}), (5, {"special_bonus": True}),
                    (2, {"hide_earlier_cards": False})):
        s = new(n, seed=n, **opts)
        rng = Rng(n)
        space = GAME.space_for(n, s.options)
        k = 0
        while not s.is_over:
            if k % 5 == 0:
                t = fresh(s)
                for p in range(n):
                    assert s.observation(p) == t.observation(p)
                    assert s.legal_mask(p) == space.mask(s.legal_actions(p))
            p = s.to_move()[0]
            s.apply(p, rng.choice(s.legal_actions(p)))
            k += 1
        t = fresh(s)
        assert [s.observation(p) for p in range(n)] == [t.observation(p) for p in range(n)]


def plain(s: TucanaState, p: int) -> list[float]:
    """``p``'s observation written out from SPEC.md's table: the head from the state's
    fields, each sheet's segments and score from ``p``'s view (the others' as ``p`` sees
    them), with none of the observation's kept blocks."""
    island = s.island
    edge_of = {ends: e for e, ends in enumerate(island.ends)}
    out = [float(list(s.revealed).count(c)) if s.revealed else 0.0
           for c in range(len(CARD_NAMES))]
    hidden = s.options.hide_earlier_cards
    out += [0.0 if hidden else s.seen.count(c) / 8 for c in range(len(CARD_NAMES))]
    out += [s.round / island.rounds, s.turn / 13, 1.0 if s.bonus_step else 0.0,
            s.bonus_owed[p] / KINDS]
    out += [len(b) / 2 for b in s.blue_cards]
    out += [1.0 if k in s.red_cards else 0.0 for k in range(KINDS)]
    sheets = s.view(p)["sheets"]
    for q in [*range(p, s.n), *range(p)]:
        row = [0.0] * len(island.edges)
        for ends in sheets[q]["segments"]:
            row[edge_of[ends]] = 1.0
        out += [*row, sheets[q]["score"] / 100]
    return out


def check(s: TucanaState, players: list[int] | None = None) -> None:
    """The observation of each of ``players`` (default all) equals the plain one, in both
    forms."""
    for p in range(s.n) if players is None else players:
        want = plain(s, p)
        assert dense_of(s.observation_sparse(p), len(want)) == want
        assert s.observation(p) == want


def random_step(s: TucanaState, rng: Rng) -> None:
    p = s.to_move()[0]
    s.apply(p, rng.choice(s.legal_actions(p)))


CONFIGS = [(n, {}) for n in range(1, 9)] + [
    (3, {"map": "grande"}), (2, {"hide_earlier_cards": False}),
    (5, {"special_bonus": True, "map": "grande"}), (4, {"compulsory_bonus": True}),
]


@pytest.mark.parametrize(("n", "opts"), CONFIGS)
def test_kept_observation_equals_the_plain_one_after_every_step(
        n: int, opts: dict[str, Any]) -> None:
    """Every observer after every step in one game; in another, a random few observers in
    a random order, the others left out for a while (their slots then differ from the
    state in several segments). What a call handed out never changes afterwards."""
    for seed in (n, n + 10):
        check_kept_along_a_game(new(n, seed=seed, **opts), check, Rng(seed),
                                every_seat=seed == n)


@pytest.mark.parametrize(("n", "opts"), [(1, {}), (3, {}), (4, {"map": "grande"}),
                                         (6, {"special_bonus": True})])
def test_copies_never_share_or_stale_the_kept_observation(n: int, opts: dict[str, Any]) -> None:
    """A clone, a ``for_player`` or ``redeterminize`` copy, a JSON and a pickle copy
    each observe correctly as they are played on, and the original's kept blocks stay
    right (a copy's moves never reach them)."""
    s = new(n, seed=30 + n, **opts)
    rng = Rng(30 + n)
    k = 0
    while not s.is_over:
        check(s)
        if k % 4 == 0:
            p = s.to_move()[0]
            copies = [s.clone(), s.for_player(p), s.redeterminize(p, Rng(k)),
                      GAME.from_json(s.to_json()), pickle.loads(pickle.dumps(s))]
            for c in copies:
                assert isinstance(c, TucanaState)
                check(c)
                for _ in range(rng.below(6)):
                    if c.is_over:
                        break
                    random_step(c, rng)
                    check(c)
            check(s)
        random_step(s, rng)
        k += 1
    check(s)


def test_changes_by_hand_are_seen_by_the_kept_observation() -> None:
    """The test helpers' changes (segments linked or marked outside the turn, new cards,
    a bonus owed, the round ended) show in the next observation of every seat."""
    s = new(3, seed=7, special_bonus=True)
    rng = Rng(7)
    for _ in range(9):
        random_step(s, rng)
    check(s)
    island = s.island
    # the others see these sheets as they are
    assert s.snapshots[1] is None and s.snapshots[2] is None
    free = [e for e in range(len(island.edges)) if not drawn_on(s, 1)[e]]
    a, b = island.edges[free[0]]
    link(s, 1, island.labels[a], island.labels[b])
    check(s)
    mark_drawn(s, 2, free[1:30])  # many segments at once: a whole row
    check(s)
    for gone in (free[1:2], free[2:5], free[5:30]):  # one, a few, then many taken away
        set_drawn(s, 2, gone, 0)  # the legal moves are found again
        check(s)
    reveal(s, "any", "water")
    check(s)
    owe_bonus(s, 0, 2)
    check(s)
    end_round(s)
    check(s)
    odd = s.clone()  # values no game reaches
    odd.turn = 20
    odd.blue_cards = ((5, 4, 3), *odd.blue_cards[1:])
    check(odd)
    while not s.is_over:
        random_step(s, rng)
        check(s)

