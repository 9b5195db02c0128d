"""The Toy's decisions, one rule per kind of step on the decision stack, in RULES.md order.

A rule is a ``StepRule[ToyState]``: the stack only ever hands it this game's state. A rule
with ``legal``/``apply`` is a decision; one with ``run`` is automatic.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cove.core import Step, StepRule
from cove.example_game.actions import Bid, Play

if TYPE_CHECKING:
    from cove.example_game.state import ToyState


class BidRule(StepRule["ToyState"]):
    """R2: everyone bids 0 or 1 at once; a bid stays secret until all have bid."""

    secret = True
    forced = False

    def legal(self, state: ToyState, step: Step, player: int) -> Sequence[Any]:
        return (Bid(0), Bid(1))

    def apply(self, state: ToyState, step: Step, player: int, action: Any) -> None:
        state.bids[player] = action.amount
        state.say(f"P{player + 1} bids {action.amount}", to=player, kind="bid",
                  data={"player": player, "amount": action.amount})
        rest = tuple(p for p in step.players if p != player)
        state.push(Step("bid", rest) if rest else Step("reveal_bids"))

    def prompt(self, state: ToyState, step: Step, player: int) -> str:
        return (f"Bid 0 or 1 in secret: a bid of 1 costs {state.data.bid_cost} "
                f"{'point' if state.data.bid_cost == 1 else 'points'} and draws a "
                f"{state.data.card_label}")


class RevealRule(StepRule["ToyState"]):
    """R3 (automatic): all bids are in; reveal them, pay for them and draw the cards."""

    def run(self, state: ToyState, step: Step) -> None:
        for p, bid in enumerate(state.bids):
            if bid:
                state.bid_paid[p] += state.data.bid_cost
                if state.deck:
                    state.hands[p].append(state.deck.pop())
        state.reveal()
        state.say("bids revealed: " + ", ".join(str(b) for b in state.bids), kind="reveal",
                  data={"bids": list(state.bids)})
        state.bidding = False


class PlayRule(StepRule["ToyState"]):
    """R4: the player to move plays a card: it scores its value, and they draw another.
    A hand of one card is still asked for (``forced = False``), so every player decides
    once per play, as a learner's environment counts turns."""

    forced = False

    def legal(self, state: ToyState, step: Step, player: int) -> Sequence[Any]:
        return tuple(Play(c) for c in sorted(state.hands[player]))

    def apply(self, state: ToyState, step: Step, player: int, action: Any) -> None:
        hand = state.hands[player]
        hand.remove(action.card)
        state.played.append(action.card)
        state.played_by.append(player)
        state.card_points[player] += action.card
        if state.deck:
            hand.append(state.deck.pop())
        if not hand:
            hand.append(0)  # R4.2: an empty hand holds a blank worth nothing
        state.say(f"P{player + 1} plays {action.card}", kind="play",
                  data={"player": player, "card": action.card})
        state.turn += 1

    def prompt(self, state: ToyState, step: Step, player: int) -> str:
        return (f"Play a {state.data.card_label}: it scores its value and you draw "
                "another")


STEPS: dict[str, StepRule[ToyState]] = {
    "bid": BidRule(), "reveal_bids": RevealRule(), "play": PlayRule()}
"""Step kind -> its rule."""
