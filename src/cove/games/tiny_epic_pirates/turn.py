"""The turn's vocabulary: the kinds of step on the decision stack, what each step carries,
how a step is made, the steps a turn starts with, what each decision asks in words, and
the records a turn keeps (a battle under way, a crew bonus still to take).

A leaf module (it imports nothing of the game, only the core), so the rules, the view, the
observation, the solo pirate and the heuristic share these names without importing one
another.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from cove.core import AUTO, Step, pickle_records

# Step kinds on the decision stack (cove.core.decisions): the decisions, then the
# automatic steps. Each kind's rule is in rules.py.
DECISIONS: Final = (
    "navy_setup", "cove", "side", "wheel", "pay", "release", "sail", "jostle", "order",
    "keep", "crew", "hide_out", "captain_bury", "captain_bonus", "crew_bonus", "fire",
    "port", "new_deckhand", "navy_move", "lose", "reassign",
)
(
    T_NAVY_SETUP, T_COVE, T_SIDE, T_WHEEL, T_PAY, T_RELEASE, T_SAIL, T_JOSTLE, T_ORDER,
    T_KEEP, T_CREW, T_DIST, T_CAPBURY, T_CAPT2, T_CREWBONUS, T_FIRE, T_PORT, T_NEWHAND,
    T_NAVY_MOVE, T_LOSE, T_REASSIGN,
) = DECISIONS
AUTOMATIC: Final = (
    "start", "wheel_done", "bonus_setup", "roll", "resolve", "merchant_cube", "legend",
    "end_turn", "navy_fight", "next_turn",
)
(
    T_START, T_WHEEL_DONE, T_BONUS_SETUP, T_ROLL, T_RESOLVE, T_MCUBE, T_LEGEND, T_END_TURN,
    T_NAVY_FIGHT, T_NEXT,
) = AUTOMATIC
DECISION_INDEX: Final = {k: i for i, k in enumerate(DECISIONS)}
"""A decision kind's number (the observation's one-hot)."""

# Battle kinds.
B_MERCHANT, B_PIRATE, B_NAVY = range(3)

# What each decision asks, in words, for views and prompts.
TASK_NAMES: Final = dict(zip(DECISIONS, (
    "place the navy", "choose a starting cove", "choose a captain side", "move the captain",
    "pay a deckhand to skip", "assign a released deckhand", "sail", "jostled",
    "carry out the order", "ship full", "crew up", "place deckhands", "captain's bury",
    "captain's second bonus", "crew bonus actions", "battle: fire", "merchant port",
    "place the new deckhand", "navy course", "lose a cube to the navy", "reassign deckhands",
), strict=True))


# ---------------------------------------------------------------- what the steps carry
@dataclass(frozen=True, slots=True)
class FoundCube:
    """The ``keep`` step's record (R2.2): the booty type found with a full ship."""

    cube: int


@dataclass(frozen=True, slots=True)
class WheelSpace:
    """The ``pay`` and ``release`` steps' record (R4.2, R4.4): the wheel space skipped, or
    passed or landed on with a Deckhand on it."""

    space: int


@dataclass(frozen=True, slots=True)
class CrewingUp:
    """The ``crew`` step's record (R7.3): whether a crew card is taken already (at most one
    per Crew Up)."""

    taken: bool


@dataclass(frozen=True, slots=True)
class DeckhandMoves:
    """The ``hide_out`` and ``reassign`` steps' record (R7.12, R8.4): the Deckhand moves made
    so far (at most one per Deckhand)."""

    made: int


@dataclass(frozen=True, slots=True)
class SunkMerchant:
    """The ``port`` and ``merchant_cube`` steps' record (R7.10): the merchant just sunk
    (0 for a, 1 for b)."""

    merchant: int


@dataclass(frozen=True, slots=True)
class ForPlayer:
    """Every other automatic step's record: the player whose turn, battle or Legend level
    it carries on (an automatic step has no deciding player)."""

    player: int


_AUTOMATIC: Final = frozenset(AUTOMATIC)
_MADE: dict[tuple[str, int, int], Step] = {}


def step_of(kind: str, player: int, number: int = 0) -> Step:
    """The step ``kind`` of ``player`` carrying ``number`` where its kind has a record (the
    cube found, the wheel space, 1 once a crew card is taken, the Deckhand moves made, the
    sunk merchant); other decisions carry nothing. Steps are frozen, so each is made once
    and shared."""
    key = (kind, player, number)
    made = _MADE.get(key)
    if made is None:
        made = _MADE[key] = _make(kind, player, number)
    return made


def _make(kind: str, player: int, number: int) -> Step:
    if kind == T_KEEP:
        return Step(kind, (player,), FoundCube(number))
    if kind in (T_PAY, T_RELEASE):
        return Step(kind, (player,), WheelSpace(number))
    if kind == T_CREW:
        return Step(kind, (player,), CrewingUp(number != 0))
    if kind in (T_DIST, T_REASSIGN):
        return Step(kind, (player,), DeckhandMoves(number))
    if kind == T_PORT:
        return Step(kind, (player,), SunkMerchant(number))
    if kind == T_MCUBE:
        return Step(kind, AUTO, SunkMerchant(number))
    if kind in _AUTOMATIC:
        return Step(kind, AUTO, ForPlayer(player))
    return Step(kind, (player,))


def task_argument(step: Step) -> int:
    """The number a decision carries (the observation's task argument): the cube found, the
    wheel space, 1 once a crew card is taken, the Deckhand moves made, the sunk merchant;
    0 for a decision that carries nothing."""
    record = step.data
    if isinstance(record, WheelSpace):
        return record.space
    if isinstance(record, DeckhandMoves):
        return record.made
    if isinstance(record, FoundCube):
        return record.cube
    if isinstance(record, CrewingUp):
        return int(record.taken)
    if isinstance(record, SunkMerchant):
        return record.merchant
    return 0


_TURNS: dict[int, tuple[Step, ...]] = {}


def turn_steps(player: int) -> tuple[Step, ...]:
    """A turn of ``player``'s, bottom first: the end of the turn, the bonus actions, the
    Order, sailing, and on top the wheel (made once per seat and shared)."""
    made = _TURNS.get(player)
    if made is None:
        made = _TURNS[player] = (
            step_of(T_END_TURN, player), step_of(T_BONUS_SETUP, player),
            step_of(T_ORDER, player), step_of(T_SAIL, player), step_of(T_WHEEL, player))
    return made


# ---------------------------------------------------------------- what a turn keeps
@dataclass(frozen=True, slots=True)
class Battle:
    """A battle under way (R7.6-R7.11, the Navy R6.4): who attacks what, each side's dice
    as rolled and improved, and the damage each side fires (0 until it fires). A merchant or
    the Navy rolls no dice: their side stays empty."""

    attacker: int
    kind: int                        # B_MERCHANT, B_PIRATE or B_NAVY
    target: int                      # the merchant (0 a, 1 b), the pirate's seat; -1 the Navy
    attacker_dice: tuple[int, ...] = ()
    defender_dice: tuple[int, ...] = ()
    attacker_damage: int = 0
    defender_damage: int = 0

    def dice_of(self, player: int) -> tuple[int, ...]:
        """``player``'s dice: the attacker's, else the defending pirate's."""
        return self.attacker_dice if player == self.attacker else self.defender_dice

    def with_dice(self, player: int, dice: tuple[int, ...]) -> Battle:
        """The same battle with ``player``'s dice now ``dice``."""
        if player == self.attacker:
            return replace(self, attacker_dice=dice)
        return replace(self, defender_dice=dice)

    def fired(self, player: int, damage: int) -> Battle:
        """The same battle once ``player`` has fired for ``damage``."""
        if player == self.attacker:
            return replace(self, attacker_damage=damage)
        return replace(self, defender_damage=damage)


@dataclass(frozen=True, slots=True)
class Target:
    """What a ship may attack on its card (R7.6): a merchant (``B_MERCHANT``, 0 for a, 1
    for b) or a pirate (``B_PIRATE``, their seat)."""

    kind: int
    index: int


@dataclass(frozen=True, slots=True)
class PendingBonus:
    """A crew card's bonus action still to take this turn (R8.3)."""

    card: int                        # the crew card's id
    bonus: int                       # the bonus action (data.BONUSES)


pickle_records(globals())  # records pickle as calls with their fields (docs/BUILD.md)
