"""A state outside the process: its JSON form (``State.to_json``, ``Game.from_json``), its
fingerprint and its pickle. Kept apart from ``cove.core.state``, which holds what a game
and its clients use while playing; these run when a state is stored, sent or compared.

``to_json`` writes the core's fields, the game's own slots (less ``DERIVED``, which
``setup`` rebuilds from the options), the history and the log; ``state_from_json`` checks
every part of such a document and gives a ``RecordError`` naming what is wrong.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

from cove.core.actions import Action
from cove.core.decisions import Step
from cove.core.digest import chain_digest
from cove.core.errors import CoveError, RecordError
from cove.core.history import Event, Node, log_push
from cove.core.registry import load
from cove.core.rng import Rng, TapeRng
from cove.core.serial import Decoder, encode, slot_names

if TYPE_CHECKING:
    from cove.core.game import Game
    from cove.core.state import State

FORMAT = "cove-state/1"


def json_head(state: State) -> dict[str, Any]:
    """``to_json`` without the two long chains, the history and the events."""
    cls = type(state)
    derived = set(cls.DERIVED)
    tape = getattr(state.rng, "tape", None)
    return {
        "format": FORMAT,
        "game": state.game.id,
        "version": state.game.version,
        "players": state.n,
        "seed": state.seed,
        "options": state.options.to_dict(),
        "log": state.logging,
        "rng": state.rng.state,
        "chance": None if tape is None else [list(x) for x in tape],
        "reveal_at": state._reveal_at,
        "steps": encode(state._steps),
        "state": {k: encode(getattr(state, k)) for k in slot_names(cls)
                  if k not in cls.CORE_SLOTS and k not in derived and hasattr(state, k)},
    }


def state_json(state: State) -> dict[str, Any]:
    """The whole state as JSON-ready data (``State.to_json``)."""
    doc = json_head(state)
    doc["history"] = [_hist_json(item) for item in state._hist_entries()]
    doc["events"] = [_event_json(e) for e in state._all_events()]
    return doc


def fingerprint(state: State) -> str:
    """``State.fingerprint``: the history and the log hashed link by link."""
    doc = json_head(state)
    doc["history"] = chain_digest(state._hist, _hist_json).hex()
    doc["events"] = chain_digest(state._log, _event_json).hex()
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=20).hexdigest()


def pickled(state: State) -> dict[str, Any]:
    """What a pickle stores: every slot, the chains as flat lists (no recursion limit),
    no kept caches, and the game by its id (a Game holds functions)."""
    out = {k: getattr(state, k) for k in slot_names(type(state)) if hasattr(state, k)}
    out["_hist"] = state._hist_entries()
    out["_log"] = state._all_events()
    out["_legal"] = None
    out["_observed"] = None
    out["game"] = state.game.id
    return out


def unpickle(state: State, data: dict[str, Any]) -> None:
    """Fill ``state`` from what :func:`pickled` stored."""
    hist, evs = data.pop("_hist"), data.pop("_log")
    data["game"] = load(data["game"])
    for k, v in data.items():
        object.__setattr__(state, k, v)
    node: Node | None = None
    for item in hist:
        node = (node, item)
    state._hist = node
    log: Node | None = None
    for ev in evs:
        log = log_push(log, ev, state.n)
    state._log = log


def _hist_json(item: tuple[int, Action, bool]) -> list[Any]:
    p, a, secret = item
    return [p, encode(a), secret]


def _event_json(e: Event) -> list[Any]:
    return [e.text, None if e.to is None else list(e.to), e.kind,
            encode(dict(e.data)) if e.data else None]


def state_from_json(game: Game, data: Any) -> State:
    """Rebuild a state from ``State.to_json`` data; RecordError on anything malformed."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError("not a Cove state: expected an object with format 'cove-state/1'")
    if data.get("game") != game.id:
        raise RecordError(f"state is for game {data.get('game')!r}, not {game.id!r}")
    if data.get("version") != game.version:
        raise RecordError(f"state is for {game.id} version {data.get('version')!r}; "
                          f"this Cove has version {game.version!r}")
    for key, kind in (("players", int), ("seed", int), ("rng", int), ("reveal_at", int),
                      ("options", dict), ("history", list), ("events", list),
                      ("state", dict), ("log", bool)):
        if not isinstance(data.get(key), kind) or (kind is int and isinstance(data[key], bool)):
            raise RecordError(f"state field {key!r} must be {kind.__name__}")
    try:
        s = game.new(data["players"], data["seed"], log=data["log"], **data["options"])
    except CoveError as e:
        raise RecordError(f"state cannot start the game: {e}") from None
    dec = Decoder(game.package_prefixes())
    cls = type(s)
    allowed = set(slot_names(cls)) - set(cls.CORE_SLOTS) - set(cls.DERIVED)
    fields = data["state"]
    if set(fields) != allowed:
        missing, unknown = sorted(allowed - set(fields)), sorted(set(fields) - allowed)
        raise RecordError(f"state fields differ from {game.id}'s: missing {missing}, "
                          f"unknown {unknown}")
    for k, v in fields.items():
        object.__setattr__(s, k, dec.decode(v))
    chance = data.get("chance")
    if chance is not None:
        if not isinstance(chance, list):
            raise RecordError("state field 'chance' must be a list")
        s.rng = TapeRng(0)
        s.rng.tape = [_pair(x) for x in chance]
    else:
        s.rng = Rng(0)
    s.rng.state = data["rng"] & ((1 << 64) - 1)
    node: Node | None = None
    for item in data["history"]:
        if not (isinstance(item, list) and len(item) == 3 and isinstance(item[2], bool)
                and isinstance(item[0], int) and not isinstance(item[0], bool)):
            raise RecordError("state history entries must be [player, action, secret]")
        node = (node, (item[0], dec.decode(item[1]), item[2]))
    s._hist = node
    s._nhist = len(data["history"])
    log: Node | None = None
    for item in data["events"]:
        if not (isinstance(item, list) and len(item) == 4 and isinstance(item[0], str)
                and isinstance(item[2], str)):
            raise RecordError("state events must be [text, to, kind, data]")
        to = None if item[1] is None else tuple(int(p) for p in item[1])
        ev_data = dec.decode(item[3]) if item[3] is not None else None
        log = log_push(log, Event(0, item[0], to, item[2], ev_data), s.n)
    s._log = log
    s._nlog = len(data["events"])
    steps = dec.decode(data.get("steps", {"t": []}))
    if not isinstance(steps, tuple) or not all(isinstance(x, Step) for x in steps):
        raise RecordError("state field 'steps' must be a list of steps")
    s._steps = steps
    s._reveal_at = data["reveal_at"]
    s._secret_next = False
    s._legal = None
    return s


def _pair(x: Any) -> tuple[int, int]:
    if not (isinstance(x, list) and len(x) == 2 and all(type(v) is int for v in x)):
        raise RecordError("chance outcomes must be [n, outcome] pairs")
    return (x[0], x[1])
