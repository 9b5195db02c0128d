"""A cheap estimate of a player's final score (treasures buried) from public information.

The estimate is the treasures buried plus progress toward the next one: Gold (with the
booty on board at market value) toward its cost and Legend levels toward its gate. So a
one-step bot can plan a turn, the player whose turn it is also gets the best thing this
turn's Order can still do (the best card within the sailing left, or the card it stands on
once it has stopped): plunder, trade, search, attack (the chance the dice beat the target)
and, when the Captain's or a crew card's trigger is the Order, burying a treasure.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from cove.core import State
from cove.games.tiny_epic_pirates import data, sea, turn
from cove.games.tiny_epic_pirates.data import CAN, EXT, RIG

if TYPE_CHECKING:
    from cove.games.tiny_epic_pirates.state import PiratesState

BOOTY_WEIGHT = 0.7     # a cube on board is worth this share of its market value
SEARCH_GOLD = 1.5      # the Gold-equivalent of a face-down search token (DESIGN mix)
STEP_COST = 0.002      # prefer nearer cards among equal ones (and moving toward them)


@cache
def _dice_dist(sym: tuple[int, ...], n: int) -> tuple[float, ...]:
    """Probability of each dice damage total with n dice and symbol counts sym[face-1]."""
    dist = [1.0]
    for _ in range(n):
        nxt = [0.0] * (len(dist) + max(sym))
        for tot, pr in enumerate(dist):
            if pr:
                for k in sym:
                    nxt[tot + k] += pr / 6
        dist = nxt
    return tuple(dist)


def win_chance(s: PiratesState, p: int, need: int) -> float:
    """Chance p's attack deals at least ``need`` damage (sure-fire set dice to the best face)."""
    symbols = s.symbols(p)
    dice = s.dice_count(p)
    surefire = min(s.surefire[p], dice)
    best = max(symbols[1:])
    fixed = s.assignments[p][CAN] + s.auto_hits(p) + surefire * best
    dist = _dice_dist(tuple(symbols[1:]), dice - surefire)
    return sum(pr for tot, pr in enumerate(dist) if tot + fixed >= need)


def _mean_damage(s: PiratesState, q: int) -> float:
    symbols = s.symbols(q)
    return s.dice_count(q) * sum(symbols[1:]) / 6 + s.assignments[q][CAN] + s.auto_hits(q)


def _value(s: PiratesState, p: int, t: int, gold: float, level: float, booty: float) -> float:
    """Treasures plus progress toward the next one (Gold and Legend toward cost and gate)."""
    if t >= data.TREASURES:
        return float(data.TREASURES)
    cost = s.ruleset.treasure_cost[t]
    gate = s.ruleset.treasure_level[t]
    wealth = gold + BOOTY_WEIGHT * booty
    gold_part = min(1.0, wealth / cost) if cost else 1.0
    level_part = min(1.0, (level - 1) / (gate - 1)) if gate > 1 else 1.0
    progress = 0.5 * gold_part + 0.5 * level_part
    # levels above this gate count toward the later ones
    ahead = 0.02 * max(0.0, level - gate)
    return t + 0.85 * progress * progress + min(ahead, 0.06)


def heuristic(state: State, player: int) -> float:
    from cove.games.tiny_epic_pirates.state import PiratesState

    assert isinstance(state, PiratesState)
    s = state
    p = player
    t = len(s.treasures[p])
    if s.over or t >= data.TREASURES:
        return float(t)
    value = {b: i + 2 for i, b in enumerate(s.market)}
    booty = sum(value[b] for b in s.booty[p])
    gold = float(s.gold[p])
    level = float(s.legend_level[p])
    fight = s.battle
    if (fight is not None and fight.attacker == p and fight.kind != turn.B_NAVY
            and fight.attacker_dice):
        # an attack of p's under way: its dice are rolled
        damage = s.damage(p, fight.attacker_dice)
        if fight.kind == turn.B_MERCHANT:
            card = s.merchant_card[fight.target]
            if damage > card:
                gold += card
                level += 1 if s.ruleset.merchant_legend[card] >= s.n else 0
        else:
            other = (fight.defender_damage if fight.defender_dice
                     else _mean_damage(s, fight.target))
            level += 1 if damage > other else 0.5 if damage == other else 0
    best = _value(s, p, t, gold, level, booty)
    if s.turn_player() == p and not s.over:
        best = max(best, _turn_opportunity(s, p, t, gold, level, booty, value))
    on = s.assignments[p]
    # small tie-breakers toward a stronger ship: crew, sure-fire, working deckhands
    extras = (0.02 * len(s.crew[p]) + 0.01 * min(s.surefire[p], 3)
              + 0.01 * (on[RIG] + on[CAN] + on[EXT]))
    return min(float(data.TREASURES), best + min(extras, 0.1))


def _turn_opportunity(s: PiratesState, p: int, t: int, gold: float, level: float,
                      booty: float, value: dict[int, int]) -> float:
    """The best value this turn's Order (and a Bury it triggers) can still reach."""
    kinds = [step.kind for step in s.steps if step.players == (p,)]   # p's decisions
    if turn.T_ORDER not in kinds or turn.T_WHEEL in kinds:
        return -1.0                      # the order is done, or not chosen yet
    ruleset = s.ruleset
    order = s.order_of(p)
    here = s.ship_at[p]
    sailing = turn.T_SAIL in kinds
    reach = s.sail_total(p) - s.moves_used + sum(s.sail_tokens[p]) if sailing else 0
    captain = ruleset.captains[s.captain[p]]
    buries = captain.trigger[s.captain_side[p]] == order or any(
        ruleset.crew[c].trigger == order and data.BURY in ruleset.crew[c].bonus
        for c in s.crew[p])
    cost = ruleset.treasure_cost[t]
    gate = ruleset.treasure_level[t]
    room = ruleset.ship_capacity - len(s.booty[p])
    best = -1.0
    for c in range(16):
        distance = sea.dist(here, c)
        if distance > reach:
            continue
        card = s.card(c)
        g, lv, bt = gold, level, booty
        sure = True                      # the gain is certain (a Bury may follow)
        if order == data.PLUNDER and card.kind == data.SETTLEMENT:
            bt += min(card.plunder, room) * 3.5
        elif order == data.TRADE and card.kind == data.MARKET and card.booty in s.booty[p]:
            k = min(3, s.booty[p].count(card.booty))
            g += k * value[card.booty]
            bt -= k * value[card.booty]
        elif order == data.SEARCH and s.search_tokens[c] >= 0:
            g += SEARCH_GOLD
            sure = False
        elif order == data.ATTACK:
            sure = False
            options = [(g, lv)]
            for m in (0, 1):
                if s.merchant_at[m] == c:
                    v = s.merchant_card[m]
                    w = win_chance(s, p, v + 1)
                    legend = w if ruleset.merchant_legend[v] >= s.n else 0.0
                    options.append((gold + w * v, level + legend))
            for q in range(s.pirate_count):
                if q != p and s.ship_at[q] == c and not s.hidden[q]:
                    w = win_chance(s, p, int(_mean_damage(s, q)) + 1)
                    options.append((gold, level + w))
            g, lv = max(options, key=lambda gl: _value(s, p, t, gl[0], gl[1], bt))
        v_c = _value(s, p, t, g, lv, bt)
        if (buries and sure and card.kind != data.STORM and c not in s.treasures[p]
                and g >= cost and lv >= gate):
            v_c = max(v_c, _value(s, p, t + 1, g - cost, lv, bt))
        v_c -= STEP_COST * distance + (0.01 if card.kind == data.STORM and distance else 0.0)
        best = max(best, v_c)
    return best
