"""Golden playthroughs: seeded full games on both islands, compared line by line.

Regenerate (only when a rule changes on purpose) with COVE_REGEN_GOLDEN=1.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from cove.core.rng import Rng
from cove.games.trails_of_tucana import GAME
from cove.games.trails_of_tucana.actions import Bonus, Draw, Pass
from cove.games.trails_of_tucana.state import TucanaState

GOLDEN = Path(__file__).with_name("golden")

CASES: dict[str, dict[str, Any]] = {
    "petit_3p": {"players": 3, "seed": 2019, "options": {}},
    "grande_5p_variants": {
        "players": 5,
        "seed": 77,
        "options": {"map": "grande", "special_bonus": True, "random_start": True},
    },
}


def pick(s: TucanaState, p: int, rng: Rng) -> Any:
    """A fixed test policy (independent of the bots and the heuristic): take the move that
    raises the running score most; else one that extends a network from a village or an
    earlier segment; ties at random. It links enough to exercise bonuses and pairs."""
    legal = [a for a in s.legal_actions(p) if isinstance(a, (Draw, Bonus, Pass))]
    best: list[Any] = []
    top: tuple[float, int] = (-1.0, -1)
    for a in legal:
        if isinstance(a, Pass):
            continue  # only when nothing else is legal (a bonus segment is never declined)
        c = s.clone()
        c.logging = False
        c._step(p, a)
        x, y = s.isl.edges[a.edge]
        grow = sum(
            1
            for v in (x, y)
            if s.isl.village[v] >= 0 or s.drawn[p] & s.isl.incident[v]
        )
        key: tuple[float, int] = (c._score(p) - s._score(p) + 2 * c.bonus[p], grow)
        if key > top:
            top, best = key, [a]
        elif key == top:
            best.append(a)
    return rng.choice(best) if best else legal[0]


def transcript(case: dict[str, Any]) -> str:
    s = GAME.new(case["players"], seed=case["seed"], **case["options"])
    rng = Rng(case["seed"])
    lines = [f"# {GAME.id} players={case['players']} seed={case['seed']} "
             f"options={json.dumps(s.options.to_dict(), sort_keys=True)}"]
    seen = 0
    for e in s.events(None):
        lines.append(e.text)
        seen = e.seq + 1
    while not s.is_over:
        movers = s.to_move()
        p = movers[rng.below(len(movers))]
        assert isinstance(s, TucanaState)
        a = pick(s, p, rng)
        s.apply(p, a)
        lines.append(f"> P{p + 1} {a}")
        for e in s.events(None, since=seen):
            lines.append(e.text)
        seen = s.log_count(None)
    lines.append(f"scores: {s.scores()}")
    lines.append(f"winners: {[f'P{p + 1}' for p in s.winners()]}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name: str) -> None:
    path = GOLDEN / f"{name}.txt"
    got = transcript(CASES[name])
    if os.environ.get("COVE_REGEN_GOLDEN") == "1":
        path.write_text(got, encoding="utf-8")
    want = path.read_text(encoding="utf-8")
    assert got.splitlines() == want.splitlines()
