"""The arena engine and ``cove arena --json`` on tiny runs of the toy game."""

from __future__ import annotations

import json

import pytest

from cove.bots import BotSpecError
from cove.cli import main
from cove.lab.arena import bradley_terry, format_arena, run_arena, seating


def test_run_arena_json_shape(toy_registered: str) -> None:
    calls: list[tuple[int, int]] = []
    r = run_arena(toy_registered, 2, ["mcts:iterations=30", "random"], 6, 3, {},
                  progress=lambda done, total: calls.append((done, total)))
    json.dumps(r)  # JSON-ready
    assert (r["game"], r["players"], r["games"]) == ("toy", 2, 6)
    assert calls[-1] == (6, 6)
    assert [b["spec"] for b in r["bots"]] == ["mcts:iterations=30", "random"]
    for b in r["bots"]:
        assert {"spec", "win_rate", "ci_low", "ci_high", "mean_score", "rating"} <= set(b)
        assert 0.0 <= b["ci_low"] <= b["win_rate"] <= b["ci_high"] <= 1.0
        assert b["seats_played"] == 6
    assert sum(b["wins"] for b in r["bots"]) == pytest.approx(6)
    assert "iterations_per_second" in r["bots"][0]
    text = format_arena(r)
    assert "mcts:iterations=30" in text and "95% CI" in text and "rating" in text


def test_arena_reproduces_and_fills_seats(toy_registered: str) -> None:
    a = run_arena(toy_registered, 3, ["greedy", "random"], 9, 5, {})
    b = run_arena(toy_registered, 3, ["greedy", "random"], 9, 5, {})
    assert [x["wins"] for x in a["bots"]] == [x["wins"] for x in b["bots"]]
    assert [x["rating"] for x in a["bots"]] == [x["rating"] for x in b["bots"]]
    # 2 specs fill 3 seats: greedy, random, greedy (greedy holds 2 seats per game)
    assert [x["seats_played"] for x in a["bots"]] == [18, 9]


def test_seats_rotate_evenly() -> None:
    for entries, players in ((3, 3), (2, 2), (2, 4), (1, 3), (2, 3), (3, 2), (5, 3)):
        counts = [[0] * players for _ in range(entries)]
        for g in range(players * entries * 2):
            for seat, e in enumerate(seating(entries, players, g)):
                counts[e][seat] += 1
        for row in counts:
            assert len(set(row)) == 1


def test_arena_errors(toy_registered: str) -> None:
    with pytest.raises(BotSpecError, match="unknown bot"):
        run_arena(toy_registered, 2, ["random", "rando"], 2, 1, {})


def test_more_bots_than_seats_share_the_games(toy_registered: str) -> None:
    r = run_arena(toy_registered, 2, ["mcts:iterations=10", "greedy", "random"], 6, 1, {})
    assert [b["seats_played"] for b in r["bots"]] == [4, 4, 4]
    assert sum(b["wins"] for b in r["bots"]) == pytest.approx(6)


def test_ratings() -> None:
    even = bradley_terry([[0.0, 5.0], [5.0, 0.0]])
    assert even == pytest.approx([1500.0, 1500.0])
    strong = bradley_terry([[0.0, 30.0, 30.0], [0.0, 0.0, 15.0], [0.0, 15.0, 0.0]])
    assert strong[0] > strong[1] == pytest.approx(strong[2])
    assert sum(strong) / 3 == pytest.approx(1500.0)
    assert all(abs(x) < 5000 for x in strong)  # finite although bot 0 never lost


def test_cove_arena_json_tiny_run(capsys: pytest.CaptureFixture[str],
                                  toy_registered: str) -> None:
    rc = main(["arena", "toy", "--players", "2", "--bots", "mcts:iterations=20,depth=4,greedy",
               "--games", "4", "--seed", "2", "--json"])
    out = capsys.readouterr().out
    assert rc == 0
    data = json.loads(out)
    assert {"game", "players", "games", "bots"} <= set(data)
    assert data["games"] == 4 and data["players"] == 2
    assert [b["spec"] for b in data["bots"]] == ["mcts:iterations=20,depth=4", "greedy"]
    for b in data["bots"]:
        for key in ("win_rate", "ci_low", "ci_high", "mean_score", "rating"):
            assert isinstance(b[key], float)
