"""The log's words: the set-up lines, each decision's private line and each step's
public lines (R3.8), and the phrases the prompts share.

The lines that tell of the flow (the cards revealed, bonus cards taken, a round scored,
the end) are written by the steps that carry it out (``rules.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cove.games.trails_of_tucana.actions import Bonus, Draw
from cove.games.trails_of_tucana.data import ANY, CARD_NAMES, TABLES
from cove.games.trails_of_tucana.view import connected_since

if TYPE_CHECKING:
    from cove.games.trails_of_tucana.state import TucanaState


def log_setup(state: TucanaState, seq: str) -> None:
    """The public set-up lines: the island, the set-up card, the red cards."""
    o = state.opts
    isl = state.isl
    n = state.n
    state.say(
        f"{isl.name}, {n} player{'s' if n > 1 else ''}. Set-up card "
        f"{state.setup_card + 1}: {' '.join(seq)}; the Mayor (P1) starts at village "
        f"{state.start + 1}, letters go "
        f"{'counter-clockwise' if state.direction < 0 else 'clockwise'}"
        + (", every player in the same villages" if o.symmetry else "")
        + ".",
        kind="setup",
        data={"map": isl.key, "setup_card": state.setup_card + 1,
              "start_village": state.start + 1, "clockwise": state.direction > 0,
              "symmetry": o.symmetry},
    )
    if state.red:
        state.say("Red bonus cards: " + ", ".join(
            f"{TABLES.sight_names[k]}-{TABLES.sight_names[k]} ({TABLES.red[k]})"
            for k in state.red), kind="setup",
            data={"red": [TABLES.sight_names[k] for k in state.red]})


def log_step(state: TucanaState, k: int) -> None:
    """The public lines of step ``k``, one per seat that decided in it, for everyone but
    that seat, whose own line (``summary``) told it when it chose."""
    for p in range(state.n):
        if state.snap[p] is not None:
            drew, gains, earned = outcome(state, p, k)
            state.say(step_text(state, p, k), to=state.everyone_but(p), kind="draw",
                      data={"player": p, "drew": drew, "connected": gains,
                            "earned": earned, "bonus_step": k})


def outcome(state: TucanaState, p: int, k: int) -> tuple[str, list[str], int]:
    """Seat ``p``'s decision in step ``k``: what it drew (``j8-k9``, ``bonus i1-k1``,
    ``nothing``, or ``no bonus segment`` when declined), what it connected and how
    many bonus segments it earned."""
    snap = state.snap[p]
    assert snap is not None
    a = state.moves[p][-1].declared()
    gains = connected_since(state, p, snap[1], snap[3])
    if not isinstance(a, Draw | Bonus):  # a pass
        free = k and state.drawn[p] != (1 << len(state.isl.edges)) - 1
        return ("no bonus segment" if free else "nothing"), gains, 0
    used = 1 if isinstance(a, Bonus) else 0
    earned = state.bonus[p] - snap[5] + used
    return (f"bonus {a.ends}" if used else a.ends), gains, earned


def summary(state: TucanaState, p: int, k: int) -> str:
    """Seat ``p``'s own account of its decision in step ``k`` (the private log line)."""
    drew, gains, earned = outcome(state, p, k)
    if drew == "no bonus segment":
        snap = state.snap[p]
        assert snap is not None
        text = f"decline {bonus_segments(snap[5])}"
    else:
        text = "draw " + drew + (" (no free segment fits)" if drew == "nothing" else "")
    if gains:
        text += "; connected: " + ", ".join(gains)
    if earned:
        text += f"; earned {bonus_segments(earned)}, drawn after the reveal"
    return text


def step_text(state: TucanaState, p: int, k: int) -> str:
    """The public line for seat ``p``'s decision in step ``k``, written when the step is
    revealed."""
    drew, gains, earned = outcome(state, p, k)
    if drew == "no bonus segment":
        snap = state.snap[p]
        assert snap is not None
        return f"P{p + 1} declines {bonus_segments(snap[5])}."
    text = f"P{p + 1} draws {drew}"
    if gains:
        text += "; connects " + ", ".join(gains)
    if earned:
        text += f"; earns {bonus_segments(earned)}"
    return text + "."


def terrain_phrase(c1: str, c2: str) -> str:
    """``a desert space and a water space``; ``two desert spaces``; ``any two adjacent
    spaces`` for two wild cards."""
    wild = CARD_NAMES[ANY]
    if c1 == c2 == wild:
        return "any two adjacent spaces"
    if c1 == c2:
        return f"two {c1} spaces"
    if wild in (c1, c2):
        other = c2 if c1 == wild else c1
        return f"a{'n' if other[0] in 'aeiou' else ''} {other} space and any space"
    return (f"a{'n' if c1[0] in 'aeiou' else ''} {c1} space and "
            f"a{'n' if c2[0] in 'aeiou' else ''} {c2} space")


def bonus_segments(k: int) -> str:
    return f"{k} bonus segment" + ("s" if k > 1 else "")


def who(players: list[int]) -> str:
    return " and ".join(f"P{p + 1}" for p in players)
