"""The decision steps of a turn (RULES.md R3-R9, SPEC.md, Decisions): one ``StepRule``
per kind of step, in the order a turn runs them, and the ``STEPS`` table.

A turn is a series of simultaneous steps in which every mover makes exactly ONE decision:
first the draw step (everyone draws the turn's segment, or passes when nothing fits);
then, while anyone owes bonus segments (one per last sight of a kind linked), a bonus
step for those players only: one bonus segment each, or pass to decline. A player's
segment goes onto their own sheet at once (their own view shows it), but other players
see that sheet as it was at the start of the step (a snapshot) until every mover is
done; then the step is revealed in the public log. Because each mover decides once per
step and who owes a bonus is only known after the reveal, ``to_move()`` never shows a
pending bonus chain (R3.8). When no bonus is owed the turn resolves: blue and red bonus
cards go to whoever completed them this turn, and the next two cards are revealed (or
the round is scored).

``draw`` and ``bonus`` are the two kinds of decision (secret, simultaneous: their step's
players shrink as they commit); the flow between them is automatic steps: ``flip``,
``reveal_step``, ``end_turn`` and ``end_round``. A lone ``pass`` is not forced: it stays
an explicit decision in the record (R3.7).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from itertools import compress
from typing import TYPE_CHECKING, Any

from cove.core.decisions import AUTO, Step, StepRule
from cove.games.trails_of_tucana.actions import PASS, Action
from cove.games.trails_of_tucana.data import CARD_NAMES, FREE_BYTES, LETTER_NAMES, LETTERS, TABLES
from cove.games.trails_of_tucana.log_text import (
    bonus_segments,
    log_step,
    summary,
    terrain_phrase,
    who,
)
from cove.games.trails_of_tucana.sheets import commit

if TYPE_CHECKING:
    from cove.games.trails_of_tucana.state import TucanaState

ONLY_PASS: tuple[Action, ...] = (PASS,)


class SimultaneousRule(StepRule["TucanaState"]):
    """A step in which every mover makes exactly one secret decision (R3.2, R3.8): the
    segment goes onto their own sheet at once, the others see it when the step is
    revealed. The step's ``data`` is ``(k,)``: 0 for the draw step, k for the k-th bonus
    step of the turn."""

    secret = True
    forced = False  # a lone ``pass`` is still an explicit decision (R3.7)

    def apply(self, state: TucanaState, step: Step, player: int, action: Any) -> None:
        players = step.players
        last = len(players) == 1
        logging = state.logging
        # The last mover's snapshot is only read by the log lines: the reveal below drops
        # every snapshot of the step.
        commit(state, player, action, logging or not last)
        k = step.data[0]
        # One private line per decision: every mover of a step makes exactly one, and
        # each viewer's log is numbered on its own, so the line shows the others nothing.
        if logging:
            state.say(f"P{player + 1}: you {summary(state, player, k)}",
                      to=player, kind="commit", data={"player": player, "action": str(action)})
        if last:  # the reveal_step step, carried out at once (see EndTurnRule)
            RUN_REVEAL(state, _step("reveal_step", AUTO, k))
        else:
            i = players.index(player)
            state.push(_step(step.kind, players[:i] + players[i + 1 :], k))


class FlipRule(StepRule["TucanaState"]):
    """Automatic, at the start of a turn: the Mayor reveals the top two cards (R3.1), then
    everyone draws at once (R3.2)."""

    def run(self, state: TucanaState, step: Step) -> None:
        c1 = state.deck.pop()
        c2 = state.deck.pop()
        state.cards = (c1, c2)
        state.seen += [c1, c2]
        state.turn_start = (state.circled[:], state.pairs[:])
        if state.logging:
            state.say(
                f"Round {state.rnd + 1}, turn {state.turn + 1}: the Mayor reveals "
                f"{CARD_NAMES[c1]} and {CARD_NAMES[c2]}.",
                kind="reveal",
                data={"round": state.rnd + 1, "turn": state.turn + 1,
                      "cards": [CARD_NAMES[c1], CARD_NAMES[c2]]},
            )
        state.push(DRAW_STEPS[state.n])


class DrawRule(SimultaneousRule):
    """The draw step: a segment joining the two cards' terrains, or pass when none fits."""

    def legal(self, state: TucanaState, step: Step, player: int) -> Sequence[Any]:
        isl = state.isl
        cards = state.cards
        assert cards is not None
        # one free flag per segment, from the drawn segments' bits in one C call each
        # (see Island.match_free): the draws that fit are then filtered in C
        free = format(state.drawn[player], isl.free_format).encode().translate(FREE_BYTES)
        return (tuple(compress(state.acts.match_draws[cards], isl.match_free[cards](free)))
                or ONLY_PASS)

    def prompt(self, state: TucanaState, step: Step, player: int) -> str:
        assert state.cards is not None
        ends = terrain_phrase(*(CARD_NAMES[c] for c in state.cards))
        if self.legal(state, step, player) == ONLY_PASS:
            return f"No free segment joins {ends}: pass"
        return f"Draw one segment joining {ends}"

    def describe(self, state: TucanaState, step: Step, player: int) -> dict[str, Any]:
        assert state.cards is not None
        return {"cards": [CARD_NAMES[c] for c in state.cards]}

    def public_prompt(self, state: TucanaState, step: Step) -> str:
        assert state.cards is not None
        c1, c2 = (CARD_NAMES[c] for c in state.cards)
        return f"draw a segment for {c1} and {c2}"


class RevealStepRule(StepRule["TucanaState"]):
    """Automatic: every mover of step ``data[0]`` is done. Reveal the step, then the next
    bonus step (for whoever owes a bonus segment now) or the end of the turn (R3.8,
    R4.3)."""

    def run(self, state: TucanaState, step: Step) -> None:
        k = step.data[0]
        state.reveal()
        if state.logging:
            log_step(state, k)
        n = state.n
        state.snap = [None] * n
        bonus = state.bonus
        owing = tuple(p for p in range(n) if bonus[p]) if any(bonus) else ()
        if owing:
            state.push(_step("bonus", owing, k + 1))
        else:  # the end_turn step, carried out at once (the stack holds nothing else)
            RUN_END_TURN(state, END_TURN)


class BonusRule(SimultaneousRule):
    """A bonus step: a bonus segment anywhere, or pass to decline the rest (R4.3-R4.8)."""

    def legal(self, state: TucanaState, step: Step, player: int) -> Sequence[Any]:
        isl = state.isl
        free = format(state.drawn[player], isl.free_format).encode().translate(FREE_BYTES)
        acts: tuple[Action, ...] = tuple(compress(state.acts.bonuses, free[::-1]))
        if acts and not state.opts.compulsory_bonus:
            acts += ONLY_PASS  # R4.8: a bonus segment may be declined
        return acts or ONLY_PASS

    def prompt(self, state: TucanaState, step: Step, player: int) -> str:
        if self.legal(state, step, player) == ONLY_PASS:
            return "No free segment is left for your bonus: pass"
        rest = "" if state.opts.compulsory_bonus else ", or pass to decline"
        return (f"Draw a bonus segment between any two adjacent spaces "
                f"({bonus_segments(state.bonus[player])} owed){rest}")

    def describe(self, state: TucanaState, step: Step, player: int) -> dict[str, Any]:
        return {"bonus_owed": state.bonus[player]}

    def public_prompt(self, state: TucanaState, step: Step) -> str:
        return "draw a bonus segment"


class EndTurnRule(StepRule["TucanaState"]):
    """Automatic: nobody owes a bonus segment. Hand out the blue and red bonus cards
    completed this turn (R6, R7); the round ends when one card is left (R3.9). Then the
    next turn's flip, unless the game is over.

    The end of a turn, of a round and the next flip follow each other with nothing to
    decide in between and nothing else on the stack, so each calls the next directly
    instead of pushing it: the same steps in the same order, without a trip through
    ``settle`` for each (about a third of a decision's time in a solo game)."""

    def run(self, state: TucanaState, step: Step) -> None:
        if state.pairs != state.turn_start[1]:  # a village pair was joined this turn
            award_blue(state)
        if state.red:
            award_red(state)
        state.moves = [()] * state.n
        state.turn += 1
        if len(state.deck) <= 1:
            RUN_END_ROUND(state, END_ROUND)
        if not state.over:
            RUN_FLIP(state, FLIP)  # next_steps() would give FLIP


class EndRoundRule(StepRule["TucanaState"]):
    """Automatic: score every sheet's circled sights into this round's box (R5), the solo
    discard after round 1 (R9.1), then a new deck (R3.10) or the end of the game."""

    def run(self, state: TucanaState, step: Step) -> None:
        n = state.n
        rounds = state.isl.rounds
        for p in range(n):
            state.boxes[p * rounds + state.rnd] = state.sight_sum(p)
        if state.logging:
            rnd = state.rnd
            box = "I" * (rnd + 1) if rnd < 3 else str(rnd + 1)
            scored = [state.boxes[p * rounds + rnd] for p in range(n)]
            state.say(f"End of round {rnd + 1}; sights scored in box {box}: "
                      + ", ".join(f"P{p + 1} {scored[p]}" for p in range(n)),
                      kind="score", data={"round": rnd + 1, "boxes": scored})
        if n == 1 and state.rnd == 0 and state.opts.solo_discards:
            solo_discard(state)
        state.rnd += 1
        if state.rnd < rounds:
            state._new_deck()
        else:
            game_over(state)


def award_blue(state: TucanaState) -> None:
    """Each blue card goes to whoever joined its village pair this turn (R6)."""
    n = state.n
    pairs = state.pairs
    new_pairs = [pairs[p] & ~pairs0 for p, pairs0 in enumerate(state.turn_start[1])]
    for L in range(LETTERS):
        won = [p for p in range(n) if (new_pairs[p] >> L) & 1]
        if won and state.blue[L]:
            v = state.blue[L][0]
            state.blue[L] = state.blue[L][1:]
            for p in won:
                state.blue_pts[p] += v
                state.blue_won[p] = (*state.blue_won[p], (L, v))
            if state.logging:
                state.say(f"{who(won)} take{'s' if len(won) == 1 else ''} the "
                          f"{LETTER_NAMES[L]}-{LETTER_NAMES[L]} blue bonus card ({v}).",
                          kind="bonus_card", data={"players": won, "card": "blue",
                                                   "pair": LETTER_NAMES[L], "points": v})


def award_red(state: TucanaState) -> None:
    """Each red card goes to whoever linked two sights of its kind (R7)."""
    n = state.n
    for k in list(state.red):
        won = [p for p in range(n) if (state.linked[p] >> k) & 1]
        if won:
            v = TABLES.red[k]
            state.red.remove(k)
            state.red_won.append((k, v, tuple(won)))
            for p in won:
                state.red_pts[p] += v
            if state.logging:
                name = TABLES.sight_names[k]
                state.say(f"{who(won)} take{'s' if len(won) == 1 else ''} the "
                          f"{name}-{name} red bonus card ({v}).",
                          kind="bonus_card", data={"players": won, "card": "red",
                                                   "sight": name, "points": v})


def solo_discard(state: TucanaState) -> None:
    """DESIGN solo rule: after round 1, discard blue cards of unjoined pairs (R9.1)."""
    cands = [L for L in range(LETTERS) if state.blue[L] and not (state.pairs[0] >> L) & 1]
    state.rng.shuffle(cands)
    drop = sorted(cands[: state.opts.solo_discards])
    for L in drop:
        state.blue[L] = ()
    state.solo_dropped = drop
    if state.logging and drop:
        state.say("Solo: blue bonus cards discarded: "
                  + ", ".join(f"{LETTER_NAMES[L]}-{LETTER_NAMES[L]}" for L in drop) + ".",
                  kind="solo_discard", data={"pairs": [LETTER_NAMES[L] for L in drop]})


def game_over(state: TucanaState) -> None:
    """The last round is scored: the game is over (R8.1)."""
    state.over = True
    state.cards = None
    state.deck = []
    if state.logging:
        sc = state.scores()
        state.say("Game over. Final scores: "
                  + ", ".join(f"P{p + 1} {int(sc[p])}" for p in range(state.n)) + ".",
                  kind="game_over", data={"scores": [int(x) for x in sc]})


END_TURN = Step("end_turn")
END_ROUND = Step("end_round")
FLIP = Step("flip")
RUN_FLIP = FlipRule().run
RUN_REVEAL = RevealStepRule().run
RUN_END_TURN = EndTurnRule().run
RUN_END_ROUND = EndRoundRule().run


DRAW_STEPS = tuple(Step("draw", tuple(range(n)), (0,)) for n in range(9))
"""The draw step of a turn, per number of players (everyone draws at once)."""


@cache
def _step(kind: str, players: tuple[int, ...], k: int) -> Step:
    """The shared step value for step ``k`` of a turn: steps are frozen, and a turn's few
    hundred possible ones are made once instead of at every decision (the hot path)."""
    return Step(kind, players, (k,))


STEPS: Mapping[str, StepRule[TucanaState]] = {
    "flip": FlipRule(), "draw": DrawRule(), "reveal_step": RevealStepRule(),
    "bonus": BonusRule(), "end_turn": EndTurnRule(), "end_round": EndRoundRule(),
}
"""The rule of each kind of step (``TucanaState.STEPS``)."""
