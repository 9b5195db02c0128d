"""``cove ladder`` on the tutorial game (the toy, with 6 plays: a game in which keeping
the high card matters, so ``greedy`` beats ``random`` about 63% of the time): the
schedule's balance and mirrored deals, ratings in the known direction, bootstrap
intervals, the stop rule, the JSON and HTML, and bad input."""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import cove
from cove.bots.defaults import declared
from cove.cli import LADDER_MINUTES, main
from cove.lab import ladder
from cove.lab.ladder import (
    LadderError,
    bootstrap,
    circle_round,
    default_pool,
    elo_for,
    points,
    run_ladder,
    schedule,
)
from cove.lab.runner import game_seed, play_chunk

SIX = {"plays": 6}
"""The toy with 6 plays: the card kept in hand at the end is lost, so playing the high
card first is skill (with all 12 plays, greedy and random win equally often)."""


def run(pool: list[str], games: int, **kw: Any) -> dict[str, Any]:
    kw.setdefault("replicates", 60)
    return run_ladder("toy", kw.pop("players", 2), pool, games=games, seed=kw.pop("seed", 4),
                      options=kw.pop("options", SIX), **kw)


def by_spec(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {e["spec"]: e for e in result["entries"]}


# -- the schedule ----------------------------------------------------------------------------
@pytest.mark.parametrize(("k", "n"), [(2, 2), (5, 2), (6, 2), (11, 2), (3, 3), (7, 3),
                                      (6, 4), (11, 5), (2, 3), (1 + 1, 5)])
def test_every_entry_holds_every_seat_equally_often(k: int, n: int) -> None:
    deals = list(itertools.islice(schedule(k, n, 3), 40))
    counts = [[0] * n for _ in range(k)]
    for d in deals:
        assert len(d.seatings) == n  # a deal is played once per rotation
        for seats in d.seatings:
            for seat, e in enumerate(seats):
                counts[e][seat] += 1
        # mirrored: within the deal, every entry at the table sits in every seat as often
        table = Counter(d.seatings[0])
        for seat in range(n):
            assert Counter(s[seat] for s in d.seatings) == table
    for row in counts:
        assert len(set(row)) == 1, counts
    assert all(row[0] > 0 for row in counts)


def test_two_seats_meet_every_pair_once_a_round() -> None:
    for k in (2, 3, 6, 7, 11, 12):
        rounds = k - 1 + k % 2
        pairs = Counter(p for r in range(rounds) for p in circle_round(k, r))
        assert set(pairs) == set(itertools.combinations(range(k), 2))
        assert set(pairs.values()) == {1}
        for r in range(rounds):  # every entry at most once in a batch
            seated = [e for p in circle_round(k, r) for e in p]
            assert len(seated) == len(set(seated)) == k - k % 2


@pytest.mark.parametrize(("k", "n"), [(7, 3), (11, 3), (11, 4), (12, 5)])
def test_larger_tables_spread_the_pairs_evenly(k: int, n: int) -> None:
    meets: Counter[tuple[int, int]] = Counter()
    for d in itertools.islice(schedule(k, n, 5), 60):
        meets.update(itertools.combinations(sorted(set(d.seatings[0])), 2))
    assert set(meets) == set(itertools.combinations(range(k), 2))  # every pair met
    assert max(meets.values()) - min(meets.values()) <= 3, meets


def test_a_deal_is_one_seed_played_from_every_seat(toy_registered: str) -> None:
    game = cove.load(toy_registered)
    deals = schedule(3, 2, 1)
    meta: dict[int, Any] = {}
    chunks = list(itertools.islice(
        ladder._deal_chunks(game, 2, ["greedy", "random", "mcts:iterations=5"], 9, SIX,
                            deals, meta), 6))
    assert [c.indices for c in chunks] == [(i,) for i in range(6)]
    for first, second in (chunks[0:2], chunks[2:4], chunks[4:6]):
        assert first.deals == second.deals  # one deal, played twice
        assert second.tables == (first.tables[0][::-1],)  # with the seats swapped
        assert first.cpu and first.maker is ladder.make_entry
    assert len({c.deals for c in chunks}) == 3
    assert [i for i, _ in play_chunk(chunks[0])] == [0]
    # one seed: the same cards, whichever bot sits where
    state = game.new(2, game_seed(9, chunks[0].deals[0]), log=False, **SIX)
    again = game.new(2, game_seed(9, chunks[1].deals[0]), log=False, **SIX)
    assert state.view(None) == again.view(None) and state.view(0) == again.view(0)


def test_runs_count_seats_evenly_and_in_whole_deals(toy_registered: str) -> None:
    r = run(["greedy", "random", "mcts:iterations=5"], games=25)
    assert r["games"] == 24 and r["deals"] == 12  # 25 is not a whole number of deals
    assert r["schedule"]["seat_counts"] == [[8, 8], [8, 8], [8, 8]]
    r = run(["greedy", "random", "mcts:iterations=5", "greedy:mode=self"], games=24,
            players=3)
    counts = r["schedule"]["seat_counts"]
    assert all(len(set(row)) == 1 for row in counts)
    assert sum(map(sum, counts)) == 3 * 24


# -- ratings ---------------------------------------------------------------------------------
def test_the_stronger_bot_is_rated_higher(toy_registered: str) -> None:
    r = run(["random", "greedy"], games=300)
    e = by_spec(r)
    assert e["greedy"]["win_share"] > 0.55
    assert e["greedy"]["rating"] > e["random"]["rating"] + 40
    assert e["greedy"]["ci_low"] > e["random"]["ci_high"]
    h2h = r["head_to_head"][0]
    assert (h2h["a"], h2h["pairs"]) == ("random", 300) and h2h["a_share"] < 0.45


def test_intervals_hold_the_rating_and_shrink_with_games(toy_registered: str) -> None:
    pool = ["random", "greedy", "mcts:iterations=10"]
    small, large = run(pool, games=36), run(pool, games=480)
    for r in (small, large):
        for e in r["entries"]:
            assert e["ci_low"] <= e["rating"] <= e["ci_high"]
    for a, b in zip(small["entries"], large["entries"], strict=True):
        assert b["ci_high"] - b["ci_low"] < a["ci_high"] - a["ci_low"]
        assert b["plus_minus_points"] < a["plus_minus_points"]


def test_the_bootstrap_is_seeded_and_resamples_deals() -> None:
    deals = [[(0, 1, 1.0), (1, 0, 0.0)], [(0, 1, 0.5), (1, 0, 0.5)], [(0, 1, 0.0)],
             [(0, 1, 1.0), (1, 0, 1.0)]] * 5
    a, b = bootstrap(2, deals, 50, 7), bootstrap(2, deals, 50, 7)
    assert (a.low, a.high) == (b.low, b.high)
    assert a.low != bootstrap(2, deals, 50, 8).low
    assert a.low[0] < a.ratings[0] < a.high[0]
    assert bootstrap(2, deals[:1], 20, 1).half_width(0) == 0.0  # one deal: no spread


def test_points_and_elo_convert() -> None:
    assert elo_for(2.0) == pytest.approx(13.9, abs=0.05)
    assert points(elo_for(2.0)) == pytest.approx(2.0)
    assert points(0.0) == 0.0 and points(400.0) == pytest.approx(100 / 1.1 - 50)


# -- the stop rule ---------------------------------------------------------------------------
def test_the_stop_rule_stops_when_precise(toy_registered: str) -> None:
    r = run(["random", "greedy"], games=2000, precision=20.0)
    assert r["stop"]["reason"] == "precision" and not r["notes"]
    assert r["games"] < 2000
    assert r["stop"]["widest_points"] <= 20.0
    assert all(e["games"] >= ladder.MIN_GAMES for e in r["entries"])
    assert all(e["plus_minus_points"] <= 20.0 for e in r["entries"])


def test_a_budget_stops_the_ladder(toy_registered: str) -> None:
    r = run(["random", "greedy"], games=10)
    assert (r["stop"]["reason"], r["games"]) == ("games", 10)
    assert any("understate" in note for note in r["notes"])  # 10 games each: too few
    r = run(["random", "greedy"], games=None, minutes=0.01, precision=0.1)
    assert r["stop"]["reason"] == "minutes"
    assert r["games"] > 0 and r["games"] % 2 == 0  # whole deals only
    with pytest.raises(LadderError, match="before the first deal"):
        run(["random", "greedy"], games=None, minutes=1e-9)


# -- output ----------------------------------------------------------------------------------
def test_the_command_writes_json_and_html(toy_registered: str, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    out, page = tmp_path / "ladder.json", tmp_path / "ladder.html"
    pool = "random,mcts:scale=0.05,mcts:scale=0.1,mcts"
    assert main(["ladder", toy_registered, "--pool", pool, "--games", "40", "-o", "plays=6",
                 "--json", str(out), "--html", str(page), "--bootstrap", "40", "-q",
                 "-j", "1"]) == 0
    text = capsys.readouterr().out
    assert "rating" in text and "95% interval" in text and f"wrote {page}" in text
    r = json.loads(out.read_text())
    assert r["games"] == 40 and len(r["entries"]) == 4
    for e in r["entries"]:
        assert {"spec", "label", "rating", "ci_low", "ci_high", "games", "win_share",
                "cpu_per_move"} <= set(e)
        assert e["games"] == 20 and e["cpu_per_move"]["moves"] > 0
    assert sum(e["wins"] for e in r["entries"]) == pytest.approx(40)
    depth = r["depth"]
    assert depth["default"] == "mcts"
    assert [p["budget_text"] for p in depth["points"]] == ["1/20", "1/10", "1"]
    met = {(h["a"], h["b"]): h["pairs"] for h in r["head_to_head"]}
    for p in depth["points"][:2]:
        assert p["pairs"] == met[(p["spec"], "mcts")] > 0
        assert p["ci_low"] <= p["share"] <= p["ci_high"]
        assert p["expected_low"] <= p["expected"] <= p["expected_high"]
    assert depth["points"][2]["expected"] == 0.5
    # the slope: the least-squares line through the expected shares, per doubling
    xs = [math.log2(p["budget"]) for p in depth["points"]]
    ys = [p["expected"] for p in depth["points"]]
    mx, my = sum(xs) / 3, sum(ys) / 3
    line = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs)
    assert depth["slope"] == pytest.approx(line)
    assert depth["slope_low"] <= depth["slope"] <= depth["slope_high"]
    assert "slope:" in text and "of win share per doubling" in text
    assert r["command"].startswith("cove ladder toy --players 2 --seed 1")
    assert r["command"].endswith("--games 40")
    html = page.read_text()
    assert 'name=viewport content="width=device-width' in html
    assert "<script" not in html and "http://" not in html and "https://" not in html
    assert html.count("<svg") == 2 and '<div class="scroll"><table' in html
    for e in r["entries"]:
        assert e["label"] in html
    assert "Skill depth" in html and r["command"] in html


def test_json_to_stdout(toy_registered: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ladder", toy_registered, "--pool", "random,greedy", "-n", "6", "--json",
                 "-j", "1"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["games"] == 6 and r["stop"]["reason"] == "games"


def test_a_timed_default_pool_names_the_pool_it_kept(
        toy_registered: str, capsys: pytest.CaptureFixture[str]) -> None:
    """With a time budget the default pool is fitted to it, so the command that plays the
    same games again names the pool kept (``--games`` alone would seat the full pool)."""
    assert main(["ladder", toy_registered, "-o", "plays=6", "--minutes", "0.05", "--json",
                 "-j", "1"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["fitted"] is True
    kept = ",".join(e["spec"] for e in r["entries"])
    assert r["command"].endswith(f"--pool {kept} --games {r['games']}")


def test_help_states_the_default_size(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["ladder", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert f"{LADDER_MINUTES:g} minutes" in text and "1/8,1/4,1/2,1,2,4,8" in text
    assert LADDER_MINUTES == ladder.DEFAULT_MINUTES


# -- the pool --------------------------------------------------------------------------------
def test_the_default_pool(toy_registered: str) -> None:
    toy = {e.spec: e for e in default_pool(cove.load(toy_registered))}
    assert list(toy)[:9] == ["random", "greedy", "mcts:scale=0.125", "mcts:scale=0.25",
                             "mcts:scale=0.5", "mcts", "mcts:scale=2", "mcts:scale=4",
                             "mcts:scale=8"]
    assert [e.budget for e in toy.values() if e.budget] == [Fraction(2) ** k
                                                           for k in range(-3, 4)]
    # the levels are the same bots as entries: named, not played twice
    assert toy["greedy"].aliases == ("easy",) and toy["mcts"].aliases == ("medium",)
    assert toy["mcts:scale=4"].aliases == ("hard",) and "hard" not in toy
    # a game with its own hard plays it as an entry of its own
    own = next(g for g in cove.all_games() if "hard" in declared(g))
    assert "hard" in [e.spec for e in default_pool(own)]
    smaller = default_pool(cove.load(toy_registered), ladder.parse_budgets("1/2,2"))
    assert [e.spec for e in smaller if e.budget] == ["mcts:scale=0.5", "mcts",
                                                     "mcts:scale=2"]
    assert "hard" in [e.spec for e in smaller]  # no x4 to be its alias


def test_ismcts_takes_a_seat(toy_registered: str) -> None:
    pytest.importorskip("pyspiel")
    assert ladder.ISMCTS_SPEC in [e.spec for e in default_pool(cove.load(toy_registered))]
    pool = ["ismcts:simulations=4", "random"]
    a, b = run(pool, games=4), run(pool, games=4)
    assert [e["rating"] for e in a["entries"]] == [e["rating"] for e in b["entries"]]
    e = by_spec(a)["ismcts:simulations=4"]
    assert e["games"] == 4 and e["cpu_per_move"]["moves"] > 0
    assert e["iterations_per_cpu_second"] > 0


def test_worker_processes_play_the_same_ladder(toy_registered: str) -> None:
    pool = ["random", "greedy", "mcts:iterations=5"]
    serial, spread = run(pool, games=12), run(pool, games=12, jobs=2)
    assert [e["rating"] for e in serial["entries"]] == [e["rating"] for e in spread["entries"]]
    assert serial["head_to_head"] == spread["head_to_head"]


# -- bad input -------------------------------------------------------------------------------
@pytest.mark.parametrize(("argv", "says"), [
    (["--pool", "random,rando"], "unknown bot 'rando'"),
    (["--pool", "random,rando"], "ismcts"),
    (["--pool", "random"], "at least 2 bot specs"),
    (["--pool", "random,greedy,random"], "names 'random' twice"),
    (["--pool", "random,mcts:scale=0"], "scale"),
    (["--budgets", "1/8,0"], "'0' is not a budget"),
    (["--budgets", "x"], "e.g. 1/8,1/4,1/2,1,2,4,8"),
    (["--budgets", "2", "--pool", "random,greedy"], "with --pool"),
    (["--games", "1"], "at least 2"),
    (["--minutes", "0"], "--minutes must be above 0"),
    (["--precision", "60"], "--precision"),
    (["--players", "9"], "--players"),
])
def test_bad_input_is_one_line_naming_what_is_valid(
        toy_registered: str, capsys: pytest.CaptureFixture[str], argv: list[str],
        says: str) -> None:
    assert main(["ladder", toy_registered, "-q", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cove: error: ") and err.count("\n") == 1
    assert says in err


def test_an_unknown_game_names_the_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ladder", "no-such-game"]) == 2
    err = capsys.readouterr().err
    assert "unknown game 'no-such-game'" in err and f"games: {cove.ids()[0]}" in err


def test_bad_input_from_python(toy_registered: str) -> None:
    with pytest.raises(LadderError, match="at least 2"):
        run_ladder(toy_registered, 2, ["greedy", "random"], games=1)
    with pytest.raises(cove.CoveError):
        run_ladder(toy_registered, 2, ["greedy", "random"], games=4, options={"plays": 99})
    assert math.isclose(points(elo_for(5.0)), 5.0)


def test_depth_slope_is_the_rise_per_doubling() -> None:
    from cove.lab.ladder import depth_slope

    assert depth_slope([-1.0, 0.0, 1.0], [0.4, 0.5, 0.6]) == pytest.approx(0.1)
    assert depth_slope([-3.0, 0.0, 3.0], [0.5, 0.5, 0.5]) == 0.0


def test_the_default_pool_fits_its_time_budget() -> None:
    """The costliest entries give way until a dozen batches fit: ISMCTS halves its
    simulations, the mcts budgets above the default leave, never an entry a level is
    named after; each change is a note."""
    from fractions import Fraction as F

    from cove.lab.ladder import Entry, fit_pool, simulations

    entries = [Entry("random", "random"), Entry("greedy", "greedy"),
               Entry("mcts:scale=0.5", "mcts x1/2", F(1, 2)),
               Entry("mcts", "mcts", F(1), ("medium",)),
               Entry("mcts:scale=2", "mcts x2", F(2)),
               Entry("mcts:scale=4", "mcts x4", F(4), ("hard",)),
               Entry("mcts:scale=8", "mcts x8", F(8)),
               Entry("ismcts:simulations=50", "ismcts")]
    cost = {"random": 0.0, "greedy": 0.1, "mcts:scale=0.5": 1.0, "mcts": 2.0,
            "mcts:scale=2": 4.0, "mcts:scale=4": 8.0, "mcts:scale=8": 16.0,
            "ismcts:simulations=50": 20.0}
    assert fit_pool(entries, cost, 2, 1e9, []) == entries  # room for all: unchanged
    notes: list[str] = []
    # 12 batches of 2 games each entry must fit 600 CPU s: 25 s of moves in all a game
    kept = fit_pool(entries, cost, 2, 600.0, notes)
    assert [e.spec for e in kept] == ["random", "greedy", "mcts:scale=0.5", "mcts",
                                      "mcts:scale=2", "mcts:scale=4",
                                      "ismcts:simulations=12"]
    assert len(notes) == 3 and "mcts x8 is left out" in notes[1]
    assert "ismcts plays 25 simulations a move instead of 50" in notes[0]
    assert simulations("ismcts:simulations=12") == 12 and simulations("mcts") == 0
    tight: list[str] = []
    least = fit_pool(entries, cost, 2, 1.0, tight)  # no room: the fixed entries stay,
    # and the budgets below the default, which cost less than it
    assert [e.spec for e in least] == ["random", "greedy", "mcts:scale=0.5", "mcts",
                                       "mcts:scale=4", "ismcts:simulations=10"]
    assert "it plays what its time allows" in tight[-1]
