"""High Water's State: its fields, setup, the game operations the decision steps carry
out, scores and the tie-break, the conformance hooks, clone and resampling.

A round: fill crates (F1), flip the water coin (F2), a simultaneous secret trick with tie
re-reveals and hand replenishment (F3-F6), crate picks from the winner down (F7), then one
action segment per player in reverse pick order (F8) with Steps 1-6 (F10-F15), influence
recalculated after each segment (F16) and the end once someone reaches the goal (F17).

The flow runs on the core's decision stack: every kind of decision is a rule in
``rules.py`` (who decides, the options, what happens after, the prompt). This module holds
the table and the game operations those rules carry out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from cove.core import Action, Deck, Rng, State, Step, StepRule, pickle_records
from cove.games.high_water.actions import (
    Advance,
    Cycle,
    Extra,
    Remove,
    Return,
    Tables,
    Target,
    tables,
)
from cove.games.high_water.data import (
    BOUGHT_CREW,
    BOUGHT_QUEST,
    LAST_CRATE,
    WON_TRICK,
    Card,
    Effect,
    HWData,
    get,
)
from cove.games.high_water.options import HighWaterOptions
from cove.games.high_water.patterns import affords, can_pay
from cove.games.high_water.reasons import why_illegal
from cove.games.high_water.rules import (
    CREW_ROW,
    NO_FLAGS,
    OVER,
    PICK,
    QUEST_ROW,
    SEG,
    SHORT,
    STEPS,
    TRICK,
    Choice,
    KeptActions,
    RemovingMarker,
    Rerolling,
    Revealing,
    Rule,
    Sabotaging,
    has_flag,
    with_flag,
)
from cove.games.high_water.view import build_view

TIEBREAK: Final = ("most quests completed", "most gold and rum together")
"""What ``HighWaterState.tiebreak`` compares, in its order (R29)."""


@dataclass(frozen=True, slots=True)
class ActiveQuest:
    """A quest a player is working on (R14, R27): its card, how many of its tasks are done
    (they are done in order) and the sabotage markers on it."""

    card: int
    done: int = 0
    markers: int = 0

    def advanced(self) -> ActiveQuest:
        """The quest with its next task done."""
        return ActiveQuest(self.card, self.done + 1, self.markers)

    def with_markers(self, markers: int) -> ActiveQuest:
        """The quest carrying ``markers`` sabotage markers."""
        return ActiveQuest(self.card, self.done, markers)


class HighWaterState(State[HighWaterOptions]):
    __slots__ = (
        "actions",
        "bag",
        "committed",
        "completed",
        "crates",
        "crew",
        "crew_deck",
        "crew_row",
        "data",
        "dice",
        "end_reason",
        "end_triggered",
        "gold",
        "hands",
        "high_water",
        "influence",
        "last_picker",
        "memo",
        "pick_order",
        "played",
        "quest_deck",
        "quest_row",
        "quests",
        "rereveals",
        "revealed",
        "round",
        "rum",
        "segment_flags",
        "trick_winner",
        "used_crew",
    )

    STEPS: ClassVar[Mapping[str, StepRule[HighWaterState]]] = STEPS
    DERIVED = ("data", "actions", "memo")  # rebuilt by setup(); memo: a scratch memo

    data: HWData
    """The data file the options name: dice, cards, flags and the setup."""
    actions: Tables
    """The data file's ready-made actions, by die code or card id."""
    memo: KeptActions | None
    """The actions a Step 2-5 step found when asked whether it lapses (``rules.ActRule``)."""
    quests: list[list[ActiveQuest]]
    """Per seat, the active quests, in the order they were taken."""

    # -- setup -------------------------------------------------------------------------------
    def setup(self) -> None:
        data = self.data = get(self.options.data_file)
        self.actions = tables(data)
        self.memo = None
        n = self.n
        self.bag = [colour.count for colour in data.colours]
        self.crates: list[tuple[int, ...] | None] = []
        self.hands = [list(data.trick_cards) for _ in range(n)]
        self.played: list[list[int]] = [[] for _ in range(n)]
        self.committed = [-1] * n
        self.revealed: list[list[int]] = [[] for _ in range(n)]
        self.rereveals = 0
        self.pick_order: list[int] = []
        self.dice: list[list[int]] = [[] for _ in range(n)]
        self.gold = [data.gold] * n
        self.rum = [data.rum] * n
        self.crew: list[list[int]] = [[] for _ in range(n)]
        self.used_crew: list[int] = []
        self.quests = [[ActiveQuest(data.starting_quest)] for _ in range(n)]
        self.completed: list[list[int]] = [[] for _ in range(n)]
        self.influence = [0] * n
        self.trick_winner = -1
        self.last_picker = -1
        self.segment_flags = NO_FLAGS
        self.crew_deck = Deck(data.crew_deck)
        self.crew_deck.shuffle(self.rng)
        self.quest_deck = Deck(data.quest_deck)
        self.quest_deck.shuffle(self.rng)
        self.crew_row = [self._draw(CREW_ROW) for _ in range(data.crew_row)]
        self.quest_row = [self._draw(QUEST_ROW) for _ in range(data.quest_row)]
        self.end_triggered = False
        self.end_reason = ""
        self.round = 0
        self.high_water = True
        self.settle()  # next_steps(): round 1

    # -- the decision stack ------------------------------------------------------------------
    def next_steps(self) -> Sequence[Step]:
        """The stack ran empty: the next round, unless the game has ended."""
        return () if self.end_reason else (Step("round"),)

    def _rule(self) -> Rule:
        rule = self.STEPS[self.steps[-1].kind]
        assert isinstance(rule, Rule)
        return rule

    @property
    def phase(self) -> int:
        """The phase the view names (rules.PHASE_NAMES), from the decision on top."""
        return self._rule().phase if self.steps else OVER

    @property
    def step(self) -> int:
        """The segment step (1-6) of the decision on top; 0 outside a segment."""
        rules = self.STEPS
        for below in reversed(self.steps):
            rule = rules[below.kind]
            assert isinstance(rule, Rule)
            number = rule.segment_step_of(below)
            if number is not None:
                return number
        return 0

    @property
    def pending(self) -> Step | None:
        """The open sub-decision of a segment (a sabotage target, dice to pay, ...)."""
        if self.steps and isinstance(self._rule(), Choice):
            return self.top_step
        return None

    def pending_text(self) -> str:
        """The open sub-decision in words ("" when there is none)."""
        pending = self.pending
        if pending is None:
            return ""
        rule = self._rule()
        assert isinstance(rule, Choice)
        return rule.text(self, pending)

    def segment_player(self) -> int:
        """The player whose action segment it is (-1 outside a segment)."""
        top = self.top_step
        if top is not None and self._rule().phase == SEG:
            return top.players[0]
        return -1

    # -- helpers -------------------------------------------------------------------------------
    def _draw(self, row: int) -> int:
        """Top card of a market deck (-1 if empty); the known bottom part shrinks if reached."""
        deck = self.crew_deck if row == CREW_ROW else self.quest_deck
        return deck.draw() if deck else -1

    def label(self, die: int) -> str:
        """A die code's label: "y3"."""
        return self.data.label[die]

    def flags_now(self, p: int) -> int:
        """What p did this turn: the segment's flags, with p's trick win and last crate."""
        flags = self.segment_flags
        if p == self.trick_winner:
            flags = with_flag(flags, WON_TRICK)
        if p == self.last_picker:
            flags = with_flag(flags, LAST_CRATE)
        return flags

    def set_flag(self, flag: int) -> None:
        """The segment's player did ``flag`` this turn (a "did <flag>" task, an ``if``)."""
        self.segment_flags = with_flag(self.segment_flags, flag)

    def return_die(self, die: int) -> None:
        self.bag[die // 10] += 1

    def roll(self, colour: int) -> int:
        return colour * 10 + self.rng.randint(1, self.data.faces)

    def targets(self, p: int, leader_only: bool) -> list[tuple[int, int]]:
        """(opponent, quest index) pairs that may take a sabotage marker from p."""
        cap = self.data.max_markers
        out = [
            (o, k)
            for o in range(self.n)
            if o != p
            for k, quest in enumerate(self.quests[o])
            if quest.markers < cap
        ]
        if leader_only and out:
            best = max(self.influence[o] for o, _ in out)
            out = [(o, k) for o, k in out if self.influence[o] == best]
        return out

    def marked_quests(self, p: int) -> list[int]:
        """The indices of p's quests that carry a sabotage marker."""
        return [k for k, quest in enumerate(self.quests[p]) if quest.markers > 0]

    def effect_possible(self, p: int, effect: Effect, spare: int = 0) -> bool:
        """Whether an effect can do something (``spare``: dice excluded, e.g. the blue die)."""
        kind = effect.kind
        if effect.needs_flag >= 0 and not has_flag(self.flags_now(p), effect.needs_flag):
            return False
        if kind == "gain":
            return True
        if kind == "sabotage":  # some target (the leaders among them, if asked, are some)
            cap = self.data.max_markers
            quests = self.quests
            return any(quest.markers < cap
                       for o in range(self.n) if o != p for quest in quests[o])
        if kind == "remove_marker":
            return any(quest.markers for quest in self.quests[p])
        if kind == "reroll":
            return len(self.dice[p]) - spare >= effect.fewest
        if kind == "set_face":
            return bool(self.dice[p])
        if kind == "cycle_market":
            return bool(self.cyclable())
        return False

    def cyclable(self) -> list[tuple[int, int]]:
        """(market row, slot) pairs of the face-up cards a Cartographer may cycle: those
        whose deck still has a card to show in their place."""
        out = []
        if self.crew_deck:
            out += [(CREW_ROW, i) for i, c in enumerate(self.crew_row) if c >= 0]
        if self.quest_deck:
            out += [(QUEST_ROW, i) for i, c in enumerate(self.quest_row) if c >= 0]
        return out

    def start_effect(self, p: int, effect: Effect, source: str, by_face: int = 0) -> None:
        """Resolve an effect now, or push the sub-decision it needs."""
        kind = effect.kind
        if kind == "gain":
            if effect.by_face:
                amount = effect.by_face[by_face - 1]
                gold, rum = (amount, 0) if effect.resource == "gold" else (0, amount)
            else:
                gold, rum = effect.gold, effect.rum
            self.gold[p] += gold
            self.rum[p] += rum
            if self.logging:
                got = " and ".join(x for x in (f"{gold} gold" if gold else "",
                                               f"{rum} rum" if rum else "") if x) or "nothing"
                self.say(f"P{p + 1} gains {got} ({source})", kind="gain",
                         data={"player": p, "gold": gold, "rum": rum, "source": source})
        elif kind == "sabotage":
            self.push(Step("sabotage", (p,), Sabotaging(effect.target == "leader", source)))
        elif kind == "remove_marker":
            self.push(Step("remove_marker", (p,), RemovingMarker(source)))
        elif kind == "reroll":
            self.push(Step("reroll", (p,), Rerolling(effect.fewest, effect.most, (), source)))
        elif kind == "set_face":
            self.push(Step("set_die", (p,)))
        elif kind == "cycle_market":
            self.push(Step("cycle", (p,)))

    def dice_labels(self, dice: Sequence[int], skip: Sequence[int] = ()) -> list[int]:
        """Distinct die codes among ``dice`` (indices in ``skip`` left out), in hold order."""
        if not skip:
            return list(dict.fromkeys(dice))
        seen: dict[int, None] = {}
        for i, d in enumerate(dice):
            if d not in seen and i not in skip:
                seen[d] = None
        return list(seen)

    # -- round procedure ----------------------------------------------------------------------
    def start_round(self) -> None:
        """Phases 1-2: fill the crates from the bag (F1) and flip the water coin (F2)."""
        self.round += 1
        n, label = self.n, self.data.label
        drawn = []
        bag = self.bag
        for _ in range(3 * n):
            r = self.rng.below(sum(bag))
            colour = 0
            while r >= bag[colour]:
                r -= bag[colour]
                colour += 1
            bag[colour] -= 1
            drawn.append(self.roll(colour))
        self.crates = [tuple(drawn[3 * i:3 * i + 3]) for i in range(n)]
        self.high_water = self.rng.below(2) == 0
        self.committed = [-1] * n
        self.revealed = [[] for _ in range(n)]
        self.rereveals = 0
        self.pick_order = []
        self.trick_winner = self.last_picker = -1
        if self.logging:
            self.say(f"Round {self.round}: crates " + " | ".join(
                f"{i + 1}: " + " ".join(label[d] for d in c or ())
                for i, c in enumerate(self.crates)), kind="round",
                data={"round": self.round,
                      "crates": [[label[d] for d in c or ()] for c in self.crates]})
            coin = ("HIGH water: the highest card wins" if self.high_water
                    else "LOW water: the lowest card wins")
            self.say("The water coin shows " + coin, kind="water",
                     data={"water": "high" if self.high_water else "low"})

    def _play_card(self, p: int, card: int) -> None:
        """A trick card goes to the played pile; F6 replenishment at 1 card left."""
        hand = self.hands[p]
        hand.remove(card)
        pile = self.played[p]
        pile.append(card)
        self.revealed[p].append(card)
        if len(hand) == 1:
            back = [c for c in pile if c != card]
            hand.extend(back)
            hand.sort()
            self.played[p] = [card]
            if self.logging:
                self.say(f"P{p + 1} has one trick card left and takes back "
                         + ", ".join(map(str, sorted(back))), kind="replenish",
                         data={"player": p, "cards": sorted(back)})

    def trick_choices(self, p: int) -> list[int]:
        """The trick cards p may play now: the whole hand at the first reveal; in a re-reveal
        only cards of a value p has not yet revealed in this trick (F5: "a new card"; R5)."""
        if self.rereveals == 0:
            return sorted(self.hands[p])
        return self._new_cards(p)

    def _new_cards(self, p: int) -> list[int]:
        """Cards in p's hand of a value p has not revealed in this trick."""
        revealed = self.revealed[p]
        return sorted(v for v in self.hands[p] if v not in revealed)

    def _rank_key(self, p: int) -> tuple[int, ...]:
        """p's cards revealed in this trick as a rank (lower ranks better): higher cards
        first in high water, lower cards first in low water."""
        revealed = self.revealed[p]
        return tuple(-v for v in revealed) if self.high_water else tuple(revealed)

    def _tie_groups(self) -> list[list[int]]:
        """Groups of players still tied, best rank first."""
        groups: dict[tuple[int, ...], list[int]] = {}
        for p in range(self.n):
            groups.setdefault(self._rank_key(p), []).append(p)
        return [group for _, group in sorted(groups.items()) if len(group) > 1]

    def _why_no_rereveal(self, group: Sequence[int]) -> str:
        """'' if the tied group re-reveals now (F5), else why chance orders it instead."""
        if self.options.tie_scope == "first" and any(
                self._rank_key(p) < self._rank_key(group[0]) for p in range(self.n)):
            return "Tied below first place (DESIGN variant tie_scope=first: no re-reveal)"
        if not all(self._new_cards(p) for p in group):
            return ("Still tied and no re-reveal can break the tie (a tied player has "
                    "revealed every trick card)")
        if self.rereveals >= self.options.tie_rereveals:
            return (f"Still tied after {self.rereveals} re-reveals (the cap set by option "
                    "tie_rereveals)")
        return ""

    @property
    def waiting(self) -> tuple[int, ...]:
        """The players revealing in the trick now (everyone, or a tied group)."""
        top = self.top_step
        if top is not None and top.kind == "trick":
            revealing: Revealing = top.data
            return revealing.players
        return ()

    def reveal_trick(self, waiting: tuple[int, ...]) -> tuple[int, ...]:
        """All commitments are in: reveal them. Returns the tied players who re-reveal (F5),
        or () when the pick order is fixed."""
        self.reveal()
        for p in waiting:
            self._play_card(p, self.committed[p])
        if self.logging:
            what = "reveal" if self.rereveals == 0 else f"re-reveal {self.rereveals}"
            self.say(f"Trick {what}: " + ", ".join(
                f"P{p + 1} {self.committed[p]}" for p in waiting), kind="reveal",
                data={"rereveal": self.rereveals,
                      "cards": {str(p): self.committed[p] for p in waiting}})
        self.committed = [-1] * self.n
        tied = self._tie_groups()
        # R5: every tied group re-reveals while its players still hold a card they have not
        # revealed in this trick; a new card each time, so this ends within the trick cards
        rerevealing = [group for group in tied if not self._why_no_rereveal(group)]
        if rerevealing:
            self.rereveals += 1
            if self.logging:
                self.say("Tie: " + "; ".join(" and ".join(f"P{p + 1}" for p in group)
                                             for group in rerevealing)
                         + " choose and reveal a new card",
                         kind="tie", data={"groups": [list(group) for group in rerevealing]})
            return tuple(sorted(p for group in rerevealing for p in group))
        # every tie left is ordered by the seeded RNG (never by seat), with the reason logged
        drawn_rank = [0] * self.n  # a tied player's place within the group, drawn
        for group in tied:
            why = self._why_no_rereveal(group)
            places = list(range(len(group)))
            self.rng.shuffle(places)
            for p, place in zip(group, places, strict=True):
                drawn_rank[p] = place
            if self.logging:
                self.say(why + ": the order of "
                         + " and ".join(f"P{p + 1}" for p in group) + " is drawn at random",
                         kind="tie_chance", data={"players": list(group)})
        self.pick_order = sorted(range(self.n),
                                 key=lambda p: (self._rank_key(p), drawn_rank[p]))
        self.trick_winner, self.last_picker = self.pick_order[0], self.pick_order[-1]
        if self.logging:
            self.say(f"P{self.trick_winner + 1} wins the trick. Crate pick order: "
                     + ", ".join(f"P{p + 1}" for p in self.pick_order), kind="trick",
                     data={"winner": self.trick_winner, "order": list(self.pick_order)})
        return ()

    def take(self, p: int, i: int) -> None:
        crate = self.crates[i]
        assert crate is not None
        self.dice[p].extend(crate)
        self.crates[i] = None
        if self.logging:
            self.say(f"P{p + 1} takes crate {i + 1} ({' '.join(self.label(d) for d in crate)})",
                     kind="take", data={"player": p, "crate": i,
                                        "dice": [self.label(d) for d in crate]})

    def start_segment(self, p: int) -> tuple[int, ...]:
        """Step 1 (F10): gains resolve at once; returns the passives that need a choice."""
        self.segment_flags = NO_FLAGS
        self.used_crew = []
        if self.logging:
            self.say(f"P{p + 1}'s action segment", kind="segment", data={"player": p})
        queue = []
        for cid in self.crew[p]:
            card = self.data.cards[cid]
            if card.kind != "passive":
                continue
            effect = card.effect
            assert effect is not None
            if effect.needs_flag >= 0 and not has_flag(self.flags_now(p), effect.needs_flag):
                continue
            if effect.kind == "gain":
                self.start_effect(p, effect, card.name)
            else:
                queue.append(cid)
        return tuple(queue)

    def end_segment(self, p: int) -> None:
        """F16, F17: p's influence is recalculated; reaching the goal ends the game after
        this round."""
        self.influence[p] = sum(self.data.cards[c].influence for c in self.completed[p])
        if self.logging:
            self.say(f"P{p + 1} ends the segment with {self.influence[p]} influence",
                     kind="score", data={"player": p, "influence": self.influence[p]})
        if self.influence[p] >= self.options.goal and not self.end_triggered:
            self.end_triggered = True
            if self.logging:
                self.say(f"P{p + 1} has reached {self.options.goal} influence: "
                         "the game ends after this round", kind="end_triggered",
                         data={"player": p, "goal": self.options.goal})

    def end_round(self) -> bool:
        """After the last segment: end the game if it is over (F17, R29). Returns whether
        the bag is too short for the next round's crates (R23.2)."""
        if self.end_triggered:
            self.end_reason = "goal"
        elif self.round >= self.options.max_rounds:
            self.end_reason = "round cap"
        elif (not self.quest_deck and all(c < 0 for c in self.quest_row)
              and not any(self.quests)):
            self.end_reason = "quests exhausted"
        if self.end_reason:
            if self.logging:
                self.say(f"Game over after round {self.round} ({self.end_reason}). Influence: "
                         + ", ".join(f"P{q + 1} {self.influence[q]}" for q in range(self.n)),
                         kind="game_over", data={"reason": self.end_reason,
                                                 "influence": list(self.influence)})
            return False
        need = 3 * self.n
        if sum(self.bag) < need:
            # R23.2: Phase 1 must draw 3 x P dice (F1) and F9 lets dice carry over, so only when
            # the bag is short do holds give dice back, just enough, biggest hold first
            if self.logging:
                self.say(f"The bag holds {sum(self.bag)} dice and Phase 1 needs {need}: the "
                         "players with the most dice return dice until it has enough",
                         kind="bag_short", data={"bag": sum(self.bag), "need": need})
            return True
        return False

    def short_player(self) -> int:
        """Who returns the next die to a short bag: the most dice, ties to the earliest in
        the pick order of the round just played."""
        order = self.pick_order
        return max(order, key=lambda q: (len(self.dice[q]), -order.index(q)))

    # -- the segment's operations (carried out by the rules in rules.py) ---------------------
    def step_actions(self, p: int, step: int, first: bool = False) -> list[Action]:
        """The actions of Step 2-5 (with ``first``: stop at the first one found)."""
        if step == 2:
            return self._activations(p, first)
        if step == 3:
            return self._dice_uses(p, first)
        if step == 4:
            return self._purchases(p, first)
        if step == 5:
            return self._advances(p)
        return []

    def _activations(self, p: int, first: bool) -> list[Action]:
        """Step 2 (F11): the active crew abilities p may activate."""
        out: list[Action] = []
        crew = self.crew[p]
        if not crew:
            return out
        cards = self.data.cards
        activate = self.actions.activate
        used = self.used_crew
        gold, rum = self.gold[p], self.rum[p]
        need_effect = self.options.actives_need_effect
        seen = set()
        for i, cid in enumerate(crew):
            card = cards[cid]
            if card.kind != "active" or i in used or cid in seen:
                continue
            seen.add(cid)
            assert card.effect is not None
            # F11: any payable ability may be activated, even one with nothing to act
            # on now (it still counts as "used an active"); the option restricts this
            if (gold >= card.pay_gold and rum >= card.pay_rum
                    and (not need_effect or self.effect_possible(p, card.effect))):
                out.append(activate[cid])
                if first:
                    return out
        return out

    def _dice_uses(self, p: int, first: bool) -> list[Action]:
        """Step 3 (F12): the dice p may spend for their colour's action."""
        out: list[Action] = []
        dice = self.dice[p]
        if not dice:
            return out
        colours = self.data.colours
        use = self.actions.use
        idle = self.options.idle_dice_actions
        able: dict[int, bool] = {}  # per colour: whether its action may be spent now
        for d in dict.fromkeys(dice):
            colour = d // 10
            ok = able.get(colour)
            if ok is None:
                action = colours[colour].action
                # a sabotage always needs a target (notes §4.3); with the option, other
                # actions may be spent for nothing (still "used_<colour>")
                ok = able[colour] = (
                    self.effect_possible(p, action, spare=1)
                    or (idle and action.kind != "sabotage" and action.needs_flag < 0))
            if ok:
                out.append(use[d])
                if first:
                    return out
        return out

    def _purchases(self, p: int, first: bool) -> list[Action]:
        """Step 4 (F13): the market cards whose pattern p's dice can match."""
        out: list[Action] = []
        dice = self.dice[p]
        if not dice:
            return out
        buy, patterns = self.actions.buy, self.actions.patterns
        names = set()
        rows = self.crew_row
        if len(self.quests[p]) < self.options.max_quests:
            rows = rows + self.quest_row
        for cid in rows:
            if cid < 0 or cid in names:
                continue
            if affords(patterns[cid], dice):
                names.add(cid)
                out.append(buy[cid])
                if first:
                    return out
        return out

    def _advances(self, p: int) -> list[Action]:
        """Step 5 (F14): the next tasks of p's quests that p can do now."""
        cards = self.data.cards
        advance, advance_die = self.actions.advance, self.actions.advance_die
        out: list[Action] = []
        flags = -1  # what p did this turn, found when a task first asks
        for quest in self.quests[p]:
            if quest.markers:
                continue  # sabotaged: no task can be done
            cid = quest.card
            task = cards[cid].tasks[quest.done]
            if task.die is not None:
                accepts = task.die.accepts
                for d in dict.fromkeys(self.dice[p]):
                    if d in accepts:
                        out.append(advance_die[cid, d])
            elif task.flag >= 0:
                if flags < 0:
                    flags = self.flags_now(p)
                if has_flag(flags, task.flag):
                    out.append(advance[cid])
            elif self.gold[p] >= task.gold and self.rum[p] >= task.rum:
                out.append(advance[cid])
        return out

    def payable(self, p: int, card: Card, chosen: tuple[int, ...]) -> list[int]:
        """Die codes that may pay the next icon and still leave the rest payable."""
        dice = self.dice[p]
        k = len(chosen)
        icon = card.cost[k]
        rest = card.cost[k + 1:]
        out = []
        for i, d in enumerate(dice):
            if i in chosen or d in out or d not in icon.accepts:
                continue
            left = [x for j, x in enumerate(dice) if j not in chosen and j != i]
            if can_pay(rest, left):
                out.append(d)
        return out

    def buy(self, p: int, row: int, slot: int, card: Card, chosen: tuple[int, ...]) -> None:
        """F13: p pays ``card`` with the hold dice at ``chosen`` (one per icon) and takes it
        from the market ``row``'s ``slot``, which the deck refills."""
        dice = self.dice[p]
        # F12/G10: each icon takes a distinct die still in the hold (a die spent on an
        # action is already back in the bag, so it cannot pay here)
        assert len(set(chosen)) == len(chosen) == len(card.cost)
        paid = [dice[i] for i in chosen]
        for i in sorted(chosen, reverse=True):
            del dice[i]
        for d in paid:
            self.return_die(d)
        if row == CREW_ROW:
            self.crew[p].append(card.id)
            self.set_flag(BOUGHT_CREW)
            self.crew_row[slot] = self._draw(CREW_ROW)
            new = self.crew_row[slot]
        else:
            self.quests[p].append(ActiveQuest(card.id))
            self.set_flag(BOUGHT_QUEST)
            self.quest_row[slot] = self._draw(QUEST_ROW)
            new = self.quest_row[slot]
        if self.logging:
            shown = self.data.cards[new].name if new >= 0 else "nothing (deck empty)"
            self.say(f"P{p + 1} buys {card.name} with {' '.join(self.label(d) for d in paid)}; "
                     f"the market reveals {shown}", kind="buy",
                     data={"player": p, "card": card.name,
                           "dice": [self.label(d) for d in paid], "revealed": shown})

    def _quest_named(self, p: int, key: str) -> int:
        """The index of p's first active quest whose card has the lower-case name ``key``."""
        cards = self.data.cards
        return next(k for k, quest in enumerate(self.quests[p]) if cards[quest.card].key == key)

    def advance(self, p: int, a: Advance) -> None:
        """Step 5 (F14): do the next task of a quest; the last one completes it."""
        quests = self.quests[p]
        k = self._quest_named(p, a.quest)
        quest = quests[k]
        card = self.data.cards[quest.card]
        task = card.tasks[quest.done]
        self.gold[p] -= task.gold
        self.rum[p] -= task.rum
        if task.die is not None:
            self.dice[p].remove(a.die)
            self.return_die(a.die)
        quest = quests[k] = quest.advanced()
        if self.logging:
            self.say(f"P{p + 1} completes task '{task.text}' of {card.name}"
                     + (f" with {a.label}" if a.label else ""), kind="task",
                     data={"player": p, "quest": card.name, "task": quest.done - 1})
        if quest.done == len(card.tasks):
            del quests[k]
            self.completed[p].append(card.id)
            if self.logging:
                self.say(f"P{p + 1} completes the quest {card.name} "
                         f"({card.influence} influence)", kind="quest",
                         data={"player": p, "quest": card.name,
                               "influence": card.influence})

    def remove_marker(self, p: int, a: Remove | Extra) -> None:
        """A sabotage marker comes off one of p's quests (``Extra``: for gold, Step 6)."""
        data = self.data
        quests = self.quests[p]
        k = self._quest_named(p, a.quest)
        quest = quests[k] = quests[k].with_markers(quests[k].markers - 1)
        paid = isinstance(a, Extra)
        if paid:
            self.gold[p] -= data.extra_removal_gold
        if self.logging:
            name = data.cards[quest.card].name
            cost = f" for {data.extra_removal_gold} gold" if paid else ""
            self.say(f"P{p + 1} removes a sabotage marker from {name}{cost}",
                     kind="remove_marker", data={"player": p, "quest": name, "paid": paid})

    def sabotage(self, p: int, a: Target) -> None:
        """p puts a sabotage marker on an opponent's quest (a red die, a Gunner, R21, R25)."""
        quests = self.quests[a.player]
        k = self._quest_named(a.player, a.quest)
        quest = quests[k] = quests[k].with_markers(quests[k].markers + 1)
        if self.logging:
            name = self.data.cards[quest.card].name
            self.say(f"P{p + 1} puts a sabotage marker on P{a.player + 1}'s {name}",
                     kind="sabotage", data={"player": p, "target": a.player, "quest": name})

    def give_back(self, p: int, a: Return, why: str) -> None:
        """A die of p's hold goes back to the bag (a short bag, or the carry-over cap)."""
        self.dice[p].remove(a.die)
        self.return_die(a.die)
        if self.logging:
            self.say(f"P{p + 1} returns {a.label} to the bag ({why})", kind="return",
                     data={"player": p, "die": a.label})

    def cycle(self, p: int, a: Cycle) -> None:
        """Cartographer: the named market card goes under its deck; the next one shows."""
        cards = self.data.cards
        for row, deck in ((CREW_ROW, self.crew_deck), (QUEST_ROW, self.quest_deck)):
            market = self.crew_row if row == CREW_ROW else self.quest_row
            for slot, c in enumerate(market):
                if c >= 0 and cards[c].key == a.card and deck:
                    deck.put_bottom(c)
                    market[slot] = self._draw(row)
                    if self.logging:
                        self.say(f"P{p + 1} puts {cards[c].name} under its deck and "
                                 f"reveals {cards[market[slot]].name}", kind="cycle",
                                 data={"player": p, "card": cards[c].name,
                                       "revealed": cards[market[slot]].name})
                    return
        raise AssertionError(a)

    # -- clear reasons for illegal text ------------------------------------------------------
    def explain_illegal(self, p: int, text: str) -> str:
        """Why ``text`` is not legal for p now (the rules reason), or '' if no better reason."""
        return why_illegal(self, p, text)

    # -- scores, view, clone --------------------------------------------------------------------
    def scores(self) -> list[float]:
        return [float(x) for x in self.influence]

    def stats(self) -> dict[str, float | str]:
        return {"rounds": float(self.round), "end": self.end_reason or "running",
                "top_influence": float(max(self.influence))}

    # -- conformance hooks ----------------------------------------------------------------
    def check_invariants(self) -> None:
        """Every die, card, trick card and marker accounted for; counters in bounds; the
        phase fields consistent (R20, R22, R26, R27, F6)."""
        data, n = self.data, self.n
        # dice (R22): per colour, bag + crates + holds = the colour's count; faces 1..faces
        held = [0] * len(data.colours)
        for d in [d for c in self.crates if c is not None for d in c] + [
                d for hold in self.dice for d in hold]:
            colour, face = divmod(d, 10)
            assert 0 <= colour < len(data.colours) and 1 <= face <= data.faces, (
                f"bad die code {d}")
            held[colour] += 1
        for c, col in enumerate(data.colours):
            assert self.bag[c] >= 0 and self.bag[c] + held[c] == col.count, (
                f"{col.name} dice: bag {self.bag[c]} + out {held[c]} != {col.count}")
        # crew cards: deck + market + holds = the crew deck
        crew = self.crew_deck.cards + [c for c in self.crew_row if c >= 0] + [
            c for cs in self.crew for c in cs]
        assert sorted(crew) == sorted(data.crew_deck), "crew cards lost or duplicated"
        # quests: deck + market + active + completed = the quest deck + one start per player
        quests = self.quest_deck.cards + [c for c in self.quest_row if c >= 0] + [
            quest.card for held_quests in self.quests for quest in held_quests] + [
            c for done in self.completed for c in done]
        assert sorted(quests) == sorted((*data.quest_deck, *[data.starting_quest] * n)), (
            "quest cards lost or duplicated")
        self.crew_deck.check()
        self.quest_deck.check()
        for p in range(n):
            # F6: hand + played pile = the trick cards
            assert sorted(self.hands[p] + self.played[p]) == sorted(data.trick_cards), (
                f"P{p + 1}'s trick cards lost or duplicated")
            assert self.gold[p] >= 0 and self.rum[p] >= 0, f"P{p + 1} has negative gold/rum"
            assert len(self.quests[p]) <= max(self.options.max_quests, 1), (
                f"P{p + 1} holds too many active quests")
            for quest in self.quests[p]:
                card = data.cards[quest.card]
                assert 0 <= quest.done < len(card.tasks), f"{card.name}: task index {quest.done}"
                assert 0 <= quest.markers <= data.max_markers, (
                    f"{card.name}: {quest.markers} markers")
            total = sum(data.cards[c].influence for c in self.completed[p])
            assert 0 <= self.influence[p] <= total, f"P{p + 1}'s influence {self.influence[p]}"
        assert 1 <= self.round <= self.options.max_rounds, f"round {self.round}"
        # the decision stack: every step a known kind; the phase and the table agree
        for st in self.steps:
            assert st.kind in self.STEPS, f"unknown step {st.kind!r}"
        phase = self.phase
        if phase == TRICK:
            waiting = self.waiting
            assert waiting, "a trick with nobody to reveal"
            for p in range(n):
                c = self.committed[p]
                assert c < 0 or (p in waiting and c in self.trick_choices(p)), (
                    f"P{p + 1}'s commitment {c} is not a legal card")
                if p in waiting and c < 0:
                    assert len(self.trick_choices(p)) >= 1, f"P{p + 1} has no card to play"
        elif phase == PICK:
            left = sum(c is not None for c in self.crates)
            mover = self.steps[-1].players
            assert 0 < left <= n and mover == (self.pick_order[n - left],), (
                "crate count vs picks")
        else:
            assert all(c is None for c in self.crates), "crates left after the picks"
        if phase == SEG:
            assert 1 <= self.step <= 6, f"segment step {self.step}"
            crew = self.crew[self.segment_player()]
            assert all(0 <= i < len(crew) for i in self.used_crew), "used index"
        if phase == SHORT:
            assert sum(self.bag) < 3 * n, "bag-short phase with a full enough bag"
        if phase == OVER:
            assert self.end_reason, "game over without a reason"

    def private_items(self, player: int) -> dict[str, Any]:
        """Only a pending secret trick card is private (R30): as it appears in the view."""
        if self.phase == TRICK and self.committed[player] >= 0:
            return {"my_commit": {"player": player, "card": self.committed[player]}}
        return {}

    def tiebreak(self, player: int) -> tuple[float, ...]:
        """``TIEBREAK``: quests completed, then gold and rum together (R29)."""
        return (float(len(self.completed[player])), float(self.gold[player] + self.rum[player]))

    def _view(self, player: int | None) -> dict[str, Any]:
        return build_view(self, player)

    def clone(self) -> HighWaterState:
        s: HighWaterState = self._clone_base()
        s.data = self.data
        s.actions = self.actions
        s.memo = None
        s.bag = self.bag[:]
        s.crates = self.crates[:]
        s.hands = [seat[:] for seat in self.hands]
        s.played = [seat[:] for seat in self.played]
        s.committed = self.committed[:]
        s.revealed = [seat[:] for seat in self.revealed]
        s.rereveals = self.rereveals
        s.pick_order = self.pick_order[:]
        s.dice = [seat[:] for seat in self.dice]
        s.gold = self.gold[:]
        s.rum = self.rum[:]
        s.crew = [seat[:] for seat in self.crew]
        s.used_crew = self.used_crew[:]
        s.quests = [seat[:] for seat in self.quests]  # the quests themselves are frozen
        s.completed = [seat[:] for seat in self.completed]
        s.influence = self.influence[:]
        s.trick_winner = self.trick_winner
        s.last_picker = self.last_picker
        s.segment_flags = self.segment_flags
        s.crew_deck = self.crew_deck.copy()
        s.quest_deck = self.quest_deck.copy()
        s.crew_row = self.crew_row[:]
        s.quest_row = self.quest_row[:]
        s.end_triggered = self.end_triggered
        s.end_reason = self.end_reason
        s.round = self.round
        s.high_water = self.high_water
        return s

    def _resample(self, player: int, rng: Rng) -> None:
        """Deck orders (except cards known to sit at the bottom) and others' secret cards."""
        self.crew_deck.resample(rng)  # the part nobody has seen, sorted then shuffled
        self.quest_deck.resample(rng)
        for q in range(self.n):
            if q != player and self.committed[q] >= 0:
                self.committed[q] = rng.choice(self.trick_choices(q))


pickle_records(globals())  # records pickle as calls with their fields (docs/BUILD.md)
