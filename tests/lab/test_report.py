"""``cove report``: one self-contained HTML file with the figures and plots."""

from __future__ import annotations

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
