"""The turn's vocabulary: the kinds of step on the decision stack, how a step is made, the
steps a turn starts with, what each decision asks in words, and the kinds of battle.

A leaf module (it imports nothing of the game, only the core's Step), so the rules, the
view, the observation, the solo pirate and the heuristic share these names without
importing one another.
"""

from __future__ import annotations

from cove.core.decisions import Step

# Step kinds on the decision stack (cove.core.decisions): the decisions, then the
# automatic steps. Each kind's rule is in rules.py.
DECISIONS = (
    "navy_setup", "cove", "side", "wheel", "pay", "release", "sail", "jostle", "order",
    "keep", "crew", "hide_out", "captain_bury", "captain_bonus", "crew_bonus", "fire",
    "port", "new_deckhand", "navy_move", "lose", "reassign",
)
(
    T_NAVY_SETUP, T_COVE, T_SIDE, T_WHEEL, T_PAY, T_RELEASE, T_SAIL, T_JOSTLE, T_ORDER,
    T_KEEP, T_CREW, T_DIST, T_CAPBURY, T_CAPT2, T_CREWBONUS, T_FIRE, T_PORT, T_NEWHAND,
    T_NAVY_MOVE, T_LOSE, T_REASSIGN,
) = DECISIONS
AUTOMATIC = (
    "start", "wheel_done", "bonus_setup", "roll", "resolve", "merchant_cube", "legend",
    "end_turn", "navy_fight", "next_turn",
)
(
    T_START, T_WHEEL_DONE, T_BONUS_SETUP, T_ROLL, T_RESOLVE, T_MCUBE, T_LEGEND, T_END_TURN,
    T_NAVY_FIGHT, T_NEXT,
) = AUTOMATIC
DECISION_INDEX = {k: i for i, k in enumerate(DECISIONS)}
"""A decision kind's number (the observation's one-hot)."""

# Battle kinds.
B_MERCHANT, B_PIRATE, B_NAVY = range(3)

# What each decision asks, in words, for views and prompts.
TASK_NAMES = dict(zip(DECISIONS, (
    "place the navy", "choose a starting cove", "choose a captain side", "move the captain",
    "pay a deckhand to skip", "assign a released deckhand", "sail", "jostled",
    "carry out the order", "ship full", "crew up", "place deckhands", "captain's bury",
    "captain's second bonus", "crew bonus actions", "battle: fire", "merchant port",
    "place the new deckhand", "navy course", "lose a cube to the navy", "reassign deckhands",
), strict=True))

_AUTOMATIC = frozenset(AUTOMATIC)
_MADE: dict[tuple[str, int, int], Step] = {}


def step_of(kind: str, p: int, x: int = 0) -> Step:
    """The step ``kind`` of player ``p`` with argument ``x`` (a wheel space, a cube type, a
    count, a merchant). A decision is ``Step(kind, (p,), (x,))``; an automatic step has no
    players and carries ``(p, x)``. Steps are frozen, so each is made once and shared."""
    key = (kind, p, x)
    made = _MADE.get(key)
    if made is None:
        made = _MADE[key] = (Step(kind, (), (p, x)) if kind in _AUTOMATIC
                             else Step(kind, (p,), (x,)))
    return made


def owner(step: Step) -> tuple[int, int]:
    """``(p, x)`` of a step made by :func:`step_of`."""
    return (step.players[0], step.data[0]) if step.players else (step.data[0], step.data[1])


_TURNS: dict[int, tuple[Step, ...]] = {}


def turn_steps(p: int) -> tuple[Step, ...]:
    """A turn of ``p``'s, bottom first: the end of the turn, the bonus actions, the Order,
    sailing, and on top the wheel (made once per seat and shared)."""
    made = _TURNS.get(p)
    if made is None:
        made = _TURNS[p] = (step_of(T_END_TURN, p), step_of(T_BONUS_SETUP, p),
                            step_of(T_ORDER, p), step_of(T_SAIL, p), step_of(T_WHEEL, p))
    return made
