"""``cove report``: one self-contained HTML file with the figures and plots."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cove.cli import main


def test_report_is_one_self_contained_file(tmp_path: Path, toy_with_safety_end: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "toy.html"
    rc = main(["report", toy_with_safety_end, "-p", "3", "-n", "20", "--seed", "1", "--html",
               str(path)])
    assert rc == 0 and f"wrote {path}" in capsys.readouterr().out
    page = path.read_text(encoding="utf-8")
    assert page.startswith("<!doctype html>") and page.rstrip().endswith("</html>")
    # nothing fetched from anywhere: no scripts, no external links or images
    assert "<script" not in page and not re.search(r"(src|href)=\"?https?:", page)
    assert page.count("<svg") >= 4  # wins per seat, length, margin, how games ended, kinds
    assert "Wins per seat" in page and "How games ended" in page
    assert "this measures the safety cut-off, not the game" in page  # most end "low"
    assert f'&quot;game&quot;: &quot;{toy_with_safety_end}&quot;' in page  # the manifest


def test_report_puts_variants_side_by_side_with_paired_differences(
        tmp_path: Path, toy_registered: str) -> None:
    path = tmp_path / "r.html"
    rc = main(["report", toy_registered, "-p", "3", "-n", "8", "-V", "", "-V", "plays=3",
               "--html", str(path)])
    page = path.read_text(encoding="utf-8")
    assert rc == 0 and page.count("<section>") == 2
    assert "(defaults)" in page and "plays=3" in page
    assert "Against the first variant, game by game" in page


def test_report_refuses_a_path_it_cannot_write(tmp_path: Path, toy_registered: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["report", toy_registered, "-n", "2", "--html", str(tmp_path / "no" / "r.html")])
    assert rc == 2 and "not a file in an existing folder" in capsys.readouterr().err


def test_report_takes_its_file_from_o_as_the_issue_writes_it(
        tmp_path: Path, toy_registered: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "report.html"
    rc = main(["report", toy_registered, "-p", "3", "-n", "4", "-o", "plays=3",
               "-o", str(path), "--quiet"])
    assert rc == 0 and f"wrote {path}" in capsys.readouterr().out
    assert "plays=3" in path.read_text(encoding="utf-8")  # the option still applies
    rc = main(["report", toy_registered, "-n", "2", "-o", str(path), "--html", str(path)])
    assert rc == 2 and "name the report once" in capsys.readouterr().err


def test_report_reads_on_a_phone_with_round_numbers(tmp_path: Path, toy_registered: str) -> None:
    """A viewport so a phone lays it out at its own width, tables that scroll sideways in
    their own box, wins as counts (one decimal where ties were split) and round axis
    ticks, and the game's name in the title."""
    from cove import load
    from cove.lab.report import count, nice_top

    path = tmp_path / "r.html"
    assert main(["report", toy_registered, "-p", "3", "-n", "7", "--seed", "2",
                 "--html", str(path)]) == 0
    page = path.read_text(encoding="utf-8")
    assert '<meta name=viewport content="width=device-width, initial-scale=1">' in page
    assert page.count("<table>") == page.count('<div class="scroll"><table>') >= 2
    assert ".scroll{overflow-x:auto" in page and "svg{max-width:100%" in page
    assert f"<title>{load(toy_registered).name}: 3 players" in page
    wins = re.findall(r"<tr><td>P\d</td><td>[^<]*</td><td>([^<]*)</td>", page)
    assert len(wins) == 3 and all(re.fullmatch(r"\d+(\.\d)?", w) for w in wins), wins
    ticks = re.findall(r'text-anchor="end" font-size="10" fill="#8d99ae">([^<]*)<', page)
    assert ticks and all(re.fullmatch(r"\d+(\.\d+)?%?", t) for t in ticks), ticks
    assert [count(x) for x in (182.0, 182.333, 0.5)] == ["182", "182.3", "0.5"]
    assert [nice_top(x) for x in (63, 0.63, 182.333, 17)] == [80, 0.8, 200, 20]


def _stands_out(page: str) -> list[str]:
    box = re.search(r'<div class="out"><h2>What stands out</h2>(.*?)</div>', page)
    assert box, "the list is on the page"
    return re.findall(r"<li>(.*?)</li>", box.group(1))


def _report(tmp_path: Path, *argv: str) -> str:
    path = tmp_path / "r.html"
    assert main(["report", *argv, "--quiet", "--html", str(path)]) == 0
    return path.read_text(encoding="utf-8")


def test_what_stands_out_names_each_planted_condition_and_nothing_else(
        tmp_path: Path, pick: str) -> None:
    """Pick (tests/lab/pick) with nothing planted, then with each condition planted:
    a seat that starts ahead, an item worth more, every game at the safety cut-off, and
    a weaker bot that wins as often as the stronger one (every item worth the same)."""
    fair = _report(tmp_path, pick, "-p", "3", "-n", "150", "--luck-games", "0",
                   "-o", "rounds=2")
    assert _stands_out(fair) == []
    assert "Nothing stands out." in fair
    seat = _stands_out(_report(tmp_path, pick, "-p", "3", "-n", "60", "--luck-games", "0",
                               "-o", "start=1", "-o", "rounds=2"))
    assert len(seat) == 3 and seat[0].startswith("P1 wins 100% [")
    assert "above a fair 33%" in seat[0] and "below a fair 33%" in seat[1]
    item = _stands_out(_report(tmp_path, pick, "-p", "2", "-n", "200", "--luck-games", "0",
                               "-o", "rounds=1", "-o", "values=3,1,1"))
    assert item and item[0].startswith("amber: its takers won")
    assert all(line.split(":")[0] in ("amber", "basil", "coral") for line in item)
    safety = _stands_out(_report(tmp_path, pick, "-p", "3", "-n", "30", "--luck-games", "0",
                                 "-o", "cap=true"))
    assert safety == ["safety ends stopped 100% [89%, 100%] of games (over 5.0%)"]
    luck = _stands_out(_report(tmp_path, pick, "-p", "2", "-n", "30", "--luck-games", "30",
                               "-o", "rounds=1"))
    assert luck == ["the weaker bot (random) won 50% [33%, 67%] against greedy: skill may "
                    "matter little"]


def test_a_dominant_option_from_the_scan_stands_out(tmp_path: Path, pick: str) -> None:
    """Amber is worth 3 and a random player takes it a third of the time: always taking
    it wins more, which the scan reports and the list repeats."""
    page = _report(tmp_path, pick, "-p", "2", "-n", "20", "--luck-games", "0",
                   "--scan-games", "60", "-o", "rounds=2", "-o", "values=3,1,1")
    lines = _stands_out(page)
    assert any(line.startswith("suspected dominant option: always take amber (+")
               for line in lines), lines
    flat = _report(tmp_path, pick, "-p", "2", "-n", "20", "--luck-games", "0",
                   "--scan-games", "60", "-o", "rounds=2")
    assert not [line for line in _stands_out(flat) if "dominant" in line]


def test_the_balance_measures_show_per_variant_with_intervals(tmp_path: Path, pick: str,
                                                              toy_registered: str) -> None:
    page = _report(tmp_path, pick, "-p", "3", "-n", "20", "--luck-games", "12",
                   "-V", "rounds=2", "-V", "rounds=2 gift=2", "--evaluator",
                   "mcts:iterations=4")
    assert page.count("<section>") == 2 and page.count("Balance measures") == 2
    assert page.count("Evaluator: mcts:iterations=4") == 2
    for name in ("balance", "completion", "drawishness", "outcome uniformity",
                 "safety ends (timeouts)", "decisions per game", "rounds per game",
                 "decision moves", "branching factor", "decision factor", "lead change",
                 "stability (variance)", "decisiveness", "uncertainty", "drama",
                 "clarity (narrowness)", "kingmaking", "hidden share of the state",
                 "time in the rules"):
        assert page.count(f"<tr><td>{name}</td>") == 2, name
    # every figure with its interval, rounded for people: no long decimals anywhere
    cells = re.findall(r"<tr><td>branching factor</td><td>([^<]*)</td><td>([^<]*)</td>",
                       page)
    assert cells[0] == ("3", "3 to 3 B") and cells[1][0] == "2.86"  # 20 / 7
    rows = re.findall(r"<tr><td>[a-z ()]+</td><td>([^<]*)</td><td>([^<]*) [WB]</td></tr>",
                      page)
    assert len(rows) >= 40
    for value, interval in rows:  # three significant figures at most
        for x in [value, *interval.split(" to ")]:
            assert re.fullmatch(r"-|-?(\d{1,3}|\d+(\.\d)?|0\.0*\d{1,3}|\d\.\d{1,2})%?", x), x
    assert "Luck and skill: the weaker bot (random) won" in page
    assert page.count("<table>") == page.count('<div class="scroll"><table>')
    assert main(["report", toy_registered, "-n", "2", "--evaluator", "greedy"]) == 2


def test_report_shows_the_skill_depth_slope_of_a_ladder(
        tmp_path: Path, toy_registered: str, capsys: pytest.CaptureFixture[str]) -> None:
    ladder_file = tmp_path / "ladder.json"
    assert main(["ladder", "toy", "--pool", "random,mcts:scale=0.25,mcts", "--games", "12",
                 "-o", "plays=6", "-j", "1", "-q", "--json", str(ladder_file)]) == 0
    depth = json.loads(ladder_file.read_text())["depth"]
    page = tmp_path / "r.html"
    assert main(["report", "toy", "-n", "4", "--luck-games", "0", "--ladder",
                 str(ladder_file), "-q", "-o", str(page)]) == 0
    text = page.read_text()
    assert "Skill depth (from <code>cove ladder</code>, ladder.json)" in text
    assert f"{100 * depth['slope']:+.1f} points" in text
    capsys.readouterr()
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"game": "another-game", "depth": {"slope": 0.1}}))
    assert main(["report", "toy", "-n", "2", "--ladder", str(other), "-o",
                 str(tmp_path / "x.html")]) == 2
    assert "a ladder of 'another-game', not toy" in capsys.readouterr().err
    assert main(["report", "toy", "-n", "2", "--ladder", str(tmp_path / "none.json"), "-o",
                 str(tmp_path / "x.html")]) == 2
    assert "not a readable JSON file" in capsys.readouterr().err
