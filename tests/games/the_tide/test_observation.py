"""The observation (SPEC.md, Observation), built by the game in sparse form, against a plain
list encoding of the same layout (the encoder before the sparse form, one part after
another): the same floats, bit for bit, at every player count, under the options that
change what is shown, in clones, redeterminized copies and states rebuilt from JSON."""

from __future__ import annotations

from typing import Any

import pytest

from cove.games.the_tide import GAME
from cove.games.the_tide.board import SQUARES
from cove.games.the_tide.data import DATA
from cove.games.the_tide.state import (
    HEIGHT,
    MAX_FRIENDS,
    PHASE_INDEX,
    PLACE,
    RETURN,
    TILE_TYPES,
    PendingReturn,
    TideState,
)
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
    for i, f in enumerate(s.fr):
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
        out += [s.points[p] / DATA.win_points, s.onboard[p] / MAX_FRIENDS,
                s.waiting[p] / MAX_FRIENDS]
    out += [s.removed[t] / counts[t - 1] for t in TILE_TYPES]
    out += one_hot((s.cur - player) % n, n)
    top = s._steps[-1] if s._steps else None
    out += one_hot(-1 if top is None else (top.players[0] - player) % n, n)
    out += one_hot(-1 if top is None else PHASE_INDEX[top.kind], 5)
    placing = top.data if top is not None and top.kind == PLACE else ()
    out += one_hot((placing[0] - player) % n if placing else -1, n)
    out.append(len(placing) / MAX_FRIENDS)
    if top is not None and top.kind == RETURN:
        pending: PendingReturn = top.data[0]
        out += [pending.pool[t] / 4 for t in TILE_TYPES] + [s.ret_k / 4]
        out += one_hot(pending.reason - 1, 3)
    else:
        out += [0.0] * 5 + [s.ret_k / 4] + [0.0] * 3
    out += [s.idle / (s.rules.stall_rounds * n), s.turns / s.rules.turn_limit,
            1.0 if s.col_end else 0.0]
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
