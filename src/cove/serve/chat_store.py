"""The chat's rows in the store (see :mod:`cove.serve.chat`): ``cove_chat`` holds every
message of every table, numbered from 0 per table; ``cove_chat_open`` the tables whose
spectators may write. Mixed into the SQL stores (:class:`ChatRows`) and made with their
schema: the SQL here is the same for SQLite and PostgreSQL."""

from __future__ import annotations

import time
from contextlib import AbstractContextManager
from typing import Any

CHAT_MAX = 500
"""The longest message, in characters."""

CHAT_LIST = 200
"""The most messages one read returns (the most recent after ``since``)."""

CHAT_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS cove_chat (
        table_id TEXT NOT NULL,
        n INTEGER NOT NULL,
        seat INTEGER,
        name TEXT NOT NULL DEFAULT '',
        text TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, n))""",
    "CREATE TABLE IF NOT EXISTS cove_chat_open (table_id TEXT PRIMARY KEY)",
)
"""Run with the store's own schema (``IF NOT EXISTS``: a database made before chat gets
them when a server opens it)."""


def message(n: int, seat: int | None, name: str, text: str, at: float) -> dict[str, Any]:
    """A message as the API shows it."""
    return {"n": n, "seat": seat, "name": name, "text": text, "at": at}


class ChatRows:
    """The store's chat rows (mixed into :class:`cove.serve.store._SqlStore`, which gives
    ``_tx`` and ``_sql``)."""

    def _tx(self, write: bool = False) -> AbstractContextManager[Any]:
        raise NotImplementedError

    def _sql(self, text: str) -> str:
        raise NotImplementedError

    def add_chat(self, table_id: str, seat: int | None, name: str, text: str
                 ) -> dict[str, Any]:
        """Store a message as the table's next one; returns it as the API shows it."""
        now = time.time()
        with self._tx(write=True) as cur:
            # the table's row lock (PostgreSQL) orders the messages of processes sharing the
            # database, so two never take the same number; SQLite's write lock already does
            cur.execute(self._sql("UPDATE cove_tables SET updated = updated WHERE id = ?"),
                        (table_id,))
            cur.execute(self._sql("SELECT COALESCE(MAX(n), -1) + 1 FROM cove_chat "
                                  "WHERE table_id = ?"), (table_id,))
            n = int(cur.fetchone()[0])
            cur.execute(self._sql("INSERT INTO cove_chat (table_id, n, seat, name, text, at) "
                                  "VALUES (?, ?, ?, ?, ?, ?)"),
                        (table_id, n, seat, name, text, now))
        return message(n, seat, name, text, now)

    def chat(self, table_id: str, since: int, limit: int = CHAT_LIST) -> list[dict[str, Any]]:
        """The table's messages numbered ``since`` and later, oldest first (the latest
        ``limit`` of them)."""
        with self._tx() as cur:
            cur.execute(self._sql("SELECT n, seat, name, text, at FROM cove_chat "
                                  "WHERE table_id = ? AND n >= ? ORDER BY n DESC LIMIT ?"),
                        (table_id, since, limit))
            rows = cur.fetchall()
        return [message(int(n), None if seat is None else int(seat), str(name), str(text),
                        float(at)) for n, seat, name, text, at in reversed(rows)]

    def open_chat(self, table_id: str) -> None:
        """Let the table's spectators write."""
        with self._tx(write=True) as cur:
            cur.execute(self._sql("INSERT INTO cove_chat_open (table_id) VALUES (?)"),
                        (table_id,))

    def chat_is_open(self, table_id: str) -> bool:
        """Whether the table's spectators may write."""
        with self._tx() as cur:
            cur.execute(self._sql("SELECT 1 FROM cove_chat_open WHERE table_id = ?"),
                        (table_id,))
            return cur.fetchone() is not None
