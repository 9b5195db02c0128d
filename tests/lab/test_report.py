"""``cove report``: one self-contained HTML file with the figures and plots (issue 16)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cove.cli import main


def test_report_is_one_self_contained_file(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "tide.html"
    rc = main(["report", "the-tide", "-p", "3", "-n", "20", "--seed", "1", "--html", str(path)])
    assert rc == 0 and f"wrote {path}" in capsys.readouterr().out
    page = path.read_text(encoding="utf-8")
    assert page.startswith("<!doctype html>") and page.rstrip().endswith("</html>")
    # nothing fetched from anywhere: no scripts, no external links or images
    assert "<script" not in page and not re.search(r"(src|href)=\"?https?:", page)
    assert page.count("<svg") >= 4  # wins per seat, length, margin, how games ended, kinds
    assert "Wins per seat" in page and "How games ended" in page
    assert "this measures the safety cut-off, not the game" in page  # random Tide stalls
    assert '&quot;game&quot;: &quot;the-tide&quot;' in page  # the manifest, escaped


def test_report_puts_variants_side_by_side_with_paired_differences(tmp_path: Path) -> None:
    path = tmp_path / "r.html"
    rc = main(["report", "tricky-tides", "-p", "3", "-n", "8", "-V", "", "-V", "events=true",
               "--html", str(path)])
    page = path.read_text(encoding="utf-8")
    assert rc == 0 and page.count("<section>") == 2
    assert "(defaults)" in page and "events=true" in page
    assert "Against the first variant, game by game" in page


def test_report_refuses_a_path_it_cannot_write(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["report", "the-tide", "-n", "2", "--html", str(tmp_path / "no" / "r.html")])
    assert rc == 2 and "not a file in an existing folder" in capsys.readouterr().err


def test_report_takes_its_file_from_o_as_the_issue_writes_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "report.html"
    rc = main(["report", "tricky-tides", "-p", "3", "-n", "4", "-o", "events=true",
               "-o", str(path), "--quiet"])
    assert rc == 0 and f"wrote {path}" in capsys.readouterr().out
    assert "events=true" in path.read_text(encoding="utf-8")  # the option still applies
    rc = main(["report", "the-tide", "-n", "2", "-o", str(path), "--html", str(path)])
    assert rc == 2 and "name the report once" in capsys.readouterr().err
