"""Lead changes and drama: figures from a per-round trace of the running
scores, taken through the contract (``state.scores()``), and said plainly when a game
shows no running score."""

from __future__ import annotations

import pytest

import cove
from cove.lab.runner import Drama, GameResult, ScoreTrace, advance, drama
from cove.lab.simulate import NO_TRACE, drama_lines, drama_summary, simulate


def test_lead_changes_count_a_new_sole_leader_and_not_a_tie() -> None:
    points = [(0, (0.0, 0.0)), (4, (1.0, 0.0)), (8, (1.0, 1.0)), (12, (1.0, 2.0)),
              (16, (3.0, 2.0)), (20, (3.0, 3.0)), (24, (4.0, 3.0))]
    d = drama(points, 30, winners=[0])
    # leader: -, 0, tie, 1, 0, tie, 0  ->  0 to 1, 1 to 0
    assert d.lead_changes == 2
    assert d.score_moves == 6


def test_decided_at_is_when_the_winner_was_last_behind() -> None:
    points = [(0, (0.0, 0.0)), (10, (0.0, 2.0)), (60, (3.0, 2.0)), (90, (4.0, 5.0)),
              (95, (6.0, 5.0))]
    assert drama(points, 100, winners=[0]).decided_at == 0.95
    assert drama(points, 100, winners=[1]).decided_at == 1.0  # behind at the last sample
    never_behind = [(0, (0.0, 0.0)), (10, (1.0, 0.0))]
    assert drama(never_behind, 20, winners=[0]).decided_at == 0.0
    assert drama(never_behind, 20, winners=[]).decided_at == -1.0


def test_the_half_way_leader_losing_is_counted() -> None:
    points = [(0, (0.0, 0.0)), (10, (2.0, 0.0)), (80, (2.0, 5.0))]
    assert drama(points, 100, winners=[1]).halftime_leader_lost == 1
    assert drama(points, 100, winners=[0]).halftime_leader_lost == 0
    tied = [(0, (0.0, 0.0)), (80, (2.0, 5.0))]
    assert drama(tied, 100, winners=[1]).halftime_leader_lost == -1


def test_a_score_only_at_the_end_is_no_running_score() -> None:
    d = drama([(0, (0.0, 0.0)), (50, (3.0, 1.0))], 50, winners=[0])
    assert d.score_moves == 0
    result = GameResult(scores=(3.0, 1.0), winners=(0,), decisions=50, drama=d)
    summary = drama_summary([result] * 3, 2)
    assert summary is not None
    assert summary["note"] == NO_TRACE and summary["lead_changes"] is None
    assert drama_lines({"drama": summary}) == [f"drama: {NO_TRACE}"]


def test_the_trace_samples_once_a_round_through_the_contract(toy_registered: str) -> None:
    state = cove.load(toy_registered).new(4, seed=3, log=False)
    trace = ScoreTrace(state)
    seen: list[int] = []

    def sample(s: cove.State) -> None:
        seen.append(s.decisions)
        trace.sample(s)

    advance(state, lambda s, p: s.legal_actions(p)[0], rounds=sample)
    assert state.is_over and seen[-1] == state.decisions
    assert len(seen) < state.decisions / 2  # once a round of four seats, not once a move
    assert trace.points[-1][1] == tuple(state.scores())
    assert all(a[1] != b[1] for a, b in zip(trace.points, trace.points[1:], strict=False))


def test_advance_stops_when_only_seats_it_does_not_drive_are_to_move(
        toy_registered: str) -> None:
    state = cove.load(toy_registered).new(2, seed=1, log=False)
    moved: list[int] = []
    mine = 0
    while not state.is_over:
        advance(state, lambda s, p: s.legal_actions(p)[-1], seats={1},
                after=lambda p, _a: moved.append(p))
        if state.is_over:
            break
        assert state.to_move() == (0,)  # it stopped for the seat it does not drive
        state.apply(0, state.legal_actions(0)[0])
        mine += 1
    assert mine > 0 and moved and set(moved) == {1}
    assert len(moved) + mine == state.decisions


def test_simulate_reports_drama_with_intervals_and_in_words(toy_registered: str) -> None:
    out = simulate(toy_registered, 3, 20, seed=2).to_json()
    d = out["drama"]
    assert d["games"] == 20 and d["note"] is None and d["running_score_share"] > 0
    lc = d["lead_changes"]
    assert lc["ci"][0] <= lc["mean"] <= lc["ci"][1]
    assert 0 <= d["decided_at"]["median"] <= 1
    assert drama_lines(out)[0].startswith("drama: lead changes mean")


def test_a_solo_game_has_no_lead_to_change() -> None:
    solo = [g.id for g in cove.all_games() if g.min_players == 1]
    if not solo:
        pytest.skip("no registered game is for one player")
    sim = simulate(solo[0], 1, 2, seed=1)
    assert all(r.drama is None for r in sim.results)
    assert sim.to_json()["drama"] is None


def test_drama_survives_the_results_file() -> None:
    d = Drama(lead_changes=2, decided_at=0.5, halftime_leader_lost=1, score_moves=7)
    r = GameResult(scores=(1.0, 2.0), winners=(1,), decisions=9, drama=d)
    assert GameResult.from_json(r.to_json()) == r
