"""The observation's blocks (observation.py) against a plain encoding written straight
from SPEC.md's layout: the same floats, bit for bit, in random games of every player count
and the options that change what is encoded, and in states the core keeps blocks for."""

from __future__ import annotations

import dataclasses
import struct
from typing import Any

from cove.core.rng import Rng
from cove.games.high_water import GAME
from cove.games.high_water.actions import MAX_PLAYERS
from cove.games.high_water.rules import CHOICES, PHASE_NAMES, SEG, TRICK
from cove.games.high_water.state import HighWaterState
from tests.games.high_water.helpers import new


def plain_observation(s: HighWaterState, player: int) -> list[float]:
    """SPEC.md's observation, one block after another (the encoder before the blocks)."""
    data, o = s.data, s.options
    nt, nd, nk = len(data.trick_cards), len(data.colours) * data.faces, len(data.cards)
    tpos = {v: i for i, v in enumerate(data.trick_cards)}
    seat_size = 1 + 3 * nt + 5 + nd + 5 * nk + 3
    phase = s.phase
    step = s.step if phase == SEG else 0
    out: list[float] = [s.round / o.max_rounds, 1.0 if s.high_water else 0.0]
    out += [1.0 if phase == i else 0.0 for i in range(len(PHASE_NAMES))]
    out += [1.0 if step == i else 0.0 for i in range(1, 7)]
    out += [s.bag[c] / max(1, col.count) for c, col in enumerate(data.colours)]
    out.append(1.0 if s.end_triggered else 0.0)

    def dice_vec(dice: list[int]) -> list[float]:
        v = [0.0] * nd
        for d in dice:
            v[(d // 10) * data.faces + d % 10 - 1] += 1.0 / 3
        return v

    def one_hot(cards: list[int]) -> list[float]:
        v = [0.0] * nt
        for c in cards:
            v[tpos[c]] = 1.0
        return v

    for k in range(MAX_PLAYERS):
        if k >= s.n:
            out += [0.0] * seat_size
            continue
        p = (player + k) % s.n
        out += [1.0, *one_hot(s.hands[p]), *one_hot(s.played[p]), *one_hot(s.revealed[p])]
        out += [1.0 if p in s.waiting else 0.0,
                1.0 if phase == TRICK and s.committed[p] >= 0 else 0.0,
                s.pick_order.index(p) / s.n if p in s.pick_order else -1.0,
                s.gold[p] / 10, s.rum[p] / 10, *dice_vec(s.dice[p])]
        crew = [0.0] * nk
        for c in s.crew[p]:
            crew[c] += 1.0
        active = [0.0] * (3 * nk)
        for quest in s.quests[p]:
            cid = quest.card
            active[3 * cid: 3 * cid + 3] = [1.0, quest.done / max(1, len(data.cards[cid].tasks)),
                                            quest.markers / max(1, data.max_markers)]
        completed = [1.0 if c in s.completed[p] else 0.0 for c in range(nk)]
        out += crew + active + completed
        out += [s.influence[p] / o.goal, 1.0 if p == s.trick_winner else 0.0,
                1.0 if p == s.last_picker else 0.0]
    for row in (s.crew_row, s.quest_row):
        v = [0.0] * nk
        for c in row:
            if c >= 0:
                v[c] += 1.0
        out += v
    out += [len(s.crew_deck) / max(1, len(data.crew_deck)),
            len(s.quest_deck) / max(1, len(data.quest_deck))]
    pend = [0.0] * 11
    chosen: list[int] = []
    open_ = s.pending
    if phase == SEG and open_ is not None:
        pend[CHOICES.index(open_.kind)] = 1.0
        if open_.kind in ("reroll", "pay"):
            picked = open_.data.marked if open_.kind == "reroll" else open_.data.chosen
            chosen = [s.dice[open_.player][i] for i in picked]
    elif phase != SEG:
        pend[10] = 1.0
    mine = [0.0] * nt
    if phase == TRICK and s.committed[player] >= 0:
        mine[tpos[s.committed[player]]] = 1.0
    return out + pend + mine + dice_vec(chosen)


def bits(values: list[float]) -> bytes:
    """The exact floats (0.0 and -0.0 differ here, as they do for a learner's input)."""
    return struct.pack(f"{len(values)}d", *values)


OPTIONS: list[dict[str, Any]] = [
    {}, {"tie_rereveals": 2, "idle_dice_actions": True}, {"goal": 12, "carry_cap": 3},
]


def test_the_blocks_give_the_plain_encodings_floats() -> None:
    checked = 0
    kinds = set()
    for players in (2, 3, 4, 5):
        for seed in range(3):
            s = new(players, seed=seed, **OPTIONS[seed % len(OPTIONS)])
            rng = Rng(seed)
            while True:
                for p in range(players):
                    assert bits(s.observation(p)) == bits(plain_observation(s, p))
                    checked += 1
                if s.is_over:
                    break
                kinds.add(s.steps[-1].kind)
                mover = s.to_move()[0]
                s.apply(mover, rng.choice(s.legal_actions(mover)))
    assert checked > 1000
    assert {"trick", "crate", "step", "reroll", "pay"} <= kinds


# -- the kept blocks (cove.core.observer): never stale, whatever changes the state -------
def check(s: HighWaterState) -> None:
    """Every seat's observation is the plain encoding's, and the sparse form is well made
    (indices and values of one length, no index twice, inside the observation)."""
    size = s.game.observation_size_for(s.n, s.options)
    for p in range(s.n):
        assert bits(s.observation(p)) == bits(plain_observation(s, p))
        ones, at, values = s.observation_sparse(p)
        assert len(at) == len(values)
        every = [*ones, *at]
        assert len(set(every)) == len(every) and min(every) >= 0 and max(every) < size


def test_kept_blocks_equal_a_fresh_encoding_after_every_step_and_in_every_copy() -> None:
    """After every step of random games (every player count), the state, a clone that
    plays on (and the original after it), its for_player and redeterminised copies, a copy
    rebuilt from JSON and a second game interleaved with it all encode as the plain
    encoding does (games without a log, so that the JSON copy of every step stays cheap)."""
    steps = 0
    for players in (2, 3, 4, 5):
        seed = players
        options = OPTIONS[seed % len(OPTIONS)]
        s = GAME.new(players, seed=seed, log=False, **options)
        other = GAME.new(players, seed=seed + 100, log=False, **options)
        assert isinstance(s, HighWaterState) and isinstance(other, HighWaterState)
        rng = Rng(seed)
        while not s.is_over:
            check(s)
            mover = s.to_move()[0]
            c = s.clone()
            c.apply(mover, rng.choice(c.legal_actions(mover)))
            check(c)
            check(s)  # the clone's move did not change what the original shows
            check(s.for_player(mover, Rng(steps)))
            check(s.redeterminize(mover, Rng(steps)))
            back = s.game.from_json(s.to_json())
            assert isinstance(back, HighWaterState)
            check(back)
            if not other.is_over:
                check(other)
                o = other.to_move()[0]
                other.apply(o, rng.choice(other.legal_actions(o)))
            s.apply(mover, rng.choice(s.legal_actions(mover)))
            steps += 1
        check(s)
    assert steps > 1000


def test_kept_blocks_follow_changes_made_by_hand() -> None:
    """A state changed by hand (as tests and tools do) shows its new content at once: a
    kept block is reused only while the fields it reads are equal to its copy of them."""
    from tests.games.high_water.helpers import give, to_segment

    for players in (2, 3, 5):
        s = to_segment(players, seed=players)
        check(s)
        p = s.to_move()[0]
        give(s, p, "y3 y3 r5", gold=4, rum=2, crew=("Quartermaster",),
             quests=[("Letter of Marque", 1, 1)])
        check(s)
        give(s, (p + 1) % players, "bl1", gold=0)
        check(s)
        give(s, p, "g2 g2 g2", crew=("Quartermaster", "Quartermaster"),
             quests=[("Letter of Marque", 1, 1), ("Letter of Marque", 0, 2)])
        check(s)
        s.hands[p].remove(s.hands[p][0])  # no _legal = None: found by content all the same
        s.influence[p] += 3
        s.bag[0] -= 1
        s.crew_row[0] = -1
        check(s)
        c = s.clone()
        c.dice[p].append(c.dice[p][0])
        first = c.quests[p][0]
        c.quests[p][0] = dataclasses.replace(first, markers=first.markers + 1)
        check(c)
        check(s)


def test_observation_has_the_declared_size_and_hides_the_secret_card() -> None:
    s = new(4, seed=6)
    size = GAME.observation_size_for(4, s.options)
    assert all(len(s.observation(p)) == size for p in range(4))
    a, b = s.clone(), s.clone()
    a.apply(0, "play 1")
    b.apply(0, "play 7")
    assert a.observation(1) == b.observation(1)
    assert a.observation(0) != b.observation(0)
