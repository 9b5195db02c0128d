"""Why an action text is illegal, in the rules' words ("r3 does not match icon R 4+ of
Storm the Fort", ...): ``State.explain_illegal``.

Only used when an action text is rejected; the state is never changed here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cove.games.high_water.patterns import can_pay
from cove.games.high_water.rules import (
    CREW_ROW,
    PICK,
    QUEST_ROW,
    SEG,
    SHORT,
    STEP_NAMES,
    TRICK,
    Paying,
)

if TYPE_CHECKING:
    from cove.games.high_water.state import HighWaterState


def why_illegal(state: HighWaterState, p: int, text: str) -> str:
    """Why ``text`` is not legal for ``p`` now, or "" when there is no better reason than
    the engine's own."""
    words = " ".join(text.lower().split())
    verb, _, arg = words.partition(" ")
    data = state.data
    phase = state.phase
    if phase == TRICK:
        if verb == "play":
            if arg.isdigit() and int(arg) in state.hands[p]:
                return (f"P{p + 1} revealed {arg} earlier in this trick: a re-reveal needs a "
                        "new card (F5; choices: " + ", ".join(map(str, state.trick_choices(p)))
                        + ")")
            return f"P{p + 1} has no trick card {arg} in hand (hand: " + ", ".join(
                map(str, sorted(state.hands[p]))) + ")"
        return "it is the trick: choose a card with 'play <n>'"
    if phase == PICK:
        return "it is the crate pick: choose a crate with 'take crate <n> (...)'"
    if phase == SHORT:
        return ("the bag is short for the next round: return a die of your hold with "
                "'return <die>'")
    if phase != SEG:
        return ""
    by_label = {data.label[d]: d for d in data.codes}
    hold = state.dice[p]
    pending = state.pending
    if pending is not None and pending.kind == "pay":
        paying: Paying = pending.data
        card = data.cards[paying.card]
        chosen = paying.chosen
        icon = card.cost[len(chosen)]
        if verb != "pay":
            return (f"P{p + 1} is paying for {card.name}: pay icon {icon.text} with "
                    "'pay <die>'")
        d = by_label.get(arg)
        free = [x for i, x in enumerate(hold) if i not in chosen]
        if d is None or d not in free:
            return f"P{p + 1} has no unspent die {arg!r} to pay with (dice: " + (
                " ".join(data.label[x] for x in free) or "none") + ")"
        if d not in icon.accepts:
            return f"{arg} does not match icon {icon.text} of {card.name}"
        return (f"paying {arg} for {icon.text} would leave no dice for the remaining icons "
                + ", ".join(i.text for i in card.cost[len(chosen) + 1:]))
    if pending is not None:
        return "finish the current choice first"
    step = state.step
    if verb == "buy":
        names = {data.cards[c].key: (CREW_ROW, c) for c in state.crew_row if c >= 0}
        names.update({data.cards[c].key: (QUEST_ROW, c) for c in state.quest_row if c >= 0})
        if arg not in names:
            return f"no card named {arg!r} is face up in the market"
        row, cid = names[arg]
        card = data.cards[cid]
        if not can_pay(card.cost, hold):
            return (f"the dice in P{p + 1}'s hold (" + (" ".join(data.label[x] for x in hold)
                                                      or "none")
                    + f") cannot match {card.name}'s pattern " + ", ".join(
                        i.text for i in card.cost))
        if row == QUEST_ROW and len(state.quests[p]) >= state.options.max_quests:
            return f"P{p + 1} already has {state.options.max_quests} active quests"
        if step != 4:
            return f"buying is Step 4 and P{p + 1} is in Step {step} (steps run in order)"
        return ""
    if verb == "use":
        if step > 3:
            return f"dice actions are Step 3 and P{p + 1} is in Step {step} (steps run in order)"
        d = by_label.get(arg)
        if d is None or d not in hold:
            return f"P{p + 1} has no die {arg!r} in the hold (a spent die is back in the bag)"
        return f"the {data.colours[d // 10].name} action has nothing to act on now"
    if verb == "activate":
        crew_card = next((data.cards[c] for c in state.crew[p] if data.cards[c].key == arg),
                         None)
        if crew_card is None:
            return f"P{p + 1} has no crew card {arg!r}"
        if crew_card.kind != "active":
            return f"{crew_card.name} is passive: it triggers on its own in Step 1"
        if step > 2:
            return f"active abilities are Step 2 and P{p + 1} is in Step {step}"
        if state.gold[p] < crew_card.pay_gold or state.rum[p] < crew_card.pay_rum:
            return f"P{p + 1} cannot afford {crew_card.name} ({crew_card.text})"
        return f"{crew_card.name} is used up this turn or has nothing to act on"
    if verb == "advance":
        name = arg.split(" with ")[0]
        quest = next((held for held in state.quests[p]
                      if data.cards[held.card].key == name), None)
        if quest is None:
            return f"P{p + 1} has no active quest {name!r}"
        task = data.cards[quest.card].tasks[quest.done]
        if quest.markers:
            return (f"{data.cards[quest.card].name} carries a sabotage marker: no task can "
                    "be done")
        if step != 5:
            return f"quests advance in Step 5 and P{p + 1} is in Step {step}"
        if task.flag >= 0:
            return f"task '{task.text}' needs {data.flags[task.flag].replace('_', ' ')} this turn"
        return f"P{p + 1} cannot pay task '{task.text}'"
    return f"P{p + 1} is in Step {step} ({STEP_NAMES.get(step, '')})"
