"""Data files: read only from allowed places, regular and small, UTF-8, sane values; errors
name the problem in one line and never quote the file; content hashes for records."""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path

import pytest

import cove
from cove.core.data import (
    BUILTIN_DIR,
    EXAMPLE_DIR,
    MAX_BYTES,
    DataChecker,
    builtin_data_file,
    data_digests,
    entry,
    load_data,
    schema,
)
from cove.example_game import GAME as TOY

TOY_TOML = EXAMPLE_DIR / "example_game.toml"


@pytest.fixture
def allowed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("COVE_DATA_DIR", str(tmp_path))
    return tmp_path


def test_builtin_files_load_without_any_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COVE_DATA_DIR", raising=False)
    assert "cards" in load_data(TOY_TOML)


def test_a_file_outside_the_allowed_places_is_refused(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COVE_DATA_DIR", raising=False)
    path = tmp_path / "hw.toml"
    path.write_text("secret = 'hunter2'\n")
    with pytest.raises(cove.DataError, match="read only from the built-in rulesets") as e:
        load_data(path)
    assert "hunter2" not in str(e.value)
    with pytest.raises(cove.DataError, match="read only from"):
        load_data("/etc/passwd")
    # a symlink inside an allowed place that points outside it is refused too
    monkeypatch.setenv("COVE_DATA_DIR", str(tmp_path / "inside"))
    (tmp_path / "inside").mkdir()
    (tmp_path / "inside" / "link.toml").symlink_to(path)
    with pytest.raises(cove.DataError, match="read only from"):
        load_data(tmp_path / "inside" / "link.toml")


def test_a_data_dir_allows_its_files(allowed: Path) -> None:
    path = allowed / "sub" / "x.toml"
    path.parent.mkdir()
    path.write_text("a = 1\n")
    assert load_data(path) == {"a": 1}


def test_devices_are_refused_without_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COVE_DATA_DIR", "/dev")
    with pytest.raises(cove.DataError, match="must be a regular file"):
        load_data("/dev/zero")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_is_refused_without_hanging(allowed: Path) -> None:
    fifo = allowed / "pipe.toml"
    os.mkfifo(fifo)
    result: list[BaseException | None] = []

    def attempt() -> None:
        try:
            load_data(fifo)
            result.append(None)
        except BaseException as e:
            result.append(e)

    t = threading.Thread(target=attempt, daemon=True)
    t.start()
    t.join(5)
    if t.is_alive():  # unblock the reader so the test process can exit
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
        pytest.fail("load_data blocked on a FIFO")
    assert isinstance(result[0], cove.DataError)
    assert "must be a regular file" in str(result[0])


def test_an_oversized_file_is_refused(allowed: Path) -> None:
    path = allowed / "big.toml"
    path.write_bytes(b"# " + b"x" * MAX_BYTES + b"\n")
    with pytest.raises(cove.DataError, match="the limit is"):
        load_data(path)


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("u16.toml", "a = 1\n".encode("utf-16"), "is UTF-16; save it as UTF-8"),
        ("latin.toml", "a = 'caf\u00e9'\n".encode("latin-1"), "is not UTF-8 text"),
        ("bin.json", b"\x00\x01\x02{}", "is binary"),
        ("deep.json", b"[" * 200_000, "nested too deeply"),
        ("deep.toml", b"a = " + b"[" * 200_000, "nested too deeply"),
        ("deep2.json", b"{\"a\": " + b"[" * 150 + b"]" * 150 + b"}", "nested more than 100"),
        ("bigint.json", b"{\"a\": " + b"7" * 5000 + b"}", "too large"),
        ("bigint.toml", b"a = " + b"7" * 5000, "not valid TOML"),
        ("int65.toml", b"a = 99999999999999999999", "too large"),
        ("inf.json", b"{\"a\": Infinity}", "Infinity is not allowed"),
        ("nan.json", b"{\"a\": NaN}", "NaN is not allowed"),
        ("inf.toml", b"a = inf", "not allowed"),
        ("nan.toml", b"a = -nan", "not allowed"),
        ("list.json", b"[1, 2]", "top level must be a table"),
        ("syntax.toml", b"a = = 'hunter2'", "not valid TOML"),
    ],
)
def test_malformed_files_give_one_line_without_the_contents(
    allowed: Path, name: str, content: bytes, message: str
) -> None:
    path = allowed / name
    path.write_bytes(content)
    with pytest.raises(cove.DataError, match=message) as e:
        load_data(path)
    text = str(e.value)
    assert "\n" not in text and len(text) < 400 and "hunter2" not in text
    assert str(path) in text


def test_a_utf8_bom_is_accepted(allowed: Path) -> None:
    path = allowed / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbfa = 1\n")
    assert load_data(path) == {"a": 1}


def test_checker_errors_do_not_quote_values(tmp_path: Path) -> None:
    ck = DataChecker(tmp_path / "x.toml")
    with pytest.raises(cove.DataError) as e:
        ck.field({"counts": "hunter2" * 100}, "counts", dict, "[counts]")
    assert "hunter2" not in str(e.value) and "must be dict, got text" in str(e.value)
    with pytest.raises(cove.DataError) as e:
        ck.one_of("x" * 10_000, ["a", "b"], "crew", "type")
    assert len(str(e.value)) < 200


def test_data_digests_hash_the_builtin_and_named_files(allowed: Path,
                                                       data_game: cove.Game) -> None:
    n = data_game.min_players
    default = data_game.new(n, seed=1).options
    builtin = builtin_data_file(default)
    assert builtin is not None and builtin.is_relative_to(BUILTIN_DIR)
    want = "sha256:" + hashlib.sha256(builtin.read_bytes()).hexdigest()
    assert data_digests(default) == {"data_file": want}
    copy = allowed / ("data" + builtin.suffix)
    copy.write_bytes(builtin.read_bytes())
    named = data_game.new(n, seed=1, data_file=str(copy)).options
    assert data_digests(named) == {"data_file": want}
    copy.write_bytes(builtin.read_bytes() + b"\n# edited\n")
    assert data_digests(named)["data_file"] != want
    # games without data-file options have no digests (the toy has a data file, no option)
    assert data_digests(TOY.new(2, seed=1).options) == {}
    assert data_digests({"x_file": "", "other": "a.toml"}) == {}


def test_typed_data_checks_text_patterns_and_a_tables_keys(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from cove.core.data import entry, load_typed, schema

    @schema
    class Colours:
        fills: dict[str, str] = entry(keys=("sea", "land"), pattern=r"#[0-9a-f]{6}")
        label: str = entry(min_items=1, max_items=3, default="x")

    monkeypatch.setenv("COVE_DATA_DIR", str(tmp_path))
    path = tmp_path / "c.toml"
    path.write_text('fills = { sea = "#112233", land = "#445566" }\n')
    assert load_typed(Colours, path).fills == {"sea": "#112233", "land": "#445566"}
    for text, message in (
        ('fills = { sea = "#112233" }', r"c.toml: fills: missing 'land'"),
        ('fills = { sea = "#112233", land = "#445566", air = "#000000" }',
         r"fills: unknown 'air'; the keys are sea, land"),
        ('fills = { sea = "blue", land = "#445566" }', r"fills.sea: must match"),
        ('fills = { sea = "#112233", land = "#445566" }\nlabel = ""',
         r"label: must be at least 1 characters"),
    ):
        path.write_text(text + "\n")
        with pytest.raises(cove.DataError, match=message):
            load_typed(Colours, path)


@schema
class Cost:
    gold: int = entry(minimum=0, default=0)


@schema
class Card:
    condition: str | None = entry(key="if", default=None, help="a flag it needs")
    pay: Cost | None = None


def test_typed_data_reads_a_key_that_is_no_name_and_optional_tables(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cove.core.data import load_typed

    monkeypatch.setenv("COVE_DATA_DIR", str(tmp_path))
    path = tmp_path / "card.toml"
    path.write_text('if = "won_trick"\npay = { gold = 2 }\n')
    assert load_typed(Card, path) == Card(condition="won_trick", pay=Cost(gold=2))
    path.write_text("")
    assert load_typed(Card, path) == Card()
    path.write_text("condition = 1\n")
    with pytest.raises(cove.DataError, match=r"unknown field 'condition'; fields: if, pay"):
        load_typed(Card, path)
    path.write_text("pay = { gold = -1 }\n")
    with pytest.raises(cove.DataError, match=r"card.toml: pay.gold: must be at least 0"):
        load_typed(Card, path)
