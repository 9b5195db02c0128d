"""Where tables live: SQLite (the standard library) or PostgreSQL (psycopg 3).

Event-sourced: a table row holds the game, player count, options, seed and seats (human
seats only as a hash of their token), and one ``cove_moves`` row per applied move. A move
is committed together with the table's new state snapshot (``state.to_json()``) and move
count in one transaction, guarded by the count the mover saw (``WHERE moves = n``), so two
processes (or two racing requests) can never both apply move ``n``, and a crash leaves
either the whole move or none of it. A snapshot is taken every
``SNAPSHOT_EVERY`` moves and at the end (a long game's state is a few hundred kilobytes,
too much to write at every move); a table is restored from its last snapshot plus the moves
after it, replayed through their exact text as records are.

Every method is blocking and thread-safe (one connection per thread); the server calls
them from worker threads, never on its event loop. Writes come from one writer thread that
commits the moves of many tables together (:meth:`Store.append_many`: one transaction, each
move still guarded on its own), so tables never queue for the database's write lock; reads
never take that lock.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from cove.core.errors import CoveError

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 32
"""Moves between two stored snapshots of a table's state."""

CHANNEL = "cove_tables"
"""PostgreSQL NOTIFY channel: payload ``"<table id> <moves>"`` after every commit."""

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
        state TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS cove_moves (
        table_id TEXT NOT NULL REFERENCES cove_tables (id),
        n INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, n))""",
    "CREATE INDEX IF NOT EXISTS cove_tables_over ON cove_tables (over, updated)",
    "CREATE INDEX IF NOT EXISTS cove_tables_bot_turn ON cove_tables (bot_turn)",
)

_COLUMNS = ("id, game, players, options, seed, seats, created, updated, moves, over, "
            "snap_moves, bot_turn")


@dataclass(frozen=True)
class Move:
    """One move to commit: move ``n`` (0-based) of a table, by ``seat``, as its exact text;
    ``snapshot`` gives the new state's ``to_json()`` when one is due."""

    table_id: str
    n: int
    seat: int
    action: str
    over: bool
    snapshot: Callable[[], dict[str, Any]] | None = None
    bot_turn: bool = False


class StoreError(CoveError):
    """A database URL that cannot be used (unknown scheme, missing driver, no server)."""


@dataclass(frozen=True)
class TableRow:
    """One stored table. ``seats`` is JSON-ready: ``[{"kind": "human", "token_hash": ...}
    | {"kind": "bot", "spec": "random"}]``; ``state`` is ``state.to_json()`` (None when only
    the summary was read) taken after ``snap_moves`` moves, and ``tail`` the moves
    (seat, text) after it."""

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


class Store(Protocol):
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
               with_state: bool = False, bot_turn: bool = False) -> list[TableRow]:
        """Tables, most recently active first; ``bot_turn``: only those a bot is to move
        at."""
        ...

    def moves(self, table_id: str) -> list[tuple[int, str]]: ...

    def listen(self, callback: Callable[[str, int], None]) -> Callable[[], None] | None:
        """Call ``callback(table_id, moves)`` (from another thread) when another process
        commits a move; returns a function that stops listening, or None when the
        database cannot tell (SQLite: one process per file)."""
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


def _row(r: Sequence[Any], tail: Sequence[tuple[int, str]] = ()) -> TableRow:
    state = r[12] if len(r) > 12 else None
    return TableRow(id=r[0], game=r[1], players=int(r[2]), options=json.loads(r[3]),
                    seed=int(r[4]), seats=json.loads(r[5]), created=float(r[6]),
                    updated=float(r[7]), moves=int(r[8]), over=bool(r[9]),
                    snap_moves=int(r[10]), bot_turn=bool(r[11]),
                    state=None if state is None else json.loads(state), tail=tuple(tail))


class _SqlStore:
    """The SQL both databases share; subclasses give connections and placeholders."""

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

    def _init_schema(self) -> None:
        with self._tx(write=True) as cur:
            for stmt in SCHEMA:
                cur.execute(stmt)

    def close(self) -> None:
        with self._lock:
            for conn in self._all:
                conn.close()
            self._all.clear()

    def create(self, row: TableRow) -> None:
        with self._tx(write=True) as cur:
            cur.execute(self._sql(
                f"INSERT INTO cove_tables ({_COLUMNS}, state) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)"),
                (row.id, row.game, row.players, json.dumps(row.options), row.seed,
                 json.dumps(row.seats), row.created, row.updated, row.moves, int(row.over),
                 row.moves, int(row.bot_turn), json.dumps(row.state, separators=(",", ":"))))

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
        order = sorted(range(len(moves)), key=lambda i: (moves[i].table_id, moves[i].n))
        with self._tx(write=True) as cur:
            for i in order:
                m, snap = moves[i], snaps[i]
                if snap is None:
                    cur.execute(self._sql("UPDATE cove_tables SET moves = ?, over = ?, "
                                          "updated = ?, bot_turn = ? WHERE id = ? AND moves = ?"),
                                (m.n + 1, int(m.over), now, int(m.bot_turn), m.table_id, m.n))
                else:
                    cur.execute(self._sql("UPDATE cove_tables SET moves = ?, over = ?, "
                                          "updated = ?, bot_turn = ?, snap_moves = ?, state = ? "
                                          "WHERE id = ? AND moves = ?"),
                                (m.n + 1, int(m.over), now, int(m.bot_turn), m.n + 1, snap,
                                 m.table_id, m.n))
                if cur.rowcount != 1:
                    continue  # the table moved on meanwhile: this move is not applied
                cur.execute(self._sql("INSERT INTO cove_moves (table_id, n, seat, action, at) "
                                      "VALUES (?,?,?,?,?)"), (m.table_id, m.n, m.seat, m.action,
                                                             now))
                self._notify(cur, m.table_id, m.n + 1)
                done[i] = True
        return done

    def load(self, table_id: str) -> TableRow | None:
        with self._tx() as cur:
            cur.execute(self._sql(f"SELECT {_COLUMNS}, state FROM cove_tables WHERE id = ?"),
                        (table_id,))
            r = cur.fetchone()
            if r is None:
                return None
            cur.execute(self._sql("SELECT seat, action FROM cove_moves WHERE table_id = ? "
                                  "AND n >= ? ORDER BY n"), (table_id, r[10]))
            tail = [(int(a), str(b)) for a, b in cur.fetchall()]
        return _row(r, tail)

    def tables(self, *, over: bool | None = None, limit: int = 100,
               with_state: bool = False, bot_turn: bool = False) -> list[TableRow]:
        cols = _COLUMNS + (", state" if with_state else "")
        conds: list[str] = []
        args: tuple[int, ...] = ()
        if over is not None:
            conds, args = ["over = ?"], (int(over),)
        if bot_turn:
            conds.append("bot_turn = 1")
        where = (" WHERE " + " AND ".join(conds)) if conds else ""
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
                    tails.setdefault(tid, []).append((int(seat), str(action)))
        return [_row(r, tails.get(r[0], ())) for r in rows]

    def moves(self, table_id: str) -> list[tuple[int, str]]:
        with self._tx() as cur:
            cur.execute(self._sql("SELECT seat, action FROM cove_moves WHERE table_id = ? "
                                  "ORDER BY n"), (table_id,))
            return [(int(s), str(a)) for s, a in cur.fetchall()]

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
            except sqlite3.Error as e:
                raise StoreError(f"cannot open the database {self.path!r}: {e}") from None
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")  # WAL: durable across process kills
            conn.execute("PRAGMA foreign_keys=ON")
            self._local.conn = conn
            with self._lock:
                self._all.append(conn)
        return conn

    @contextmanager
    def _tx(self, write: bool = False) -> Iterator[sqlite3.Cursor]:
        conn = self._conn()
        cur = conn.cursor()
        # a writer takes the write lock at once (no upgrade deadlock); readers never take it
        cur.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        try:
            yield cur
        except BaseException:
            conn.rollback()
            raise
        else:
            conn.commit()
        finally:
            cur.close()

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
            return self._psycopg.connect(self.url, autocommit=autocommit)
        except self._psycopg.Error as e:
            raise StoreError(f"cannot connect to PostgreSQL: {str(e).strip()}") from None

    def _conn(self) -> Any:
        conn = getattr(self._local, "conn", None)
        if conn is None or conn.closed:
            conn = self._connect()
            self._local.conn = conn
            with self._lock:
                self._all.append(conn)
        return conn

    @contextmanager
    def _tx(self, write: bool = False) -> Iterator[Any]:
        conn = self._conn()
        with conn.transaction(), conn.cursor() as cur:
            yield cur

    def _init_schema(self) -> None:
        with self._tx(write=True) as cur:  # one process at a time creates the schema
            cur.execute("SELECT pg_advisory_xact_lock(7715001)")
            for stmt in SCHEMA:
                cur.execute(stmt)

    def _notify(self, cur: Any, table_id: str, moves: int) -> None:
        cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{table_id} {moves}"))

    def _schema_lock(self, cur: Any) -> None:
        cur.execute("SELECT pg_advisory_xact_lock(7715001)")

    def _clock(self, cur: Any) -> float:
        cur.execute("SELECT EXTRACT(EPOCH FROM clock_timestamp())")
        return float(cur.fetchone()[0])

    def listen(self, callback: Callable[[str, int], None]) -> Callable[[], None] | None:
        conn = self._connect(autocommit=True)
        conn.execute(f"LISTEN {CHANNEL}")
        stop = threading.Event()

        def run() -> None:
            while not stop.is_set():
                try:
                    for note in conn.notifies(timeout=0.5):
                        table_id, _, moves = note.payload.partition(" ")
                        if moves.isdigit():
                            callback(table_id, int(moves))
                except self._psycopg.Error as e:
                    if not stop.is_set():
                        log.warning("LISTEN connection failed: %s", e)
                    return

        thread = threading.Thread(target=run, name="cove-listen", daemon=True)
        thread.start()

        def close() -> None:
            stop.set()
            thread.join(timeout=2)
            conn.close()

        return close
