"""Every game that declares its observation as blocks (``Game.observer``): SPEC.md shows
the blocks' table and total size as the core renders them, and the kept blocks equal an
observation made from nothing (``Observer.fresh``, each block's indices checked) for every
seat after every step of seeded random games, in the state and in clones played on."""

from __future__ import annotations

from pathlib import Path

import pytest

import cove
from cove.core.game import Game
from cove.core.observer import Observer
from cove.core.rng import Rng
from tests.games.observations import dense_of

GAMES = [g for g in cove.all_games() if g.observer is not None]


def spec_of(game: Game) -> str:
    module = type(game.new(game.min_players, seed=0, log=False)).__module__
    package = module.rsplit(".", 1)[0]
    return (Path(cove.__file__).parent.parent / package.replace(".", "/") / "SPEC.md"
            ).read_text(encoding="utf-8")


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_spec_shows_the_blocks_as_declared(game: Game) -> None:
    observer = game.observer
    assert isinstance(observer, Observer)
    spec = spec_of(game)
    assert observer.spec_table() in spec, "SPEC.md's observation table differs from the blocks"
    if not any(b.sized is not None for b in observer.blocks):
        assert f"`observation_size(n) = {observer.size_text()}`" in spec


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_kept_blocks_equal_a_fresh_observation_at_every_step(game: Game) -> None:
    observer = game.observer
    assert observer is not None
    for n in sorted({game.min_players, game.max_players}):
        s = game.new(n, seed=n, log=False)
        size = game.observation_size_for(n, s.options)
        rng = Rng(n)
        step = 0
        while True:
            for p in range(n):
                assert dense_of(s.observation_sparse(p), size) == \
                    dense_of(observer.fresh(s, p), size), (n, step, p)
            if s.is_over:
                break
            if step % 7 == 0:
                c = s.clone()
                for _ in range(3):
                    if c.is_over:
                        break
                    q = c.to_move()[0]
                    c.apply(q, rng.choice(c.legal_actions(q)))
                    assert dense_of(c.observation_sparse(q), size) == \
                        dense_of(observer.fresh(c, q), size)
            p = s.to_move()[0]
            s.apply(p, rng.choice(s.legal_actions(p)))
            step += 1
        assert step > 10
