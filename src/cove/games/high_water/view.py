"""What a player may see, built by whitelisting (G24: everything is public except a
pending secret trick card of another player, the deck orders and the bag's draw order).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cove.games.high_water.common import (
    P_CAP,
    P_CYCLE,
    P_EXTRA,
    P_FREE,
    P_MARK,
    P_PAY,
    P_REM,
    P_SAB,
    P_SETDIE,
    P_SETFACE,
    PHASE_NAMES,
    PICK,
    SEG,
    SHORT,
    STEP_NAMES,
    TRICK,
)
from cove.games.high_water.data import Card

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


def _pending_text(s: HighWaterState) -> str:
    pend = s.pending
    if pend is None:
        return ""
    k = pend[0]
    D = s.D
    if k == P_SAB:
        return f"choose a quest to sabotage ({pend[2]})"
    if k == P_REM:
        return f"choose a quest to clear a marker from ({pend[1]})"
    if k == P_FREE:
        return "free removal: choose a quest to clear a marker from"
    if k == P_EXTRA:
        return f"pay {D.extra_removal_gold} gold to remove one more marker, or end the segment"
    if k == P_CAP:
        return f"return dice to the bag down to {s.options.carry_cap}"
    if k == P_MARK:
        marked = " ".join(D.label[s.dice[s.cur()][i]] for i in pend[3])
        most = "any number" if not pend[2] else f"up to {pend[2]}"
        return f"choose dice to re-roll ({pend[4]}, {most}); chosen: {marked or '-'}"
    if k == P_SETDIE:
        return "Quartermaster: choose a die to set"
    if k == P_SETFACE:
        return f"Quartermaster: choose the new face of {D.label[s.dice[s.cur()][pend[1]]]}"
    if k == P_CYCLE:
        return "Cartographer: choose a market card to put under its deck"
    if k == P_PAY:
        card = D.cards[pend[3]]
        chosen = pend[4]
        paid = " ".join(D.label[s.dice[s.cur()][i]] for i in chosen)
        return (f"paying for {card.name}: icon {len(chosen) + 1} of {len(card.cost)} "
                f"({card.cost[len(chosen)].text}); paid so far: {paid or '-'}")
    return ""


_STEP_PROMPTS = {
    2: "activate an active crew ability you can pay for",
    3: "spend a die from your hold for its colour's action",
    4: "buy a market card by matching its dice pattern",
    5: "complete the next task of one of your quests",
}


def ask(s: HighWaterState, player: int | None) -> dict[str, Any]:
    """The decision in one sentence (``player=None``: the same, said publicly). Only the
    trick is secret, so only its public form differs."""
    n = s.n
    if s.phase == TRICK:
        re = s.rereveals
        coin = ("high water: the highest card wins" if s.high
                else "low water: the lowest card wins")
        if player is None:
            what = "a new trick card" if re else "a trick card"
            return {"kind": "trick", "prompt": f"choose {what} in secret ({coin})"}
        if re:
            return {"kind": "trick", "rereveal": re, "choices": s.trick_choices(player),
                    "prompt": (f"Tie: choose a new trick card in secret, one you have not "
                               f"revealed in this trick ({coin})")}
        return {"kind": "trick", "rereveal": 0, "choices": s.trick_choices(player),
                "prompt": f"Choose a trick card in secret ({coin} and picks the first crate)"}
    if s.phase == PICK:
        k = s.pick_i + 1
        left = sum(c is not None for c in s.crates)
        return {"kind": "crate", "pick": k,
                "prompt": f"Take a crate: you pick {_nth(k)} of {n}, {left} crates are left"}
    if s.phase == SHORT:
        need, have = 3 * n, sum(s.bag)
        return {"kind": "bag_short", "need": need, "bag": have,
                "prompt": (f"Return a die to the bag: it holds {have} dice and the next round "
                           f"needs {need}, and you hold the most")}
    if s.phase != SEG:
        return {"kind": "over", "prompt": "The game is over."}
    if s.pending is not None:
        text = _pending_text(s)
        return {"kind": PENDING_KINDS[s.pending[0]], "step": s.step,
                "prompt": text[:1].upper() + text[1:]}
    step = s.step
    return {"kind": "step", "step": step,
            "prompt": (f"Step {step} ({STEP_NAMES[step]}): {_STEP_PROMPTS.get(step, 'act')}"
                       + (", go on to a later step, or stop" if step < 5 else ", or stop"))}


def _nth(k: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(k, f"#{k}")


PENDING_KINDS = {
    P_SAB: "sabotage", P_REM: "remove_marker", P_MARK: "reroll", P_SETDIE: "set_die",
    P_SETFACE: "set_face", P_CYCLE: "cycle", P_PAY: "pay", P_FREE: "free_removal",
    P_EXTRA: "paid_removal", P_CAP: "carry_cap",
}


def build_view(s: HighWaterState, player: int | None) -> dict[str, Any]:
    D = s.D
    lab = D.label
    seats = []
    for p in range(s.n):
        used = set(s.used) if s.phase == SEG and s.cur() == p else set()
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
            "committed": s.phase == TRICK and s.commit[p] >= 0,
        })
    v: dict[str, Any] = {
        "round": s.rnd,
        "max_rounds": s.options.max_rounds,
        "goal": s.options.goal,
        "phase": PHASE_NAMES[s.phase],
        "water": "high" if s.high else "low",
        "bag": sum(s.bag),
        "crates": [None if c is None else [lab[d] for d in c] for c in s.crates],
        "trick": {
            "revealed": [list(k) for k in s.keys],
            "waiting": list(s.waiting),
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
            "crew_bottom": [D.cards[c].name for c in s.crew_deck[:s.crew_known]],
            "quest_bottom": [D.cards[c].name for c in s.quest_deck[:s.quest_known]],
        },
        "segment": None,
        "game_end": s.end_reason or None,
        "end_triggered": s.triggered,
    }
    if s.phase == SEG:
        p = s.cur()
        f = s.flags_now(p)
        v["segment"] = {
            "player": p,
            "number": s.seg_i + 1,
            "step": s.step,
            "step_name": STEP_NAMES.get(s.step, ""),
            "pending": _pending_text(s),
            "flags": [name for i, name in enumerate(D.flags) if f >> i & 1],
        }
    if s.phase == SHORT:
        v["bag_short"] = {"player": s.short_player(), "need": 3 * s.n}
    if player is not None and s.phase == TRICK:
        c = s.commit[player]
        v["my_commit"] = {"player": player, "card": c} if c >= 0 else None
    return v
