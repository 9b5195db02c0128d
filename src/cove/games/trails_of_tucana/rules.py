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
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Final

from cove.core import AUTO, Step, StepRule, pickle_records, replaced
from cove.core.bits import has, minus
from cove.games.trails_of_tucana.actions import PASS, Action
from cove.games.trails_of_tucana.data import CARD_NAMES, LETTER_NAMES, LETTERS, TABLES
from cove.games.trails_of_tucana.log_text import (
    bonus_segments,
    log_step,
    summary,
    terrain_phrase,
    who,
)
from cove.games.trails_of_tucana.sheets import commit, drawn_on

if TYPE_CHECKING:
    from cove.games.trails_of_tucana.state import TucanaState

ONLY_PASS: tuple[Action, ...] = (PASS,)


@dataclass(frozen=True, slots=True)
class TurnStep:
    """What a ``draw``, ``bonus`` or ``reveal_step`` step carries: which step of the turn
    it is, 0 for the draw step and k for the k-th bonus step."""

    bonus_step: int


@dataclass(frozen=True, slots=True)
class WonBlueCard:
    """A blue bonus card a seat took (R6): its letter's pair and its points."""

    letter: int
    value: int


@dataclass(frozen=True, slots=True)
class WonRedCard:
    """A red bonus card taken (R7): its sight kind, its points and who took it."""

    kind: int
    value: int
    winners: tuple[int, ...]


class SimultaneousRule(StepRule["TucanaState"]):
    """A step in which every mover makes exactly one secret decision (R3.2, R3.8): the
    segment goes onto their own sheet at once, the others see it when the step is
    revealed. The step's ``data`` is its ``TurnStep``: 0 for the draw step, k for the
    k-th bonus step of the turn."""

    secret = True
    forced = False  # a lone ``pass`` is still an explicit decision (R3.7)

    def apply(self, state: TucanaState, step: Step, player: int, action: Any) -> None:
        players = step.players
        last = len(players) == 1
        logging = state.logging
        # The last mover's snapshot is only read by the log lines: the reveal below drops
        # every snapshot of the step.
        commit(state, player, action, logging or not last)
        bonus_step = step.data.bonus_step
        # One private line per decision: every mover of a step makes exactly one, and
        # each viewer's log is numbered on its own, so the line shows the others nothing.
        if logging:
            state.say(f"P{player + 1}: you {summary(state, player, bonus_step)}",
                      to=player, kind="commit", data={"player": player, "action": str(action)})
        if last:  # the reveal_step step, carried out at once (see EndTurnRule)
            RUN_REVEAL(state, _step("reveal_step", AUTO, bonus_step))
        else:
            i = players.index(player)
            state.push(_step(step.kind, players[:i] + players[i + 1 :], bonus_step))


class FlipRule(StepRule["TucanaState"]):
    """Automatic, at the start of a turn: the Mayor reveals the top two cards (R3.1), then
    everyone draws at once (R3.2)."""

    def run(self, state: TucanaState, step: Step) -> None:
        deck = state.deck
        first, second = deck[-1], deck[-2]
        state.deck = deck[:-2]
        state.revealed = (first, second)
        state.seen = (*state.seen, first, second)
        state.circled_at_turn_start = state.circled  # tuples: replaced, never changed
        state.pairs_at_turn_start = state.pairs
        if state.logging:
            state.say(
                f"Round {state.round + 1}, turn {state.turn + 1}: the Mayor reveals "
                f"{CARD_NAMES[first]} and {CARD_NAMES[second]}.",
                kind="reveal",
                data={"round": state.round + 1, "turn": state.turn + 1,
                      "cards": [CARD_NAMES[first], CARD_NAMES[second]]},
            )
        state.push(DRAW_STEPS[state.n])


class DrawRule(SimultaneousRule):
    """The draw step: a segment joining the two cards' terrains, or pass when none fits."""

    def legal(self, state: TucanaState, step: Step, player: int) -> Sequence[Any]:
        revealed = state.revealed
        assert revealed is not None
        drawn = drawn_on(state, player)
        draws = state.island_actions.draws
        return (tuple([draws[edge] for edge in state.island.matching[revealed]
                       if not drawn[edge]])
                or ONLY_PASS)

    def prompt(self, state: TucanaState, step: Step, player: int) -> str:
        assert state.revealed is not None
        ends = terrain_phrase(*(CARD_NAMES[c] for c in state.revealed))
        if self.legal(state, step, player) == ONLY_PASS:
            return f"No free segment joins {ends}: pass"
        return f"Draw one segment joining {ends}"

    def describe(self, state: TucanaState, step: Step, player: int) -> dict[str, Any]:
        assert state.revealed is not None
        return {"cards": [CARD_NAMES[c] for c in state.revealed]}

    def public_prompt(self, state: TucanaState, step: Step) -> str:
        assert state.revealed is not None
        first, second = (CARD_NAMES[c] for c in state.revealed)
        return f"draw a segment for {first} and {second}"


class RevealStepRule(StepRule["TucanaState"]):
    """Automatic: every mover of the step is done. Reveal the step, then the next bonus
    step (for whoever owes a bonus segment now) or the end of the turn (R3.8, R4.3)."""

    def run(self, state: TucanaState, step: Step) -> None:
        bonus_step = step.data.bonus_step
        state.reveal()
        if state.logging:
            log_step(state, bonus_step)
        n = state.n
        state.snapshots = [None] * n
        owed = state.bonus_owed
        owing = tuple(p for p in range(n) if owed[p]) if any(owed) else ()
        if owing:
            state.push(_step("bonus", owing, bonus_step + 1))
        else:  # the end_turn step, carried out at once (the stack holds nothing else)
            RUN_END_TURN(state, END_TURN)


class BonusRule(SimultaneousRule):
    """A bonus step: a bonus segment anywhere, or pass to decline the rest (R4.3-R4.8)."""

    def legal(self, state: TucanaState, step: Step, player: int) -> Sequence[Any]:
        drawn = drawn_on(state, player)
        bonuses = state.island_actions.bonuses
        actions = tuple([bonuses[edge] for edge in range(len(drawn)) if not drawn[edge]])
        if actions and not state.options.compulsory_bonus:
            actions += ONLY_PASS  # R4.8: a bonus segment may be declined
        return actions or ONLY_PASS

    def prompt(self, state: TucanaState, step: Step, player: int) -> str:
        if self.legal(state, step, player) == ONLY_PASS:
            return "No free segment is left for your bonus: pass"
        rest = "" if state.options.compulsory_bonus else ", or pass to decline"
        return (f"Draw a bonus segment between any two adjacent spaces "
                f"({bonus_segments(state.bonus_owed[player])} owed){rest}")

    def describe(self, state: TucanaState, step: Step, player: int) -> dict[str, Any]:
        return {"bonus_owed": state.bonus_owed[player]}

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
        if state.pairs != state.pairs_at_turn_start:  # a village pair was joined this turn
            award_blue(state)
        if state.red_cards:
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
        rounds = state.island.rounds
        boxes = list(state.boxes)
        for p in range(n):
            boxes[p * rounds + state.round] = state.sight_sum(p)
        state.boxes = tuple(boxes)
        if state.logging:
            done = state.round
            box = "I" * (done + 1) if done < 3 else str(done + 1)
            scored = [state.boxes[p * rounds + done] for p in range(n)]
            state.say(f"End of round {done + 1}; sights scored in box {box}: "
                      + ", ".join(f"P{p + 1} {scored[p]}" for p in range(n)),
                      kind="score", data={"round": done + 1, "boxes": scored})
        if n == 1 and state.round == 0 and state.options.solo_discards:
            solo_discard(state)
        state.round += 1
        if state.round < rounds:
            state._new_deck()
        else:
            game_over(state)


def award_blue(state: TucanaState) -> None:
    """Each blue card goes to whoever joined its village pair this turn (R6)."""
    n = state.n
    pairs = state.pairs
    joined_now = [minus(pairs[p], before) for p, before in enumerate(state.pairs_at_turn_start)]
    for letter in range(LETTERS):
        won = [p for p in range(n) if has(joined_now[p], letter)]
        stack = state.blue_cards[letter]
        if won and stack:
            value = stack[0]
            state.blue_cards = replaced(state.blue_cards, letter, stack[1:])
            for p in won:
                state.blue_points = replaced(state.blue_points, p, state.blue_points[p] + value)
                state.blue_won = replaced(state.blue_won, p,
                                          (*state.blue_won[p], WonBlueCard(letter, value)))
            if state.logging:
                name = LETTER_NAMES[letter]
                state.say(f"{who(won)} take{'s' if len(won) == 1 else ''} the "
                          f"{name}-{name} blue bonus card ({value}).",
                          kind="bonus_card", data={"players": won, "card": "blue",
                                                   "pair": name, "points": value})


def award_red(state: TucanaState) -> None:
    """Each red card goes to whoever linked two sights of its kind (R7)."""
    n = state.n
    for kind in state.red_cards:
        won = [p for p in range(n) if has(state.linked[p], kind)]
        if won:
            value = TABLES.red[kind]
            state.red_cards = tuple(k for k in state.red_cards if k != kind)
            state.red_won = (*state.red_won, WonRedCard(kind, value, tuple(won)))
            for p in won:
                state.red_points = replaced(state.red_points, p, state.red_points[p] + value)
            if state.logging:
                name = TABLES.sight_names[kind]
                state.say(f"{who(won)} take{'s' if len(won) == 1 else ''} the "
                          f"{name}-{name} red bonus card ({value}).",
                          kind="bonus_card", data={"players": won, "card": "red",
                                                   "sight": name, "points": value})


def solo_discard(state: TucanaState) -> None:
    """DESIGN solo rule: after round 1, discard blue cards of unjoined pairs (R9.1)."""
    candidates = [letter for letter in range(LETTERS)
                  if state.blue_cards[letter] and not has(state.pairs[0], letter)]
    state.rng.shuffle(candidates)
    discarded = sorted(candidates[: state.options.solo_discards])
    state.blue_cards = tuple(() if letter in discarded else stack
                             for letter, stack in enumerate(state.blue_cards))
    state.solo_discarded = tuple(discarded)
    if state.logging and discarded:
        state.say("Solo: blue bonus cards discarded: "
                  + ", ".join(f"{LETTER_NAMES[x]}-{LETTER_NAMES[x]}" for x in discarded) + ".",
                  kind="solo_discard", data={"pairs": [LETTER_NAMES[x] for x in discarded]})


def game_over(state: TucanaState) -> None:
    """The last round is scored: the game is over (R8.1)."""
    state.over = True
    state.revealed = None
    state.deck = ()
    if state.logging:
        scores = state.scores()
        state.say("Game over. Final scores: "
                  + ", ".join(f"P{p + 1} {int(scores[p])}" for p in range(state.n)) + ".",
                  kind="game_over", data={"scores": [int(x) for x in scores]})


END_TURN: Final = Step("end_turn")
END_ROUND: Final = Step("end_round")
FLIP: Final = Step("flip")
RUN_FLIP: Final = FlipRule().run
RUN_REVEAL: Final = RevealStepRule().run
RUN_END_TURN: Final = EndTurnRule().run
RUN_END_ROUND: Final = EndRoundRule().run


DRAW_STEPS: Final = tuple(Step("draw", tuple(range(n)), TurnStep(0)) for n in range(9))
"""The draw step of a turn, per number of players (everyone draws at once)."""


@cache
def _step(kind: str, players: tuple[int, ...], bonus_step: int) -> Step:
    """The shared step value for step ``bonus_step`` of a turn: steps are frozen, and a
    turn's few hundred possible ones are made once instead of at every decision (the hot
    path)."""
    return Step(kind, players, TurnStep(bonus_step))


STEPS: Mapping[str, StepRule[TucanaState]] = {
    "flip": FlipRule(), "draw": DrawRule(), "reveal_step": RevealStepRule(),
    "bonus": BonusRule(), "end_turn": EndTurnRule(), "end_round": EndRoundRule(),
}
"""The rule of each kind of step (``TucanaState.STEPS``)."""


pickle_records(globals())  # records pickle as calls with their fields (docs/BUILD.md)
