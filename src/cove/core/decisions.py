"""The pending-decision stack: a turn as a pile of small decisions.

A game's flow is a stack of :class:`Step` values (the top one is being decided now), in
the spirit of TAG's ``IExtendedSequence`` stack. Each kind of step has a :class:`StepRule`
that says who decides it, what they may choose, what the choice does and how to ask for
it in one sentence. A rule's ``apply`` may push further steps (a sub-decision: "choose the
pile for the returned shell") or none (the step is done). *Automatic* steps (no player)
carry out game flow between decisions (end of round, scoring); a step whose only mover has
one legal choice is taken automatically when its rule allows it, and logged.

Steps are small frozen values and the stack is a tuple, so a clone shares it for free.

A game opts in by setting ``STEPS = {kind: rule, ...}`` on its state class and pushing its
first step in ``setup``; the base class then provides ``to_move``, ``_legal_actions``,
``_apply`` and ``_decision``. When the stack empties, ``State.next_steps()`` is asked for
more (the next turn); an empty stack after that means the game is over.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cove.core.state import State

AUTO: tuple[int, ...] = ()
"""The players of an automatic step: nobody decides it."""


@dataclass(frozen=True, slots=True)
class Step:
    """One pending decision (or automatic flow step when ``players`` is empty)."""

    kind: str
    players: tuple[int, ...] = AUTO
    data: tuple[Any, ...] = ()

    @property
    def player(self) -> int:
        return self.players[0]


class StepRule:
    """How one kind of step works. Subclass and override; one instance per kind."""

    forced: bool = True
    """Take the only legal choice automatically (and log it)."""

    secret: bool = False
    """Choices are hidden from the other players until the game calls ``reveal()``."""

    def movers(self, state: State, step: Step) -> tuple[int, ...]:
        """Who must decide now (a simultaneous step shrinks as players commit)."""
        return step.players

    def legal(self, state: State, step: Step, player: int) -> Sequence[Any]:
        raise NotImplementedError

    def apply(self, state: State, step: Step, player: int, action: Any) -> None:
        """Carry out ``action``. The step has already been popped; push it back (or a
        changed copy) if it is not finished, push sub-steps if any."""
        raise NotImplementedError

    def run(self, state: State, step: Step) -> None:
        """Carry out an automatic step (``players`` empty). Already popped."""
        raise NotImplementedError

    def prompt(self, state: State, step: Step, player: int) -> str:
        """One plain sentence: what ``player`` is deciding and why."""
        return step.kind.replace("_", " ").capitalize()

    def describe(self, state: State, step: Step, player: int) -> dict[str, Any]:
        """Extra JSON-ready facts about the decision for clients (default none)."""
        return {}
