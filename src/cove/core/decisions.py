"""The pending-decision stack: a turn as a pile of small decisions.

A game's flow is a stack of :class:`Step` values (the top one is being decided now), in
the spirit of TAG's ``IExtendedSequence`` stack. Each kind of step has a :class:`StepRule`
that says who decides it, what they may choose, what the choice does and how to ask for
it in one sentence. A rule's ``apply`` may push further steps (a sub-decision: "choose the
pile for the returned shell") or none (the step is done). *Automatic* steps (no player)
carry out game flow between decisions (end of round, scoring); a step whose only mover has
one legal choice is taken automatically when its rule allows it (``forced``), and one that
offers nothing lapses (``lapses``, ``idle``).

Steps are small frozen values and the stack is a tuple, so a clone shares it for free.

A game opts in by setting ``STEPS = {kind: rule, ...}`` in its state class body and pushing
its first step in ``setup``; the base class then provides ``to_move``, ``_legal_actions``,
``_apply``, ``_ask`` and ``settle``, one plain loop that reads each step's rule from
``STEPS``. When the stack empties, ``State.next_steps()`` is asked for more (the next
turn); an empty stack after that means the game is over. Games read and change the stack
only through ``State``'s public methods (``steps``, ``top_step``, ``push``, ``then``,
``pop``, ``clear_steps``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from cove.core.compiled import mypyc_attr

if TYPE_CHECKING:
    from cove.core.state import State

S = TypeVar("S", bound="State")
"""The state class a rule is written for: a rule is only ever handed its own game's state."""

AUTO: tuple[int, ...] = ()
"""The players of an automatic step: nobody decides it."""


@dataclass(frozen=True, slots=True)
class Step:
    """One pending decision (or automatic flow step when ``players`` is empty)."""

    kind: str
    players: tuple[int, ...] = AUTO
    data: Any = ()
    """What the step carries: () when nothing, else the step kind's own small frozen record
    (a typed payload, read by name: ``step.data.pool``), or a tuple of plain values."""

    @property
    def player(self) -> int:
        return self.players[0]

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled by its fields: a compiled frozen dataclass cannot be unpickled by setattr
        return (Step, (self.kind, self.players, self.data))


@mypyc_attr(allow_interpreted_subclasses=True)  # each game subclasses it
class StepRule(Generic[S]):
    """How one kind of step works. Subclass and override; one instance per kind.

    ``StepRule[MyState]`` types ``state`` as the game's own state class in every hook, so a
    rule needs no cast (the stack only ever hands a rule the state whose ``STEPS`` hold it).
    """

    forced: ClassVar[bool] = True
    """Take the only legal choice automatically (``settle``)."""

    log_forced: ClassVar[bool] = True
    """Log a forced choice as a generic "P1: <action> (the only choice)" event. Turn it off
    when the rule's ``apply`` logs the move itself, as a chosen move would be logged."""

    secret: ClassVar[bool] = False
    """Choices are hidden from the other players until the game calls ``reveal()``."""

    name: ClassVar[str] = ""
    """The decision kind clients see (``decision(p)["kind"]``); "" means the step's kind."""

    plain_movers: ClassVar[bool] = True
    """Set for each subclass: ``movers`` is not overridden, so the movers are the step's
    players and ``to_move`` need not call it (the hot path)."""

    can_lapse: ClassVar[bool] = False
    """Set for each subclass: ``lapses`` is overridden, so ``settle`` asks it."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.plain_movers = cls.movers is StepRule.movers
        cls.can_lapse = cls.lapses is not StepRule.lapses

    def movers(self, state: S, step: Step) -> tuple[int, ...]:
        """Who must decide now (a simultaneous step shrinks as players commit)."""
        return step.players

    def legal(self, state: S, step: Step, player: int) -> Sequence[Any]:
        raise NotImplementedError

    def apply(self, state: S, step: Step, player: int, action: Any) -> None:
        """Carry out ``action``. The step has already been popped; push it back (or a
        changed copy) if it is not finished, push sub-steps if any."""
        raise NotImplementedError

    def run(self, state: S, step: Step) -> None:
        """Carry out an automatic step (``players`` empty). Already popped."""
        raise NotImplementedError

    def lapses(self, state: S, step: Step) -> bool:
        """Whether a forced step offers nothing worth asking now and is passed over without
        asking its mover (checked by ``settle`` before ``legal``; default never)."""
        return False

    def idle(self, state: S, step: Step, player: int) -> None:
        """Carry out a forced step whose mover has no legal action (already popped).
        Default: the step lapses, nothing happens."""
        return None

    def prompt(self, state: S, step: Step, player: int) -> str:
        """One plain sentence: what ``player`` is deciding and why."""
        return step.kind.replace("_", " ").capitalize()

    def public_prompt(self, state: S, step: Step) -> str:
        """The decision as the players who wait and spectators are told it: public facts
        only (default: nothing beyond whose turn it is)."""
        return ""

    def describe(self, state: S, step: Step, player: int) -> dict[str, Any]:
        """Extra JSON-ready facts about the decision for clients (default none)."""
        return {}
