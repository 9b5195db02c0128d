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
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import signal
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from cove.bots import make_bot
from cove.core.state import State

START_TIMEOUT = 120.0
"""Seconds a new worker may take to import Cove and say it is ready."""


class BotError(Exception):
    """A bot raised in its worker process: ``kind`` is the exception's class name."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"{kind}: {message}" if message else kind)
        self.kind = kind


class WorkerDied(Exception):
    """The worker process ended while thinking (killed, or out of memory)."""


def think(spec: str, seed: int, state: State, seat: int) -> str:
    """A bot's move as its text form (in a worker thread or process)."""
    return str(make_bot(spec, seed).act(state, seat))


def _serve(conn: Connection) -> None:
    """The worker's loop: a job ``(spec, seed, state, seat)`` in, ``("ok", text)`` or
    ``("error", kind, message)`` out; None or a closed pipe ends it. Ctrl-C reaches the
    whole process group: the worker leaves it to the server, which ends its workers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        conn.send(("ready",))
        while True:
            job = conn.recv()
            if job is None:
                return
            try:
                reply: tuple[str, ...] = ("ok", think(*job))
            except Exception as e:  # the parent reports any bot error the same way
                reply = ("error", type(e).__name__, str(e)[:300])
            conn.send(reply)
    except (EOFError, OSError):  # the parent went away (or ended this worker): stop quietly
        return


class Worker:
    """One worker process and the parent's end of its pipe."""

    def __init__(self) -> None:
        ctx = multiprocessing.get_context("spawn")
        parent, child = ctx.Pipe()
        self.conn = parent
        self.process: BaseProcess = ctx.Process(target=_serve, args=(child,),
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
    crashed) is killed and replaced on demand."""

    def __init__(self, size: int) -> None:
        self.size = max(1, size)
        self._slots: asyncio.Semaphore | None = None
        self._idle: list[Worker] = []
        self._busy: set[Worker] = set()
        self.closed = False
        self.ended = 0
        """Workers killed because their job timed out, failed to finish or was cancelled."""

    async def think(self, spec: str, seed: int, state: State, seat: int,
                    timeout: float) -> str:
        """The bot's move text. TimeoutError after ``timeout`` seconds of thinking (that
        worker is killed); BotError if the bot raised; WorkerDied if its process died."""
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.size)
        async with self._slots:
            if self.closed:
                raise WorkerDied("the server is stopping")
            worker = self._idle.pop() if self._idle else await asyncio.to_thread(Worker)
            if self.stopping():  # closed while this worker started
                await asyncio.to_thread(worker.end)
                raise WorkerDied("the server is stopping")
            self._busy.add(worker)
            try:
                reply = await self._ask(worker, (spec, seed, state, seat), timeout)
            except BaseException:
                self._busy.discard(worker)
                self.ended += 1
                await asyncio.to_thread(worker.end)
                raise
            self._busy.discard(worker)
            self._idle.append(worker)
        if reply[0] == "ok":
            return str(reply[1])
        raise BotError(str(reply[1]), str(reply[2]))

    @staticmethod
    async def _ask(worker: Worker, job: tuple[Any, ...], timeout: float) -> tuple[Any, ...]:
        loop = asyncio.get_running_loop()
        try:
            await asyncio.to_thread(worker.conn.send, job)  # pickling a state: off the loop
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
