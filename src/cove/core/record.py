"""Game records: saving, loading and replaying."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cove.core.data import check_values, data_digests, decode_text, parse_json, read_capped
from cove.core.errors import CoveError, RecordError
from cove.core.registry import load
from cove.core.state import State

KEYS = ("game", "version", "players", "seed", "options", "actions")

RESERVED = frozenset({"players", "seed", "log"})
"""Keywords of ``Game.new`` that can never be option names."""

MAX_RECORD_BYTES = 64 << 20
"""The largest record file :func:`load_record` reads (a 9,000-move game is ~200 KiB)."""


def replay(record: dict[str, Any], *, log: bool = True, upto: int | None = None) -> State:
    """Rebuild the state a record describes (the first ``upto`` actions if given)."""
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object with keys " + ", ".join(KEYS))
    problem = check_values(record)  # as load_record checks a file: no inf, nan, huge ints
    if problem:
        raise RecordError(f"record is malformed: {problem}")
    missing = [k for k in KEYS if k not in record]
    if missing:
        raise RecordError(f"record is missing {', '.join(missing)}; a record has {', '.join(KEYS)}")
    try:
        game = load(str(record["game"]))
    except CoveError as e:
        raise RecordError(f"record names {e}") from None
    if record["version"] != game.version:
        raise RecordError(
            f"record is for {game.id} version {_cut(repr(record['version']))}; "
            f"this Cove has version {game.version!r}"
        )
    opts = record["options"]
    if not isinstance(opts, dict):
        raise RecordError("record 'options' must be an object of option names to values")
    for name in opts:
        if not isinstance(name, str) or name in RESERVED:
            raise RecordError(f"record names an unknown option {_cut(repr(name))}; options "
                              f"are those 'cove games' lists for {game.id}")
    seed = record["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RecordError(f"record 'seed' must be an integer, got {_cut(repr(seed))}")
    try:
        state = game.new(record["players"], seed, log=log, **opts)
    except CoveError as e:
        raise RecordError(f"record cannot start the game: {e}") from None
    if "data" in record:  # records made before data hashes have no "data": accepted
        check_data(record["data"], state)
    actions = record["actions"]
    if not isinstance(actions, list):
        raise RecordError("record 'actions' must be a list of [player, action text] pairs")
    for i, entry in enumerate(actions if upto is None else actions[:upto]):
        if (
            not isinstance(entry, list)
            or len(entry) != 2
            or isinstance(entry[0], bool)
            or not isinstance(entry[0], int)
            or not isinstance(entry[1], str)
        ):
            raise RecordError(f"record action #{i + 1} must be [player, text], got "
                              f"{_cut(repr(entry))}")
        try:  # strictly the exact text: a record never relies on short forms
            act = state.find_action(entry[0], entry[1]) if entry[0] in state.to_move() else None
            if act is None and entry[0] in state.to_move():
                raise CoveError(f"{_cut(entry[1])!r} is not the exact text of a legal move")
            state.apply(entry[0], entry[1] if act is None else act)
        except CoveError as e:
            raise RecordError(
                f"record action #{i + 1} {_cut(repr(entry))} does not replay: {_cut(str(e), 600)}"
            ) from None
    return state


def check_data(want: Any, state: State) -> None:
    """Refuse a record whose data files (option name -> "sha256:<hex>") differ from the
    files the options name now: the same actions would mean another game."""
    if not isinstance(want, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in want.items()
    ):
        raise RecordError("record 'data' must be an object of option names to "
                          "\"sha256:<hex>\" digests")
    try:
        have = data_digests(state.options)
    except CoveError as e:
        raise RecordError(f"record's data file cannot be checked: {e}") from None
    values = state.options.to_dict()
    for name, digest in sorted(want.items()):
        now = have.get(name)
        if now == digest:
            continue
        file = values.get(name) or "the built-in data file"
        if now is None:
            raise RecordError(f"record depends on data option {name!r} ({_cut(digest)}) "
                              f"but {state.game.id} has no such data file to check")
        raise RecordError(f"record was made with a different {name} {file!r}: it had "
                          f"{_cut(digest)}, the file now has {_cut(now)}; restore the file "
                          "the game was played with")


def _cut(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def save(state: State, path: str | Path) -> None:
    Path(path).write_text(json.dumps(state.record(), indent=1) + "\n", encoding="utf-8")


def load_record(path: str | Path) -> dict[str, Any]:
    """Read a record file: a regular UTF-8 JSON file (a BOM is allowed) of at most
    :data:`MAX_RECORD_BYTES`; any problem is one RecordError line naming it."""
    p = Path(path)
    raw = read_capped(p, MAX_RECORD_BYTES, "record", RecordError)
    text = decode_text(raw, str(p), "record", RecordError)
    try:
        data = parse_json(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"{path} is not valid JSON (line {e.lineno}: {e.msg})") from None
    except RecursionError:
        raise RecordError(f"{path} is not valid JSON: nested too deeply") from None
    except ValueError as e:
        raise RecordError(f"{path} is not valid JSON: {_cut(str(e))}") from None
    problem = check_values(data)
    if problem:
        raise RecordError(f"{path}: {problem}")
    if not isinstance(data, dict):
        raise RecordError(f"{path}: a record must be a JSON object with keys {', '.join(KEYS)}")
    return data
