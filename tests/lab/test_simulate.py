"""The simulation runner's statistics."""

from __future__ import annotations

import dataclasses
import sys
import types

import pytest

from cove.core import registry
from cove.example_game import GAME as TOY
from cove.example_game.state import ToyState
from cove.lab.simulate import _margin, simulate
from cove.lab.stats import mean_ci, wilson


class UntiedToy(ToyState):
    """The toy without its tie-break, so tied top scores share the win."""

    __slots__ = ()

    def tiebreak(self, player: int) -> tuple[float, ...]:
        return ()


UNTIED = dataclasses.replace(TOY, id="toy-untied", state_cls=UntiedToy, tiebreak=())


@pytest.fixture
def untied(monkeypatch: pytest.MonkeyPatch) -> str:
    """The untied toy registered as a module of this process (the lab finds a game's
    module through the registry)."""
    module = types.ModuleType("toy_untied")
    module.GAME = UNTIED  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setitem(registry.REGISTRY, UNTIED.id, module.__name__)
    return UNTIED.id


def test_game_stats_are_averaged_and_counted(toy_registered: str) -> None:
    sim = simulate("toy", 3, 60, seed=2)
    out = sim.to_json()
    tops = [dict(r.stats)["top"] for r in sim.results]
    assert out["stats"]["top"]["mean"] == pytest.approx(sum(tops) / 60)
    assert out["stats"]["top"]["max"] == max(tops)
    counts = out["stats"]["end"]["counts"]
    assert sum(counts.values()) == 60
    assert counts.get("high", 0) == sum(1 for t in tops if t >= 35)


def test_ties_split_wins_evenly(untied: str) -> None:
    sim = simulate(untied, 2, 80, seed=1)
    assert sum(sim.wins()) == pytest.approx(80)
    tied = [r for r in sim.results if len(r.winners) == 2]
    assert tied, "seed chosen to include a tie"
    assert sim.to_json()["ties"] == len(tied)


def test_margin_is_first_minus_second() -> None:
    assert _margin([3.0, 9.0, 7.0]) == 2.0
    assert _margin([5.0, 5.0]) == 0.0


def test_intervals() -> None:
    m, lo, hi = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert m == 2.5 and lo < 2.5 < hi
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 10)[0] == 0.0
