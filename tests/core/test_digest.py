"""The fingerprint hashes the history and log chains link by link and remembers chain
heads; what it remembers must never change what it returns."""

from __future__ import annotations

from typing import Any

import cove
from cove.core import digest
from cove.core.digest import chain_digest
from cove.example_game import GAME as TOY
from cove.lab.runner import RandomChooser, advance


def _chain(*items: Any) -> Any:
    node = None
    for it in items:
        node = (node, it)
    return node


def test_chain_digest_is_the_same_with_and_without_remembered_heads() -> None:
    a = _chain("x", "y")
    digest._heads.clear()
    fresh = chain_digest((a, "z"), str)
    chain_digest(a, str)  # now a's head is remembered; extending it must agree
    assert chain_digest((a, "z"), str) == fresh
    digest._heads.clear()
    assert chain_digest(_chain("x", "y", "z"), str) == fresh  # equal chains, other objects


def test_chain_digest_tells_chains_apart() -> None:
    seen = {chain_digest(c, str) for c in (None, _chain("x"), _chain("y"), _chain("x", "y"),
                                          _chain("y", "x"), _chain("x", "x"))}
    assert len(seen) == 6


def test_fingerprint_matches_a_state_read_back_and_a_cleared_memory() -> None:
    s = TOY.new(3, seed=4, plays=12)
    advance(s, RandomChooser(cove.Rng(1)), moves=8)
    assert not s.is_over
    fp = s.fingerprint()
    back = TOY.from_json(s.to_json())
    assert back.fingerprint() == fp
    digest._heads.clear()
    assert s.fingerprint() == fp
    c = s.clone()
    p = c.to_move()[0]
    c.apply(p, c.legal_actions(p)[0])
    assert c.fingerprint() != fp and s.fingerprint() == fp
