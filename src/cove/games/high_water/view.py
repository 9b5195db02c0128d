"""What a player may see, built by whitelisting (G24: everything is public except a
pending secret trick card of another player, the deck orders and the bag's draw order),
and a seat's score in parts read from that view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from cove.games.high_water.data import Card
from cove.games.high_water.rules import PHASE_NAMES, SEG, SHORT, STEP_NAMES, TRICK, has_flag

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


def build_view(state: HighWaterState, player: int | None) -> dict[str, Any]:
    """What ``player`` sees (None: a spectator): everything but the others' secret card."""
    data = state.data
    label = data.label
    seats = []
    phase = state.phase
    segment_player = state.segment_player()
    waiting = state.waiting
    for p in range(state.n):
        used = set(state.used_crew) if segment_player == p else set()
        seats.append({
            "hand": sorted(state.hands[p]),
            "played": list(state.played[p]),
            "dice": [label[d] for d in state.dice[p]],
            "gold": state.gold[p],
            "rum": state.rum[p],
            "crew": [dict(card_info(data.cards[c]), used=i in used)
                     for i, c in enumerate(state.crew[p])],
            "quests": [dict(card_info(data.cards[quest.card]), done=quest.done,
                            markers=quest.markers)
                       for quest in state.quests[p]],
            "completed": [{"name": data.cards[c].name, "influence": data.cards[c].influence}
                          for c in state.completed[p]],
            "influence": state.influence[p],
            "committed": phase == TRICK and state.committed[p] >= 0,
        })
    v: dict[str, Any] = {
        "round": state.round,
        "max_rounds": state.options.max_rounds,
        "goal": state.options.goal,
        "phase": PHASE_NAMES[phase],
        "water": "high" if state.high_water else "low",
        "bag": sum(state.bag),
        "crates": [None if c is None else [label[d] for d in c] for c in state.crates],
        "trick": {
            "revealed": [list(cards) for cards in state.revealed],
            "waiting": list(waiting),
            "rereveals": state.rereveals,
        },
        "order": list(state.pick_order),
        "won_trick": state.trick_winner,
        "last_crate": state.last_picker,
        "seats": seats,
        "market": {
            "crew": [card_info(data.cards[c]) if c >= 0 else None for c in state.crew_row],
            "quest": [card_info(data.cards[c]) if c >= 0 else None for c in state.quest_row],
            "crew_deck": len(state.crew_deck),
            "quest_deck": len(state.quest_deck),
            "crew_bottom": [data.cards[c].name
                            for c in state.crew_deck.cards[:state.crew_deck.known]],
            "quest_bottom": [data.cards[c].name
                             for c in state.quest_deck.cards[:state.quest_deck.known]],
        },
        "segment": None,
        "game_end": state.end_reason or None,
        "end_triggered": state.end_triggered,
    }
    if phase == SEG:
        flags = state.flags_now(segment_player)
        step = state.step
        v["segment"] = {
            "player": segment_player,
            "number": state.n - state.pick_order.index(segment_player),
            "step": step,
            "step_name": STEP_NAMES.get(step, ""),
            "pending": state.pending_text(),
            "flags": [name for i, name in enumerate(data.flags) if has_flag(flags, i)],
        }
    if phase == SHORT:
        v["bag_short"] = {"player": state.short_player(), "need": 3 * state.n}
    if player is not None and phase == TRICK:
        c = state.committed[player]
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


NO_QUEST: Final = ("no quest completed", 0.0)
"""The score in parts of a seat without a completed quest: nothing has scored yet."""


def end_reason(view: dict[str, Any]) -> str:
    """Why the game ended, in plain words, from the view's ``game_end``."""
    goal, why = view["goal"], view.get("game_end")
    if why == "goal":
        who = [f"P{p + 1}" for p, s in enumerate(view.get("scores") or []) if s >= goal]
        return (f"{' and '.join(who) or 'a player'} reached {goal} influence, so the round "
                "was played out for everyone to have the same turns")
    if why == "round cap":
        return (f"the safety limit of {view['max_rounds']} rounds was reached before anyone "
                f"had {goal} influence")
    if why == "quests exhausted":
        return "no quest was left to buy, and nobody had one to complete"
    return str(why or "")
