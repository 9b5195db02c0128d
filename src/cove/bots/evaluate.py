"""Position evaluation shared by the greedy and MCTS bots: evaluators and the lookahead.

A game may declare ``GAME.heuristic(state, player) -> float``: an estimate of the player's
final score from what that player can see. Without one the bots use the running score
(``state.scores()``). Once the game is over both use the final scores.

An :class:`Evaluator` (in the spirit of OpenSpiel's ``mcts.Evaluator``) turns a position
into every player's estimated final score and the players it expects to win; the search
in :mod:`cove.bots.mcts` calls one evaluator at each new node and knows nothing else about
how positions are judged:

- :class:`HeuristicEvaluator`: the game's heuristic (final scores once the game is over);
- :class:`RolloutEvaluator`: plays ``depth`` moves (uniformly random, or mostly the move
  the heuristic likes best) and then asks another evaluator (the heuristic), or plays to
  the end (``depth=-1``);
- a learned value function is one more subclass: ``evaluate`` returns its estimates.

:func:`lookahead` is the one-step lookahead both bots use: ``greedy`` plays its best
move, ``mcts`` ranks its root moves with it (``width`` and ``prior``).
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Final, NamedTuple

from cove.core.compiled import mypyc_attr
from cove.core.rng import Rng
from cove.core.state import Action, State

Values = Callable[[State], list[float]]

HEURISTIC_EPSILON: Final = 0.15
"""Heuristic rollouts play a random action with this probability."""
HEURISTIC_CANDIDATES: Final = 6
"""Heuristic rollouts compare at most this many (randomly chosen) actions."""


def values_fn(state: State) -> Values:
    """A function giving every player's estimated final score in a state of this game."""
    h = state.game.heuristic
    if h is None:
        return _scores
    heuristic = h

    def values(s: State) -> list[float]:
        if s.is_over:
            return [float(v) for v in s.scores()]
        return [float(heuristic(s, p)) for p in range(s.n)]

    return values


def _scores(s: State) -> list[float]:
    return [float(v) for v in s.scores()]


def margin(vals: list[float], player: int) -> float:
    """The player's lead over the best other player (negative when behind)."""
    best_other = max((v for q, v in enumerate(vals) if q != player), default=0.0)
    return vals[player] - best_other


class Evaluation(NamedTuple):
    """What an evaluator says of a position."""

    values: list[float]
    """Every player's estimated final score (the final scores when the game is over)."""
    winners: Sequence[int]
    """The game's winners when it is over, else the players with the top estimate."""
    steps: int
    """Forward-model calls (``apply``) the evaluation spent."""


@mypyc_attr(allow_interpreted_subclasses=True)  # a learned value, a test's stand-in ...
class Evaluator(ABC):
    """Judges positions for a search. ``evaluate`` may change ``state`` (the search hands
    it a throwaway world) and draws any randomness from ``rng``."""

    name: str = "evaluator"

    @abstractmethod
    def evaluate(self, state: State, rng: Rng) -> Evaluation: ...


class HeuristicEvaluator(Evaluator):
    """The game's heuristic for every player (the running score for a game without one;
    the final scores and ``winners()`` once the game is over)."""

    name = "heuristic"

    def __init__(self) -> None:
        self._values: Values | None = None
        self._game: object = None

    def values(self, state: State) -> list[float]:
        if state.game is not self._game:
            self._game, self._values = state.game, values_fn(state)
        assert self._values is not None
        return self._values(state)

    def evaluate(self, state: State, rng: Rng) -> Evaluation:
        if state.is_over:
            return Evaluation([float(v) for v in state.scores()], state.winners(), 0)
        vals = self.values(state)
        top = max(vals)
        return Evaluation(vals, [q for q in range(state.n) if vals[q] == top], 0)


POLICIES: Final = ("random", "heuristic", "greedy")
OTHERS: Final = ("same", "random")


class RolloutEvaluator(Evaluator):
    """Plays up to ``depth`` moves (-1: to the end), then asks ``leaf``.

    ``policy="random"`` plays uniformly random legal moves; ``policy="heuristic"`` plays,
    85% of the time, the move (of at most 6 sampled) whose result the heuristic rates best
    for the mover, else a random one; ``policy="greedy"`` plays exactly what ``greedy``
    would in that world: the move, of all legal moves, whose result the heuristic rates
    best for the mover (the first of equals), every move tried costing a forward-model
    call. It draws nothing from ``rng``, so rollouts from two root moves in one sampled
    world face the same future (the pilot method: "this move, then greedy").

    ``others="random"`` lets every player but ``searcher`` (set by the search) play
    uniformly random moves instead: cheaper, when the others' moves hardly touch the
    searcher's score (a near-solitaire game)."""

    name = "rollout"

    def __init__(self, depth: int = 4, policy: str = "random",
                 leaf: HeuristicEvaluator | None = None, others: str = "same") -> None:
        if policy not in POLICIES:
            raise ValueError(f"rollout policy {policy!r}: use one of {', '.join(POLICIES)}")
        if others not in OTHERS:
            raise ValueError(f"rollout others {others!r}: use one of {', '.join(OTHERS)}")
        self.depth = depth
        self.policy = policy
        self.others = others
        self.leaf = leaf or HeuristicEvaluator()
        self.searcher: int | None = None
        """The player whose search this is (``others`` applies to everyone else)."""

    def evaluate(self, state: State, rng: Rng) -> Evaluation:
        depth = math.inf if self.depth < 0 else self.depth
        k = 0
        extra = 0
        has_h = state.game.heuristic is not None
        policy = "random" if self.policy == "heuristic" and not has_h else self.policy
        me = self.searcher if self.others == "random" else None
        while k < depth and not state.is_over:
            p = state.to_move()[0]
            acts = state.legal_actions(p)
            if len(acts) == 1:
                a = acts[0]
            elif policy == "random" or (me is not None and p != me):
                a = acts[rng.below(len(acts))]
            elif policy == "greedy":
                a = greedy_pick(state, p, acts)
                extra += len(acts)
            elif rng.random() >= HEURISTIC_EPSILON:
                a = heuristic_pick(state, p, acts, rng)
            else:
                a = acts[rng.below(len(acts))]
            state.apply(p, a)
            k += 1
        e = self.leaf.evaluate(state, rng)
        return Evaluation(e.values, e.winners, e.steps + k + extra)


def greedy_pick(s: State, p: int, acts: Sequence[Action]) -> Action:
    """Of all ``acts``, the first whose result is rated best for ``p`` by the game's
    heuristic (the running score for a game without one; the final score once over), as
    the ``greedy`` bot rates moves: deterministic, one forward-model call per action."""
    h = s.game.heuristic

    def rate(t: State) -> float:
        return float(t.scores()[p]) if t.is_over or h is None else h(t, p)

    return _best_after(s, p, acts, rate)


def heuristic_pick(s: State, p: int, acts: Sequence[Action], rng: Rng) -> Action:
    """Of at most ``HEURISTIC_CANDIDATES`` randomly chosen actions, the one whose result
    the game's heuristic rates best for ``p`` (its clones are not counted as steps)."""
    h = s.game.heuristic
    assert h is not None
    cands = list(acts)
    if len(cands) > HEURISTIC_CANDIDATES:
        rng.shuffle(cands)
        cands = cands[:HEURISTIC_CANDIDATES]
    return _best_after(s, p, cands, lambda t: h(t, p))


def _best_after(s: State, p: int, acts: Sequence[Action],
                rate: Callable[[State], float]) -> Action:
    """The first of ``acts`` whose result (``p`` plays it in a clone of ``s``) ``rate``
    rates highest: the one-world argmax both rollout policies use."""
    best, best_v = acts[0], -math.inf
    for a in acts:
        t = s.clone()
        t.apply(p, a)
        v = rate(t)
        if v > best_v:
            best, best_v = a, v
    return best


def lookahead(state: State, player: int, actions: Sequence[Action], values: Values,
              rng: Rng, samples: int = 1) -> list[tuple[float, float]]:
    """One-step lookahead: for each action, the mean over ``samples`` sampled worlds
    (``state.redeterminize(player, rng)``, so hidden cards and chance inside ``apply`` are
    the searcher's guesses, never the real ones) of (lead over the best other player,
    own estimate) after the action. Costs ``samples * len(actions)`` forward-model calls."""
    totals = [[0.0, 0.0] for _ in actions]
    for _ in range(samples):
        world = state.redeterminize(player, rng)
        world.logging = False
        for i, action in enumerate(actions):
            s = world.clone()
            s.apply(player, action)
            vals = values(s)
            t = totals[i]
            t[0] += margin(vals, player)
            t[1] += vals[player]
    return [(t[0] / samples, t[1] / samples) for t in totals]
