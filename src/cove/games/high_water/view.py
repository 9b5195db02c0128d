"""What a player may see, built by whitelisting (G24: everything is public except a
pending secret trick card of another player, the deck orders and the bag's draw order),
and a seat's score in parts read from that view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cove.games.high_water.data import Card
from cove.games.high_water.rules import PHASE_NAMES, SEG, SHORT, STEP_NAMES, TRICK

if TYPE_CHECKING:
    from cove.games.high_water.state import HighWaterState


def card_info(card: Card) -> dict[str, Any]:
    info: dict[str, Any] = {
        "name": card.name,
        "type": card.kind,
        "cost": ", ".join(i.text for i in card.cost),
        "text": card.text,
    }
    if card.kind == "quest":
        info["influence"] = card.influence
        info["tasks"] = [t.text for t in card.tasks]
    return info


def build_view(s: HighWaterState, player: int | None) -> dict[str, Any]:
    D = s.D
    lab = D.label
    seats = []
    phase = s.phase
    cur = s.cur()
    waiting = s.waiting
    for p in range(s.n):
        used = set(s.used) if cur == p else set()
        seats.append({
            "hand": sorted(s.hands[p]),
            "played": list(s.played[p]),
            "dice": [lab[d] for d in s.dice[p]],
            "gold": s.gold[p],
            "rum": s.rum[p],
            "crew": [dict(card_info(D.cards[c]), used=i in used)
                     for i, c in enumerate(s.crew[p])],
            "quests": [dict(card_info(D.cards[q[0]]), done=q[1], markers=q[2])
                       for q in s.quests[p]],
            "completed": [{"name": D.cards[c].name, "influence": D.cards[c].influence}
                          for c in s.done_q[p]],
            "influence": s.influence[p],
            "committed": phase == TRICK and s.commit[p] >= 0,
        })
    v: dict[str, Any] = {
        "round": s.rnd,
        "max_rounds": s.opts.max_rounds,
        "goal": s.opts.goal,
        "phase": PHASE_NAMES[phase],
        "water": "high" if s.high else "low",
        "bag": sum(s.bag),
        "crates": [None if c is None else [lab[d] for d in c] for c in s.crates],
        "trick": {
            "revealed": [list(k) for k in s.keys],
            "waiting": list(waiting),
            "rereveals": s.rereveals,
        },
        "order": list(s.order),
        "won_trick": s.won,
        "last_crate": s.last,
        "seats": seats,
        "market": {
            "crew": [card_info(D.cards[c]) if c >= 0 else None for c in s.crew_row],
            "quest": [card_info(D.cards[c]) if c >= 0 else None for c in s.quest_row],
            "crew_deck": len(s.crew_deck),
            "quest_deck": len(s.quest_deck),
            "crew_bottom": [D.cards[c].name for c in s.crew_deck.cards[:s.crew_deck.known]],
            "quest_bottom": [D.cards[c].name
                             for c in s.quest_deck.cards[:s.quest_deck.known]],
        },
        "segment": None,
        "game_end": s.end_reason or None,
        "end_triggered": s.triggered,
    }
    if phase == SEG:
        f = s.flags_now(cur)
        step = s.step
        v["segment"] = {
            "player": cur,
            "number": s.n - s.order.index(cur),
            "step": step,
            "step_name": STEP_NAMES.get(step, ""),
            "pending": s.pending_text(),
            "flags": [name for i, name in enumerate(D.flags) if f >> i & 1],
        }
    if phase == SHORT:
        v["bag_short"] = {"player": s.short_player(), "need": 3 * s.n}
    if player is not None and phase == TRICK:
        c = s.commit[player]
        v["my_commit"] = {"player": player, "card": c} if c >= 0 else None
    return v


def score_parts(view: dict[str, Any], p: int) -> list[tuple[str, float]]:
    """Seat ``p``'s influence in parts: each completed quest's influence, by the quest's
    name (R16: influence is the sum of influence on completed quests; crew cards and
    unfinished quests carry none). A quest counts from the moment it is completed, while
    the score is recalculated after the seat's segment (R16), so the parts can run ahead
    of it during that segment; once the game is over every segment has ended and they
    add up to it. A seat that has completed no quest has the one part "no quest
    completed", 0."""
    seats = view.get("seats") or []
    done = (seats[p].get("completed") or []) if 0 <= p < len(seats) else []
    return [(str(q["name"]), float(q["influence"])) for q in done] or [NO_QUEST]


NO_QUEST = ("no quest completed", 0.0)
"""The score in parts of a seat without a completed quest: nothing has scored yet."""
