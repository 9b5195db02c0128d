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
from typing import Any, ClassVar, cast

from cove.core.components import Deck
from cove.core.decisions import Step, StepRule
from cove.core.rng import Rng
from cove.core.state import Action, State
from cove.games.high_water.actions import (
    Advance,
    Cycle,
    Extra,
    Remove,
    Return,
    Tables,
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
    OVER,
    PICK,
    QUEST_ROW,
    SEG,
    SHORT,
    STEPS,
    TRICK,
    Choice,
    Rule,
)
from cove.games.high_water.view import build_view

TIEBREAK = ("most quests completed", "most gold and rum together")
"""What ``HighWaterState.tiebreak`` compares, in its order (R29)."""


class HighWaterState(State):
    __slots__ = (
        "D",
        "T",
        "bag",
        "commit",
        "crates",
        "crew",
        "crew_deck",
        "crew_row",
        "dice",
        "done_q",
        "end_reason",
        "gold",
        "hands",
        "high",
        "influence",
        "keys",
        "last",
        "memo",
        "order",
        "played",
        "quest_deck",
        "quest_row",
        "quests",
        "rereveals",
        "rnd",
        "rum",
        "sflags",
        "triggered",
        "used",
        "won",
    )

    STEPS: ClassVar[Mapping[str, StepRule[HighWaterState]]] = STEPS
    DERIVED = ("D", "T", "memo")  # rebuilt by setup(): the data and its tables; a scratch memo

    D: HWData
    T: Tables
    memo: tuple[Step, list[Action]] | None

    @property
    def opts(self) -> HighWaterOptions:
        """``options``, as High Water's own (the base class's attribute is typed Options,
        which a compiled subclass may not narrow)."""
        return cast(HighWaterOptions, self.options)

    # -- setup -------------------------------------------------------------------------------
    def setup(self) -> None:
        D = self.D = get(self.opts.data_file)
        self.T = tables(D)
        self.memo = None
        n = self.n
        self.bag = [c.count for c in D.colours]
        self.crates: list[tuple[int, ...] | None] = []
        self.hands = [list(D.trick_cards) for _ in range(n)]
        self.played: list[list[int]] = [[] for _ in range(n)]
        self.commit = [-1] * n
        self.keys: list[list[int]] = [[] for _ in range(n)]
        self.rereveals = 0
        self.order: list[int] = []
        self.dice: list[list[int]] = [[] for _ in range(n)]
        self.gold = [D.gold] * n
        self.rum = [D.rum] * n
        self.crew: list[list[int]] = [[] for _ in range(n)]
        self.used: list[int] = []
        self.quests: list[list[list[int]]] = [[[D.starting_quest, 0, 0]] for _ in range(n)]
        self.done_q: list[list[int]] = [[] for _ in range(n)]
        self.influence = [0] * n
        self.won = -1
        self.last = -1
        self.sflags = 0
        self.crew_deck = Deck(D.crew_deck)
        self.crew_deck.shuffle(self.rng)
        self.quest_deck = Deck(D.quest_deck)
        self.quest_deck.shuffle(self.rng)
        self.crew_row = [self._draw(CREW_ROW) for _ in range(D.crew_row)]
        self.quest_row = [self._draw(QUEST_ROW) for _ in range(D.quest_row)]
        self.triggered = False
        self.end_reason = ""
        self.rnd = 0
        self.high = True
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
        for st in reversed(self.steps):
            rule = rules[st.kind]
            assert isinstance(rule, Rule)
            k = rule.seg_step(st)
            if k is not None:
                return k
        return 0

    @property
    def pending(self) -> Step | None:
        """The open sub-decision of a segment (a sabotage target, dice to pay, ...)."""
        if self.steps and isinstance(self._rule(), Choice):
            return self.top_step
        return None

    def pending_text(self) -> str:
        """The open sub-decision in words ("" when there is none)."""
        pend = self.pending
        if pend is None:
            return ""
        rule = self._rule()
        assert isinstance(rule, Choice)
        return rule.text(self, pend)

    def cur(self) -> int:
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

    def lab(self, die: int) -> str:
        return self.D.label[die]

    def flags_now(self, p: int) -> int:
        f = self.sflags
        if p == self.won:
            f |= 1 << WON_TRICK
        if p == self.last:
            f |= 1 << LAST_CRATE
        return f

    def return_die(self, die: int) -> None:
        self.bag[die // 10] += 1

    def roll(self, colour: int) -> int:
        return colour * 10 + self.rng.randint(1, self.D.faces)

    def targets(self, p: int, leader: bool) -> list[tuple[int, int]]:
        """(opponent, quest index) pairs that may take a sabotage marker from p."""
        cap = self.D.max_markers
        out = [
            (o, k)
            for o in range(self.n)
            if o != p
            for k, q in enumerate(self.quests[o])
            if q[2] < cap
        ]
        if leader and out:
            best = max(self.influence[o] for o, _ in out)
            out = [(o, k) for o, k in out if self.influence[o] == best]
        return out

    def marked_quests(self, p: int) -> list[int]:
        return [k for k, q in enumerate(self.quests[p]) if q[2] > 0]

    def effect_possible(self, p: int, e: Effect, spare: int = 0) -> bool:
        """Whether an effect can do something (``spare``: dice excluded, e.g. the blue die)."""
        k = e.kind
        if e.cond >= 0 and not self.flags_now(p) >> e.cond & 1:
            return False
        if k == "gain":
            return True
        if k == "sabotage":  # some target (the leaders among them, if asked, are some)
            cap = self.D.max_markers
            quests = self.quests
            return any(q[2] < cap for o in range(self.n) if o != p for q in quests[o])
        if k == "remove_marker":
            return any(q[2] for q in self.quests[p])
        if k == "reroll":
            return len(self.dice[p]) - spare >= e.lo
        if k == "set_face":
            return bool(self.dice[p])
        if k == "cycle_market":
            return bool(self.cyclable())
        return False

    def cyclable(self) -> list[tuple[int, int]]:
        out = []
        if self.crew_deck:
            out += [(CREW_ROW, i) for i, c in enumerate(self.crew_row) if c >= 0]
        if self.quest_deck:
            out += [(QUEST_ROW, i) for i, c in enumerate(self.quest_row) if c >= 0]
        return out

    def start_effect(self, p: int, e: Effect, source: str, by_face: int = 0) -> None:
        """Resolve an effect now, or push the sub-decision it needs."""
        k = e.kind
        if k == "gain":
            if e.by_face:
                amt = e.by_face[by_face - 1]
                g, r = (amt, 0) if e.resource == "gold" else (0, amt)
            else:
                g, r = e.gold, e.rum
            self.gold[p] += g
            self.rum[p] += r
            if self.logging:
                got = " and ".join(x for x in (f"{g} gold" if g else "", f"{r} rum" if r else "")
                                   if x) or "nothing"
                self.say(f"P{p + 1} gains {got} ({source})", kind="gain",
                         data={"player": p, "gold": g, "rum": r, "source": source})
        elif k == "sabotage":
            self.push(Step("sabotage", (p,), (e.target == "leader", source)))
        elif k == "remove_marker":
            self.push(Step("remove_marker", (p,), (source,)))
        elif k == "reroll":
            self.push(Step("reroll", (p,), (e.lo, e.hi, (), source)))
        elif k == "set_face":
            self.push(Step("set_die", (p,)))
        elif k == "cycle_market":
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
        self.rnd += 1
        n, D = self.n, self.D
        drawn = []
        bag = self.bag
        for _ in range(3 * n):
            r = self.rng.below(sum(bag))
            c = 0
            while r >= bag[c]:
                r -= bag[c]
                c += 1
            bag[c] -= 1
            drawn.append(self.roll(c))
        self.crates = [tuple(drawn[3 * i:3 * i + 3]) for i in range(n)]
        self.high = self.rng.below(2) == 0
        self.commit = [-1] * n
        self.keys = [[] for _ in range(n)]
        self.rereveals = 0
        self.order = []
        self.won = self.last = -1
        if self.logging:
            self.say(f"Round {self.rnd}: crates " + " | ".join(
                f"{i + 1}: " + " ".join(D.label[d] for d in c or ())
                for i, c in enumerate(self.crates)), kind="round",
                data={"round": self.rnd,
                      "crates": [[D.label[d] for d in c or ()] for c in self.crates]})
            coin = ("HIGH water: the highest card wins" if self.high
                    else "LOW water: the lowest card wins")
            self.say("The water coin shows " + coin, kind="water",
                     data={"water": "high" if self.high else "low"})

    def _play_card(self, p: int, v: int) -> None:
        """A trick card goes to the played pile; F6 replenishment at 1 card left."""
        hand = self.hands[p]
        hand.remove(v)
        pile = self.played[p]
        pile.append(v)
        self.keys[p].append(v)
        if len(hand) == 1:
            back = [c for c in pile if c != v]
            hand.extend(back)
            hand.sort()
            self.played[p] = [v]
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
        ks = self.keys[p]
        return sorted(v for v in self.hands[p] if v not in ks)

    def _rank_key(self, p: int) -> tuple[int, ...]:
        ks = self.keys[p]
        return tuple(-v for v in ks) if self.high else tuple(ks)

    def _tie_groups(self) -> list[list[int]]:
        """Groups of players still tied, best rank first."""
        groups: dict[tuple[int, ...], list[int]] = {}
        for p in range(self.n):
            groups.setdefault(self._rank_key(p), []).append(p)
        return [g for k, g in sorted(groups.items()) if len(g) > 1]

    def _why_no_rereveal(self, g: Sequence[int]) -> str:
        """'' if the tied group g re-reveals now (F5), else why chance orders it instead."""
        if self.opts.tie_scope == "first" and any(
                self._rank_key(p) < self._rank_key(g[0]) for p in range(self.n)):
            return "Tied below first place (DESIGN variant tie_scope=first: no re-reveal)"
        if not all(self._new_cards(p) for p in g):
            return ("Still tied and no re-reveal can break the tie (a tied player has "
                    "revealed every trick card)")
        if self.rereveals >= self.opts.tie_rereveals:
            return (f"Still tied after {self.rereveals} re-reveals (the cap set by option "
                    "tie_rereveals)")
        return ""

    @property
    def waiting(self) -> tuple[int, ...]:
        """The players revealing in the trick now (everyone, or a tied group)."""
        top = self.top_step
        if top is not None and top.kind == "trick":
            group: tuple[int, ...] = top.data[0]
            return group
        return ()

    def reveal_trick(self, waiting: tuple[int, ...]) -> tuple[int, ...]:
        """All commitments are in: reveal them. Returns the tied players who re-reveal (F5),
        or () when the pick order is fixed."""
        self.reveal()
        for p in waiting:
            self._play_card(p, self.commit[p])
        if self.logging:
            what = "reveal" if self.rereveals == 0 else f"re-reveal {self.rereveals}"
            self.say(f"Trick {what}: " + ", ".join(
                f"P{p + 1} {self.commit[p]}" for p in waiting), kind="reveal",
                data={"rereveal": self.rereveals,
                      "cards": {str(p): self.commit[p] for p in waiting}})
        self.commit = [-1] * self.n
        tied = self._tie_groups()
        # R5: every tied group re-reveals while its players still hold a card they have not
        # revealed in this trick; a new card each time, so this ends within the trick cards
        live = [g for g in tied if not self._why_no_rereveal(g)]
        if live:
            self.rereveals += 1
            if self.logging:
                self.say("Tie: " + "; ".join(" and ".join(f"P{p + 1}" for p in g)
                                             for g in live) + " choose and reveal a new card",
                         kind="tie", data={"groups": [list(g) for g in live]})
            return tuple(sorted(p for g in live for p in g))
        # every tie left is ordered by the seeded RNG (never by seat), with the reason logged
        tb = [0] * self.n
        for g in tied:
            why = self._why_no_rereveal(g)
            perm = list(range(len(g)))
            self.rng.shuffle(perm)
            for p, r in zip(g, perm, strict=True):
                tb[p] = r
            if self.logging:
                self.say(why + ": the order of "
                         + " and ".join(f"P{p + 1}" for p in g) + " is drawn at random",
                         kind="tie_chance", data={"players": list(g)})
        self.order = sorted(range(self.n), key=lambda p: (self._rank_key(p), tb[p]))
        self.won, self.last = self.order[0], self.order[-1]
        if self.logging:
            self.say(f"P{self.won + 1} wins the trick. Crate pick order: "
                     + ", ".join(f"P{p + 1}" for p in self.order), kind="trick",
                     data={"winner": self.won, "order": list(self.order)})
        return ()

    def take(self, p: int, i: int) -> None:
        crate = self.crates[i]
        assert crate is not None
        self.dice[p].extend(crate)
        self.crates[i] = None
        if self.logging:
            self.say(f"P{p + 1} takes crate {i + 1} ({' '.join(self.lab(d) for d in crate)})",
                     kind="take", data={"player": p, "crate": i,
                                        "dice": [self.lab(d) for d in crate]})

    def start_segment(self, p: int) -> tuple[int, ...]:
        """Step 1 (F10): gains resolve at once; returns the passives that need a choice."""
        self.sflags = 0
        self.used = []
        if self.logging:
            self.say(f"P{p + 1}'s action segment", kind="segment", data={"player": p})
        queue = []
        for cid in self.crew[p]:
            card = self.D.cards[cid]
            if card.kind != "passive":
                continue
            e = card.effect
            assert e is not None
            if e.cond >= 0 and not self.flags_now(p) >> e.cond & 1:
                continue
            if e.kind == "gain":
                self.start_effect(p, e, card.name)
            else:
                queue.append(cid)
        return tuple(queue)

    def end_segment(self, p: int) -> None:
        self.influence[p] = sum(self.D.cards[c].influence for c in self.done_q[p])
        if self.logging:
            self.say(f"P{p + 1} ends the segment with {self.influence[p]} influence",
                     kind="score", data={"player": p, "influence": self.influence[p]})
        if self.influence[p] >= self.opts.goal and not self.triggered:
            self.triggered = True
            if self.logging:
                self.say(f"P{p + 1} has reached {self.opts.goal} influence: "
                         "the game ends after this round", kind="end_triggered",
                         data={"player": p, "goal": self.opts.goal})

    def end_round(self) -> bool:
        """After the last segment: end the game if it is over (F17, R29). Returns whether
        the bag is too short for the next round's crates (R23.2)."""
        if self.triggered:
            self.end_reason = "goal"
        elif self.rnd >= self.opts.max_rounds:
            self.end_reason = "round cap"
        elif (not self.quest_deck and all(c < 0 for c in self.quest_row)
              and not any(self.quests)):
            self.end_reason = "quests exhausted"
        if self.end_reason:
            if self.logging:
                self.say(f"Game over after round {self.rnd} ({self.end_reason}). Influence: "
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
        return max(self.order, key=lambda q: (len(self.dice[q]), -self.order.index(q)))

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
        cards = self.D.cards
        activate = self.T.activate
        used = self.used
        gold, rum = self.gold[p], self.rum[p]
        need_effect = self.opts.actives_need_effect
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
        colours = self.D.colours
        use = self.T.use
        idle = self.opts.idle_dice_actions
        able: dict[int, bool] = {}  # per colour: whether its action may be spent now
        for d in dict.fromkeys(dice):
            c = d // 10
            ok = able.get(c)
            if ok is None:
                act = colours[c].action
                # a sabotage always needs a target (notes §4.3); with the option, other
                # actions may be spent for nothing (still "used_<colour>")
                ok = able[c] = (self.effect_possible(p, act, spare=1)
                                or (idle and act.kind != "sabotage" and act.cond < 0))
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
        buy, patterns = self.T.buy, self.T.pattern
        names = set()
        rows = self.crew_row
        if len(self.quests[p]) < self.opts.max_quests:
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
        cards = self.D.cards
        T = self.T
        out: list[Action] = []
        f = -1
        for cid, done, marks in self.quests[p]:
            if marks:
                continue  # sabotaged: no task can be done
            t = cards[cid].tasks[done]
            if t.die is not None:
                acc = t.die.accepts
                for d in dict.fromkeys(self.dice[p]):
                    if d in acc:
                        out.append(T.advance_die[cid, d])
            elif t.flag >= 0:
                if f < 0:
                    f = self.flags_now(p)
                if f >> t.flag & 1:
                    out.append(T.advance[cid])
            elif self.gold[p] >= t.gold and self.rum[p] >= t.rum:
                out.append(T.advance[cid])
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
            self.sflags |= 1 << BOUGHT_CREW
            self.crew_row[slot] = self._draw(CREW_ROW)
            new = self.crew_row[slot]
        else:
            self.quests[p].append([card.id, 0, 0])
            self.sflags |= 1 << BOUGHT_QUEST
            self.quest_row[slot] = self._draw(QUEST_ROW)
            new = self.quest_row[slot]
        if self.logging:
            shown = self.D.cards[new].name if new >= 0 else "nothing (deck empty)"
            self.say(f"P{p + 1} buys {card.name} with {' '.join(self.lab(d) for d in paid)}; "
                     f"the market reveals {shown}", kind="buy",
                     data={"player": p, "card": card.name,
                           "dice": [self.lab(d) for d in paid], "revealed": shown})

    def advance(self, p: int, a: Advance) -> None:
        """Step 5 (F14): do the next task of a quest; the last one completes it."""
        D = self.D
        q = next(q for q in self.quests[p] if D.cards[q[0]].key == a.quest)
        card = D.cards[q[0]]
        t = card.tasks[q[1]]
        self.gold[p] -= t.gold
        self.rum[p] -= t.rum
        if t.die is not None:
            self.dice[p].remove(a.die)
            self.return_die(a.die)
        q[1] += 1
        if self.logging:
            self.say(f"P{p + 1} completes task '{t.text}' of {card.name}"
                     + (f" with {a.label}" if a.label else ""), kind="task",
                     data={"player": p, "quest": card.name, "task": q[1] - 1})
        if q[1] == len(card.tasks):
            self.quests[p].remove(q)
            self.done_q[p].append(card.id)
            if self.logging:
                self.say(f"P{p + 1} completes the quest {card.name} "
                         f"({card.influence} influence)", kind="quest",
                         data={"player": p, "quest": card.name,
                               "influence": card.influence})

    def remove_marker(self, p: int, a: Remove | Extra) -> None:
        """A sabotage marker comes off one of p's quests (``Extra``: for gold, Step 6)."""
        D = self.D
        q = next(q for q in self.quests[p] if D.cards[q[0]].key == a.quest)
        q[2] -= 1
        paid = isinstance(a, Extra)
        if paid:
            self.gold[p] -= D.extra_removal_gold
        if self.logging:
            cost = f" for {D.extra_removal_gold} gold" if paid else ""
            self.say(f"P{p + 1} removes a sabotage marker from {D.cards[q[0]].name}{cost}",
                     kind="remove_marker", data={"player": p, "quest": D.cards[q[0]].name,
                                                 "paid": paid})

    def give_back(self, p: int, a: Return, why: str) -> None:
        """A die of p's hold goes back to the bag (a short bag, or the carry-over cap)."""
        self.dice[p].remove(a.die)
        self.return_die(a.die)
        if self.logging:
            self.say(f"P{p + 1} returns {a.label} to the bag ({why})", kind="return",
                     data={"player": p, "die": a.label})

    def cycle(self, p: int, a: Cycle) -> None:
        """Cartographer: the named market card goes under its deck; the next one shows."""
        D = self.D
        for row, deck in ((CREW_ROW, self.crew_deck), (QUEST_ROW, self.quest_deck)):
            cards = self.crew_row if row == CREW_ROW else self.quest_row
            for i, c in enumerate(cards):
                if c >= 0 and D.cards[c].key == a.card and deck:
                    deck.put_bottom(c)
                    cards[i] = self._draw(row)
                    if self.logging:
                        self.say(f"P{p + 1} puts {D.cards[c].name} under its deck and "
                                 f"reveals {D.cards[cards[i]].name}", kind="cycle",
                                 data={"player": p, "card": D.cards[c].name,
                                       "revealed": D.cards[cards[i]].name})
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
        return {"rounds": float(self.rnd), "end": self.end_reason or "running",
                "top_influence": float(max(self.influence))}

    # -- conformance hooks ----------------------------------------------------------------
    def check_invariants(self) -> None:
        """Every die, card, trick card and marker accounted for; counters in bounds; the
        phase fields consistent (R20, R22, R26, R27, F6)."""
        D, n = self.D, self.n
        # dice (R22): per colour, bag + crates + holds = the colour's count; faces 1..faces
        held = [0] * len(D.colours)
        for d in [d for c in self.crates if c is not None for d in c] + [
                d for hold in self.dice for d in hold]:
            c, f = divmod(d, 10)
            assert 0 <= c < len(D.colours) and 1 <= f <= D.faces, f"bad die code {d}"
            held[c] += 1
        for c, col in enumerate(D.colours):
            assert self.bag[c] >= 0 and self.bag[c] + held[c] == col.count, (
                f"{col.name} dice: bag {self.bag[c]} + out {held[c]} != {col.count}")
        # crew cards: deck + market + holds = the crew deck
        crew = self.crew_deck.cards + [c for c in self.crew_row if c >= 0] + [
            c for cs in self.crew for c in cs]
        assert sorted(crew) == sorted(D.crew_deck), "crew cards lost or duplicated"
        # quests: deck + market + active + completed = the quest deck + one start per player
        quests = self.quest_deck.cards + [c for c in self.quest_row if c >= 0] + [
            q[0] for qs in self.quests for q in qs] + [c for d in self.done_q for c in d]
        assert sorted(quests) == sorted((*D.quest_deck, *[D.starting_quest] * n)), (
            "quest cards lost or duplicated")
        self.crew_deck.check()
        self.quest_deck.check()
        for p in range(n):
            # F6: hand + played pile = the trick cards
            assert sorted(self.hands[p] + self.played[p]) == sorted(D.trick_cards), (
                f"P{p + 1}'s trick cards lost or duplicated")
            assert self.gold[p] >= 0 and self.rum[p] >= 0, f"P{p + 1} has negative gold/rum"
            assert len(self.quests[p]) <= max(self.opts.max_quests, 1), (
                f"P{p + 1} holds too many active quests")
            for cid, done, marks in self.quests[p]:
                card = D.cards[cid]
                assert 0 <= done < len(card.tasks), f"{card.name}: task index {done}"
                assert 0 <= marks <= D.max_markers, f"{card.name}: {marks} markers"
            total = sum(D.cards[c].influence for c in self.done_q[p])
            assert 0 <= self.influence[p] <= total, f"P{p + 1}'s influence {self.influence[p]}"
        assert 1 <= self.rnd <= self.opts.max_rounds, f"round {self.rnd}"
        # the decision stack: every step a known kind; the phase and the table agree
        for st in self.steps:
            assert st.kind in self.STEPS, f"unknown step {st.kind!r}"
        ph = self.phase
        if ph == TRICK:
            waiting = self.waiting
            assert waiting, "a trick with nobody to reveal"
            for p in range(n):
                c = self.commit[p]
                assert c < 0 or (p in waiting and c in self.trick_choices(p)), (
                    f"P{p + 1}'s commitment {c} is not a legal card")
                if p in waiting and c < 0:
                    assert len(self.trick_choices(p)) >= 1, f"P{p + 1} has no card to play"
        elif ph == PICK:
            left = sum(c is not None for c in self.crates)
            mover = self.steps[-1].players
            assert 0 < left <= n and mover == (self.order[n - left],), "crate count vs picks"
        else:
            assert all(c is None for c in self.crates), "crates left after the picks"
        if ph == SEG:
            assert 1 <= self.step <= 6, f"segment step {self.step}"
            assert all(0 <= i < len(self.crew[self.cur()]) for i in self.used), "used index"
        if ph == SHORT:
            assert sum(self.bag) < 3 * n, "bag-short phase with a full enough bag"
        if ph == OVER:
            assert self.end_reason, "game over without a reason"

    def private_items(self, player: int) -> dict[str, Any]:
        """Only a pending secret trick card is private (R30): as it appears in the view."""
        if self.phase == TRICK and self.commit[player] >= 0:
            return {"my_commit": {"player": player, "card": self.commit[player]}}
        return {}

    def tiebreak(self, player: int) -> tuple[float, ...]:
        """``TIEBREAK``: quests completed, then gold and rum together (R29)."""
        return (float(len(self.done_q[player])), float(self.gold[player] + self.rum[player]))

    def _view(self, player: int | None) -> dict[str, Any]:
        return build_view(self, player)

    def clone(self) -> HighWaterState:
        s: HighWaterState = self._clone_base()
        s.D = self.D
        s.T = self.T
        s.memo = None
        s.bag = self.bag[:]
        s.crates = self.crates[:]
        copy = list.copy  # one list per seat: copied by map, without a loop in Python
        s.hands = list(map(copy, self.hands))
        s.played = list(map(copy, self.played))
        s.commit = self.commit[:]
        s.keys = list(map(copy, self.keys))
        s.rereveals = self.rereveals
        s.order = self.order[:]
        s.dice = list(map(copy, self.dice))
        s.gold = self.gold[:]
        s.rum = self.rum[:]
        s.crew = list(map(copy, self.crew))
        s.used = self.used[:]
        s.quests = [[q[:] for q in qs] for qs in self.quests]
        s.done_q = list(map(copy, self.done_q))
        s.influence = self.influence[:]
        s.won = self.won
        s.last = self.last
        s.sflags = self.sflags
        s.crew_deck = self.crew_deck.copy()
        s.quest_deck = self.quest_deck.copy()
        s.crew_row = self.crew_row[:]
        s.quest_row = self.quest_row[:]
        s.triggered = self.triggered
        s.end_reason = self.end_reason
        s.rnd = self.rnd
        s.high = self.high
        return s

    def _resample(self, player: int, rng: Rng) -> None:
        """Deck orders (except cards known to sit at the bottom) and others' secret cards."""
        self.crew_deck.resample(rng)  # the part nobody has seen, sorted then shuffled
        self.quest_deck.resample(rng)
        for q in range(self.n):
            if q != player and self.commit[q] >= 0:
                self.commit[q] = rng.choice(self.trick_choices(q))
