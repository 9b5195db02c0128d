"""Comparing rule variants on the same seeded games."""

from __future__ import annotations

import json

import pytest

from cove.cli import main
from cove.lab.compare import compare, format_compare


def test_identical_variants_give_identical_results(toy_registered: str) -> None:
    out = compare("toy", 2, 30, [{}, {"plays": "12"}], seed=4)
    a, b = out["variants"]
    assert a["wins"] == b["wins"] and a["mean_scores"] == b["mean_scores"]
    assert a["variant"] == "(defaults)" and b["variant"] == "plays=12"


def test_a_rule_change_shows_in_the_table(toy_registered: str) -> None:
    out = compare("toy", 2, 30, [{"plays": "2"}, {"plays": "12"}], seed=4)
    short, long = out["variants"]
    assert short["mean_decisions"] < long["mean_decisions"]
    assert short["stats"]["top"]["mean"] < long["stats"]["top"]["mean"]
    table = format_compare(out)
    assert "plays=2" in table and "plays=12" in table and "P2 win %" in table


def test_cli_compare_json_and_errors(capsys: pytest.CaptureFixture[str],
                                     toy_registered: str) -> None:
    rc = main(["compare", "toy", "-n", "5", "-V", "", "-V", "bidding=false", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and [v["variant"] for v in out["variants"]] == ["(defaults)",
                                                                     "bidding=false"]
    rc = main(["compare", "toy", "-V", "bidding=false"])
    assert rc == 2 and "at least two --variant" in capsys.readouterr().err
    rc = main(["compare", "toy", "-V", "", "-V", "bidding=perhaps"])
    assert rc == 2 and "bidding='perhaps' is not valid" in capsys.readouterr().err


def test_paired_differences_with_a_verdict(toy_registered: str) -> None:
    out = compare("toy", 2, 40, [{"plays": "2"}, {"plays": "12"}, {"plays": "2"}], seed=4)
    longer = {d["metric"]: d for d in out["variants"][1]["paired"]}
    assert longer["decisions"]["verdict"] == "higher"
    assert longer["decisions"]["ci"][0] > 0
    same = {d["metric"]: d for d in out["variants"][2]["paired"]}
    # the same rules on the same seeds: every difference is exactly zero
    assert all(d["difference"] == 0 and d["verdict"] == "no clear difference"
               for d in same.values())
    assert "game by game" in format_compare(out)
