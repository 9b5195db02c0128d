"""Game records: saving, loading and replaying."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cove.core.errors import CoveError, RecordError
from cove.core.state import State

KEYS = ("game", "version", "players", "seed", "options", "actions")


def replay(record: dict[str, Any], *, log: bool = True, upto: int | None = None) -> State:
    """Rebuild the state a record describes (the first ``upto`` actions if given)."""
    from cove.core.registry import load

    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object with keys " + ", ".join(KEYS))
    missing = [k for k in KEYS if k not in record]
    if missing:
        raise RecordError(f"record is missing {', '.join(missing)}; a record has {', '.join(KEYS)}")
    try:
        game = load(str(record["game"]))
    except CoveError as e:
        raise RecordError(f"record names {e}") from None
    if record["version"] != game.version:
        raise RecordError(
            f"record is for {game.id} version {record['version']!r}; "
            f"this Cove has version {game.version!r}"
        )
    opts = record["options"]
    if not isinstance(opts, dict):
        raise RecordError("record 'options' must be an object of option names to values")
    seed = record["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RecordError(f"record 'seed' must be an integer, got {seed!r}")
    try:
        state = game.new(record["players"], seed, log=log, **opts)
    except CoveError as e:
        raise RecordError(f"record cannot start the game: {e}") from None
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
            raise RecordError(f"record action #{i + 1} must be [player, text], got {entry!r}")
        try:
            state.apply(entry[0], entry[1])
        except CoveError as e:
            raise RecordError(f"record action #{i + 1} {entry!r} does not replay: {e}") from None
    return state


def save(state: State, path: str | Path) -> None:
    Path(path).write_text(json.dumps(state.record(), indent=1) + "\n", encoding="utf-8")


def load_record(path: str | Path) -> dict[str, Any]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise RecordError(f"cannot read record {path}: {e.strerror or e}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"{path} is not valid JSON (line {e.lineno}: {e.msg})") from None
    if not isinstance(data, dict):
        raise RecordError(f"{path}: a record must be a JSON object with keys {', '.join(KEYS)}")
    return data
