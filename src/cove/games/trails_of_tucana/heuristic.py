"""A cheap estimate of a player's final score from their own sheet.

Certain points: the scored boxes, the circled sights times the boxes still to come, the
village pairs and the bonus cards. Potential: every pair not yet joined and every sight
not yet linked is worth part of its value, less the further (in spaces) its networks
still are apart and the fewer turns are left. Distances come from the island's
precomputed table and only spaces with a drawn segment are grouped into networks, so an
estimate costs a few hundred table lookups.
"""

from __future__ import annotations

from typing import Final

from cove.core import State
from cove.core.bits import has, members
from cove.games.trails_of_tucana.data import LETTERS, TURNS_PER_ROUND
from cove.games.trails_of_tucana.sheets import drawn_edges, drawn_on, villages_in
from cove.games.trails_of_tucana.state import TucanaState

REACH: Final = 12.0  # a gap of this many segments or more is worth nothing yet
PAIR_SHARE: Final = 0.5
SIGHT_SHARE: Final = 0.5


def fewest_steps(distance: tuple[tuple[int, ...], ...], spaces: list[int],
                 others: list[int]) -> int:
    """The fewest steps over the island (``distance``, ``Island.dist``) from a space of
    ``spaces`` to one of ``others`` (neither empty)."""
    fewest = distance[spaces[0]][others[0]]
    for space in spaces:
        row = distance[space]
        for other in others:
            if row[other] < fewest:
                fewest = row[other]
    return fewest


def heuristic(state: State, player: int) -> float:
    assert isinstance(state, TucanaState)
    island = state.island
    rounds = island.rounds
    p = player
    boxes = state.boxes[p * rounds : p * rounds + state.round]
    estimate = float(sum(boxes) + state.pair_sum(state.pairs[p]) + state.blue_points[p]
                     + state.red_points[p])
    if state.over:
        return estimate
    left = rounds - state.round  # boxes still to score, the current one included
    estimate += state.sight_sum(p) * left
    turns_left = (left - 1) * TURNS_PER_ROUND + (TURNS_PER_ROUND - state.turn)
    horizon = min(REACH, float(turns_left))
    # networks: only spaces with a drawn segment belong to one larger than themselves
    base = p * island.size
    parent = state.parent
    edges = island.edges
    touched: set[int] = set()
    for edge in drawn_edges(drawn_on(state, p)):
        touched.update(edges[edge])
    networks: dict[int, list[int]] = {}
    root_of: dict[int, int] = {}
    for space in touched:
        x = space
        while parent[base + x] != x:
            x = parent[base + x]
        root_of[space] = x
        networks.setdefault(x, []).append(space)
    distance = island.dist

    def network(space: int) -> list[int]:
        root = root_of.get(space)
        return [space] if root is None else networks[root]

    pairs = state.pairs[p]
    village_space = island.village_space
    for letter in range(LETTERS):
        if has(pairs, letter):
            continue
        village_a, village_b = [village_space[v] for v in members(state.village_pairs[p][letter])]
        a, b = network(village_a), network(village_b)
        gap = fewest_steps(distance, a, b)
        if gap < horizon:
            stack = state.blue_cards[letter]
            bonus = stack[0] if stack else 0
            estimate += PAIR_SHARE * (island.pair_values[letter] + bonus) * (1.0 - gap / horizon)
    features = state.features
    linked = [space for root, spaces in networks.items() if villages_in(features[base + root])
              for space in spaces]
    linked += [v for v in village_space if v not in root_of]  # a lone village is a network too
    if linked:
        circled = state.circled[p]
        counts = state.sight_counts[p]
        for sight, space in enumerate(island.sight_space):
            if has(circled, sight):
                continue
            kind = island.sight_kind[sight]
            gap = fewest_steps(distance, [space], linked)
            if gap < horizon:
                value = island.sight_values[kind][min(counts[kind], island.per_kind - 1)]
                estimate += SIGHT_SHARE * value * left * (1.0 - gap / horizon)
    return estimate
