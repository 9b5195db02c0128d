"""The observation (SPEC.md, Observation), built by the game in sparse form, against a plain
list encoding of the same layout (the encoder before the sparse form, one part after
another): the same floats, bit for bit, at every player count (solo included), in clones,
redeterminized copies and states rebuilt from JSON."""

from __future__ import annotations

from cove.games.tiny_epic_pirates import GAME
from cove.games.tiny_epic_pirates import data as D
from cove.games.tiny_epic_pirates.observation import SEAT, SEATS, SIZE
from cove.games.tiny_epic_pirates.state import PiratesState
from cove.games.tiny_epic_pirates.turn import B_PIRATE, DECISION_INDEX, DECISIONS
from tests.games.observations import check_against_plain


def one_hot(i: int, k: int) -> list[float]:
    """``k`` floats with 1.0 at ``i`` (none for ``i = -1``)."""
    return [1.0 if j == i else 0.0 for j in range(k)]


def plain_observation(s: PiratesState, player: int) -> list[float]:
    R = s.R
    out: list[float] = []
    merchants = dict.fromkeys(s.m_pos, 0.0)
    for m in s.m_pos:
        merchants[m] += 0.5
    for i in range(16):
        card = s.card(i)
        out += one_hot(card.kind, 4) + one_hot(card.booty, D.BOOTY_TYPES)
        out += [float(s.tokens[i] < 0), float(i in s.ports), float(s.navy == i),
                merchants.get(i, 0.0), card.plunder / 2.0]
    for t in s.market:
        out += one_hot(t, D.BOOTY_TYPES)
    for m in (0, 1):
        out += [s.m_card[m] / 8.0, *one_hot(s.m_cube[m] + 1, D.BOOTY_TYPES + 1),
                float(s.m_face[m])]
    np_ = s.np
    cap, sure = R.ship_capacity, max(1, R.surefire_tokens)
    for k in range(SEATS):
        if k >= np_:
            out += [0.0] * SEAT
            continue
        p = (player + k) % np_
        out += [1.0, float(p == s.solo), *one_hot(s.pos[p], 16), float(s.hidden[p])]
        out += one_hot(s.cap[p], 6)
        for o in s.wheel[p]:
            out += one_hot(o, 6)
        out += [float(x) for x in s.wheel_dh[p]] + [a / 4.0 for a in s.assign[p]]
        out += [float(s.dh_reserve[p]), s.level[p] / D.LEGEND_LEVELS, float(s.bloody[p]),
                s.gold[p] / R.gold_cap, len(s.treasures[p]) / D.TREASURES]
        out += [s.booty[p].count(t) / cap for t in range(4)]
        out += [s.sure[p] / sure, sum(s.sail_tokens[p]) / 4.0]
        out += [float(c in s.crew[p]) for c in range(D.CREW_CARDS)]
        out += [*one_hot(s.captain[p], D.CAPTAINS), float(s.side[p])]
    out += [float(c in s.crew_line) for c in range(D.CREW_CARDS)]
    out += [len(s.crew_deck) / D.CREW_CARDS, len(s.m_deck) / D.MERCHANT_CARDS,
            sum(s.bag) / max(1, sum(R.cubes)), s.sure_supply / sure, float(s.end_trigger),
            float(s.over), s.turn / (np_ * 60.0)]
    out += one_hot((s.turn_player() - player) % np_, SEATS)
    kind, p, x = -1, -1, 0
    if not s.over:
        top = s.steps[-1]
        kind, p, x = DECISION_INDEX[top.kind], top.players[0], top.data[0]
    out += one_hot(kind, len(DECISIONS))
    out += [float(s.crossed), s.moves_used / 8.0, s.sail_bonus / 4.0, float(s.refreshed),
            s.rerolls / 4.0, x / 6.0, float(p == player)]
    b = s.battle
    if b is None:
        out += [0.0] * (3 + 2 * SEATS + 12)
    else:
        out += one_hot(b[1], 3) + one_hot((b[0] - player) % np_, SEATS)
        out += one_hot((b[2] - player) % np_ if b[1] == B_PIRATE else -1, SEATS)
        for dice in (b[3], b[4]):
            out += [dice.count(f) / 3.0 for f in range(1, 7)]
    assert len(out) == SIZE
    return out


def test_observation_is_the_plain_layout_value_for_value() -> None:
    checked = sum(check_against_plain(GAME, plain_observation, n, seed=0, rng_seed=10 * n,
                                      every=4)
                  for n in range(GAME.min_players, GAME.max_players + 1))
    assert checked > 300
