"""Where tables live: SQLite (the standard library) or PostgreSQL (psycopg 3).

Event-sourced: a table row holds the game, player count, options, seed and seats (human
seats only as a hash of their token), and one ``cove_moves`` row per applied move. A move
is committed together with the table's new state snapshot (``state.to_json()``) and move
count in one transaction, guarded by the count the mover saw (``WHERE moves = n``), so two
processes (or two racing requests) can never both apply move ``n``, and a crash leaves
either the whole move or none of it. A snapshot is taken every
``SNAPSHOT_EVERY`` moves and at the end (a long game's state is a few hundred kilobytes,
too much to write at every move); a table is restored from its last snapshot plus the moves
after it, replayed through their exact text as records are (the server checks a snapshot
before it trusts it: :meth:`cove.serve.hub.Hub._from_row`).

Failures are of two kinds. A database that cannot be read or written now (a full disk, a
read-only file, a lost connection) raises :class:`StoreUnavailable`: nothing was changed,
and the same call may succeed later (the server answers 503 with Retry-After). A row that
cannot be read at all (not JSON, the wrong shape) comes back as a :class:`TableRow` whose
``error`` says why, so one damaged table never hides the others.

Every method is blocking and thread-safe (one connection per thread); the server calls
them from worker threads, never on its event loop. Writes come from one writer thread that
commits the moves of many tables together (:meth:`Store.append_many`: one transaction, each
move still guarded on its own), so tables never queue for the database's write lock; reads
never take that lock.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from cove.core.errors import CoveError
from cove.serve.again_store import AGAIN_SCHEMA, AgainRows
from cove.serve.chat_store import CHAT_SCHEMA, ChatRows
from cove.serve.player_data import PlayerData, PlayerStore

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 32
"""Moves between two stored snapshots of a table's state."""

CHANNEL = "cove_tables"
"""PostgreSQL NOTIFY channel: payload ``"<table id> <entries>"`` after every commit (its log's
length: moves and undos)."""

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS cove_tables (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        players INTEGER NOT NULL,
        options TEXT NOT NULL,
        seed BIGINT NOT NULL,
        seats TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        updated DOUBLE PRECISION NOT NULL,
        moves INTEGER NOT NULL,
        over INTEGER NOT NULL,
        snap_moves INTEGER NOT NULL,
        bot_turn INTEGER NOT NULL,
        state TEXT NOT NULL,
        salt TEXT NOT NULL DEFAULT '',
        seed_chosen INTEGER NOT NULL DEFAULT 0,
        undos INTEGER NOT NULL DEFAULT 0,
        owner_hash TEXT NOT NULL DEFAULT '',
        closed INTEGER NOT NULL DEFAULT 0)""",
    """CREATE TABLE IF NOT EXISTS cove_moves (
        table_id TEXT NOT NULL REFERENCES cove_tables (id),
        n INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, n))""",
    """CREATE TABLE IF NOT EXISTS cove_players (
        key_hash TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS cove_clocks (
        table_id TEXT PRIMARY KEY REFERENCES cove_tables (id),
        config TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS cove_seat_log (
        table_id TEXT NOT NULL REFERENCES cove_tables (id),
        n INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL,
        version INTEGER NOT NULL,
        by_seat INTEGER,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, n))""",
    "CREATE INDEX IF NOT EXISTS cove_tables_over ON cove_tables (over, updated)",
    "CREATE INDEX IF NOT EXISTS cove_tables_bot_turn ON cove_tables (bot_turn)",
    *CHAT_SCHEMA,
    *AGAIN_SCHEMA,
)

ADDED_COLUMNS = (("salt", "TEXT NOT NULL DEFAULT ''"),
                 ("seed_chosen", "INTEGER NOT NULL DEFAULT 0"),
                 ("undos", "INTEGER NOT NULL DEFAULT 0"),
                 ("owner_hash", "TEXT NOT NULL DEFAULT ''"),
                 ("closed", "INTEGER NOT NULL DEFAULT 0"))
"""Columns added to ``cove_tables`` after its first release: a database made before them
gets them when a server opens it (tables made before have no seed commitment, no undo
and no creator's key, so nobody can close them: they leave the lobby when idle)."""

UNDO = "(undo)"
"""The action text of an undo entry in ``cove_moves``: the seat took back its latest
decision (no move's text has brackets). The log only grows: the move taken back keeps its
row, and entry ``n`` of a table is its ``n``-th move or undo, so a table has ``moves + 2 *
undos`` entries (each undo is one entry and takes one move back)."""

_NAMES = ("id", "game", "players", "options", "seed", "seats", "created", "updated", "moves",
          "over", "snap_moves", "bot_turn", "salt", "seed_chosen", "undos", "owner_hash",
          "closed")
_COLUMNS = ", ".join(_NAMES)
_SNAP = _NAMES.index("snap_moves")


@dataclass(frozen=True)
class Move:
    """One entry to commit: move ``n`` (0-based) of a table, by ``seat``, as its exact text,
    made after the table's ``undos`` undos; or with ``action`` :data:`UNDO`, ``seat`` taking
    back move ``n - 1``. ``snapshot`` gives the new state's ``to_json()`` when one is due."""

    table_id: str
    n: int
    seat: int
    action: str
    over: bool
    snapshot: Callable[[], dict[str, Any]] | None = None
    bot_turn: bool = False
    undos: int = 0
    at: float | None = None
    """When it was made (Unix seconds; None: when committed). Clocks count from it."""

    @property
    def entry(self) -> int:
        """Its place in the table's log (``cove_moves.n``)."""
        return self.n + 2 * self.undos

    @property
    def after(self) -> tuple[int, int]:
        """The table's (moves, undos) once it is committed."""
        if self.action == UNDO:
            return self.n - 1, self.undos + 1
        return self.n + 1, self.undos


class StoreError(CoveError):
    """A database URL that cannot be used (unknown scheme, missing driver, no server, a
    database the server cannot write)."""


class StoreUnavailable(StoreError):
    """The database cannot be read or written now (disk full, read-only, connection lost,
    locked too long): the transaction was rolled back, so nothing changed, and the same
    call may succeed later."""


@dataclass(frozen=True)
class TableRow:
    """One stored table. ``seats`` is JSON-ready: ``[{"kind": "human", "token_hash": ...}
    | {"kind": "bot", "spec": "random"}]``; ``state`` is ``state.to_json()`` (None when only
    the summary was read) taken after ``snap_moves`` entries of the log, and ``tail`` the
    entries (seat, text) after it: moves, and undos (:data:`UNDO`)."""

    id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    created: float
    updated: float
    moves: int
    over: bool
    state: dict[str, Any] | None = None
    snap_moves: int = 0
    tail: tuple[tuple[int, str], ...] = ()
    bot_turn: bool = False
    """A bot is to move: the server restores such tables as it starts (others when first
    asked for), so their bots play on."""
    salt: str = ""
    """Kept secret until the game ends: the seed's commitment is
    ``sha256(f"{salt}:{seed}")`` (:func:`cove.serve.hub.seed_commitment`); empty for tables
    made before commitments."""
    seed_chosen: bool = False
    """The table's creator chose the seed (so the creator may know every hidden card)."""
    undos: int = 0
    """Undos taken at the table (each one an entry of its log)."""
    owner_hash: str = ""
    """The hash of the creator's key (which closes the table); empty: nobody's."""
    closed: bool = False
    """Closed by its creator before anyone else played: out of the lobby, no more moves."""
    error: str | None = None
    """Why this row cannot be read (its columns are not what the server wrote); only
    ``id`` is then meaningful, and the server quarantines the table."""


class Store(PlayerStore, Protocol):
    """What the server needs from a database."""

    url: str

    def create(self, row: TableRow) -> None: ...

    def append(self, table_id: str, n: int, seat: int, action: str, over: bool,
               snapshot: Callable[[], dict[str, Any]] | None = None,
               bot_turn: bool = False) -> bool:
        """Commit move ``n`` (0-based), with the new state's snapshot when given, in one
        transaction; False (and nothing written) when the table is no longer at ``n``
        moves."""
        ...

    def append_many(self, moves: Sequence[Move]) -> list[bool]:
        """Commit several moves (of different tables, or one table's next moves in order) in
        one transaction; each is guarded on its own: ``[committed?]`` in the given order."""
        ...

    def load(self, table_id: str) -> TableRow | None: ...

    def tables(self, *, over: bool | None = None, limit: int = 100,
               with_state: bool = False, bot_turn: bool = False,
               since: float | None = None) -> list[TableRow]:
        """Tables, most recently active first, closed ones left out; ``bot_turn``: only
        those a bot is to move at; ``since``: only those moved (or made) since then (Unix
        time)."""
        ...

    def moves(self, table_id: str) -> list[tuple[int, str]]:
        """Every entry of the table's log in order (seat, text): moves and undos."""
        ...

    def ids(self, *, over: bool | None = None, bot_turn: bool = False) -> list[str]:
        """The ids of the tables ``tables`` would read, alone: to read them one by one when
        reading them together fails on a damaged one."""
        ...

    def listen(self, callback: Callable[[str, int], None]) -> Callable[[], None] | None:
        """Call ``callback(table_id, entries)`` (from another thread) when another process
        commits a move or an undo (``entries``: the length of the table's log now); returns
        a function that stops listening, or None when the database cannot tell (SQLite:
        one process per file)."""
        ...

    def take_lease(self, table_id: str, owner: str, seconds: float) -> tuple[bool, float]:
        """Claim (or renew) the right to play ``table_id``'s bots for ``seconds``: (held,
        until when, Unix time). Held when no other owner's claim is still running."""
        ...

    def renew_leases(self, owner: str, seconds: float) -> tuple[list[str], float]:
        """Extend every claim ``owner`` holds by ``seconds`` from now: (the tables, until
        when)."""
        ...

    def drop_lease(self, table_id: str | None, owner: str) -> None:
        """Give up ``owner``'s claim on a table (None: on every table)."""
        ...

    def park(self, table_id: str, moves: int) -> bool:
        """Mark a table still at ``moves`` as not to be restored when the server starts
        (its bots resume when it is next asked for); False when it moved on."""
        ...

    def close_table(self, table_id: str, version: int) -> bool:
        """Mark a table still at ``version`` (moves + 2 undos) closed: left out of the
        listings and not restored at start-up; False when it changed meanwhile."""
        ...

    def add_player(self, key_hash: str, name: str) -> None:
        """A named player: the hash of their personal key, and the name they chose."""
        ...

    def player(self, key_hash: str) -> str | None:
        """The name of the player whose key has this hash; None for an unknown key."""
        ...

    def set_seats(self, table_id: str, seats: list[dict[str, Any]]) -> None:
        """Store a table's seats again (a named player took one)."""
        ...

    def set_clock(self, table_id: str, config: dict[str, Any]) -> None:
        """Store a table's clock (:mod:`cove.serve.clock`), once, as it is created."""
        ...

    def clock_log(self, table_id: str) -> tuple[
            dict[str, Any] | None, list[tuple[int, str, float]],
            list[tuple[int, str, int, int | None, float]]]:
        """A clocked table's clock (None: it has none), every entry of its log (seat, text,
        time) and its seat log (seat, kind, version, by whom, time), in order."""
        ...

    def clocks(self, table_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        """The clocks of those of ``table_ids`` that have one (for the listing)."""
        ...

    def add_seat_event(self, table_id: str, seat: int, kind: str, version: int,
                       by: int | None, at: float, bot_turn: bool = False) -> None:
        """Append to a table's seat log (a bot takes a seat over, its player reclaims it);
        ``bot_turn``: mark the table as one a bot is to move at (restored at start-up)."""
        ...

    def close(self) -> None: ...


def open_store(url: str) -> Store:
    """``sqlite:///path`` (or a bare path) or ``postgresql://...``."""
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresStore(url)
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///"):]
    elif "://" in url:
        raise StoreError(f"unknown database URL scheme in {url.split('://')[0]!r}://...; "
                         "use sqlite:///path/to/file.db or postgresql://user@host/dbname")
    else:
        path = url
    if not path:
        raise StoreError("sqlite:/// needs a file path, e.g. sqlite:///cove.db")
    return SqliteStore(path)


def _row(r: Sequence[Any], tail: Sequence[Sequence[Any]] = ()) -> TableRow:
    """A stored row as a TableRow; one that cannot be read comes back with ``error``."""
    try:
        return _parse_row(r, tail)
    except Exception as e:  # any damage: the caller quarantines this one table
        what = f"{type(e).__name__}: {e}"
        return TableRow(id=str(r[0]), game=str(r[1]), players=0, options={}, seed=0, seats=[],
                        created=0.0, updated=0.0, moves=0, over=False,
                        error=f"its stored row cannot be read ({what[:200]})")


def _parse_row(r: Sequence[Any], tail: Sequence[Sequence[Any]]) -> TableRow:
    v = dict(zip(_NAMES, r, strict=False))
    state = None
    if len(r) > len(_NAMES):
        try:
            state = json.loads(r[len(_NAMES)])
        except Exception as e:  # only a cache: the server rebuilds it from the moves
            state = {"format": None, "unreadable": f"not JSON ({one_line(e)[:80]})"}
    options, seats = json.loads(v["options"]), json.loads(v["seats"])
    if not isinstance(options, dict):
        raise ValueError("options is not a JSON object")
    if not isinstance(seats, list) or not all(_good_seat(s) for s in seats):
        raise ValueError("seats is not a list of human and bot seats")
    if not isinstance(v["id"], str) or not isinstance(v["game"], str):
        raise ValueError("id and game must be text")
    row = TableRow(id=v["id"], game=v["game"], players=_int(v["players"]), options=options,
                   seed=_int(v["seed"]), seats=seats, created=float(v["created"]),
                   updated=float(v["updated"]), moves=_int(v["moves"]),
                   over=bool(_int(v["over"])), snap_moves=_int(v["snap_moves"]),
                   bot_turn=bool(_int(v["bot_turn"])),
                   state=state, tail=_moves(tail),
                   salt=str(v.get("salt") or ""), seed_chosen=bool(v.get("seed_chosen")),
                   undos=_int(v.get("undos") or 0), owner_hash=str(v.get("owner_hash") or ""),
                   closed=bool(v.get("closed")))
    if len(seats) != row.players:
        raise ValueError(f"{len(seats)} seats for {row.players} players")
    if row.moves < 0 or row.snap_moves < 0 or row.undos < 0:
        raise ValueError("a negative move count")
    return row


def _moves(rows: Sequence[Sequence[Any]]) -> tuple[tuple[int, str], ...]:
    """Stored moves as (seat, text); ValueError when one is not."""
    out = []
    for seat, action in rows:
        if not isinstance(action, str):
            raise ValueError(f"a stored move is not text: {str(action)[:20]!r}")
        out.append((_int(seat), action))
    return tuple(out)


def one_line(e: BaseException) -> str:
    """An exception as one short line (drivers' messages span several)."""
    text = " ".join(str(e).split()) or type(e).__name__
    return text if len(text) <= 300 else text[:297] + "..."


def redact_url(url: str) -> str:
    """``postgresql://user:secret@host/db?password=x`` as
    ``postgresql://user:***@host/db?password=***``."""
    url = re.sub(r"([?&]password=)[^&]*", r"\1***", url)
    scheme, sep, rest = url.partition("://")
    creds, at, host = rest.rpartition("@")
    if not sep or not at or ":" not in creds:
        return url
    return f"{scheme}://{creds.partition(':')[0]}:***@{host}"


def _int(value: Any) -> int:
    """A stored integer (SQLite may hold anything in an INTEGER column)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{str(value)[:20]!r} is not an integer")
    return value


def _good_seat(seat: Any) -> bool:
    if not isinstance(seat, dict):
        return False
    if seat.get("kind") == "human":
        return isinstance(seat.get("token_hash"), str) and isinstance(seat.get("name", ""), str)
    return seat.get("kind") == "bot" and isinstance(seat.get("spec"), str)


class _SqlStore(PlayerData, ChatRows, AgainRows):
    """The SQL both databases share; subclasses give connections and placeholders (the
    players' rows: :class:`cove.serve.player_data.PlayerData`; the chat's:
    :class:`cove.serve.chat_store.ChatRows`; play again's:
    :class:`cove.serve.again_store.AgainRows`)."""

    url: str
    mark = "?"
    _all: list[Any]
    _lock: threading.Lock

    def _sql(self, text: str) -> str:
        return text if self.mark == "?" else text.replace("?", self.mark)

    @contextmanager
    def _tx(self, write: bool = False) -> Iterator[Any]:  # a cursor in one transaction
        raise NotImplementedError

    def _notify(self, cur: Any, table_id: str, moves: int) -> None:
        return None

    def _columns(self, cur: Any) -> set[str]:
        """The columns ``cove_tables`` has now."""
        raise NotImplementedError

    def _init_schema(self) -> None:
        """Create the tables (or add the columns an older database lacks), then make sure
        the server can write: a read-only database is refused here, at start-up, with one
        line that says so, rather than failing every move later."""
        try:
            with self._tx(write=True) as cur:
                self._lock_schema(cur)
                for stmt in SCHEMA:
                    cur.execute(stmt)
                have = self._columns(cur)
                for name, kind in ADDED_COLUMNS:
                    if name not in have:
                        cur.execute(f"ALTER TABLE cove_tables ADD COLUMN {name} {kind}")
                self._init_player_data(cur)  # named players' seats, ratings, webhooks
                # a write that changes nothing: refused by a read-only file, directory,
                # transaction or role
                cur.execute("UPDATE cove_tables SET moves = moves WHERE 1 = 0")
        except Exception as e:  # whatever it is, one line that names the database
            self.close()
            raise StoreError(f"cannot use the database {self.safe_url()}: {one_line(e)}; "
                             f"cove serve needs a database it can write{self._write_hint()}"
                             ) from None

    def _lock_schema(self, cur: Any) -> None:
        return None

    def _write_hint(self) -> str:
        return ""

    def safe_url(self) -> str:
        """The URL without its password (for messages and logs)."""
        return redact_url(self.url)

    def close(self) -> None:
        with self._lock:
            for conn in self._all:
                conn.close()
            self._all.clear()

    def create(self, row: TableRow) -> None:
        marks = ",".join("?" * (len(_NAMES) + 1))
        with self._tx(write=True) as cur:
            cur.execute(self._sql(f"INSERT INTO cove_tables ({_COLUMNS}, state) "
                                  f"VALUES ({marks})"),
                        (row.id, row.game, row.players, json.dumps(row.options), row.seed,
                         json.dumps(row.seats), row.created, row.updated, row.moves,
                         int(row.over), row.moves, int(row.bot_turn), row.salt,
                         int(row.seed_chosen), row.undos, row.owner_hash, int(row.closed),
                         json.dumps(row.state, separators=(",", ":"))))

    def append(self, table_id: str, n: int, seat: int, action: str, over: bool,
               snapshot: Callable[[], dict[str, Any]] | None = None,
               bot_turn: bool = False) -> bool:
        return self.append_many([Move(table_id, n, seat, action, over, snapshot,
                                      bot_turn)])[0]

    def append_many(self, moves: Sequence[Move]) -> list[bool]:
        now = time.time()
        # the snapshots' JSON is made before the write lock is taken
        snaps = [None if m.snapshot is None
                 else json.dumps(m.snapshot(), separators=(",", ":")) for m in moves]
        done = [False] * len(moves)
        # one order for every process's row locks (PostgreSQL), so batches never deadlock
        order = sorted(range(len(moves)), key=lambda i: (moves[i].table_id, moves[i].entry))
        with self._tx(write=True) as cur:
            for i in order:
                m, snap = moves[i], snaps[i]
                after, undos = m.after
                sets = "moves = ?, undos = ?, over = ?, updated = ?, bot_turn = ?"
                args: tuple[Any, ...] = (after, undos, int(m.over), now, int(m.bot_turn))
                if snap is not None:
                    sets += ", snap_moves = ?, state = ?"
                    args += (m.entry + 1, snap)
                cur.execute(self._sql(f"UPDATE cove_tables SET {sets} WHERE id = ? AND "
                                      "moves = ? AND undos = ?"),
                            (*args, m.table_id, m.n, m.undos))
                if cur.rowcount != 1:
                    continue  # the table moved on meanwhile: this move is not applied
                cur.execute(self._sql("INSERT INTO cove_moves (table_id, n, seat, action, at) "
                                      "VALUES (?,?,?,?,?)"), (m.table_id, m.entry, m.seat,
                                                             m.action,
                                                             now if m.at is None else m.at))
                self._notify(cur, m.table_id, m.entry + 1)
                done[i] = True
        return done

    def load(self, table_id: str) -> TableRow | None:
        with self._tx() as cur:
            cur.execute(self._sql(f"SELECT {_COLUMNS}, state FROM cove_tables WHERE id = ?"),
                        (table_id,))
            r = cur.fetchone()
            if r is None:
                return None
            snap = r[_SNAP] if isinstance(r[_SNAP], int) else 0  # (a damaged row: all)
            cur.execute(self._sql("SELECT seat, action FROM cove_moves WHERE table_id = ? "
                                  "AND n >= ? ORDER BY n"), (table_id, snap))
            tail = cur.fetchall()
        return _row(r, tail)

    def tables(self, *, over: bool | None = None, limit: int = 100,
               with_state: bool = False, bot_turn: bool = False,
               since: float | None = None) -> list[TableRow]:
        cols = _COLUMNS + (", state" if with_state else "")
        conds: list[str] = ["closed = 0"]
        args: tuple[float, ...] = ()
        if over is not None:
            conds.append("over = ?")
            args += (int(over),)
        if since is not None:
            conds.append("updated >= ?")
            args += (since,)
        if bot_turn:
            conds.append("bot_turn = 1")
        where = " WHERE " + " AND ".join(conds)
        with self._tx() as cur:
            cur.execute(self._sql(f"SELECT {cols} FROM cove_tables{where} "
                                  "ORDER BY updated DESC LIMIT ?"), (*args, limit))
            rows = cur.fetchall()
            tails: dict[str, list[tuple[int, str]]] = {}
            if with_state and rows:
                cond = "".join(" AND t." + c for c in conds)
                cur.execute(self._sql("SELECT m.table_id, m.seat, m.action FROM cove_moves m "
                                      "JOIN cove_tables t ON t.id = m.table_id "
                                      f"WHERE m.n >= t.snap_moves{cond} "
                                      "ORDER BY m.table_id, m.n"), args)
                for tid, seat, action in cur.fetchall():
                    tails.setdefault(tid, []).append((seat, action))
        return [_row(r, tails.get(r[0], ())) for r in rows]

    def ids(self, *, over: bool | None = None, bot_turn: bool = False) -> list[str]:
        conds = ["closed = 0"] + ([] if over is None else [f"over = {int(over)}"]) + (
            ["bot_turn = 1"] if bot_turn else [])
        where = " WHERE " + " AND ".join(conds)
        with self._tx() as cur:
            cur.execute(f"SELECT id FROM cove_tables{where} ORDER BY updated DESC")
            return [str(r[0]) for r in cur.fetchall()]

    def moves(self, table_id: str) -> list[tuple[int, str]]:
        with self._tx() as cur:
            cur.execute(self._sql("SELECT seat, action FROM cove_moves WHERE table_id = ? "
                                  "ORDER BY n"), (table_id,))
            return list(_moves(cur.fetchall()))

    # -- who plays a table's bots (several processes on one database) --------------------------
    _leases_ready = False

    def _init_leases(self) -> None:
        """The lease table, made on first use (a store whose server never shares it with
        another process never needs it)."""
        if self._leases_ready:
            return
        with self._tx(write=True) as cur:
            self._schema_lock(cur)
            cur.execute("CREATE TABLE IF NOT EXISTS cove_bot_leases (table_id TEXT PRIMARY KEY, "
                        "owner TEXT NOT NULL, expires DOUBLE PRECISION NOT NULL)")
        self._leases_ready = True

    def _schema_lock(self, cur: Any) -> None:
        """Serialise schema changes between processes (PostgreSQL); SQLite needs none."""
        return None

    def _clock(self, cur: Any) -> float:
        """Now, by the clock every process sharing the store reads (Unix seconds)."""
        return time.time()

    def take_lease(self, table_id: str, owner: str, seconds: float) -> tuple[bool, float]:
        """(The lease's end is returned by this process's clock; it is kept by the
        database's.)"""
        self._init_leases()
        with self._tx(write=True) as cur:
            now = self._clock(cur)
            cur.execute(self._sql(
                "INSERT INTO cove_bot_leases (table_id, owner, expires) VALUES (?, ?, ?) "
                "ON CONFLICT (table_id) DO UPDATE SET owner = excluded.owner, "
                "expires = excluded.expires WHERE cove_bot_leases.owner = excluded.owner "
                "OR cove_bot_leases.expires < ?"), (table_id, owner, now + seconds, now))
            cur.execute(self._sql("SELECT owner, expires FROM cove_bot_leases "
                                  "WHERE table_id = ?"), (table_id,))
            row = cur.fetchone()
        if row is None:
            return False, 0.0
        return row[0] == owner, time.time() + (float(row[1]) - now)

    def renew_leases(self, owner: str, seconds: float) -> tuple[list[str], float]:
        self._init_leases()
        with self._tx(write=True) as cur:
            cur.execute(self._sql("UPDATE cove_bot_leases SET expires = ? WHERE owner = ?"),
                        (self._clock(cur) + seconds, owner))
            cur.execute(self._sql("SELECT table_id FROM cove_bot_leases WHERE owner = ?"),
                        (owner,))
            held = [str(r[0]) for r in cur.fetchall()]
        return held, time.time() + seconds

    def drop_lease(self, table_id: str | None, owner: str) -> None:
        self._init_leases()
        with self._tx(write=True) as cur:
            if table_id is None:
                cur.execute(self._sql("DELETE FROM cove_bot_leases WHERE owner = ?"), (owner,))
            else:
                cur.execute(self._sql("DELETE FROM cove_bot_leases WHERE table_id = ? "
                                      "AND owner = ?"), (table_id, owner))

    def park(self, table_id: str, moves: int) -> bool:
        with self._tx(write=True) as cur:
            cur.execute(self._sql("UPDATE cove_tables SET bot_turn = 0 WHERE id = ? "
                                  "AND moves = ?"), (table_id, moves))
            return bool(cur.rowcount == 1)

    def add_player(self, key_hash: str, name: str) -> None:
        with self._tx(write=True) as cur:
            cur.execute(self._sql("INSERT INTO cove_players (key_hash, name, created) "
                                  "VALUES (?, ?, ?)"), (key_hash, name, time.time()))

    def player(self, key_hash: str) -> str | None:
        with self._tx() as cur:
            cur.execute(self._sql("SELECT name FROM cove_players WHERE key_hash = ?"),
                        (key_hash,))
            row = cur.fetchone()
        return None if row is None else str(row[0])

    def set_seats(self, table_id: str, seats: list[dict[str, Any]]) -> None:
        with self._tx(write=True) as cur:
            cur.execute(self._sql("UPDATE cove_tables SET seats = ? WHERE id = ?"),
                        (json.dumps(seats), table_id))
            self._index_seats(cur, table_id, seats)  # for "My games"

    # -- clocks and the seat log (cove.serve.clock, cove.serve.timing) -------------------------
    def set_clock(self, table_id: str, config: dict[str, Any]) -> None:
        with self._tx(write=True) as cur:
            cur.execute(self._sql("INSERT INTO cove_clocks (table_id, config) VALUES (?, ?)"),
                        (table_id, json.dumps(config)))

    def clock_log(self, table_id: str) -> tuple[
            dict[str, Any] | None, list[tuple[int, str, float]],
            list[tuple[int, str, int, int | None, float]]]:
        with self._tx() as cur:
            cur.execute(self._sql("SELECT config FROM cove_clocks WHERE table_id = ?"),
                        (table_id,))
            r = cur.fetchone()
            if r is None:
                return None, [], []
            cur.execute(self._sql("SELECT seat, action, at FROM cove_moves WHERE table_id = ? "
                                  "ORDER BY n"), (table_id,))
            entries = [(int(a), str(b), float(c)) for a, b, c in cur.fetchall()]
            cur.execute(self._sql("SELECT seat, kind, version, by_seat, at FROM cove_seat_log "
                                  "WHERE table_id = ? ORDER BY n"), (table_id,))
            events = [(int(a), str(b), int(c), None if d is None else int(d), float(e))
                      for a, b, c, d, e in cur.fetchall()]
        config = json.loads(r[0])
        return (config if isinstance(config, dict) else None), entries, events

    def clocks(self, table_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        if not table_ids:
            return {}
        marks = ", ".join("?" for _ in table_ids)
        with self._tx() as cur:
            cur.execute(self._sql("SELECT table_id, config FROM cove_clocks "  # placeholders
                                  f"WHERE table_id IN ({marks})"), tuple(table_ids))
            rows = cur.fetchall()
        out = {}
        for table_id, config in rows:
            value = json.loads(config)
            if isinstance(value, dict):
                out[str(table_id)] = value
        return out

    def add_seat_event(self, table_id: str, seat: int, kind: str, version: int,
                       by: int | None, at: float, bot_turn: bool = False) -> None:
        with self._tx(write=True) as cur:
            if bot_turn:
                cur.execute(self._sql("UPDATE cove_tables SET bot_turn = 1 WHERE id = ?"),
                            (table_id,))
            cur.execute(self._sql("SELECT COUNT(*) FROM cove_seat_log WHERE table_id = ?"),
                        (table_id,))
            n = int(cur.fetchone()[0])
            cur.execute(self._sql("INSERT INTO cove_seat_log (table_id, n, seat, kind, version, "
                                  "by_seat, at) VALUES (?, ?, ?, ?, ?, ?, ?)"),
                        (table_id, n, seat, kind, version, by, at))

    def close_table(self, table_id: str, version: int) -> bool:
        with self._tx(write=True) as cur:
            cur.execute(self._sql("UPDATE cove_tables SET closed = 1, bot_turn = 0 WHERE "
                                  "id = ? AND moves + 2 * undos = ? AND over = 0"),
                        (table_id, version))
            return bool(cur.rowcount == 1)


SQLITE_LATER = frozenset({3, 5, 6, 7, 8, 10, 13, 14, 15})
"""SQLite's primary result codes that mean "not now" (PERM, BUSY, LOCKED, NOMEM, READONLY,
IOERR, FULL, CANTOPEN, PROTOCOL), as opposed to a damaged file (CORRUPT, NOTADB) or a
row the driver cannot decode."""


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")



class SqliteStore(_SqlStore):
    """One file; write-ahead logging, so a killed process loses no committed move."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.url = f"sqlite:///{path}"
        parent = Path(path).expanduser().resolve().parent
        if not parent.is_dir():
            raise StoreError(f"cannot create the database {path!r}: {parent} is not a "
                             "directory")
        self._local = threading.local()
        self._all: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._init_schema()

    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            try:
                conn = sqlite3.connect(self.path, isolation_level=None, timeout=30,
                                       check_same_thread=False)
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=NORMAL")  # WAL: durable across kills
                conn.execute("PRAGMA foreign_keys=ON")
                # text that is not UTF-8 (a damaged row) is read with U+FFFD in place of
                # the bad bytes, so it spoils that row alone, not every query that reads it
                conn.text_factory = _text
            except sqlite3.Error as e:  # e.g. a read-only directory: no -wal file
                if conn is not None:
                    conn.close()
                raise StoreUnavailable(f"cannot open {self.path!r}: {one_line(e)}") from None
            self._local.conn = conn
            with self._lock:
                self._all.append(conn)
        return conn

    @contextmanager
    def _tx(self, write: bool = False) -> Iterator[sqlite3.Cursor]:
        conn = self._conn()
        cur = conn.cursor()
        try:
            # a writer takes the write lock at once (no upgrade deadlock); readers never do
            cur.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield cur
            except BaseException:
                if conn.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        conn.rollback()
                raise
            else:
                conn.commit()
        except sqlite3.Error as e:
            if conn.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    conn.rollback()
            code = getattr(e, "sqlite_errorcode", None)
            if code is not None and code & 0xFF in SQLITE_LATER:
                raise StoreUnavailable(one_line(e)) from e
            raise  # a damaged file or row (or a bug): not something waiting mends
        finally:
            cur.close()

    def _columns(self, cur: Any) -> set[str]:
        cur.execute("PRAGMA table_info(cove_tables)")
        return {str(r[1]) for r in cur.fetchall()}

    def _write_hint(self) -> str:
        return (" (the file and its directory: SQLite keeps a -wal and a -shm file beside "
                "the database)")

    def listen(self, callback: Callable[[str, int], None]) -> Callable[[], None] | None:
        return None


class PostgresStore(_SqlStore):
    """PostgreSQL through psycopg 3; moves serialised by the row lock the guarded UPDATE
    takes, other processes told by NOTIFY."""

    mark = "%s"

    def __init__(self, url: str) -> None:
        try:
            import psycopg
        except ImportError:
            raise StoreError("PostgreSQL needs psycopg 3: pip install 'cove[web]'") from None
        self._psycopg = psycopg
        self.url = url
        self._local = threading.local()
        self._all: list[Any] = []
        self._lock = threading.Lock()
        self._init_schema()

    def _connect(self, autocommit: bool = False) -> Any:
        try:
            return self._psycopg.connect(self.url, autocommit=autocommit, connect_timeout=10)
        except self._psycopg.Error as e:
            raise StoreUnavailable(f"cannot connect to PostgreSQL: {one_line(e)}") from None

    def _conn(self) -> Any:
        conn = getattr(self._local, "conn", None)
        if conn is None or conn.closed:
            conn = self._connect()
            self._local.conn = conn
            with self._lock:
                self._all = [c for c in self._all if not c.closed]
                self._all.append(conn)
        return conn

    def _unavailable(self, e: Exception) -> bool:
        """Whether a driver error means "not now" (connection, resources, read-only,
        privileges, a conflict to retry) rather than a damaged row or a bug."""
        if isinstance(e, (self._psycopg.OperationalError, self._psycopg.InterfaceError)):
            return True
        state = str(getattr(e, "sqlstate", "") or "")
        return state in ("25006", "42501") or state[:2] in ("08", "40", "53", "57", "58")

    @contextmanager
    def _tx(self, write: bool = False) -> Iterator[Any]:
        conn = self._conn()
        try:
            with conn.transaction(), conn.cursor() as cur:
                yield cur
        except self._psycopg.Error as e:
            if self._unavailable(e):
                raise StoreUnavailable(one_line(e)) from e
            raise

    def _lock_schema(self, cur: Any) -> None:
        cur.execute("SELECT pg_advisory_xact_lock(7715001)")  # one process at a time

    def _columns(self, cur: Any) -> set[str]:
        cur.execute("SELECT column_name FROM information_schema.columns "
                    "WHERE table_name = 'cove_tables' AND table_schema = current_schema()")
        return {str(r[0]) for r in cur.fetchall()}

    def _notify(self, cur: Any, table_id: str, moves: int) -> None:
        cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{table_id} {moves}"))

    def _schema_lock(self, cur: Any) -> None:
        cur.execute("SELECT pg_advisory_xact_lock(7715001)")

    def _clock(self, cur: Any) -> float:
        cur.execute("SELECT EXTRACT(EPOCH FROM clock_timestamp())")
        return float(cur.fetchone()[0])

    def listen(self, callback: Callable[[str, int], None]) -> Callable[[], None] | None:
        """LISTEN on a connection of its own; a lost connection (the database restarted)
        is made again, after a pause that grows to 30 s while it keeps failing."""
        conn = self._connect(autocommit=True)
        conn.execute(f"LISTEN {CHANNEL}")
        stop = threading.Event()
        current = [conn]

        def run() -> None:
            pause = 1.0
            while not stop.is_set():
                try:
                    if current[0].closed:
                        current[0] = self._connect(autocommit=True)
                        current[0].execute(f"LISTEN {CHANNEL}")
                        log.warning("LISTEN connection to %s made again", self.safe_url())
                        pause = 1.0
                    for note in current[0].notifies(timeout=0.5):
                        table_id, _, moves = note.payload.partition(" ")
                        if moves.isdigit():
                            callback(table_id, int(moves))
                except (self._psycopg.Error, StoreError) as e:
                    if stop.is_set():
                        return
                    log.warning("LISTEN connection failed (%s); trying again in %g s",
                                one_line(e), pause)
                    with contextlib.suppress(Exception):
                        current[0].close()
                    stop.wait(pause)
                    pause = min(30.0, pause * 2)

        thread = threading.Thread(target=run, name="cove-listen", daemon=True)
        thread.start()

        def close() -> None:
            stop.set()
            thread.join(timeout=2)
            current[0].close()

        return close
