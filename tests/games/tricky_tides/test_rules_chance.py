"""Chance in Tricky Tides: several draws share one recorded outcome (``chance.draws``), each
still exactly uniform, and the records stay replayable."""

from __future__ import annotations

import itertools

import cove
from cove.core import Rng
from cove.games.tricky_tides import GAME
from cove.games.tricky_tides.chance import CHANCE_LIMIT, draws, shuffle
from cove.games.tricky_tides.constants import ISLAND_GOODS
from cove.games.tricky_tides.data import GOODS_TYPES as G
from tests.games.tricky_tides.helpers import new


class Outcome(Rng):
    """Answers every ``below(n)`` with the same outcome ``x`` and records each ``n``."""

    def __init__(self, x: int = 0) -> None:
        super().__init__(0)
        self.x = x
        self.asked: list[int] = []

    def below(self, n: int) -> int:
        self.asked.append(n)
        return self.x % n


def test_draws_maps_the_outcomes_of_one_call_onto_every_combination_once() -> None:
    seen = set()
    for x in range(24):
        rng = Outcome(x)
        got = tuple(draws(rng, 4, 3))
        assert rng.asked == [24]
        assert all(0 <= u < k for u, k in zip(got, (4, 3, 2), strict=True))
        seen.add(got)
    assert seen == set(itertools.product(range(4), range(3), range(2)))


def test_draws_splits_long_runs_into_calls_within_the_chance_limit() -> None:
    sizes = range(78, 30, -1)          # 48 cubes drawn from a full bag
    rng = Outcome()
    assert len(draws(rng, 78, 48)) == len(sizes)
    assert all(n <= CHANCE_LIMIT for n in rng.asked)
    product = 1
    for k in sizes:
        product *= k
    calls = 1
    for n in rng.asked:
        calls *= n
    assert calls == product            # every size went into exactly one call
    assert 5 <= len(rng.asked) < 10    # 78**8 < 2**53: about eight draws per call


def test_shuffle_gives_every_order_for_exactly_one_outcome() -> None:
    orders = set()
    for x in range(24):
        seq = list("abcd")
        shuffle(Outcome(x), seq)
        orders.add(tuple(seq))
    assert len(orders) == 24


def test_records_hold_few_chance_outcomes_each_within_the_limit_and_replay() -> None:
    s = GAME.new(4, 3)
    rng = Rng(3)
    while not s.is_over:
        p = s.to_move()[0]
        s.apply(p, rng.choice(s.legal_actions(p)))
    rec = s.record()
    ranges = [n for n, _ in rec["chance"]]
    assert all(2 <= n <= CHANCE_LIMIT for n in ranges)
    # 3 deals of 31 cards and every cube and order drawn one by one took about 200
    assert len(ranges) < 60
    assert cove.replay(rec).fingerprint() == s.fingerprint()


def test_filling_the_islands_goes_in_reading_order_until_the_bag_runs_out() -> None:
    s = new(4, 1)
    s.goods = bytearray(len(s.goods))
    s.bag = [0] * G
    s.bag[1] = 5                       # five coffee left
    s.bag_count = 5
    s._fill_islands()
    per_island = [sum(s.goods[c * G:c * G + G]) for c in range(12)]
    first = ISLAND_GOODS[s.layout[0]]
    assert per_island[0] == first and per_island[1] == 5 - first
    assert sum(per_island[2:]) == 0 and s.bag_count == 0 and s.bag[1] == 0
    assert sum(s.goods[c * G + 1] for c in range(12)) == 5
