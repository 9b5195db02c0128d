"""The live tables of one server process: the only place moves are applied.

A :class:`Hub` keeps every table it has touched in memory (its :class:`State`, seats and
connected clients) and the store on disk. A move (a human's over HTTP or websocket, or a
bot's) is applied to a clone of the table's state under the table's lock, committed to the
store with the move count it was made at, and only then becomes the table's state and is
pushed to the table's connections. One update is rendered and encoded once per seat (and
once for all spectators), however many connections share it. Moves of all tables are
committed by one writer thread, many in one transaction (group commit), so no table waits
for the database's write lock. Bots think in worker processes (one pipe each,
:mod:`cove.bots.worker`), never in the server's interpreter: the workers are shared
fairly between tables and every move is held to the server's budget
(``Settings.bot_budget``). A bot's move goes through the same path as a human's, and is
thrown away and thought again when the table moved on meanwhile; a move whose write
failed is written again until the store takes it. A bot that raises, returns an illegal
move or takes longer than ``Settings.bot_timeout`` is tried once more, then a random legal
move is played for it; either way the failure is logged and the table's clients are
told. Tables of bots only play at a gentle pace and are archived when nobody watches;
with several processes on one database, one process (the holder of the table's lease in
the store) plays a table's bots.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import functools
import hashlib
import hmac
import json
import logging
import math
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import orjson

import cove
from cove.bots import LEVELS, make_bot
from cove.bots.budget import MAX_SPEC, Budget, check_spec
from cove.bots.worker import BotError, ProcessBots, think, think_within
from cove.core.actions import legal_forms
from cove.core.errors import CoveError, IllegalAction
from cove.core.game import Game
from cove.core.rng import Rng
from cove.core.state import Action, State
from cove.core.undo import before_last, why_not
from cove.serve import timing
from cove.serve.entries import replay_moves
from cove.serve.errors import (
    ApiError,
    RestoreError,
    Unavailable,
    quarantined,
    still_open,
)
from cove.serve.limits import Buckets
from cove.serve.ratings import Ratings
from cove.serve.store import (
    SNAPSHOT_EVERY,
    UNDO,
    Move,
    Store,
    StoreUnavailable,
    TableRow,
    one_line,
    redact_url,
)
from cove.serve.webhooks import Webhooks
from cove.terminal import HINT_BOT

if TYPE_CHECKING:
    from cove.serve.timing import Timing

log = logging.getLogger(__name__)

T = TypeVar("T")

SEED_LIMIT = 2**63
QUICK_BOTS = frozenset({"random", "greedy"})
"""Bots whose move usually takes a millisecond (``Settings.bot_processes=None`` keeps them in
threads)."""
MAX_SEATS_TEXT = MAX_SPEC


@dataclass(frozen=True)
class Settings:
    """Server limits and workers (all have defaults that suit a small server)."""

    db: str = "sqlite:///cove.db"
    max_body: int = 64 * 1024
    """Largest HTTP body or websocket message accepted, in bytes (413 / close 1009)."""
    rate: float = 10.0
    """Sustained moves per second per seat, over HTTP and all its websockets together
    (and, doubled, reads per client address, unless ``read_rate`` is set)."""
    burst: int = 30
    """How many may come at once before the rate applies (429 / an error message)."""
    create_rate: float = 0.2
    create_burst: int = 10
    """Tables a client (by address) may create: per second, and at once."""
    bot_workers: int = 2
    """Threads, and processes, in which bots think."""
    bot_processes: bool | None = True
    """Where bots think. True: every bot in worker processes, where no bot can hold the
    interpreter lock the event loop needs (``greedy:samples=32`` thinks for seconds on a
    large board), with the workers shared fairly between tables and a bot that overruns
    stopped; False: in threads of the server (for tests and embedding: a thread can be
    neither stopped nor shared fairly); None: search bots in processes and ``random`` and
    ``greedy`` in threads."""
    list_limit: int = 100
    queue_limit: int = 256
    """Updates waiting for a slow websocket client before it is disconnected."""
    bot_timeout: float = 10.0
    """Seconds (wall clock) before a bot that has not answered gets a fallback move (its
    worker process is killed); keep it above ``bot_budget``, which bots stop at."""
    bot_tries: int = 2
    """Times a bot is asked (after it raised or timed out) before the fallback move."""
    commit_batch: int = 256
    """Most moves committed in one transaction."""

    # -- edge: connections and requests
    max_connections: int = 1000
    """Open TCP connections (HTTP and websockets) in all; past it a new one is answered
    503 with Retry-After and closed. Kept below the process's file limit (``run``)."""
    client_connections: int = 32
    """Open TCP connections from one client address (an IPv6 client: its /64); past it
    429. A trusted proxy's own address is not capped (its clients are, by websocket)."""
    max_websockets: int = 500
    """Open websockets in all (each costs about 40 KiB); past it error 503, close 1013."""
    client_websockets: int = 16
    """Open websockets per client address (forwarded address behind a trusted proxy);
    past it error 429, close 1013."""
    header_timeout: float = 5.0
    """Seconds for a request's headers to arrive (from the connection, or the request's
    first byte); then 408 and closed. An idle new connection is closed without answer."""
    body_timeout: float = 10.0
    """Seconds for a request's body to arrive after its headers; then 408 and closed."""
    idle_timeout: float = 5.0
    """Seconds a kept-alive HTTP connection may wait for its next request."""
    retry_after: int = 5
    """The Retry-After (seconds) of a refused connection or websocket."""
    read_rate: float | None = None
    """Reads per second per client address (table, record, board, replay, listings,
    websocket messages other than moves); None: twice ``rate`` (a client reads about
    twice per move)."""
    read_burst: int | None = None
    """Reads at once per client address before ``read_rate`` applies; None: twice
    ``burst``."""
    max_tables: int = 500
    """Live tables (not over, and played or watched within ``table_idle``) in this
    process; past it creation is refused with 503."""
    max_bots: int = 200
    """Bot seats of live tables in this process; past it creation is refused with 503."""
    client_tables: int | None = None
    """Live tables one client address may have created; past it 429. None: twice
    ``create_burst`` (20 by default)."""
    table_idle: float = 1800.0
    """Seconds after its last move that a table nobody watches stops counting as live."""
    open_idle: float = 86400.0
    """Seconds after its last move (or its creation) that an unfinished table leaves the
    open tables listed (``GET /api/tables``, the lobby): abandoned ones drop out. It is
    still served at its links."""
    forwarded_allow_ips: str = ""
    """Proxies (addresses or networks, comma-separated; ``*``: any) whose
    ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed; empty: none, the peer
    address is the client."""

    # -- bots: budgets, fair workers, pacing, idle tables and leases
    bot_budget: float = 2.0
    """Seconds of thinking one bot move may take (``--bot-budget``): a search stops at it,
    a worker's move is stopped at twice its CPU time, and a seat spec that asks for more
    (iterations, steps, time, scale, samples beyond what it implies:
    :class:`cove.bots.budget.Budget`) is refused at creation with 422."""
    bot_share: int = 0
    """Most worker processes one table's bots may hold at once (``--bot-share``); 0: half
    the workers, at least one. A free worker goes to the waiting table with the fewest
    running, so a table with many slow bots waits its turn while others still move."""
    bot_pace: float = 2.0
    """Moves per second a table of bots only plays at most (``--bot-pace``); 0: as fast
    as its bots think."""
    bot_idle: float = 120.0
    """Seconds a table of bots only plays on with nobody watching (no websocket, no
    request) before it is archived (``--bot-idle``): its bots stop, it leaves memory and
    is not restored at start-up, until someone asks for it again; 0: never."""
    bot_lease: float = 15.0
    """Seconds a process's claim on a table's bots lasts (``--bot-lease``; several
    processes on one PostgreSQL): the claiming process renews it while its bots play, and
    another takes the bots over once it lapses (a process killed with its claim)."""

    # -- "your turn" webhooks (cove.serve.webhooks)
    webhook_hosts: str = "*"
    """Hosts a player's webhook may name (``--webhook-hosts``): ``*`` any public host,
    a comma-separated list (``discord.com,hooks.slack.com``; ``.example.org``: its
    subdomains too), or ``none``: no webhooks."""
    webhook_private: bool = False
    """Also call hosts at private, loopback and reserved addresses (``--webhook-private``;
    for tests and closed networks)."""
    webhook_rate: float = 0.1
    """Webhook calls per second per player (one every 10 s), past ``webhook_burst``."""
    webhook_burst: int = 5
    webhook_tries: int = 4
    """Attempts of one call (a 5xx, a 429 or no answer is tried again)."""
    webhook_backoff: float = 2.0
    """Seconds before the second attempt; each later one waits twice as long."""
    webhook_timeout: float = 5.0
    """Seconds one attempt may take."""
    # -- chat (cove.serve.chat)
    chat_rate: float = 0.5
    """Chat messages a second one sender (a seat, or a spectator's address) may send."""
    chat_burst: int = 5
    """Chat messages one sender may send at once before ``chat_rate`` applies (429)."""


class _Throttle:
    """Logs one line per ``every`` seconds at most (a full disk fails every request), with
    how many it left out."""

    def __init__(self, every: float) -> None:
        self.every = every
        self.next = 0.0
        self.left_out = 0

    def error(self, message: str, *args: Any) -> None:
        now = time.monotonic()
        if now < self.next:
            self.left_out += 1
            return
        more = f" ({self.left_out} more since the last line)" if self.left_out else ""
        log.error(message + more, *args)
        self.next, self.left_out = now + self.every, 0


_STORE_LOG = _Throttle(10.0)


def store_failed(e: BaseException) -> BaseException:
    """A database failure as the API's 503 (logged, at most every 10 s); other errors as
    they are."""
    if not isinstance(e, StoreUnavailable):
        return e
    _STORE_LOG.error("the database failed: %s", one_line(e))
    return Unavailable()


def seed_commitment(salt: str, seed: int) -> str:
    """What a table publishes at creation: ``sha256(f"{salt}:{seed}")`` in hex. The salt (32
    random hex digits) is kept secret with the seed until the game ends, so the commitment
    cannot be searched for the seed; then both are shown and anyone can check them."""
    return hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def bot_seed(seed: int, seat: int, moves: int) -> int:
    """A bot's seed for one decision: from the table's seed, its seat and the move count,
    so a restarted server plays the same bot moves."""
    digest = hashlib.sha256(f"{seed}:{seat}:{moves}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def fallback_move(state: State, seat: int, seed: int) -> Action:
    """The move played for a bot that failed: a legal one, drawn from the bot's seed."""
    legal = state.legal_actions(seat)
    return legal[Rng(seed).below(len(legal))]


def encode_bytes(message: Any) -> bytes:
    """Compact JSON (orjson: a tenth of the standard library's time on a table's view)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)


def encode(message: dict[str, Any]) -> str:
    """A message as compact JSON text, made once and sent to every connection sharing it."""
    return encode_bytes(message).decode()


class GroupCommit:
    """Moves of every table go to one writer thread; each transaction commits all the moves
    that arrived while the previous one ran (at most ``batch``). A move's future is True
    once it is committed, False when its table had moved on."""

    def __init__(self, store: Store, batch: int) -> None:
        self.store = store
        self.batch = batch
        self.writer = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="cove-write")
        self.pending: list[tuple[Move, asyncio.Future[bool]]] = []
        self.running: asyncio.Task[None] | None = None
        self.transactions = 0

    async def append(self, move: Move) -> bool:
        fut: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.pending.append((move, fut))
        if self.running is None:
            self.running = asyncio.ensure_future(self._drain())
        return await fut

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Another write (a new table) on the writer thread, in turn with the moves."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.writer, fn, *args)
        except StoreUnavailable as e:
            raise store_failed(e) from None

    async def _drain(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self.pending:
                batch, self.pending = self.pending[:self.batch], self.pending[self.batch:]
                try:
                    done = await loop.run_in_executor(
                        self.writer, self.store.append_many, [m for m, _ in batch])
                except StoreUnavailable as e:  # each waiting move gets the 503 (none applied)
                    self._fail(batch, e)
                    continue
                except Exception as e:
                    if len(batch) == 1:
                        self._fail(batch, e)
                        continue
                    # one table's damaged rows (a move already stored under its number) must
                    # not fail the other tables' moves: each is stored alone, in order
                    log.warning("a transaction of %d moves failed (%s); storing each alone",
                                len(batch), one_line(e))
                    await self._one_by_one(batch)
                    continue
                self.transactions += 1
                for (_, fut), ok in zip(batch, done, strict=True):
                    if not fut.done():
                        fut.set_result(ok)
        finally:
            self.running = None

    @staticmethod
    def _fail(batch: list[tuple[Move, asyncio.Future[bool]]], e: Exception) -> None:
        err = store_failed(e)
        for _, fut in batch:
            if not fut.done():
                fut.set_exception(err)

    async def _one_by_one(self, batch: list[tuple[Move, asyncio.Future[bool]]]) -> None:
        """Each move of a failed batch in its own transaction: only a move that fails alone
        gets an error."""
        loop = asyncio.get_running_loop()
        for move, fut in batch:
            try:
                ok = (await loop.run_in_executor(self.writer, self.store.append_many,
                                                 [move]))[0]
            except Exception as e:
                self._fail([(move, fut)], e)
                continue
            self.transactions += 1
            if not fut.done():
                fut.set_result(ok)

    def close(self) -> None:
        self.writer.shutdown(wait=True)


class Conn:
    """One websocket client: its seat (None: spectator), how many events it has been sent,
    whether it asked for the hub's extra fields (``Hub.extras``: the browser's board) and
    the queue of encoded messages its writer task drains."""

    def __init__(self, seat: int | None, send: Callable[[str], Any],
                 limit: int, close: Callable[[], Any] | None = None,
                 extras: bool = False) -> None:
        self.seat = seat
        self.extras = extras
        self.send = send
        self.close = close
        self.next_event = 0
        self.queue: asyncio.Queue[str | Lazy | None] = asyncio.Queue(maxsize=limit)
        self.dropped = False

    def push(self, message: str | Lazy | None) -> None:
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.dropped = True  # a client this far behind is disconnected
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(None)

    async def run(self) -> None:
        while True:
            message = await self.queue.get()
            if message is None:
                if self.dropped and self.close is not None:
                    await self.close()
                return
            await self.send(message if isinstance(message, str) else message())


class Lazy:
    """A message encoded by the first writer that sends it (then kept for the others):
    a broadcast queues one for every connection before any is drawn, so the first
    connection in the queue (the mover's) is sent without waiting for the others' drawing."""

    __slots__ = ("make", "text")

    def __init__(self, make: Callable[[], str]) -> None:
        self.make: Callable[[], str] | None = make
        self.text = ""

    def __call__(self) -> str:
        if self.make is not None:
            self.text, self.make = self.make(), None
        return self.text


@dataclass
class Table:
    id: str
    game: Game
    seed: int
    seats: list[dict[str, Any]]
    state: State
    created: float
    updated: float
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: set[Conn] = field(default_factory=set)
    thinking: set[int] = field(default_factory=set)
    salt: str = ""
    """Secret until the game ends (see :func:`seed_commitment`); empty for a table made
    before commitments."""
    seed_chosen: bool = False
    """The creator chose the seed, so the creator may know every hidden card."""
    seen: float = field(default_factory=time.monotonic)
    """When a client last asked for the table (``time.monotonic``)."""
    paced: float = 0.0
    """When the table's last paced bot move was due (tables of bots only)."""
    archived: bool = False
    """Unloaded while idle (tables of bots only): its bots stop; a new Table is loaded."""
    lease: float = 0.0
    """Until when (Unix time) this process holds the table's bots (several processes)."""
    claimed: bool = False
    """Whether this process has tried to claim the table's bots since it loaded it."""
    undos: int = 0
    """Undos taken at the table (:meth:`Hub.undo`)."""
    owner_hash: str = ""
    """The hash of the key its creation returned (``owner``), which closes it."""
    closed: bool = False
    """Closed by its creator (:meth:`Hub.close`): nothing more is played at it."""
    hints: dict[tuple[int, int], asyncio.Future[str]] = field(default_factory=dict)
    """The hints asked for lately, by (version, seat): one search per position and seat."""
    undo_checked: tuple[State | None, dict[int, bool]] = field(
        default_factory=lambda: (None, {}))
    """Which seats may take back their latest decision at the state named (a cache:
    :func:`cove.core.undo.why_not` replays the game)."""
    timing: Timing | None = None
    """Its clock and bot takeovers (:mod:`cove.serve.timing`); None: no clock."""

    @property
    def bots_only(self) -> bool:
        return all(s["kind"] == "bot" for s in self.seats)

    @property
    def moves(self) -> int:
        return self.state.decisions

    @property
    def named(self) -> int:
        """How many seats a named player took (names are never taken back, so this and
        ``version`` name what the table shows)."""
        return sum(1 for s in self.seats if "name" in s)

    @property
    def version(self) -> int:
        """Entries in the table's log (moves and undos): it grows with each, where ``moves``
        goes down by an undo, so it names a position for caches and clients."""
        return self.moves + 2 * self.undos

    def can_undo(self, seat: int | None) -> bool:
        """Whether ``seat``'s person may take back their latest decision now: the game is
        not over (its seed is public then) and :func:`cove.core.undo.why_not` allows it."""
        if seat is None or not self._decided_last(seat):
            return False  # the quick answer most of the time
        known = self._undo_known(self.state)
        if seat not in known:
            known[seat] = not why_not(self.state, seat)
        return known[seat]

    async def check_undo(self, seat: int) -> None:
        """Work out :meth:`can_undo` for ``seat`` in a worker thread (it replays the game:
        up to 20 ms in a long game), so the updates pushed next find it known."""
        st = self.state
        if self._decided_last(seat):
            ok = not await asyncio.to_thread(why_not, st.clone(), seat)
            if self.state is st:
                self._undo_known(st)[seat] = ok

    def _decided_last(self, seat: int | None) -> bool:
        """A person at ``seat`` made the latest decision of a game not over."""
        st = self.state
        if seat is None or st.is_over or self.closed or self.seats[seat]["kind"] != "human":
            return False
        history = st.history
        return bool(history) and history[-1][0] == seat

    def _undo_known(self, st: State) -> dict[int, bool]:
        at, known = self.undo_checked
        if at is not st:
            known = {}
            self.undo_checked = (st, known)
        return known

    def deal(self) -> dict[str, Any]:
        """The seed's commitment (published from the start), and once the game is over the
        seed and salt that open it: ``{"commitment", "chosen"[, "seed", "salt"]}``."""
        out: dict[str, Any] = {
            "commitment": seed_commitment(self.salt, self.seed) if self.salt else None,
            "chosen": self.seed_chosen}
        if self.state.is_over:
            out["seed"] = self.seed
            out["salt"] = self.salt
        return out

    def seat_kinds(self) -> list[dict[str, Any]]:
        return [seat_info(i, s) for i, s in enumerate(self.seats)]


def seat_info(i: int, seat: dict[str, Any]) -> dict[str, Any]:
    if seat["kind"] == "bot":
        return {"seat": i, "kind": "bot", "bot": seat["spec"]}
    name = seat.get("name")
    return {"seat": i, "kind": "human", **({"name": name} if isinstance(name, str) else {})}


NAME_MAX = 24
"""The longest name a player may choose, in characters."""


def check_name(name: Any) -> str:
    """A player's chosen name, single-spaced; 422 saying what a name may be otherwise."""
    rule = (f"a name is 1 to {NAME_MAX} letters, digits, spaces or punctuation, and not a "
            "seat's own name such as P2")
    if not isinstance(name, str):
        raise ApiError(422, "bad_name", f"give your name as text: {rule}")
    text = " ".join(name.split())
    if not 1 <= len(text) <= NAME_MAX or not text.isprintable():
        raise ApiError(422, "bad_name", f"{text[:NAME_MAX + 1]!r} cannot be a name: {rule}")
    if text[0] in "Pp" and text[1:].isdigit():
        raise ApiError(422, "bad_name", f"{text!r} is a seat's own name: {rule}")
    return text


def summary(row: TableRow | Table) -> dict[str, Any]:
    """A table in the listing: no state, no tokens."""
    if isinstance(row, Table):
        game_id, players, moves, over = row.game.id, row.state.n, row.moves, row.state.is_over
        created, updated, seats = row.created, row.updated, row.seats
    else:
        game_id, players, moves, over = row.game, row.players, row.moves, row.over
        created, updated, seats = row.created, row.updated, row.seats
    return {"id": row.id, "game": game_id, "players": players, "moves": moves, "over": over,
            "seats": [seat_info(i, s) for i, s in enumerate(seats)],
            "created": created, "updated": updated}


def event_forms(state: State, seat: int | None, since: int) -> list[dict[str, Any]]:
    return [{"seq": e.seq, "kind": e.kind, "text": e.text,
             "data": None if e.data is None else dict(e.data)}
            for e in state.events(seat, since)]


Rendered = dict[tuple[int | None, int], tuple[str, int, dict[str, Any]]]
"""Updates made by one broadcast: (seat, events already sent) -> (text, next event, message)."""

Extras = Callable[["Table", State, "int | None", dict[str, Any]], dict[str, Any]]
"""Fields added to the ``state`` and ``update`` messages of the connections that asked for
them: (table, its state then, seat, the message) -> fields. The browser table draws its
board with it."""


class Hub:
    """Every live table of this process, the store, the bot pool."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.tables: dict[str, Table] = {}
        self.quarantined: dict[str, str] = {}
        """Tables whose stored data cannot be restored: id -> why (logged). A request for
        one is refused (500 ``quarantined``) until the server restarts."""
        self._loading: dict[str, asyncio.Future[Table]] = {}
        self._buckets = Buckets()
        self._creators: dict[str, str] = {}
        """Table id -> the client key that created it (live tables created here)."""
        self._live = (0, 0)
        self._live_at = -math.inf
        """Live tables and their bots, as counted at ``_live_at`` (plus those made since)."""
        self._tasks: set[asyncio.Task[Any]] = set()
        self.db_pool = concurrent.futures.ThreadPoolExecutor(4, thread_name_prefix="cove-db")
        self.commits = GroupCommit(store, settings.commit_batch)
        self.renders = 0
        """Payloads rendered for websocket updates (one per seat and update, however many
        connections share it)."""
        self.extras: Extras | None = None
        """Set by the app (the browser's board); None: no connection gets extra fields."""
        self.bot_threads: concurrent.futures.ThreadPoolExecutor | None = None
        self.bot_budget = Budget.for_seconds(settings.bot_budget)
        if settings.bot_timeout <= settings.bot_budget:
            log.warning("bot_timeout (%g s) is not above bot_budget (%g s): a bot thinking "
                        "to its budget is killed first and gets a random move",
                        settings.bot_timeout, settings.bot_budget)
        self.bot_processes = ProcessBots(settings.bot_workers, settings.bot_share,
                                         self.bot_budget)
        self.owner = secrets.token_hex(8)
        """This process's name in the store's bot leases."""
        self.shared = False
        """Whether other processes may serve the same tables (a store that tells of their
        moves): then a table's bots are played by the holder of its lease only."""
        self._stop_listen: Callable[[], None] | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.now: Callable[[], float] = time.time
        """The time clocks count by (Unix seconds); tests put a clock of their own here."""
        self.ratings = Ratings(self)
        self.webhooks = Webhooks(self)

    def in_process(self, spec: str) -> bool:
        """Whether the bot ``spec`` thinks in a worker process (see Settings)."""
        if self.settings.bot_processes is not None:
            return self.settings.bot_processes
        name = spec.partition(":")[0].strip().lower()
        name = LEVELS.get(name, name).partition(":")[0]
        return name not in QUICK_BOTS

    def bot_pool(self) -> concurrent.futures.ThreadPoolExecutor:
        """The threads quick bots think in (made when first needed)."""
        if self.bot_threads is None:
            self.bot_threads = concurrent.futures.ThreadPoolExecutor(
                self.settings.bot_workers, thread_name_prefix="cove-bot")
        return self.bot_threads

    def _replace_bot_threads(self) -> None:
        """After a bot thread timed out: new bots think in fresh threads, so none queues
        behind the stuck one (a thread cannot be ended; it is left to finish). A bot in a
        worker process needs none of this: its process alone is killed
        (:class:`cove.bots.worker.ProcessBots`)."""
        old, self.bot_threads = self.bot_threads, None
        if old is not None:
            old.shutdown(wait=False)

    # -- life cycle ------------------------------------------------------------------------
    async def start(self) -> int:
        """Load every table a bot is to move at and let its bots play on (the others are
        restored when first asked for: the restore is a millisecond or two of CPU per
        table, which a background restore would spend holding the interpreter lock the
        event loop needs); returns how many."""
        self.loop = asyncio.get_running_loop()
        try:
            rows = await self._db(self.store.tables, over=False, limit=10**9, with_state=True,
                                  bot_turn=True)
        except ApiError:
            raise  # the database cannot be read at all: the server cannot start
        except Exception as e:  # a damaged row or page: read them one by one instead
            log.error("the tables a bot is to move at cannot be read together (%s); reading "
                      "them one by one", one_line(e))
            rows = await self._db(self._rows_one_by_one)
        tables, failed = await self._db(self._from_rows, rows)
        for table_id, reason in failed:
            self._quarantine(table_id, reason)
        # known before any bot plays: with other processes, bots wait for their table's lease
        self._stop_listen = await self._db(self.store.listen, self._remote_commit)
        self.shared = self._stop_listen is not None
        if self.shared:
            self._spawn(self._keep_leases())
        for t in tables:
            self.tables[t.id] = t
            self._schedule_bots(t)
        self._spawn(self.ratings.sweep())  # rated games that ended as the server stopped
        log.info("restored %d tables where a bot is to move from %s%s", len(tables),
                 redact_url(self.store.url),
                 f"; {len(failed)} quarantined" if failed else "")
        return len(tables)

    async def stop(self) -> None:
        if self._stop_listen is not None:
            await self._db(self._stop_listen)
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        # let bots see the cancellation before their workers are ended (a bot whose worker
        # died under it would otherwise be asked again)
        await asyncio.gather(*tasks, return_exceptions=True)
        for t in self.tables.values():
            for c in t.conns:
                c.push(None)
        if self.bot_threads is not None:
            self.bot_threads.shutdown(wait=False, cancel_futures=True)
        await asyncio.to_thread(self.bot_processes.close)
        if self.shared:  # another process may take this one's bots at once
            try:
                await self._db(self.store.drop_lease, None, self.owner)
            except Exception as e:
                log.warning("could not give up this process's bot leases: %s", e)
        self.commits.close()
        self.db_pool.shutdown(wait=True)
        self.store.close()

    async def _db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``fn`` on a database thread; a database that cannot be read or written now is
        the API's 503 (:class:`Unavailable`)."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.db_pool, lambda: fn(*args, **kwargs))
        except StoreUnavailable as e:
            raise store_failed(e) from None

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- rate limits ---------------------------------------------------------------------
    def throttle(self, kind: str, who: str, cost: float = 1.0) -> None:
        """Take ``cost`` from ``who``'s bucket of ``kind``: ``"move"`` (``who`` a table's
        seat, ``"{table}:{seat}"``), ``"read"`` or ``"create"`` (a client key); 429 with
        the wait (``retry_after``, seconds) when it has less."""
        s = self.settings
        if kind == "move":
            rate, burst = s.rate, s.burst
        elif kind == "read":
            rate = 2 * s.rate if s.read_rate is None else s.read_rate
            burst = 2 * s.burst if s.read_burst is None else s.read_burst
        elif kind == "chat":
            rate, burst = s.chat_rate, s.chat_burst
        else:
            rate, burst = s.create_rate, s.create_burst
        bucket = self._buckets.get(f"{kind}:{who}", rate, burst)
        if bucket.take(cost):
            return
        wait = bucket.wait(cost)
        what = {"move": "moves of one seat (over HTTP and all its websockets)",
                "read": "reads from one address", "create": "tables created from one "
                "address", "chat": "chat messages from one sender"}.get(kind, kind)
        raise ApiError(429, "rate_limited", f"too many {what}: at most {burst} at once and "
                       f"{rate:g} a second; wait {wait:.2g} s",
                       retry_after=max(1, math.ceil(wait)))

    def room_for(self, client: str, bots: int) -> None:
        """Refuse a new table (with ``bots`` bot seats) from ``client`` when this process
        has ``max_tables`` live tables or ``max_bots`` live bots (503), or ``client`` has
        ``client_tables`` live tables (429); else count it. Live: not over, and moved
        within ``table_idle`` seconds or watched or a bot is thinking. The tables in
        memory are counted at most once a second (20,000 take about 15 ms)."""
        s = self.settings
        cutoff = time.time() - s.table_idle

        def live(t: Table) -> bool:
            return not t.state.is_over and not t.closed and (t.updated >= cutoff or bool(t.conns)
                                             or bool(t.thinking))

        now = time.monotonic()
        if now - self._live_at >= 1.0:
            counted = [t for t in self.tables.values() if live(t)]
            self._live = (len(counted), sum(1 for t in counted for seat in t.seats
                                            if seat["kind"] == "bot"))
            self._live_at = now
        tables, bot_seats = self._live
        mine = 0
        for tid, creator in list(self._creators.items()):
            made = self.tables.get(tid)
            if made is None or not live(made):
                del self._creators[tid]
            elif creator == client:
                mine += 1
        wait = max(s.retry_after, 60)
        if tables >= s.max_tables:
            raise ApiError(503, "server_full", f"the server has {tables} live tables, its "
                           f"limit ({s.max_tables}); try again later", retry_after=wait)
        if bots and bot_seats + bots > s.max_bots:
            raise ApiError(503, "server_full", f"the server's live tables have {bot_seats} "
                           f"bots; {bots} more would pass its limit ({s.max_bots}); try "
                           "fewer bots or again later", retry_after=wait)
        most = 2 * s.create_burst if s.client_tables is None else s.client_tables
        if mine >= most:
            raise ApiError(429, "too_many_tables", f"your address has {mine} live tables, "
                           f"the most one address may have ({most}); finish or "
                           "leave some (a table stops counting "
                           f"{s.table_idle / 60:g} minutes after its last move)",
                           retry_after=wait)
        self._live = (tables + 1, bot_seats + bots)

    # -- tables --------------------------------------------------------------------------
    async def create(self, body: Any, client: str = "?") -> dict[str, Any]:
        game, players, options, seats, seed = check_new_table(body, self.bot_budget)
        clock = timing.check_clock(body.get("clock"))
        rated = self.ratings.check_create(body, seats)
        self.room_for(client, sum(1 for spec in seats if spec != "human"))
        chosen = body.get("seed") is not None  # (check_new_table made sure body is a dict)
        salt = secrets.token_hex(16)
        try:
            state = game.start(players, seed, options=options)
        except CoveError as e:
            raise ApiError(422, "bad_table", str(e)) from None
        tokens: list[str | None] = []
        stored: list[dict[str, Any]] = []
        for spec in seats:
            if spec == "human":
                new = secrets.token_urlsafe(24)
                tokens.append(new)
                stored.append({"kind": "human", "token_hash": token_hash(new)})
            else:
                tokens.append(None)
                stored.append({"kind": "bot", "spec": spec})
        now = self.now()
        owner = secrets.token_urlsafe(24)
        table = Table(id=secrets.token_urlsafe(9), game=game, seed=seed, seats=stored,
                      state=state, created=now, updated=now, salt=salt, seed_chosen=chosen,
                      owner_hash=token_hash(owner))
        row = TableRow(id=table.id, game=game.id, players=players,
                       options=state.options.to_dict(), seed=seed, seats=stored,
                       created=now, updated=now, moves=0, over=state.is_over,
                       state=state.to_json(), bot_turn=self.bot_turn(table, state),
                       salt=salt, seed_chosen=chosen, owner_hash=table.owner_hash)
        if rated:  # first: a table stored is never mistaken for a friendly one
            await self.ratings.mark(table.id)
        await self.commits.run(self.store.create, row)
        if clock is not None:
            await self.commits.run(self.store.set_clock, table.id, clock.to_dict())
            table.timing = timing.new_timing(clock, now, state, stored)
        self.tables[table.id] = table
        self._creators[table.id] = client
        self._schedule_bots(table)
        out_seats = []
        for i, token in enumerate(tokens):
            entry = seat_info(i, stored[i])
            if token is not None:
                entry["token"] = token
                entry["link"] = f"/api/tables/{table.id}?token={token}"
                entry["ws"] = f"/ws/tables/{table.id}?token={token}"
            out_seats.append(entry)
        # the seed stays secret until the game ends (it would tell every hidden card and
        # every future draw): only its commitment is published, and the seed is echoed
        # only to a creator who chose it
        out = {"id": table.id, "game": game.id, "players": players, "deal": table.deal(),
               "owner": owner, "options": state.options.to_dict(), "seats": out_seats,
               "spectate": f"/api/tables/{table.id}", "spectate_ws": f"/ws/tables/{table.id}"}
        if chosen:
            out["seed"] = seed
        if rated:
            out["rated"] = True
        return out

    async def new_player(self, body: Any) -> dict[str, Any]:
        """``{"name"}``: a named player, and their personal key (shown only here; the
        browser keeps it): ``{"key", "name"}``."""
        if not isinstance(body, dict) or set(body) != {"name"}:
            raise ApiError(400, "bad_request", "the body is {\"name\": your name}")
        name = check_name(body["name"])
        key = secrets.token_urlsafe(24)
        await self.commits.run(self.store.add_player, token_hash(key), name)
        return {"key": key, "name": name}

    async def sit(self, table: Table, seat: int | None, key: Any) -> dict[str, Any]:
        """The named player whose personal key is ``key`` takes ``seat`` (opened by its
        token): the seat shows their name from now on, to everyone. 404 for an unknown
        key, 409 when another named player took the seat."""
        if seat is None:
            raise ApiError(403, "bad_token", "give the token of the seat you take")
        if not isinstance(key, str) or not key:
            raise ApiError(400, "bad_request", "player is your personal key (POST "
                           "/api/players gives one)")
        hashed, name = await self.named(key, 404)
        await self.ratings.check_sit(table, seat, hashed)
        async with table.lock:
            had = table.seats[seat]
            if had.get("player") not in (None, hashed):
                raise ApiError(409, "seat_taken", f"{had.get('name')} took this seat already")
            if had.get("player") != hashed:
                seats = [dict(s) for s in table.seats]
                seats[seat].update(player=hashed, name=name)
                await self.commits.run(self.store.set_seats, table.id, seats)
                table.seats = seats
                self.broadcast(table)
        return {"seat": seat, "name": name}

    async def named(self, key: str, status: int) -> tuple[str, str]:
        """(key hash, name) of the player whose personal key is ``key``; ``status``
        ``unknown_player`` when no player has it."""
        hashed = token_hash(key)
        name = await self._db(self.store.player, hashed)
        if name is None:
            raise ApiError(status, "unknown_player", "no player has this key; POST "
                           "/api/players with your name gives one")
        return hashed, name

    async def close_table(self, table: Table, key: Any) -> dict[str, Any]:
        """Close an unfinished table at which no person but its creator (its first human
        seat) has played, given the creator's key (``owner`` in the creation's answer):
        it leaves the lobby, its bots stop and every connection is told (``closed``).
        403 for another key; 409 once the game is over or someone else has played."""
        if not (isinstance(key, str) and table.owner_hash
                and hmac.compare_digest(table.owner_hash, token_hash(key))):
            raise ApiError(403, "bad_token", "only the table's creator closes it, with the "
                           "key its creation returned (\"owner\")")
        async with table.lock:
            st = table.state
            if not table.closed:
                if st.is_over:
                    raise ApiError(409, "over", "the game is over: a finished table stays "
                                   "listed with its result")
                people = [i for i, s in enumerate(table.seats) if s["kind"] == "human"]
                joined = sorted({p for p, _ in st.history if p in people[1:]})
                if joined:
                    raise ApiError(409, "started", f"P{joined[0] + 1} has played here: a game "
                                   "others have joined is not closed")
                if not await self.commits.run(self.store.close_table, table.id,
                                              table.version):
                    await self._reload(table)
                    raise ApiError(409, "stale", "the table changed meanwhile; try again",
                                   moves=table.moves)
                table.closed = True
        self.broadcast(table)
        return {"id": table.id, "closed": True}

    def _rows_one_by_one(self) -> list[TableRow]:
        """The tables a bot is to move at, each read alone (when reading them together
        failed): one that cannot be read comes back with its ``error``. When not even their
        ids can be read, none: each is restored when first asked for."""
        try:
            ids = self.store.ids(over=False, bot_turn=True)
        except StoreUnavailable:
            raise
        except Exception as e:
            log.error("the ids of the tables a bot is to move at cannot be read (%s); each "
                      "is restored when first asked for", one_line(e))
            return []
        rows = []
        for table_id in ids:
            try:
                row = self.store.load(table_id)
            except StoreUnavailable:
                raise
            except Exception as e:
                row = TableRow(id=table_id, game="", players=0, options={}, seed=0, seats=[],
                               created=0.0, updated=0.0, moves=0, over=False,
                               error=f"its stored row cannot be read ({one_line(e)})")
            if row is not None:
                rows.append(row)
        return rows

    def _from_rows(self, rows: list[TableRow]) -> tuple[list[Table], list[tuple[str, str]]]:
        """Tables restored from their rows, and (id, why) for each that cannot be: any
        error, so that one damaged table never stops the others (a database that cannot
        be read at all still raises)."""
        out, failed = [], []
        for row in rows:
            try:
                out.append(self._from_row(row))
            except StoreUnavailable:
                raise
            except Exception as e:
                failed.append((row.id, one_line(e)))
        return out, failed

    def _from_row(self, row: TableRow) -> Table:
        """The table as stored: its last snapshot, checked, then the moves after it
        replayed through their exact text (as a record replays). A snapshot that fails a
        check (it cannot be read, is of another table, holds another number of moves than
        the row says, or breaks the game's own invariants) is not trusted: the table is
        rebuilt from its seed and all its moves. RestoreError when even that fails."""
        if row.error is not None:
            raise RestoreError(row.error)
        try:
            game = cove.load(row.game)
        except CoveError as e:
            raise RestoreError(f"its game cannot be loaded: {e}") from None
        state: State | None = None
        try:
            state = self._from_snapshot(game, row)
        except Exception as e:  # anything at all: the moves are the truth
            log.warning("table %s: its snapshot is not trusted (%s); rebuilding it from its "
                        "%d moves", row.id, one_line(e), row.moves)
        if state is None:
            state = self._from_moves(game, row, self.store.moves(row.id))
        return Table(id=row.id, game=game, seed=row.seed, seats=row.seats, state=state,
                     created=row.created, updated=row.updated, salt=row.salt,
                     seed_chosen=row.seed_chosen, undos=row.undos,
                     owner_hash=row.owner_hash, closed=row.closed,
                     timing=timing.restore(self.store, game, row))

    @staticmethod
    def _from_snapshot(game: Game, row: TableRow) -> State:
        """The row's snapshot and tail, each check passed (else an exception says which)."""
        state = game.from_json(row.state)
        if (state.n, state.seed) != (row.players, row.seed) or json.loads(
                json.dumps(state.options.to_dict())) != row.options:
            raise RestoreError("it is of another table (its players, seed or options "
                               "differ from the row's)")
        undone = row.snap_moves - state.decisions  # each undo before it: two entries
        if undone < 0 or undone % 2 or undone > 2 * row.undos:
            raise RestoreError(f"it holds {state.decisions} moves where the row says "
                               f"{row.snap_moves} entries with {row.undos} undos")
        state = replay_moves(state, row.tail, row.id)
        if state.decisions != row.moves:
            raise RestoreError(f"it and the moves after it make {state.decisions} moves "
                               f"where the row says {row.moves}")
        try:
            state.check_invariants()
        except Exception as e:
            raise RestoreError(f"the game's invariants fail: {one_line(e)}") from None
        return state

    @staticmethod
    def _from_moves(game: Game, row: TableRow, moves: Sequence[tuple[int, str]]) -> State:
        """The table rebuilt from its seed and every stored move."""
        try:
            state = game.start(row.players, row.seed, options=row.options)
        except CoveError as e:
            raise RestoreError(f"its game cannot be started again: {e}") from None
        state = replay_moves(state, moves, row.id)
        if state.decisions != row.moves:
            raise RestoreError(f"{len(moves)} moves and undos are stored for it where its "
                               f"row says {row.moves} moves")
        try:
            state.check_invariants()
        except Exception as e:  # the rules' own moves made it: served, but said
            log.error("table %s: the game's invariants fail on the state its moves make "
                      "(%s); served as its moves make it", row.id, one_line(e))
        return state

    def _quarantine(self, table_id: str, reason: str) -> None:
        """Stop serving a table whose stored data cannot be restored; say why in the log."""
        self.quarantined[table_id] = reason
        log.error("table %s is quarantined: %s; the other tables are served (docs/DEPLOY.md, "
                  "\"Damaged tables\", says how to repair or remove it)", table_id, reason)
        table = self.tables.pop(table_id, None)
        if table is not None:
            err = quarantined(table_id)
            self.notify(table, {"type": "error", "status": err.status, **err.body()})

    async def table(self, table_id: str) -> Table:
        """The live table (loaded from the store on first use); 404 when unknown, 500
        ``quarantined`` when its stored data cannot be restored, 503 when the database
        cannot be read now."""
        t = self.tables.get(table_id)
        if t is not None:
            t.seen = time.monotonic()
            return t
        if not isinstance(table_id, str) or len(table_id) > 64:
            raise ApiError(404, "unknown_table", "no such table")
        if table_id in self.quarantined:
            raise quarantined(table_id)
        pending = self._loading.get(table_id)
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            self._loading[table_id] = pending
            try:
                row = await self._load_row(table_id)
                if row is None:
                    raise ApiError(404, "unknown_table", f"no table {table_id[:40]!r}; "
                                   "GET /api/tables lists the open tables")
                have = self.tables.get(table_id)
                loaded = have if have is not None else await self._restore(row)
                self.tables[table_id] = loaded
                self._schedule_bots(loaded)
                pending.set_result(loaded)
            except BaseException as e:
                pending.set_exception(e)
                pending.exception()  # retrieved: waiters re-raise it themselves
                raise
            finally:
                del self._loading[table_id]
            return loaded
        return await asyncio.shield(pending)

    async def _load_row(self, table_id: str) -> TableRow | None:
        """The stored row (with ``error`` when it cannot be read); 503 when the database
        cannot be read now."""
        try:
            return await self._db(self.store.load, table_id)
        except ApiError:
            raise
        except Exception as e:
            return TableRow(id=table_id, game="", players=0, options={}, seed=0, seats=[],
                            created=0.0, updated=0.0, moves=0, over=False,
                            error=f"its stored row cannot be read ({one_line(e)})")

    async def _restore(self, row: TableRow) -> Table:
        """The table rebuilt from its row, or quarantined (500) when it cannot be."""
        try:
            return await self._db(self._from_row, row)
        except ApiError:
            raise  # the database cannot be read now: not the table's fault
        except Exception as e:
            self._quarantine(row.id, one_line(e))
            raise quarantined(row.id) from None

    async def listing(self, status: str, limit: int) -> list[dict[str, Any]]:
        """The tables of ``status`` (open, finished, all), most recently active first;
        closed tables and open ones idle for ``open_idle`` seconds are left out."""
        over = {"open": False, "finished": True, "all": None}.get(status, False)
        since = time.time() - self.settings.open_idle if over is False else None
        rows = await self._db(self.store.tables, over=over, since=since,
                              limit=max(1, min(limit, self.settings.list_limit)))
        rows = [r for r in rows  # (a damaged or quarantined table is left out)
                if r.error is None and r.id not in self.quarantined]
        clocks = await self._db(self.store.clocks, [r.id for r in rows])
        out = [summary(r) for r in rows]
        for item in out:
            if item["id"] in clocks:
                item["clock"] = clocks[item["id"]]
        return out

    def seat_for(self, table: Table, token: str | None) -> int | None:
        """The seat a token opens; None (spectator) without a token; 403 for a bad one."""
        if token is None:
            return None
        want = token_hash(token)
        for i, s in enumerate(table.seats):
            if s["kind"] == "human" and hmac.compare_digest(s["token_hash"], want):
                return i
        for i, s in enumerate(table.seats):  # a named player's key opens their seat
            if s["kind"] == "human" and hmac.compare_digest(s.get("player", ""), want):
                return i
        raise ApiError(403, "bad_token", "this token opens no seat at this table; use the "
                       "link the table's creator sent you, or no token to watch")

    def payload(self, table: Table, seat: int | None, since: int = 0) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may know of the table now."""
        st = table.state
        view = st.view(seat)
        out = {"id": table.id, "game": table.game.id, "players": st.n, "seat": seat,
               "moves": st.decisions, "version": table.version, "over": st.is_over,
               "to_move": list(st.to_move()), "can_undo": table.can_undo(seat),
               "view": view, "decision": view.get("decision", st.decision(seat)),
               "legal": [] if table.closed else legal_forms(st, seat),
               "events": event_forms(st, seat, max(0, since)),
               "next_event": st.log_count(seat), "seats": table.seat_kinds(),
               "deal": table.deal(), "closed": table.closed}
        if st.is_over:
            out["scores"] = st.scores()
            out["winners"] = list(st.winners())
        out.update(timing.fields(table, self.now()))
        return out

    def record(self, table: Table, seat: int | None) -> dict[str, Any]:
        """The full record once the game is over (with the seed and the salt that opens
        its commitment: ``deal``), else redacted for ``seat``."""
        if table.state.is_over:
            rec = table.state.record()
        else:
            rec = table.state.record(seat, redacted=seat is None)
        rec["deal"] = table.deal()
        return rec

    # -- moves ---------------------------------------------------------------------------
    async def act(self, table: Table, seat: int | None, action: Any,
                  expect: int | None) -> dict[str, Any]:
        """A human's move; returns the seat's new payload (events from before the move)."""
        if seat is None:
            raise ApiError(403, "bad_token", "spectators cannot move; give your seat's token")
        await self.ratings.check_move(table, seat)
        since = table.state.log_count(seat)
        async with table.lock:
            n = table.moves
            if expect is not None and expect > n:  # another process moved: catch up first
                await self._reload(table)
                n = table.moves
            if expect is not None and expect != n:
                raise ApiError(409, "stale", f"the table is at move {n}, not {expect}: "
                               "someone moved since you looked; fetch the table again",
                               moves=n)
            timing.check_human_move(table, seat)
            await self._commit(table, seat, action, n)
            await table.check_undo(seat)
        made = self._after_move(table, seat)
        pushed = made.get((seat, since))
        if pushed is not None and pushed[2]["version"] == table.version:
            # the mover's own websocket got this very payload: answer with it too
            return {k: v for k, v in pushed[2].items() if k != "type"}
        return self.payload(table, seat, since)

    async def _commit(self, table: Table, seat: int, action: Action | str | dict[str, Any],
                      n: int) -> None:
        """Apply and store one move (the caller holds the table's lock)."""
        still_open(table)
        nxt = table.state.clone()
        try:
            nxt.apply(seat, action)
        except IllegalAction as e:
            raise ApiError(422, "illegal_action", str(e), moves=n) from None
        await self._store(table, nxt, Move(table.id, n, seat, str(nxt.history[-1][1]),
                                           nxt.is_over, undos=table.undos))

    async def _store(self, table: Table, nxt: State, move: Move) -> None:
        """Commit ``move`` (or undo) and make ``nxt`` the table's state (the caller holds
        the table's lock); 409 when another process changed the table first."""
        due = nxt.is_over or (move.entry + 1) % SNAPSHOT_EVERY == 0
        at = self.now()
        ok = await self.commits.append(dataclasses.replace(
            move, snapshot=nxt.to_json if due else None, bot_turn=self.bot_turn(table, nxt),
            at=at))
        if not ok:  # another server process changed the table first
            await self._reload(table)
            raise ApiError(409, "stale", f"the table moved on to move {table.moves} while "
                           "your move was being stored; fetch the table again",
                           moves=table.moves)
        table.state = nxt
        table.undos = move.after[1]
        table.updated = time.time()
        if table.timing is not None:
            table.timing.add(move.seat, move.action, at, nxt.to_move())

    async def undo(self, table: Table, seat: int | None, expect: int | None
                   ) -> dict[str, Any]:
        """Take back ``seat``'s latest decision when :meth:`Table.can_undo` allows it (422
        saying why not otherwise); stored as an entry of the table's log and pushed to every
        connection as a ``state`` message (the events of the move taken back are gone).
        Returns the seat's new payload."""
        if seat is None:
            raise ApiError(403, "bad_token", "spectators cannot undo; give your seat's token")
        async with table.lock:
            n = table.moves
            if expect is not None and expect != n:
                raise ApiError(409, "stale", f"the table is at move {n}, not {expect}: "
                               "someone moved since you looked; fetch the table again",
                               moves=n)
            still_open(table)
            st = table.state
            if st.is_over:
                raise ApiError(422, "cannot_undo", "the game is over: its seed, and with it "
                               "every hidden card, is public now, so no move is taken back",
                               moves=n)
            if table.seats[seat]["kind"] != "human":
                raise ApiError(422, "cannot_undo", "bots do not take moves back", moves=n)
            reason, before = await asyncio.to_thread(undo_check, st.clone(), seat)
            if before is None:
                raise ApiError(422, "cannot_undo", f"you cannot take back your last move: "
                               f"{reason} (a move can be taken back while nobody has decided "
                               "since, nothing hidden was shown to you and nothing was drawn)",
                               moves=n)
            await self._store(table, before, Move(table.id, n, seat, UNDO, False,
                                                  undos=table.undos))
            await table.check_undo(seat)
        self._after_move(table, seat, undone=True)
        return self.payload(table, seat)

    async def _reload(self, table: Table) -> None:
        """Catch up with moves another process stored (the caller holds the table's lock);
        a table whose stored data no longer restores is quarantined (500)."""
        row = await self._load_row(table.id)
        if row is not None and (row.error is not None
                                or row.moves + 2 * row.undos > table.version):
            restored = await self._restore(row)
            table.state, table.timing = restored.state, restored.timing
            table.undos = row.undos
            table.updated = row.updated

    @staticmethod
    def bot_turn(table: Table, state: State) -> bool:
        return any(timing.bot_spec(table, p) is not None for p in state.to_move())

    def _after_move(self, table: Table, mover: int | None = None,
                    undone: bool = False) -> Rendered:
        made = self.broadcast(table, mover, undone)
        self._schedule_bots(table)
        self.ratings.after_move(table)
        self.webhooks.after_move(table)
        return made

    def broadcast(self, table: Table, mover: int | None = None,
                  undone: bool = False) -> Rendered:
        """Push the table's new state: rendered and encoded once for each (seat, events
        already sent), so all spectators, and all connections of one seat, share one.
        The extra fields (``extras``) are drawn lazily, by each connection's writer, the
        ``mover``'s connections first. After an undo (``undone``) every connection gets
        the whole table again (``"type": "state"``, every event, ``"undone": mover``): the
        events of the move taken back are gone. Returns what was rendered, by (seat,
        events already sent)."""
        made: Rendered = {}
        extended: dict[tuple[int | None, int], Lazy] = {}
        state = table.state
        for conn in sorted(table.conns, key=lambda c: c.seat != mover):
            if undone:
                conn.next_event = 0
            key = (conn.seat, conn.next_event)
            if key not in made:
                msg = self.payload(table, conn.seat, conn.next_event)
                msg["type"] = "state" if undone else "update"
                if undone:
                    msg["undone"] = mover
                self.renders += 1
                made[key] = (encode(msg), msg["next_event"], msg)
            text, next_event, msg = made[key]
            conn.next_event = next_event
            if conn.extras and self.extras is not None:
                if key not in extended:
                    extended[key] = Lazy(functools.partial(
                        self.extended_text, table, conn.seat, msg, state))
                conn.push(extended[key])
            else:
                conn.push(text)
        return made

    def extended_text(self, table: Table, seat: int | None, message: dict[str, Any],
                      state: State) -> str:
        return encode(self.extend(table, seat, message, state))

    def extend(self, table: Table, seat: int | None, message: dict[str, Any],
               state: State | None = None) -> dict[str, Any]:
        """``message`` with the extra fields (``Hub.extras``) for ``seat`` at ``state``
        (default: the table's); without them when there is no hook or it fails (logged:
        the client asks another way)."""
        if self.extras is None:
            return message
        try:
            return {**message, **self.extras(table, state or table.state, seat, message)}
        except Exception:
            log.exception("the extra fields of table %s failed for seat %s", table.id, seat)
            return message

    def presence(self, table: Table) -> None:
        """After a websocket opened or closed: tell everyone at a real-time table who is
        away now, when that changed (:func:`cove.serve.timing.presence`)."""
        msg = timing.presence(table)
        if msg is not None:
            self.notify(table, msg)

    def notify(self, table: Table, message: dict[str, Any]) -> None:
        """Tell every connection of the table something (one encoding for all)."""
        text = encode(message)
        for conn in list(table.conns):
            conn.push(text)

    def _schedule_bots(self, table: Table) -> None:
        st = table.state
        if st.is_over or table.archived or table.closed:
            if self.shared and table.lease:  # a finished table's bots are nobody's
                table.lease = 0.0
                self._spawn(self._db(self.store.drop_lease, table.id, self.owner))
            return
        if self.shared and not table.claimed and any(
                s["kind"] == "bot" for s in table.seats):
            table.claimed = True  # the first process to load a table plays its bots
            self._spawn(self._lease(table))
        for p in st.to_move():
            if timing.bot_spec(table, p) is not None and p not in table.thinking:
                table.thinking.add(p)
                self._spawn(self._bot_turn(table, p))

    async def _bot_turn(self, table: Table, p: int) -> None:
        """Seat ``p``'s bot moves once (the next move schedules the next turn): unless the
        table is idle (archived instead) or another process holds its bots (wait for its
        move, or for its lease to lapse); paced on a table of bots only; a move whose write
        failed is written again until the store takes it."""
        moved = False
        try:
            while True:
                st, v = table.state, table.version
                n = st.decisions
                if (table.archived or table.closed or st.is_over or p not in st.to_move()
                        or timing.bot_spec(table, p) is None):
                    return
                if self._idle(table):
                    await self._archive(table)
                    return
                lapses = await self._lease(table)
                if lapses:
                    await self._until_moved(table, v, lapses)
                    continue
                if await self._pace(table) and table.version != v:
                    continue
                action = await self._bot_action(table, p, st)
                stored = await self._store_bot_move(table, p, action, n, v)
                if stored is None:
                    return
                if stored:
                    moved = True
                    return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot %r at table %s (seat %d) failed", table.seats[p].get("spec"),
                          table.id, p)
        finally:
            table.thinking.discard(p)
            if moved:
                self._after_move(table)
                if table.state.is_over and table.bots_only and not table.conns:
                    self._unload(table)  # served from the store if anyone asks

    async def _store_bot_move(self, table: Table, p: int, action: Action | str,
                              n: int, version: int) -> bool | None:
        """Commit the bot's move made at move ``n`` (the table's ``version``): True once
        stored; False when the table moved on, or a move was taken back (think again);
        None when the table was archived meanwhile. A write that fails (a full disk, a lost
        database) is tried again, 0.5 s later and then twice as long each time up to 30 s,
        until the store takes it, so the bots resume on their own; the first failure and
        the recovery are logged."""
        delay = 0.5
        failed = 0
        while True:
            async with table.lock:
                if table.archived:
                    return None
                if table.version != version:
                    return False  # the table moved on while the bot thought: think again
                try:
                    await self._commit(table, p, action, n)
                except ApiError as e:
                    if e.status == 409:
                        return False
                    if not isinstance(e, Unavailable):
                        raise
                    failed += 1  # the database cannot take it now: try again later
                    if failed == 1:
                        log.warning("table %s: the move of its bot (seat %d, move %d) could "
                                    "not be stored (%s); trying again until it is",
                                    table.id, p, n, e.reason)
                except Exception as e:
                    failed += 1
                    if failed == 1:
                        log.warning("table %s: the move of its bot (seat %d, move %d) could "
                                    "not be stored (%s: %s); trying again until it is",
                                    table.id, p, n, type(e).__name__, str(e)[:200])
                else:
                    if failed:
                        log.info("table %s: the bot's move %d was stored after %d failed "
                                 "writes", table.id, n, failed)
                    return True
            await asyncio.sleep(delay)
            delay = min(30.0, delay * 2)

    def _idle(self, table: Table) -> bool:
        """A table of bots only that nobody watched for ``bot_idle`` seconds."""
        limit = self.settings.bot_idle
        return (limit > 0 and table.bots_only and not table.conns
                and time.monotonic() - table.seen > limit)

    async def _archive(self, table: Table) -> None:
        """Stop an idle bots-only table's bots and unload it: stored as not to be restored
        at start-up (a request for it loads it again, and its bots resume)."""
        if table.archived:
            return
        self._unload(table)
        try:
            await self.commits.run(self.store.park, table.id, table.moves)
        except Exception as e:  # a restart would resume it: no harm beyond that
            log.warning("table %s: could not mark it archived: %s", table.id, e)
        log.info("table %s: bots only and unwatched for %g s; archived at move %d (it plays "
                 "on when next asked for)", table.id, self.settings.bot_idle, table.moves)

    def _unload(self, table: Table) -> None:
        table.archived = True
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        if self.shared and table.lease:
            table.lease = 0.0
            self._spawn(self._db(self.store.drop_lease, table.id, self.owner))

    async def _lease(self, table: Table) -> float:
        """0 when this process may play the table's bots now (it holds, or just took, the
        table's lease; always, when no other process shares the store); else when (Unix
        time) the other holder's lease lapses."""
        if not self.shared:
            return 0.0
        ttl = self.settings.bot_lease
        now = time.time()
        if table.lease - now > ttl / 2:
            return 0.0  # held, and not due for renewal
        try:
            held, until = await self._db(self.store.take_lease, table.id, self.owner, ttl)
        except Exception as e:
            log.warning("table %s: could not claim its bots (%s); trying again", table.id, e)
            table.lease = 0.0
            return now + min(ttl, 5.0)
        table.lease = until if held else 0.0
        return 0.0 if held else max(until, now + 0.05)

    async def _keep_leases(self) -> None:
        """Renew this process's claims on its tables' bots, a third of ``bot_lease`` apart
        (one write for all of them); a claim on a table no longer loaded is given up."""
        ttl = self.settings.bot_lease
        while True:
            await asyncio.sleep(ttl / 3)
            try:
                held, until = await self._db(self.store.renew_leases, self.owner, ttl)
            except Exception as e:
                log.warning("could not renew this process's bot leases: %s", e)
                continue
            for table_id in held:
                t = self.tables.get(table_id)
                if t is None or t.state.is_over:
                    await self._db(self.store.drop_lease, table_id, self.owner)
                else:
                    t.lease = until

    async def _until_moved(self, table: Table, version: int, until: float) -> None:
        """Wait until the table moves past ``version`` (another process's bot moved) or
        is archived, or until ``until`` (Unix time)."""
        while (table.version == version and not table.archived and not table.state.is_over
               and time.time() < until):
            await asyncio.sleep(min(0.25, max(0.0, until - time.time())))

    async def _pace(self, table: Table) -> bool:
        """On a table of bots only, wait for its next move's slot (``bot_pace`` a second);
        True when it waited."""
        pace = self.settings.bot_pace
        if pace <= 0 or not table.bots_only:
            return False
        now = time.monotonic()
        slot = max(now, table.paced + 1.0 / pace)
        table.paced = slot
        if slot <= now:
            return False
        await asyncio.sleep(slot - now)
        return True

    async def _think(self, table: Table, spec: str, seed: int, st: State, p: int) -> str:
        """Bot ``spec``'s move for seat ``p`` at ``st``, as its text: in a worker process or
        a bot thread (``in_process``), never on the event loop, held to the server's budget;
        TimeoutError after ``bot_timeout`` seconds."""
        timeout = self.settings.bot_timeout
        if self.in_process(spec):  # (a table's states are never changed in place: no copy)
            return await self.bot_processes.think(spec, seed, st, p, timeout, table.id,
                                                  int(table.bots_only))
        job = asyncio.get_running_loop().run_in_executor(
            self.bot_pool(), think_within, self.bot_budget, think, spec, seed, st.clone(), p)
        return await asyncio.wait_for(job, timeout)

    async def hint(self, table: Table, seat: int | None) -> dict[str, Any]:
        """What the terminal's ``hint`` would play for ``seat`` now (its search bot,
        :data:`cove.terminal.HINT_BOT`, thinking as seated bots do, from the seat's own
        information only): ``{"hint": move text, "moves": the move count}``. Asked again
        at the same position, the same answer (one search per position and seat)."""
        if seat is None:
            raise ApiError(403, "bad_token", "spectators get no hints; give your seat's token")
        st, version = table.state, table.version
        if st.is_over or not st.legal_actions(seat):
            raise ApiError(422, "no_hint", "a hint is for a decision of yours, and you have "
                           "none now", moves=st.decisions)
        key = (version, seat)
        job = table.hints.get(key)
        if job is None:
            job = table.hints[key] = asyncio.ensure_future(self._think(
                table, HINT_BOT, bot_seed(table.seed, seat, st.decisions), st, seat))
            while len(table.hints) > 8:
                del table.hints[next(iter(table.hints))]
        try:
            text = await asyncio.shield(job)
        except Exception as e:  # a search that failed or ran out of time: say so
            table.hints.pop(key, None)
            raise ApiError(503, "no_hint", f"the hint's search failed ({type(e).__name__}); "
                           "try again", retry_after=1) from None
        return {"hint": text, "moves": st.decisions, "version": version}

    async def _bot_action(self, table: Table, p: int, st: State) -> Action | str:
        """The bot's move at ``st``; after ``bot_tries`` failures (an exception, an illegal
        move, no answer within ``bot_timeout``) or one move over its budget, a fallback
        legal move, and the table's clients get a ``bot_failed`` notice."""
        spec = timing.bot_spec(table, p) or HINT_BOT
        n = st.decisions
        seed = bot_seed(table.seed, p, n)
        reason = ""  # told to every client: nothing of the bot's hand or move in it
        processes = self.in_process(spec)
        timeout = self.settings.bot_timeout
        for attempt in range(max(1, self.settings.bot_tries)):
            try:
                text = await self._think(table, spec, seed + attempt, st, p)
            except TimeoutError:
                reason, detail = f"no move within {timeout:g} s", ""
                if not processes:
                    self._replace_bot_threads()
            except BotError as e:
                if e.kind == "OverBudget":  # asked again, it would only overrun again
                    reason = (f"it went over this server's think time "
                              f"({self.bot_budget.seconds:g} s a move)")
                    log.warning("bot %r at table %s (seat %d, move %d): %s", spec, table.id,
                                p, n, reason)
                    break
                reason, detail = f"it raised {e.kind}", str(e)[:300]
            except Exception as e:  # any bot error is survived the same way
                reason, detail = f"it raised {type(e).__name__}", str(e)[:300]
            else:
                if table.state is not st or st.find_action(p, text) is not None:
                    return text  # (a table that moved on is thought about again)
                reason, detail = "it chose an illegal move", repr(text[:80])
            log.warning("bot %r at table %s (seat %d, move %d), try %d: %s %s", spec,
                        table.id, p, n, attempt + 1, reason, detail)
        act = fallback_move(st, p, seed)
        log.warning("bot %r at table %s (seat %d, move %d) failed; playing %s for it",
                    spec, table.id, p, n, act)
        self.notify(table, {"type": "notice", "notice": "bot_failed", "seat": p, "bot": spec,
                            "moves": n, "reason": reason + "; a random legal move was "
                            "played for it"})
        return act

    # -- other processes -----------------------------------------------------------------
    def _remote_commit(self, table_id: str, moves: int) -> None:
        """From the store's listener thread: another process committed a move."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        loop.call_soon_threadsafe(self._on_remote, table_id, moves)

    def _on_remote(self, table_id: str, entries: int) -> None:
        t = self.tables.get(table_id)
        if t is not None and t.version < entries:
            self._spawn(self._catch_up(t))

    async def _catch_up(self, table: Table) -> None:
        async with table.lock:
            before, undos = table.version, table.undos
            try:
                await self._reload(table)
            except ApiError:  # logged (a database failure, a quarantine): no one to tell
                return
        if table.version != before:
            self._after_move(table, undone=table.undos != undos)


def undo_check(state: State, seat: int) -> tuple[str, State | None]:
    """(Why ``seat`` may not take back their latest decision, None) or ("", the game
    without it), in a worker thread: both replay the game from its seed."""
    reason = why_not(state, seat)
    return (reason, None) if reason else ("", before_last(state))


def check_new_table(body: Any, budget: Budget | None = None,
                    ) -> tuple[Game, int, dict[str, Any], list[str], int]:
    """Validate ``POST /api/tables``: (game, players, options, seat specs, seed). Each bot
    spec is checked whole (at most ``MAX_SEATS_TEXT`` characters) and, given the server's
    ``budget``, refused when it asks for more work a move."""
    keys = ("game", "players", "options", "seats", "seed", "clock", "rated")
    if not isinstance(body, dict):
        raise ApiError(400, "bad_request", "the body must be a JSON object with keys "
                       + ", ".join(keys))
    unknown = [k for k in body if k not in keys]
    if unknown:
        raise ApiError(400, "bad_request", f"unknown key {str(unknown[0])[:40]!r}; valid keys: "
                       + ", ".join(keys))
    try:
        game = cove.load(body.get("game"))  # type: ignore[arg-type]  # it checks the type
    except CoveError as e:
        raise ApiError(422, "unknown_game", str(e)) from None
    seats = body.get("seats")
    players = body.get("players")
    if seats is not None and (not isinstance(seats, list)
                              or not all(isinstance(s, str) for s in seats)):
        raise ApiError(422, "bad_seats", "seats must be a list of \"human\" or bot specs "
                       "(random, greedy, mcts:...)")
    if players is None:
        players = len(seats) if seats else game.min_players
    if isinstance(players, bool) or not isinstance(players, int) or not (
            game.min_players <= players <= game.max_players):
        raise ApiError(422, "bad_players", f"{game.id} is for {game.min_players} to "
                       f"{game.max_players} players, not {str(players)[:20]}")
    if seats is None:
        seats = ["human"] + ["random"] * (players - 1)
    if len(seats) != players:
        raise ApiError(422, "bad_seats", f"give one seat per player: {players} players, "
                       f"{len(seats)} seats")
    specs: list[str] = []
    for s in seats:
        if len(s) > MAX_SEATS_TEXT:
            raise ApiError(422, "bad_seats", f"seat {len(specs) + 1}: a seat is \"human\" or a "
                           f"bot spec of at most {MAX_SEATS_TEXT} characters; this one has "
                           f"{len(s)}")
        spec = s.strip()
        if spec.lower() == "human":
            specs.append("human")
            continue
        try:
            if budget is None:
                make_bot(spec)
            else:
                check_spec(spec, budget, game)
        except CoveError as e:
            raise ApiError(422, "bad_seats", f"seat {len(specs) + 1}: {e}; or \"human\"") from None
        specs.append(spec)
    options = body.get("options") or {}
    if not isinstance(options, dict):
        raise ApiError(422, "bad_options", "options must be a JSON object of name: value")
    seed = body.get("seed")
    if seed is None:  # 63 random bits: too many to search for the one that deals a hand seen
        seed = secrets.randbelow(SEED_LIMIT)
    if isinstance(seed, bool) or not isinstance(seed, int) or not (
            -SEED_LIMIT <= seed < SEED_LIMIT):
        raise ApiError(422, "bad_seed", "the seed must be a whole number below 2**63 in size, "
                       "or null for a random one")
    return game, players, options, specs, seed
