"""The seed's round walked phase by phase, and contract v2 (R34): secret commitments in the
history, the re-reveal action texts, decision prompts, decisions as steps, and the action
space's keys. The rules of the round, the segment and the DESIGN completion have their own
files: test_rules_round.py (R1-R8), test_rules_segment.py (R9-R18) and
test_rules_design.py (R19-R32)."""

from __future__ import annotations

import pytest

import cove
from cove.core.state import HIDDEN
from cove.games.high_water.actions import Play
from cove.games.high_water.rules import PICK, STEPS, TRICK
from cove.games.high_water.state import HighWaterState
from tests.games.high_water.helpers import new, play_trick, random_play, trick_position


def test_r34_trick_commitments_stay_secret_in_the_history_until_the_reveal() -> None:
    s = new(3, seed=2)
    s.apply(1, "play 5")
    s.apply(0, "play 2")
    for q in (None, 0, 2):
        assert s.history_for(q)[0] == (1, None)
        rec = s.record(q) if q is not None else s.record(redacted=True)
        assert rec["actions"][0] == [1, HIDDEN]
    assert s.history_for(1)[0] == (1, Play(5))  # the owner sees their own card
    assert s.history_for(2)[1] == (0, None)
    s.apply(2, "play 7")  # the last commitment reveals all three
    assert s.phase == PICK
    for q in (None, 0, 1, 2):
        assert [a for _, a in s.history_for(q)] == [Play(5), Play(2), Play(7)]
    assert s.record()["actions"] == [[1, "play 5"], [0, "play 2"], [2, "play 7"]]


def test_r34_1_a_re_reveal_play_is_its_own_action() -> None:
    s = new(2, seed=1)
    old = s.legal_actions(0)
    play_trick(s, {0: 4, 1: 4})  # a tie: both re-reveal
    assert s.phase == TRICK and s.rereveals == 1
    legal = s.legal_actions(0)
    assert [str(a) for a in legal] == [f"play {v} (re-reveal 1)" for v in (1, 2, 3, 5, 6, 7)]
    for a in old:  # a choice from the first reveal is refused, as a value
        with pytest.raises(cove.IllegalAction):
            s.apply(0, a)
    s.apply(0, "play 6")  # the short form finds the re-reveal play
    assert s.history_for(0)[-1] == (0, Play(6, 1))
    space = s.action_space
    assert len({space.encode(a) for a in legal + old}) == len(legal) + len(old)


def test_r34_2_every_decision_has_a_plain_prompt() -> None:
    s = new(3, seed=4)
    seen: set[str] = set()

    def check(st: cove.State) -> None:
        for p in st.to_move():
            d = st.decision(p)
            assert d["prompt"] and "\n" not in d["prompt"], d
            seen.add(d["kind"])
        pub = st.decision(None)
        assert pub["waiting"] is True or st.is_over
        if st.to_move() and len(st.to_move()) > 1:
            assert "play" not in pub["prompt"]  # the public trick prompt names no card

    random_play(s, 4, check=check)
    assert {"trick", "crate", "step"} <= seen


def test_r34_3_decisions_are_steps_and_forced_choices_log_their_own_event() -> None:
    """Every decision is the step on top of the core's stack, of a kind with a rule; a
    forced single choice (the last crate, a lone payable die) is taken on its own and logged
    as the move itself, never as a generic "(the only choice)" event."""
    seen: set[str] = set()

    def check(st: cove.State) -> None:
        assert isinstance(st, HighWaterState)
        if st.to_move():
            top = st.steps[-1]
            assert top.kind in STEPS and top.players
            assert st.decision(st.to_move()[0])["kind"] == top.kind
            seen.add(top.kind)

    for n, opts in ((2, {"carry_cap": 4}), (4, {"idle_dice_actions": True})):
        s = new(n, seed=n, **opts)
        random_play(s, n, check=check)
        assert s.is_over and not s.steps
        events = s.events(None)
        assert not any(e.kind == "forced" or "only choice" in e.text for e in events)
        takes = [e for e in events if e.kind == "take"]
        assert len(takes) == n * s.round  # every crate taken, the forced last one included
    assert {"trick", "crate", "step", "pay", "carry_cap"} <= seen


def test_action_keys_are_texts_found_by_identity_and_equal_actions_share_them() -> None:
    """The universe keys are the actions' texts (a crate pick: ("take", k)); a ready-made
    action and an equal one built afresh (or read back from JSON) have the same index, and
    a value that is not a High Water action (its text, a bare key) has none."""
    from cove.games.high_water.actions import Face, Take, action_key

    s = new(3, seed=5)
    space = s.action_space
    assert all(isinstance(k, str) or k[0] == "take" for k in space.universe)
    assert len(set(space.universe)) == space.size
    seen = 0
    while not s.is_over and seen < 400:
        p = s.to_move()[0]
        for a in s.legal_actions(p):
            fresh = type(a)(**{f: getattr(a, f) for f in a.__dataclass_fields__})
            assert fresh is not a and action_key(fresh) == action_key(a)
            assert space.encode(fresh) == space.encode(a)
            key = space.universe[space.encode(a)]
            assert key == (("take", a.crate) if isinstance(a, Take) else str(a))
            seen += 1
        s.apply(p, s.legal_actions(p)[seen % len(s.legal_actions(p))])
    assert space.encode(Face(2)) == space.universe.index("to 2")
    for bad in ("play 3", ("take", 1), 3, None, [1]):
        with pytest.raises(cove.IllegalAction):
            space.encode(bad)


def test_seed_round_phases_in_order() -> None:
    """The fragment's round, phase by phase, as the log tells it (the seed has no numeric
    worked example; this walks its Phases 1-6 on a 2-player round)."""
    s = trick_position(2, seed=12, high_water=True)
    play_trick(s, {0: 6, 1: 2})
    s.apply(0, s.legal_actions(0)[0])
    while s.round == 1:
        p = s.to_move()[0]
        s.apply(p, s.legal_actions(p)[-1])
    log = [e.text for e in s.events(None)]
    kinds: list[str] = []
    for t in log:
        for key, kind in (("Round 1", "1 fill crates"), ("water coin", "2 tide"),
                          ("Trick reveal", "3 trick"), ("takes crate", "4 crates"),
                          ("action segment", "5 segment"), ("ends the segment", "6 influence"),
                          ("Round 2", "next round")):
            if key in t and (not kinds or kinds[-1] != kind):
                kinds.append(kind)
    assert kinds[:9] == ["1 fill crates", "2 tide", "3 trick", "4 crates", "5 segment",
                         "6 influence", "5 segment", "6 influence", "next round"]
    assert "P2's action segment" in log and log.index("P2's action segment") < log.index(
        "P1's action segment")
