"""The conformance hooks: check_invariants catches a broken state, private_items (none in
this game) and a local leak check, max_actions bounds real games, every step kind has a
rule. (check_invariants after every action of random games, every option value included,
is the shared harness's.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from cove.bots import make_bot
from cove.core import Rng
from cove.games.tiny_epic_pirates import GAME, TURN_ACTIONS, data, turn
from cove.games.tiny_epic_pirates.options import PiratesOptions
from cove.games.tiny_epic_pirates.state import PiratesState
from tests.games.tiny_epic_pirates.helpers import new, play_random


def _mid_game(n: int = 3, seed: int = 4) -> PiratesState:
    s = new(n, seed)
    play_random(s, seed, limit=300)
    assert not s.is_over
    s.check_invariants()
    return s


BREAKS: list[tuple[str, Callable[[PiratesState], None]]] = [
    ("booty cubes", lambda s: s.bag.__setitem__(0, s.bag[0] + 1)),
    ("market", lambda s: s.market.__setitem__(0, s.market[1])),
    ("crew cards", lambda s: s.crew_deck.pop()),
    ("crew cards", lambda s: s.crew_line.__setitem__(0, s.crew_line[1])),
    ("merchant cards",
     lambda s: setattr(s, "merchant_cards_removed", s.merchant_cards_removed + 1)),
    ("search tokens", lambda s: s.box_tokens.__setitem__(0, s.box_tokens[1])),
    ("sure-fire", lambda s: s.surefire.__setitem__(0, s.surefire[0] + 1)),
    ("deckhands", lambda s: s.assignments[1].__setitem__(data.REP, s.assignments[1][data.REP] + 1)),
    ("gold", lambda s: s.gold.__setitem__(0, s.ruleset.gold_cap + 1)),
    ("legend", lambda s: s.legend_level.__setitem__(2, 8)),
    ("captain", lambda s: s.captain_space.__setitem__(0, 6)),
    ("hidden off a cove", lambda s: (s.hidden.__setitem__(0, True), s.ship_at.__setitem__(
        0, next(i for i in range(16) if s.card(i).kind != data.COVE)))),
    ("battle", lambda s: setattr(s, "battle", turn.Battle(0, turn.B_NAVY, -1))),
    ("steps left", lambda s: setattr(s, "over", True)),
    ("no decision", lambda s: s.push(turn.step_of(turn.T_NEXT, 0))),
]


@pytest.mark.parametrize("what,brk", BREAKS, ids=[f"{i}-{w}" for i, (w, _) in enumerate(BREAKS)])
def test_check_invariants_fails_on_a_broken_state(what: str, brk: Callable[[PiratesState], None]
                                                  ) -> None:
    s = _mid_game()
    brk(s)
    with pytest.raises(AssertionError):
        s.check_invariants()


def _sub_values(v: Any) -> list[Any]:
    out = [v]
    if isinstance(v, dict):
        for x in v.values():
            out += _sub_values(x)
    elif isinstance(v, list):
        for x in v:
            out += _sub_values(x)
    return out


def leaks(s: PiratesState) -> list[str]:
    """A small local version of the harness check: each player's private items, and the
    parts hidden from everyone (face-down tokens, the unseen crew deck order), must not
    appear as a sub-value of any view they should not reach."""
    found = []
    secret = {"tokens": [t for t in s.search_tokens if t >= 0] + s.box_tokens,
              "crew_deck": s.crew_deck[s.crew_bottom_seen:]}
    viewers: list[int | None] = [*range(s.n), None]
    subs = {q: _sub_values(s.view(q)) for q in viewers}
    for p in viewers:
        items = secret if p is None else s.private_items(p)
        for q in viewers:
            if q == p and p is not None:
                continue
            for name, val in items.items():
                if isinstance(val, (list, dict)) and val and val in subs[q]:
                    found.append(f"{name} of {p} in view of {q}")
    return found


def test_no_private_items_and_no_leaks() -> None:
    s = _mid_game(4, 9)
    assert all(s.private_items(p) == {} for p in range(4))
    # nothing is known to one player alone: every viewer sees the same view, bar who they
    # are and whether the pending decision is theirs to take
    def shared(v: dict[str, Any]) -> dict[str, Any]:
        return {k: x for k, x in v.items() if k not in ("you", "decision")}

    assert all(shared(s.view(p)) == shared(s.view(None)) for p in range(4))
    assert s.view(None)["decision"]["waiting"]
    assert leaks(s) == []


@pytest.mark.pure_build
def test_leak_check_catches_a_secret_put_into_a_view(monkeypatch: pytest.MonkeyPatch) -> None:
    s = _mid_game(2, 3)
    real = PiratesState._view

    def leaky(self: PiratesState, player: int | None) -> dict[str, Any]:
        v = real(self, player)
        if player == 0:
            v["debug"] = {"deck": self.crew_deck[self.crew_bottom_seen:]}
        return v

    monkeypatch.setattr(PiratesState, "_view", leaky)
    assert leaks(s) == ["crew_deck of None in view of 0"]
    monkeypatch.setattr(PiratesState, "private_items",
                        lambda self, p: {"wheel": self.view(p)["pirates"][p]["wheel"]})
    assert any(x.startswith("wheel of 0 in view of 1") for x in leaks(s))


def test_max_actions_bounds_random_and_greedy_games() -> None:
    bound = GAME.max_actions
    assert bound is not None
    for n in (1, 2, 3, 4):
        opts = PiratesOptions(max_rounds=6)
        s = new(n, n, max_rounds=6)
        k = play_random(s, n)
        assert s.is_over and k <= bound(n, opts)
        assert bound(n, opts) == 1 + 2 * max(n, 2) + 6 * max(n, 2) * TURN_ACTIONS
    s = new(2, 5, max_rounds=5)
    bots = [make_bot("greedy", seed=p) for p in range(2)]
    while not s.is_over:
        p = s.to_move()[0]
        s.apply(p, bots[p].choose(s, p))
    assert 0 < s.decisions <= bound(2, PiratesOptions(max_rounds=5))
    # the bound grows with the round cap, the only safety end
    assert bound(2, PiratesOptions(max_rounds=60)) > bound(2, PiratesOptions(max_rounds=5))


def test_every_step_kind_has_a_rule_that_decides_or_runs() -> None:
    """The decision stack: each decision kind's rule offers moves, carries them out and
    asks in one sentence; each automatic kind's rule runs; a played game only ever waits
    on a decision of one seat."""
    from cove.core import StepRule

    rules = PiratesState.STEPS
    assert set(rules) == set(turn.DECISIONS) | set(turn.AUTOMATIC)
    for kind in turn.DECISIONS:
        cls = type(rules[kind])
        for hook in ("legal", "apply", "prompt"):
            assert getattr(cls, hook) is not getattr(StepRule, hook), (kind, hook)
        assert turn.step_of(kind, 1, 2).players == (1,)
    for kind in turn.AUTOMATIC:
        assert type(rules[kind]).run is not StepRule.run, kind
        assert turn.step_of(kind, 1, 2).players == ()
    s = new(3, seed=4)
    rng = Rng(4)
    seen = set()
    while not s.is_over:
        top = s.steps[-1]
        assert top.kind in turn.DECISIONS and s.to_move() == top.players
        seen.add(top.kind)
        prompt = s.decision(top.players[0])["prompt"]
        assert prompt and prompt[0].isupper() and "\n" not in prompt
        s.apply(top.players[0], rng.choice(s.legal_actions(top.players[0])))
    assert not s.steps and {"wheel", "sail", "order"} <= seen


@pytest.mark.pure_build
def test_the_harness_catches_a_broken_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule broken on purpose (a loaded booty cube is loaded twice, R6) fails the
    conformance harness, which passes the unbroken game."""
    from cove.testing import HarnessError, random_sim_test

    random_sim_test(GAME.id, 2, games=1, seed=1)
    load = PiratesState._load

    def broken(self: PiratesState, p: int, t: int) -> None:
        load(self, p, t)
        if t >= 0 and self.booty[p] and len(self.booty[p]) < 3:
            self.booty[p].append(t)  # the bug: the cube is loaded twice

    monkeypatch.setattr(PiratesState, "_load", broken)
    with pytest.raises(HarnessError, match="invariants"):
        random_sim_test(GAME.id, 2, games=2, seed=1)
