"""Actions: one small value class per kind of decision; ``str(a)`` is its stable text.

Each action holds the numbers that say what it does (a card, a direction, a crew-line slot,
a die and a face) and its text, built once when the legal list is made. The text is part
of equality: the same numbers can mean a different thing in another state (a crew-line
slot holds another card after a refresh, a target index another ship), so an action kept
from an earlier state whose text no longer matches is not legal now, and the record never
stores a text the move did not have (RULES.md R13.2).

Each kind's ``key()`` is ``(kind, a, b, c)``: its name (``KIND``) and its numbers in a
fixed order, zeros for the ones it lacks. The JSON form is that key with the text,
``{"kind", "a", "b", "c", "text"}``, as the web board and clients have always read it; the
action space (SPEC.md "Action space") numbers the keys: two actions legal at the same
moment never share one, so the key is injective at any moment while the universe stays
small (see :func:`universe`).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar, Final

from cove.core import Options, pickle_records
from cove.games.tiny_epic_pirates import data

Key = tuple[str, int, int, int]

BY_ORDER, BY_CAPTAIN = -2, -1
"""Who carries out an order or a bonus: the Order itself, the Captain, else a crew card's id."""

WHEEL_DECKHAND = 10
"""Where a jostled or moved Deckhand comes from: ``WHEEL_DECKHAND + space`` is the one on
that wheel space; a smaller source is an Assignment (data.ASSIGN)."""


class Act:
    """What every action kind shares: the text form, the JSON form, the key, equality.

    The kinds are plain classes, not dataclasses, so that the compiled build makes them
    native classes: a legal list makes several per decision, and a dataclass's
    ``__init__`` stays Python code in both builds. Each kind lists its constructor's
    arguments in ``__match_args__``, which the core reads to store and pickle it as a
    record (``cove.core.record_fields``); its numbers and text never change once made."""

    KIND: ClassVar[str]
    __match_args__: ClassVar[tuple[str, ...]] = ("text",)
    text: str

    def __init__(self, text: str = "") -> None:
        self.text = text

    def __str__(self) -> str:
        return self.text

    def key(self) -> Key:
        """The action-space key ``(kind, a, b, c)``: the kind's name and the action's
        numbers (zeros for the ones a kind lacks), the JSON form without the text."""
        return (self.KIND, 0, 0, 0)

    def to_json(self) -> dict[str, Any]:
        """``{"kind": "sail", "a": 0, "b": 0, "c": 0, "text": "sail north to b2"}``."""
        kind, a, b, c = self.key()
        return {"kind": kind, "a": a, "b": b, "c": c, "text": self.text}

    def __eq__(self, other: object) -> bool:
        return (type(other) is type(self) and isinstance(other, Act)
                and other.text == self.text and other.key() == self.key())

    def __hash__(self) -> int:
        return hash((self.key(), self.text))

    def __repr__(self) -> str:
        args = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__match_args__)
        return f"{type(self).__name__}({args})"


# ---------------------------------------------------------------- setup (R3)
class PlaceNavy(Act):
    """P1 puts the Navy on a corner card without a port."""

    KIND = "navy_setup"
    __match_args__ = ("cell", "text")

    def __init__(self, cell: int, text: str = "") -> None:
        self.cell: Final = cell
        self.text = text

    def key(self) -> Key:
        return (self.KIND, self.cell, 0, 0)


class StartCove(Act):
    """A player starts hidden in this Cove card."""

    KIND = "cove"
    __match_args__ = ("cell", "text")

    def __init__(self, cell: int, text: str = "") -> None:
        self.cell: Final = cell
        self.text = text

    def key(self) -> Key:
        return (self.KIND, self.cell, 0, 0)


class CaptainSide(Act):
    """A player plays their Captain card on this side (0 A, 1 B)."""

    KIND = "side"
    __match_args__ = ("side", "text")

    def __init__(self, side: int, text: str = "") -> None:
        self.side: Final = side
        self.text = text

    def key(self) -> Key:
        return (self.KIND, self.side, 0, 0)


# ---------------------------------------------------------------- the wheel (R4)
class MoveCaptain(Act):
    """The Captain moves clockwise to this wheel space."""

    KIND = "wheel"
    __match_args__ = ("space", "text")

    def __init__(self, space: int, text: str = "") -> None:
        self.space: Final = space
        self.text = text

    def key(self) -> Key:
        return (self.KIND, self.space, 0, 0)


class PaySkip(Act):
    """A skipped wheel space is paid with a Deckhand from this Assignment."""

    KIND = "pay"
    __match_args__ = ("assignment", "text")

    def __init__(self, assignment: int, text: str = "") -> None:
        self.assignment: Final = assignment
        self.text = text

    def key(self) -> Key:
        return (self.KIND, self.assignment, 0, 0)


class AssignDeckhand(Act):
    """A released or new Deckhand goes to this Assignment."""

    KIND = "assign"
    __match_args__ = ("assignment", "text")

    def __init__(self, assignment: int, text: str = "") -> None:
        self.assignment: Final = assignment
        self.text = text

    def key(self) -> Key:
        return (self.KIND, self.assignment, 0, 0)


# ---------------------------------------------------------------- sailing (R5)
class SailTo(Act):
    """The ship sails one card in this direction (north, east, south, west)."""

    KIND = "sail"
    __match_args__ = ("direction", "text")

    def __init__(self, direction: int, text: str = "") -> None:
        self.direction: Final = direction
        self.text = text

    def key(self) -> Key:
        return (self.KIND, self.direction, 0, 0)


class SailToken(Act):
    """A sail token of this amount is spent for more movement."""

    KIND = "token"
    __match_args__ = ("amount", "text")

    def __init__(self, amount: int, text: str = "") -> None:
        self.amount: Final = amount
        self.text = text

    def key(self) -> Key:
        return (self.KIND, self.amount, 0, 0)


class StopSailing(Act):
    """The ship stops where it is."""

    KIND = "stop"


class JostleDeckhand(Act):
    """This Deckhand goes to Repair: from an Assignment 0..2, or ``WHEEL_DECKHAND`` + a
    wheel space."""

    KIND = "jostle"
    __match_args__ = ("source", "text")

    def __init__(self, source: int, text: str = "") -> None:
        self.source: Final = source
        self.text = text

    def key(self) -> Key:
        return (self.KIND, self.source, 0, 0)


# ---------------------------------------------------------------- orders and bonuses (R7, R8)
class DoOrder(Act):
    """The Order is carried out; ``choice`` is a trade count 1..3 or an attack target
    0..4, else 0."""

    KIND = "do"
    __match_args__ = ("order", "choice", "text")

    def __init__(self, order: int, choice: int = 0, text: str = "") -> None:
        self.order: Final = order
        self.choice: Final = choice
        self.text = text

    def key(self) -> Key:
        return (self.KIND, self.order, self.choice, BY_ORDER)


class Bonus(Act):
    """A bonus action is carried out: ``bonus`` (an index of ``data.BONUSES``), ``choice``
    as for :class:`DoOrder`, ``source`` the Captain (``BY_CAPTAIN``) or a crew card's id."""

    KIND = "bonus"
    __match_args__ = ("bonus", "choice", "source", "text")

    def __init__(self, bonus: int, choice: int = 0, source: int = BY_CAPTAIN,
                 text: str = "") -> None:
        self.bonus: Final = bonus
        self.choice: Final = choice
        self.source: Final = source
        self.text = text

    def key(self) -> Key:
        return (self.KIND, self.bonus, self.choice, self.source)


class Skip(Act):
    """An order, a bonus or a step is passed (or there is nothing to do)."""

    KIND = "skip"


class KeepCube(Act):
    """A full ship keeps the new cube and throws back one of type ``returned`` (-1: the
    new one goes back)."""

    KIND = "keep"
    __match_args__ = ("returned", "text")

    def __init__(self, returned: int, text: str = "") -> None:
        self.returned: Final = returned
        self.text = text

    def key(self) -> Key:
        return (self.KIND, self.returned, 0, 0)


class RefreshLine(Act):
    """The crew line is refreshed for 1 Gold."""

    KIND = "refresh"


class Mutiny(Act):
    """The Captain card flips (once a game)."""

    KIND = "mutiny"


class TakeCrew(Act):
    """The crew card in line position ``slot`` joins the crew; ``discard`` is the position
    in the crew of the card it replaces (-1: none)."""

    KIND = "take"
    __match_args__ = ("slot", "discard", "text")

    def __init__(self, slot: int, discard: int = -1, text: str = "") -> None:
        self.slot: Final = slot
        self.discard: Final = discard
        self.text = text

    def key(self) -> Key:
        return (self.KIND, self.slot, self.discard, 0)


class Done(Act):
    """Crewing up, or moving Deckhands, is over."""

    KIND = "done"


class MoveDeckhand(Act):
    """A Deckhand moves from ``source`` (an Assignment 0..3, or ``WHEEL_DECKHAND`` + a wheel
    space) to the Assignment ``to`` (0..2)."""

    KIND = "move"
    __match_args__ = ("source", "to", "text")

    def __init__(self, source: int, to: int, text: str = "") -> None:
        self.source: Final = source
        self.to: Final = to
        self.text = text

    def key(self) -> Key:
        return (self.KIND, self.source, self.to, 0)


# ---------------------------------------------------------------- battles (R7.7-R7.11, R6.4)
class SureFire(Act):
    """A sure-fire token sets die ``die`` to ``face``."""

    KIND = "surefire"
    __match_args__ = ("die", "face", "text")

    def __init__(self, die: int, face: int, text: str = "") -> None:
        self.die: Final = die
        self.face: Final = face
        self.text = text

    def key(self) -> Key:
        return (self.KIND, self.die, self.face, 0)


class Reroll(Act):
    """The attacker rerolls the dice ``mask`` chooses (:func:`dice_chosen`)."""

    KIND = "reroll"
    __match_args__ = ("mask", "text")

    def __init__(self, mask: int, text: str = "") -> None:
        self.mask: Final = mask
        self.text = text

    def key(self) -> Key:
        return (self.KIND, self.mask, 0, 0)


class FireDice(Act):
    """The dice are fired as they stand."""

    KIND = "fire"


class ChoosePort(Act):
    """A sunk Merchant equally far from both ports returns to port 0 or 1."""

    KIND = "port"
    __match_args__ = ("port", "text")

    def __init__(self, port: int, text: str = "") -> None:
        self.port: Final = port
        self.text = text

    def key(self) -> Key:
        return (self.KIND, self.port, 0, 0)


class SteerNavy(Act):
    """The Navy sails one card in this direction."""

    KIND = "navy"
    __match_args__ = ("direction", "text")

    def __init__(self, direction: int, text: str = "") -> None:
        self.direction: Final = direction
        self.text = text

    def key(self) -> Key:
        return (self.KIND, self.direction, 0, 0)


class LoseCube(Act):
    """A cube of this booty type is lost to the Navy."""

    KIND = "lose"
    __match_args__ = ("booty", "text")

    def __init__(self, booty: int, text: str = "") -> None:
        self.booty: Final = booty
        self.text = text

    def key(self) -> Key:
        return (self.KIND, self.booty, 0, 0)


def action_key(act: Any) -> Key:
    """The action-space key of a legal action: its numbers without the text."""
    assert isinstance(act, Act)
    return act.key()


MAX_DICE = 3        # the Legend Track's largest dice count (data.py checks 1..3)
MAX_TARGETS = 5     # 2 Merchants and 3 other Pirate Ships on one card


def dice_subsets(count: int) -> range:
    """Every choice of one or more of ``count`` dice, as a ``Reroll``'s mask (die ``i``
    chosen when bit ``i`` is set), in the action space's order."""
    return range(1, 1 << count)


def dice_chosen(mask: int, count: int) -> list[int]:
    """The dice (0-based, lowest first) that the ``Reroll`` mask ``mask`` chooses among
    ``count`` dice."""
    return [die for die in range(count) if mask >> die & 1]


def _ways(what: int, source: int) -> list[Act]:
    """Order or bonus ``what`` carried out by ``source`` (``BY_ORDER``, ``BY_CAPTAIN`` or a
    crew card) in every way it can be: a trade count or an attack target."""
    choices = ((1, 2, 3) if what == data.TRADE else range(MAX_TARGETS) if what == data.ATTACK
               else (0,))
    if source == BY_ORDER:
        return [DoOrder(what, n) for n in choices]
    return [Bonus(what, n, source) for n in choices]


def universe(players: int, options: Options) -> list[Hashable]:
    """Every action key a configuration can offer, in a fixed order (SPEC.md)."""
    name = getattr(options, "ruleset", data.DEFAULT)
    ruleset = data.ruleset(name)
    out: list[Act] = []
    out += [PlaceNavy(c) for c in (0, 3, 12, 15)]
    out += [StartCove(i) for i in range(16)]
    out += [CaptainSide(s) for s in (0, 1)]
    out += [MoveCaptain(d) for d in range(6)]
    out += [PaySkip(j) for j in range(4)]
    out += [AssignDeckhand(j) for j in range(4)]
    out += [SailTo(d) for d in range(4)]
    sail = sorted({amount for kind, amount in ruleset.search if kind == data.S_SAIL})
    out += [SailToken(amount) for amount in sail]
    out += [StopSailing()]
    wheel = [WHEEL_DECKHAND + space for space in range(6)]
    out += [JostleDeckhand(source) for source in (0, 1, 2, *wheel)]
    for o in range(len(data.ORDERS)):
        out += _ways(o, BY_ORDER)
    out += [Skip()]
    out += [KeepCube(t) for t in range(-1, data.BOOTY_TYPES)]
    out += [RefreshLine(), Mutiny()]
    out += [TakeCrew(i, j) for i in range(3) for j in range(-1, 4)]
    out += [Done()]
    out += [SureFire(i, g) for i in range(MAX_DICE) for g in range(1, 7)]
    out += [Reroll(mask) for mask in dice_subsets(MAX_DICE)]
    out += [FireDice()]
    out += [*_ways(data.BURY, BY_CAPTAIN), *_ways(data.ATTACK, BY_CAPTAIN),
            *_ways(data.PLUNDER, BY_CAPTAIN)]
    for card, crew in enumerate(ruleset.crew):
        for bonus in sorted(set(crew.bonus) - {data.REROLL}):
            out += _ways(bonus, card)
    out += [ChoosePort(i) for i in (0, 1)]
    out += [SteerNavy(d) for d in range(4)]
    out += [LoseCube(t) for t in range(data.BOOTY_TYPES)]
    out += [MoveDeckhand(source, j) for source in (0, 1, 2, 3, *wheel)
            for j in range(3) if j != source]
    return [a.key() for a in out]


pickle_records(globals())  # records pickle as calls with their fields (docs/BUILD.md)
