"""The log's words: the set-up lines, each decision's private line and each step's
public lines (R3.8), and the phrases the prompts share.

The lines that tell of the flow (the cards revealed, bonus cards taken, a round scored,
the end) are written by the steps that carry it out (``rules.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cove.games.trails_of_tucana.actions import Bonus, Draw
from cove.games.trails_of_tucana.data import ANY, CARD_NAMES, TABLES
from cove.games.trails_of_tucana.sheets import drawn_on
from cove.games.trails_of_tucana.view import connected_since

if TYPE_CHECKING:
    from cove.games.trails_of_tucana.state import TucanaState


def log_setup(state: TucanaState, card: str) -> None:
    """The public set-up lines: the island, the set-up card, the red cards."""
    symmetry = state.options.symmetry
    island = state.island
    n = state.n
    state.say(
        f"{island.name}, {n} player{'s' if n > 1 else ''}. Set-up card "
        f"{state.setup_card + 1}: {' '.join(card)}; the Mayor (P1) starts at village "
        f"{state.start_village + 1}, letters go "
        f"{'counter-clockwise' if state.direction < 0 else 'clockwise'}"
        + (", every player in the same villages" if symmetry else "")
        + ".",
        kind="setup",
        data={"map": island.key, "setup_card": state.setup_card + 1,
              "start_village": state.start_village + 1, "clockwise": state.direction > 0,
              "symmetry": symmetry},
    )
    if state.red_cards:
        names = [TABLES.sight_names[kind] for kind in state.red_cards]
        state.say("Red bonus cards: " + ", ".join(
            f"{name}-{name} ({TABLES.red[kind]})"
            for name, kind in zip(names, state.red_cards, strict=True)), kind="setup",
            data={"red": names})


def log_step(state: TucanaState, bonus_step: int) -> None:
    """The public lines of step ``bonus_step`` of the turn, one per seat that decided in
    it, for everyone but that seat, whose own line (``summary``) told it when it chose."""
    for p in range(state.n):
        if state.snapshots[p] is not None:
            drew, gains, earned = outcome(state, p, bonus_step)
            state.say(step_text(state, p, bonus_step), to=state.everyone_but(p), kind="draw",
                      data={"player": p, "drew": drew, "connected": gains,
                            "earned": earned, "bonus_step": bonus_step})


def outcome(state: TucanaState, p: int, bonus_step: int) -> tuple[str, list[str], int]:
    """Seat ``p``'s decision in step ``bonus_step`` of the turn: what it drew (``j8-k9``,
    ``bonus i1-k1``, ``nothing``, or ``no bonus segment`` when declined), what it
    connected and how many bonus segments it earned."""
    before = state.snapshots[p]
    assert before is not None
    action = state.moves[p][-1].declared()
    gains = connected_since(state, p, before.circled, before.pairs)
    if not isinstance(action, Draw | Bonus):  # a pass
        free = bonus_step and 0 in drawn_on(state, p)
        return ("no bonus segment" if free else "nothing"), gains, 0
    used = 1 if isinstance(action, Bonus) else 0
    earned = state.bonus_owed[p] - before.bonus_owed + used
    return (f"bonus {action.ends}" if used else action.ends), gains, earned


def summary(state: TucanaState, p: int, bonus_step: int) -> str:
    """Seat ``p``'s own account of its decision in step ``bonus_step`` of the turn (the
    private log line)."""
    drew, gains, earned = outcome(state, p, bonus_step)
    if drew == "no bonus segment":
        before = state.snapshots[p]
        assert before is not None
        text = f"decline {bonus_segments(before.bonus_owed)}"
    else:
        text = "draw " + drew + (" (no free segment fits)" if drew == "nothing" else "")
    if gains:
        text += "; connected: " + ", ".join(gains)
    if earned:
        text += f"; earned {bonus_segments(earned)}, drawn after the reveal"
    return text


def step_text(state: TucanaState, p: int, bonus_step: int) -> str:
    """The public line for seat ``p``'s decision in step ``bonus_step`` of the turn,
    written when the step is revealed."""
    drew, gains, earned = outcome(state, p, bonus_step)
    if drew == "no bonus segment":
        before = state.snapshots[p]
        assert before is not None
        return f"P{p + 1} declines {bonus_segments(before.bonus_owed)}."
    text = f"P{p + 1} draws {drew}"
    if gains:
        text += "; connects " + ", ".join(gains)
    if earned:
        text += f"; earns {bonus_segments(earned)}"
    return text + "."


def terrain_phrase(first: str, second: str) -> str:
    """``a desert space and a water space``; ``two desert spaces``; ``any two adjacent
    spaces`` for two wild cards."""
    wild = CARD_NAMES[ANY]
    if first == second == wild:
        return "any two adjacent spaces"
    if first == second:
        return f"two {first} spaces"
    if wild in (first, second):
        other = second if first == wild else first
        return f"a{'n' if other[0] in 'aeiou' else ''} {other} space and any space"
    return (f"a{'n' if first[0] in 'aeiou' else ''} {first} space and "
            f"a{'n' if second[0] in 'aeiou' else ''} {second} space")


def bonus_segments(count: int) -> str:
    return f"{count} bonus segment" + ("s" if count > 1 else "")


def who(players: list[int]) -> str:
    return " and ".join(f"P{p + 1}" for p in players)
