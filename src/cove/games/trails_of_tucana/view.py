"""What each seat sees (SPEC.md, View), and the score in parts.

``seat_view`` is ``TucanaState._view`` itself: every sheet, the others' as they were at
the start of the step until every mover of the step is done (R3.8), built by
whitelisting. ``score_parts`` reads a seat's score in parts from a view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cove.core.bits import has, members, minus
from cove.games.trails_of_tucana.data import (
    CARD_NAMES,
    KINDS,
    LETTER_NAMES,
    LETTERS,
    TABLES,
    TURNS_PER_ROUND,
)
from cove.games.trails_of_tucana.sheets import drawn_edges, drawn_on

if TYPE_CHECKING:
    from cove.games.trails_of_tucana.state import TucanaState


def sheet(state: TucanaState, q: int, public: bool) -> dict[str, Any]:
    """Seat ``q``'s sheet as a view shows it: when ``public`` (any viewer but ``q``), as
    it was at the start of the step while ``q``'s decision in it is hidden (R3.8)."""
    island = state.island
    before = state.snapshots[q] if public else None
    if before is not None:
        drawn, circled, sight_counts = before.drawn, before.circled, before.sight_counts
        pairs, linked, owed = before.pairs, before.linked, before.bonus_owed
    else:
        drawn, circled = drawn_on(state, q), state.circled[q]
        sight_counts = state.sight_counts[q]
        pairs, linked, owed = state.pairs[q], state.linked[q], state.bonus_owed[q]
    rounds = island.rounds
    boxes = state.boxes[q * rounds : q * rounds + state.round]
    sights = state.sight_sum(q, sight_counts)
    pair_points = state.pair_sum(pairs)
    bonus = state.blue_points[q] + state.red_points[q]
    total = sum(boxes) + pair_points + bonus + (0 if state.over else sights)
    return {
        "player": q,  # makes each sheet distinct (the leak check searches for them)
        "letters": [LETTER_NAMES[x] for x in state.letters[q]],
        "segments": [island.ends[edge] for edge in drawn_edges(drawn)],
        "circled_sights": [island.labels[island.sight_space[sight]]
                           for sight in members(circled)],
        "sight_values": {
            TABLES.sight_names[kind]: list(island.sight_values[kind][: sight_counts[kind]])
            for kind in range(KINDS)
        },
        "sight_sum": sights,
        "boxes": list(boxes),
        "pairs": [LETTER_NAMES[letter] for letter in range(LETTERS) if has(pairs, letter)],
        "pair_points": pair_points,
        "blue_bonus": [f"{LETTER_NAMES[card.letter]}:{card.value}" for card in state.blue_won[q]],
        "bonus_points": bonus,
        "linked_red": ([TABLES.sight_names[kind] for kind in members(linked)]
                       if state.special_bonus else []),
        "bonus_owed": owed,
        "score": total,
    }


def seat_view(state: TucanaState, player: int | None) -> dict[str, Any]:
    """What ``player`` sees (None: a spectator); see SPEC.md, View."""
    island = state.island
    v: dict[str, Any] = {
        "map": island.key,
        "map_name": island.name,
        "round": min(state.round + 1, island.rounds),
        "rounds": island.rounds,
        "turn": state.turn + 1 if not state.over else TURNS_PER_ROUND,
        "turns_per_round": TURNS_PER_ROUND,
        "cards": None if state.revealed is None else [CARD_NAMES[c] for c in state.revealed],
        "deck": len(state.deck),
        "bonus_step": state.bonus_step,
        "setup_card": state.setup_card + 1,
        "start_village": state.start_village + 1,
        "clockwise": state.direction > 0,
        "blue": {LETTER_NAMES[letter]: list(state.blue_cards[letter])
                 for letter in range(LETTERS)},
        "red": [
            {"sight": TABLES.sight_names[kind], "value": TABLES.red[kind]}
            for kind in state.red_cards
        ],
        "red_taken": [
            {"sight": TABLES.sight_names[card.kind], "value": card.value,
             "by": list(card.winners)}
            for card in state.red_won
        ],
        "sheets": [sheet(state, q, q != player) for q in range(state.n)],
    }
    if not state.options.hide_earlier_cards:  # R3.1
        v["seen_this_round"] = [CARD_NAMES[c] for c in state.seen]
    if state.n == 1:
        v["solo"] = {
            "target": state.solo_target,
            "discarded_blue": [LETTER_NAMES[letter] for letter in state.solo_discarded],
        }
    if player is not None:
        v["bonus_segments"] = state.bonus_owed[player]
        v["this_turn"] = [str(a) for a in state.moves[player]]
        v["connected_this_turn"] = connected_since(state, player,
                                                   state.circled_at_turn_start[player],
                                                   state.pairs_at_turn_start[player])
    return v


def connected_since(state: TucanaState, p: int, circled: int, pairs: int) -> list[str]:
    """What seat ``p`` connected since its sheet had the circles ``circled`` and the pairs
    ``pairs``: each sight (``obelisk at j8``), then each village pair (``villages A-A
    (14)``)."""
    island = state.island
    out = []
    for sight in members(minus(state.circled[p], circled)):
        kind = TABLES.sight_names[island.sight_kind[sight]]
        out.append(f"{kind} at {island.labels[island.sight_space[sight]]}")
    for letter in members(minus(state.pairs[p], pairs)):
        name = LETTER_NAMES[letter]
        out.append(f"villages {name}-{name} ({island.pair_values[letter]})")
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


def end_reason(view: dict[str, Any]) -> str:
    """Why the game ended, in plain words: it always ends after its last round; alone,
    whether the player reached the solo target (R9.3)."""
    why = (f"the last round on {view['map_name']} (round {view['round']} of "
           f"{view['rounds']}) is over")
    solo = view.get("solo")
    if solo and view.get("scores"):
        target, score = solo["target"], view["scores"][0]
        why += (f"; P1 scored {score:g} and reached the solo target of {target}"
                if view.get("winners") else
                f"; P1 scored {score:g}, short of the solo target of {target}, so nobody wins")
    return why
