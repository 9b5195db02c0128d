"""Toy: the smallest complete Cove game, written as the tutorial for adding one.

Rules. A deck holds the cards 1..12, shuffled. Each player is dealt two hidden cards.
The game opens with a simultaneous, secret *bid*: everyone bids 0 or 1 at once; a bid of
1 costs a point and draws a card. Then players take turns playing a card from their
hand: it scores its value and they draw a replacement. After ``plays`` cards in all, the
highest total wins.

Read it top to bottom: the actions, the options, the decisions (one rule per kind of
step on the decision stack), the state, and the declaration. A real game splits the same
parts into modules (actions.py, options.py, state.py, ...; see CONTRIBUTING.md). It is not
registered; tests register it as ``toy``.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from cove.core.decisions import Step, StepRule
from cove.core.game import Game
from cove.core.options import Options, option
from cove.core.rng import Rng
from cove.core.state import State

DECK = tuple(range(1, 13))


# -- actions: small frozen values; str() is the text form, the JSON form is derived -------
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


def universe(players: int, options: Options) -> list[Hashable]:
    """Every action the game can ever offer, in a fixed order: the action space."""
    return [Bid(0), Bid(1), *(Play(c) for c in DECK)]


# -- options: every DESIGN value a designer may change ------------------------------------
@dataclass(frozen=True)
class ToyOptions(Options):
    plays: int = option(6, help="plays before the end", minimum=1, maximum=12)
    bidding: bool = option(True, help="open with a simultaneous bid")


# -- decisions: one rule per kind of step ---------------------------------------------------
# A rule is a StepRule[ToyState]: the stack only ever hands it this game's state.
class BidRule(StepRule["ToyState"]):
    """Everyone bids at once; a bid stays secret until all have bid."""

    secret = True
    forced = False

    def legal(self, state: ToyState, step: Step, player: int) -> Sequence[Any]:
        return (Bid(0), Bid(1))

    def apply(self, state: ToyState, step: Step, player: int, action: Any) -> None:
        s = state
        s.bids[player] = action.amount
        s.say(f"P{player + 1} bids {action.amount}", to=player, kind="bid",
              data={"player": player, "amount": action.amount})
        rest = tuple(p for p in step.players if p != player)
        state.push(Step("bid", rest) if rest else Step("reveal_bids"))

    def prompt(self, state: ToyState, step: Step, player: int) -> str:
        return "Bid 0 or 1 in secret: a bid of 1 costs a point and draws a card"


class RevealRule(StepRule["ToyState"]):
    """Automatic: all bids are in; reveal them and pay for the extra cards."""

    def run(self, state: ToyState, step: Step) -> None:
        s = state
        for p, b in enumerate(s.bids):
            if b:
                s.score[p] -= 1
                if s.deck:
                    s.hands[p].append(s.deck.pop())
        s.reveal()
        s.say("bids revealed: " + ", ".join(str(b) for b in s.bids), kind="reveal",
              data={"bids": list(s.bids)})
        s.bidding = False



class PlayRule(StepRule["ToyState"]):
    forced = True

    def legal(self, state: ToyState, step: Step, player: int) -> Sequence[Any]:
        return tuple(Play(c) for c in sorted(state.hands[player]))

    def apply(self, state: ToyState, step: Step, player: int, action: Any) -> None:
        s = state
        s.hands[player].remove(action.card)
        s.played.append(action.card)
        s.score[player] += action.card
        if s.deck:
            s.hands[player].append(s.deck.pop())
        if not s.hands[player]:
            s.hands[player].append(0)
        s.say(f"P{player + 1} plays {action.card}", kind="play",
              data={"player": player, "card": action.card})
        s.turn += 1

    def prompt(self, state: ToyState, step: Step, player: int) -> str:
        return "Play a card: it scores its value and you draw another"


# -- the state --------------------------------------------------------------------------------
class ToyState(State):
    __slots__ = ("bidding", "bids", "deck", "hands", "played", "score", "turn")

    STEPS: ClassVar[Mapping[str, StepRule[ToyState]]] = {
        "bid": BidRule(), "reveal_bids": RevealRule(), "play": PlayRule()}

    def setup(self) -> None:
        o = self.opts
        self.deck = list(DECK)
        self.rng.shuffle(self.deck)
        self.hands = [[self.deck.pop(), self.deck.pop()] for _ in range(self.n)]
        self.score = [0] * self.n
        self.played: list[int] = []
        self.turn = 0
        self.bids: list[int] = [0] * self.n
        self.bidding = o.bidding
        if o.bidding:
            self.push(Step("bid", tuple(range(self.n))))
        self.settle()

    @property
    def opts(self) -> ToyOptions:
        assert isinstance(self.options, ToyOptions)
        return self.options

    def next_steps(self) -> Sequence[Step]:
        if len(self.played) >= self.opts.plays:
            return ()
        return (Step("play", (self.turn % self.n,)),)

    def scores(self) -> list[float]:
        return [float(s) for s in self.score]

    def explain_illegal(self, player: int, text: str) -> str:
        if text.startswith("play") and self.bidding:
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
        }
        if player is not None:
            v["hand"] = sorted(self.hands[player])
            if self.bidding:
                v["my_bid"] = self.bids[player] if player not in self.to_move() else None
        return v

    def _observation(self, player: int) -> list[float]:
        hand = [0.0] * 13
        for c in self.hands[player]:
            hand[c] += 1.0
        played = [0.0] * 13
        for c in self.played:
            played[c] = 1.0
        return hand + played + [s / 20.0 for s in self.score] + [0.0] * (4 - self.n)

    def check_invariants(self) -> None:
        cards = sorted(self.deck + self.played + [c for h in self.hands for c in h if c])
        assert cards == list(DECK), f"cards not conserved: {cards}"

    def private_items(self, player: int) -> dict[str, Any]:
        return {"hand": sorted(self.hands[player])}

    def clone(self) -> ToyState:
        s: ToyState = self._clone_base()
        s.deck = self.deck[:]
        s.hands = [h[:] for h in self.hands]
        s.score = self.score[:]
        s.played = self.played[:]
        s.turn = self.turn
        s.bids = self.bids[:]
        s.bidding = self.bidding
        return s

    def _resample(self, player: int, rng: Rng) -> None:
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


GAME = Game(
    id="toy",
    name="Toy",
    state_cls=ToyState,
    min_players=2,
    max_players=4,
    version="2",
    summary="A tutorial game: a secret bid, then play cards for points.",
    chance=True,
    hidden_information=True,
    simultaneous=True,
    options_cls=ToyOptions,
    max_actions=lambda players, o: players + 12,
    actions=universe,
    observation_encoding=lambda players, o: 13 + 13 + 4,
)

__all__ = ["GAME"]
