"""A tiny hidden-information game used to test the engine core (not registered).

Each player holds two hidden cards from a shuffled deck 1..12; on your turn you play one,
score its value and draw. After 6 plays the highest total wins. A simultaneous "bid" round
opens the game: everyone secretly bids 0 or 1; bidders of 1 lose 1 point but draw a card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cove.core.game import Game
from cove.core.options import Options, option
from cove.core.rng import Rng
from cove.core.state import State


@dataclass(frozen=True, slots=True)
class Play:
    card: int

    def __str__(self) -> str:
        return f"play {self.card}"


@dataclass(frozen=True, slots=True)
class Bid:
    amount: int

    def __str__(self) -> str:
        return f"bid {self.amount}"


@dataclass(frozen=True)
class ToyOptions(Options):
    plays: int = option(6, help="plays before the end", minimum=1, maximum=12)
    bidding: bool = option(True, help="open with a simultaneous bid")


class ToyState(State):
    __slots__ = ("bids", "deck", "hands", "played", "score", "turn")

    def setup(self) -> None:
        assert isinstance(self.options, ToyOptions)
        self.deck = list(range(1, 13))
        self.rng.shuffle(self.deck)
        self.hands = [[self.deck.pop(), self.deck.pop()] for _ in range(self.n)]
        self.score = [0] * self.n
        self.played: list[int] = []
        self.turn = 0
        self.bids: list[int | None] | None = [None] * self.n if self.options.bidding else None

    def to_move(self) -> tuple[int, ...]:
        if self.bids is not None:
            return tuple(p for p in range(self.n) if self.bids[p] is None)
        if self.is_over:
            return ()
        return (self.turn % self.n,)

    @property
    def is_over(self) -> bool:
        assert isinstance(self.options, ToyOptions)
        return self.bids is None and len(self.played) >= self.options.plays

    def _legal_actions(self, player: int) -> Sequence[Any]:
        if self.bids is not None:
            return [Bid(0), Bid(1)]
        return [Play(c) for c in sorted(self.hands[player])]

    def _apply(self, player: int, action: Any) -> None:
        if isinstance(action, Bid):
            assert self.bids is not None
            self.bids[player] = action.amount
            self.say(f"P{player + 1} bids {action.amount}", to=player)
            if all(b is not None for b in self.bids):
                for p, b in enumerate(self.bids):
                    if b:
                        self.score[p] -= 1
                        if self.deck:
                            self.hands[p].append(self.deck.pop())
                self.say("bids revealed: " + ", ".join(str(b) for b in self.bids))
                self.bids = None
            return
        self.hands[player].remove(action.card)
        self.played.append(action.card)
        self.score[player] += action.card
        if self.deck:
            self.hands[player].append(self.deck.pop())
        if not self.hands[player]:
            self.hands[player].append(0)
        self.say(f"P{player + 1} plays {action.card}")
        self.turn += 1

    def scores(self) -> list[float]:
        return [float(s) for s in self.score]

    def explain_illegal(self, player: int, text: str) -> str:
        if text.startswith("play") and self.bids is not None:
            return "everyone bids before the first card is played"
        return ""

    def stats(self) -> dict[str, float | str]:
        return {"top": float(max(self.score)), "end": "high" if max(self.score) >= 20 else "low"}

    def _view(self, player: int | None) -> dict[str, Any]:
        v: dict[str, Any] = {
            "score": list(self.score),
            "played": list(self.played),
            "hand_sizes": [len(h) for h in self.hands],
            "deck_size": len(self.deck),
            "bids_in": None if self.bids is None else [b is not None for b in self.bids],
        }
        if player is not None:
            v["hand"] = sorted(self.hands[player])
            if self.bids is not None:
                v["my_bid"] = self.bids[player]
        return v

    def clone(self) -> ToyState:
        s: ToyState = self._clone_base()
        s.deck = self.deck[:]
        s.hands = [h[:] for h in self.hands]
        s.score = self.score[:]
        s.played = self.played[:]
        s.turn = self.turn
        s.bids = None if self.bids is None else self.bids[:]
        return s

    def _resample(self, player: int, rng: Rng) -> None:
        pool = self.deck[:]
        for p in range(self.n):
            if p != player:
                pool += self.hands[p]
        pool.sort()  # the sampled world depends on the player's view only
        rng.shuffle(pool)
        for p in range(self.n):
            if p != player:
                k = len(self.hands[p])
                self.hands[p] = [pool.pop() for _ in range(k)]
        self.deck = pool
        if self.bids is not None:
            for p in range(self.n):
                if p != player and self.bids[p] is not None:
                    self.bids[p] = rng.below(2)


TOY = Game(
    id="toy",
    name="Toy",
    state_cls=ToyState,
    min_players=2,
    max_players=4,
    version="1",
    summary="test game",
    chance=True,
    hidden_information=True,
    simultaneous=True,
    options_cls=ToyOptions,
)
GAME = TOY
