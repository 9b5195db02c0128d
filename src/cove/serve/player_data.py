"""What the store keeps about named players beyond their name: the seats they took (for
"My games"), the ratings of each game's pool, the rated tables and whether each was
counted, webhooks, and the turns a webhook was called for.

A mixin of the SQL stores (:class:`cove.serve.store._SqlStore`): the same SQL for SQLite
and PostgreSQL (``?`` placeholders, rewritten for psycopg), its tables made by the store's
own schema set-up (:meth:`PlayerData._init_player_data`), so a database made before them
gets them when a server opens it. Every method is blocking, as the store's are.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol

PLAYER_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS cove_player_seats (
        player_hash TEXT NOT NULL,
        table_id TEXT NOT NULL,
        seat INTEGER NOT NULL,
        PRIMARY KEY (player_hash, table_id, seat))""",
    """CREATE TABLE IF NOT EXISTS cove_rated (
        table_id TEXT PRIMARY KEY,
        counted DOUBLE PRECISION,
        note TEXT NOT NULL DEFAULT '')""",
    """CREATE TABLE IF NOT EXISTS cove_ratings (
        game TEXT NOT NULL,
        who TEXT NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL,
        updated DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game, who))""",
    """CREATE TABLE IF NOT EXISTS cove_webhooks (
        player_hash TEXT PRIMARY KEY,
        url TEXT NOT NULL,
        base TEXT NOT NULL,
        updated DOUBLE PRECISION NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS cove_turn_calls (
        table_id TEXT NOT NULL,
        seat INTEGER NOT NULL,
        turn INTEGER NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, seat, turn))""",
)
PLAYER_TABLES = ("cove_player_seats", "cove_rated", "cove_ratings", "cove_webhooks",
                 "cove_turn_calls")


@dataclass(frozen=True)
class Rating:
    """One entry of a game's pool: ``who`` is ``p:<key hash>`` (a named player) or
    ``bot:<spec>``; ``name`` the player's name (the spec for a bot)."""

    who: str
    mu: float
    sigma: float
    games: int
    name: str = ""

    @property
    def bot(self) -> bool:
        return self.who.startswith("bot:")


Update = Callable[[dict[str, Rating]], dict[str, tuple[float, float]]]
"""Given the pool's current entries of a game's participants (those without one are left
out), their new (mu, sigma)."""


class PlayerStore(Protocol):
    """The methods :class:`PlayerData` gives a store (the server's view of them)."""

    def player_seats(self, key_hash: str, limit: int) -> list[dict[str, Any]]:
        """The tables where the player took a seat, unfinished ones first, each most
        recently active first: ``{"id", "seat", "rated", "game", "players", "moves",
        "over", "created", "updated", "seats"}`` (``seats`` as stored)."""
        ...

    def mark_rated(self, table_id: str) -> None: ...

    def is_rated(self, table_id: str) -> bool: ...

    def uncounted(self) -> list[str]:
        """Rated tables whose game is over and not yet counted (or refused)."""
        ...

    def settle(self, table_id: str, game: str, who: Sequence[str], update: Update | None,
               note: str) -> bool:
        """Count a rated table once: in one transaction, mark it counted (with ``note``)
        unless it was already, read the participants' ratings, and write what ``update``
        makes of them (None: nothing to rate, only the note). False when it was counted
        already (by this process or another)."""
        ...

    def ratings(self, game: str, who: Sequence[str] | None = None,
                limit: int = 100) -> list[Rating]:
        """A game's pool (or the given entries), best ordinal first."""
        ...

    def set_webhook(self, key_hash: str, url: str | None, base: str) -> None: ...

    def webhook(self, key_hash: str) -> tuple[str, str] | None:
        """(url, base of the table links) of the player's webhook, or None."""
        ...

    def claim_turn(self, table_id: str, seat: int, turn: int) -> bool:
        """True the first time only (any process) that ``(table, seat, turn)`` is claimed."""
        ...


class PlayerData:
    """The SQL of :class:`PlayerStore`, mixed into the SQL stores."""

    mark: str

    def _sql(self, text: str) -> str:
        raise NotImplementedError

    def _tx(self, write: bool = False) -> AbstractContextManager[Any]:
        raise NotImplementedError

    @property
    def _postgres(self) -> bool:
        return self.mark != "?"

    def _init_player_data(self, cur: Any) -> None:
        """Make the tables (inside the store's schema transaction); a database whose
        named seats predate ``cove_player_seats`` has them indexed once."""
        for stmt in PLAYER_SCHEMA:
            cur.execute(stmt)
        cur.execute("SELECT COUNT(*) FROM cove_player_seats")
        if cur.fetchone()[0]:
            return
        cur.execute("SELECT id, seats FROM cove_tables WHERE seats LIKE '%\"player\"%'")
        for table_id, seats in cur.fetchall():
            try:
                parsed = json.loads(seats)
            except ValueError:
                continue
            if isinstance(parsed, list):
                self._index_seats(cur, str(table_id), parsed)

    def _index_seats(self, cur: Any, table_id: str, seats: list[Any]) -> None:
        """Note who sits where (inside the transaction that stores the seats)."""
        for i, s in enumerate(seats):
            hashed = s.get("player") if isinstance(s, dict) else None
            if isinstance(hashed, str):
                cur.execute(self._sql("INSERT INTO cove_player_seats (player_hash, table_id, "
                                      "seat) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"),
                            (hashed, table_id, i))

    def player_seats(self, key_hash: str, limit: int) -> list[dict[str, Any]]:
        names = ("id", "seat", "rated", "game", "players", "moves", "over", "created",
                 "updated", "seats")
        with self._tx() as cur:
            cur.execute(self._sql(
                "SELECT s.table_id, s.seat, r.table_id IS NOT NULL, t.game, t.players, "
                "t.moves, t.over, t.created, t.updated, t.seats FROM cove_player_seats s "
                "JOIN cove_tables t ON t.id = s.table_id "
                "LEFT JOIN cove_rated r ON r.table_id = s.table_id "
                "WHERE s.player_hash = ? AND t.closed = 0 "
                "ORDER BY t.over, t.updated DESC LIMIT ?"), (key_hash, limit))
            rows = cur.fetchall()
        out = []
        for r in rows:
            entry = dict(zip(names, r, strict=True))
            try:
                entry["seats"] = json.loads(entry["seats"])
            except ValueError:
                continue  # a damaged row: the table itself is quarantined when asked for
            entry.update(rated=bool(entry["rated"]), over=bool(entry["over"]))
            out.append(entry)
        return out

    def mark_rated(self, table_id: str) -> None:
        with self._tx(write=True) as cur:
            cur.execute(self._sql("INSERT INTO cove_rated (table_id) VALUES (?) "
                                  "ON CONFLICT DO NOTHING"), (table_id,))

    def is_rated(self, table_id: str) -> bool:
        with self._tx() as cur:
            cur.execute(self._sql("SELECT 1 FROM cove_rated WHERE table_id = ?"), (table_id,))
            return cur.fetchone() is not None

    def uncounted(self) -> list[str]:
        with self._tx() as cur:
            cur.execute("SELECT r.table_id FROM cove_rated r JOIN cove_tables t "
                        "ON t.id = r.table_id WHERE r.counted IS NULL AND t.over = 1")
            return [str(r[0]) for r in cur.fetchall()]

    def settle(self, table_id: str, game: str, who: Sequence[str], update: Update | None,
               note: str) -> bool:
        with self._tx(write=True) as cur:
            if self._postgres:  # rating updates one at a time (SQLite: the write lock)
                cur.execute("SELECT pg_advisory_xact_lock(7715002)")
            now = time.time()
            cur.execute(self._sql("UPDATE cove_rated SET counted = ?, note = ? WHERE "
                                  "table_id = ? AND counted IS NULL"), (now, note, table_id))
            if cur.rowcount != 1:
                return False
            if update is None:
                return True
            have = {r.who: r for r in self._read_ratings(cur, game, who)}
            for entry, (mu, sigma) in update(have).items():
                cur.execute(self._sql(
                    "INSERT INTO cove_ratings (game, who, mu, sigma, games, updated) "
                    "VALUES (?, ?, ?, ?, 1, ?) ON CONFLICT (game, who) DO UPDATE SET "
                    "mu = excluded.mu, sigma = excluded.sigma, "
                    "games = cove_ratings.games + 1, updated = excluded.updated"),
                    (game, entry, mu, sigma, now))
            return True

    def _read_ratings(self, cur: Any, game: str, who: Sequence[str] | None,
                      limit: int = 10**6) -> Iterator[Rating]:
        args: tuple[Any, ...] = (game,)
        cond = ""
        if who is not None:
            if not who:
                return
            cond = " AND r.who IN (" + ",".join("?" * len(who)) + ")"
            args += tuple(who)
        cur.execute(self._sql(
            "SELECT r.who, r.mu, r.sigma, r.games, p.name FROM cove_ratings r "
            "LEFT JOIN cove_players p ON r.who = 'p:' || p.key_hash "
            f"WHERE r.game = ?{cond} ORDER BY r.mu - 3 * r.sigma DESC, r.games DESC, r.who "
            "LIMIT ?"), (*args, limit))
        for w, mu, sigma, games, name in cur.fetchall():
            w = str(w)
            yield Rating(w, float(mu), float(sigma), int(games),
                         str(name) if name is not None else w.partition(":")[2])

    def ratings(self, game: str, who: Sequence[str] | None = None,
                limit: int = 100) -> list[Rating]:
        with self._tx() as cur:
            return list(self._read_ratings(cur, game, who, limit))

    def set_webhook(self, key_hash: str, url: str | None, base: str) -> None:
        with self._tx(write=True) as cur:
            if url is None:
                cur.execute(self._sql("DELETE FROM cove_webhooks WHERE player_hash = ?"),
                            (key_hash,))
                return
            cur.execute(self._sql(
                "INSERT INTO cove_webhooks (player_hash, url, base, updated) VALUES "
                "(?, ?, ?, ?) ON CONFLICT (player_hash) DO UPDATE SET url = excluded.url, "
                "base = excluded.base, updated = excluded.updated"),
                (key_hash, url, base, time.time()))

    def webhook(self, key_hash: str) -> tuple[str, str] | None:
        with self._tx() as cur:
            cur.execute(self._sql("SELECT url, base FROM cove_webhooks WHERE player_hash = ?"),
                        (key_hash,))
            row = cur.fetchone()
        return None if row is None else (str(row[0]), str(row[1]))

    def claim_turn(self, table_id: str, seat: int, turn: int) -> bool:
        with self._tx(write=True) as cur:
            cur.execute(self._sql("INSERT INTO cove_turn_calls (table_id, seat, turn, at) "
                                  "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING"),
                        (table_id, seat, turn, time.time()))
            return bool(cur.rowcount == 1)
