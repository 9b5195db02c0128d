"""High Water's actions: small frozen values whose str() is the stable text form, the
ready-made actions of a data file, and the action universe.

Dice appear by label ("y3": a yellow die showing 3). Two dice with the same label are
interchangeable, so an action names a label and the state uses any die that matches it.
Cards appear by their lower-case name (names are unique in the data file).

An action is a small frozen dataclass; building one costs more than looking it up, and the
legal lists are rebuilt at almost every decision. So every action value the rules can
offer is made once per data file (``tables``), equal to (and with the same text as) the
one the rules would build, so sharing them changes nothing but speed. Each card's cost is
also kept ready for the quick check of a hold (``patterns.affords``).

The action universe (``universe``) lists every action a configuration can offer, built
from the data file: trick cards, crates, die codes, card names, seats and faces. A crate
pick is keyed by the crate number alone (its dice differ every round); every other action
by its text, which is unique among them all (SPEC.md, "Action space").
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from cove.core import Options, pickle_records
from cove.games.high_water.data import HWData, get
from cove.games.high_water.patterns import Pattern, pattern


@dataclass(frozen=True, slots=True)
class Play:
    """Commit a trick card in secret (Phase 3); ``rereveal`` k > 0: in the k-th tie
    re-reveal of the trick, so a card offered in an earlier reveal is another action (the
    text "play 5" still finds "play 5 (re-reveal 1)" as its unique prefix)."""

    card: int
    rereveal: int = 0

    def __str__(self) -> str:
        if self.rereveal:
            return f"play {self.card} (re-reveal {self.rereveal})"
        return f"play {self.card}"


@dataclass(frozen=True, slots=True)
class Take:
    """Choose a crate (Phase 4)."""

    crate: int
    dice: str

    def __str__(self) -> str:
        return f"take crate {self.crate + 1} ({self.dice})"


@dataclass(frozen=True, slots=True)
class Target:
    """Put a sabotage marker on an opponent's quest."""

    player: int
    quest: str

    def __str__(self) -> str:
        return f"sabotage p{self.player + 1} {self.quest}"


@dataclass(frozen=True, slots=True)
class Remove:
    """Take a sabotage marker off one of your quests."""

    quest: str

    def __str__(self) -> str:
        return f"remove marker from {self.quest}"


@dataclass(frozen=True, slots=True)
class Activate:
    """Step 2: pay for and use an active crew card."""

    card: str

    def __str__(self) -> str:
        return f"activate {self.card}"


@dataclass(frozen=True, slots=True)
class Use:
    """Step 3: spend a die for its colour's action."""

    die: int
    label: str

    def __str__(self) -> str:
        return f"use {self.label}"


@dataclass(frozen=True, slots=True)
class Mark:
    """Choose one more die to re-roll."""

    die: int
    label: str

    def __str__(self) -> str:
        return f"reroll {self.label}"


@dataclass(frozen=True, slots=True)
class Roll:
    """Roll the dice chosen for a re-roll."""

    def __str__(self) -> str:
        return "roll"


@dataclass(frozen=True, slots=True)
class Pick:
    """Quartermaster: the die to set."""

    die: int
    label: str

    def __str__(self) -> str:
        return f"set {self.label}"


@dataclass(frozen=True, slots=True)
class Face:
    """Quartermaster: the face to set it to."""

    face: int

    def __str__(self) -> str:
        return f"to {self.face}"


@dataclass(frozen=True, slots=True)
class Cycle:
    """Cartographer: send a face-up market card to the bottom of its deck."""

    card: str

    def __str__(self) -> str:
        return f"cycle {self.card}"


@dataclass(frozen=True, slots=True)
class Buy:
    """Step 4: buy a market card (then pay its icons die by die)."""

    card: str

    def __str__(self) -> str:
        return f"buy {self.card}"


@dataclass(frozen=True, slots=True)
class Pay:
    """Assign a die to the next icon of the card being bought."""

    die: int
    label: str

    def __str__(self) -> str:
        return f"pay {self.label}"


@dataclass(frozen=True, slots=True)
class Advance:
    """Step 5: complete the next task of a quest (``with`` names the die a die task uses)."""

    quest: str
    label: str = ""
    die: int = -1

    def __str__(self) -> str:
        return f"advance {self.quest} with {self.label}" if self.label else f"advance {self.quest}"


@dataclass(frozen=True, slots=True)
class Next:
    """Leave the current step for the next one that has something to do."""

    def __str__(self) -> str:
        return "next step"


@dataclass(frozen=True, slots=True)
class Stop:
    """Stop taking actions: go straight to Step 6."""

    def __str__(self) -> str:
        return "stop"


@dataclass(frozen=True, slots=True)
class Extra:
    """Step 6: pay gold to remove one more marker."""

    quest: str

    def __str__(self) -> str:
        return f"pay to remove marker from {self.quest}"


@dataclass(frozen=True, slots=True)
class End:
    """Step 6: end the segment without the paid removal."""

    def __str__(self) -> str:
        return "end segment"


@dataclass(frozen=True, slots=True)
class Return:
    """Carry-over cap: put a die back in the bag."""

    die: int
    label: str

    def __str__(self) -> str:
        return f"return {self.label}"


ROLL: Final = Roll()
NEXT: Final = Next()
STOP: Final = Stop()
END: Final = End()


# -- the ready-made actions of a data file -------------------------------------------------
MAX_PLAYERS: Final = 5
"""The most seats a game has (the declaration's ``max_players``): the ready-made sabotage
targets and the observation's seat blocks are made for this many."""


@dataclass(frozen=True, slots=True)
class Tables:
    """Ready-made actions of one data file, by die code or card id."""

    use: dict[int, Use]
    mark: dict[int, Mark]
    pick: dict[int, Pick]
    pay: dict[int, Pay]
    returns: dict[int, Return]
    play: dict[tuple[int, int], Play]  # (re-reveal, card)
    activate: dict[int, Activate]
    buy: dict[int, Buy]
    advance: dict[int, Advance]  # a quest's task without a die
    advance_die: dict[tuple[int, int], Advance]  # (quest, die code)
    remove: dict[int, Remove]
    extra: dict[int, Extra]
    target: dict[tuple[int, int], Target]  # (seat, quest)
    patterns: tuple[Pattern, ...]  # each card's cost, by card id


_CACHE: dict[int, tuple[HWData, Tables]] = {}


def tables(data: HWData) -> Tables:
    """The tables of ``data`` (built on first use; kept with ``data`` so the key stays
    unique)."""
    hit = _CACHE.get(id(data))
    if hit is not None and hit[0] is data:
        return hit[1]
    label = data.label
    codes = data.codes
    cards = data.cards
    trick_cards = data.trick_cards
    quests = [c for c in cards if c.kind == "quest"]
    ready = Tables(
        use={d: Use(d, label[d]) for d in codes},
        mark={d: Mark(d, label[d]) for d in codes},
        pick={d: Pick(d, label[d]) for d in codes},
        pay={d: Pay(d, label[d]) for d in codes},
        returns={d: Return(d, label[d]) for d in codes},
        play={(r, v): Play(v, r) for r in range(len(trick_cards)) for v in trick_cards},
        activate={c.id: Activate(c.key) for c in cards},
        buy={c.id: Buy(c.key) for c in cards},
        advance={c.id: Advance(c.key) for c in quests},
        advance_die={(c.id, d): Advance(c.key, label[d], d) for c in quests for d in codes},
        remove={c.id: Remove(c.key) for c in quests},
        extra={c.id: Extra(c.key) for c in quests},
        target={(o, c.id): Target(o, c.key) for o in range(MAX_PLAYERS) for c in quests},
        patterns=tuple(pattern(c.match_order, codes) for c in cards),
    )
    _CACHE[id(data)] = (data, ready)
    return ready


# -- the action universe -------------------------------------------------------------------
def _data(options: Options) -> HWData:
    return get(str(getattr(options, "data_file", "")))


def universe(players: int, options: Options) -> list[Hashable]:
    """Every action key, in a fixed order (SPEC.md, "Action space"): an action's text
    (``str(action)``, unique among all the actions a configuration can offer), except a
    crate pick, keyed by ``("take", crate)``. Texts hash once (a string keeps its hash),
    where a frozen dataclass's hash is a Python call per look-up; the rules' ready-made
    actions (``tables``) find their text by identity (``action_key``)."""
    data = _data(options)
    ready = tables(data)
    codes = list(data.codes)
    crew = [c.id for c in data.cards if c.kind != "quest"]
    quests = [c.id for c in data.cards if c.kind == "quest"]
    cards = [c.key for c in data.cards]
    rounds = 1 + min(int(getattr(options, "tie_rereveals", 0)), len(data.trick_cards) - 1)
    acts: list[Any] = [ready.play[r, v] for r in range(rounds) for v in data.trick_cards]
    takes = len(acts)
    acts += [ready.activate[c] for c in crew]
    acts += [ready.use[d] for d in codes]
    acts += [ready.mark[d] for d in codes]
    acts.append(ROLL)
    acts += [ready.pick[d] for d in codes]
    acts += [Face(f) for f in range(1, data.faces + 1)]
    acts += [Cycle(k) for k in cards]
    acts += [ready.buy[c.id] for c in data.cards]
    acts += [ready.pay[d] for d in codes]
    for q in quests:
        acts.append(ready.advance[q])
        acts += [ready.advance_die[q, d] for d in codes]
    acts += [ready.target[o, q] for o in range(players) for q in quests]
    acts += [ready.remove[q] for q in quests]
    acts += [ready.extra[q] for q in quests]
    acts += [ready.returns[d] for d in codes]
    acts += [NEXT, STOP, END]
    # every other ready-made action too (a play of a later re-reveal, a sabotage target
    # of a seat past ``players``): a key found by identity is only ever its own text
    texts = _TEXTS
    table: Mapping[Any, object]  # (each table holds actions of one kind)
    for table in (ready.play, ready.activate, ready.use, ready.mark, ready.pick, ready.buy,
                  ready.pay, ready.advance, ready.advance_die, ready.target, ready.remove,
                  ready.extra, ready.returns):
        for made in table.values():
            texts[id(made)] = (made, str(made))
    for action in acts:
        texts[id(action)] = (action, str(action))
    out: list[Hashable] = [str(a) for a in acts[:takes]]
    out += [("take", i) for i in range(players)]
    out += [str(a) for a in acts[takes:]]
    return out


_TEXTS: dict[int, tuple[Any, str]] = {}
"""id(action) -> (action, its text) for the ready-made actions (they live as long as their
tables) and the universe's own values; the action is kept, so its id is never reused."""


def action_key(action: Any) -> Hashable:
    """``action``'s key in the universe: its text, found by identity for a ready-made
    action (no hash of its fields), or ``("take", crate)`` for a crate pick."""
    hit = _TEXTS.get(id(action))
    if hit is not None and hit[0] is action:
        return hit[1]
    if type(action) is Take:
        return ("take", action.crate)
    if type(action) in _KINDS:
        return str(action)
    return (action,)  # not a High Water action: no key is a 1-tuple, so it is refused


_KINDS: Final = frozenset((Play, Take, Target, Remove, Activate, Use, Mark, Roll, Pick, Face, Cycle,
                    Buy, Pay, Advance, Next, Stop, Extra, End, Return))
"""High Water's action classes."""


pickle_records(globals())  # records pickle as calls with their fields (docs/BUILD.md)
