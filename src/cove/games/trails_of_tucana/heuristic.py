"""A cheap estimate of a player's final score from their own sheet.

Certain points: the scored boxes, the circled sights times the boxes still to come, the
village pairs and the bonus cards. Potential: every pair not yet joined and every sight
not yet linked is worth part of its value, less the further (in spaces) its networks
still are apart and the fewer turns are left. Distances come from the island's
precomputed table and only spaces with a drawn segment are grouped into networks, so an
estimate costs a few hundred table lookups.
"""

from __future__ import annotations

from cove.core.state import State
from cove.games.trails_of_tucana.data import KINDS, LETTERS, TURNS_PER_ROUND
from cove.games.trails_of_tucana.sheets import VMASK, bits
from cove.games.trails_of_tucana.state import TucanaState

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
    horizon = min(REACH, float(turns_left))
    # networks: only spaces with a drawn segment belong to one larger than themselves
    base = p * isl.size
    par = s.par
    edges = isl.edges
    touched: set[int] = set()
    for e in bits(s.drawn[p]):
        touched.update(edges[e])
    members: dict[int, list[int]] = {}
    root_of: dict[int, int] = {}
    for i in touched:
        x = base + i
        while par[x] != x:
            x = par[x]
        root_of[i] = x
        members.setdefault(x, []).append(i)
    dist = isl.dist

    def network(i: int) -> list[int]:
        r = root_of.get(i)
        return [i] if r is None else members[r]

    pairs = s.pairs[p]
    vspace = isl.village_space
    for L in range(LETTERS):
        if (pairs >> L) & 1:
            continue
        pm = s.pair_masks[p][L]
        va, vb = [vspace[v] for v in bits(pm)]
        a, b = network(va), network(vb)
        d = min([min(map(dist[x].__getitem__, b)) for x in a])
        if d < horizon:
            bonus = s.blue[L][0] if s.blue[L] else 0
            est += PAIR_SHARE * (isl.pair_values[L] + bonus) * (1.0 - d / horizon)
    info = s.info
    linked = [i for r, m in members.items() if info[r] & VMASK for i in m]
    linked += [v for v in vspace if v not in root_of]  # a lone village is a network too
    if linked:
        circled = s.circled[p]
        kc = s.kcount[p * KINDS : p * KINDS + KINDS]
        for i, sp in enumerate(isl.sight_space):
            if (circled >> i) & 1:
                continue
            k = isl.sight_kind[i]
            d = min(map(dist[sp].__getitem__, linked))
            if d < horizon:
                nxt = isl.sight_values[k][min(kc[k], isl.per_kind - 1)]
                est += SIGHT_SHARE * nxt * left * (1.0 - d / horizon)
    return est
