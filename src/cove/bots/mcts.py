"""Information-set Monte Carlo tree search (single-observer ISMCTS, decoupled UCT).

Every iteration:

1. **Determinize**: ``state.redeterminize(player, rng)`` gives a fresh world consistent
   with the searcher's own view (other hands, deck order and future chance resampled).
   The bot never reads the real state beyond its own legal actions.
2. **Select**: walk the tree, one shared tree for all sampled worlds. A node is the
   sequence of actions from the root (an information set of the searcher, as in
   SO-ISMCTS); each node keeps, per player to move, statistics per action
   ``[visits, win share, availability, margin]``. Only actions legal in *this* world are candidates,
   and UCB1 uses the availability count in place of the parent's visits
   (``mean + c * sqrt(ln(avail) / visits)``), as in Cowling, Powley & Whitehouse (2012).
   A simultaneous decision (several players in ``to_move()``) is decoupled: each mover
   picks its own action from its own statistics, and the child is keyed by the joint
   choice.
3. **Expand** one new node, then **roll out**: uniformly random actions (``rollout=random``)
   or a heuristic-guided policy (``rollout=heuristic``), for at most ``depth`` actions
   (0: none, the new node is evaluated at once; -1: to the end of the game).
4. **Evaluate** the final scores, or the game's heuristic for every player at the depth
   cut-off (the running score for a game without one). Each player on the path gets its
   win share (1, 1/k for a k-way tie, 0; the game's ``winners()`` at the end, the top
   estimate at a cut-off) and its score margin over the best other player.

The value of an action is ``(1 - m) * mean win share + m * normalised mean margin``, in
[0, 1]: margins are scaled by the smallest and largest margin seen in this search (the
min-max normalisation of MuZero), so the margin term needs no knowledge of a game's score
units and a point gained counts as much in a 10-point game as 10 points in a 100-point
one. ``m = margin`` (default 0.8); win share alone (``margin=0``) cannot tell a small
improvement from none while the game is undecided, which a one-step greedy bot can.

With ``search=paired`` there is no tree: the ``width`` root moves a one-step lookahead
rates best are each evaluated in every sampled world (common random numbers: the same
world and evaluator seed for every move), raced on their paired differences, and the best
mean is played (the default of a game that declares it: ``cove.bots.defaults``).

The move played is the root action with the most visits. The budget is counted in
iterations and forward-model calls (``apply``), never seconds, so a seed reproduces a
game on any machine; ``time`` adds an optional wall-clock cap for interactive play.
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, Final

from cove.bots.base import Bot
from cove.bots.defaults import tuned
from cove.bots.evaluate import (
    OTHERS,
    POLICIES,
    Evaluator,
    HeuristicEvaluator,
    RolloutEvaluator,
    lookahead,
    margin,
)
from cove.bots.spec import Param
from cove.core.game import Game
from cove.core.rng import Rng
from cove.core.state import Action, State

if TYPE_CHECKING:
    from cove.bots.budget import Budget

DEFAULT_ITERATIONS: Final = 500
DEFAULT_STEPS: Final = 40_000
DEFAULT_DEPTH: Final = 4
DEFAULT_C: Final = 0.7
DEFAULT_MARGIN: Final = 0.8
DEFAULT_WIDTH: Final = 0
DEFAULT_PRIOR: Final = 0.0
DEFAULT_ANCHOR: Final = -1
AUTO_ANCHOR: Final = 4
"""Virtual visits per root move with ``anchor=-1`` when the root is wide."""
WIDE_ROOT: Final = 50
"""``anchor=-1`` anchors a root with more moves than this (most games offer a few dozen at
most; a game whose cards can go anywhere, up to 176): at the default budget each would get
fewer than 10 iterations, and 4x that still leaves a 176-move root about 11."""
DEFAULT_KEY: Final = "auto"
KEYS: Final = ("auto", "actions", "infoset", "own")
OWN_FROM: Final = 3
"""``key=auto`` keys the tree by the searcher's own moves (``own``) at this many players or
more, by action sequences (``actions``) below: with two or three opponents, every level
of an ``actions`` tree splits on each opponent's move, and at 3 and 4 players ``own``
beat ``greedy`` opponents clearly more often in every game measured
(benchmarks/results/2026-12-bots.md)."""
DEFAULT_VERSUS: Final = "best"
VERSUS: Final = ("best", "none")
DEFAULT_SEARCH: Final = "tree"
SEARCHES: Final = ("tree", "paired")

RACE_MIN: Final = 4
"""``search=paired`` compares the moves after this many worlds, and then after each."""
RACE_Z: Final = 2.0
"""``search=paired`` stops evaluating a move once its mean paired difference to the best
move exceeds this many standard errors (the moves left share every world so far)."""

# A statistics entry: [visits, total win share, availability, total margin]
Stat = list[Any]


class _Node:
    __slots__ = ("allowed", "children", "prior", "stats")

    def __init__(self) -> None:
        self.stats: dict[int, dict[Action, Stat]] = {}
        self.children: dict[Hashable, _Node] = {}
        self.allowed: tuple[int, set[Action]] | None = None  # (player, actions) at the root
        self.prior: tuple[int, dict[Action, float]] | None = None  # (player, bias) at the root


def outcome(vals: Sequence[float], winners: Sequence[int]) -> tuple[list[float], list[float]]:
    """Per player: the win share (1 for a sole winner, 1/k for each of k tied winners,
    else 0) and the score margin over the best other player (negative when behind)."""
    n = len(vals)
    share = 1.0 / len(winners) if winners else 0.0
    wins = [0.0] * n
    for p in winners:
        wins[p] = share
    if n == 1:
        return wins, [float(vals[0])]
    order = sorted(range(n), key=vals.__getitem__, reverse=True)
    top, second = order[0], order[1]
    margins = [vals[p] - (vals[second] if p == top else vals[top]) for p in range(n)]
    return wins, margins


def _decided(stats: dict[Action, Stat] | None, remaining: int) -> bool:
    """True when the most visited root action leads the next by more than the
    iterations left, so the rest of the budget cannot change the move played."""
    if not stats:
        return False
    first = second = 0
    for st in stats.values():
        v = st[0]
        if v > first:
            first, second = v, first
        elif v > second:
            second = v
    return first - second > remaining


def _lead(a: list[float], b: list[float]) -> tuple[float, float]:
    """The mean of ``a - b`` world by world (both evaluated in the same worlds) and its
    standard error (0 with fewer than two worlds)."""
    n = len(a)
    d = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(d) / n
    if n < 2:
        return mean, 0.0
    return mean, math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1) / n)


def _race(samples: list[list[float]], active: list[int], z: float = RACE_Z) -> list[int]:
    """The moves of ``active`` still in the race: the best mean, and every move whose
    mean difference to it, world by world, is within ``z`` standard errors. All
    active moves were evaluated in the same worlds, so the differences are paired."""
    lead = max(active, key=lambda j: (sum(samples[j]), -j))
    best = samples[lead]
    keep = []
    for j in active:
        if j == lead:
            keep.append(j)
            continue
        mean, se = _lead(best, samples[j])
        if se > 0 and mean <= z * se:
            keep.append(j)  # (a move equal to the best in every world is dropped)
    return keep


class MctsBot(Bot):
    name = "mcts"
    summary = "information-set Monte Carlo tree search (SO-ISMCTS, decoupled UCT)"
    GAME_DEFAULTS = True
    PARAMS = (
        Param("iterations", DEFAULT_ITERATIONS, "search iterations per move, each in a "
              "freshly sampled world", minimum=1),
        Param("steps", DEFAULT_STEPS, "forward-model calls (apply) per move, whichever "
              "budget runs out first; 0 = no limit", minimum=0),
        Param("c", DEFAULT_C, "UCB1 exploration constant (rewards are in [0, 1])", minimum=0),
        Param("rollout", "random", "random = uniform rollouts, heuristic = mostly the "
              "action the heuristic likes best, greedy = always the move greedy would play "
              "(all moves tried)", choices=POLICIES),
        Param("others", "same", "the other players' rollout policy: same = as rollout, "
              "random = uniform (cheaper, for near-solitaire games)", choices=OTHERS),
        Param("depth", DEFAULT_DEPTH, "rollout actions before the heuristic evaluates the "
              "position; 0 = evaluate the new node at once, -1 = play to the end", minimum=-1),
        Param("margin", DEFAULT_MARGIN, "weight of the score margin in the reward (0 = "
              "win/loss only)", minimum=0, maximum=1),
        Param("prior", DEFAULT_PRIOR, "weight of a progressive bias towards the root moves a "
              "one-step lookahead rates best (fades as 1/visits); 0 = none", minimum=0),
        Param("anchor", DEFAULT_ANCHOR, "virtual visits, at the value a one-step lookahead "
              "gives, credited to every root move before the search (the search then "
              "corrects the lookahead instead of starting blind); 0 = none, -1 = "
              f"{AUTO_ANCHOR} at a root with more than {WIDE_ROOT} moves, else none",
              minimum=-1),
        Param("width", DEFAULT_WIDTH, "search only this many root moves, those a one-step "
              "lookahead rates best (for many-move positions); 0 = all", minimum=0),
        Param("key", DEFAULT_KEY, "what a tree node stands for: auto = own at 3 or more "
              "players, else actions; actions = the action sequence "
              "(SO-ISMCTS), infoset = the searcher's information set (state.infoset_key), "
              "own = the searcher's own moves only (other players' moves and chance are "
              "open-loop)", choices=KEYS),
        Param("versus", DEFAULT_VERSUS, "the score term of the reward: best = lead over the "
              "best other player, none = own estimate only (for near-solitaire games, where "
              "the others' choices are noise to the searcher's own)", choices=VERSUS),
        Param("search", DEFAULT_SEARCH, "tree = the tree search; paired = flat: every root "
              "move (of the width best) is evaluated in each sampled world, all in the same "
              "worlds, and the best mean wins", choices=SEARCHES),
        Param("race", RACE_Z, "search=paired: drop a move once its mean is this many "
              "standard errors below the best (paired differences); 0 = never, every kept "
              "move is evaluated until the budget runs out", minimum=0),
        Param("switch", 0.0, "search=paired: play the move the one-step lookahead rates "
              "best unless another beats its mean by more than this many standard errors "
              "(paired differences); 0 = the best mean", minimum=0),
        Param("scale", 1.0, "multiplies both budgets, iterations and steps (the hard "
              "level: 4)", minimum=0.01),
        Param("time", 0.0, "wall-clock cap per move in seconds, 0 = none (a cap makes "
              "results depend on the machine)", minimum=0),
    )

    def __init__(
        self,
        seed: int = 0,
        iterations: int = DEFAULT_ITERATIONS,
        steps: int = DEFAULT_STEPS,
        c: float = DEFAULT_C,
        rollout: str = "random",
        depth: int = DEFAULT_DEPTH,
        margin: float = DEFAULT_MARGIN,
        width: int = DEFAULT_WIDTH,
        prior: float = DEFAULT_PRIOR,
        anchor: int = DEFAULT_ANCHOR,
        key: str = DEFAULT_KEY,
        versus: str = DEFAULT_VERSUS,
        others: str = "same",
        search: str = DEFAULT_SEARCH,
        race: float = RACE_Z,
        switch: float = 0.0,
        scale: float = 1.0,
        time: float = 0.0,
        evaluator: Evaluator | None = None,
    ) -> None:
        super().__init__(seed)
        self._args: dict[str, Any] = {
            "iterations": iterations, "steps": steps, "c": c, "rollout": rollout,
            "depth": depth, "margin": margin, "width": width, "prior": prior,
            "anchor": anchor, "key": key, "versus": versus, "others": others,
            "search": search, "race": race, "switch": switch, "scale": scale, "time": time}
        self._custom = evaluator
        self.heuristic = HeuristicEvaluator()
        self.evaluator: Evaluator = self.heuristic
        """Judges each new node (default: ``depth`` rollout moves, then the heuristic);
        pass any :class:`~cove.bots.evaluate.Evaluator`, e.g. a learned value."""
        self._configure(self._args)
        self._game: object = None
        self.last_iterations = 0
        self.last_steps = 0
        self.last_ranking: list[tuple[Action, int, float]] = []
        """After ``choose``: (action, visits, mean win share) at the root, best first
        (``search=paired``: (action, worlds, mean value))."""
        self.last_tree: _Node | None = None
        """After ``choose``: the root of the search tree (for inspection and tests)."""
        self._lo = self._hi = 0.0

    def _configure(self, args: dict[str, Any]) -> None:
        """Set the search parameters (the constructor's, or with a game's defaults)."""
        if args["key"] not in KEYS:
            raise ValueError(f"mcts key {args['key']!r}: use one of {', '.join(KEYS)}")
        if args["versus"] not in VERSUS:
            raise ValueError(f"mcts versus {args['versus']!r}: use one of {', '.join(VERSUS)}")
        if args["search"] not in SEARCHES:
            raise ValueError(f"mcts search {args['search']!r}: use one of "
                             f"{', '.join(SEARCHES)}")
        scale = args["scale"]
        if not scale > 0:
            raise ValueError(f"mcts scale {scale!r}: use a number above 0")
        self.iterations = max(1, round(args["iterations"] * scale))
        self.steps = round(args["steps"] * scale)
        self.c = args["c"]
        self.rollout = args["rollout"]
        self.depth = args["depth"]
        self.margin = args["margin"]
        self.time = args["time"]
        self.width = args["width"]
        self.prior = args["prior"]
        self.anchor = args["anchor"]
        self.key = args["key"]
        self.versus = args["versus"]
        self.search = args["search"]
        self.race = args["race"]
        self.switch = args["switch"]
        self.others = args["others"]
        self.evaluator = self._custom or (
            self.heuristic if self.depth == 0
            else RolloutEvaluator(self.depth, self.rollout, self.heuristic, self.others))
        self._hold()

    def _hold(self) -> None:
        """Cap the search at the server's budget (:meth:`bound`): its iterations, steps
        (a spec's 0, no limit, becomes the budget's) and time."""
        b = self.budget
        if b is None:
            return
        self.iterations = min(self.iterations, b.iterations)
        self.steps = min(self.steps, b.steps) if self.steps > 0 else b.steps
        self.time = min(self.time, b.seconds) if self.time > 0 else b.seconds

    def bound(self, budget: Budget) -> None:
        super().bound(budget)
        self._hold()

    def work(self, game: Game | None = None) -> tuple[int, int, float]:
        """(iterations, steps, time) a move may take as configured (with ``game``'s
        declared defaults for what the spec did not name); steps 0 and time 0: no limit."""
        args = dict(self._args)
        if game is not None and self.spec_params is not None:
            args.update(tuned(game, self.name, self.level, self.PARAMS, self.spec_params))
        scale = args["scale"]
        if scale == 1:  # (exact: a float product would round a huge count)
            return max(1, args["iterations"]), args["steps"], float(args["time"])
        return (max(1, round(args["iterations"] * scale)), round(args["steps"] * scale),
                float(args["time"]))

    def over_budget(self, budget: Budget, game: object | None = None) -> str | None:
        iterations, steps, seconds = self.work(game if isinstance(game, Game) else None)
        scale = self._args["scale"]
        times = "" if scale == 1 else f" (with scale={scale:.10g})"
        problems = []
        if seconds > budget.seconds:
            problems.append(f"time={seconds:.10g} (at most {budget.seconds:g})")
        if iterations > budget.iterations:
            problems.append(f"{iterations} iterations{times} (at most {budget.iterations})")
        if steps == 0:
            problems.append(f"steps=0, no limit (at most {budget.steps})")
        elif steps > budget.steps:
            problems.append(f"{steps} steps{times} (at most {budget.steps})")
        return ", ".join(problems) or None

    def _adopt(self, game: Game) -> None:
        """A bot built from a spec takes ``game``'s declared defaults for the parameters its
        spec left out, and a level's bot the game's parameters for that level
        (:func:`cove.bots.defaults.tuned`)."""
        self._game = game
        own = tuned(game, self.name, self.level, self.PARAMS, self.spec_params or frozenset())
        self._configure({**self._args, **own})

    def _value(self, st: Stat) -> float:
        """Mean reward in [0, 1] of a statistics entry (see the module doc)."""
        n = st[0]
        spread = self._hi - self._lo
        norm = (st[3] / n - self._lo) / spread if spread > 0 else 0.5
        return float((1.0 - self.margin) * st[1] / n + self.margin * norm)

    # -- the search ------------------------------------------------------------------------
    def choose(self, state: State, player: int) -> Action:
        if self.spec_params is not None and state.game is not self._game:
            self._adopt(state.game)
        legal = state.legal_actions(player)
        self.last_iterations = self.last_steps = 0
        self.last_ranking = []
        if len(legal) == 1:
            return legal[0]
        if isinstance(self.evaluator, RolloutEvaluator):
            self.evaluator.searcher = player
        rng = self.rng
        deadline = time.perf_counter() + self.time if self.time > 0 else 0.0
        max_steps = self.steps or math.inf
        if self.search == "paired":
            self.last_tree = None
            return self._paired(state, player, legal, rng, deadline, max_steps)
        root = self.last_tree = _Node()
        self._lo, self._hi = math.inf, -math.inf
        values = self.heuristic.values
        steps = 0
        done = 0
        budget = self.iterations
        anchor = self.anchor
        if anchor < 0:
            anchor = AUTO_ANCHOR if len(legal) > WIDE_ROOT else 0
        if (0 < self.width < len(legal)) or self.prior > 0 or anchor > 0:
            rated = lookahead(state, player, legal, values, rng)
            steps += len(legal)
            order = sorted(range(len(legal)), key=lambda i: (rated[i], -i), reverse=True)
            ranked = [legal[i] for i in order]
            if anchor > 0:
                self._anchor(root, player, legal, rated, anchor)
            if 0 < self.width < len(legal):
                root.allowed = (player, set(ranked[: self.width]))
            if self.prior > 0:
                k = len(ranked)
                root.prior = (player, {a: self.prior * (k - 1 - i) / max(1, k - 1)
                                       for i, a in enumerate(ranked)})
        while done < budget and steps < max_steps:
            world = state.redeterminize(player, rng)
            world.logging = False
            steps += self._iterate(world, root, player, rng)
            done += 1
            if deadline and time.perf_counter() > deadline:
                break
            if done % 16 == 0 and _decided(root.stats.get(player), budget - done):
                break  # the most visited move can no longer be overtaken: same choice
        self.last_iterations, self.last_steps = done, steps
        stats = root.stats.get(player, {})
        self.last_ranking = sorted(
            ((a, st[0], st[1] / st[0]) for a in legal
             if (st := stats.get(a)) is not None and st[0] > 0),
            key=lambda x: (x[1], x[2]), reverse=True)
        best: Action = legal[0]
        best_key = (-1, -1.0)
        for a in legal:
            st = stats.get(a)
            if st is not None and st[0] > 0:
                key = (st[0], self._value(st))
                if key > best_key:
                    best, best_key = a, key
        return best

    def _paired(self, state: State, player: int, legal: Sequence[Action], rng: Rng,
                deadline: float, max_steps: float) -> Action:
        """The flat, paired search (``search=paired``): rank the moves by the one-step
        lookahead, keep the ``width`` best (0: all), then in each sampled world evaluate
        every kept move from a clone of that one world, the evaluator drawing from the
        same seed for each, so that the moves' values differ only by the moves (common
        random numbers) and a world that is good or bad for all of them cancels out of
        the comparison. Each world is spent on all kept moves, so the step budget may
        run over by one world. Plays the best mean (``versus``: own estimate or lead);
        equal means go to the move the lookahead ranks higher."""
        values = self.heuristic.values
        rated = lookahead(state, player, legal, values, rng)
        steps = len(legal)
        own_only = self.versus == "none"
        order = sorted(range(len(legal)), key=lambda i: (rated[i][1] if own_only
                                                          else rated[i], -i), reverse=True)
        keep = self.width if 0 < self.width < len(legal) else len(legal)
        moves = [legal[i] for i in order[:keep]]
        samples: list[list[float]] = [[] for _ in moves]
        active = list(range(keep))
        done = 0
        evaluate = self.evaluator.evaluate
        race = self.race
        while done < self.iterations and steps < max_steps and len(active) > 1:
            world = state.redeterminize(player, rng)
            world.logging = False
            seed = rng.next64()
            for j in active:
                s = world.clone()
                s.apply(player, moves[j])
                ev = evaluate(s, Rng(seed))
                steps += 1 + ev.steps
                samples[j].append(ev.values[player] if own_only
                                  else margin(ev.values, player))
            done += 1
            if race and done >= RACE_MIN:
                active = _race(samples, active, race)
            if deadline and time.perf_counter() > deadline:
                break
        self.last_iterations, self.last_steps = done, steps
        means = [sum(v) / len(v) if v else -math.inf for v in samples]
        self.last_ranking = sorted(
            ((a, len(samples[j]), means[j]) for j, a in enumerate(moves)),
            key=lambda x: (x[1], x[2]), reverse=True)
        best = max(active, key=lambda j: (means[j], -j))
        if self.switch and best and 0 in active:  # the lookahead's choice, unless beaten
            lead, se = _lead(samples[best], samples[0])
            if not lead > self.switch * se:
                best = 0
        return moves[best]

    def _anchor(self, root: _Node, player: int, legal: Sequence[Action],
                rated: Sequence[tuple[float, float]], n0: int) -> None:
        """Credit every root move with ``anchor`` visits at the one-step lookahead's value
        (lead over the best other player and own estimate, one sampled world): the win
        share a lead gives (1 ahead, 1/2 level, 0 behind) and the margin ``versus`` asks
        for. The moves are then never unvisited, so the search spends its iterations on
        the moves the lookahead likes and on those whose searched value beats it, instead
        of visiting each of up to a hundred moves once first."""
        stats = root.stats[player] = {}
        own_only = self.versus == "none"
        for a, (lead, own) in zip(legal, rated, strict=True):
            m = own if own_only else lead
            win = 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0
            stats[a] = [n0, n0 * win, n0, n0 * m]
            self._lo = min(self._lo, m)
            self._hi = max(self._hi, m)

    def _select(
        self, node: _Node, p: int, legal: Sequence[Action], rng: Rng
    ) -> tuple[Action, Stat]:
        pst = node.stats.get(p)
        if pst is None:
            pst = node.stats[p] = {}
        allowed = node.allowed
        if allowed is not None and allowed[0] == p:
            legal = [a for a in legal if a in allowed[1]]
        if len(legal) == 1:
            a = legal[0]
            st = pst.get(a)
            if st is None:
                st = pst[a] = [0, 0.0, 0, 0.0]
            st[2] += 1
            return a, st
        fresh: list[tuple[Action, Stat]] = []
        entries: list[tuple[Action, Stat]] = []
        for a in legal:
            st = pst.get(a)
            if st is None:
                st = pst[a] = [0, 0.0, 0, 0.0]
            st[2] += 1
            if st[0] == 0:
                fresh.append((a, st))
            else:
                entries.append((a, st))
        prior = node.prior
        bias = prior[1] if prior is not None and prior[0] == p else None
        if fresh:
            if bias is not None:
                return max(fresh, key=lambda e: bias.get(e[0], 0.0))
            return fresh[0] if len(fresh) == 1 else fresh[rng.below(len(fresh))]
        lo, spread = self._lo, self._hi - self._lo
        win_w = 1.0 - self.margin
        margin_w = self.margin / spread if spread > 0 else 0.0  # all margins equal: no signal
        c = self.c
        log, sqrt = math.log, math.sqrt
        best = entries[0]
        best_v = -math.inf
        for e in entries:
            st = e[1]
            n = st[0]
            v = (win_w * st[1] + margin_w * (st[3] - lo * n)) / n + c * sqrt(log(st[2]) / n)
            if bias is not None:
                v += bias.get(e[0], 0.0) / (n + 1)
            if v > best_v:
                best_v, best = v, e
        return best

    def _iterate(self, s: State, root: _Node, me: int, rng: Rng) -> int:
        node = root
        path: list[tuple[int, Stat]] = []
        steps = 0
        select = self._select
        mode = self.key
        if mode == "auto":
            mode = "own" if s.n >= OWN_FROM else "actions"
        # selection and expansion
        while not s.is_over:
            movers = s.to_move()
            key: Hashable
            if len(movers) == 1:
                p = movers[0]
                a, st = select(node, p, s.legal_actions(p), rng)
                s.apply(p, a)
                steps += 1
                path.append((p, st))
                key = a if mode == "actions" or p == me else None
            else:
                joint = []
                own: Action | None = None
                for p in movers:
                    if p not in s.to_move():
                        continue
                    a, st = select(node, p, s.legal_actions(p), rng)
                    s.apply(p, a)
                    steps += 1
                    path.append((p, st))
                    joint.append((p, a))
                    if p == me:
                        own = a
                key = tuple(joint) if mode == "actions" else own
            if mode == "infoset":
                key = s.infoset_key(me)
            child = node.children.get(key)
            if child is None:
                node.children[key] = _Node()
                break
            node = child
        # rollout and evaluation
        ev = self.evaluator.evaluate(s, rng)
        steps += ev.steps
        wins, margins = outcome(ev.values, ev.winners)
        if self.versus == "none":
            margins = ev.values
        for m in margins:
            if m < self._lo:
                self._lo = m
            if m > self._hi:
                self._hi = m
        for p, st in path:
            st[0] += 1
            st[1] += wins[p]
            st[3] += margins[p]
        return steps
