"""The evaluator's pass over a finished game: the per-game half of the balance measures.

A game played by :func:`cove.lab.runner.play_game` with ``measure=SPEC`` is replayed from
its seed and history, position by position, and a declared evaluator (a *judge*) says at
each end of a round how every player stands. What the pass keeps (:class:`Measured`) is
small, frozen and picklable, so it travels back from processes and Ray workers with the
game's result; :mod:`cove.lab.measures` turns many of them into figures with intervals.

Judges (``SPEC``):

- ``heuristic``: the game's heuristic for every player (``GAME.heuristic``, the one the
  greedy bot looks ahead with; the running score for a game without one), the final
  scores once the game is over;
- ``mcts`` or ``mcts:iterations=N,depth=D,rollout=R``: the search bot's playouts at a small
  budget: ``N`` (default 16) of the ``mcts`` bot's evaluations from the position (its
  rollout policy for ``depth`` moves, then the heuristic), each player's value being
  their mean win share over them: the value at the root of a flat search. The judge sees
  the whole position (it is an observer, not a player), and each playout draws its own
  chance.

The replay reproduces the game exactly: chance comes from the state's own generator,
seeded by the game's seed, and every action is the one applied in play.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cove.bots import make_bot
from cove.bots.evaluate import Evaluator, HeuristicEvaluator
from cove.bots.mcts import MctsBot, outcome
from cove.core.errors import CoveError
from cove.core.rng import Rng
from cove.core.state import State

JUDGES = ("heuristic", "mcts")
JUDGE_PLAYOUTS = 16
"""Playouts per position of the ``mcts`` judge when its spec names no ``iterations``."""
CLARITY_POSITIONS = 8
"""Positions per game at which every legal move is judged (clarity)."""
HIDDEN_POSITIONS = 4
"""Positions per game at which the hidden share of the state is estimated."""


class MeasureError(CoveError, ValueError):
    """A bad evaluator spec: what was wrong and what is valid."""


class Judge:
    """Every player's standing in a position, by a declared evaluator."""

    spec = "heuristic"

    def __init__(self) -> None:
        self._heuristic = HeuristicEvaluator()

    def values(self, state: State) -> list[float]:
        return self._heuristic.values(state) if not state.is_over else [
            float(v) for v in state.scores()]


class PlayoutJudge(Judge):
    """The ``mcts`` judge: each player's mean win share over ``playouts`` of the search
    bot's evaluations from the position."""

    def __init__(self, spec: str, evaluator: Evaluator, playouts: int, rng: Rng) -> None:
        super().__init__()
        self.spec = spec
        self.evaluator = evaluator
        self.playouts = playouts
        self.rng = rng

    def values(self, state: State) -> list[float]:
        if state.is_over:
            return outcome([float(v) for v in state.scores()], state.winners())[0]
        total = [0.0] * state.n
        for _ in range(self.playouts):
            world = state.clone()
            world.rng = self.rng.spawn()
            ev = self.evaluator.evaluate(world, self.rng)
            for p, w in enumerate(outcome(ev.values, ev.winners)[0]):
                total[p] += w
        return [t / self.playouts for t in total]


def make_judge(spec: str, seed: int = 0) -> Judge:
    """The judge a spec names (see the module's text); MeasureError for a bad one."""
    name, _, params = spec.strip().partition(":")
    if name == "heuristic" and not params:
        return Judge()
    if name != "mcts":
        raise MeasureError(f"evaluator {spec!r}: use heuristic or mcts[:iterations=N,...] "
                           f"(one of {', '.join(JUDGES)})")
    try:
        bot = make_bot(spec, seed=seed)
    except CoveError as e:
        raise MeasureError(f"evaluator {spec!r}: {e}") from e
    assert isinstance(bot, MctsBot)
    playouts = bot.iterations if re.search(r"\biterations\s*=", params) else JUDGE_PLAYOUTS
    rest = [q.strip() for q in params.split(",")
            if q.strip() and not q.strip().startswith("iterations")]
    label = "mcts:" + ",".join([f"iterations={playouts}", *rest])
    return PlayoutJudge(label, bot.evaluator, playouts, Rng(seed))


def judge_label(spec: str) -> str:
    """The evaluator as the report names it (checks the spec)."""
    return make_judge(spec).spec


@dataclass(frozen=True)
class Measured:
    """What the evaluator's pass keeps of one game (JSON-ready via ``to_json``)."""

    evaluator: str
    rounds: int
    """Rounds played: a round ends when the next mover sits before the last one (the turn
    order wrapped round), as :func:`cove.lab.runner.advance` counts them, or at the end."""
    points: tuple[tuple[int, tuple[float, ...]], ...]
    """(moves played, every player's value) at the start and at the end of each round."""
    clarity: tuple[tuple[float, float], ...] = ()
    """At up to :data:`CLARITY_POSITIONS` round ends: (share of the mover's legal moves
    judged near the best, variance of the mover's values after each move)."""
    kingmakers: tuple[int, ...] = ()
    """Seats whose last real choice handed the lead to the eventual winner (see
    :func:`kingmakers`)."""
    items: tuple[tuple[tuple[str, int], ...], ...] = ()
    """Per seat: the text of each action it chose and how often."""
    hidden: float = -1.0
    """Mean share of the other players' observations a player cannot see (-1: not
    measured: no observation declared)."""
    agent_seconds: float = field(default=0.0, compare=False)
    rules_seconds: float = field(default=0.0, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {"evaluator": self.evaluator, "rounds": self.rounds,
                "points": [[d, list(v)] for d, v in self.points],
                "clarity": [list(c) for c in self.clarity],
                "kingmakers": list(self.kingmakers),
                "items": [dict(seat) for seat in self.items], "hidden": self.hidden,
                "agent_seconds": self.agent_seconds, "rules_seconds": self.rules_seconds}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Measured:
        return cls(
            evaluator=str(d["evaluator"]), rounds=int(d["rounds"]),
            points=tuple((int(x), tuple(float(v) for v in vals)) for x, vals in d["points"]),
            clarity=tuple((float(a), float(b)) for a, b in d.get("clarity", ())),
            kingmakers=tuple(int(k) for k in d.get("kingmakers", ())),
            items=tuple(tuple(sorted((str(k), int(v)) for k, v in seat.items()))
                        for seat in d.get("items", ())),
            hidden=float(d.get("hidden", -1.0)),
            agent_seconds=float(d.get("agent_seconds", 0.0)),
            rules_seconds=float(d.get("rules_seconds", 0.0)))


def leaders(values: Sequence[float]) -> frozenset[int]:
    """The players with the top value."""
    top = max(values)
    return frozenset(p for p, v in enumerate(values) if v == top)


def kingmakers(winners: Sequence[int], around: dict[int, tuple[list[float], list[float]]],
               players: int) -> tuple[int, ...]:
    """The seats that made a king: in a game of three or more with winners, a seat ``p``
    that did not win, was not among the evaluator's leaders just before its last real
    choice (it could not win), and whose choice moved the lead from players who went on
    to lose (no winner among the leaders before) to an eventual winner (one among the
    leaders right after). ``around[p]`` is (values before, values after) that choice."""
    if players < 3 or not winners:
        return ()
    won = set(winners)
    out = []
    for p, (before, after) in sorted(around.items()):
        lead_before, lead_after = leaders(before), leaders(after)
        if p in won or p in lead_before:
            continue
        if not lead_before & won and lead_after & won:
            out.append(p)
    return tuple(out)


def clarity_at(state: State, judge: Judge) -> tuple[float, float] | None:
    """(narrowness, variance) of the mover's values after each of its legal moves: the
    share of moves within half-way of the best from the mean (``v >= mean + (max -
    mean) / 2``, Ludii's clarity narrowness) and the variance of the values. None when the
    mover has one legal move."""
    movers = state.to_move()
    if not movers:
        return None
    p = movers[0]
    legal = state.legal_actions(p)
    if len(legal) < 2:
        return None
    vals = []
    for a in legal:
        s = state.clone()
        s.apply(p, a)
        vals.append(judge.values(s)[p])
    mean = sum(vals) / len(vals)
    bar = mean + (max(vals) - mean) / 2
    narrow = sum(1 for v in vals if v >= bar - 1e-12) / len(vals)
    var = sum((v - mean) ** 2 for v in vals) / len(vals)
    return narrow, var


def hidden_at(state: State, rng: Rng) -> float | None:
    """The share of the other players' observation entries that differ between the state
    and a world resampled from one player's view, averaged over players: what each player
    cannot see of the others (a lower bound: a resample may repeat a hidden value)."""
    if not state.game.hidden_information:
        return 0.0
    if state.game.observer is None and state.game.observation_encoding is None:
        return None
    shares = []
    for p in range(state.n):
        world = state.redeterminize(p, rng)
        for q in range(state.n):
            if q == p:
                continue
            a, b = state.observation(q), world.observation(q)
            if a:
                shares.append(sum(1 for x, y in zip(a, b, strict=True) if x != y) / len(a))
    return sum(shares) / len(shares) if shares else None


def spread(count: int, cap: int) -> set[int]:
    """Up to ``cap`` of the indices ``0 .. count-1``, evenly spaced."""
    if count <= cap:
        return set(range(count))
    return {round(i * (count - 1) / (cap - 1)) for i in range(cap)} if cap > 1 else {0}


def measure_game(final: State, legal_counts: Sequence[int], spec: str, seed: int = 0,
                 agent_seconds: float = 0.0, rules_seconds: float = 0.0) -> Measured:
    """Replay the finished game ``final`` (its ``legal_counts``: the number of legal
    actions at each of its decisions) and judge it with the evaluator ``spec``."""
    judge = make_judge(spec, seed)
    history = final.history
    game, n = final.game, final.n
    last_choice: dict[int, int] = {}
    for i, (p, _) in enumerate(history):
        if i < len(legal_counts) and legal_counts[i] > 1:
            last_choice[p] = i
    at = {i: p for p, i in last_choice.items()}
    around: dict[int, tuple[list[float], list[float]]] = {}
    state = game.new(n, final.seed, log=False, **final.options.to_dict())
    items: list[dict[str, int]] = [{} for _ in range(n)]
    points = [(0, tuple(judge.values(state)))]
    ends: list[State] = []
    rounds = 0
    for i, (p, action) in enumerate(history):
        before = judge.values(state) if i in at else None
        state.apply(p, action)
        text = str(action)
        items[p][text] = items[p].get(text, 0) + 1
        if before is not None:
            around[at[i]] = (before, judge.values(state))
        movers = state.to_move()
        if not movers or movers[0] < p:
            rounds += 1
            points.append((state.decisions, tuple(judge.values(state))))
            if movers:
                ends.append(state.clone())
    rng = Rng(seed ^ 0x5EED)
    picks = spread(len(ends), CLARITY_POSITIONS)
    clarity = tuple(c for k in sorted(picks) if (c := clarity_at(ends[k], judge)) is not None)
    hidden = [h for k in sorted(spread(len(ends), HIDDEN_POSITIONS))
              if (h := hidden_at(ends[k], rng)) is not None]
    return Measured(
        evaluator=judge.spec, rounds=rounds, points=tuple(points), clarity=clarity,
        kingmakers=kingmakers(final.winners(), around, n),
        items=tuple(tuple(sorted(seat.items())) for seat in items),
        hidden=sum(hidden) / len(hidden) if hidden else (-1.0 if ends else 0.0),
        agent_seconds=agent_seconds, rules_seconds=rules_seconds)
