"""Pick, a toy game whose balance measures are known analytically.

Every seat starts with ``start`` points (default none). For ``rounds`` rounds each seat in
turn takes one of three items, amber, basil or coral, worth ``values`` points. With
``gift`` above 0 the last seat then gives ``gift`` points to P1 or P2 (the kingmaker's
choice). The highest total wins; tied totals share the win. With ``cap`` the game says it
ended at its safety cut-off ("cap"), so the lab's safety measures can be planted.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from cove.core import Game, Options, State, Step, StepRule, option

ITEMS = ("amber", "basil", "coral")


@dataclass(frozen=True, slots=True)
class Take:
    item: str

    def __str__(self) -> str:
        return f"take {self.item}"


@dataclass(frozen=True, slots=True)
class Give:
    to: int

    def __str__(self) -> str:
        return f"give p{self.to + 1}"


@dataclass(frozen=True)
class PickOptions(Options):
    rounds: int = option(2, help="rounds of taking items", minimum=0, maximum=10)
    values: str = option("1,1,1", help="points of amber, basil and coral")
    start: str = option("", help="points each seat starts with, comma-separated")
    gift: int = option(0, help="points the last seat gives P1 or P2 at the end", minimum=0,
                       maximum=10)
    cap: bool = option(False, help="the game ends at its safety cut-off")


class TakeRule(StepRule["PickState"]):
    forced = False

    def legal(self, state: PickState, step: Step, player: int) -> Sequence[Any]:
        return tuple(Take(i) for i in ITEMS)

    def apply(self, state: PickState, step: Step, player: int, action: Any) -> None:
        state.points[player] += state.values[ITEMS.index(action.item)]
        state.turns += 1


class GiveRule(StepRule["PickState"]):
    def legal(self, state: PickState, step: Step, player: int) -> Sequence[Any]:
        return (Give(0), Give(1))

    def apply(self, state: PickState, step: Step, player: int, action: Any) -> None:
        state.points[action.to] += state.options.gift
        state.given = True


class PickState(State[PickOptions]):
    __slots__ = ("given", "points", "turns", "values")

    STEPS: ClassVar[Mapping[str, StepRule[PickState]]] = {"take": TakeRule(),
                                                           "give": GiveRule()}

    def setup(self) -> None:
        o = self.options
        self.values = [float(v) for v in o.values.split(",")]
        start = [float(v) for v in o.start.split(",")] if o.start else []
        self.points = [start[p] if p < len(start) else 0.0 for p in range(self.n)]
        self.turns = 0
        self.given = False
        self.settle()

    def next_steps(self) -> Sequence[Step]:
        if self.turns < self.options.rounds * self.n:
            return (Step("take", (self.turns % self.n,)),)
        if self.options.gift and not self.given:
            return (Step("give", (self.n - 1,)),)
        return ()

    def scores(self) -> list[float]:
        return list(self.points)

    def stats(self) -> dict[str, float | str]:
        return {"end": "cap" if self.options.cap else "done"}

    def _view(self, player: int | None) -> dict[str, Any]:
        return {"points": list(self.points)}

    def clone(self) -> PickState:
        s: PickState = self._clone_base()
        s.points = self.points[:]
        s.values = self.values
        s.turns = self.turns
        s.given = self.given
        return s


def universe(players: int, options: Options) -> list[Hashable]:
    return [*(Take(i) for i in ITEMS), Give(0), Give(1)]


GAME = Game(
    id="pick", name="Pick", state_cls=PickState, min_players=2, max_players=4, version="1",
    summary="A toy for the balance measures: take items worth points.", chance=False,
    hidden_information=False, simultaneous=False, options_cls=PickOptions,
    heuristic=lambda state, player: state.scores()[player], actions=universe,
    safety_ends=("cap",))
