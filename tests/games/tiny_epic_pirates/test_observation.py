"""The observation (SPEC.md, Observation), declared as blocks (observation.py), against a
plain list encoding of the same layout (the encoder before the blocks, one part after
another): the same floats, bit for bit, at every player count (solo included), in clones,
redeterminized copies and states rebuilt from JSON.

The core keeps the blocks that declare their inputs (cove.core.observer): after every step
of seeded random games at every player count, every seat's observation equals one made
from nothing (``OBSERVER.fresh``) and the plain encoding, also with observers left out for
a while, in clones that play on, ``for_player`` and ``redeterminize`` copies, states
rebuilt from JSON or pickle, and states changed by hand."""

from __future__ import annotations

import pickle

import pytest

from cove.core import Rng, State
from cove.games.tiny_epic_pirates import GAME, data
from cove.games.tiny_epic_pirates.observation import OBSERVER, SEAT, SEATS
from cove.games.tiny_epic_pirates.state import PiratesState
from cove.games.tiny_epic_pirates.turn import (
    B_PIRATE,
    DECISION_INDEX,
    DECISIONS,
    Battle,
    task_argument,
)
from tests.games.observations import (
    check_against_plain,
    check_copies_played_on,
    check_kept_along_a_game,
    dense_of,
)

SIZE = GAME.observation_size(2)


def one_hot(i: int, k: int) -> list[float]:
    """``k`` floats with 1.0 at ``i`` (none for ``i = -1``)."""
    return [1.0 if j == i else 0.0 for j in range(k)]


def plain_observation(s: PiratesState, player: int) -> list[float]:
    ruleset = s.ruleset
    out: list[float] = []
    merchants = dict.fromkeys(s.merchant_at, 0.0)
    for m in s.merchant_at:
        merchants[m] += 0.5
    for i in range(16):
        card = s.card(i)
        out += one_hot(card.kind, 4) + one_hot(card.booty, data.BOOTY_TYPES)
        out += [float(s.search_tokens[i] < 0), float(i in s.ports), float(s.navy_at == i),
                merchants.get(i, 0.0), card.plunder / 2.0]
    for t in s.market:
        out += one_hot(t, data.BOOTY_TYPES)
    for m in (0, 1):
        out += [s.merchant_card[m] / 8.0, *one_hot(s.merchant_cube[m] + 1, data.BOOTY_TYPES + 1),
                float(s.merchant_heading[m])]
    np_ = s.pirate_count
    cap, sure = ruleset.ship_capacity, max(1, ruleset.surefire_tokens)
    for k in range(SEATS):
        if k >= np_:
            out += [0.0] * SEAT
            continue
        p = (player + k) % np_
        out += [1.0, float(p == s.solo_pirate), *one_hot(s.ship_at[p], 16), float(s.hidden[p])]
        out += one_hot(s.captain_space[p], 6)
        for o in s.wheel[p]:
            out += one_hot(o, 6)
        out += [float(x) for x in s.wheel_deckhands[p]] + [a / 4.0 for a in s.assignments[p]]
        out += [float(s.deckhand_on_legend_mat[p]), s.legend_level[p] / data.LEGEND_LEVELS,
                float(s.bloody[p]), s.gold[p] / ruleset.gold_cap,
                len(s.treasures[p]) / data.TREASURES]
        out += [s.booty[p].count(t) / cap for t in range(4)]
        out += [s.surefire[p] / sure, sum(s.sail_tokens[p]) / 4.0]
        out += [float(c in s.crew[p]) for c in range(data.CREW_CARDS)]
        out += [*one_hot(s.captain[p], data.CAPTAINS), float(s.captain_side[p])]
    out += [float(c in s.crew_line) for c in range(data.CREW_CARDS)]
    out += [len(s.crew_deck) / data.CREW_CARDS, len(s.merchant_deck) / data.MERCHANT_CARDS,
            sum(s.bag) / max(1, sum(ruleset.cubes)), s.surefire_supply / sure,
            float(s.end_triggered), float(s.over), s.turn / (np_ * 60.0)]
    out += one_hot((s.turn_player() - player) % np_, SEATS)
    kind, p, x = -1, -1, 0
    if not s.over:
        top = s.steps[-1]
        kind, p, x = DECISION_INDEX[top.kind], top.players[0], task_argument(top)
    out += one_hot(kind, len(DECISIONS))
    out += [float(s.crossed_ship_line), s.moves_used / 8.0, s.sail_bonus / 4.0,
            float(s.crew_line_refreshed), s.rerolls / 4.0, x / 6.0, float(p == player)]
    fight = s.battle
    if fight is None:
        out += [0.0] * (3 + 2 * SEATS + 12)
    else:
        out += one_hot(fight.kind, 3) + one_hot((fight.attacker - player) % np_, SEATS)
        out += one_hot((fight.target - player) % np_ if fight.kind == B_PIRATE else -1, SEATS)
        for dice in (fight.attacker_dice, fight.defender_dice):
            out += [dice.count(f) / 3.0 for f in range(1, 7)]
    assert len(out) == SIZE
    return out


def test_observation_is_the_plain_layout_value_for_value() -> None:
    checked = sum(check_against_plain(GAME, plain_observation, n, seed=0, rng_seed=10 * n,
                                      every=4)
                  for n in range(GAME.min_players, GAME.max_players + 1))
    assert checked > 300


def dense(s: PiratesState, p: int) -> list[float]:
    """``p``'s observation (its kept blocks reused) made dense here, by its definition, no
    index given twice."""
    ones, at, values = s.observation_sparse(p)
    assert len(at) == len(values)
    seen = [*ones, *at]
    assert len(set(seen)) == len(seen), "an index given twice"
    return dense_of((ones, at, values), SIZE)


def fresh(s: PiratesState, p: int) -> list[float]:
    """``p``'s observation made from nothing (no kept block)."""
    return dense_of(OBSERVER.fresh(s, p), SIZE)


def check(s: PiratesState, plain: bool = False) -> None:
    """Every seat's kept observation equals a fresh one (and the plain one if asked)."""
    for p in range(s.n):
        got = dense(s, p)
        assert got == fresh(s, p), f"seat {p} after {s._nhist} actions"
        if plain:
            assert got == plain_observation(s, p)


def check_all(s: PiratesState, players: list[int] | None = None) -> None:
    """The observation of each of ``players`` (default all) equals a fresh one and the
    plain encoding, in both the sparse and the dense form."""
    for p in range(s.n) if players is None else players:
        want = plain_observation(s, p)
        assert dense(s, p) == want
        assert fresh(s, p) == want
        assert s.observation(p) == want


def play(s: PiratesState, rng: Rng) -> None:
    p = s.to_move()[0]
    s.apply(p, rng.choice(s.legal_actions(p)))


def as_pirates(s: State) -> PiratesState:
    assert isinstance(s, PiratesState)
    return s


def test_size_is_the_same_for_every_player_count() -> None:
    """768 floats, 4 seat blocks always (SPEC.md)."""
    assert SIZE == 768
    for n in range(GAME.min_players, GAME.max_players + 1):
        layout = OBSERVER.layout(n, GAME.new(n, seed=0, log=False).options)
        assert layout.size == SIZE
        assert layout.where(OBSERVER, "seats") == (238, SEATS * SEAT)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_kept_observation_equals_a_fresh_one_after_every_step(players: int) -> None:
    checked = 0
    for seed in range(2):
        s = GAME.new(players, seed=seed, log=False)
        rng = Rng(100 * players + seed)
        step = 0
        while True:
            check(s, plain=step % 5 == 0)
            checked += 1
            if s.is_over:
                break
            if step % 37 == 5:
                # a clone plays on, then s is observed
                c = as_pirates(s.clone())
                crng = Rng(step)
                for _ in range(6):
                    if c.is_over:
                        break
                    play(c, crng)
                    check(c)
                check(s)
            if step % 23 == 7:
                q = rng.below(s.n)
                copies = (s.for_player(q, Rng(step)), s.redeterminize(q, Rng(step + 1)),
                          GAME.from_json(s.to_json()), pickle.loads(pickle.dumps(s)))
                for copy in copies:
                    c = as_pirates(copy)
                    check(c)
                    check(s)
                    crng = Rng(step + 2)
                    for _ in range(4):
                        if c.is_over:
                            break
                        play(c, crng)
                        check(c)
                    check(s)
            play(s, rng)
            step += 1
    assert checked > 500


def test_every_step_of_a_state_and_its_clone_alternating() -> None:
    """A state and its clone play different moves in turn, observed after each: neither
    is handed the other's blocks."""
    s = GAME.new(3, seed=5, log=False)
    rng = Rng(1)
    for _ in range(40):
        play(s, rng)
    c = as_pirates(s.clone())
    r1, r2 = Rng(2), Rng(3)
    for _ in range(300):
        for state, r in ((s, r1), (c, r2)):
            if not state.is_over:
                play(state, r)
            check(state)


def test_hand_made_changes_are_seen() -> None:
    """Fields set by hand (as tests and tools do) show in the next observation."""
    s = GAME.new(3, seed=2, log=False)
    rng = Rng(4)
    for _ in range(60):
        play(s, rng)
    check(s)
    edits = [
        lambda: s.gold.__setitem__(1, 7),
        lambda: s.booty[2].append(0),
        # each field changed twice in a row: a block kept with the state's own list (not
        # a copy) would miss the second change
        lambda: s.wheel_deckhands[0].__setitem__(3, 1),
        lambda: s.wheel_deckhands[0].__setitem__(4, 1),
        lambda: s.assignments[1].__setitem__(0, 3),
        lambda: s.assignments[1].__setitem__(1, 2),
        lambda: s.gold.__setitem__(1, 2),
        lambda: s.booty[2].append(1),
        lambda: s.crew[1].append(s.crew_deck.pop()),
        lambda: s.ship_at.__setitem__(2, 5),
        lambda: s.captain_space.__setitem__(0, 4),
        lambda: s.hidden.__setitem__(1, True),
        lambda: s.crew[0].append(s.crew_deck.pop()),
        lambda: s.treasures[2].append(3),
        lambda: s.sail_tokens[0].append(2),
        lambda: s.captain_side.__setitem__(2, 1),
        lambda: s.search_tokens.__setitem__(4, -1),
        lambda: s.search_tokens.__setitem__(5, -1),
        lambda: s.market.reverse(),
        lambda: s.merchant_at.__setitem__(0, 6),
        lambda: s.merchant_heading.__setitem__(1, 1 - s.merchant_heading[1]),
        lambda: s.merchant_heading.__setitem__(1, 1 - s.merchant_heading[1]),
        lambda: s.merchant_cube.__setitem__(0, -1),
        lambda: s.bag.__setitem__(0, s.bag[0] + 1),
        lambda: setattr(s, "navy_at", 9),
        lambda: setattr(s, "moves_used", 3),
        lambda: setattr(s, "turn", s.turn + 1),
        lambda: setattr(s, "surefire_supply", s.surefire_supply - 1),
        lambda: s.crew_line.reverse(),
        lambda: setattr(s, "battle", Battle(0, B_PIRATE, 2, (3, 3), (1,))),
        # the battle's dice change as it is fought
        lambda: setattr(s, "battle", s.battle and s.battle.with_dice(0, (6, 3))),
        lambda: setattr(s, "battle", s.battle and s.battle.with_dice(2, (1, 2))),
        lambda: setattr(s, "battle", None),
        lambda: setattr(s, "ports", (0, 15)),
        lambda: setattr(s, "maps", s.maps[::-1]),
        lambda: setattr(s, "captain", [2, 1, 0]),
        lambda: setattr(s, "wheel", [[data.HIDE_OUT, 4, 3, 2, 1, 0]] * 3),
    ]
    for edit in edits:
        edit()
        s._legal = None
        check(s, plain=True)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_kept_along_a_game_with_observers_left_out(players: int) -> None:
    """Every seat after every step in one game; in another, a random few observers in a
    random order, the others left out for a while (their kept blocks then differ from the
    state in several fields at once). What a call handed out never changes afterwards."""
    for seed in (players, players + 10):
        s = as_pirates(GAME.new(players, seed=seed, log=False))
        check_kept_along_a_game(s, check_all, Rng(seed), every_seat=seed == players)


@pytest.mark.parametrize("players", [2, 4])
def test_copies_played_on_never_see_stale_blocks(players: int) -> None:
    """A clone, ``for_player`` and ``redeterminize`` copies, JSON and pickle copies of an
    observed state observe correctly as they are played on, and the original's
    observation stays right."""
    s = as_pirates(GAME.new(players, seed=40 + players, log=False))
    rng = Rng(40 + players)
    k = 0
    while not s.is_over:
        check_all(s)
        if k % 9 == 0:
            check_copies_played_on(s, check_all, rng, seed=k, moves=7, kept=())
        play(s, rng)
        k += 1
    check_all(s)
