"""High Water's decision steps: one rule per kind of step on the core's decision stack
(``STEPS``, in RULES.md order), and the phases and segment steps the view names.

A round on the stack (the top is decided first)::

    round (auto)            fill the crates, flip the coin (F1, F2)
    trick  -> reveal (auto) secret simultaneous cards; a tie pushes another trick (F3-F6)
    crate  x P              picks from the trick winner down; the last crate is forced (F7)
    segment (auto) x P      one per player in reverse pick order (F8), each pushing:
        passives (auto)     Step 1: passives that need a choice, one at a time (F10)
        step 2 .. step 5    Steps 2-5: act, "next step" or "stop" (F11-F14)
        free_removal, paid_removal, carry_cap                         Step 6 (F15)
        end_segment (auto)  influence (F16), the goal (F17)
    round_end (auto)        the end of the game (F17, R29), or a short bag (R23.2)
    bag_short               return dice until the bag can fill the crates

An effect that needs a choice (a sabotage target, dice to re-roll, the pile of a cycled card,
the dice paying for a card) pushes a sub-decision on top of the step it came from. A step
whose mover has a single choice is taken on its own (its rule logs what it does, as a
player's move would be logged); a step that offers nothing is passed over (an empty Step 2,
Step 6 with no marker, an effect left with nothing to act on). See
the rules' ``lapses`` and the core's ``State.settle``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cove.core.decisions import AUTO, Step, StepRule
from cove.games.high_water.actions import (
    END,
    NEXT,
    ROLL,
    STOP,
    Activate,
    Advance,
    Buy,
    Cycle,
    Extra,
    Face,
    Mark,
    Next,
    Roll,
    Stop,
    Take,
    Use,
)
from cove.games.high_water.data import USED_ACTIVE

if TYPE_CHECKING:
    from cove.games.high_water.state import HighWaterState

# phases (SHORT: between rounds, the bag holds fewer dice than Phase 1 draws, R23.2)
TRICK, PICK, SEG, OVER, SHORT = range(5)
PHASE_NAMES = ("trick", "crates", "segment", "over", "bag short")
STEP_NAMES = {
    1: "passive abilities",
    2: "active abilities",
    3: "dice actions",
    4: "buy cards",
    5: "advance quests",
    6: "remove sabotage",
}
CREW_ROW, QUEST_ROW = 0, 1
"""The market rows: crew cards and quests."""


class Rule(StepRule["HighWaterState"]):
    """A High Water step rule: the core's, plus where it sits in the round. A forced
    single choice is not announced with the generic "(the only choice)" event: every High
    Water action logs what it does, as a player's move would be logged."""

    log_forced = False

    phase = SEG
    """The phase the view names while this step is decided (see PHASE_NAMES)."""

    level: int | None = None
    """The segment step (1-6) this kind of step belongs to; None: a sub-decision, which
    belongs to the step below it on the stack; 0: not part of a segment."""

    def seg_step(self, step: Step) -> int | None:
        return self.level

    def public_prompt(self, state: HighWaterState, step: Step) -> str:
        """The decision as the other players and spectators are told it."""
        return self.prompt(state, step, step.players[0])


class Choice(Rule):
    """A sub-decision opened by an effect or a purchase: its prompt is ``text`` said as a
    sentence, and the view shows ``text`` as the segment's open choice."""

    def text(self, state: HighWaterState, step: Step) -> str:
        raise NotImplementedError

    def prompt(self, state: HighWaterState, step: Step, player: int) -> str:
        text = self.text(state, step)
        return text[:1].upper() + text[1:]

    def describe(self, state: HighWaterState, step: Step, player: int) -> dict[str, Any]:
        return {"step": state.step}


# -- the round (R1-R7) ---------------------------------------------------------------------
class RoundRule(Rule):
    """Automatic: Phases 1-2, then everyone chooses a trick card."""

    level: int | None = 0

    def run(self, state: HighWaterState, step: Step) -> None:
        s = state
        s.start_round()
        everyone = tuple(range(s.n))
        s.push(Step("trick", everyone, (everyone,)))


class TrickRule(Rule):
    """F3-F5: every player in ``data[0]`` commits a card in secret; ``players`` are those
    still to commit. The last commitment reveals them all."""

    phase = TRICK
    level: int | None = 0
    secret = True  # R3: hidden from the others until the reveal
    forced = False  # even a single card left is chosen by its owner (in secret)

    def legal(self, state: HighWaterState, step: Step, player: int) -> Sequence[Any]:
        s = state
        play, r = s.T.play, s.rereveals
        return [play[r, v] for v in s.trick_choices(player)]

    def apply(self, state: HighWaterState, step: Step, player: int, action: Any) -> None:
        s = state
        s.commit[player] = action.card
        if s.logging:
            s.say(f"P{player + 1} secretly commits {action.card}", to=player, kind="commit",
                  data={"player": player, "card": action.card})
        rest = tuple(q for q in step.players if q != player)
        s.push(Step("trick", rest, step.data) if rest else Step("reveal", AUTO, step.data))

    def _coin(self, state: HighWaterState) -> str:
        return ("high water: the highest card wins" if state.high
                else "low water: the lowest card wins")

    def prompt(self, state: HighWaterState, step: Step, player: int) -> str:
        if state.rereveals:
            return (f"Tie: choose a new trick card in secret, one you have not revealed in "
                    f"this trick ({self._coin(state)})")
        return f"Choose a trick card in secret ({self._coin(state)} and picks the first crate)"

    def public_prompt(self, state: HighWaterState, step: Step) -> str:
        what = "a new trick card" if state.rereveals else "a trick card"
        return f"choose {what} in secret ({self._coin(state)})"

    def describe(self, state: HighWaterState, step: Step, player: int) -> dict[str, Any]:
        s = state
        return {"rereveal": s.rereveals, "choices": s.trick_choices(player)}


class RevealRule(Rule):
    """Automatic: turn the cards up; re-reveal ties (F5) or fix the pick order."""

    level: int | None = 0

    def run(self, state: HighWaterState, step: Step) -> None:
        s = state
        live = s.reveal_trick(step.data[0])
        if live:
            s.push(Step("trick", live, (live,)))
        else:
            s.push(Step("crate", (s.order[0],)))


class CrateRule(Rule):
    """F7: take a crate, in pick order; the last one goes to the last picker on its own."""

    phase = PICK
    level: int | None = 0

    def legal(self, state: HighWaterState, step: Step, player: int) -> Sequence[Any]:
        s = state
        return [Take(i, " ".join(s.lab(d) for d in c))
                for i, c in enumerate(s.crates) if c is not None]

    def apply(self, state: HighWaterState, step: Step, player: int, action: Any) -> None:
        s = state
        s.take(player, action.crate)
        picked = sum(c is None for c in s.crates)
        if picked < s.n:
            s.push(Step("crate", (s.order[picked],)))
        else:  # F8: the action segments, last picker first, then the end of the round
            s.then(*(Step("segment", AUTO, (q,)) for q in reversed(s.order)),
                   Step("round_end"))

    def prompt(self, state: HighWaterState, step: Step, player: int) -> str:
        s = state
        left = sum(c is not None for c in s.crates)
        k = s.n - left + 1
        return f"Take a crate: you pick {_nth(k)} of {s.n}, {left} crates are left"

    def describe(self, state: HighWaterState, step: Step, player: int) -> dict[str, Any]:
        s = state
        return {"pick": s.n - sum(c is not None for c in s.crates) + 1}


# -- the action segment (R8-R16) -----------------------------------------------------------
class SegmentRule(Rule):
    """Automatic: a player's action segment begins (Step 1's gains resolve at once)."""

    level: int | None = 0

    def run(self, state: HighWaterState, step: Step) -> None:
        s = state
        p = step.data[0]
        queue = s.start_segment(p)
        me = (p,)
        s.then(Step("passives", AUTO, (p, queue)),
               *(Step("step", me, (k,)) for k in (2, 3, 4, 5)),
               Step("free_removal", me), Step("paid_removal", me), Step("carry_cap", me),
               Step("end_segment", AUTO, (p,)))


class PassivesRule(Rule):
    """Automatic, Step 1 (F10): the next passive that needs a choice opens it (or, with
    nothing to act on, does nothing); the rest wait below it."""

    level: int | None = 1

    def run(self, state: HighWaterState, step: Step) -> None:
        p, queue = step.data
        if not queue:
            return
        s = state
        s.push(Step("passives", AUTO, (p, queue[1:])))
        card = s.D.cards[queue[0]]
        assert card.effect is not None
        if s.effect_possible(p, card.effect):
            s.start_effect(p, card.effect, card.name)
        elif s.logging:
            s.say(f"{card.name} (P{p + 1}) has no legal target")


_STEP_PROMPTS = {
    2: "activate an active crew ability you can pay for",
    3: "spend a die from your hold for its colour's action",
    4: "buy a market card by matching its dice pattern",
    5: "complete the next task of one of your quests",
}


class ActRule(Rule):
    """Steps 2-5 (F11-F14), ``data[0]`` the step: act, go on to a later step that offers
    something, or stop. A step that offers nothing is skipped; the later steps wait below
    it on the stack, so "next step" just leaves this one."""

    def seg_step(self, step: Step) -> int | None:
        k: int = step.data[0]
        return k

    def lapses(self, state: HighWaterState, step: Step) -> bool:
        # the core asks ``legal`` right after a step that does not lapse: keep the list
        acts = state.step_actions(step.player, step.data[0])
        state.memo = (step, acts) if acts else None
        return not acts

    def legal(self, state: HighWaterState, step: Step, player: int) -> Sequence[Any]:
        s = state
        k = step.data[0]
        memo = s.memo
        s.memo = None
        acts = memo[1] if memo is not None and memo[0] is step else s.step_actions(player, k)
        if k < 5 and any(s.step_actions(player, t, True) for t in range(k + 1, 6)):
            acts.append(NEXT)
        acts.append(STOP)
        return acts

    def apply(self, state: HighWaterState, step: Step, player: int, action: Any) -> None:
        s = state
        if isinstance(action, Next):
            return
        if isinstance(action, Stop):
            if s.logging:
                s.say(f"P{player + 1} stops")
            while s.steps[-1].kind == "step":
                s.pop()
            return
        s.push(step)  # the step goes on after the action (and its sub-decision, if any)
        if isinstance(action, Activate):
            self._activate(s, player, action)
        elif isinstance(action, Use):
            self._use(s, player, action)
        elif isinstance(action, Buy):
            self._buy(s, player, action)
        elif isinstance(action, Advance):
            s.advance(player, action)
        else:
            raise AssertionError(f"unhandled action {action!r}")

    def _activate(self, s: HighWaterState, p: int, a: Activate) -> None:
        D = s.D
        i = next(i for i, c in enumerate(s.crew[p])
                 if D.cards[c].key == a.card and i not in s.used)
        card = D.cards[s.crew[p][i]]
        s.used.append(i)
        s.gold[p] -= card.pay_gold
        s.rum[p] -= card.pay_rum
        s.sflags |= 1 << USED_ACTIVE
        assert card.effect is not None
        if not s.effect_possible(p, card.effect):
            if s.logging:
                s.say(f"P{p + 1} activates {card.name}: it has nothing to act on now")
            return
        if s.logging:
            s.say(f"P{p + 1} activates {card.name}", kind="activate",
                  data={"player": p, "card": card.name})
        s.start_effect(p, card.effect, card.name)

    def _use(self, s: HighWaterState, p: int, a: Use) -> None:
        s.dice[p].remove(a.die)
        s.return_die(a.die)
        col = s.D.colours[a.die // 10]
        s.sflags |= 1 << col.flag
        if s.logging:
            s.say(f"P{p + 1} uses {a.label} ({col.name} action)", kind="use",
                  data={"player": p, "die": a.label})
        s.start_effect(p, col.action, f"{col.name} die", by_face=a.die % 10)

    def _buy(self, s: HighWaterState, p: int, a: Buy) -> None:
        for row, cards in ((CREW_ROW, s.crew_row), (QUEST_ROW, s.quest_row)):
            for i, c in enumerate(cards):
                if c >= 0 and s.D.cards[c].key == a.card:
                    s.push(Step("pay", (p,), (row, i, c, ())))
                    return
        raise AssertionError(a)

    def prompt(self, state: HighWaterState, step: Step, player: int) -> str:
        k = step.data[0]
        return (f"Step {k} ({STEP_NAMES[k]}): {_STEP_PROMPTS.get(k, 'act')}"
                + (", go on to a later step, or stop" if k < 5 else ", or stop"))

    def describe(self, state: HighWaterState, step: Step, player: int) -> dict[str, Any]:
        return {"step": step.data[0]}


class RemoveMarkerRule(Choice):
    """``data``: (source,). Clear a marker from one of your quests (a green die, R21.4;
    Ship's Carpenter, R25.5); it sits here because Step 6's free removal (R15) is this
    same choice."""

    def legal(self, state: HighWaterState, step: Step, player: int) -> Sequence[Any]:
        s = state
        quests, remove = s.quests[player], s.T.remove
        return [remove[quests[k][0]] for k in s.marked_quests(player)]

    def apply(self, state: HighWaterState, step: Step, player: int, action: Any) -> None:
        state.remove_marker(player, action)

    def text(self, state: HighWaterState, step: Step) -> str:
        return f"choose a quest to clear a marker from ({step.data[0]})"


class FreeRemovalRule(RemoveMarkerRule):
    """Step 6 (F15): one marker comes off for free (skipped without a marked quest)."""

    level: int | None = 6

    def text(self, state: HighWaterState, step: Step) -> str:
        return "free removal: choose a quest to clear a marker from"


class PaidRemovalRule(Choice):
    """Step 6 (F15): one more marker for gold, or end the segment (skipped when there is
    no marker left or not enough gold)."""

    level: int | None = 6

    def legal(self, state: HighWaterState, step: Step, player: int) -> Sequence[Any]:
        s = state
        marked = s.marked_quests(player)
        if not marked or s.gold[player] < s.D.extra_removal_gold:
            return []
        quests, extra = s.quests[player], s.T.extra
        out: list[Any] = [extra[quests[k][0]] for k in marked]
        out.append(END)
        return out

    def apply(self, state: HighWaterState, step: Step, player: int, action: Any) -> None:
        if isinstance(action, Extra):
            state.remove_marker(player, action)

    def text(self, state: HighWaterState, step: Step) -> str:
        gold = state.D.extra_removal_gold
        return f"pay {gold} gold to remove one more marker, or end the segment"


class EndSegmentRule(Rule):
    """Automatic: influence is recalculated (F16); reaching the goal ends the game after
    this round (F17)."""

    level: int | None = 0

    def run(self, state: HighWaterState, step: Step) -> None:
        state.end_segment(step.data[0])


# -- the end of a round (R17, R29) ---------------------------------------------------------
class RoundEndRule(Rule):
    """Automatic, after the last segment: the game ends (F17, R29) or, when the bag cannot
    fill the next crates, the biggest holds give dice back (R23.2)."""

    level: int | None = 0

    def run(self, state: HighWaterState, step: Step) -> None:
        s = state
        if s.end_round():
            s.push(Step("bag_short", (s.short_player(),)))


# -- sub-decisions of dice actions (R21), the carry cap and a short bag (R23) --------------
class SabotageRule(Choice):
    """``data``: (leader only, source). Put a marker on an opponent's quest."""

    def legal(self, state: HighWaterState, step: Step, player: int) -> Sequence[Any]:
        s = state
        quests, target = s.quests, s.T.target
        return [target[o, quests[o][k][0]] for o, k in s.targets(player, step.data[0])]

    def apply(self, state: HighWaterState, step: Step, player: int, action: Any) -> None:
        s = state
        D = s.D
        q = next(q for q in s.quests[action.player] if D.cards[q[0]].key == action.quest)
        q[2] += 1
        if s.logging:
            s.say(f"P{player + 1} puts a sabotage marker on P{action.player + 1}'s "
                  f"{D.cards[q[0]].name}", kind="sabotage",
                  data={"player": player, "target": action.player,
                        "quest": D.cards[q[0]].name})

    def text(self, state: HighWaterState, step: Step) -> str:
        return f"choose a quest to sabotage ({step.data[1]})"


class RerollRule(Choice):
    """``data``: (at least, at most (0: any), indices marked so far, source). Mark dice one
    at a time, then roll them."""

    def legal(self, state: HighWaterState, step: Step, player: int) -> Sequence[Any]:
        s = state
        lo, hi, marked, _ = step.data
        acts: list[Any] = []
        if not hi or len(marked) < hi:
            mark = s.T.mark
            acts = [mark[d] for d in s.dice_labels(s.dice[player], marked)]
        if len(marked) >= lo:
            acts.append(ROLL)
        return acts

    def apply(self, state: HighWaterState, step: Step, player: int, action: Any) -> None:
        s = state
        lo, hi, marked, source = step.data
        dice = s.dice[player]
        if isinstance(action, Mark):
            i = next(i for i, d in enumerate(dice) if d == action.die and i not in marked)
            s.push(Step("reroll", step.players, (lo, hi, (*marked, i), source)))
            return
        assert isinstance(action, Roll)
        before = [s.lab(dice[i]) for i in marked]
        for i in marked:
            dice[i] = s.roll(dice[i] // 10)
        if s.logging:
            s.say(f"P{player + 1} re-rolls {' '.join(before)}: "
                  + " ".join(s.lab(dice[i]) for i in marked) + f" ({source})",
                  kind="reroll", data={"player": player, "before": before,
                                       "after": [s.lab(dice[i]) for i in marked]})

    def text(self, state: HighWaterState, step: Step) -> str:
        s = state
        _, hi, marked, source = step.data
        chosen = " ".join(s.lab(s.dice[step.player][i]) for i in marked)
        most = "any number" if not hi else f"up to {hi}"
        return f"choose dice to re-roll ({source}, {most}); chosen: {chosen or '-'}"


class CarryCapRule(Choice):
    """Option carry_cap (R23.1): return dice one at a time down to the cap."""

    level: int | None = 6

    def legal(self, state: HighWaterState, step: Step, player: int) -> Sequence[Any]:
        s = state
        cap = s.opts.carry_cap  # 0: no cap (F9)
        if not cap or len(s.dice[player]) <= cap:
            return []
        ret = s.T.ret
        return [ret[d] for d in dict.fromkeys(s.dice[player])]

    def apply(self, state: HighWaterState, step: Step, player: int, action: Any) -> None:
        state.give_back(player, action, "carry-over cap")
        state.push(step)  # until the hold is down to the cap

    def text(self, state: HighWaterState, step: Step) -> str:
        return f"return dice to the bag down to {state.opts.carry_cap}"


class BagShortRule(Rule):
    """R23.2: the player with the most dice returns one, until the bag holds 3 x P."""

    phase = SHORT
    level: int | None = 0

    def legal(self, state: HighWaterState, step: Step, player: int) -> Sequence[Any]:
        ret = state.T.ret
        return [ret[d] for d in dict.fromkeys(state.dice[player])]

    def apply(self, state: HighWaterState, step: Step, player: int, action: Any) -> None:
        s = state
        s.give_back(player, action, "the bag is short")
        if sum(s.bag) < 3 * s.n:
            s.push(Step("bag_short", (s.short_player(),)))

    def prompt(self, state: HighWaterState, step: Step, player: int) -> str:
        s = state
        return (f"Return a die to the bag: it holds {sum(s.bag)} dice and the next round "
                f"needs {3 * s.n}, and you hold the most")

    def describe(self, state: HighWaterState, step: Step, player: int) -> dict[str, Any]:
        s = state
        return {"need": 3 * s.n, "bag": sum(s.bag)}


# -- sub-decisions of a purchase (R24) and of crew cards (R25) -----------------------------
class PayRule(Choice):
    """F12/G10: ``data``: (row, slot, card, hold indices paid so far). Pay the card's
    icons one die at a time, never leaving the rest unpayable; the last one buys it."""

    def legal(self, state: HighWaterState, step: Step, player: int) -> Sequence[Any]:
        s = state
        card = s.D.cards[step.data[2]]
        pay = s.T.pay
        return [pay[d] for d in s.payable(player, card, step.data[3])]

    def apply(self, state: HighWaterState, step: Step, player: int, action: Any) -> None:
        s = state
        row, slot, cid, chosen = step.data
        i = next(i for i, d in enumerate(s.dice[player]) if d == action.die and i not in chosen)
        chosen = (*chosen, i)
        card = s.D.cards[cid]
        if len(chosen) < len(card.cost):
            s.push(Step("pay", step.players, (row, slot, cid, chosen)))
            return
        s.buy(player, row, slot, card, chosen)

    def text(self, state: HighWaterState, step: Step) -> str:
        s = state
        card = s.D.cards[step.data[2]]
        chosen = step.data[3]
        paid = " ".join(s.lab(s.dice[step.player][i]) for i in chosen)
        return (f"paying for {card.name}: icon {len(chosen) + 1} of {len(card.cost)} "
                f"({card.cost[len(chosen)].text}); paid so far: {paid or '-'}")


class CycleRule(Choice):
    """Cartographer: put a market card under its deck and reveal the next one."""

    def legal(self, state: HighWaterState, step: Step, player: int) -> Sequence[Any]:
        s = state
        # copies of one card face up at once are one choice (one text, same result)
        keys = dict.fromkeys(
            s.D.cards[(s.crew_row if r == CREW_ROW else s.quest_row)[i]].key
            for r, i in s.cyclable())
        return [Cycle(k) for k in keys]

    def apply(self, state: HighWaterState, step: Step, player: int, action: Any) -> None:
        state.cycle(player, action)

    def text(self, state: HighWaterState, step: Step) -> str:
        return "Cartographer: choose a market card to put under its deck"


class SetDieRule(Choice):
    """Quartermaster, first half: choose the die to set."""

    def legal(self, state: HighWaterState, step: Step, player: int) -> Sequence[Any]:
        s = state
        pick = s.T.pick
        return [pick[d] for d in dict.fromkeys(s.dice[player])]

    def apply(self, state: HighWaterState, step: Step, player: int, action: Any) -> None:
        s = state
        s.push(Step("set_face", step.players, (s.dice[player].index(action.die),)))

    def text(self, state: HighWaterState, step: Step) -> str:
        return "Quartermaster: choose a die to set"


class SetFaceRule(Choice):
    """Quartermaster, second half: ``data``: (index of the die in the hold,)."""

    def legal(self, state: HighWaterState, step: Step, player: int) -> Sequence[Any]:
        s = state
        cur = s.dice[player][step.data[0]] % 10
        return [Face(f) for f in range(1, s.D.faces + 1) if f != cur]

    def apply(self, state: HighWaterState, step: Step, player: int, action: Any) -> None:
        s = state
        dice = s.dice[player]
        i = step.data[0]
        old = dice[i]
        dice[i] = old // 10 * 10 + action.face
        if s.logging:
            s.say(f"P{player + 1} sets {s.lab(old)} to {s.lab(dice[i])}")

    def text(self, state: HighWaterState, step: Step) -> str:
        s = state
        return f"Quartermaster: choose the new face of {s.lab(s.dice[step.player][step.data[0]])}"


def _nth(k: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(k, f"#{k}")


STEPS: dict[str, Rule] = {
    "round": RoundRule(), "trick": TrickRule(), "reveal": RevealRule(), "crate": CrateRule(),
    "segment": SegmentRule(), "passives": PassivesRule(), "step": ActRule(),
    "free_removal": FreeRemovalRule(), "paid_removal": PaidRemovalRule(),
    "end_segment": EndSegmentRule(), "round_end": RoundEndRule(),
    "sabotage": SabotageRule(), "reroll": RerollRule(), "remove_marker": RemoveMarkerRule(),
    "carry_cap": CarryCapRule(), "bag_short": BagShortRule(),
    "pay": PayRule(), "cycle": CycleRule(), "set_die": SetDieRule(), "set_face": SetFaceRule(),
}
"""Every kind of step, by name (the name is also the decision's ``kind``), in RULES.md
order: the round, the segment, the round's end, then the sub-decisions."""

CHOICES = ("sabotage", "remove_marker", "reroll", "set_die", "set_face", "cycle", "pay",
           "free_removal", "paid_removal", "carry_cap")
"""The sub-decision kinds in the order of the observation's one-hot (SPEC.md)."""
