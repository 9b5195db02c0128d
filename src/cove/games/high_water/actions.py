"""High Water's actions: small frozen values whose str() is the stable text form.

Dice appear by label ("y3": a yellow die showing 3). Two dice with the same label are
interchangeable, so an action names a label and the state uses any die that matches it.
Cards appear by their lower-case name (names are unique in the data file).
"""

from __future__ import annotations

from dataclasses import dataclass


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


ROLL = Roll()
NEXT = Next()
STOP = Stop()
END = End()
