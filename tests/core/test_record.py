"""Records: replay reproduces a game; malformed records get clear errors."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

import cove
from cove.core.actions import match_text
from cove.core.data import builtin_data_file, data_digests
from cove.core.errors import RecordError
from cove.core.record import load_record
from cove.core.rng import Rng
from cove.lab.runner import RandomChooser, advance, play_out


def finished_record(seed: int) -> dict[str, Any]:
    return play_out(cove.load("toy").new(3, seed=seed), RandomChooser(Rng(seed))).record()


def test_replay_reproduces_the_game(toy_registered: str) -> None:
    rec = finished_record(4)
    again = cove.replay(rec)
    assert again.record() == rec and again.is_over


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.pop("seed"), "record is missing seed"),
        (lambda r: r.update(game="chess"), "unknown game 'chess'"),
        (lambda r: r.update(version="0"), "version '0'"),
        (lambda r: r.update(players=7), "2 to 4 players, not 7"),
        (lambda r: r.update(options={"speed": 2}), "unknown option 'speed'"),
        (lambda r: r.update(actions="all"), "must be a list"),
        (lambda r: r["actions"].__setitem__(0, [0]), "must be [player, text]"),
        (lambda r: r["actions"].__setitem__(1, [5, "bid 0"]), "no player 5"),
    ],
)
def test_malformed_record_is_rejected(toy_registered: str, change: Any, message: str) -> None:
    rec = finished_record(2)
    change(rec)
    with pytest.raises(cove.RecordError, match=message.replace("[", r"\[").replace("(", r"\(")):
        cove.replay(rec)


def test_record_options_cannot_be_new_keywords(toy_registered: str) -> None:
    for name in ("log", "seed", "players"):
        rec = finished_record(2)
        rec["options"][name] = False
        with pytest.raises(cove.RecordError, match=f"unknown option '{name}'"):
            cove.replay(rec)


def test_echoed_record_values_are_capped(toy_registered: str) -> None:
    rec = finished_record(2)
    rec["actions"][0] = [0, "x" * 1_000_000]
    with pytest.raises(cove.RecordError) as e:
        cove.replay(rec)
    assert len(str(e.value)) < 2000


# -- data files: a record carries their hashes and replay refuses an edited file ------------
def builtin_file(game: cove.Game) -> Path:
    """The built-in data file of ``game`` (one that takes a ``data_file`` option)."""
    path = builtin_data_file(game.options(game.min_players))
    assert path is not None
    return path


def data_record(game: cove.Game, data_file: str) -> dict[str, Any]:
    s = game.new(game.min_players, seed=3, data_file=data_file)
    advance(s, RandomChooser(Rng(3)), moves=30)
    rec = s.record()
    rec["data"] = data_digests(s.options)  # what State.record() includes
    return rec


def test_replay_refuses_an_edited_data_file(tmp_path: Path, data_game: cove.Game,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COVE_DATA_DIR", str(tmp_path))
    path = tmp_path / ("data" + builtin_file(data_game).suffix)
    path.write_bytes(builtin_file(data_game).read_bytes())
    rec = data_record(data_game, str(path))
    assert rec["data"]["data_file"].startswith("sha256:")
    assert cove.replay(rec).record()["actions"] == rec["actions"]
    path.write_bytes(builtin_file(data_game).read_bytes() + b"\n# a designer's edit\n")
    with pytest.raises(cove.RecordError, match=f"different data_file '{path}'"):
        cove.replay(rec)
    old = dict(rec)
    del old["data"]  # a record made before data hashes: accepted
    cove.replay(old)


def test_replay_checks_the_builtin_data_file_too(data_game: cove.Game) -> None:
    rec = data_record(data_game, "")
    cove.replay(rec)
    rec["data"]["data_file"] = "sha256:" + "0" * 64
    with pytest.raises(cove.RecordError, match="different data_file 'the built-in data file'"):
        cove.replay(rec)


@pytest.mark.parametrize("data", [["sha256:0"], {"data_file": 5}, "x"])
def test_malformed_data_key_is_refused(data: Any, data_game: cove.Game) -> None:
    rec = data_record(data_game, "")
    rec["data"] = data
    with pytest.raises(cove.RecordError, match="record 'data' must be an object"):
        cove.replay(rec)


def test_data_key_for_an_option_the_game_lacks_is_refused(toy_registered: str) -> None:
    rec = finished_record(2)
    rec["data"] = {"map_file": "sha256:" + "0" * 64}
    with pytest.raises(cove.RecordError, match="no such data file"):
        cove.replay(rec)


# -- record files ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"a": 1}'.encode("utf-16"), "is UTF-16"),
        ('{"game": "caf\u00e9"}'.encode("latin-1"), "not UTF-8 text"),
        (bytes(range(256)), "is binary"),
        (b"[" * 200_000, "nested too deeply"),
        (b'{"seed": ' + b"9" * 5000 + b"}", "too large"),
        (b'{"seed": Infinity}', "Infinity is not allowed"),
        (b'{"seed": 1e999}', "not finite"),
        (b"[1]", "must be a JSON object"),
    ],
)
def test_bad_record_files_give_one_line(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(content)
    with pytest.raises(cove.RecordError, match=message) as e:
        load_record(path)
    assert "\n" not in str(e.value)


def test_a_record_with_a_bom_loads(tmp_path: Path, toy_registered: str) -> None:
    rec = finished_record(2)
    path = tmp_path / "r.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(rec).encode())
    assert load_record(path) == rec


def test_devices_and_pipes_are_not_records(tmp_path: Path) -> None:
    with pytest.raises(cove.RecordError, match="must be a regular file"):
        load_record("/dev/zero")
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "pipe")
        with pytest.raises(cove.RecordError, match="must be a regular file"):
            load_record(tmp_path / "pipe")


@pytest.mark.parametrize("value", [float("inf"), float("nan"), 10**30])
def test_non_finite_or_huge_numbers_are_refused(toy_registered: str, value: Any) -> None:
    rec = finished_record(2)
    rec["options"]["plays"] = value  # int(inf) used to raise OverflowError
    with pytest.raises(cove.RecordError, match="record is malformed"):
        cove.replay(rec)


def test_a_record_replays_exact_texts_only(toy_registered: str) -> None:
    """A player may type a short form; the record stores the full text, and a record
    holding a short form is refused, so a record never depends on what else was legal."""
    game = cove.load(toy_registered)
    for seed in range(20):
        s = game.new(2, seed=seed, bidding=False)
        p = s.to_move()[0]
        legal = s.legal_actions(p)
        short = {str(a)[:-1]: a for a in legal
                 if match_text(legal, str(a)[:-1]) == (a, [])}
        if short:
            break
    text, action = next(iter(short.items()))
    s.apply(p, text)  # accepted at the table
    rec = s.record()
    assert rec["actions"] == [[p, str(action)]]
    assert cove.replay(rec).fingerprint() == s.fingerprint()
    rec["actions"][0][1] = str(action).upper()  # case and spacing are not part of a move
    assert cove.replay(rec).fingerprint() == s.fingerprint()
    rec["actions"][0][1] = text
    with pytest.raises(RecordError, match="not the exact text of a legal move"):
        cove.replay(rec)
