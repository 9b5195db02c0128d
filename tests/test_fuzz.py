"""A short deterministic slice of benchmarks/fuzz.py: bad inputs to apply(), mutated
records and mutated data files must raise only Cove errors and leave states unchanged."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

import cove


def _load_fuzz() -> ModuleType:
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "fuzz.py"
    spec = importlib.util.spec_from_file_location("cove_fuzz", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["cove_fuzz"] = module
    spec.loader.exec_module(module)
    return module


fuzz = _load_fuzz()


def slice_of(kinds: tuple[str, ...], records: bool = False, data_files: bool = False,
             game_ids: list[str] | None = None, seed: int = 7) -> str:
    """The findings of a small fixed run (empty when clean), as the fuzzer prints them."""
    report = fuzz.run(seconds=1e9, seed=seed, games=len(game_ids or cove.ids()),
                      game_ids=game_ids, kinds=kinds, records=records,
                      data_files=data_files, out=None, max_moves=40, poke_rate=0.25,
                      record_mutations=8)
    assert report.games >= 1
    return "" if not report.findings else report.summary()


@pytest.mark.parametrize("game_id", cove.ids())
def test_text_stale_and_other_players_moves_are_refused(game_id: str) -> None:
    assert slice_of(("text", "stale", "other-player"), game_ids=[game_id]) == ""


@pytest.mark.parametrize("game_id", cove.ids())
def test_other_types_and_tuples_are_refused(game_id: str) -> None:
    assert slice_of(("type", "tuple"), game_ids=[game_id]) == ""


@pytest.mark.parametrize("game_id", cove.ids())
def test_bad_seats_are_refused(game_id: str) -> None:
    assert slice_of(("seat",), game_ids=[game_id]) == ""


def test_huge_text_is_refused_with_a_short_message(toy_registered: str) -> None:
    assert slice_of(("huge-text",), game_ids=[toy_registered]) == ""


def test_mutated_records_raise_only_record_errors() -> None:
    assert slice_of((), records=True) == ""


def test_mutated_data_files_raise_only_data_or_option_errors(data_game: cove.Game) -> None:
    assert slice_of((), data_files=True, game_ids=[data_game.id] * 4) == ""


def test_the_fuzzer_reports_a_finding_with_a_reproducer(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path,
                                                        toy_registered: str) -> None:
    def broken(*args: object, **kwargs: object) -> object:
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(cove, "replay", broken)
    report = fuzz.run(seconds=1e9, seed=1, games=1, game_ids=[toy_registered], kinds=(),
                      records=True, data_files=False, out=tmp_path, record_mutations=2)
    text = report.summary()
    assert f"[record] {toy_registered}" in text and "ZeroDivisionError: boom" in text
    assert "reproduce: s = cove.replay(json.load(open(" in text
    assert list(tmp_path.glob("finding-*.json"))
    assert fuzz.main(["--seconds", "0", "--games", "1", "--game", toy_registered]) in (0, 1)
