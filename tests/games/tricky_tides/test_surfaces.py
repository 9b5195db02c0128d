"""Tricky Tides through the shared surfaces, beyond the harness: its bots' levels and the
constrained deal their redeterminization uses."""

from __future__ import annotations

import functools
from collections import Counter

import pytest

import cove
from cove.bots import MctsBot, make_bot
from cove.core import Action, Rng
from cove.games.tricky_tides import state as tt
from cove.games.tricky_tides.data import NAV_CARDS
from cove.lab.runner import play_out

GAME = "tricky-tides"


# -- the bots' levels as this game declares them -------------------------------------------
def _hard_and_medium(game_id: str) -> tuple[MctsBot, MctsBot]:
    """The two levels' bots after each has played a legal move in ``game_id`` (a bot takes
    its game's declared parameters on its first move there)."""
    s = cove.load(game_id).new(2, seed=5, log=False)
    hard, medium = make_bot("hard", 1), make_bot("medium", 1)
    p = s.to_move()[0]
    assert isinstance(hard, MctsBot) and isinstance(medium, MctsBot)
    for bot in (hard, medium):
        assert bot.act(s, p) in s.legal_actions(p)
    return hard, medium


def test_hard_is_four_times_mcts_with_heuristic_rollouts() -> None:
    hard, medium = _hard_and_medium(GAME)
    assert (hard.iterations, hard.steps) == (4 * medium.iterations, 4 * medium.steps)
    assert (hard.rollout, hard.others, hard.search) == ("heuristic", "same", "tree")
    assert (medium.rollout, medium.search) == ("random", "tree")


# -- the constrained deal for redeterminization: consistent, and fair enough ----------
def _suit_cards(suits: list[int], per_suit: int) -> int:
    return sum(1 << (8 * s + i) for s in suits for i in range(per_suit))


def _check(pool: int, caps: list[int], accept: list[int], out: list[int]) -> None:
    assert len(out) == len(caps)
    union = 0
    for hand, cap, acc in zip(out, caps, accept, strict=True):
        assert hand & union == 0, "a card dealt twice"
        union |= hand
        assert bin(hand).count("1") == cap
        for c in range(NAV_CARDS):
            if hand >> c & 1:
                assert acc >> (c >> 3) & 1, f"card {c} given to a holder void in its suit"
    assert union == pool


@pytest.mark.parametrize("seed", range(30))
def test_random_constrained_deals_respect_counts_and_voids(seed: int) -> None:
    rng = Rng(seed)
    # a real deal, then random voids consistent with it
    cards = list(range(NAV_CARDS))
    rng.shuffle(cards)
    caps = [rng.below(8) + 1 for _ in range(3)] + [rng.below(6)]
    hands, k = [], 0
    for cap in caps:
        hands.append(sum(1 << c for c in cards[k:k + cap]))
        k += cap
    pool = sum(hands)
    accept = []
    for i, h in enumerate(hands):
        held = {c >> 3 for c in range(NAV_CARDS) if h >> c & 1}
        voids = [s for s in range(4) if s not in held and rng.below(2)] if i < 3 else []
        accept.append(0xF & ~sum(1 << s for s in voids))
    for _ in range(5):
        _check(pool, caps, accept, tt._constrained_deal(pool, caps, accept, rng))


def test_a_deal_the_quick_way_rarely_finds_still_succeeds() -> None:
    # holder 1 may take only sharks (suit 0) and needs all four; holder 0 takes 4 of 8
    pool = _suit_cards([0, 1], 4)
    caps, accept = [4, 4], [0b0011, 0b0001]
    rng = Rng(3)
    seen: Counter[int] = Counter()
    for _ in range(40):
        out = tt._constrained_deal(pool, caps, accept, rng)
        _check(pool, caps, accept, out)
        seen[out[1]] += 1
    assert list(seen) == [_suit_cards([0], 4)]


def test_with_one_void_every_allowed_card_is_equally_likely() -> None:
    # holder 0 is void in suit 0: its 5 cards come uniformly from the 8 of suits 1 and 2
    pool = _suit_cards([0, 1, 2], 4)
    caps, accept = [5, 7], [0b1110, 0xF]
    rng = Rng(11)
    counts: Counter[int] = Counter()
    rounds = 3000
    for _ in range(rounds):
        out = tt._constrained_deal(pool, caps, accept, rng)
        counts.update(c for c in range(NAV_CARDS) if out[0] >> c & 1)
    expected = rounds * 5 / 8
    allowed = [c for c in range(8, 24) if pool >> c & 1]
    assert set(counts) == set(allowed)
    for c in allowed:
        assert abs(counts[c] - expected) < 0.08 * expected, (c, counts[c], expected)


def test_redeterminized_hands_keep_every_known_void() -> None:
    game = cove.load(GAME)
    checked = 0

    def check(s: cove.State, p: int, rng: Rng) -> Action:  # before each move
        nonlocal checked
        if s.voids:  # type: ignore[attr-defined]
            w = s.redeterminize(p, rng)
            for q in range(3):
                void = s.voids >> (4 * q) & 0xF  # type: ignore[attr-defined]
                assert w.hands[q] & tt._SUIT_CARDS[void] == 0  # type: ignore[attr-defined]
                assert bin(w.hands[q]).count("1") == bin(s.hands[q]).count("1")  # type: ignore[attr-defined]
            assert w.hands[p] == s.hands[p]  # type: ignore[attr-defined]
            assert w.view(p) == s.view(p)
            checked += 1
        acts = s.legal_actions(p)
        return acts[rng.below(len(acts))]

    for seed in range(6):
        play_out(game.new(3, seed=seed, log=False), functools.partial(check, rng=Rng(seed)))
    assert checked > 20
