"""``cove ladder``: a rated pool of bots per game, from mirrored deals, with bootstrap
intervals and a skill-depth curve.

Pool. By default: ``random``, ``greedy``, ``mcts`` at budgets doubling from 1/8 to 8 times
its default (``mcts:scale=X``: ``scale`` multiplies both of its budgets, iterations and
forward-model calls, the game's own default budget included), the levels (``easy``,
``medium``, ``hard``) and OpenSpiel's own information-set MCTS (``ismcts``, through Cove's
OpenSpiel registration: :mod:`cove.rl.ismcts`) as an outside opponent. A level that is
the same bot as a pool entry is not played twice: it is named as that entry's alias
(``easy`` is ``greedy``; ``medium`` is ``mcts``; ``hard`` is ``mcts:scale=4`` unless the
game declares its own ``hard`` parameters, as four of the five games do). ``ismcts`` is
left out, saying why, when OpenSpiel is not installed or the game has perfect information
(OpenSpiel's ISMCTS searches imperfect-information games only).

Schedule. Play goes in batches; each batch seats every entry at one table (or sits one
out), and each table is one *deal*: a game seed played once per rotation of the table's
seats, so every entry of the table plays that same deal from every seat and the luck of
the deal cancels (duplicate play, as in duplicate bridge).

- Two seats: a batch is one round of the circle method (the round-robin schedule of
  tournaments): the entries are paired so that over ``k - 1`` batches (``k`` entries, one
  more as a bye when ``k`` is odd) every pair meets once, each meeting two games of one
  deal with the seats swapped. Every pair meets equally often after every full round.
- Three to five seats: each batch splits the entries into tables greedily: the entry that
  has played least opens a table, and the entries that have met its table least join it
  (ties in a seeded random order), so pairs meet as evenly as tables allow. A last table
  short of seats is filled with entries already seated this batch, those that have played
  least. A table's deal is played in all ``players`` rotations of one cyclic order of its
  seats, and the cyclic order changes deal by deal (deal ``d`` uses order ``d`` mod
  ``(players - 1)!``), so where a table recurs its ``players!`` seatings are all played.
- Fewer entries than seats: one table, the entries repeated in order to fill it (as the
  arena does).

Every deal puts each of its entries in every seat equally often, so over any number of
whole deals every entry holds every seat equally often.

Seeds. Deal ``d`` is seeded from (seed, d) (:func:`cove.lab.runner.game_seed`) and each
seat's bot from (deal seed, seat), so the mirrored games of a deal share the deal and the
seats' random numbers. The schedule depends on the seed and the pool only, never on
results, so the same seed, pool and number of games give the same games on any backend.

Ratings. The arena's Bradley-Terry fit (:func:`cove.lab.arena.bradley_terry`: pairs of
seats in every game, the better-placed seat winning, on the Elo scale with mean 1500 and
one virtual draw per pair of entries). The 95% intervals are a bootstrap: the deals are
resampled with replacement (a deal's mirrored games stay together, so what the mirroring
cancels stays cancelled), the ratings refitted, and the 2.5% and 97.5% points of each
entry's refitted ratings kept (widened to hold the point estimate if they did not). The
bootstrap generator is seeded from the run's seed.

Stop rule. After each batch, once every entry has played :data:`MIN_GAMES` games and every
pair of entries has met: stop when every entry's interval lies within +-``precision``
win-percentage points (default 2). An interval's half-width is the larger distance from
the rating to an end of its interval, ``h`` Elo; against an equal opponent a difference of
``h`` wins ``100 / (1 + 10 ** (-h / 400)) - 50`` points above 50%, so +-2 points is
``h <= 400 * log10(52 / 48) = 13.9`` Elo. A budget ends the run first otherwise: ``games``
(at most that many games, in whole deals), or ``minutes`` (the games in play when it
passes are abandoned, and only whole deals count). With neither given, ``minutes`` is
:data:`DEFAULT_MINUTES`.

Skill depth. For the ``mcts`` budgets, the win share of each budget against the default
budget: met head to head (pairs of seats, ties half, with a Wilson interval) and as the
fitted ratings expect it (``1 / (1 + 10 ** ((R_default - R_budget) / 400))``, its interval
from the bootstrap).

Time. Each decision with a choice is timed in CPU seconds of the worker process
(``time.process_time``), so ``cpu_per_move`` compares entries at equal time whatever else
runs on the machine.
"""

from __future__ import annotations

import html
import itertools
import math
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from cove.bots import LEVELS, Bot, BotSpecError, make_bot, split_specs
from cove.bots.defaults import declared
from cove.core.errors import CoveError
from cove.core.game import Game
from cove.games import REGISTRY, load
from cove.lab.arena import bradley_terry, pair_results, summarize, win_shares
from cove.lab.report import ACCENT, CSS, INK, MUTED, WARN, slope_text
from cove.lab.runner import Chunk, Deadline, make_backend, run_chunks
from cove.lab.simulate import manifest
from cove.lab.stats import quantile, wilson

Progress = Callable[[int, int], None]

DEFAULT_BUDGETS: tuple[Fraction, ...] = tuple(Fraction(2) ** k for k in range(-3, 4))
"""Multiples of the default ``mcts`` budget in the default pool: 1/8 .. 8."""
ISMCTS_SPEC = "ismcts:simulations=50"
"""The outside opponent of the default pool: OpenSpiel's ISMCTS at 50 simulations a move,
from half to ten times the CPU a move of the default ``mcts`` in the five games (Python
ISMCTS costs 1.5 to 17 ms a simulation there)."""
PRECISION = 2.0
"""Stop once every rating's 95% interval is within this many win-% points."""
REPLICATES = 200
MIN_GAMES = 30
"""The stop rule waits until every entry has played this many games and every pair of
entries has met: mirrored deals can balance exactly by chance in the first few, and an
interval from them would be no interval."""
"""Bootstrap replicates (refits) per interval."""
DEFAULT_MINUTES = 25.0
"""The time budget when neither games nor minutes are given."""
OUTSIDE = ("ismcts",)
"""Bots from outside Cove the ladder seats (besides ``cove.bots``)."""
MAX_SEATS = 5


class LadderError(CoveError, ValueError):
    """Bad input to a ladder: what was wrong and what is valid."""


# -- the pool --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Entry:
    """One bot of the pool: its spec, how it is shown, its ``mcts`` budget (a multiple of
    the default, for the skill-depth curve) and the levels that are the same bot."""

    spec: str
    label: str
    budget: Fraction | None = None
    aliases: tuple[str, ...] = ()


def budget_text(b: Fraction) -> str:
    return str(b.numerator) if b.denominator == 1 else f"{b.numerator}/{b.denominator}"


def budget_spec(b: Fraction) -> str:
    """The spec of ``mcts`` at ``b`` times its default budget (``mcts`` itself at 1)."""
    return "mcts" if b == 1 else f"mcts:scale={float(b):.10g}"


def budget_of(spec: str) -> Fraction | None:
    """The budget multiple of a spec that is ``mcts`` or ``mcts:scale=X`` and nothing
    else; None for any other spec."""
    name, _, params = spec.strip().partition(":")
    if name.strip().lower() != "mcts":
        return None
    if not params.strip():
        return Fraction(1)
    key, eq, value = params.strip().partition("=")
    if key.strip() != "scale" or not eq or "," in value:
        return None
    try:
        b = Fraction(value.strip()).limit_denominator(1 << 16)
    except (ValueError, ZeroDivisionError):
        return None
    return b if b > 0 else None


def label_of(spec: str) -> str:
    b = budget_of(spec)
    if b is None:
        return spec
    return "mcts" if b == 1 else f"mcts x{budget_text(b)}"


def parse_budgets(text: str | Sequence[str]) -> tuple[Fraction, ...]:
    """``1/8,1/2,2`` -> the budgets, sorted, with the default budget (1) always in."""
    pieces = text.split(",") if isinstance(text, str) else list(text)
    out = {Fraction(1)}
    for piece in (p.strip() for p in pieces):
        try:
            b = Fraction(piece)
        except (ValueError, ZeroDivisionError):
            b = Fraction(0)
        if not Fraction(1, 100) <= b <= 1000:
            raise LadderError(f"--budgets: {piece[:20]!r} is not a budget; give multiples of "
                              "the default mcts budget from 1/100 to 1000, comma-separated, "
                              "e.g. 1/8,1/4,1/2,1,2,4,8")
        out.add(b)
    return tuple(sorted(out))


def outside_missing(game: Game) -> str | None:
    """Why ``ismcts`` cannot play ``game`` here, or None when it can."""
    if not (game.hidden_information or game.simultaneous):
        return (f"OpenSpiel's ISMCTS searches imperfect-information games only, and "
                f"{game.id} has none")
    try:
        import cove.rl.ismcts  # noqa: F401
    except ImportError:
        return "OpenSpiel is not installed (pip install 'cove[openspiel]')"
    return None


def default_pool(game: Game, budgets: Sequence[Fraction] = DEFAULT_BUDGETS,
                 notes: list[str] | None = None) -> list[Entry]:
    """random, greedy, mcts at ``budgets``, the levels that are bots of their own, and
    ``ismcts`` when it can play (else a note in ``notes`` says why)."""
    entries = [Entry("random", "random"), Entry("greedy", "greedy")]
    entries += [Entry(budget_spec(b), label_of(budget_spec(b)), b) for b in budgets]
    own = declared(game)
    for level, spec in LEVELS.items():
        same = next((i for i, e in enumerate(entries) if e.spec == spec), None)
        if same is not None and level not in own:
            e = entries[same]
            entries[same] = Entry(e.spec, e.label, e.budget, (*e.aliases, level))
        else:
            entries.append(Entry(level, level))
    why = outside_missing(game)
    if why is None:
        entries.append(Entry(ISMCTS_SPEC, "ismcts"))
    elif notes is not None:
        notes.append(f"ismcts is left out: {why}")
    return entries


FIT_BATCHES = 12
"""The default pool fits its time budget when this many batches would: the entries whose
moves cost most leave it until they do (:func:`fit_pool`)."""
FIT_POSITIONS = 3
"""Positions of a probe game each entry's move is timed on."""


def probe_positions(game: Game, players: int, seed: int, options: Mapping[str, Any]
                    ) -> tuple[int, list[tuple[Any, int]]]:
    """One game between ``greedy`` bots: its decisions, and a few positions with a choice
    (spread over the game) to time the entries' moves on."""
    state = game.new(players, seed, log=False, **options)
    bots = [make_bot("greedy", seed + p) for p in range(players)]
    seen: list[tuple[Any, int]] = []
    decisions = 0
    while not state.is_over and decisions < 100_000:
        p = state.to_move()[0]
        if len(state.legal_actions(p)) > 1:
            seen.append((state.clone(), p))
        state.apply(p, bots[p].act(state, p))
        decisions += 1
    step = max(1, len(seen) // FIT_POSITIONS)
    return decisions, seen[step // 2::step][:FIT_POSITIONS]


def move_seconds(spec: str, positions: Sequence[tuple[Any, int]], seed: int) -> float:
    """CPU seconds of one move of the entry ``spec``, averaged over ``positions``."""
    if not positions:
        return 0.0
    bot = make_entry(spec, seed)
    start = time.process_time()
    for state, p in positions:
        bot.act(state.clone(), p)
    return (time.process_time() - start) / len(positions)


def fit_pool(entries: Sequence[Entry], per_game: Mapping[str, float], players: int,
             cpu_seconds: float, notes: list[str]) -> list[Entry]:
    """The default pool cut to its time budget: while :data:`FIT_BATCHES` batches (each
    entry plays ``players`` games a batch) would cost more than ``cpu_seconds``, the
    costliest ``mcts`` budget above the default leaves (never one a level is named
    after) or ISMCTS halves its simulations, each with a note saying so. ``per_game``:
    an entry's CPU seconds of moves in one game."""
    kept = list(entries)
    cost = dict(per_game)

    def batch() -> float:
        return sum(cost[e.spec] for e in kept) * players

    while batch() * FIT_BATCHES > cpu_seconds:
        # the costliest of: the mcts budgets above the default (not those a level is named
        # after; those below cost less than the default, which stays, so dropping them
        # would save little and cut the low end off the skill-depth curve), and ismcts
        # while it has more than ISMCTS_FEWEST simulations to give up
        movable = [e for e in kept if (e.budget is not None and e.budget > 1
                                       and not e.aliases)
                   or simulations(e.spec) > ISMCTS_FEWEST]
        if not movable:
            notes.append(f"the pool still needs about {batch() * FIT_BATCHES / 60:.0f} CPU "
                         f"minutes for {FIT_BATCHES} batches; it plays what its time allows")
            break
        worst = max(movable, key=lambda e: cost[e.spec])
        was = f"about {cost[worst.spec]:.0f} CPU s of moves a game"
        sims = simulations(worst.spec)
        if sims:  # half the simulations, half the cost
            fewer = max(ISMCTS_FEWEST, sims // 2)
            spec = f"ismcts:simulations={fewer}"
            cost[spec] = cost[worst.spec] * fewer / sims
            kept[kept.index(worst)] = Entry(spec, worst.label, None, worst.aliases)
            notes.append(f"ismcts plays {fewer} simulations a move instead of {sims} ({was} "
                         f"at {sims}): {FIT_BATCHES} batches must fit the time budget")
            continue
        kept.remove(worst)
        notes.append(f"{worst.label} is left out of the default pool ({was}): "
                     f"{FIT_BATCHES} batches must fit the time budget (--budgets or --pool "
                     f"to choose)")
    return kept


ISMCTS_FEWEST = 10
"""The fewest simulations a move the default pool's ISMCTS is cut to."""


def simulations(spec: str) -> int:
    """The simulations of an ``ismcts:simulations=N`` spec; 0 for any other spec."""
    name, _, params = spec.partition(":")
    key, _, value = params.partition("=")
    if name.strip() != "ismcts" or key.strip() != "simulations" or "," in value:
        return 0
    return int(value) if value.strip().isdigit() else 0


def make_entry(spec: str, seed: int = 0) -> Bot:
    """A pool entry's bot: any ``cove.bots`` spec, or ``ismcts[:params]`` (OpenSpiel's
    ISMCTS, :mod:`cove.rl.ismcts`). The runner's ``maker`` for the ladder's games."""
    name, _, params = spec.strip().partition(":")
    if name.strip().lower() == "ismcts":
        from cove.rl.ismcts import make

        return make(params, seed)
    return make_bot(spec, seed)


def check_pool(game: Game, specs: Sequence[str]) -> list[Entry]:
    """The entries of an explicit pool, each spec checked; LadderError naming what is
    valid otherwise."""
    if len(specs) < 2:
        raise LadderError(f"--pool needs at least 2 bot specs, got {len(specs)}; e.g. "
                          "--pool random,greedy,mcts")
    seen: set[str] = set()
    for spec in specs:
        key = spec.strip().lower()
        if key in seen:
            raise LadderError(f"--pool names {spec!r} twice; every entry must be another bot")
        seen.add(key)
        if key.partition(":")[0].strip() in OUTSIDE:
            why = outside_missing(game)
            if why is not None:
                raise LadderError(f"--pool: {spec!r} cannot play here: {why}")
        try:
            make_entry(spec)
        except BotSpecError as e:
            extra = (f"; the ladder also seats {', '.join(OUTSIDE)} (OpenSpiel's ISMCTS)"
                     if "unknown bot" in str(e) else "")
            raise LadderError(f"--pool: {e}{extra}") from None
    return [Entry(s, label_of(s), budget_of(s)) for s in specs]


# -- the schedule ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Deal:
    """One deal: its number (its seed is game_seed(seed, number)), its batch and the
    seating of each of its games (entry per seat)."""

    number: int
    batch: int
    seatings: tuple[tuple[int, ...], ...]
    closes_batch: bool = False
    """The batch's last deal: the stop rule is checked once it is played."""


def circle_round(k: int, r: int) -> list[tuple[int, int]]:
    """Round ``r`` of the circle method for ``k`` entries: the pairs that meet (an entry
    paired with the bye, ``k`` when ``k`` is odd, sits out)."""
    m = k + k % 2
    ring = [0, *(((i + r) % (m - 1)) + 1 for i in range(m - 1))]
    return [(min(a, b), max(a, b)) for a, b in ((ring[i], ring[m - 1 - i])
                                                for i in range(m // 2)) if a < k and b < k]


class Tables:
    """The greedy tables of three to five seats (see the module's text)."""

    def __init__(self, k: int, n: int, seed: int) -> None:
        self.k, self.n = k, n
        self.rng = random.Random(seed)
        self.meets = [[0] * k for _ in range(k)]
        self.played = [0] * k

    def batch(self) -> list[list[int]]:
        k, n = self.k, self.n
        order = list(range(k))
        self.rng.shuffle(order)
        order.sort(key=lambda e: self.played[e])  # stable: ties keep the shuffled order
        left, tables = list(order), []
        while left:
            table = [left.pop(0)]
            while len(table) < n and left:
                pick = min(left, key=lambda e: sum(self.meets[e][x] for x in table))
                left.remove(pick)
                table.append(pick)
            tables.append(table)
        last = tables[-1]
        while len(last) < n:
            spare = [e for e in order if e not in last]
            last.append(min(spare, key=lambda e: (self.played[e], sum(self.meets[e][x]
                                                                       for x in last))))
        for table in tables:
            for e in table:
                self.played[e] += 1
            for a, b in itertools.combinations(table, 2):
                self.meets[a][b] += 1
                self.meets[b][a] += 1
        return tables


def rotations(table: Sequence[int], deal: int) -> list[tuple[int, ...]]:
    """The seatings of one deal: every rotation of a cyclic order of ``table``, the order
    chosen by the deal's number (one of ``(n - 1)!``)."""
    n = len(table)
    orders = list(itertools.permutations(table[1:]))
    cyclic = (table[0], *orders[deal % len(orders)]) if n > 2 else tuple(table)
    return [tuple(cyclic[(s + j) % n] for s in range(n)) for j in range(n)]


def schedule(k: int, n: int, seed: int) -> Iterator[Deal]:
    """The ladder's deals in order, without end (see the module's text)."""
    tables = Tables(k, n, seed) if k >= n > 2 else None
    deal = 0
    for batch in itertools.count():
        if k < n:
            rows = [[i % k for i in range(n)]]
        elif tables is None:
            rows = [list(p) for p in circle_round(k, batch)]
        else:
            rows = tables.batch()
        for j, row in enumerate(rows):
            yield Deal(deal, batch, tuple(rotations(row, deal)), j == len(rows) - 1)
            deal += 1


# -- ratings ---------------------------------------------------------------------------------
def points(elo: float) -> float:
    """Win-% points above 50 that ``elo`` rating points give against an equal opponent."""
    return 100.0 / (1.0 + math.pow(10.0, -elo / 400.0)) - 50.0


def elo_for(win_points: float) -> float:
    """The inverse of :func:`points`: ``400 * log10((50 + p) / (50 - p))``."""
    return 400.0 * math.log10((50.0 + win_points) / (50.0 - win_points))


def expected(r_a: float, r_b: float) -> float:
    """a's expected share against b from their Elo-scale ratings."""
    return 1.0 / (1.0 + math.pow(10.0, (r_b - r_a) / 400.0))


Pairs = list[tuple[int, int, float]]


def deal_pairs(games: Sequence[Mapping[str, Any]], players: int) -> Pairs:
    """Every pair result (a, b, a's result) of a deal's games."""
    out: Pairs = []
    for r in games:
        share = win_shares(r["winners"], players)
        out.extend(pair_results(r["entries"], share, r["scores"]))
    return out


def fit(k: int, deals: Sequence[Pairs], weights: Sequence[int] | None = None) -> list[float]:
    """Bradley-Terry ratings from the pair results of ``deals`` (each counted
    ``weights[i]`` times)."""
    pw = [[0.0] * k for _ in range(k)]
    for i, pairs in enumerate(deals):
        w = 1 if weights is None else weights[i]
        if not w:
            continue
        for a, b, x in pairs:
            pw[a][b] += w * x
            pw[b][a] += w * (1.0 - x)
    return bradley_terry(pw)


@dataclass
class Bootstrap:
    """Point ratings, their 95% intervals and the refitted ratings behind them."""

    ratings: list[float]
    low: list[float]
    high: list[float]
    samples: list[list[float]] = field(default_factory=list)

    def half_width(self, e: int) -> float:
        """Entry ``e``'s interval half-width in Elo: the larger side."""
        return max(self.high[e] - self.ratings[e], self.ratings[e] - self.low[e])

    def widest_points(self) -> float:
        """The widest interval, as win-% points (see :func:`points`)."""
        return max(points(self.half_width(e)) for e in range(len(self.ratings)))


def bootstrap(k: int, deals: Sequence[Pairs], replicates: int, seed: int) -> Bootstrap:
    """Ratings with 95% intervals from ``replicates`` refits on deals drawn with
    replacement (a generator seeded from ``seed``: the same data give the same
    intervals)."""
    ratings = fit(k, deals)
    rng = random.Random(seed)
    n = len(deals)
    samples = []
    for _ in range(replicates):
        counts = [0] * n
        for i in rng.choices(range(n), k=n):
            counts[i] += 1
        samples.append(fit(k, deals, counts))
    low, high = [], []
    for e in range(k):
        xs = sorted(s[e] for s in samples) or [ratings[e]]
        low.append(min(quantile(xs, 0.025), ratings[e]))
        high.append(max(quantile(xs, 0.975), ratings[e]))
    return Bootstrap(ratings, low, high, samples)


# -- the run ---------------------------------------------------------------------------------
def _deal_chunks(game: Game, players: int, specs: Sequence[str], seed: int,
                 options: Mapping[str, Any], deals: Iterator[Deal],
                 meta: dict[int, Deal]) -> Iterator[Chunk]:
    """One chunk per game, game indices consecutive (a deal's mirrored games run on
    several workers at once: one slow deal holds up the results behind it less)."""
    index = 0
    opts = tuple(sorted(options.items()))
    for deal in deals:
        for seats in deal.seatings:
            meta[index] = deal
            yield Chunk(REGISTRY[game.id], players, seed, tuple(specs), "listed", opts, True,
                        (index,), trace=False, tables=(seats,), deals=(deal.number,),
                        cpu=True, maker=make_entry)
            index += 1


def run_ladder(
    game_id: str,
    players: int | None = None,
    pool: Sequence[str] | None = None,
    budgets: Sequence[Fraction] | None = None,
    games: int | None = None,
    minutes: float | None = None,
    precision: float = PRECISION,
    seed: int = 1,
    options: Mapping[str, Any] | None = None,
    replicates: int = REPLICATES,
    jobs: int = 1,
    backend: str = "serial",
    address: str | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Rate a pool of bots on ``game_id`` (see the module's text); a JSON-ready dict."""
    game = load(game_id)
    n = max(2, game.min_players) if players is None else players
    if not 2 <= n <= MAX_SEATS:
        raise LadderError(f"--players: a ladder seats 2 to {MAX_SEATS} players, not {n}")
    opts = dict(options or {})
    probe = game.new(n, seed, log=False, **opts)  # checks players and options
    notes: list[str] = []
    if pool is not None and budgets is not None:
        raise LadderError("--budgets shapes the default pool; with --pool, name the mcts "
                          "budgets in the pool itself (mcts:scale=0.5,mcts,mcts:scale=2)")
    entries = (check_pool(game, split_specs(pool)) if pool is not None
               else default_pool(game, budgets or DEFAULT_BUDGETS, notes))
    if games is not None and games < n:
        raise LadderError(f"--games: a ladder plays whole deals of {n} games (one per "
                          f"seat), so at least {n}; got {games}")
    if minutes is not None and not minutes > 0:
        raise LadderError(f"--minutes must be above 0, got {minutes}")
    if not 0 < precision < 50:
        raise LadderError(f"--precision is in win-% points, above 0 and below 50; got "
                          f"{precision}")
    if replicates < 1:
        raise LadderError(f"--bootstrap needs at least 1 replicate, got {replicates}")
    fitted = False
    if games is None and minutes is None:
        minutes = DEFAULT_MINUTES
    runner = make_backend(backend, jobs, address)
    if pool is None and budgets is None and games is None:
        # the default pool, sized to its time: the costliest budgets leave until a dozen
        # batches fit (timed on a probe game's positions, before the clock starts)
        try:
            length, positions = probe_positions(game, n, seed, probe.options.to_dict())
            per_game = {e.spec: move_seconds(e.spec, positions, seed) * length / n
                        for e in entries}
        except BaseException:
            runner.close()
            raise
        entries = fit_pool(entries, per_game, n, 60.0 * (minutes or 0) * runner.workers,
                           notes)
        fitted = True
    specs = [e.spec for e in entries]
    k = len(entries)
    start = time.perf_counter()
    deadline = None if minutes is None else time.monotonic() + 60.0 * minutes
    target = elo_for(precision)
    boot_seed = seed * 1_000_003 + 17
    meta: dict[int, Deal] = {}
    deals: Iterator[Deal] = schedule(k, n, seed)
    if games is not None:
        deals = itertools.takewhile(lambda d: (d.number + 1) * n <= games, deals)
    results: list[dict[str, Any]] = []
    by_deal: list[Pairs] = []
    open_deal: list[dict[str, Any]] = []
    played = [0] * k
    met: set[tuple[int, int]] = set()
    batches = 0
    stop = "games"
    work = _deal_chunks(game, n, specs, seed, probe.options.to_dict(), deals, meta)

    def report() -> None:
        if progress is None:
            return
        if games is not None:
            progress(len(results), games)
        elif deadline is not None:
            total = int(60 * (minutes or 0))
            progress(min(total, int(time.perf_counter() - start)), total)

    try:
        for i, r in run_chunks(runner, work, deadline):
            deal = meta.pop(i)
            rec = r.to_json()
            rec.update(index=i, deal=deal.number, batch=deal.batch,
                       entries=list(deal.seatings[len(open_deal)]))
            open_deal.append(rec)
            if len(open_deal) < len(deal.seatings):
                continue
            results.extend(open_deal)
            by_deal.append(deal_pairs(open_deal, n))
            for done in open_deal:
                for e in done["entries"]:
                    played[e] += 1
            met.update((min(a, b), max(a, b)) for a, b, _ in by_deal[-1])
            open_deal = []
            report()
            if deal.closes_batch:
                batches += 1
                if min(played) >= MIN_GAMES and len(met) == k * (k - 1) // 2 and \
                        bootstrap(k, by_deal, replicates, boot_seed).widest_points() \
                        <= precision:
                    stop = "precision"
                    break
            if deadline is not None and time.monotonic() >= deadline:
                stop = "minutes"
                break
    except Deadline:
        stop = "minutes"
    except KeyboardInterrupt:
        if not results:
            raise
        stop = "interrupted"
    finally:
        runner.close()
    if not results:
        raise LadderError(f"the time budget ({minutes:g} minutes) ran out before the first "
                          "deal was played; give more --minutes")
    seconds = time.perf_counter() - start
    if min(played) < MIN_GAMES:
        notes.append(f"some entries played fewer than {MIN_GAMES} games: from so few deals "
                     "the bootstrap intervals understate the uncertainty (a deal that "
                     "always splits evenly resamples to no spread at all)")
    boot = bootstrap(k, by_deal, replicates, boot_seed)
    out = _result(game, n, seed, probe.options.to_dict(), entries, results, by_deal, boot)
    out.update(
        stop={"reason": stop, "precision_points": precision, "precision_elo": target,
              "widest_points": boot.widest_points() if by_deal else None,
              "games_budget": games, "minutes_budget": minutes},
        batches=batches, seconds=seconds, jobs=runner.workers, backend=runner.name,
        notes=notes, fitted=fitted,
        bootstrap={"replicates": replicates, "resampled": "deals", "seed": boot_seed},
        manifest=manifest(game, n, seed, probe.options.to_dict(), specs))
    return out


def _result(game: Game, players: int, seed: int, options: dict[str, Any],
            entries: Sequence[Entry], results: list[dict[str, Any]],
            by_deal: Sequence[Pairs], boot: Bootstrap) -> dict[str, Any]:
    k = len(entries)
    specs = [e.spec for e in entries]
    base = summarize(game.id, players, seed, options, specs, results)
    rows = []
    for e, (entry, b) in enumerate(zip(entries, base["bots"], strict=True)):
        ms = b["move_seconds"]
        rows.append({
            "spec": entry.spec, "label": entry.label, "aliases": list(entry.aliases),
            "budget": None if entry.budget is None else float(entry.budget),
            "rating": round(boot.ratings[e], 1), "ci_low": round(boot.low[e], 1),
            "ci_high": round(boot.high[e], 1),
            "plus_minus_points": round(points(boot.half_width(e)), 2),
            "games": b["seats_played"], "wins": b["wins"], "win_share": b["win_rate"],
            "mean_score": b["mean_score"],
            "cpu_per_move": {"moves": ms["moves"], "mean": ms["mean"],
                             "median": ms["median"], "p95": ms["p95"]},
            **({"iterations_per_cpu_second": b["iterations_per_second"]}
               if "iterations_per_second" in b else {}),
        })
    h2h = head_to_head(by_deal)
    return {
        "game": game.id, "name": game.name, "players": players, "seed": seed,
        "options": options, "games": len(results), "deals": len(by_deal),
        "entries": rows, "head_to_head": [
            {"a": specs[a], "b": specs[b], "pairs": m, "a_share": x / m}
            for (a, b), (m, x) in sorted(h2h.items())],
        "depth": depth_curve(entries, boot, h2h),
        "ties": base["ties"], "mean_decisions": base["mean_decisions"],
        "schedule": {"seat_counts": seat_counts(k, players, results),
                     "mirrored": "every deal is played once per rotation of its table"},
    }


def head_to_head(by_deal: Sequence[Pairs]) -> dict[tuple[int, int], tuple[int, float]]:
    """Per pair of entries (a < b): pairs of seats they held in one game, and a's result."""
    out: dict[tuple[int, int], tuple[int, float]] = {}
    for pairs in by_deal:
        for a, b, x in pairs:
            key, y = ((a, b), x) if a < b else ((b, a), 1.0 - x)
            m, s = out.get(key, (0, 0.0))
            out[key] = (m + 1, s + y)
    return out


def seat_counts(k: int, players: int, results: Sequence[Mapping[str, Any]]) -> list[list[int]]:
    """How often each entry held each seat."""
    counts = [[0] * players for _ in range(k)]
    for r in results:
        for seat, e in enumerate(r["entries"]):
            counts[e][seat] += 1
    return counts


def depth_curve(entries: Sequence[Entry], boot: Bootstrap,
                h2h: Mapping[tuple[int, int], tuple[int, float]]) -> dict[str, Any]:
    """The ``mcts`` budgets against the default budget (see the module's text)."""
    budgets = sorted((e.budget, i) for i, e in enumerate(entries) if e.budget is not None)
    anchor = next((i for b, i in budgets if b == 1), None)
    if anchor is None or len(budgets) < 2:
        return {"default": None, "points": [],
                "note": "the pool has no mcts budgets beside the default mcts"}
    out = []
    for b, i in budgets:
        m, x = 0, 0.0
        if i != anchor:
            key = (min(i, anchor), max(i, anchor))
            m, s = h2h.get(key, (0, 0.0))
            x = s if i < anchor else m - s
        lo, hi = wilson(x, m) if m else (math.nan, math.nan)
        fits = sorted(expected(s[i], s[anchor]) for s in boot.samples)
        exp = expected(boot.ratings[i], boot.ratings[anchor])
        out.append({
            "budget": float(b), "budget_text": budget_text(b), "spec": entries[i].spec,
            "pairs": m, "share": x / m if m else None,
            "ci_low": None if not m else lo, "ci_high": None if not m else hi,
            "expected": exp,
            "expected_low": min(exp, quantile(fits, 0.025)) if fits else exp,
            "expected_high": max(exp, quantile(fits, 0.975)) if fits else exp,
        })
    xs = [math.log2(b) for b, _ in budgets]
    slope = depth_slope(xs, [expected(boot.ratings[i], boot.ratings[anchor])
                             for _, i in budgets])
    slopes = sorted(depth_slope(xs, [expected(s[i], s[anchor]) for _, i in budgets])
                    for s in boot.samples)
    return {"default": entries[anchor].spec, "points": out,
            "slope": slope,
            "slope_low": min(slope, quantile(slopes, 0.025)) if slopes else slope,
            "slope_high": max(slope, quantile(slopes, 0.975)) if slopes else slope}


def depth_slope(log_budgets: Sequence[float], shares: Sequence[float]) -> float:
    """The skill-depth slope: the least-squares line's rise in win share against the
    default budget per doubling of the budget (``log_budgets`` are log2 of the budgets),
    as a share (0.05: five points a doubling)."""
    n = len(log_budgets)
    mx, my = sum(log_budgets) / n, sum(shares) / n
    var = sum((x - mx) ** 2 for x in log_budgets)
    return sum((x - mx) * (y - my) for x, y in zip(log_budgets, shares, strict=True)) / var


# -- output ----------------------------------------------------------------------------------
STOPS = {
    "precision": "every interval within +-{p:g} win-% points",
    "games": "the games budget ran out",
    "minutes": "the time budget ran out",
    "interrupted": "interrupted",
}


def stop_text(result: Mapping[str, Any]) -> str:
    st = result["stop"]
    text = STOPS[st["reason"]].format(p=st["precision_points"])
    widest = st["widest_points"]
    if st["reason"] != "precision" and widest is not None:
        text += (f" (the widest interval is +-{widest:.1f} points; the stop rule asks for "
                 f"+-{st['precision_points']:g})")
    return text


def _name(row: Mapping[str, Any]) -> str:
    return str(row["label"]) + "".join(f" = {a}" for a in row["aliases"])


def _secs(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x:.4f}" if x < 0.1 else f"{x:.3f}" if x < 10 else f"{x:.1f}"


def format_ladder(result: Mapping[str, Any]) -> str:
    """The human table of a :func:`run_ladder` result."""
    lines = [f"ladder {result['game']}: {result['players']} players, {result['games']} games "
             f"in {result['deals']} mirrored deals, seed {result['seed']}; stopped: "
             f"{stop_text(result)}"]
    rows = sorted(result["entries"], key=lambda r: -r["rating"])
    width = max([len("entry")] + [len(_name(r)) for r in rows])
    lines.append(f"{'entry':<{width}}  {'rating':>6}  {'95% interval':>13}  {'+-pts':>5}  "
                 f"{'games':>5}  {'win %':>5}  {'CPU s/move':>10}")
    for r in rows:
        interval = f"[{r['ci_low']:.0f}, {r['ci_high']:.0f}]"
        lines.append(
            f"{_name(r):<{width}}  {r['rating']:>6.0f}  {interval:>13}  "
            f"{r['plus_minus_points']:>5.1f}  {r['games']:>5}  {100 * r['win_share']:>5.1f}  "
            f"{_secs(r['cpu_per_move']['mean']):>10}")
    depth = result["depth"]
    if depth["points"]:
        lines.append(f"skill depth: win share against {depth['default']} (head to head; as "
                     "the ratings expect)")
        for p in depth["points"]:
            if p["spec"] == depth["default"]:
                continue
            met = ("-" if p["share"] is None else
                   f"{100 * p['share']:.0f}% [{100 * p['ci_low']:.0f}, "
                   f"{100 * p['ci_high']:.0f}] of {p['pairs']}")
            lines.append(f"  x{p['budget_text']:<5} {met:<22} expected "
                         f"{100 * p['expected']:.0f}% [{100 * p['expected_low']:.0f}, "
                         f"{100 * p['expected_high']:.0f}]")
        if "slope" in depth:
            lines.append(f"  slope: {slope_text(depth)} of win share per doubling")
    for note in result.get("notes", []):
        lines.append(f"note: {note}")
    if "seconds" in result:
        lines.append(f"{result['seconds']:.0f} s on {result['jobs']} "
                     f"worker{'s' if result['jobs'] > 1 else ''} ({result['backend']})")
    return "\n".join(lines)


W, H, PAD_L, PAD_B, PAD_T, PAD_R = 360, 220, 40, 30, 12, 10


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _frame(body: str, title: str, xlabel: str, ylabel: str) -> str:
    return (f'<figure><figcaption>{_e(title)}</figcaption><svg viewBox="0 0 {W} {H}" '
            f'width="{W}" height="{H}" role="img" aria-label="{_e(title)}">'
            f'<line x1="{PAD_L}" y1="{H - PAD_B}" x2="{W - PAD_R}" y2="{H - PAD_B}" '
            f'stroke="{MUTED}"/><line x1="{PAD_L}" y1="{PAD_T}" x2="{PAD_L}" '
            f'y2="{H - PAD_B}" stroke="{MUTED}"/>'
            f'<text x="{(PAD_L + W - PAD_R) / 2}" y="{H - 2}" text-anchor="middle" '
            f'font-size="10" fill="{INK}">{_e(xlabel)}</text>'
            f'<text x="10" y="{PAD_T + (H - PAD_B - PAD_T) / 2}" font-size="10" '
            f'fill="{INK}" text-anchor="middle" transform="rotate(-90 10 '
            f'{PAD_T + (H - PAD_B - PAD_T) / 2})">{_e(ylabel)}</text>{body}</svg></figure>')


def _scale(lo: float, hi: float, a: float, b: float) -> Callable[[float], float]:
    span = hi - lo or 1.0
    return lambda v: a + (b - a) * (v - lo) / span


def depth_svg(depth: Mapping[str, Any]) -> str:
    """Win share against the default budget as the budget doubles (log2 axis): points with
    whiskers met head to head, a line as the ratings expect it; dashed: an even share."""
    pts = depth["points"]
    if not pts:
        return f"<p>{_e(depth.get('note', ''))}</p>"
    xs = [math.log2(p["budget"]) for p in pts]
    x = _scale(min(xs), max(xs), PAD_L + 12, W - PAD_R - 12)
    y = _scale(0.0, 1.0, H - PAD_B, PAD_T)
    out = [f'<line x1="{PAD_L}" x2="{W - PAD_R}" y1="{y(0.5):.1f}" y2="{y(0.5):.1f}" '
           f'stroke="{WARN}" stroke-dasharray="4 3"/>']
    for v in (0.0, 0.25, 0.5, 0.75, 1.0):
        out.append(f'<text x="{PAD_L - 4}" y="{y(v) + 3:.1f}" font-size="9" '
                   f'text-anchor="end" fill="{MUTED}">{v:.0%}</text>')
    band = [f"{x(v):.1f},{y(p['expected_high']):.1f}" for v, p in zip(xs, pts, strict=True)]
    band += [f"{x(v):.1f},{y(p['expected_low']):.1f}"
             for v, p in reversed(list(zip(xs, pts, strict=True)))]
    out.append(f'<polygon points="{" ".join(band)}" fill="{INK}" fill-opacity="0.12"/>')
    line = " ".join(f"{x(v):.1f},{y(p['expected']):.1f}" for v, p in zip(xs, pts, strict=True))
    out.append(f'<polyline points="{line}" fill="none" stroke="{INK}" stroke-width="1.5"/>')
    for v, p in zip(xs, pts, strict=True):
        cx = x(v)
        out.append(f'<text x="{cx:.1f}" y="{H - PAD_B + 12}" font-size="9" '
                   f'text-anchor="middle" fill="{INK}">x{_e(p["budget_text"])}</text>')
        if p["share"] is None:
            continue
        out.append(f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{y(p["ci_low"]):.1f}" '
                   f'y2="{y(p["ci_high"]):.1f}" stroke="{ACCENT}" stroke-width="1.5"/>'
                   f'<circle cx="{cx:.1f}" cy="{y(p["share"]):.1f}" r="3.5" fill="{ACCENT}">'
                   f'<title>x{_e(p["budget_text"])}: {p["share"]:.0%} of {p["pairs"]} '
                   f'head to head</title></circle>')
    return _frame("".join(out), f"Skill depth: win share of mcts against "
                  f"{depth['default']} as the budget doubles (dots: head to head, 95% "
                  "Wilson; line and band: as the ratings expect)",
                  "mcts budget (times the default)", "win share")


def time_svg(rows: Sequence[Mapping[str, Any]]) -> str:
    """Each entry's rating against its CPU seconds per move (log axis): entries to the
    left of another and as high are as strong for less time."""
    pts = [(math.log10(r["cpu_per_move"]["mean"]), r) for r in rows
           if r["cpu_per_move"]["mean"]]
    if not pts:
        return ""
    xs = [p for p, _ in pts]
    ys = [r["rating"] for _, r in pts] + [r["ci_low"] for _, r in pts] + \
        [r["ci_high"] for _, r in pts]
    x = _scale(min(xs), max(xs), PAD_L + 12, W - PAD_R - 40)
    y = _scale(min(ys), max(ys), H - PAD_B, PAD_T + 6)
    out = []
    for e in range(math.floor(min(xs)), math.ceil(max(xs)) + 1):
        if min(xs) - 0.01 <= e <= max(xs) + 0.01:
            out.append(f'<text x="{x(e):.1f}" y="{H - PAD_B + 12}" font-size="9" '
                       f'text-anchor="middle" fill="{MUTED}">{10.0 ** e:g}</text>')
    for v in (min(ys), (min(ys) + max(ys)) / 2, max(ys)):
        out.append(f'<text x="{PAD_L - 4}" y="{y(v) + 3:.1f}" font-size="9" '
                   f'text-anchor="end" fill="{MUTED}">{v:.0f}</text>')
    for v, r in pts:
        cx, colour = x(v), ACCENT if r["budget"] is not None else INK
        out.append(f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{y(r["ci_low"]):.1f}" '
                   f'y2="{y(r["ci_high"]):.1f}" stroke="{colour}" stroke-opacity="0.5"/>'
                   f'<circle cx="{cx:.1f}" cy="{y(r["rating"]):.1f}" r="3" fill="{colour}">'
                   f'<title>{_e(_name(r))}: {r["rating"]:.0f}, '
                   f'{_secs(r["cpu_per_move"]["mean"])} s a move</title></circle>'
                   f'<text x="{cx + 5:.1f}" y="{y(r["rating"]) + 3:.1f}" font-size="8" '
                   f'fill="{INK}">{_e(r["label"][:12])}</text>')
    return _frame("".join(out), "Rating against CPU seconds per move (log scale; mcts "
                  "budgets in green): compare entries at equal time",
                  "CPU seconds per move", "rating")


LADDER_CSS = CSS + """
table.ladder{width:100%;font-size:12px} table.ladder td:nth-child(n+2){text-align:right}
table.ladder td,table.ladder th{padding:2px 4px} table.ladder td:nth-child(n+2){white-space:nowrap}
"""


def ladder_html(result: Mapping[str, Any]) -> str:
    """One self-contained page (no script, no network; fits a phone): the ratings table,
    the skill-depth curve and rating against time."""
    title = (f"{result.get('name', result['game'])}: bot ladder, {result['players']} "
             f"players, {result['games']} games")
    rows = sorted(result["entries"], key=lambda r: -r["rating"])
    body = "".join(
        f"<tr><td>{_e(_name(r))}</td><td>{r['rating']:.0f}</td>"
        f"<td>{r['ci_low']:.0f}&ndash;{r['ci_high']:.0f}</td><td>{r['games']}</td>"
        f"<td>{100 * r['win_share']:.1f}%</td>"
        f"<td>{_secs(r['cpu_per_move']['mean'])}</td></tr>" for r in rows)
    table = ('<div class="scroll"><table class="ladder"><tr><th>entry</th><th>rating</th>'
             "<th>95% interval</th><th>games</th><th>win share</th><th>CPU s/move</th></tr>"
             f"{body}</table></div>")
    facts = (f"<p>{result['deals']} mirrored deals (each played once per rotation of its "
             f"table's seats), seed {result['seed']}. Stopped: {_e(stop_text(result))}. "
             "Ratings: Bradley-Terry on the Elo scale (mean 1500), 95% intervals by "
             f"bootstrap over deals ({result['bootstrap']['replicates']} refits).</p>")
    notes = "".join(f'<p class="warn">{_e(n)}</p>' for n in result.get("notes", []))
    cmd = result.get("command")
    command = f"<h3>Command</h3><pre>{_e(cmd)}</pre>" if cmd else ""
    return (f"<!doctype html><html lang=en><head><meta charset=utf-8><meta name=viewport "
            f'content="width=device-width, initial-scale=1"><title>{_e(title)}</title>'
            f"<style>{LADDER_CSS}</style></head><body><h1>{_e(title)}</h1>{notes}<main>"
            f"<section><h2>Ratings</h2>{facts}{table}</section>"
            f"<section><h2>Skill depth</h2>{depth_svg(result['depth'])}"
            + (f"<p>Slope: {_e(slope_text(result['depth']))} of win share per doubling of "
               f"the budget (least squares; 95% bootstrap interval).</p>"
               if "slope" in result["depth"] else "") + "</section>"
            f"<section><h2>Strength and time</h2>{time_svg(rows)}</section></main>"
            f"{command}</body></html>\n")
