"""High Water's decision steps: one rule per kind of step on the core's decision stack
(``STEPS``, in RULES.md order), what each kind of step carries, the phases and segment
steps the view names, and the segment's flags.

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
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from cove.core import AUTO, Step, StepRule, pickle_records
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
PHASE_NAMES: Final = ("trick", "crates", "segment", "over", "bag short")
STEP_NAMES: Final = {
    1: "passive abilities",
    2: "active abilities",
    3: "dice actions",
    4: "buy cards",
    5: "advance quests",
    6: "remove sabotage",
}
CREW_ROW, QUEST_ROW = 0, 1
"""The market rows: crew cards and quests."""


# -- the segment's flags (R26: what the player did this turn) --------------------------------
# A set of flags is an int with one bit per flag; a flag is its index in the data file's
# ``flags`` (won_trick, last_crate, bought_crew, bought_quest, used_active, used_<colour>).
NO_FLAGS: Final = 0
"""The flags of a segment that has just begun: nothing done yet."""


def has_flag(flags: int, flag: int) -> bool:
    """Whether the set ``flags`` holds ``flag``."""
    return flags >> flag & 1 == 1


def with_flag(flags: int, flag: int) -> int:
    """The set ``flags`` with ``flag`` added."""
    return flags | 1 << flag


# -- what the steps carry (``Step.data``) ------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Revealing:
    """The ``trick`` and ``reveal`` steps' record (F3-F5): the players revealing in this
    trick, everyone or a tied group (``Step.players`` are those still to commit)."""

    players: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SegmentOf:
    """The ``segment`` and ``end_segment`` steps' record (F8, F16): whose action segment."""

    player: int


@dataclass(frozen=True, slots=True)
class PassiveQueue:
    """The ``passives`` step's record (Step 1, F10): the segment's player and the passive
    crew cards still waiting to resolve their choice, in crew order."""

    player: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SegmentStep:
    """The ``step`` step's record (F11-F14): which of Steps 2-5 it is."""

    number: int


@dataclass(frozen=True, slots=True)
class Sabotaging:
    """The ``sabotage`` step's record: whether only the influence leaders' quests may be
    chosen, and what put the marker (a card or a die, named in the prompt)."""

    leader_only: bool
    source: str


@dataclass(frozen=True, slots=True)
class RemovingMarker:
    """The ``remove_marker`` step's record: what clears the marker (named in the prompt)."""

    source: str


@dataclass(frozen=True, slots=True)
class Rerolling:
    """The ``reroll`` step's record: the fewest and the most dice to re-roll (most 0: any
    number), the hold indices marked so far and what re-rolls them."""

    fewest: int
    most: int
    marked: tuple[int, ...]
    source: str


@dataclass(frozen=True, slots=True)
class Paying:
    """The ``pay`` step's record (F12/G10): the card being bought, where it lies in the
    market (row and slot) and the hold indices paid so far, one per icon in cost order."""

    row: int
    slot: int
    card: int
    chosen: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SettingFace:
    """The ``set_face`` step's record (Quartermaster): the index of the die in the hold."""

    die: int


@dataclass(frozen=True, slots=True)
class KeptActions:
    """The actions of a Step 2-5 step found when ``lapses`` asked, kept for ``legal``,
    which the core asks right after (``HighWaterState.memo``)."""

    step: Step
    actions: list[Any]


STEP_RECORDS: Final = {k: SegmentStep(k) for k in (2, 3, 4, 5)}
"""The ``step`` steps' records, made once."""


class Rule(StepRule["HighWaterState"]):
    """A High Water step rule: the core's, plus where it sits in the round. A forced
    single choice is not announced with the generic "(the only choice)" event: every High
    Water action logs what it does, as a player's move would be logged."""

    log_forced = False

    phase = SEG
    """The phase the view names while this step is decided (see PHASE_NAMES)."""

    segment_step: int | None = None
    """The segment step (1-6) this kind of step belongs to; None: a sub-decision, which
    belongs to the step below it on the stack; 0: not part of a segment."""

    def segment_step_of(self, step: Step) -> int | None:
        """The segment step ``step`` belongs to (see ``segment_step``)."""
        return self.segment_step

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

    segment_step: int | None = 0

    def run(self, state: HighWaterState, step: Step) -> None:
        state.start_round()
        everyone = tuple(range(state.n))
        state.push(Step("trick", everyone, Revealing(everyone)))


class TrickRule(Rule):
    """F3-F5: every player revealing (``Revealing``) commits a card in secret; ``players``
    are those still to commit. The last commitment reveals them all."""

    phase = TRICK
    segment_step: int | None = 0
    secret = True  # R3: hidden from the others until the reveal
    forced = False  # even a single card left is chosen by its owner (in secret)

    def legal(self, state: HighWaterState, step: Step, player: int) -> Sequence[Any]:
        play, rereveals = state.actions.play, state.rereveals
        return [play[rereveals, card] for card in state.trick_choices(player)]

    def apply(self, state: HighWaterState, step: Step, player: int, action: Any) -> None:
        state.committed[player] = action.card
        if state.logging:
            state.say(f"P{player + 1} secretly commits {action.card}", to=player,
                      kind="commit", data={"player": player, "card": action.card})
        rest = tuple(q for q in step.players if q != player)
        state.push(Step("trick", rest, step.data) if rest else Step("reveal", AUTO, step.data))

    def _coin(self, state: HighWaterState) -> str:
        return ("high water: the highest card wins" if state.high_water
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
        return {"rereveal": state.rereveals, "choices": state.trick_choices(player)}


class RevealRule(Rule):
    """Automatic: turn the cards up; re-reveal ties (F5) or fix the pick order."""

    segment_step: int | None = 0

    def run(self, state: HighWaterState, step: Step) -> None:
        revealing: Revealing = step.data
        tied = state.reveal_trick(revealing.players)
        if tied:
            state.push(Step("trick", tied, Revealing(tied)))
        else:
            state.push(Step("crate", (state.pick_order[0],)))


class CrateRule(Rule):
    """F7: take a crate, in pick order; the last one goes to the last picker on its own."""

    phase = PICK
    segment_step: int | None = 0

    def legal(self, state: HighWaterState, step: Step, player: int) -> Sequence[Any]:
        return [Take(i, " ".join(state.label(die) for die in crate))
                for i, crate in enumerate(state.crates) if crate is not None]

    def apply(self, state: HighWaterState, step: Step, player: int, action: Any) -> None:
        state.take(player, action.crate)
        picked = sum(crate is None for crate in state.crates)
        if picked < state.n:
            state.push(Step("crate", (state.pick_order[picked],)))
        else:  # F8: the action segments, last picker first, then the end of the round
            state.then(*(Step("segment", AUTO, SegmentOf(q))
                         for q in reversed(state.pick_order)),
                       Step("round_end"))

    def prompt(self, state: HighWaterState, step: Step, player: int) -> str:
        left = sum(crate is not None for crate in state.crates)
        pick = state.n - left + 1
        return f"Take a crate: you pick {_nth(pick)} of {state.n}, {left} crates are left"

    def describe(self, state: HighWaterState, step: Step, player: int) -> dict[str, Any]:
        return {"pick": state.n - sum(crate is not None for crate in state.crates) + 1}


# -- the action segment (R8-R16) -----------------------------------------------------------
class SegmentRule(Rule):
    """Automatic: a player's action segment begins (Step 1's gains resolve at once)."""

    segment_step: int | None = 0

    def run(self, state: HighWaterState, step: Step) -> None:
        segment: SegmentOf = step.data
        p = segment.player
        queue = state.start_segment(p)
        me = (p,)
        state.then(Step("passives", AUTO, PassiveQueue(p, queue)),
                   *(Step("step", me, STEP_RECORDS[k]) for k in (2, 3, 4, 5)),
                   Step("free_removal", me), Step("paid_removal", me), Step("carry_cap", me),
                   Step("end_segment", AUTO, segment))


class PassivesRule(Rule):
    """Automatic, Step 1 (F10): the next passive that needs a choice opens it (or, with
    nothing to act on, does nothing); the rest wait below it."""

    segment_step: int | None = 1

    def run(self, state: HighWaterState, step: Step) -> None:
        queue: PassiveQueue = step.data
        if not queue.cards:
            return
        p = queue.player
        state.push(Step("passives", AUTO, PassiveQueue(p, queue.cards[1:])))
        card = state.data.cards[queue.cards[0]]
        assert card.effect is not None
        if state.effect_possible(p, card.effect):
            state.start_effect(p, card.effect, card.name)
        elif state.logging:
            state.say(f"{card.name} (P{p + 1}) has no legal target")


_STEP_PROMPTS: Final = {
    2: "activate an active crew ability you can pay for",
    3: "spend a die from your hold for its colour's action",
    4: "buy a market card by matching its dice pattern",
    5: "complete the next task of one of your quests",
}


class ActRule(Rule):
    """Steps 2-5 (F11-F14), the step's number in its ``SegmentStep``: act, go on to a later
    step that offers something, or stop. A step that offers nothing is skipped; the later
    steps wait below it on the stack, so "next step" just leaves this one."""

    def segment_step_of(self, step: Step) -> int | None:
        segment_step: SegmentStep = step.data
        return segment_step.number

    def lapses(self, state: HighWaterState, step: Step) -> bool:
        # the core asks ``legal`` right after a step that does not lapse: keep the list
        segment_step: SegmentStep = step.data
        acts = state.step_actions(step.player, segment_step.number)
        state.memo = KeptActions(step, acts) if acts else None
        return not acts

    def legal(self, state: HighWaterState, step: Step, player: int) -> Sequence[Any]:
        segment_step: SegmentStep = step.data
        number = segment_step.number
        memo = state.memo
        state.memo = None
        acts = (memo.actions if memo is not None and memo.step is step
                else state.step_actions(player, number))
        if number < 5 and any(state.step_actions(player, later, True)
                              for later in range(number + 1, 6)):
            acts.append(NEXT)
        acts.append(STOP)
        return acts

    def apply(self, state: HighWaterState, step: Step, player: int, action: Any) -> None:
        if isinstance(action, Next):
            return
        if isinstance(action, Stop):
            if state.logging:
                state.say(f"P{player + 1} stops")
            while state.steps[-1].kind == "step":
                state.pop()
            return
        state.push(step)  # the step goes on after the action (and its sub-decision, if any)
        if isinstance(action, Activate):
            self._activate(state, player, action)
        elif isinstance(action, Use):
            self._use(state, player, action)
        elif isinstance(action, Buy):
            self._buy(state, player, action)
        elif isinstance(action, Advance):
            state.advance(player, action)
        else:
            raise AssertionError(f"unhandled action {action!r}")

    def _activate(self, state: HighWaterState, p: int, a: Activate) -> None:
        cards = state.data.cards
        i = next(i for i, c in enumerate(state.crew[p])
                 if cards[c].key == a.card and i not in state.used_crew)
        card = cards[state.crew[p][i]]
        state.used_crew.append(i)
        state.gold[p] -= card.pay_gold
        state.rum[p] -= card.pay_rum
        state.set_flag(USED_ACTIVE)
        assert card.effect is not None
        if not state.effect_possible(p, card.effect):
            if state.logging:
                state.say(f"P{p + 1} activates {card.name}: it has nothing to act on now")
            return
        if state.logging:
            state.say(f"P{p + 1} activates {card.name}", kind="activate",
                      data={"player": p, "card": card.name})
        state.start_effect(p, card.effect, card.name)

    def _use(self, state: HighWaterState, p: int, a: Use) -> None:
        state.dice[p].remove(a.die)
        state.return_die(a.die)
        colour = state.data.colours[a.die // 10]
        state.set_flag(colour.flag)
        if state.logging:
            state.say(f"P{p + 1} uses {a.label} ({colour.name} action)", kind="use",
                      data={"player": p, "die": a.label})
        state.start_effect(p, colour.action, f"{colour.name} die", by_face=a.die % 10)

    def _buy(self, state: HighWaterState, p: int, a: Buy) -> None:
        for row, cards in ((CREW_ROW, state.crew_row), (QUEST_ROW, state.quest_row)):
            for slot, c in enumerate(cards):
                if c >= 0 and state.data.cards[c].key == a.card:
                    state.push(Step("pay", (p,), Paying(row, slot, c, ())))
                    return
        raise AssertionError(a)

    def prompt(self, state: HighWaterState, step: Step, player: int) -> str:
        segment_step: SegmentStep = step.data
        number = segment_step.number
        return (f"Step {number} ({STEP_NAMES[number]}): {_STEP_PROMPTS.get(number, 'act')}"
                + (", go on to a later step, or stop" if number < 5 else ", or stop"))

    def describe(self, state: HighWaterState, step: Step, player: int) -> dict[str, Any]:
        segment_step: SegmentStep = step.data
        return {"step": segment_step.number}


class RemoveMarkerRule(Choice):
    """``RemovingMarker``: clear a marker from one of your quests (a green die, R21.4;
    Ship's Carpenter, R25.5); it sits here because Step 6's free removal (R15) is this
    same choice."""

    def legal(self, state: HighWaterState, step: Step, player: int) -> Sequence[Any]:
        quests, remove = state.quests[player], state.actions.remove
        return [remove[quests[k].card] for k in state.marked_quests(player)]

    def apply(self, state: HighWaterState, step: Step, player: int, action: Any) -> None:
        state.remove_marker(player, action)

    def text(self, state: HighWaterState, step: Step) -> str:
        removing: RemovingMarker = step.data
        return f"choose a quest to clear a marker from ({removing.source})"


class FreeRemovalRule(RemoveMarkerRule):
    """Step 6 (F15): one marker comes off for free (skipped without a marked quest)."""

    segment_step: int | None = 6

    def text(self, state: HighWaterState, step: Step) -> str:
        return "free removal: choose a quest to clear a marker from"


class PaidRemovalRule(Choice):
    """Step 6 (F15): one more marker for gold, or end the segment (skipped when there is
    no marker left or not enough gold)."""

    segment_step: int | None = 6

    def legal(self, state: HighWaterState, step: Step, player: int) -> Sequence[Any]:
        marked = state.marked_quests(player)
        if not marked or state.gold[player] < state.data.extra_removal_gold:
            return []
        quests, extra = state.quests[player], state.actions.extra
        out: list[Any] = [extra[quests[k].card] for k in marked]
        out.append(END)
        return out

    def apply(self, state: HighWaterState, step: Step, player: int, action: Any) -> None:
        if isinstance(action, Extra):
            state.remove_marker(player, action)

    def text(self, state: HighWaterState, step: Step) -> str:
        gold = state.data.extra_removal_gold
        return f"pay {gold} gold to remove one more marker, or end the segment"


class EndSegmentRule(Rule):
    """Automatic: influence is recalculated (F16); reaching the goal ends the game after
    this round (F17)."""

    segment_step: int | None = 0

    def run(self, state: HighWaterState, step: Step) -> None:
        segment: SegmentOf = step.data
        state.end_segment(segment.player)


# -- the end of a round (R17, R29) ---------------------------------------------------------
class RoundEndRule(Rule):
    """Automatic, after the last segment: the game ends (F17, R29) or, when the bag cannot
    fill the next crates, the biggest holds give dice back (R23.2)."""

    segment_step: int | None = 0

    def run(self, state: HighWaterState, step: Step) -> None:
        if state.end_round():
            state.push(Step("bag_short", (state.short_player(),)))


# -- sub-decisions of dice actions (R21), the carry cap and a short bag (R23) --------------
class SabotageRule(Choice):
    """``Sabotaging``: put a marker on an opponent's quest."""

    def legal(self, state: HighWaterState, step: Step, player: int) -> Sequence[Any]:
        sabotaging: Sabotaging = step.data
        quests, target = state.quests, state.actions.target
        return [target[o, quests[o][k].card]
                for o, k in state.targets(player, sabotaging.leader_only)]

    def apply(self, state: HighWaterState, step: Step, player: int, action: Any) -> None:
        state.sabotage(player, action)

    def text(self, state: HighWaterState, step: Step) -> str:
        sabotaging: Sabotaging = step.data
        return f"choose a quest to sabotage ({sabotaging.source})"


class RerollRule(Choice):
    """``Rerolling``: mark dice one at a time, then roll them."""

    def legal(self, state: HighWaterState, step: Step, player: int) -> Sequence[Any]:
        rerolling: Rerolling = step.data
        marked = rerolling.marked
        acts: list[Any] = []
        if not rerolling.most or len(marked) < rerolling.most:
            mark = state.actions.mark
            acts = [mark[d] for d in state.dice_labels(state.dice[player], marked)]
        if len(marked) >= rerolling.fewest:
            acts.append(ROLL)
        return acts

    def apply(self, state: HighWaterState, step: Step, player: int, action: Any) -> None:
        rerolling: Rerolling = step.data
        marked = rerolling.marked
        dice = state.dice[player]
        if isinstance(action, Mark):
            i = next(i for i, d in enumerate(dice) if d == action.die and i not in marked)
            state.push(Step("reroll", step.players,
                            Rerolling(rerolling.fewest, rerolling.most, (*marked, i),
                                      rerolling.source)))
            return
        assert isinstance(action, Roll)
        before = [state.label(dice[i]) for i in marked]
        for i in marked:
            dice[i] = state.roll(dice[i] // 10)
        if state.logging:
            state.say(f"P{player + 1} re-rolls {' '.join(before)}: "
                      + " ".join(state.label(dice[i]) for i in marked)
                      + f" ({rerolling.source})",
                      kind="reroll", data={"player": player, "before": before,
                                           "after": [state.label(dice[i]) for i in marked]})

    def text(self, state: HighWaterState, step: Step) -> str:
        rerolling: Rerolling = step.data
        hold = state.dice[step.player]
        chosen = " ".join(state.label(hold[i]) for i in rerolling.marked)
        most = "any number" if not rerolling.most else f"up to {rerolling.most}"
        return (f"choose dice to re-roll ({rerolling.source}, {most}); "
                f"chosen: {chosen or '-'}")


class CarryCapRule(Choice):
    """Option carry_cap (R23.1): return dice one at a time down to the cap."""

    segment_step: int | None = 6

    def legal(self, state: HighWaterState, step: Step, player: int) -> Sequence[Any]:
        cap = state.options.carry_cap  # 0: no cap (F9)
        if not cap or len(state.dice[player]) <= cap:
            return []
        returns = state.actions.returns
        return [returns[d] for d in dict.fromkeys(state.dice[player])]

    def apply(self, state: HighWaterState, step: Step, player: int, action: Any) -> None:
        state.give_back(player, action, "carry-over cap")
        state.push(step)  # until the hold is down to the cap

    def text(self, state: HighWaterState, step: Step) -> str:
        return f"return dice to the bag down to {state.options.carry_cap}"


class BagShortRule(Rule):
    """R23.2: the player with the most dice returns one, until the bag holds 3 x P."""

    phase = SHORT
    segment_step: int | None = 0

    def legal(self, state: HighWaterState, step: Step, player: int) -> Sequence[Any]:
        returns = state.actions.returns
        return [returns[d] for d in dict.fromkeys(state.dice[player])]

    def apply(self, state: HighWaterState, step: Step, player: int, action: Any) -> None:
        state.give_back(player, action, "the bag is short")
        if sum(state.bag) < 3 * state.n:
            state.push(Step("bag_short", (state.short_player(),)))

    def prompt(self, state: HighWaterState, step: Step, player: int) -> str:
        return (f"Return a die to the bag: it holds {sum(state.bag)} dice and the next round "
                f"needs {3 * state.n}, and you hold the most")

    def describe(self, state: HighWaterState, step: Step, player: int) -> dict[str, Any]:
        return {"need": 3 * state.n, "bag": sum(state.bag)}


# -- sub-decisions of a purchase (R24) and of crew cards (R25) -----------------------------
class PayRule(Choice):
    """F12/G10, ``Paying``: pay the card's icons one die at a time, never leaving the rest
    unpayable; the last one buys it."""

    def legal(self, state: HighWaterState, step: Step, player: int) -> Sequence[Any]:
        paying: Paying = step.data
        card = state.data.cards[paying.card]
        pay = state.actions.pay
        return [pay[d] for d in state.payable(player, card, paying.chosen)]

    def apply(self, state: HighWaterState, step: Step, player: int, action: Any) -> None:
        paying: Paying = step.data
        i = next(i for i, d in enumerate(state.dice[player])
                 if d == action.die and i not in paying.chosen)
        chosen = (*paying.chosen, i)
        card = state.data.cards[paying.card]
        if len(chosen) < len(card.cost):
            state.push(Step("pay", step.players,
                            Paying(paying.row, paying.slot, paying.card, chosen)))
            return
        state.buy(player, paying.row, paying.slot, card, chosen)

    def text(self, state: HighWaterState, step: Step) -> str:
        paying: Paying = step.data
        card = state.data.cards[paying.card]
        chosen = paying.chosen
        hold = state.dice[step.player]
        paid = " ".join(state.label(hold[i]) for i in chosen)
        return (f"paying for {card.name}: icon {len(chosen) + 1} of {len(card.cost)} "
                f"({card.cost[len(chosen)].text}); paid so far: {paid or '-'}")


class CycleRule(Choice):
    """Cartographer: put a market card under its deck and reveal the next one."""

    def legal(self, state: HighWaterState, step: Step, player: int) -> Sequence[Any]:
        cards = state.data.cards
        # copies of one card face up at once are one choice (one text, same result)
        keys = dict.fromkeys(
            cards[(state.crew_row if row == CREW_ROW else state.quest_row)[slot]].key
            for row, slot in state.cyclable())
        return [Cycle(k) for k in keys]

    def apply(self, state: HighWaterState, step: Step, player: int, action: Any) -> None:
        state.cycle(player, action)

    def text(self, state: HighWaterState, step: Step) -> str:
        return "Cartographer: choose a market card to put under its deck"


class SetDieRule(Choice):
    """Quartermaster, first half: choose the die to set."""

    def legal(self, state: HighWaterState, step: Step, player: int) -> Sequence[Any]:
        pick = state.actions.pick
        return [pick[d] for d in dict.fromkeys(state.dice[player])]

    def apply(self, state: HighWaterState, step: Step, player: int, action: Any) -> None:
        state.push(Step("set_face", step.players,
                        SettingFace(state.dice[player].index(action.die))))

    def text(self, state: HighWaterState, step: Step) -> str:
        return "Quartermaster: choose a die to set"


class SetFaceRule(Choice):
    """Quartermaster, second half (``SettingFace``): the die's new face."""

    def legal(self, state: HighWaterState, step: Step, player: int) -> Sequence[Any]:
        setting: SettingFace = step.data
        face = state.dice[player][setting.die] % 10
        return [Face(f) for f in range(1, state.data.faces + 1) if f != face]

    def apply(self, state: HighWaterState, step: Step, player: int, action: Any) -> None:
        setting: SettingFace = step.data
        dice = state.dice[player]
        old = dice[setting.die]
        dice[setting.die] = old // 10 * 10 + action.face
        if state.logging:
            state.say(f"P{player + 1} sets {state.label(old)} to "
                      f"{state.label(dice[setting.die])}")

    def text(self, state: HighWaterState, step: Step) -> str:
        setting: SettingFace = step.data
        die = state.dice[step.player][setting.die]
        return f"Quartermaster: choose the new face of {state.label(die)}"


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

CHOICES: Final = ("sabotage", "remove_marker", "reroll", "set_die", "set_face", "cycle", "pay",
           "free_removal", "paid_removal", "carry_cap")
"""The sub-decision kinds in the order of the observation's one-hot (SPEC.md)."""


pickle_records(globals())  # records pickle as calls with their fields (docs/BUILD.md)
