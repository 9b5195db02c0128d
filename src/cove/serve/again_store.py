"""The store's rows for "play again" (see :mod:`cove.serve.again`): ``cove_again`` links
a finished table to the new table of the same game and seats its players started, once.
Mixed into the SQL stores (:class:`AgainRows`) and made with their schema; the SQL is the
same for SQLite and PostgreSQL."""

from __future__ import annotations

import time
from contextlib import AbstractContextManager
from typing import Any

AGAIN_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS cove_again (
        table_id TEXT PRIMARY KEY,
        again_id TEXT NOT NULL,
        seat INTEGER NOT NULL,
        at DOUBLE PRECISION NOT NULL)""",
)
"""Run with the store's own schema (``IF NOT EXISTS``: older databases get it)."""


class AgainRows:
    """Which table a finished one's players went on to (mixed into the SQL stores, which
    give ``_tx`` and ``_sql``)."""

    def _tx(self, write: bool = False) -> AbstractContextManager[Any]:
        raise NotImplementedError

    def _sql(self, text: str) -> str:
        raise NotImplementedError

    def add_again(self, table_id: str, again_id: str, seat: int) -> bool:
        """Link ``table_id`` to its new game ``again_id`` (started by ``seat``); False when
        it has one already (nothing written)."""
        with self._tx(write=True) as cur:
            cur.execute(self._sql("SELECT 1 FROM cove_again WHERE table_id = ?"), (table_id,))
            if cur.fetchone() is not None:
                return False
            cur.execute(self._sql("INSERT INTO cove_again (table_id, again_id, seat, at) "
                                  "VALUES (?, ?, ?, ?)"), (table_id, again_id, seat, time.time()))
        return True

    def again(self, table_id: str) -> tuple[str, int] | None:
        """The new game of ``table_id`` and the seat that started it, or None."""
        with self._tx() as cur:
            cur.execute(self._sql("SELECT again_id, seat FROM cove_again WHERE table_id = ?"),
                        (table_id,))
            row = cur.fetchone()
        return None if row is None else (str(row[0]), int(row[1]))
