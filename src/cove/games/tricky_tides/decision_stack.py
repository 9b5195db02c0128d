"""The pieces of the decision stack every step rule shares: the phases, the step kinds and
the phase each shows as, the shared step values, the open-sea step's payload
(:class:`AtSea`), and :class:`TidesRule` (the base of every step rule, in ``rules.py`` and
``monsters.py``).

A step's kind is the decision kind clients see (``decision(p)["kind"]``), except the
monster steps, which all show as "monster". Steps are shared constants (one per kind and
seat, the open-sea step also per heading), so pushing one allocates nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations
from typing import TYPE_CHECKING, Final, TypeVar

from cove.core import Step, StepRule, pickle_records
from cove.games.tricky_tides.actions import Act
from cove.games.tricky_tides.constants import SEATS

if TYPE_CHECKING:
    from cove.games.tricky_tides.state import TidesState

# phases: what kind of decision is pending (derived from the top step; see PHASE_OF)
PLACE, PLAY_CARD, SAIL_STEP, SEA_STEP, ACTION_STEP, OVERBOARD, OVER = range(7)
MONSTER: Final = 7             # monsters are activated (monster module)
LEADER: Final = 8              # option first_leader=ask: the table names the first leader
PHASE_NAMES: Final = ("place ship", "play card", "sail", "open sea", "pick up or deliver",
               "overboard", "game over", "monster activation", "first leader")

K_PLACE, K_PLAY, K_SAIL, K_SEA = "place_ship", "play_card", "sail", "open_sea"
K_ACTION, K_OVERBOARD, K_LEADER = "pick_up_or_deliver", "overboard", "first_leader"
K_M_ORDER, K_M_MOVE, K_M_ABILITY = "monster_order", "monster_move", "monster_ability"
K_M_NEXT: Final = "monster_next"
PHASE_OF: Final = {K_PLACE: PLACE, K_PLAY: PLAY_CARD, K_SAIL: SAIL_STEP, K_SEA: SEA_STEP,
            K_ACTION: ACTION_STEP, K_OVERBOARD: OVERBOARD, K_LEADER: LEADER,
            K_M_ORDER: MONSTER, K_M_MOVE: MONSTER, K_M_ABILITY: MONSTER, K_M_NEXT: MONSTER}
"""The phase (view key ``phase``, observation one-hot) of each step kind."""


@dataclass(frozen=True, slots=True)
class AtSea:
    """What an open-sea step carries: the heading the ship is sailing in (R5.6)."""

    heading: int


SAIL_STEPS: Final = tuple(Step(K_SAIL, (p,)) for p in range(SEATS))
SAILING: Final = {order: tuple(SAIL_STEPS[p] for p in reversed(order))
           for n in range(1, SEATS + 1) for order in permutations(range(n))}
"""The sail steps pushed for each sailing order (the first sailor's step on top)."""
ACTION_STEPS: Final = tuple(Step(K_ACTION, (p,)) for p in range(SEATS))
PLACE_STEPS: Final = tuple(Step(K_PLACE, (p,)) for p in range(SEATS))
OVERBOARD_STEPS: Final = tuple(Step(K_OVERBOARD, (p,)) for p in range(SEATS))
SEA_STEPS: Final = tuple(tuple(Step(K_SEA, (p,), AtSea(heading)) for heading in range(8))
                  for p in range(SEATS))
"""``SEA_STEPS[player][heading]``: that player's ship is on open sea, sailing ``heading``."""
LEADER_STEP: Final = Step(K_LEADER, (0,))      # P1 enters the table's answer
HAND_STEPS: Final = tuple(tuple(tuple(Step(K_PLAY, ((lead + i) % n,)) for i in range(n))
                         for lead in range(n)) if n else ()
                   for n in range(SEATS + 1))
"""``HAND_STEPS[n][lead]``: a hand's card plays in the order they are decided."""


T = TypeVar("T", bound="TidesState")


class TidesRule(StepRule[T]):
    """A Tricky Tides step rule. Every step is forced: a step with one legal action is
    carried out at once, logged by the action itself as if chosen (a forced move is not a
    decision and is not in the history, so ``log_forced`` is off), and a step with nothing
    to choose resolves itself through :meth:`idle`. :meth:`public_prompt` is what the other
    players are told."""

    log_forced = False

    def legal(self, state: T, step: Step, player: int) -> tuple[Act, ...]:
        """The legal actions, as a tuple of shared :class:`Act` values (no side effects)."""
        raise NotImplementedError

    def idle(self, state: T, step: Step, player: int) -> None:
        """Carry out the step when it offers nothing to choose."""
        raise RuntimeError(f"P{player + 1} has no legal action in step {step.kind}")

    def run(self, state: T, step: Step) -> None:
        raise RuntimeError(f"step {step.kind} needs a player")


pickle_records(globals())  # records pickle as calls with their fields (docs/BUILD.md)
