"""Bots that think in worker processes, one pipe per process, so that a bot that overruns
its time can be ended on its own.

Why not ``concurrent.futures.ProcessPoolExecutor``: its workers share one call queue (with a
lock between processes) fed by a thread, and ending a stuck worker breaks the whole pool.
Replacing the broken pool while its manager thread cleans up and a new pool starts hung
``cove serve`` now and then (a table waited forever for its next bot). Here each
worker owns a duplex pipe, nothing is shared between workers, and ending one is a
``kill`` and a close: the others, and the jobs they run, never notice.

A job's time counts from when it is sent to a worker that is ready, so a worker's start-up
(a new interpreter importing Cove, a second or more on a loaded machine) is never charged to
the bot.

What bounds a bot in a worker (a server's :class:`~cove.bots.budget.Budget`):

- the bot itself is held to the budget (:meth:`cove.bots.base.Bot.bound`: a search stops at
  the budget's time, iterations and steps; greedy averages at most its samples);
- the worker's CPU clock (``ITIMER_PROF``) stops a move that still runs at twice the
  budget (at least one second more): :class:`~cove.bots.budget.OverBudget`, and the worker
  lives on;
- the server kills a worker that has not answered within its timeout (a bot stuck in code
  that never lets the interpreter run the signal handler).

The workers are shared fairly between tables (:class:`ProcessBots`: each job names its
table; a free worker goes to the waiting table with the fewest jobs running, then the one
waiting longest, and no table runs more than ``share`` jobs at once), so a table with many
slow bots waits its turn while other tables' bots still move.

A worker never outlives its server: it watches its parent process and exits within a
fraction of a second once the parent is gone (also after ``kill -9`` of the server, which
no ``atexit`` hook or pipe close would notice while the bot is thinking).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import multiprocessing
import os
import pickle
import signal
import threading
import time
from collections import deque
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from cove.bots import make_bot
from cove.bots.budget import Budget, OverBudget
from cove.core import registry
from cove.core.state import State

START_TIMEOUT = 120.0
"""Seconds a new worker may take to import Cove and say it is ready."""
WATCH_EVERY = 0.2
"""Seconds between a worker's checks that its server is still alive."""

class BotError(Exception):
    """A bot raised in its worker process: ``kind`` is the exception's class name."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"{kind}: {message}" if message else kind)
        self.kind = kind


class WorkerDied(Exception):
    """The worker process ended while thinking (killed, or out of memory)."""


_local = threading.local()


def think(spec: str, seed: int, state: State, seat: int, budget: Budget | None = None) -> str:
    """A bot's move as its text form (in a worker thread or process), held to ``budget``
    (default: the one :func:`think_within` set for this thread, if any)."""
    bot = make_bot(spec, seed)
    budget = budget or getattr(_local, "budget", None)
    if budget is not None:
        bot.bound(budget)
    return str(bot.act(state, seat))


def think_within(budget: Budget | None, fn: Any, *args: Any) -> Any:
    """``fn(*args)`` (``think``, or a stand-in) in this thread, :func:`think` holding its
    bot to ``budget`` meanwhile: the server's bot threads call bots this way."""
    _local.budget = budget
    try:
        return fn(*args)
    finally:
        _local.budget = None


def cpu_limit(budget: Budget) -> float:
    """CPU seconds a move may use in a worker before it is stopped: twice the budget,
    at least one second more (a search stops itself at the budget; this catches a bot
    that does not)."""
    return budget.seconds + max(1.0, budget.seconds)


_guarded = False
"""Whether a job runs under the CPU clock now (a late signal after it ends is ignored)."""


def _on_cpu_limit(signum: int, frame: Any) -> None:
    if _guarded:
        raise OverBudget("the move went over its CPU time")


def _run(job: tuple[Any, ...]) -> str:
    """One job in the worker: register its game (a game the server registered at run time,
    e.g. a test's), read its state, think under the CPU clock."""
    global _guarded
    spec, seed, data, seat, budget, (game_id, module) = job
    if module is not None:
        registry.REGISTRY[game_id] = module
    state = pickle.loads(data)
    if budget is None:
        return think(spec, seed, state, seat)
    _guarded = True
    signal.setitimer(signal.ITIMER_PROF, cpu_limit(budget))
    try:
        return think(spec, seed, state, seat, budget)
    finally:
        _guarded = False
        signal.setitimer(signal.ITIMER_PROF, 0)


def _watch(parent: int) -> None:
    """Exit this worker once its server (``parent``) is gone, whatever it is doing."""
    def run() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_EVERY)
        os._exit(0)

    threading.Thread(target=run, name="cove-watch", daemon=True).start()


def _serve(conn: Connection, parent: int | None = None) -> None:
    """The worker's loop: a job ``(spec, seed, pickled state, seat, budget, (game id,
    module))`` in, ``("ok", text)`` or ``("error", kind, message)`` out; None or a closed
    pipe ends it. Ctrl-C reaches the whole process group: the worker leaves it to the
    server, which ends its workers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGPROF, _on_cpu_limit)
    if parent is not None:
        _watch(parent)
    try:
        conn.send(("ready",))
        while True:
            job = conn.recv()
            if job is None:
                return
            try:
                reply: tuple[str, ...] = ("ok", _run(job))
            except Exception as e:  # the parent reports any bot error the same way
                reply = ("error", type(e).__name__, str(e)[:300])
            conn.send(reply)
    except (EOFError, OSError):  # the parent went away (or ended this worker): stop quietly
        return


def job_of(spec: str, seed: int, state: State, seat: int,
           budget: Budget | None) -> tuple[Any, ...]:
    """The job as a worker takes it (the state pickled apart, so the worker can register
    the state's game before it reads it)."""
    game_id = state.game.id
    return (spec, seed, pickle.dumps(state, pickle.HIGHEST_PROTOCOL), seat, budget,
            (game_id, registry.REGISTRY.get(game_id)))


class Worker:
    """One worker process and the parent's end of its pipe."""

    def __init__(self) -> None:
        ctx = multiprocessing.get_context("spawn")
        parent, child = ctx.Pipe()
        self.conn = parent
        self.process: BaseProcess = ctx.Process(target=_serve, args=(child, os.getpid()),
                                                name="cove-bot", daemon=True)
        self.process.start()
        child.close()
        if not parent.poll(START_TIMEOUT):
            self.end()
            raise WorkerDied(f"a bot worker did not start within {START_TIMEOUT:g} s")
        parent.recv()  # ("ready",)

    def end(self) -> None:
        """Kill the process (whatever it is doing) and close the pipe."""
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.conn.close()


class ProcessBots:
    """At most ``size`` bots thinking at once, each in a worker process of its own; idle
    workers are kept for the next job, a worker whose job timed out (or was cancelled, or
    crashed) is killed and replaced on demand.

    Jobs queue per ``owner`` (a table): a free worker goes to the waiting owner with the
    fewest jobs running, then to one in the first ``lane`` (the server's tables where
    people wait for the bots, before tables of bots only), then to the one served least
    recently (round robin: an owner with many jobs waiting gets one turn, then the
    others theirs); an owner never runs more than ``share`` jobs at once (default: half
    the workers, at least one), and the owners of later lanes (tables of bots only)
    together never hold the last free worker: one is kept for the first lane, so a
    person's bot never waits for another table's bot to finish thinking."""

    def __init__(self, size: int, share: int = 0, budget: Budget | None = None) -> None:
        self.size = max(1, size)
        self.share = min(self.size, share) if share > 0 else max(1, self.size // 2)
        self.budget = budget
        """The bound every bot in these workers is held to (None: its spec's own)."""
        self._free = self.size
        self._waiting: dict[str, deque[tuple[int, asyncio.Future[None]]]] = {}
        self._running: dict[str, int] = {}
        self._order = itertools.count()
        self._turn: dict[str, int] = {}
        """The grant number of each owner's last turn (owners with jobs only)."""
        self._lane: dict[str, int] = {}
        """The lane (0 first) of each owner with jobs waiting or running."""
        self._later = 0
        """Jobs of owners in later lanes running now."""
        self._idle: list[Worker] = []
        self._busy: set[Worker] = set()
        self.closed = False
        self.ended = 0
        """Workers killed because their job timed out, failed to finish or was cancelled."""
        self.jobs = 0
        """Jobs started in a worker."""

    # -- the fair queue ----------------------------------------------------------------------
    def _grant(self) -> None:
        """Give free workers to the waiting owners: fewest running first, then the first
        lane, then the one served least recently, then the oldest job."""
        while self._free > 0 and self._waiting:
            best: tuple[tuple[int, int, int, int], str] | None = None
            for owner, queue in self._waiting.items():
                running = self._running.get(owner, 0)
                if running >= self.share:
                    continue
                lane = self._lane.get(owner, 0)
                if lane and self._later >= self.size - 1 and self.size > 1:
                    continue  # the last free worker is kept for the first lane
                key = (running, lane, self._turn.get(owner, -1), queue[0][0])
                if best is None or key < best[0]:
                    best = (key, owner)
            if best is None:
                return
            owner = best[1]
            queue = self._waiting[owner]
            _, fut = queue.popleft()
            if not queue:
                del self._waiting[owner]
            if fut.done():  # cancelled, its task not yet told: it takes no worker
                self._forget(owner)
                continue
            if self._lane.get(owner, 0):
                self._later += 1
            self._running[owner] = self._running.get(owner, 0) + 1
            self._turn[owner] = next(self._order)
            self._free -= 1
            fut.set_result(None)

    def _release(self, owner: str) -> None:
        if self._lane.get(owner, 0):
            self._later -= 1
        left = self._running[owner] - 1
        if left:
            self._running[owner] = left
        else:
            del self._running[owner]
            self._forget(owner)
        self._free += 1
        self._grant()

    def _forget(self, owner: str) -> None:
        """Drop what is kept of an owner that has no job waiting or running."""
        if owner not in self._running and owner not in self._waiting:
            self._turn.pop(owner, None)
            self._lane.pop(owner, None)

    async def _acquire(self, owner: str, lane: int = 0) -> None:
        entry = (next(self._order), asyncio.get_running_loop().create_future())
        self._waiting.setdefault(owner, deque()).append(entry)
        if owner not in self._running:
            self._lane[owner] = lane
        self._grant()
        fut = entry[1]
        try:
            await fut
        except BaseException:
            if fut.done() and not fut.cancelled():
                self._release(owner)  # granted, then cancelled before it ran
            else:
                queue = self._waiting.get(owner)
                if queue is not None and entry in queue:
                    queue.remove(entry)
                    if not queue:
                        del self._waiting[owner]
                self._forget(owner)
            raise

    def waiting(self) -> dict[str, int]:
        """Jobs waiting for a worker, per owner."""
        return {owner: len(q) for owner, q in self._waiting.items()}

    def running(self) -> dict[str, int]:
        """Jobs running in a worker, per owner."""
        return dict(self._running)

    # -- jobs --------------------------------------------------------------------------------
    async def think(self, spec: str, seed: int, state: State, seat: int,
                    timeout: float, owner: str = "", lane: int = 0) -> str:
        """The bot's move text. TimeoutError after ``timeout`` seconds of thinking (that
        worker is killed); BotError if the bot raised (kind ``OverBudget``: it went over
        its CPU time); WorkerDied if its process died. ``owner``: the table asking (the
        fair queue's key); ``lane``: 0 for a table where people wait, 1 for bots only."""
        await self._acquire(owner, lane)
        try:
            if self.closed:
                raise WorkerDied("the server is stopping")
            self.jobs += 1
            worker = self._idle.pop() if self._idle else await asyncio.to_thread(Worker)
            if self.stopping():  # closed while this worker started
                await asyncio.to_thread(worker.end)
                raise WorkerDied("the server is stopping")
            self._busy.add(worker)
            try:
                reply = await self._ask(worker, (spec, seed, state, seat, self.budget),
                                        timeout)
            except BaseException:
                self._busy.discard(worker)
                self.ended += 1
                await asyncio.to_thread(worker.end)
                raise
            self._busy.discard(worker)
            self._idle.append(worker)
        finally:
            self._release(owner)
        if reply[0] == "ok":
            return str(reply[1])
        raise BotError(str(reply[1]), str(reply[2]))

    @staticmethod
    async def _ask(worker: Worker, job: tuple[Any, ...], timeout: float) -> tuple[Any, ...]:
        loop = asyncio.get_running_loop()

        def send() -> None:
            worker.conn.send(job_of(*job))

        try:
            await asyncio.to_thread(send)  # pickling a state: off the loop
        except OSError:
            raise WorkerDied("the bot's worker process died while thinking") from None
        readable: asyncio.Future[None] = loop.create_future()
        fd = worker.conn.fileno()

        def ready() -> None:
            if not readable.done():
                readable.set_result(None)

        loop.add_reader(fd, ready)
        try:
            await asyncio.wait_for(readable, timeout)
        finally:
            loop.remove_reader(fd)
        try:
            reply: tuple[Any, ...] = worker.conn.recv()
        except (EOFError, OSError):
            raise WorkerDied("the bot's worker process died while thinking") from None
        return reply

    def stopping(self) -> bool:
        """``closed``, read again after an ``await`` (a call, so a type checker does not
        keep the value it narrowed before the await)."""
        return self.closed

    def processes(self) -> list[BaseProcess]:
        """The live worker processes (idle and busy)."""
        return [w.process for w in (*self._idle, *self._busy)]

    def close(self) -> None:
        """End every worker (idle ones are asked to stop, busy ones killed); no new one
        starts after this."""
        self.closed = True
        for w in self._idle:
            with contextlib.suppress(OSError):
                w.conn.send(None)
        for w in (*self._idle, *self._busy):
            w.end()
        self._idle.clear()
        self._busy.clear()
