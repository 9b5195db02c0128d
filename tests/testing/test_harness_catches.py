"""The harness fails on a broken game: each test breaks one rule of the contract in the
tutorial game and checks that random_sim_test names it (a harness that cannot fail is no
safety net)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

import pytest

from cove.core import registry
from cove.core.decisions import StepRule
from cove.example_game import GAME
from cove.example_game.rules import BidRule
from cove.example_game.state import ToyState
from cove.testing import HarnessError, option_variants, random_sim_test


class SharedClone(ToyState):
    __slots__ = ()

    def clone(self) -> ToyState:
        s = super().clone()
        s.hands = self.hands  # the bug: a clone shares the hands
        return s


class LeakyView(ToyState):
    __slots__ = ()

    def _view(self, player: int | None) -> dict[str, Any]:
        v = super()._view(player)
        v["all_hands"] = [sorted(h) for h in self.hands]
        return v


class LosesCards(ToyState):
    __slots__ = ()

    def setup(self) -> None:
        super().setup()
        if self.deck:
            self.deck.pop()  # a card vanishes


class PeekingResample(ToyState):
    __slots__ = ()

    def _resample(self, player: int, rng: Any) -> None:
        super()._resample(player, rng)
        self.hands[player] = [*self.hands[player][::-1], 0]  # changes the player's own view


class UpperText(ToyState):
    __slots__ = ()

    def _legal_actions(self, player: int) -> Any:
        return [_Shout(a) for a in super()._legal_actions(player)]

    def _apply(self, player: int, action: Any) -> None:
        super()._apply(player, action.inner)


@dataclasses.dataclass(frozen=True, slots=True)
class _Shout:
    inner: Any

    def __str__(self) -> str:
        return str(self.inner).upper()


class _OpenBid(BidRule):
    secret = False  # the bug: a simultaneous bid is not kept secret until the reveal


class OpenBids(ToyState):
    __slots__ = ()
    STEPS: ClassVar[Mapping[str, StepRule]] = {**ToyState.STEPS, "bid": _OpenBid()}


class ForgetsOnStore(ToyState):
    __slots__ = ()

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        data["state"]["turn"] = 0  # the bug: a stored state loses the turn counter
        return data


class BadMask(ToyState):
    __slots__ = ()

    def legal_mask(self, player: int) -> list[bool]:
        mask = super().legal_mask(player)
        return [*mask[:-1], True]  # the bug: the last index is always marked legal


class ShiftedMask(ToyState):
    __slots__ = ()

    def legal_mask(self, player: int) -> list[bool]:
        mask = super().legal_mask(player)
        return [*mask[1:], mask[0]]  # the bug: as many marked, each one index too low


class ReorderedIndices(ToyState):
    __slots__ = ()

    def _legal_indices(self, player: int, legal: tuple[Any, ...]) -> list[int]:
        # the bug: the right indices, but not in the legal list's order
        return sorted(super()._legal_indices(player, legal), reverse=True)


MUTANTS = {
    "toy-shared-clone": (SharedClone, "clone"),
    "toy-leaky-view": (LeakyView, "secrecy"),
    "toy-loses-cards": (LosesCards, "invariants"),
    "toy-peeking-resample": (PeekingResample, "redeterminize"),
    "toy-upper-text": (UpperText, "action texts"),
    "toy-open-bids": (OpenBids, "secrecy"),
    "toy-forgets-on-store": (ForgetsOnStore, "to_json"),
    "toy-bad-mask": (BadMask, "legal mask"),
    "toy-shifted-mask": (ShiftedMask, "legal mask"),
    "toy-reordered-indices": (ReorderedIndices, "legal indices"),
}
for _gid, (_cls, _) in MUTANTS.items():
    globals()[_gid.replace("-", "_").upper()] = dataclasses.replace(GAME, id=_gid, state_cls=_cls)


@pytest.fixture
def mutants() -> Iterator[None]:
    for gid in MUTANTS:
        registry.REGISTRY[gid] = f"{__name__}:{gid.replace('-', '_').upper()}"
    registry.REGISTRY["toy"] = "cove.example_game"
    try:
        yield
    finally:
        for gid in [*MUTANTS, "toy"]:
            registry.REGISTRY.pop(gid, None)


def test_the_tutorial_game_passes(mutants: None) -> None:
    for n in (2, 3, 4):
        rep = random_sim_test("toy", n, games=2, seed=n)
        assert rep.live_positions == rep.positions > 0
        assert rep.checks["commitments hidden"] > 0 and rep.checks["private items"] > 0


@pytest.mark.parametrize("gid", sorted(MUTANTS))
def test_a_broken_game_fails_the_harness(mutants: None, gid: str) -> None:
    check = MUTANTS[gid][1]
    with pytest.raises(HarnessError, match=rf"{gid} .*: {check}:"):
        random_sim_test(gid, 3, games=2, seed=1)


def test_option_variants_cover_every_value(mutants: None) -> None:
    assert option_variants("toy") == [{}, {"plays": 1}, {"bidding": False}]
