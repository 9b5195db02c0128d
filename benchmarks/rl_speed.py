"""Environment steps per second beside the engine's raw decisions per second, same run.

    .venv/bin/python benchmarks/rl_speed.py [--seconds 1] [--rounds 3] [--game ID] [--json]

Three loops play uniformly random legal moves on ``log=False`` games, each for
``--seconds`` of CPU time (``time.process_time``), interleaved round by round so that a
change in the machine's load hits all three alike; the median of the rounds is reported:

- ``raw``: the contract alone (``to_move``, ``legal_actions``, ``apply``), the way
  ``benchmarks/speed.py`` counts decisions;
- ``raw+obs``: the same, also encoding the mover's observation (``observation_sparse``,
  the form the environments read) and ``legal_mask`` (what any learner needs from the
  game each step);
- ``aec``: the PettingZoo AEC environment (``cove.rl.aec_env``), reading every
  observation through ``env.last()`` and picking a random index from its action mask.

Every loop picks its move with the same cheap draw, ``random.Random(0).random()`` scaled to
the number of choices (about 0.1 us; numpy's ``Generator.integers`` costs 1.5-2.5 us a
call, which flattered the ratio by adding the same large constant to both sides). The
aec loop also finds the legal indices in the mask (``mask.nonzero()[0].tolist()``, about
0.7 us on a quiet machine, half of ``np.flatnonzero``): an agent given a mask has to.

- ``free``: the same AEC environment with the game's part replaced by stand-ins that cost
  next to nothing (a state that moves in place, observations and masks copied from ready
  arrays of the game's sizes): what PettingZoo, the wrapper and the agent's scan of the
  mask cost by themselves, a step.

- ``bare``: the same loop on a bare PettingZoo ``AECEnv`` with no game and no Cove in it
  (``_Bare``: agents take turns, ``observe`` hands back one ready dict, no copies, 300
  steps an episode): what PettingZoo's protocol and the agent's scan of the mask cost by
  themselves, the least any PettingZoo AEC environment pays a step.
- ``arrays``: making the two fresh arrays an environment hands out each step, from ready
  buffers (the observation as float32 from an ``array("d")`` of the game's size, in one
  conversion; the mask as int8 from ready bytes): the least numpy costs a step.

- ``vec``: the batched environment (``cove.rl.vector_env``, self-play, 16 tables,
  ``copy=False``): decisions per second, each table's move found in its mask as the
  ``aec`` loop finds it. ``vec/raw+obs`` is issue 38's batching target (at least 0.85:
  the batching costs at most 15% over the game's own decision and observation).
  ``step/raw+obs`` counts only the CPU time inside ``env.step``: the environment's own
  share, without the learner's scan of the masks (which ``raw+obs`` does not pay, as it
  draws from the legal list the game hands it).

``aec/raw`` is the issue's ratio (target: at least 0.5). ``bound`` is ``raw+obs/raw``,
the best ``aec/raw`` any wrapper could reach while the game's own encoding costs what it
does; ``aec/raw+obs`` is what the wrapper keeps of that. ``ceiling`` is ``t_raw / (t_raw +
t_free)``: the ``aec/raw`` this environment would reach if the game's observation, mask and
action indices cost nothing at all. ``limit`` is ``t_raw / (t_raw + t_bare + t_arrays)``:
the ``aec/raw`` of any PettingZoo AEC environment handing out fresh numpy arrays, however
its game encoded them, since such a step also carries out the raw decision (the mover,
its legal actions, the move). Players: 3 (1 for a solo game).
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import time
from array import array
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv

import cove
from cove.rl import CoveWorkersVectorEnv, aec_env, vector_env
from cove.rl._match import Match

Loop = Callable[[float], float]


def _timed(play_one: Callable[[int], int]) -> Loop:
    """A loop that plays games seeded 0, 1, 2, ... with ``play_one(seed)`` (which returns
    the game's steps) for ``seconds`` of CPU time and returns steps per second."""
    seeds = itertools.count()

    def run(seconds: float) -> float:
        steps, start = 0, time.process_time()
        while time.process_time() - start < seconds:
            steps += play_one(next(seeds))
        return steps / (time.process_time() - start)
    return run


def raw_loop(game_id: str, players: int, observe: bool = False) -> Loop:
    """Decisions per second through the contract; ``observe``: also encode the mover's
    observation and legal mask each decision."""
    return _timed(raw_games(game_id, players, observe))


def aec_loop(game_id: str, players: int) -> Loop:
    """AEC environment steps per second, a random legal index from each action mask."""
    return _timed(aec_games(game_id, players))


def raw_games(game_id: str, players: int, observe: bool = False) -> Callable[[int], int]:
    """``play_one(seed)``: one game through the contract, returning its decisions. A plain
    loop on purpose, not the lab's ``advance``: its callback per move would be counted as
    the engine's time."""
    game = cove.load(game_id)
    draw = random.Random(0).random

    def play_one(seed: int) -> int:
        state = game.new(players, seed=seed, log=False)
        # an engine from before the sparse form (to compare with) encodes the dense one
        encode = getattr(state, "observation_sparse", state.observation)
        steps = 0
        while not state.is_over:
            p = state.to_move()[0]
            legal = state.legal_actions(p)
            if observe:
                encode(p)
                state.legal_mask(p)
            state.apply(p, legal[int(draw() * len(legal))])
            steps += 1
        return steps
    return play_one


def aec_games(game_id: str, players: int, free: bool = False,
              bare: bool = False) -> Callable[[int], int]:
    """``play_one(seed)``: one episode of the AEC environment, returning its steps;
    ``free``: with the game's part replaced by stand-ins (``_FreeMatch``); ``bare``: a
    bare PettingZoo environment of the game's sizes instead (``_Bare``)."""
    env: Any = aec_env(game_id, players)
    if free:
        env.match = _FreeMatch(env.match)
    if bare:
        env = _Bare(players, env.match.obs_size, env.match.size)
    draw = random.Random(0).random
    return lambda seed: aec_episode(env, seed, draw)


def aec_episode(env: Any, seed: int, draw: Callable[[], float]) -> int:
    """One episode of any PettingZoo AEC environment with masked random moves (the legal
    indices found in the mask, as an agent given one must): its steps."""
    env.reset(seed=seed)
    steps = 0
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = obs["action_mask"].nonzero()[0].tolist()
        env.step(legal[int(draw() * len(legal))])
        steps += 1
    return steps


class _Moves:
    """A stand-in for a game's state that costs next to nothing: seats move in turn, five
    actions are always legal, the game ends after 300 moves with no score."""

    def __init__(self, players: int) -> None:
        self.n, self.moves, self.is_over = players, 0, False

    def to_move(self) -> tuple[int, ...]:
        return (self.moves % self.n,)

    def legal_actions(self, player: int) -> tuple[int, ...]:
        return FREE_LEGAL

    def apply(self, player: int, action: object) -> None:
        self.moves += 1
        self.is_over = self.moves >= 300

    def scores(self) -> list[int]:
        return [0] * self.n

    def winners(self) -> tuple[int, ...]:
        return tuple(range(self.n))

    def stats(self) -> dict[str, object]:
        return {}


FREE_LEGAL = (0, 1, 2, 3, 4)


class _FreeMatch(Match):
    """The environment's game with its own work replaced: ``_Moves`` for the state, the
    observation and the mask copied from ready arrays of the game's sizes."""

    def __init__(self, match: Match) -> None:
        self.__dict__.update(match.__dict__)
        self._zeros = np.zeros(self.obs_size, np.float32)
        self._mask = np.zeros(self.space.size, np.int8)
        self._mask[list(FREE_LEGAL)] = 1

    def reset(self, seed: int) -> None:
        self.state = _Moves(self.players)  # type: ignore[assignment]
        self._last_scores = [0.0] * self.players

    def safety_end(self) -> bool:
        return False

    def observation(self, seat: int) -> npt.NDArray[np.float32]:
        return self._zeros.copy()

    def mask(self, seat: int) -> npt.NDArray[np.int8]:
        return self._mask.copy()

    def legal_indices(self, seat: int) -> tuple[tuple[int, ...], list[int]]:
        return FREE_LEGAL, list(FREE_LEGAL)


class _Bare(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type hints
    """A PettingZoo AEC environment with no game in it: agents take turns for 300 steps,
    ``observe`` hands back one ready dict (an observation of ``obs_size`` zeros, a mask of
    ``size`` with five legal actions), with no copies and no checks."""

    metadata: dict[str, Any] = {"name": "bare_v0"}  # noqa: RUF012 - PettingZoo's own form

    def __init__(self, players: int, obs_size: int, size: int) -> None:
        super().__init__()
        self.possible_agents = [f"player_{p}" for p in range(players)]
        mask = np.zeros(size, np.int8)
        mask[list(FREE_LEGAL)] = 1
        self._obs: dict[str, npt.NDArray[Any]] = {
            "observation": np.zeros(obs_size, np.float32), "action_mask": mask}
        self._moves = 0

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self._moves = 0

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        return self._obs

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent]:
            self._was_dead_step(action)
            return
        self._moves += 1
        if self._moves >= 300:
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = self.possible_agents[self._moves % len(self.possible_agents)]


def bare_loop(game_id: str, players: int) -> Loop:
    """Steps per second of a bare PettingZoo environment of the game's sizes (``_Bare``)."""
    return _timed(aec_games(game_id, players, bare=True))


def arrays_loop(game_id: str, players: int) -> Loop:
    """The fresh observation and mask of one step made from ready buffers, per second."""
    match = aec_env(game_id, players).match
    values = array("d", bytes(8 * match.obs_size))
    mask = bytes(match.size)

    def make_arrays(seed: int) -> int:
        for _ in range(100):
            np.array(values, np.float32)
            np.frombuffer(bytearray(mask), np.int8)
        return 100
    return _timed(make_arrays)


def free_loop(game_id: str, players: int) -> Loop:
    """AEC steps per second with the game's work replaced by stand-ins (``_FreeMatch``)."""
    return _timed(aec_games(game_id, players, free=True))


VECTOR_TABLES = 16


def vector_loop(game_id: str, players: int, tables: int = VECTOR_TABLES,
                step_only: bool = False) -> Loop:
    """Decisions per second through the batched environment (``vector_env``, self-play,
    ``copy=False``), ``tables`` tables a step, each table's move a random legal index
    found in its mask as the AEC loop finds it. A step that restarts an ended table is
    not a decision and is not counted. ``step_only``: per CPU second spent in
    ``env.step`` alone, leaving out the learner's side (finding the legal indices in the
    masks), which the ``raw+obs`` loop does not pay either."""
    env = vector_env(game_id, players, tables, copy=False)
    obs, _ = env.reset(seed=0)
    masks = obs["action_mask"]
    draw = random.Random(0).random
    actions = np.zeros(tables, np.int64)
    ended = np.zeros(tables, np.bool_)
    in_step = 0.0

    def play_some(seed: int) -> int:
        nonlocal ended, in_step
        decisions = 0
        for _ in range(20):
            for i, row in enumerate(masks):
                legal = row.nonzero()[0].tolist()
                actions[i] = legal[int(draw() * len(legal))] if legal else 0
            decisions += tables - int(ended.sum())
            before = time.process_time()
            _, _, term, trunc, _ = env.step(actions)
            in_step += time.process_time() - before
            ended = term | trunc
        return decisions
    if not step_only:
        return _timed(play_some)

    def run(seconds: float) -> float:
        nonlocal in_step
        decisions, in_step, start = 0, 0.0, time.process_time()
        while time.process_time() - start < seconds:
            decisions += play_some(0)
        return decisions / in_step
    return run


def workers_rates(game_id: str, players: int, seconds: float, rounds: int,
                  tables: int = 64) -> dict[str, float]:
    """Decisions per wall-clock second of the batched environment with ``tables`` tables
    in this process, in one worker process and in two (``vector_env(workers=k)``), the
    learner's side (finding a legal index per table) in this process; the median of
    ``rounds`` interleaved rounds. Wall-clock time: the workers' CPU is not this
    process's."""
    envs = {"in-process": vector_env(game_id, players, tables, copy=False),
            "1 worker": vector_env(game_id, players, tables, workers=1, copy=False),
            "2 workers": vector_env(game_id, players, tables, workers=2, copy=False)}
    draw = random.Random(0).random
    rates: dict[str, list[float]] = {k: [] for k in envs}
    try:
        for _ in range(rounds):
            for name, env in envs.items():
                obs, _ = env.reset(seed=len(rates[name]))
                masks = obs["action_mask"]
                actions = np.zeros(tables, np.int64)
                decisions, start = 0, time.perf_counter()
                while time.perf_counter() - start < seconds:
                    for i, row in enumerate(masks):
                        legal = row.nonzero()[0].tolist()
                        actions[i] = legal[int(draw() * len(legal))] if legal else 0
                    env.step(actions)
                    decisions += tables
                rates[name].append(decisions / (time.perf_counter() - start))
    finally:
        for env in envs.values():
            env.close()
    rates["2 ready"] = [ready_rate(game_id, players, seconds, r) for r in range(rounds)]
    return {k: statistics.median(v) for k, v in rates.items()}


def ready_rate(game_id: str, players: int, seconds: float, seed: int,
               tables: int = 64, workers: int = 2) -> float:
    """Decisions per wall-clock second of the asynchronous loop (``ready`` = one worker's
    share): while the learner's side picks moves for the tables one worker returned, the
    other worker steps its own."""
    env = CoveWorkersVectorEnv(game_id, players, tables, workers=workers,
                               ready=tables // workers, copy=False)
    draw = random.Random(0).random
    try:
        env.async_reset(seed=seed)
        decisions, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            obs, *_, infos = env.recv()
            masks = obs["action_mask"]
            actions = np.zeros(len(masks), np.int64)
            for i, row in enumerate(masks):
                legal = row.nonzero()[0].tolist()
                actions[i] = legal[int(draw() * len(legal))] if legal else 0
            env.send(actions, infos["env_id"])
            decisions += len(masks)
        return decisions / (time.perf_counter() - start)
    finally:
        env.close()


def gym_async_rates(game_id: str, players: int, seconds: float, rounds: int,
                    tables: int = 8) -> dict[str, float]:
    """Learner steps per wall-clock second with random bots in the other seats:
    Gymnasium's ``AsyncVectorEnv`` of ``gym_env`` tables (a process and a pipe per table)
    against ``vector_env(opponents="random", workers=2)`` over the same tables; the
    median of ``rounds`` interleaved rounds."""
    from gymnasium.vector import AsyncVectorEnv

    from cove.rl import gym_env

    def make() -> Any:
        return gym_env(game_id, players, opponents="random")

    envs: dict[str, Any] = {
        "gymnasium async": AsyncVectorEnv([make] * tables),
        "cove 2 workers": vector_env(game_id, players, tables, workers=2,
                                     opponents="random", copy=False)}
    draw = random.Random(0).random
    rates: dict[str, list[float]] = {k: [] for k in envs}
    try:
        for r in range(rounds):
            for name, env in envs.items():
                obs, _ = env.reset(seed=r)
                steps, start = 0, time.perf_counter()
                actions = np.zeros(tables, np.int64)
                while time.perf_counter() - start < seconds:
                    for i, row in enumerate(obs["action_mask"]):
                        legal = row.nonzero()[0].tolist()
                        actions[i] = legal[int(draw() * len(legal))] if legal else 0
                    obs, *_ = env.step(actions)
                    steps += tables
                rates[name].append(steps / (time.perf_counter() - start))
    finally:
        for env in envs.values():
            env.close()
    return {k: statistics.median(v) for k, v in rates.items()}


def measure(game_id: str, players: int, seconds: float, rounds: int) -> dict[str, object]:
    loops = {"raw": raw_loop(game_id, players), "raw_obs": raw_loop(game_id, players, True),
             "aec": aec_loop(game_id, players), "free": free_loop(game_id, players),
             "bare": bare_loop(game_id, players), "arrays": arrays_loop(game_id, players),
             "vec": vector_loop(game_id, players),
             "vec_step": vector_loop(game_id, players, step_only=True)}
    rates: dict[str, list[float]] = {k: [] for k in loops}
    for _ in range(rounds):
        for name, run in loops.items():
            rates[name].append(run(seconds))
    raw, obs, aec, free, bare, arrays, vec, vec_step = (
        statistics.median(rates[k])
        for k in ("raw", "raw_obs", "aec", "free", "bare", "arrays", "vec", "vec_step"))
    return {"game": game_id, "players": players, "raw_per_s": round(raw),
            "raw_obs_per_s": round(obs), "aec_per_s": round(aec), "free_per_s": round(free),
            "aec_vs_raw": round(aec / raw, 3), "bound": round(obs / raw, 3),
            "aec_vs_raw_obs": round(aec / obs, 3),
            "bare_per_s": round(bare), "arrays_per_s": round(arrays),
            "ceiling": round((1 / raw) / (1 / raw + 1 / free), 3),
            "limit": round((1 / raw) / (1 / raw + 1 / bare + 1 / arrays), 3),
            "vec_per_s": round(vec), "vec_vs_raw_obs": round(vec / obs, 3),
            "vec_step_vs_raw_obs": round(vec_step / obs, 3)}


def table_size(game: cove.Game) -> int:
    """Players at every measured table: 3 (1 for a solo-only game)."""
    return max(game.min_players, min(3, game.max_players))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per loop and round")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds (median)")
    ap.add_argument("--game", help="one game id (default: every game)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--workers", action="store_true",
                    help="instead: the batched environment in this process, in 1 worker "
                    "and in 2 (decisions per wall-clock second, 64 tables)")
    ap.add_argument("--gym-async", action="store_true",
                    help="instead: learner steps per wall-clock second, random bots in "
                    "the other seats, 8 tables: Gymnasium's AsyncVectorEnv against "
                    "vector_env(workers=2)")
    args = ap.parse_args()
    games = [g for g in cove.all_games() if not args.game or g.id == args.game]
    if args.workers:
        print(f"{'game':18} {'p':>2} {'in-process':>10} {'1 worker':>9} {'2 workers':>9} "
              f"{'2/1':>5} {'2 ready':>8} {'ready/1':>7}")
        for game in games:
            players = table_size(game)
            w = workers_rates(game.id, players, args.seconds, args.rounds)
            print(f"{game.id:18} {players:>2} {w['in-process']:>10.0f} {w['1 worker']:>9.0f} "
                  f"{w['2 workers']:>9.0f} {w['2 workers'] / w['1 worker']:>5.2f} "
                  f"{w['2 ready']:>8.0f} {w['2 ready'] / w['1 worker']:>7.2f}", flush=True)
        return
    if args.gym_async:
        print(f"{'game':18} {'p':>2} {'gymnasium async':>15} {'cove 2 workers':>14} "
              f"{'ratio':>6}")
        for game in games:
            players = table_size(game)
            g = gym_async_rates(game.id, players, args.seconds, args.rounds)
            print(f"{game.id:18} {players:>2} {g['gymnasium async']:>15.0f} "
                  f"{g['cove 2 workers']:>14.0f} "
                  f"{g['cove 2 workers'] / g['gymnasium async']:>6.2f}", flush=True)
        return
    rows = []
    head = (f"{'game':18} {'p':>2} {'raw/s':>7} {'raw+obs/s':>9} {'aec/s':>7} "
            f"{'free/s':>7} {'bare/s':>7} {'arrays/s':>8} {'aec/raw':>7} {'bound':>6} "
            f"{'aec/raw+obs':>11} {'ceiling':>7} {'limit':>6} {'vec/s':>7} "
            f"{'vec/raw+obs':>11} {'step/raw+obs':>12}")
    if not args.json:
        print(head)
    for game in games:
        players = table_size(game)
        r = measure(game.id, players, args.seconds, args.rounds)
        rows.append(r)
        if not args.json:
            print(f"{r['game']:18} {r['players']:>2} {r['raw_per_s']:>7} "
                  f"{r['raw_obs_per_s']:>9} {r['aec_per_s']:>7} {r['free_per_s']:>7} "
                  f"{r['bare_per_s']:>7} {r['arrays_per_s']:>8} "
                  f"{r['aec_vs_raw']:>7.2f} {r['bound']:>6.2f} "
                  f"{r['aec_vs_raw_obs']:>11.2f} {r['ceiling']:>7.2f} {r['limit']:>6.2f} "
                  f"{r['vec_per_s']:>7} {r['vec_vs_raw_obs']:>11.2f} "
                  f"{r['vec_step_vs_raw_obs']:>12.2f}",
                  flush=True)
    if args.json:
        print(json.dumps({"rows": rows}, indent=1))


if __name__ == "__main__":
    main()
