"""The one game loop of Cove, and the backends that run the lab's games.

:func:`advance` is the loop: whoever is asked chooses and moves until the game ends or
only seats it does not drive are to move. ``cove play`` drives its bot seats with it
between human moves; :func:`play_game` plays a whole game between bots with it and
measures what designers read (``simulate``, ``compare``, ``arena``, ``report``, ``tune``
and the benchmarks all play through it), and spreads games over workers through a
:class:`Backend`:

- ``serial``: in this process;
- ``processes``: ``jobs`` local worker processes (spawned, so no state leaks in);
- ``ray``: Ray tasks, on a local Ray instance by default or on the cluster at
  ``address`` (needs the ``cove[lab]`` extra).

Game ``i`` of a run is seeded from the run's seed and ``i`` alone (:func:`game_seed`),
and each seat's bot from the game's seed and the seat, so every backend and worker count
gives the same games; only timings differ. Work is sent in chunks of consecutive game
indices and results come back in index order; tasks are drawn from the caller's iterator
only as workers need them, so a run of 10**8 games never builds its task list.
"""

from __future__ import annotations

import dataclasses
import importlib
import itertools
import time
from collections import deque
from collections.abc import Callable, Container, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from cove.bots import make_bot
from cove.bots.base import Bot
from cove.core.actions import Action, action_json, kind_name
from cove.core.errors import CoveError
from cove.core.game import Game
from cove.core.rng import Rng
from cove.core.state import State
from cove.lab.evaluation import Measured, measure_game

T = TypeVar("T")
R = TypeVar("R")

BACKENDS = ("serial", "processes", "ray")
MAX_DECISIONS = 1_000_000


class BackendError(CoveError):
    """A backend that cannot run here (an unknown name, Ray not installed, bad jobs)."""


class Deadline(TimeoutError):
    """A run's time ran out while it waited for results (``map``'s ``deadline``): the work
    still in play is abandoned."""


def _left(deadline: float | None) -> float | None:
    """Seconds until ``deadline`` (a ``time.monotonic`` value); Deadline once it passed."""
    if deadline is None:
        return None
    left = deadline - time.monotonic()
    if left <= 0:
        raise Deadline("the time ran out")
    return left


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` in a run seeded ``seed``."""
    r = Rng(seed)
    r.state ^= (index * 0x9E3779B97F4A7C15) & ((1 << 64) - 1)
    return r.next64() & ((1 << 63) - 1)


def chunks(indices: Iterable[int], size: int) -> Iterator[list[int]]:
    """``indices`` in lists of ``size`` (the last may be shorter), made lazily."""
    it = iter(indices)
    while part := list(itertools.islice(it, size)):
        yield part


# -- the one game loop -----------------------------------------------------------------------
def advance(
    state: State,
    choose: Callable[[State, int], Action],
    seats: Container[int] | None = None,
    after: Callable[[int, Action], bool | None] | None = None,
    rounds: Callable[[State], None] | None = None,
    max_decisions: int = MAX_DECISIONS,
    moves: int | None = None,
) -> None:
    """Play ``state`` on: the first mover in ``seats`` (default: every seat) chooses with
    ``choose(state, seat)`` and the move is applied, then ``after(seat, action)`` is told,
    until the game ends, only seats outside ``seats`` are to move, ``moves`` moves were
    made, or ``after`` returns True (the last two play a game part-way). ``rounds(state)``
    is told when a round is over: the next mover sits before the seat that moved last (the
    turn order wrapped round), and when the game ends.

    In a simultaneous step the driven seats commit in seat order (before any seat left to
    the caller), and the engine keeps each commitment hidden until the reveal.
    RuntimeError when the game passes ``max_decisions`` moves (a game that does not end)."""
    if seats is None and after is None and rounds is None and moves is None:
        _play_out(state, choose, max_decisions)
        return
    if moves is not None and moves < 0:
        raise ValueError(f"moves must be at least 0, got {moves}")
    last = -1
    left = -1 if moves is None else moves
    while left:
        left -= 1
        movers = state.to_move()
        if rounds is not None and last >= 0 and (not movers or movers[0] < last):
            rounds(state)
        if not movers:
            return
        if seats is None:
            p = movers[0]
        else:
            for p in movers:
                if p in seats:
                    break
            else:
                return
        action = choose(state, p)
        state.apply(p, action)
        last = p
        if after is not None and after(p, action):
            left = 0
        elif state.decisions > max_decisions:
            raise RuntimeError(f"{state.game.id}: game seeded {state.seed} did not end in "
                               f"{max_decisions} moves")
    if rounds is not None and last >= 0:  # the last of ``moves`` may have ended a round
        movers = state.to_move()
        if not movers or movers[0] < last:
            rounds(state)


def _play_out(state: State, choose: Callable[[State, int], Action], max_decisions: int) -> None:
    """:func:`advance` with every seat driven and nobody told: the same moves with the
    least work per move (a random move costs only a few microseconds, so a
    :class:`RandomChooser` is inlined rather than called)."""
    to_move, apply = state.to_move, state.apply
    left = max_decisions - state.decisions
    if type(choose) is RandomChooser:
        choice, legal = choose.rng.choice, state.legal_actions
        while movers := to_move():
            p = movers[0]
            apply(p, choice(legal(p)))
            left -= 1
            if left < 0:
                break
    else:
        while movers := to_move():
            p = movers[0]
            apply(p, choose(state, p))
            left -= 1
            if left < 0:
                break
    if left < 0:
        raise RuntimeError(f"{state.game.id}: game seeded {state.seed} did not end in "
                           f"{max_decisions} moves")


def play_out(state: State, choose: Callable[[State, int], Action],
             max_decisions: int = MAX_DECISIONS) -> State:
    """Play ``state`` to its end, every seat choosing with ``choose(state, seat)``, and
    return it (:func:`advance` for a whole game)."""
    _play_out(state, choose, max_decisions)
    return state


class RandomChooser:
    """A chooser that picks uniformly among the legal actions with ``rng`` (the benchmarks'
    and tests' random playouts; the ``random`` bot goes through :class:`Bot` instead)."""

    __slots__ = ("rng",)

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def __call__(self, state: State, p: int) -> Action:
        return self.rng.choice(state.legal_actions(p))


def seated(bots: Sequence[Bot]) -> Callable[[State, int], Action]:
    """A chooser that asks seat ``p``'s bot, ``bots[p]``, through :meth:`Bot.act`."""

    def choose(state: State, p: int) -> Action:
        return bots[p].act(state, p)

    return choose


@dataclass(frozen=True)
class Drama:
    """How a game's lead moved, from its running scores (``state.scores()``, sampled once
    a round, when the turn order wraps round, and at the end)."""

    lead_changes: int
    """Times the sole leader became another player (a tie for the lead in between does
    not count as a change)."""
    decided_at: float
    """Share of the game's decisions played when the eventual winner last came level with
    the top score and stayed there: 0 = never behind, 1 = only the last move put them
    there. -1 when no player won."""
    halftime_leader_lost: int
    """1 when a sole leader at the half-way decision did not win, 0 when it won, -1 when
    nobody led alone at half-way or nobody won."""
    score_moves: int
    """Samples at which the scores changed before the last decision; 0 means the game
    showed no running score (it scores only at its end), so the other figures say nothing."""


class ScoreTrace:
    """The running scores of a game in play, kept only where they change."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.points: list[tuple[int, tuple[float, ...]]] = [(0, tuple(state.scores()))]

    def sample(self, state: State) -> None:
        """Keep the scores now if they changed (``advance`` calls this once a round: a
        ``scores()`` call can cost as much as a move)."""
        now = tuple(state.scores())
        if now != self.points[-1][1]:
            self.points.append((state.decisions, now))

    def drama(self, winners: Sequence[int]) -> Drama:
        return drama(self.points, self.state.decisions, winners)


def drama(points: Sequence[tuple[int, tuple[float, ...]]], decisions: int,
          winners: Sequence[int]) -> Drama:
    """The :class:`Drama` of a game of ``decisions`` moves from its score trace: (moves
    played, scores) at the start and wherever the scores changed, in order."""
    total = max(1, decisions)
    changes, last = 0, None
    for _, sc in points:
        lead = _sole_leader(sc)
        if lead is not None:
            changes += last is not None and lead != last
            last = lead
    decided = -1.0
    if winners:
        decided = 0.0
        for i, (_, sc) in enumerate(points):
            top = max(sc)
            if all(sc[w] < top for w in winners):
                decided = points[i + 1][0] / total if i + 1 < len(points) else 1.0
    half = [sc for d, sc in points if d <= total / 2][-1]
    leader = _sole_leader(half)
    lost = -1 if leader is None or not winners else int(leader not in winners)
    moves = sum(1 for d, _ in points[1:] if d < decisions)
    return Drama(changes, decided, lost, moves)


def _sole_leader(scores: Sequence[float]) -> int | None:
    top = max(scores)
    leaders = [p for p, x in enumerate(scores) if x == top]
    return leaders[0] if len(leaders) == 1 else None


@dataclass(frozen=True)
class GameResult:
    """What one finished game between bots gives the lab (JSON-ready via ``to_json``)."""

    scores: tuple[float, ...]
    winners: tuple[int, ...]
    decisions: int
    stats: tuple[tuple[str, float | str], ...] = ()
    choices: int = 0
    """Decisions with more than one legal action."""
    options_offered: int = 0
    """Legal actions summed over those decisions (branching = options_offered / choices)."""
    kinds: tuple[tuple[str, int], ...] = ()
    """How often each kind of action was chosen (the ``kind`` of its JSON form)."""
    times: tuple[tuple[float, ...], ...] = ()
    """Per seat, seconds of each decision with a choice (only when timed)."""
    iterations: tuple[int, ...] = ()
    search_time: tuple[float, ...] = ()
    drama: Drama | None = None
    """Lead changes and how late the game was decided, from the running scores."""
    measured: Measured | None = None
    """The evaluator's pass over the game (:mod:`cove.lab.evaluation`), when asked for."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "scores": list(self.scores), "winners": list(self.winners),
            "decisions": self.decisions, "stats": dict(self.stats),
            "choices": self.choices, "options_offered": self.options_offered,
            "kinds": dict(self.kinds)}
        if self.drama is not None:
            out["drama"] = dataclasses.asdict(self.drama)
        if self.measured is not None:
            out["measured"] = self.measured.to_json()
        if self.times:
            out["times"] = [list(t) for t in self.times]
            out["iterations"] = list(self.iterations)
            out["search_time"] = list(self.search_time)
        return out

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> GameResult:
        return cls(
            scores=tuple(float(s) for s in d["scores"]),
            winners=tuple(int(w) for w in d["winners"]),
            decisions=int(d["decisions"]),
            stats=tuple(sorted((str(k), v) for k, v in dict(d.get("stats", {})).items())),
            choices=int(d.get("choices", 0)),
            options_offered=int(d.get("options_offered", 0)),
            kinds=tuple(sorted((str(k), int(v)) for k, v in dict(d.get("kinds", {})).items())),
            times=tuple(tuple(float(x) for x in t) for t in d.get("times", ())),
            iterations=tuple(int(i) for i in d.get("iterations", ())),
            search_time=tuple(float(x) for x in d.get("search_time", ())),
            drama=Drama(**d["drama"]) if isinstance(d.get("drama"), dict) else None,
            measured=(Measured.from_json(d["measured"]) if isinstance(d.get("measured"), dict)
                      else None),
        )


_KINDS: dict[str, dict[Any, str]] = {}
"""Per game id, the kind of each action value met so far (actions are small values)."""


def action_kind(action: Any) -> str:
    """The ``kind`` of an action's JSON form."""
    if getattr(action, "to_json", None) is not None:
        return str(action_json(action).get("kind", "?"))
    cls = type(action)
    return kind_name(cls) if dataclasses.is_dataclass(action) else cls.__name__.lower()


def play_game(
    game: Game,
    players: int,
    seed: int,
    bot_specs: Sequence[str],
    options: Mapping[str, Any],
    *,
    timed: bool = False,
    trace: bool = True,
    max_decisions: int = MAX_DECISIONS,
    measure: str = "",
    clock: Callable[[], float] = time.perf_counter,
    maker: Callable[[str, int], Bot] = make_bot,
) -> tuple[GameResult, State]:
    """Play one seeded game between bots (one spec per seat): its result and final state.

    ``timed`` measures each bot decision that had a choice (and a searching bot's
    iterations), for the arena, with ``clock`` (wall time by default; the ladder passes
    ``time.process_time``, CPU seconds); ``trace`` samples the running scores once a round
    for the drama figures (:class:`Drama`; it costs up to a third more time with random
    bots in the games whose ``scores()`` is dear); ``measure`` names an evaluator
    (:func:`cove.lab.evaluation.make_judge`) that judges the finished game, replayed
    position by position, for the balance measures (``GameResult.measured``). None of
    them changes the game. ``maker(spec, seed)`` builds each seat's bot (``make_bot``;
    the ladder's also builds bots from outside Cove)."""
    state = game.new(players, seed, log=False, **options)
    bots = [maker(bot_specs[p], game_seed(seed, 1000 + p)) for p in range(players)]
    choices = offered = 0
    kinds: dict[str, int] = {}
    known = _KINDS.setdefault(game.id, {})
    times: list[list[float]] = [[] for _ in range(players)]
    iters = [0] * players
    search = [0.0] * players
    scores = ScoreTrace(state) if trace and players > 1 else None
    legal_counts: list[int] = []
    agent = 0.0

    def choose(state: State, p: int) -> Action:
        nonlocal choices, offered, agent
        n_legal = len(state.legal_actions(p))
        t0 = clock() if timed or measure else 0.0
        action = bots[p].act(state, p)
        if measure:
            agent += clock() - t0
            legal_counts.append(n_legal)
        if n_legal > 1:
            choices += 1
            offered += n_legal
            if timed:
                dt = clock() - t0
                times[p].append(dt)
                done = getattr(bots[p], "last_iterations", None)
                if isinstance(done, int):
                    iters[p] += done
                    search[p] += dt
        try:
            k = known[action]
        except KeyError:
            k = known[action] = action_kind(action)
        except TypeError:  # an unhashable action
            k = action_kind(action)
        kinds[k] = kinds.get(k, 0) + 1
        return action

    began = clock()
    advance(state, choose, rounds=None if scores is None else scores.sample,
            max_decisions=max_decisions)
    winners = tuple(state.winners())
    measured = None
    if measure:
        measured = measure_game(state, legal_counts, measure, seed=game_seed(seed, 2000),
                                agent_seconds=agent, rules_seconds=clock() - began - agent)
    result = GameResult(
        scores=tuple(float(s) for s in state.scores()),
        winners=winners,
        decisions=state.decisions,
        stats=tuple(sorted(state.stats().items())),
        choices=choices,
        options_offered=offered,
        kinds=tuple(sorted(kinds.items())),
        times=tuple(tuple(t) for t in times) if timed else (),
        iterations=tuple(iters) if timed else (),
        search_time=tuple(search) if timed else (),
        drama=None if scores is None else scores.drama(winners),
        measured=measured,
    )
    return result, state


# What a worker needs to play a chunk of games: (module holding GAME, players, run seed,
# the bot specs of each game index's seats (a callable's name), options, timed, indices).
@dataclass(frozen=True)
class Chunk:
    module: str
    players: int
    seed: int
    specs: tuple[str, ...]
    seating: str
    """"fixed" (specs are the seats), "rotate" (the arena's seating) or "listed" (``tables``
    gives each game's seating)."""
    options: tuple[tuple[str, Any], ...]
    timed: bool
    indices: tuple[int, ...]
    trace: bool = True
    measure: str = ""
    """An evaluator spec: judge each finished game for the balance measures ("" = not)."""
    tables: tuple[tuple[int, ...], ...] = ()
    """With "listed": per game of ``indices``, the entry (index into ``specs``) of each seat."""
    deals: tuple[int, ...] = ()
    """Per game of ``indices``, the number whose :func:`game_seed` seeds it (default: the
    game's index); games sharing a deal are the same deal (the ladder's mirrored games)."""
    cpu: bool = False
    """Time decisions in CPU seconds of the worker (``time.process_time``), not wall time."""
    maker: Callable[[str, int], Bot] | None = None
    """Builds a seat's bot from (spec, seed); None: ``make_bot``. A module-level function,
    so that it reaches worker processes by name."""


def seating(entries: int, players: int, index: int) -> list[int]:
    """Entry index for each seat in game ``index`` (the arena's rotation: see
    :mod:`cove.lab.arena`)."""
    if entries > players:
        # a window of consecutive entries slides round the list; every second lap seats
        # it in reverse, so over 2 * entries games each entry holds each seat equally often
        seats = [(index + s) % entries for s in range(players)]
        if (index // entries) % 2:
            seats.reverse()
        return seats
    filled = [i % entries for i in range(players)]
    return [filled[(s + index) % players] for s in range(players)]


def seats_for(chunk: Chunk, index: int, position: int = 0) -> list[str]:
    """The specs seated in game ``index``, the chunk's game number ``position``."""
    if chunk.seating == "fixed":
        return list(chunk.specs)
    if chunk.seating == "listed":
        return [chunk.specs[e] for e in chunk.tables[position]]
    return [chunk.specs[e] for e in seating(len(chunk.specs), chunk.players, index)]


def play_chunk(chunk: Chunk) -> list[tuple[int, GameResult]]:
    """Play a chunk's games (in a worker or here): (index, result) in index order."""
    game: Game = importlib.import_module(chunk.module).GAME
    options = dict(chunk.options)
    clock = time.process_time if chunk.cpu else time.perf_counter
    maker = chunk.maker or make_bot
    return [(i, play_game(game, chunk.players,
                          game_seed(chunk.seed, chunk.deals[k] if chunk.deals else i),
                          seats_for(chunk, i, k), options, timed=chunk.timed,
                          trace=chunk.trace, measure=chunk.measure, clock=clock,
                          maker=maker)[0])
            for k, i in enumerate(chunk.indices)]


# -- backends --------------------------------------------------------------------------------
class Backend(Protocol):
    name: str
    workers: int

    def map(self, func: Callable[[T], R], tasks: Iterable[T],
            deadline: float | None = None) -> Iterator[R]:
        """``map(func, tasks)``, results in task order, tasks drawn as workers need them;
        :class:`Deadline` when the ``time.monotonic()`` value ``deadline`` passes before
        the next result is in (a serial backend checks it between tasks)."""
        ...

    def close(self) -> None: ...


class Serial:
    name = "serial"
    workers = 1

    def map(self, func: Callable[[T], R], tasks: Iterable[T],
            deadline: float | None = None) -> Iterator[R]:
        if deadline is None:
            return map(func, tasks)
        return _until(func, tasks, deadline)

    def close(self) -> None:
        pass


def _until(func: Callable[[T], R], tasks: Iterable[T], deadline: float) -> Iterator[R]:
    for task in tasks:
        _left(deadline)
        yield func(task)


class Processes:
    """Spawned local worker processes; at most ``window`` tasks queued or running."""

    name = "processes"

    def __init__(self, jobs: int, window: int | None = None) -> None:
        self.workers = jobs
        self.window = max(1, window or 4 * jobs)

    def map(self, func: Callable[[T], R], tasks: Iterable[T],
            deadline: float | None = None) -> Iterator[R]:
        import multiprocessing as mp

        it = iter(tasks)
        with mp.get_context("spawn").Pool(self.workers) as pool:
            pending: deque[Any] = deque()
            for task in itertools.islice(it, self.window):
                pending.append(pool.apply_async(func, (task,)))
            while pending:
                try:
                    result = pending.popleft().get(_left(deadline))
                except mp.TimeoutError:
                    raise Deadline("the time ran out") from None
                for task in itertools.islice(it, 1):
                    pending.append(pool.apply_async(func, (task,)))
                yield result

    def close(self) -> None:
        pass


class RayBackend:
    """Ray tasks: a local Ray instance with ``jobs`` CPUs, or the cluster at ``address``."""

    name = "ray"

    def __init__(self, jobs: int, address: str | None = None) -> None:
        try:
            import ray
        except ImportError as e:  # pragma: no cover - depends on the extra
            raise BackendError("--backend ray needs Ray: pip install 'cove[lab]' "
                               "(or use --backend processes)") from e
        self._ray = ray
        self._started = False
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                      "configure_logging": False}
            if address:
                ray.init(address=address, **kwargs)
            else:
                ray.init(num_cpus=jobs, **kwargs)
            self._started = True
        self.workers = jobs if not address else int(ray.cluster_resources().get("CPU", jobs))  # type: ignore[no-untyped-call]
        self.window = 4 * self.workers

    def map(self, func: Callable[[T], R], tasks: Iterable[T],
            deadline: float | None = None) -> Iterator[R]:
        from ray.exceptions import GetTimeoutError

        remote = self._ray.remote(func)
        it = iter(tasks)
        pending: deque[Any] = deque(remote.remote(t) for t in itertools.islice(it, self.window))
        while pending:
            ref = pending.popleft()
            try:
                result = self._ray.get(ref, timeout=_left(deadline))
            except GetTimeoutError:
                self._ray.cancel(ref, force=True)
                for other in pending:
                    self._ray.cancel(other, force=True)
                raise Deadline("the time ran out") from None
            for task in itertools.islice(it, 1):
                pending.append(remote.remote(task))
            yield result

    def close(self) -> None:
        if self._started:
            self._ray.shutdown()
            self._started = False


def make_backend(name: str = "serial", jobs: int = 1, address: str | None = None) -> Backend:
    """The named backend; ``serial`` with ``jobs > 1`` means ``processes``."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise BackendError(f"jobs must be a whole number of at least 1, got {jobs!r}")
    if name not in BACKENDS:
        raise BackendError(f"unknown backend {name!r}; choose one of {', '.join(BACKENDS)}")
    if address and name != "ray":
        raise BackendError("--address joins a Ray cluster: use it with --backend ray")
    if name == "ray":
        return RayBackend(jobs, address)
    if name == "processes" or jobs > 1:
        return Processes(jobs)
    return Serial()


def run_chunks(backend: Backend, chunks_: Iterable[Chunk],
               deadline: float | None = None) -> Iterator[tuple[int, GameResult]]:
    """Every game of ``chunks_`` through ``backend``: (index, result), in chunk order;
    :class:`Deadline` once the ``time.monotonic()`` value ``deadline`` passes (see
    :meth:`Backend.map`)."""
    if isinstance(backend, Serial):
        for c in chunks_:
            _left(deadline)
            yield from play_chunk(c)
        return
    for part in backend.map(play_chunk, chunks_, deadline):
        yield from part


def chunk_size(games: int, workers: int, cap: int = 50) -> int:
    """Games per task: several tasks per worker (for balance), at most ``cap``."""
    return max(1, min(cap, games // (workers * 4) if workers > 1 else cap))
