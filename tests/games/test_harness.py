"""Every registered game through the conformance harness (cove.testing), at every player
count with the default options and with every non-default option value.

How deep: ``COVE_HARNESS=ci`` (the default: one game per configuration, two sampled
positions at each player count and one per option value, the replay comparing every fourth
spectator view) or ``COVE_HARNESS=full`` (two games per player count, six positions per
game, every view), e.g. ``COVE_HARNESS=full pytest tests/games/test_harness.py`` before a
release."""

from __future__ import annotations

import os
from typing import Any

import pytest

import cove
from cove.testing import random_sim_test
from cove.testing.harness import configurations

CONFIGS = list(configurations(cove.ids()))
DEPTHS: dict[str, dict[str, Any]] = {
    "ci": {"games": 1, "samples": 2, "option_samples": 1, "view_stride": 4},
    "full": {"games": 2, "samples": 6, "option_samples": 6, "view_stride": 1},
}
DEPTH = os.environ.get("COVE_HARNESS", "ci")
if DEPTH not in DEPTHS:
    raise pytest.UsageError(f"COVE_HARNESS={DEPTH!r}: use one of {', '.join(DEPTHS)}")


def _id(c: tuple[str, int, dict[str, Any]]) -> str:
    gid, n, opts = c
    return f"{gid}-{n}p" + "".join(f"-{k}={v}" for k, v in opts.items())


@pytest.mark.parametrize("config", CONFIGS, ids=[_id(c) for c in CONFIGS])
def test_random_sim(config: tuple[str, int, dict[str, Any]]) -> None:
    gid, n, opts = config
    depth = dict(DEPTHS[DEPTH])
    option_samples = depth.pop("option_samples")
    if opts:  # an option value's configuration plays one game at any depth
        depth["games"] = 1
        depth["samples"] = option_samples
    rep = random_sim_test(gid, n, seed=n, **depth, **opts)
    assert rep.games >= 1 and rep.actions > 0
    assert rep.live_positions > 0, "no live position was checked"
    for check in ("invariants", "clone independence", "redeterminize", "illegal input refused",
                  "action space", "portable state", "replay", "end"):
        assert rep.checks.get(check, 0) > 0, f"{check} never ran"


@pytest.mark.parametrize("gid", cove.ids())
def test_declaration_and_render(gid: str) -> None:
    game = cove.load(gid)
    info = game.describe()
    assert info["id"] == gid and 1 <= info["min_players"] <= info["max_players"]
    assert game.max_actions is not None, f"{gid} declares no max_actions bound"
    s = game.new(max(2, game.min_players), seed=2)
    assert game.render is not None, f"{gid} has no terminal renderer"
    for p in range(s.n):
        text = game.render(s.view(p), False)
        assert isinstance(text, str) and text.strip()
        assert "\x1b[" not in text  # color=False means plain text


@pytest.mark.parametrize("gid", cove.ids())
def test_same_seed_same_game(gid: str) -> None:
    game = cove.load(gid)
    n = max(2, game.min_players)
    a, b = game.new(n, seed=11), game.new(n, seed=11)
    rng_a, rng_b = cove.Rng(2), cove.Rng(2)
    for s, rng in ((a, rng_a), (b, rng_b)):
        while not s.is_over and s.decisions < 300:
            p = s.to_move()[0]
            s.apply(p, rng.choice(s.legal_actions(p)))
    assert a.record() == b.record() and a.fingerprint() == b.fingerprint()


def test_an_old_move_legal_again_for_its_player_is_no_finding() -> None:
    """Found by ``cove soak trails-of-tucana -p 3``: the check of moves from another
    position compared a later mover's old draw with the first mover's legal moves, so a
    draw legal again for its own player (a new turn's cards) was called accepted by
    mistake. Seed 31 reached it after 39 moves."""
    from cove.testing import random_sim_test

    report = random_sim_test("trails-of-tucana", 3, games=1, seed=31, samples=3, view_stride=7)
    assert report.checks["illegal input refused"] > 0
