"""The mutation check of docs/TESTING.md: break one rule in each game, see the harness fail.

    .venv/bin/python benchmarks/mutants.py

Each mutant patches one method of a real game for the run (nothing is edited on disk),
runs ``cove.testing.random_sim_test`` on it, and restores the method. A mutant the harness
does not catch is printed as SURVIVED and the script exits 1; the unbroken games are run
too, so a harness that fails everything is caught as well.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from cove.testing import HarnessError, random_sim_test

Patch = tuple[str, str, str, int, Callable[[Callable[..., Any]], Callable[..., Any]]]


def _hw_card_kept_in_hand(orig: Callable[..., Any]) -> Callable[..., Any]:
    def broken(self: Any, p: int, v: int) -> None:
        orig(self, p, v)
        if v not in self.hands[p]:
            self.hands[p].append(v)  # the bug: a played trick card stays in the hand too

    return broken


def _tide_friend_not_counted(orig: Callable[..., Any]) -> Callable[..., Any]:
    def broken(self: Any, placer: int, owner: int, sq: int) -> None:
        orig(self, placer, owner, sq)
        self.onboard[owner] -= 1  # the bug: a placed friend is not counted on the beach

    return broken


def _tep_cube_doubled(orig: Callable[..., Any]) -> Callable[..., Any]:
    def broken(self: Any, p: int, t: int) -> None:
        orig(self, p, t)
        if t >= 0 and self.booty[p] and len(self.booty[p]) < 3:
            self.booty[p].append(t)  # the bug: a loaded cube is loaded twice

    return broken


def _tt_goods_lost(orig: Callable[..., Any]) -> Callable[..., Any]:
    def broken(self: Any, p: int, tax: int = -1) -> None:
        orig(self, p, tax)
        for t in range(len(self.bag)):
            if self.bag[t] > 0:
                self.bag[t] -= 1  # the bug: a delivered good never reaches the bag
                self.bag_n -= 1
                break

    return broken


def _tucana_view_leaks(orig: Callable[..., Any]) -> Callable[..., Any]:
    def broken(self: Any, player: int | None) -> dict[str, Any]:
        v: dict[str, Any] = orig(self, player)
        v["deck_order"] = [str(c) for c in self.deck]  # the bug: the hidden deck is shown
        return v

    return broken


MUTANTS: list[Patch] = [
    ("high-water", "cove.games.high_water.state", "HighWaterState", 3, _hw_card_kept_in_hand),
    ("the-tide", "cove.games.the_tide.state", "TideState", 3, _tide_friend_not_counted),
    ("tiny-epic-pirates", "cove.games.tiny_epic_pirates.state", "PiratesState", 2,
     _tep_cube_doubled),
    ("tricky-tides", "cove.games.tricky_tides.state", "TidesState", 3, _tt_goods_lost),
    ("trails-of-tucana", "cove.games.trails_of_tucana.state", "TucanaState", 2,
     _tucana_view_leaks),
]
METHOD = {"high-water": "_play_card", "the-tide": "_place", "tiny-epic-pirates": "_load",
          "tricky-tides": "_deliver", "trails-of-tucana": "_view"}


@contextmanager
def patched(module: str, cls_name: str, method: str,
            make: Callable[[Callable[..., Any]], Callable[..., Any]]) -> Iterator[None]:
    import importlib

    cls = getattr(importlib.import_module(module), cls_name)
    orig = cls.__dict__[method]
    setattr(cls, method, make(orig))
    try:
        yield
    finally:
        setattr(cls, method, orig)


def main() -> int:
    survived = 0
    for gid, module, cls_name, players, make in MUTANTS:
        random_sim_test(gid, players, games=1, seed=1)  # the unbroken game passes
        method = METHOD[gid]
        with patched(module, cls_name, method, make):
            try:
                random_sim_test(gid, players, games=2, seed=1)
            except HarnessError as e:
                first = str(e).splitlines()[0][:150]
                print(f"{gid:18} {make.__name__[1:]:24} caught: {first}")
                continue
            except Exception as e:  # a crash also shows the break, but not by a check
                print(f"{gid:18} {make.__name__[1:]:24} crashed: {type(e).__name__}: {e}")
                continue
        survived += 1
        print(f"{gid:18} {make.__name__[1:]:24} SURVIVED")
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())
