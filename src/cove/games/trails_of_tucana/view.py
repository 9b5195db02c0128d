"""What each seat sees (SPEC.md, View), and the score in parts.

``seat_view`` is ``TucanaState._view`` itself: every sheet, the others' as they were at
the start of the step until every mover of the step is done (R3.8), built by
whitelisting. ``score_parts`` reads a seat's score in parts from a view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cove.games.trails_of_tucana.data import (
    CARD_NAMES,
    KINDS,
    LETTER_NAMES,
    LETTERS,
    TABLES,
    TURNS_PER_ROUND,
)
from cove.games.trails_of_tucana.sheets import bits

if TYPE_CHECKING:
    from cove.games.trails_of_tucana.state import TucanaState


def sheet(state: TucanaState, q: int, public: bool) -> dict[str, Any]:
    """Seat ``q``'s sheet as a view shows it: when ``public`` (any viewer but ``q``), as
    it was at the start of the step while ``q``'s decision in it is hidden (R3.8)."""
    isl = state.isl
    snap = state.snap[q] if public else None
    if snap is not None:
        drawn, circled, kc, pairs, linked, owed = snap
    else:
        k = q * KINDS
        drawn, circled, kc, pairs, linked, owed = (
            state.drawn[q], state.circled[q], tuple(state.kcount[k : k + KINDS]),
            state.pairs[q], state.linked[q], state.bonus[q],
        )
    rounds = isl.rounds
    boxes = state.boxes[q * rounds : q * rounds + state.rnd]
    sights = state.sight_sum(q, kc)
    pair_pts = state.pair_sum(pairs)
    bonus = state.blue_pts[q] + state.red_pts[q]
    total = sum(boxes) + pair_pts + bonus + (0 if state.over else sights)
    return {
        "player": q,  # makes each sheet distinct (the leak check searches for them)
        "letters": [LETTER_NAMES[x] for x in state.letters[q]],
        "segments": [isl.ends[e] for e in bits(drawn)],
        "circled_sights": [isl.labels[isl.sight_space[s]] for s in bits(circled)],
        "sight_values": {
            TABLES.sight_names[k]: list(isl.sight_values[k][: kc[k]]) for k in range(KINDS)
        },
        "sight_sum": sights,
        "boxes": boxes,
        "pairs": [LETTER_NAMES[L] for L in range(LETTERS) if (pairs >> L) & 1],
        "pair_points": pair_pts,
        "blue_bonus": [f"{LETTER_NAMES[L]}:{v}" for L, v in state.blue_won[q]],
        "bonus_points": bonus,
        "linked_red": [TABLES.sight_names[k] for k in bits(linked)] if state.red_on else [],
        "bonus_owed": owed,
        "score": total,
    }


def seat_view(state: TucanaState, player: int | None) -> dict[str, Any]:
    """What ``player`` sees (None: a spectator); see SPEC.md, View."""
    isl = state.isl
    v: dict[str, Any] = {
        "map": isl.key,
        "map_name": isl.name,
        "round": min(state.rnd + 1, isl.rounds),
        "rounds": isl.rounds,
        "turn": state.turn + 1 if not state.over else TURNS_PER_ROUND,
        "turns_per_round": TURNS_PER_ROUND,
        "cards": None if state.cards is None else [CARD_NAMES[c] for c in state.cards],
        "deck": len(state.deck),
        "bonus_step": state.bstep,
        "setup_card": state.setup_card + 1,
        "start_village": state.start + 1,
        "clockwise": state.direction > 0,
        "blue": {LETTER_NAMES[L]: list(state.blue[L]) for L in range(LETTERS)},
        "red": [
            {"sight": TABLES.sight_names[k], "value": TABLES.red[k]} for k in state.red
        ],
        "red_taken": [
            {"sight": TABLES.sight_names[k], "value": val, "by": list(w)}
            for k, val, w in state.red_won
        ],
        "sheets": [sheet(state, q, q != player) for q in range(state.n)],
    }
    if not state.opts.hide_earlier_cards:  # R3.1
        v["seen_this_round"] = [CARD_NAMES[c] for c in state.seen]
    if state.n == 1:
        v["solo"] = {
            "target": TABLES.solo_target[isl.key],
            "discarded_blue": [LETTER_NAMES[L] for L in state.solo_dropped],
        }
    if player is not None:
        v["bonus_segments"] = state.bonus[player]
        v["this_turn"] = [str(a) for a in state.moves[player]]
        circled0, pairs0 = state.turn_start
        v["connected_this_turn"] = connected_since(state, player, circled0[player],
                                                   pairs0[player])
    return v


def connected_since(state: TucanaState, p: int, circled0: int, pairs0: int) -> list[str]:
    """What seat ``p`` connected since its sheet had the circles ``circled0`` and the pairs
    ``pairs0``: each sight (``obelisk at j8``), then each village pair (``villages A-A
    (14)``)."""
    isl = state.isl
    out = []
    new = state.circled[p] & ~circled0
    for s in bits(new):
        kind = TABLES.sight_names[isl.sight_kind[s]]
        out.append(f"{kind} at {isl.labels[isl.sight_space[s]]}")
    for L in bits(state.pairs[p] & ~pairs0):
        out.append(f"villages {LETTER_NAMES[L]}-{LETTER_NAMES[L]} ({isl.pair_values[L]})")
    return out


def score_parts(view: dict[str, Any], p: int) -> list[tuple[str, float]]:
    """Seat ``p``'s score in parts as ``view`` shows its sheet (R5-R8): each filled
    sight box, while the game runs the sights circled so far (the box being played, as
    if the round ended now, R8.3), the village pairs, the blue bonus cards and, with the
    Special Bonus variant, the red ones. They add up to the sheet's score, the final
    score once the game is over (R8.1)."""
    sheet = view["sheets"][p]
    parts = [(f"sights, box {'I' * (r + 1)}", float(points))
             for r, points in enumerate(sheet["boxes"])]
    if not view.get("over"):
        parts.append(("sights this round", float(sheet["sight_sum"])))
    parts.append(("village pairs", float(sheet["pair_points"])))
    blue = sum(int(card.rpartition(":")[2]) for card in sheet["blue_bonus"])  # "A:3"
    parts.append(("blue bonus cards", float(blue)))
    red_taken = view.get("red_taken", [])
    if view.get("red") or red_taken:
        red = sum(card["value"] for card in red_taken if p in card["by"])
        parts.append(("red bonus cards", float(red)))
    return parts
