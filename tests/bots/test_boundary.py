"""The safe bot boundary: ``Bot.act`` hands a bot ``state.for_player(p)``, never the real
state, so a bot cannot read hidden cards, the seed, the chance record or an unrevealed
commitment, and cannot change the real game."""

from __future__ import annotations

from typing import Any

import cove
from cove.bots.base import Bot
from cove.core.state import Action, State


class Spy(Bot):
    """Records what it is handed and scribbles on it."""

    name = "spy"

    def __init__(self, seed: int = 0, scribble: bool = False) -> None:
        super().__init__(seed)
        self.seen: list[State] = []
        self.views: list[dict[str, Any]] = []
        self.scribble = scribble

    def choose(self, state: State, player: int) -> Action:
        self.seen.append(state)
        self.views.append(state.view(player))
        legal = state.legal_actions(player)
        if self.scribble:  # a bot that writes on its state changes nothing real
            other: Any = state
            other.card_points = [99] * state.n
        return legal[-1]


def test_a_bot_sees_only_what_its_player_may_know(toy_registered: str) -> None:
    game = cove.load(toy_registered)
    real = game.new(3, seed=5)
    spy = Spy(1, scribble=True)
    real.apply(0, "bid 1")  # P1's bid is a secret commitment until everyone has bid
    action = spy.act(real, 1)
    given = spy.seen[-1]
    assert given is not real
    assert given.seed == 0 and "chance" not in given.record()
    assert given.history_for(None) == [(0, None)]  # P1's bid is not in the history P2 gets
    assert [a for _, a in given.history] == [None]
    assert spy.views[-1] == real.view(1)  # everything P2 may see is there
    real.apply(1, action)
    assert real.card_points == [0, 0, 0]


def test_hidden_cards_handed_to_a_bot_are_a_sample(toy_registered: str) -> None:
    game = cove.load(toy_registered)  # hands are dealt, hidden, before the first move
    differs = 0
    for seed in range(6):
        real = game.new(3, seed=seed)
        p = real.to_move()[0]
        spy = Spy(seed)
        spy.act(real, p)
        given = spy.seen[-1]
        q = (p + 1) % real.n
        assert spy.views[-1] == real.view(p)
        differs += given.view(q) != real.view(q)
    assert differs >= 3, "other players' hidden cards were handed over unchanged"
