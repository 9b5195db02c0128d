"""The Toy's state: its fields, the set-up, the scores, the tie-break and what the
conformance harness asks of every game (clone, resample, invariants, private items)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from cove.core import Rng, State, Step, StepRule
from cove.example_game.data import DATA, ToyData
from cove.example_game.options import ToyOptions
from cove.example_game.rules import STEPS
from cove.example_game.view import view

TIEBREAK = ("the highest card played",)
"""What ``tiebreak()`` compares among tied top scores, in its order (R5.2)."""


class ToyState(State[ToyOptions]):
    __slots__ = ("bid_paid", "bidding", "bids", "card_points", "deck", "hands", "played",
                 "played_by", "turn")

    STEPS: ClassVar[Mapping[str, StepRule[ToyState]]] = STEPS
    data: ClassVar[ToyData] = DATA

    def setup(self) -> None:
        """R1: shuffle the deck, deal each player their hand; R2: open with the bid."""
        o = self.options
        self.deck = list(self.data.deck)
        self.rng.shuffle(self.deck)
        self.hands = [[self.deck.pop() for _ in range(self.data.hand)] for _ in range(self.n)]
        self.card_points = [0] * self.n
        self.bid_paid = [0] * self.n
        self.played: list[int] = []
        self.played_by: list[int] = []
        self.turn = 0
        self.bids: list[int] = [0] * self.n
        self.bidding = o.bidding
        if o.bidding:
            self.push(Step("bid", tuple(range(self.n))))
        self.settle()

    def next_steps(self) -> Sequence[Step]:
        """R4: players play in turn; R5: after ``plays`` cards the game ends."""
        if len(self.played) >= self.options.plays:
            return ()
        return (Step("play", (self.turn % self.n,)),)

    def scores(self) -> list[float]:
        """R5.1: the cards' values, less what the bids cost."""
        return [float(c - b) for c, b in zip(self.card_points, self.bid_paid, strict=True)]

    def tiebreak(self, player: int) -> tuple[float, ...]:
        """R5.2: among tied top scores, the highest card played wins."""
        return (float(max((c for c, p in zip(self.played, self.played_by, strict=True)
                           if p == player), default=0)),)

    def explain_illegal(self, player: int, text: str) -> str:
        if text.startswith("play") and self.bidding:
            return "everyone bids before the first card is played"
        return ""

    def stats(self) -> dict[str, float | str]:
        top = max(self.scores())
        return {"top": top, "end": "high" if top >= 35 else "low"}

    def _view(self, player: int | None) -> dict[str, Any]:
        return view(self, player)

    def check_invariants(self) -> None:
        held = [c for h in self.hands for c in h if c]
        cards = sorted(self.deck + [c for c in self.played if c] + held)  # 0: a blank
        assert cards == list(self.data.deck), f"cards not conserved: {cards}"
        assert len(self.played_by) == len(self.played)

    def private_items(self, player: int) -> dict[str, Any]:
        """The hand, while it holds two cards or more: a blank (R4.2) is no secret, and a
        one-card list would match any public list such as ``to_move`` ([2]) by chance."""
        cards = sorted(c for c in self.hands[player] if c)
        return {"hand": cards} if len(cards) > 1 else {}

    def clone(self) -> ToyState:
        s: ToyState = self._clone_base()
        s.deck = self.deck[:]
        s.hands = [h[:] for h in self.hands]
        s.card_points = self.card_points[:]
        s.bid_paid = self.bid_paid[:]
        s.played = self.played[:]
        s.played_by = self.played_by[:]
        s.turn = self.turn
        s.bids = self.bids[:]
        s.bidding = self.bidding
        return s

    def _resample(self, player: int, rng: Rng) -> None:
        """The cards ``player`` cannot see dealt again, and the bids not yet revealed."""
        pool = self.deck[:]
        for p in range(self.n):
            if p != player:
                pool += [c for c in self.hands[p] if c]
        pool.sort()  # the sampled world depends on the player's view only
        rng.shuffle(pool)
        for p in range(self.n):
            if p != player:
                k = len([c for c in self.hands[p] if c])
                self.hands[p] = [pool.pop() for _ in range(k)] or [0]
        self.deck = pool
        if self.bidding:
            for p in range(self.n):
                if p != player and p not in self.to_move():
                    self.bids[p] = rng.below(2)
