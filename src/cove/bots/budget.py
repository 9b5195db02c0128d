"""A server's bound on one bot move: think time, and the search work it implies.

A server that plays bots for strangers must not let a seat spec choose its own cost
(``mcts:iterations=1000000000,steps=0`` would hold a worker for as long as it is let).
:class:`Budget` says what one move may cost: ``seconds`` of thinking, and the iteration,
forward-model-call and sample counts that fit in it. It is used twice:

- at creation, :func:`check_spec` refuses a spec whose named work is beyond the budget,
  naming the parameter and the most it may be (the levels ``easy``, ``medium`` and
  ``hard`` are the server's own presets and are never refused: they are held to the budget
  as they think);
- as a bot thinks, :meth:`cove.bots.base.Bot.bound` holds it to the budget whatever its
  spec said (a spec stored before the budget was lowered, or a level): a search stops at
  the budget's time and counts, a greedy bot averages at most the budget's samples.

The counts a second buys are generous on purpose: measured on the built-in games (one
core of a 2-core machine, December 2026), a search made 16,000 to 55,000 forward-model
calls (``apply``) a second and ``hard`` (2000 iterations, 160000 steps) took 0.2 to 0.8 s
a move, so the levels fit the default budget of 2 s with room, and the time cap is what
binds on a slow game or a loaded machine.
"""

from __future__ import annotations

from dataclasses import dataclass

ITERATIONS_PER_SECOND = 2000
"""Search iterations a budget allows per second of think time (``hard``: 2000 a move)."""
STEPS_PER_SECOND = 100_000
"""Forward-model calls a budget allows per second (``hard``: 160000 a move)."""
SAMPLES_PER_SECOND = 16
"""Sampled worlds a greedy bot may average per second (32 took about 2 s a move on the
largest built-in board, on a loaded machine)."""
MAX_SPEC = 200
"""Characters in a bot spec (the longest useful one is under 150)."""


@dataclass(frozen=True)
class Budget:
    """What one bot move may cost: ``seconds`` of thinking, and at most ``iterations``
    search iterations, ``steps`` forward-model calls and ``samples`` sampled worlds."""

    seconds: float
    iterations: int
    steps: int
    samples: int

    @classmethod
    def for_seconds(cls, seconds: float) -> Budget:
        """The budget of ``seconds`` think time a move, with the counts it implies."""
        if not seconds > 0:
            raise ValueError(f"a bot budget is a number of seconds above 0, not {seconds!r}")
        return cls(seconds=float(seconds),
                   iterations=max(1, round(seconds * ITERATIONS_PER_SECOND)),
                   steps=max(1, round(seconds * STEPS_PER_SECOND)),
                   samples=max(1, round(seconds * SAMPLES_PER_SECOND)))

    def describe(self) -> str:
        return (f"{self.seconds:g} s of thinking a move: at most {self.iterations} "
                f"iterations and {self.steps} steps (forward-model calls) for mcts, "
                f"{self.samples} samples for greedy")


class OverBudget(Exception):
    """A bot went over its move's CPU time (raised inside its worker process)."""


def check_spec(spec: str, budget: Budget, game: object | None = None) -> None:
    """Refuse (:class:`~cove.bots.spec.BotSpecError`) a spec that is too long, not valid,
    or asks for more work than ``budget`` (the reason names the parameter and the most it
    may be). ``game``: the table's game, whose declared defaults count (``cove.bots.
    defaults``)."""
    from cove.bots import make_bot  # the package imports this module
    from cove.bots.spec import BotSpecError

    if len(spec) > MAX_SPEC:
        raise BotSpecError(f"a bot spec is at most {MAX_SPEC} characters; this one has "
                           f"{len(spec)}")
    bot = make_bot(spec)
    if bot.level is not None:
        return  # a level is a preset: held to the budget as it thinks, never refused
    problem = bot.over_budget(budget, game)
    if problem:
        raise BotSpecError(f"bot {spec!r} asks for {problem}: beyond this server's bot "
                           f"budget ({budget.describe()})")
