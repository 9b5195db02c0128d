"""A cheap estimate of a player's final score from their own sheet.

Certain points: the scored boxes, the circled sights times the boxes still to come, the
village pairs and the bonus cards. Potential: every pair not yet joined and every sight
not yet linked is worth part of its value, less the further (in spaces) its networks
still are apart and the fewer turns are left. Distances are looked up in the island's
precomputed table, so one estimate costs a pass over the player's spaces.
"""

from __future__ import annotations

from cove.core.state import State
from cove.games.trails_of_tucana.data import KINDS, LETTERS
from cove.games.trails_of_tucana.state import TURNS_PER_ROUND, VMASK, TucanaState

REACH = 12.0  # a gap of this many segments or more is worth nothing yet
PAIR_SHARE = 0.5
SIGHT_SHARE = 0.5


def heuristic(state: State, player: int) -> float:
    assert isinstance(state, TucanaState)
    s = state
    isl = s.isl
    rounds = isl.rounds
    p = player
    boxes = s.boxes[p * rounds : p * rounds + s.rnd]
    est = float(sum(boxes) + s.pair_sum(s.pairs[p]) + s.blue_pts[p] + s.red_pts[p])
    if s.over:
        return est
    left = rounds - s.rnd  # boxes still to score, the current one included
    est += s.sight_sum(p) * left
    turns_left = (left - 1) * TURNS_PER_ROUND + (TURNS_PER_ROUND - s.turn)
    # group the player's spaces by network
    size = isl.size
    base = p * size
    par = s.par
    members: dict[int, list[int]] = {}
    root_of = [0] * size
    for i in range(size):
        x = base + i
        while par[x] != x:
            x = par[x]
        root_of[i] = x
        members.setdefault(x, []).append(i)
    dist = isl.dist
    horizon = min(REACH, float(turns_left))

    def gap(a: list[int], b: list[int]) -> int:
        return min(min(dist[x][y] for y in b) for x in a)

    pairs = s.pairs[p]
    for L in range(LETTERS):
        if (pairs >> L) & 1:
            continue
        pm = s.pair_masks[p][L]
        va, vb = [isl.village_space[v] for v in range(10) if (pm >> v) & 1]
        d = gap(members[root_of[va]], members[root_of[vb]])
        if d < horizon:
            bonus = s.blue[L][0] if s.blue[L] else 0
            est += PAIR_SHARE * (isl.pair_values[L] + bonus) * (1.0 - d / horizon)
    circled = s.circled[p]
    linked = [i for r, m in members.items() if s.info[r] & VMASK for i in m]
    if linked:
        kc = s.kcount[p * KINDS : p * KINDS + KINDS]
        for i, sp in enumerate(isl.sight_space):
            if (circled >> i) & 1:
                continue
            k = isl.sight_kind[i]
            row = dist[sp]
            d = min(row[y] for y in linked)
            if d < horizon:
                nxt = isl.sight_values[k][min(kc[k], isl.per_kind - 1)]
                est += SIGHT_SHARE * nxt * left * (1.0 - d / horizon)
    return est
