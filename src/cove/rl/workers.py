"""The batched environment across worker processes: ``vector_env(..., workers=k)``.

Each worker process holds a share of the tables as an in-process :class:`CoveVectorEnv`
whose arrays are views of one block of shared memory, so the observations, masks,
rewards and flags the learner reads are written where they lie: nothing is pickled or
sent through a pipe per step. A step is one flag per worker (a semaphore the main
process releases after writing the actions) and one shared count of workers done. With
``on_illegal="raise"`` the workers first check their tables' actions and wait for each
other (a barrier), so a bad batch moves no table anywhere, as in one process.
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
SHARED = ("actions", "seeds", "seeded", "command", "failed")


def _layout(tables: int, workers: int, match: Match, players: int) -> Layout:
    """Every shared array's shape and type; the workers' commands first (offset 0)."""
    return {"command": ((workers,), np.int64), "failed": ((workers,), np.bool_),
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
    command, failed = arrays["command"], arrays["failed"]
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
                 copy: bool = True, **kwargs: Any) -> None:
        self.num_envs = check_num_envs(num_envs)
        if isinstance(workers, bool) or not isinstance(workers, int) \
                or not 1 <= workers <= self.num_envs:
            raise EnvError(f"workers must be a whole number from 1 to num_envs "
                           f"({self.num_envs}), not {workers!r}")
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
        # kept here: a worker unpickles it after start() has let go of its arguments
        self._check = check = ctx.Barrier(workers) if raising and workers > 1 else None
        bounds = [self.num_envs * w // workers for w in range(workers + 1)]
        self._procs = [ctx.Process(target=_work, daemon=True, args=(
            w, bounds[w], bounds[w + 1], self._shm.name, layout,
            (game_id, probe.game.package, players, kwargs), self._go[w], self._done, check,
            self._errors)) for w in range(workers)]
        for p in self._procs:
            p.start()
        self._finalizer = weakref.finalize(self, _shut, self._procs, self._go, self._shm)
        self._started = False
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
        if self._arrays["failed"].any():
            messages = []
            while True:
                try:
                    messages.append(self._errors.get(timeout=0.5))
                except queue.Empty:
                    break
            raise EnvError("; ".join(dict.fromkeys(messages)) or "a worker stopped")

    def _run(self, what: int) -> None:
        self._arrays["command"][:] = what
        for go in self._go:
            go.release()
        self._wait()

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        seeds = table_seeds(seed, options, self.num_envs)
        self._arrays["seeded"][:] = [s is not None for s in seeds]
        self._arrays["seeds"][:] = [0 if s is None else s for s in seeds]
        self._run(RESET)
        self._started = True
        return self._out_obs(), self._out_infos()

    def step(self, actions: Any) -> tuple[Obs, npt.NDArray[np.float64],
                                          npt.NDArray[np.bool_], npt.NDArray[np.bool_],
                                          dict[str, Any]]:
        if not self._started:
            raise EnvError("call reset() before step()")
        self._arrays["actions"][:] = table_actions(actions, self.num_envs)
        self._run(STEP)
        a = self._arrays
        return (self._out_obs(), self._out(a["rewards"]), self._out(a["terminations"]),
                self._out(a["truncations"]), self._out_infos())

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
