"""The lab's one game loop and its backends: identical results everywhere,
streamed results that resume, clean interruption, and warnings in plain words."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

import cove
from cove.bots import make_bot
from cove.core.errors import RecordError
from cove.core.rng import Rng
from cove.lab.arena import run_arena
from cove.lab.runner import BackendError, RandomChooser, advance, make_backend, play_out, seated
from cove.lab.simulate import SimResult, simulate


def _figures(sim: SimResult) -> dict[str, object]:
    out = sim.to_json()
    return {k: out[k] for k in ("seats", "stats", "length", "margin", "branching",
                                "action_kinds", "drama", "wins", "ties")}


def test_every_backend_and_worker_count_plays_the_same_games(toy_registered: str) -> None:
    serial = simulate(toy_registered, 3, 12, seed=5)
    procs = simulate(toy_registered, 3, 12, seed=5, jobs=2, backend="processes")
    assert procs.backend == "processes" and procs.workers == 2
    assert [r.scores for r in serial.results] == [r.scores for r in procs.results]
    assert _figures(serial) == _figures(procs)


@pytest.mark.skipif(importlib.util.find_spec("ray") is None,
                    reason="Ray is not installed (pip install 'cove[lab]')")
def test_ray_backend_plays_the_same_games_as_serial(toy_registered: str) -> None:
    serial = simulate(toy_registered, 2, 8, seed=9)
    ray_run = simulate(toy_registered, 2, 8, seed=9, jobs=2, backend="ray")
    assert ray_run.backend == "ray"
    assert _figures(serial) == _figures(ray_run)


def test_arena_gives_the_same_games_on_processes(toy_registered: str) -> None:
    a = run_arena(toy_registered, 2, ["greedy", "random"], 6, seed=3, options={})
    b = run_arena(toy_registered, 2, ["greedy", "random"], 6, seed=3, options={}, jobs=2,
                  backend="processes")
    assert [(x["wins"], x["mean_score"]) for x in a["bots"]] == \
        [(x["wins"], x["mean_score"]) for x in b["bots"]]
    assert a["manifest"]["game"] == toy_registered and a["manifest"]["bots"] == ["greedy", "random"]


def test_out_streams_a_manifest_and_one_line_per_game(tmp_path: Path,
                                                      toy_registered: str) -> None:
    out = tmp_path / "run.jsonl"
    sim = simulate(toy_registered, 3, 5, seed=2, out=out)
    lines = out.read_text().splitlines()
    head = json.loads(lines[0])["manifest"]
    assert head["game"] == toy_registered and head["players"] == 3 and head["seed"] == 2
    assert head["game_version"] and head["bots"] == ["random"] * 3
    games = [json.loads(x) for x in lines[1:]]
    assert [g["index"] for g in games] == [0, 1, 2, 3, 4]
    assert [tuple(g["scores"]) for g in games] == [r.scores for r in sim.results]


def test_a_cut_run_resumes_to_the_same_result(tmp_path: Path, toy_registered: str) -> None:
    whole = simulate(toy_registered, 3, 8, seed=4)
    out = tmp_path / "run.jsonl"
    simulate(toy_registered, 3, 8, seed=4, out=out)
    lines = out.read_text().splitlines(keepends=True)
    # keep the manifest and 3 games, then half a line as a killed process leaves it
    out.write_text("".join(lines[:4]) + lines[4][: len(lines[4]) // 2])
    resumed = simulate(toy_registered, 3, 8, seed=4, out=out)
    assert resumed.played_now == 5
    assert _figures(resumed) == _figures(whole)
    assert len(out.read_text().splitlines()) == 9  # manifest + 8 games (half line replaced)


def test_a_results_file_of_another_run_is_refused(tmp_path: Path, toy_registered: str) -> None:
    out = tmp_path / "run.jsonl"
    simulate(toy_registered, 3, 2, seed=4, out=out)
    with pytest.raises(RecordError, match="differs in seed"):
        simulate(toy_registered, 3, 2, seed=5, out=out)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("hello\n")
    with pytest.raises(RecordError, match="not a cove results file"):
        simulate(toy_registered, 3, 2, seed=4, out=bad)


def test_ctrl_c_stops_cleanly_with_the_games_played(tmp_path: Path, toy_registered: str) -> None:
    def stop_after_three(done: int, total: int) -> None:
        if done == 3:
            raise KeyboardInterrupt

    out = tmp_path / "run.jsonl"
    sim = simulate(toy_registered, 2, 10, seed=1, progress=stop_after_three, out=out)
    assert sim.interrupted and len(sim.results) == 3
    assert any("interrupted: 3 of 10" in w for w in sim.to_json()["warnings"])
    rest = simulate(toy_registered, 2, 10, seed=1, out=out)
    assert rest.played_now == 7 and not rest.interrupted
    assert _figures(rest) == _figures(simulate(toy_registered, 2, 10, seed=1))


def test_safety_cut_offs_deciding_many_games_are_named_in_a_warning(
        toy_with_safety_end: str, toy_registered: str) -> None:
    sim = simulate(toy_with_safety_end, 3, 30, seed=1)  # most games of three end "low"
    share, which = sim.safety_share()
    assert share > 0.2 and which == ["low"]
    (warning,) = sim.to_json()["warnings"]
    assert "safety cut-off (low)" in warning
    assert "this measures the safety cut-off, not the game: try --bots greedy or mcts" in warning
    # a game without safety ends never warns
    assert simulate(toy_registered, 3, 3, seed=1).to_json()["warnings"] == []


def test_metrics_designers_read(toy_registered: str) -> None:
    out = simulate(toy_registered, 4, 6, seed=3).to_json()
    assert out["length"]["p5"] <= out["length"]["median"] <= out["length"]["p95"]
    assert out["branching"] is not None and out["branching"] > 1
    assert abs(sum(out["action_kinds"].values()) - 1.0) < 1e-9
    assert abs(sum(s["advantage"] for s in out["seats"])) < 1e-9
    assert all(s["advantage_ci"][0] <= s["advantage"] <= s["advantage_ci"][1]
               for s in out["seats"])


def test_bad_backends_are_refused_with_what_is_valid() -> None:
    with pytest.raises(BackendError, match="serial, processes, ray"):
        make_backend("cluster")
    with pytest.raises(BackendError, match="--backend ray"):
        make_backend("processes", 2, address="10.0.0.1:6379")
    with pytest.raises(BackendError, match="at least 1"):
        make_backend("processes", 0)


# -- the loop's forms: a whole game, part of one, a random chooser --------------------------
def _own_loop(state: cove.State, rng: Rng) -> cove.State:
    while not state.is_over:
        p = state.to_move()[0]
        state.apply(p, rng.choice(state.legal_actions(p)))
    return state


@pytest.mark.parametrize("gid", cove.ids())
def test_play_out_with_a_random_chooser_plays_the_moves_of_a_plain_loop(gid: str) -> None:
    game = cove.load(gid)
    players = game.max_players
    mine = _own_loop(game.new(players, 5, log=False), Rng(9))
    inlined = play_out(game.new(players, 5, log=False), RandomChooser(Rng(9)))
    r = Rng(9)
    called = play_out(game.new(players, 5, log=False), lambda s, p: r.choice(s.legal_actions(p)))
    assert inlined.is_over and mine.fingerprint() == inlined.fingerprint()
    assert called.fingerprint() == mine.fingerprint()


def test_advance_plays_a_given_number_of_moves_or_until_told_to_stop(
        toy_registered: str) -> None:
    game = cove.load(toy_registered)
    s = game.new(3, 2, log=False, plays=12)  # 3 bids and 12 cards: 15 decisions
    advance(s, RandomChooser(Rng(1)), moves=7)
    assert s.decisions == 7 and not s.is_over
    advance(s, RandomChooser(Rng(1)), moves=0)
    assert s.decisions == 7
    seen: list[int] = []
    advance(s, RandomChooser(Rng(1)), after=lambda p, _a: seen.append(p) or len(seen) == 5)
    assert s.decisions == 12 and len(seen) == 5
    with pytest.raises(ValueError, match="moves must be at least 0"):
        advance(s, RandomChooser(Rng(1)), moves=-1)


def test_a_game_that_does_not_end_is_stopped_with_its_seed(toy_registered: str) -> None:
    s = cove.load(toy_registered).new(2, 3, log=False, plays=12)  # 14 decisions
    with pytest.raises(RuntimeError, match="seeded 3 did not end in 10 moves"):
        play_out(s, RandomChooser(Rng(1)), max_decisions=10)
    assert s.decisions == 11
    t = cove.load(toy_registered).new(2, 3, log=False, plays=12)
    with pytest.raises(RuntimeError, match="did not end in 10 moves"):
        play_out(t, lambda st, p: st.legal_actions(p)[0], max_decisions=10)


def test_seated_asks_each_seat_its_own_bot(toy_registered: str) -> None:
    game = cove.load(toy_registered)
    a = play_out(game.new(3, 4, log=False), seated([make_bot("random", seed=p)
                                                    for p in range(3)]))
    b = game.new(3, 4, log=False)
    bots = [make_bot("random", seed=p) for p in range(3)]
    while not b.is_over:
        p = b.to_move()[0]
        b.apply(p, bots[p].act(b, p))
    assert a.is_over and a.fingerprint() == b.fingerprint()


def test_a_deadline_stops_waiting_for_results() -> None:
    """Past its deadline a backend stops with Deadline instead of waiting for the work in
    play (the ladder's time budget); before it, it hands back every result."""
    import time

    from cove.lab.runner import Deadline

    later = time.monotonic() + 600
    for name, jobs in (("serial", 1), ("processes", 2)):
        backend = make_backend(name, jobs)
        try:
            assert list(backend.map(abs, [-1, -2, 3], later)) == [1, 2, 3]
            with pytest.raises(Deadline):
                list(backend.map(abs, [-1, -2], time.monotonic() - 1))
        finally:
            backend.close()
