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

from cove.core.state import State
from cove.games.tiny_epic_pirates import data as D
from cove.games.tiny_epic_pirates import sea, turn

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
    sym = s.symbols(p)
    n = s.dice_count(p)
    sure = min(s.sure[p], n)
    best = max(sym[1:])
    auto = sum(s.R.crew[c].auto for c in s.crew[p])
    fixed = s.assign[p][1] + auto + sure * best
    dist = _dice_dist(tuple(sym[1:]), n - sure)
    return sum(pr for tot, pr in enumerate(dist) if tot + fixed >= need)


def _mean_damage(s: PiratesState, q: int) -> float:
    sym = s.symbols(q)
    auto = sum(s.R.crew[c].auto for c in s.crew[q])
    return s.dice_count(q) * sum(sym[1:]) / 6 + s.assign[q][1] + auto


def _value(s: PiratesState, p: int, t: int, gold: float, level: float, booty: float) -> float:
    """Treasures plus progress toward the next one (Gold and Legend toward cost and gate)."""
    R = s.R
    if t >= D.TREASURES:
        return float(D.TREASURES)
    cost = R.treasure_cost[t]
    gate = R.treasure_level[t]
    wealth = gold + BOOTY_WEIGHT * booty
    gold_part = min(1.0, wealth / cost) if cost else 1.0
    level_part = min(1.0, (level - 1) / (gate - 1)) if gate > 1 else 1.0
    progress = 0.5 * gold_part + 0.5 * level_part
    # levels above this gate count toward the later ones
    ahead = 0.02 * max(0.0, level - gate)
    return t + 0.85 * progress * progress + min(ahead, 0.06)


def heuristic(state: State, player: int) -> float:
    from cove.games.tiny_epic_pirates import state as S

    assert isinstance(state, S.PiratesState)
    s = state
    p = player
    t = len(s.treasures[p])
    if s.over or t >= D.TREASURES:
        return float(t)
    value = {b: i + 2 for i, b in enumerate(s.market)}
    booty = sum(value[b] for b in s.booty[p])
    gold = float(s.gold[p])
    level = float(s.level[p])
    b = s.battle
    if b is not None and b[0] == p and b[1] != turn.B_NAVY and b[3]:
        # an attack of p's under way: its dice are rolled
        dmg = s.damage(p, b[3])
        if b[1] == turn.B_MERCHANT:
            v = s.m_card[b[2]]
            if dmg > v:
                gold += v
                level += 1 if s.R.merchant_legend[v] >= s.n else 0
        else:
            other = b[6] if b[4] else _mean_damage(s, b[2])
            level += 1 if dmg > other else 0.5 if dmg == other else 0
    best = _value(s, p, t, gold, level, booty)
    if s.turn_player() == p and not s.over:
        best = max(best, _turn_opportunity(s, p, t, gold, level, booty, value))
    a = s.assign[p]
    # small tie-breakers toward a stronger ship: crew, sure-fire, working deckhands
    extras = 0.02 * len(s.crew[p]) + 0.01 * min(s.sure[p], 3) + 0.01 * (a[0] + a[1] + a[2])
    return min(float(D.TREASURES), best + min(extras, 0.1))


def _turn_opportunity(s: PiratesState, p: int, t: int, gold: float, level: float,
                      booty: float, value: dict[int, int]) -> float:
    """The best value this turn's Order (and a Bury it triggers) can still reach."""
    kinds = [st.kind for st in s.steps if turn.owner(st)[0] == p]
    if turn.T_ORDER not in kinds or turn.T_WHEEL in kinds:
        return -1.0                      # the order is done, or not chosen yet
    R = s.R
    o = s.order_of(p)
    here = s.pos[p]
    sailing = turn.T_SAIL in kinds
    reach = s.sail_total(p) - s.moves_used + sum(s.sail_tokens[p]) if sailing else 0
    cap = R.captains[s.captain[p]]
    buries = cap.trigger[s.side[p]] == o or any(
        R.crew[c].trigger == o and D.BURY in R.crew[c].bonus for c in s.crew[p])
    cost = R.treasure_cost[t]
    gate = R.treasure_level[t]
    room = R.ship_capacity - len(s.booty[p])
    best = -1.0
    for c in range(16):
        d = sea.dist(here, c)
        if d > reach:
            continue
        card = s.card(c)
        g, lv, bt = gold, level, booty
        sure = True                      # the gain is certain (a Bury may follow)
        if o == D.PLUNDER and card.kind == D.SETTLEMENT:
            bt += min(card.plunder, room) * 3.5
        elif o == D.TRADE and card.kind == D.MARKET and card.booty in s.booty[p]:
            k = min(3, s.booty[p].count(card.booty))
            g += k * value[card.booty]
            bt -= k * value[card.booty]
        elif o == D.SEARCH and s.tokens[c] >= 0:
            g += SEARCH_GOLD
            sure = False
        elif o == D.ATTACK:
            sure = False
            options = [(g, lv)]
            for m in (0, 1):
                if s.m_pos[m] == c:
                    v = s.m_card[m]
                    w = win_chance(s, p, v + 1)
                    legend = w if R.merchant_legend[v] >= s.n else 0.0
                    options.append((gold + w * v, level + legend))
            for q in range(s.np):
                if q != p and s.pos[q] == c and not s.hidden[q]:
                    w = win_chance(s, p, int(_mean_damage(s, q)) + 1)
                    options.append((gold, level + w))
            g, lv = max(options, key=lambda gl: _value(s, p, t, gl[0], gl[1], bt))
        v_c = _value(s, p, t, g, lv, bt)
        if (buries and sure and card.kind != D.STORM and c not in s.treasures[p]
                and g >= cost and lv >= gate):
            v_c = max(v_c, _value(s, p, t + 1, g - cost, lv, bt))
        v_c -= STEP_COST * d + (0.01 if card.kind == D.STORM and d else 0.0)
        best = max(best, v_c)
    return best
