"""The batched environment across worker processes: ``vector_env(..., workers=k)``.

Each worker process holds a share of the tables as an in-process :class:`CoveVectorEnv`
whose arrays are views of one block of shared memory, so the observations, masks,
rewards and flags the learner reads are written where they lie: nothing is pickled or
sent through a pipe per step. A step is one flag per worker (a semaphore the main
process releases after writing the actions) and one shared count of workers done. With
``on_illegal="raise"`` the workers first check their tables' actions and wait for each
other (a barrier), so a bad batch moves no table anywhere, as in one process.

``ready=k`` (fewer than ``num_envs``) adds EnvPool's asynchronous loop: ``async_reset()``,
then ``recv()`` hands back the first ``k`` tables whose worker has finished (their
indices in ``infos["env_id"]``) and ``send(actions, env_id)`` moves exactly those, while
the other workers go on stepping theirs. Each worker holds ``num_envs / workers`` tables
and ``k`` is a whole number of workers' shares, so every batch has ``k`` rows. A worker
marks itself finished (one flag in the shared memory) before it counts itself done, so
each count the main process takes matches one finished worker. Under
``on_illegal="raise"`` a worker that finds an illegal action in its share moves none of
its tables and ``recv()`` raises; other workers of the same ``send`` are not held back.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import queue
import traceback
import weakref
from collections.abc import Sequence
from multiprocessing import shared_memory
from multiprocessing.synchronize import Barrier, Semaphore
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from cove.core import registry
from cove.rl._match import EnvError, Match
from cove.rl._multi import obs_space
from cove.rl.vector import (
    CoveVectorEnv,
    Obs,
    array_layout,
    check_num_envs,
    table_actions,
    table_seeds,
)

STEP, RESET, CLOSE = 1, 2, 3
Layout = dict[str, tuple[tuple[int, ...], type[np.generic]]]
SHARED = ("actions", "seeds", "seeded", "command", "failed", "finished")


def _layout(tables: int, workers: int, match: Match, players: int) -> Layout:
    """Every shared array's shape and type; the workers' commands first (offset 0)."""
    return {"command": ((workers,), np.int64), "failed": ((workers,), np.bool_),
            "finished": ((workers,), np.bool_),
            **array_layout(tables, match, players),
            "actions": ((tables,), np.int64), "seeds": ((tables,), np.int64),
            "seeded": ((tables,), np.bool_)}


def _carve(buf: memoryview | None, layout: Layout) -> dict[str, npt.NDArray[Any]]:
    """The arrays of ``layout`` laid one after another in ``buf`` (8-byte aligned)."""
    assert buf is not None, "shared memory that is closed"
    out: dict[str, npt.NDArray[Any]] = {}
    at = 0
    for name, (shape, dtype) in layout.items():
        size = int(np.prod(shape)) * np.dtype(dtype).itemsize
        out[name] = np.ndarray(shape, dtype, buffer=buf, offset=at)
        at += (size + 7) // 8 * 8
    return out


def _nbytes(layout: Layout) -> int:
    return sum((int(np.prod(shape)) * np.dtype(dtype).itemsize + 7) // 8 * 8
               for shape, dtype in layout.values()) or 8


def _work(index: int, lo: int, hi: int, memory: str, layout: Layout,
          make: tuple[str, str, int, dict[str, Any]], go: Semaphore, done: Semaphore,
          check: Barrier | None, errors: mp.Queue[str]) -> None:
    """A worker's loop: tables ``lo..hi`` of the shared arrays."""
    game_id, module, players, kwargs = make
    shm = shared_memory.SharedMemory(name=memory)
    arrays = _carve(shm.buf, layout)
    command, failed, finished = arrays["command"], arrays["failed"], arrays["finished"]
    try:
        # a game registered in the main process only (a test's, a plug-in's) is found here
        registry.REGISTRY.setdefault(game_id, module)
        mine = {name: a[lo:hi] for name, a in arrays.items() if name not in SHARED}
        env = CoveVectorEnv(game_id, players, hi - lo, copy=False, arrays=mine, **kwargs)
    except Exception:
        failed[index] = True
        errors.put(traceback.format_exc())
        return
    finally:
        finished[index] = True
        done.release()  # ready, or failed: the main process waits for every worker
    # the loop runs until CLOSE; the process then ends and the main process unlinks the
    # shared memory
    actions, seeds, seeded = (arrays[n][lo:hi] for n in ("actions", "seeds", "seeded"))
    while True:
        go.acquire()
        what = int(command[index])
        if what == CLOSE:
            return
        try:
            failed[index] = False
            if what == RESET:
                env.reset(seed=[int(s) if k else None for s, k in zip(seeds, seeded,
                                                                      strict=True)])
            else:
                if check is not None:
                    bad = _refusal(env, actions)
                    failed[index] = bad is not None
                    if bad is not None:
                        errors.put(bad)
                    check.wait()
                    if failed.any():
                        continue
                env.step(actions)
        except Exception as e:  # handed to the main process, which raises it
            failed[index] = True
            errors.put(str(e) if isinstance(e, EnvError) else traceback.format_exc())
        finally:
            finished[index] = True  # before the count: recv() reads the flag after it
            done.release()


def _refusal(env: CoveVectorEnv, actions: npt.NDArray[np.int64]) -> str | None:
    """What ``env.step(actions)`` would refuse (an illegal index), before any table moves."""
    try:
        env.check_actions(actions)
    except EnvError as e:
        return str(e)
    return None


class CoveWorkersVectorEnv(VectorEnv[Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` tables split across ``workers`` processes (see the module's text).
    Plays exactly the games the in-process environment plays with the same seeds."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - Gymnasium's
        "render_modes": [], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, game_id: str, players: int, num_envs: int, *, workers: int,
                 copy: bool = True, ready: int | None = None, **kwargs: Any) -> None:
        self.num_envs = check_num_envs(num_envs)
        if isinstance(workers, bool) or not isinstance(workers, int) \
                or not 1 <= workers <= self.num_envs:
            raise EnvError(f"workers must be a whole number from 1 to num_envs "
                           f"({self.num_envs}), not {workers!r}")
        self.ready = _check_ready(ready, self.num_envs, workers)
        # made here first, so bad input fails in this process with the usual message
        local = CoveVectorEnv(game_id, players, 1, **kwargs)
        probe = local.matches[0]
        self.players = players
        self.workers = workers
        self.copy = bool(copy)
        self.self_play = local.self_play
        self.single_observation_space = obs_space(probe)
        self.single_action_space = spaces.Discrete(probe.size)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        layout = _layout(self.num_envs, workers, probe, players)
        self._shm = shared_memory.SharedMemory(create=True, size=_nbytes(layout))
        self._arrays = _carve(self._shm.buf, layout)
        ctx = mp.get_context("spawn")
        self._go = [ctx.Semaphore(0) for _ in range(workers)]
        self._done = ctx.Semaphore(0)
        self._errors: mp.Queue[str] = ctx.Queue()
        raising = kwargs.get("on_illegal", "raise") == "raise"
        together = self.ready == self.num_envs  # every step moves every worker's share
        # kept here: a worker unpickles it after start() has let go of its arguments
        self._check = check = (ctx.Barrier(workers) if raising and together and workers > 1
                               else None)
        bounds = [self.num_envs * w // workers for w in range(workers + 1)]
        self._procs = [ctx.Process(target=_work, daemon=True, args=(
            w, bounds[w], bounds[w + 1], self._shm.name, layout,
            (game_id, probe.game.package, players, kwargs), self._go[w], self._done, check,
            self._errors)) for w in range(workers)]
        for p in self._procs:
            p.start()
        self._finalizer = weakref.finalize(self, _shut, self._procs, self._go, self._shm)
        self._started = False
        self._bounds = bounds
        self._busy = [False] * workers  # per worker: sent a command not yet received
        # the asynchronous loop's batch, gathered into arrays made once
        share = self.num_envs // workers
        self._batch = {name: np.zeros((self.ready, *a.shape[1:]), a.dtype)
                       for name, a in self._arrays.items() if name not in SHARED}
        self._batch_ids = np.zeros(self.ready, np.int64)
        self._share = share
        self._wait()  # every worker has made its tables

    def _wait(self) -> None:
        """Wait for every worker to finish its command; a worker that died or failed is
        an EnvError carrying its message."""
        for _ in self._go:
            while not self._done.acquire(timeout=1.0):
                dead = [p for p in self._procs if not p.is_alive()]
                if dead:
                    self._arrays["failed"][:] = True
                    break
            else:
                continue
            break
        self._arrays["finished"][:] = False
        self._raise_failed()

    def _raise_failed(self) -> None:
        if self._arrays["failed"].any():
            messages = []
            while True:
                try:
                    messages.append(self._errors.get(timeout=0.5))
                except queue.Empty:
                    break
            codes = [p.exitcode for p in self._procs if not p.is_alive()]
            raise EnvError("; ".join(dict.fromkeys(messages)) or (
                f"a worker process stopped (exit codes {codes}); a script that makes "
                f"workers must make them under `if __name__ == \"__main__\":`, since the "
                f"workers start by importing it"))

    def _run(self, what: int) -> None:
        self._drain()
        self._arrays["command"][:] = what
        for go in self._go:
            go.release()
        self._wait()

    def _drain(self) -> None:
        """Wait for the workers still busy with a command of the asynchronous loop, and
        drop what they return: a synchronous call starts from every worker idle."""
        while any(self._busy):
            self._collect()
        self._arrays["failed"][:] = False
        while True:  # messages of the dropped results
            try:
                self._errors.get_nowait()
            except queue.Empty:
                break

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        self._seed(seed, options)
        self._run(RESET)
        self._started = True
        return self._out_obs(), self._out_infos()

    def _seed(self, seed: int | Sequence[int | None] | None,
              options: dict[str, Any] | None) -> None:
        seeds = table_seeds(seed, options, self.num_envs)
        self._arrays["seeded"][:] = [s is not None for s in seeds]
        self._arrays["seeds"][:] = [0 if s is None else s for s in seeds]

    def step(self, actions: Any) -> tuple[Obs, npt.NDArray[np.float64],
                                          npt.NDArray[np.bool_], npt.NDArray[np.bool_],
                                          dict[str, Any]]:
        if not self._started:
            raise EnvError("call reset() before step()")
        self._drain()
        self._arrays["actions"][:] = table_actions(actions, self.num_envs)
        self._run(STEP)
        a = self._arrays
        return (self._out_obs(), self._out(a["rewards"]), self._out(a["terminations"]),
                self._out(a["truncations"]), self._out_infos())

    # -- the asynchronous loop (ready=k) ---------------------------------------------------
    def async_reset(self, *, seed: int | Sequence[int | None] | None = None,
                    options: dict[str, Any] | None = None) -> None:
        """New games at every table, without waiting: :meth:`recv` hands back the first
        ``ready`` tables as their workers finish."""
        self._drain()
        self._seed(seed, options)
        self._started = True
        self._send_to(range(self.workers), RESET)

    def send(self, actions: Any, env_id: Any) -> None:
        """One action per table of ``env_id`` (the tables the last :meth:`recv` handed
        back, in any order of whole workers' shares); those tables move, the others'
        workers go on with what they were sent."""
        if not self._started:
            raise EnvError("call async_reset() before send()")
        ids = np.asarray(env_id, np.int64).reshape(-1)
        chosen = table_actions(actions, len(ids))
        owners = sorted({int(i) // self._share for i in ids}) \
            if ids.size and ids.min() >= 0 and ids.max() < self.num_envs else []
        whole = sorted(t for w in owners for t in range(self._bounds[w], self._bounds[w + 1]))
        if not owners or sorted(ids.tolist()) != whole:
            raise EnvError(f"env_id must list whole workers' tables ({self._share} a "
                           f"worker, as recv() returns them), not {ids.tolist()!r}")
        busy = [w for w in owners if self._busy[w]]
        if busy:
            raise EnvError(f"tables {ids.tolist()!r} are still moving (worker {busy[0]}); "
                           f"send() the tables recv() returned")
        self._arrays["actions"][ids] = chosen
        self._send_to(owners, STEP)

    def recv(self) -> tuple[Obs, npt.NDArray[np.float64], npt.NDArray[np.bool_],
                            npt.NDArray[np.bool_], dict[str, Any]]:
        """The first ``ready`` tables whose workers finished, as a step returns them,
        with their indices in ``infos["env_id"]``."""
        if sum(self._busy) * self._share < self.ready:
            raise EnvError(f"recv() needs {self.ready} tables moving; "
                           f"{sum(self._busy) * self._share} are: send() first")
        got = [self._collect() for _ in range(self.ready // self._share)]
        if self._arrays["failed"][got].any():  # a share that refused its actions
            self._raise_failed()
        ids = self._batch_ids
        ids[:] = [t for w in got for t in range(self._bounds[w], self._bounds[w + 1])]
        for name, out in self._batch.items():
            np.take(self._arrays[name], ids, axis=0, out=out)
        b = self._batch
        obs = {"observation": self._out(b["observation"]),
               "action_mask": self._out(b["action_mask"])}
        infos: dict[str, Any] = {"env_id": self._out(ids)}
        if self.self_play:
            infos |= {"seat": self._out(b["seat"]), "rewards": self._out(b["all_rewards"])}
        return (obs, self._out(b["rewards"]), self._out(b["terminations"]),
                self._out(b["truncations"]), infos)

    def _send_to(self, owners: Sequence[int] | range, what: int) -> None:
        command = self._arrays["command"]
        for w in owners:
            command[w] = what
            self._busy[w] = True
            self._go[w].release()

    def _collect(self) -> int:
        """Wait for one busy worker to finish; which one it was."""
        finished = self._arrays["finished"]
        while not self._done.acquire(timeout=1.0):
            if any(not p.is_alive() for p in self._procs):
                self._arrays["failed"][:] = True
                self._raise_failed()
        # the count matches one finished worker; its flag was set before the count
        w = next(w for w, busy in enumerate(self._busy) if busy and finished[w])
        finished[w] = False
        self._busy[w] = False
        return w

    def _out(self, array: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return array.copy() if self.copy else array

    def _out_obs(self) -> Obs:
        a = self._arrays
        return {"observation": self._out(a["observation"]),
                "action_mask": self._out(a["action_mask"])}

    def _out_infos(self) -> dict[str, Any]:
        if not self.self_play:
            return {}
        return {"seat": self._out(self._arrays["seat"]),
                "rewards": self._out(self._arrays["all_rewards"])}

    def close_extras(self, **kwargs: Any) -> None:
        """Stop the workers and free the shared memory."""
        self._arrays = {}
        self._finalizer()


def _check_ready(ready: object, num_envs: int, workers: int) -> int:
    """``ready`` as the batch size of the asynchronous loop (None: every table)."""
    if ready is None:
        return num_envs
    share = num_envs // workers
    if num_envs % workers or isinstance(ready, bool) or not isinstance(ready, int) \
            or not 1 <= ready <= num_envs or ready % share:
        raise EnvError(f"ready must be a whole number of workers' shares of the tables "
                       f"(num_envs {num_envs} split evenly over {workers} workers: "
                       f"a multiple of {num_envs / workers:g} up to {num_envs}), "
                       f"not {ready!r}")
    return ready


def _shut(procs: list[Any], go: list[Semaphore],
          shm: shared_memory.SharedMemory) -> None:
    """Stop the workers and give the shared memory back."""
    command = np.ndarray((len(go),), np.int64, buffer=shm.buf)  # first in the layout
    command[:] = CLOSE
    del command
    for g in go:
        g.release()
    for p in procs:
        p.join(timeout=5)
        if p.is_alive():
            p.terminate()
    # the caller may still hold arrays of copy=False: the memory stays theirs to read
    with contextlib.suppress(BufferError):
        shm.close()
    shm.unlink()
