"""Actions: one small frozen value per decision; ``str(a)`` is its stable text form.

Every action is an :class:`Act` whose ``kind`` says which decision it answers and whose
``a``/``b``/``c`` say how; the text is built once when the legal list is made. The text is
part of equality: the same numbers can mean a different thing in another state (``a`` is a
position in the crew line, a target index, a sail direction), so an action kept from an
earlier state whose text no longer matches is not legal now, and the record never stores
a text the move did not have.
"""

from __future__ import annotations

from dataclasses import dataclass

# Action kinds.
(
    A_NAVY_SETUP, A_COVE, A_SIDE, A_WHEEL, A_PAY, A_ASSIGN, A_SAIL, A_TOKEN, A_STOP,
    A_JOSTLE, A_DO, A_SKIP, A_KEEP, A_REFRESH, A_MUTINY, A_TAKE, A_DONE, A_SUREFIRE,
    A_REROLL, A_FIRE, A_DIST, A_BONUS, A_PORT, A_NAVY, A_LOSE, A_MOVE,
) = range(26)


@dataclass(frozen=True, slots=True)
class Act:
    kind: int
    a: int = 0
    b: int = 0
    c: int = 0
    text: str = ""

    def __str__(self) -> str:
        return self.text
