"""One test per numbered rule of src/cove/games/trails_of_tucana/RULES.md."""

from __future__ import annotations

import pickle
from collections import Counter
from itertools import pairwise

import pytest

import cove
from cove.core import Rng, Step
from cove.core.bits import has
from cove.core.text import end_reason
from cove.games.trails_of_tucana.actions import ISLAND_ACTIONS, PASS, Bonus, Draw, Pass
from cove.games.trails_of_tucana.data import CARD_NAMES, KINDS, TABLES
from cove.games.trails_of_tucana.rules import TurnStep
from cove.games.trails_of_tucana.sheets import drawn_on
from cove.games.trails_of_tucana.state import TucanaState
from cove.games.trails_of_tucana.view import score_parts
from cove.tui.summary import final_summary
from cove.web.fragments import end as end_screen
from tests.games.trails_of_tucana.helpers import (
    GAME,
    build_pair_but_last,
    draw_now,
    end_round,
    link,
    mark_drawn,
    new,
    owe_bonus,
    pair_villages,
    path,
    play_out,
    play_turns,
    position,
    reveal,
    terrain_name,
    texts,
    village_label,
)

PETIT = TABLES.islands["petit"]
GRANDE = TABLES.islands["grande"]
GRANDE_ACTIONS = ISLAND_ACTIONS["grande"]
OBELISK, BOOK, TOUCAN, YETI, MONSTER = range(5)


# -- R1 components and data ------------------------------------------------------------------
def test_r1_1_isla_petit_map() -> None:
    assert PETIT.size == 73 and PETIT.rounds == 2 and PETIT.per_kind == 2
    assert Counter(PETIT.terrain) == {0: 24, 1: 20, 2: 16, 3: 13}
    assert sorted(v for v in PETIT.village if v >= 0) == list(range(10))
    assert Counter(PETIT.sight_kind) == dict.fromkeys(range(5), 2)
    assert village_label(PETIT, 1) == "i1" and village_label(PETIT, 6) == "j10"
    assert PETIT.sight_values[MONSTER] == (4, 5) and PETIT.pair_values == (14, 13, 12, 11, 10)


def test_r1_2_isla_grande_map() -> None:
    assert GRANDE.size == 104 and GRANDE.rounds == 3 and GRANDE.per_kind == 3
    assert Counter(GRANDE.terrain) == {0: 34, 1: 29, 2: 24, 3: 17}
    assert sorted(v for v in GRANDE.village if v >= 0) == list(range(10))
    assert Counter(GRANDE.sight_kind) == dict.fromkeys(range(5), 3)
    assert GRANDE.sight_values[OBELISK] == (1, 2, 2)
    assert GRANDE.pair_values == (20, 19, 18, 17, 16)
    assert GRANDE.labels[GRANDE.sight_space[0]] == "o1"  # the peninsula's sea monster
    assert GRANDE.sight_kind[0] == MONSTER


def test_r1_3_adjacency_and_petit_hole() -> None:
    for isl in (PETIT, GRANDE):
        for a, ns in enumerate(isl.adj):
            r, c = isl.coords[a]
            for b in ns:
                assert a in isl.adj[b]
                rb, cb = isl.coords[b]
                assert (abs(r - rb), abs(c - cb)) in {(0, 2), (1, 1)}
    assert "l10" not in PETIT.labels  # the hole on Isla Petit is sea
    assert sorted(PETIT.labels[b] for b in PETIT.adj[PETIT.space("m9")]) == sorted([
        "l8", "n8", "k9", "o9", "n10"])


def test_r1_4_terrain_deck() -> None:
    assert len(TABLES.deck) == 27
    assert Counter(CARD_NAMES[c] for c in TABLES.deck) == {
        "desert": 8, "forest": 7, "mountain": 6, "water": 4, "any": 2}


def test_r1_5_setup_cards() -> None:
    assert len(TABLES.setup_cards) == 13
    assert TABLES.setup_cards[0] == "CEBAEDCDAB"
    for card in TABLES.setup_cards:
        assert sorted(card) == sorted("AABBCCDDEE")
    assert TABLES.blue == ((3, 2), (4, 2), (5, 3), (6, 4), (7, 5))
    assert TABLES.red == (6, 6, 6, 6, 6)


# -- R2 set-up -----------------------------------------------------------------------------------
def test_r2_1_setup_card() -> None:
    drawn = {new(2, seed=k).setup_card for k in range(40)}
    assert len(drawn) > 5 and drawn <= set(range(13))
    s = new(2, setup_card=7)
    assert s.setup_card == 6 and s.view(0)["setup_card"] == 7


def test_r2_2_letters_clockwise_from_own_village() -> None:
    s = new(3, setup_card=1)
    assert s.view(0)["sheets"][0]["letters"] == list("CEBAEDCDAB")
    # seat 2 starts at village 2: village 2 gets the card's first letter
    assert s.view(1)["sheets"][1]["letters"] == list("BCEBAEDCDA")
    assert s.view(2)["sheets"][2]["letters"] == list("ABCEBAEDCD")


def test_r2_3_random_start() -> None:
    starts = set()
    for k in range(30):
        s = new(2, seed=k, setup_card=1, random_start=True)
        starts.add(s.start_village)
        seq = "CEBAEDCDAB"
        for p in range(2):
            first = (s.start_village + p) % 10
            assert "ABCDE"[s.letters[p][first]] == seq[0]
            assert "ABCDE"[s.letters[p][(first + 1) % 10]] == seq[1]
    assert len(starts) > 3


def test_r2_4_counter_clockwise() -> None:
    s = new(2, setup_card=1, counter_clockwise=True)
    assert s.view(0)["sheets"][0]["letters"] == list("CBADCDEABE")  # v1=C, v10=E, v9=B ...
    assert s.view(0)["clockwise"] is False
    # seat 2 still starts at village 2
    assert s.view(1)["sheets"][1]["letters"][1] == "C"
    assert s.view(1)["sheets"][1]["letters"][0] == "E"


def test_r2_5_symmetry() -> None:
    s = new(5, setup_card=4, symmetry=True)
    letters = {tuple(sh["letters"]) for sh in s.view(None)["sheets"]}
    assert letters == {tuple("EBDBACAECD")}


def test_r2_6_blue_cards_by_player_count() -> None:
    for n in (1, 2, 4):
        assert new(n).blue_cards == ((3,), (4,), (5,), (6,), (7,))
    for n in (5, 8):
        assert new(n).blue_cards == ((3, 2), (4, 2), (5, 3), (6, 4), (7, 5))


def test_r2_7_red_cards_drawn() -> None:
    assert new(3).red_cards == ()
    assert new(3).view(0)["red"] == []
    assert len(new(1, special_bonus=True).red_cards) == 1  # DESIGN: solo draws one
    assert len(new(2, special_bonus=True).red_cards) == 1
    assert len(new(4, special_bonus=True).red_cards) == 1
    assert len(new(8, special_bonus=True).red_cards) == 2
    assert len(new(5, special_bonus=True).red_cards) == 2
    kinds = {k for seed in range(30) for k in new(2, seed=seed, special_bonus=True).red_cards}
    assert kinds == set(range(KINDS))


# -- R3 the turn -------------------------------------------------------------------------------
def test_r3_1_two_cards_revealed() -> None:
    s = new(2)
    assert s.revealed is not None and len(s.revealed) == 2
    assert len(s.deck) == 25 and s.seen == s.revealed
    v = s.view(0)
    assert v["cards"] == [CARD_NAMES[c] for c in s.revealed] and v["deck"] == 25
    # the two cards may show the same terrain
    same = [k for k in range(200) if (c := new(1, seed=k).revealed) and c[0] == c[1]]
    assert same


def test_r3_1_earlier_cards_hidden_option() -> None:
    """The seed covers the cards of earlier turns: by default the view shows only the two
    current cards. Option hide_earlier_cards=false lists the cards revealed earlier this
    round too (every player saw them: a memory aid, DESIGN)."""
    s = new(2, seed=4, hide_earlier_cards=False)
    play_turns(s, Rng(4), 3)
    cards = [CARD_NAMES[c] for c in s.seen]
    assert len(cards) == 8 and s.view(0)["seen_this_round"] == cards
    h = new(2, seed=4)
    play_turns(h, Rng(4), 3)
    for q in (None, 0, 1):
        v = h.view(q)
        assert "seen_this_round" not in v and v["cards"] == cards[-2:]
    assert h.seen == s.seen  # the same game: only the view differs


def test_r3_2_simultaneous_turn() -> None:
    s = new(4)
    assert s.to_move() == (0, 1, 2, 3)
    s.apply(2, s.legal_actions(2)[0])
    assert s.to_move() == (0, 1, 3)
    assert s.legal_actions(2) == ()
    with pytest.raises(cove.IllegalAction, match="not P3's turn"):
        s.apply(2, "pass")
    for p in (0, 1, 3):
        s.apply(p, s.legal_actions(p)[0])
    assert s.to_move() == (0, 1, 2, 3) and s.turn == 1


def test_r3_2_turn_runs_on_the_decision_stack() -> None:
    """The pending step is the only one on the core stack: a secret draw step whose
    players shrink as they commit, then (after the reveal) a bonus step for whoever owes a
    segment, then the next turn's draw step; the decision names the step for movers and
    others alike."""
    s = position(3, trails={1: OBELISK_READY}, revealed=("desert", "desert"))
    assert s.steps == (Step("draw", (0, 1, 2), TurnStep(0)),)
    assert all(s.decision(q)["kind"] == "draw" for q in (None, 0, 1, 2))
    assert s.decision(None)["prompt"] == ("Waiting for P1, P2, P3: draw a segment for desert "
                                          "and desert")
    s.apply(1, "draw j8-k9")  # earns a bonus segment, unseen until the reveal
    assert s.steps == (Step("draw", (0, 2), TurnStep(0)),) and s.to_move() == (0, 2)
    s.apply(0, "draw e1-g1")
    s.apply(2, "draw e1-g1")
    assert s.steps == (Step("bonus", (1,), TurnStep(1)),) and s.bonus_step == 1
    assert s.decision(1)["prompt"].startswith("Draw a bonus segment between any two")
    assert s.decision(0)["prompt"] == "Waiting for P2: draw a bonus segment"
    s.apply(1, "pass")
    assert s.steps == (Step("draw", (0, 1, 2), TurnStep(0)),) and s.turn == 1 and s.bonus_step == 0
    assert [e.kind for e in s.events(None)][-3:] == ["draw", "draw", "reveal"]


def test_r3_3_segment_matches_cards() -> None:
    s = new(2)
    reveal(s, "desert", "water")
    want = set()
    for a in range(PETIT.size):
        for b in PETIT.adj[a]:
            if {PETIT.terrain[a], PETIT.terrain[b]} == {0, 3}:
                want.add(f"draw {PETIT.labels[min(a, b)]}-{PETIT.labels[max(a, b)]}")
    assert set(texts(s, 0)) == want and len(want) == 21
    reveal(s, "forest", "forest")
    for t in texts(s, 1):
        x, y = t.split()[1].split("-")
        assert terrain_name(PETIT, x) == terrain_name(PETIT, y) == "forest"


def test_r3_3_either_order_of_the_ends() -> None:
    """'draw i3-j2' and 'draw j2-i3' name the same segment: both are accepted, and the move
    is recorded under its one canonical text."""
    s = new(2)
    reveal(s, "water", "water")
    assert "draw j2-i3" in texts(s, 0) and "draw i3-j2" not in texts(s, 0)
    s.apply(0, "draw i3-j2")
    s.apply(1, "DRAW  J2-I3")
    assert [str(a) for _, a in s.history] == ["draw j2-i3", "draw j2-i3"]
    assert s.record()["actions"] == [[0, "draw j2-i3"], [1, "draw j2-i3"]]
    assert s.find_action(0, "draw z1-j2") is None and s.find_action(0, "pass") is None
    # the short form with the ends either way round; the JSON form (canonical ends)
    reveal(s, "water", "water")
    s.apply(0, "e5-c5")
    s.apply(1, {"kind": "draw", "ends": "k5-j6"})
    assert [str(a) for _, a in s.history[2:]] == ["draw c5-e5", "draw k5-j6"]
    with pytest.raises(cove.IllegalAction, match="'draw i3-z1' is not a legal move"):
        s.apply(0, "draw i3-z1")


def test_r3_4_any_card_wild() -> None:
    s = new(2)
    reveal(s, "any", "water")
    acts = texts(s, 0)
    assert len(acts) == len(PETIT.matching[(4, 3)]) == 64
    for t in acts:
        a, b = t.split()[1].split("-")
        assert "water" in (terrain_name(PETIT, a), terrain_name(PETIT, b))
    reveal(s, "any", "any")
    assert len(texts(s, 1)) == len(PETIT.edges) == 186


def test_r3_5_segment_anywhere() -> None:
    s = new(1)
    reveal(s, "desert", "desert")
    s.apply(0, "draw e1-g1")  # far from everything drawn so far (nothing)
    reveal(s, "forest", "forest")
    s.apply(0, "draw i9-j10")  # does not join e1-g1
    assert s.view(0)["sheets"][0]["segments"] == ["e1-g1", "i9-j10"]


def test_r3_6_no_redraw() -> None:
    s = new(1)
    reveal(s, "desert", "desert")
    s.apply(0, "draw e1-g1")
    reveal(s, "desert", "desert")
    assert "draw e1-g1" not in texts(s, 0)
    with pytest.raises(cove.IllegalAction, match="not a legal move"):
        s.apply(0, "draw e1-g1")


def test_r3_7_pass_when_nothing_fits() -> None:
    s = new(2)
    reveal(s, "mountain", "mountain")
    mark_drawn(s, 0, PETIT.matching[(2, 2)])
    assert texts(s, 0) == ["pass"]
    assert "pass" not in texts(s, 1)
    before = drawn_on(s, 0)
    s.apply(0, "pass")
    assert drawn_on(s, 0) == before and s.to_move() == (1,)
    # a bonus segment with no free edge left is passed too
    t = new(1)
    mark_drawn(t, 0, range(len(PETIT.edges)))
    owe_bonus(t, 0, 1)
    assert texts(t, 0) == ["pass"]


def test_r3_7_lone_pass_is_still_a_decision() -> None:
    """A lone pass is never taken for the player (the step rules are not forced), even
    for a solo player: it is asked for, recorded and logged like any decision."""
    s = new(1)
    last = s.legal_actions(0)[0]
    mark_drawn(s, 0, (e for e in range(len(PETIT.edges)) if e != s.island_actions.edge[last]))
    s.apply(0, last)  # the island is full: from the next turn on, only pass is legal
    assert s.to_move() == (0,) and texts(s, 0) == ["pass"] and s.turn == 1
    assert s.decision(0)["prompt"].startswith("No free segment joins")
    s.apply(0, "pass")
    assert s.history == [(0, last), (0, PASS)] and s.turn == 2 and s.to_move() == (0,)
    assert "forced" not in {e.kind for e in s.events(0)}
    # the player's own line, once: the public line of the reveal is for the others
    assert s.events(0)[-2].text == "P1: you draw nothing (no free segment fits)"
    assert s.events(None)[-2].text == "P1 draws nothing."


def test_r3_8_commitments_hidden_until_all_done() -> None:
    s = new(3, seed=4)
    reveal(s, "desert", "water")
    others = [None, 1, 2]
    views = {p: s.view(p) for p in others}
    logs = {p: [e.text for e in s.events(p)] for p in others}
    s.apply(0, "draw j2-l2")
    for p in others:
        v = s.view(p)
        assert v["to_move"] == [1, 2] and v["decision"]["players"] == [1, 2]
        v["to_move"] = views[p]["to_move"]  # who is still to move is public
        v["decision"] = views[p]["decision"]
        assert v == views[p]
        assert [e.text for e in s.events(p)] == logs[p]
    for p in others:  # nor in the history or a record as they see it
        assert s.history_for(p)[-1] == (0, None)
        rec = s.record(p) if p is not None else s.record(redacted=True)
        assert rec["actions"][-1] == [0, "(hidden)"]
    assert str(s.history_for(0)[-1][1]) == "draw j2-l2"
    mine = s.view(0)
    assert mine["this_turn"] == ["draw j2-l2"] and "j2-l2" in mine["sheets"][0]["segments"]
    assert "j2-l2" in s.events(0)[-1].text
    s.apply(1, next(a for a in s.legal_actions(1) if str(a) != "draw j2-l2"))
    assert "j2-l2" not in str(s.view(2)) and "j2-l2" not in str(s.view(None))
    s.apply(2, next(a for a in s.legal_actions(2) if str(a) != "draw j2-l2"))
    assert "j2-l2" in s.view(2)["sheets"][0]["segments"]
    assert any(e.text == "P1 draws j2-l2." for e in s.events(2))
    assert all(a is not None for _, a in s.history_for(None))  # the step is revealed
    assert "(hidden)" not in str(s.record(redacted=True)["actions"])


OBELISK_READY = ("i1-j2", "j2-k3", "j10-k9")
"""A sheet's trails with obelisk 1 linked (village 1) and village 6 reaching k9: drawing
j8-k9 (desert-desert) links obelisk 2 and earns a bonus segment."""


def test_r3_8_to_move_hides_a_bonus_chain() -> None:
    """Before the draw step is revealed, nothing the other players (or a
    spectator) can read - to_move(), their views, their logs with numbers - tells
    whether P1's hidden draw earned a bonus segment. (It used to: P1 stayed in to_move()
    for the bonus while a plain draw took P1 out of it.)"""

    def others_see(earns_bonus: bool) -> list[object]:
        s = position(3, trails={0: OBELISK_READY}, revealed=("desert", "desert"))
        s.apply(0, "draw j8-k9" if earns_bonus else "draw o3-p4")
        assert (s.bonus_owed[0] == 1) == earns_bonus
        seen: list[object] = []
        for mover in (1, 2):  # P2 draws, then P3 (whose draw ends the step)
            seen.append(s.to_move())
            for q in (None, 1, 2):
                seen.append(s.view(q))
                seen.append([(e.seq, e.text) for e in s.events(q)])
            s.apply(mover, "draw e1-g1")
        return seen

    assert others_see(True) == others_see(False)


def test_r3_8_bonus_step_hidden_until_all_done() -> None:
    """Once the draw step is revealed, whoever owes a bonus segment draws it in a bonus
    step; each of them decides once per step, and their bonus segments stay hidden until
    every one of them is done."""
    s = position(3, trails={0: OBELISK_READY, 1: OBELISK_READY}, revealed=("desert", "desert"))
    s.apply(0, "draw j8-k9")
    assert s.events(0)[-1].text == ("P1: you draw j8-k9; connected: obelisk at j8; earned 1 "
                                    "bonus segment, drawn after the reveal")
    s.apply(1, "draw j8-k9")
    s.apply(2, "draw e1-g1")
    public = [e.text for e in s.events(None)]
    assert "P1 draws j8-k9; connects obelisk at j8; earns 1 bonus segment." in public
    assert s.to_move() == (0, 1) and s.bonus_step == 1 and s.turn == 0
    assert s.view(2)["sheets"][0]["bonus_owed"] == 1
    before = {q: (s.view(q), [e.text for e in s.events(q)]) for q in (None, 1, 2)}
    s.apply(0, "bonus i1-k1")
    assert s.to_move() == (1,)
    for q in (None, 1, 2):
        v = s.view(q)
        assert v["to_move"] == [1] and v["decision"]["players"] == [1]
        v["to_move"] = before[q][0]["to_move"]
        v["decision"] = before[q][0]["decision"]
        assert v == before[q][0] and [e.text for e in s.events(q)] == before[q][1]
    assert "i1-k1" in s.view(0)["sheets"][0]["segments"]
    s.apply(1, "pass")  # P2 declines its bonus segment (R4.8)
    public = [e.text for e in s.events(None)]
    assert public[-3:-1] == ["P1 draws bonus i1-k1.", "P2 declines 1 bonus segment."]
    assert s.turn == 1 and s.to_move() == (0, 1, 2)
    assert "i1-k1" in s.view(2)["sheets"][0]["segments"]


def test_r3_9_round_of_13_turns() -> None:
    s = new(2, seed=3)
    rng = Rng(1)
    play_turns(s, rng, 12)
    assert s.turn == 12 and s.round == 0 and len(s.deck) == 1
    assert s.view(0)["turn"] == 13 and s.view(0)["deck"] == 1
    leftover = s.deck[0]
    assert Counter([*s.seen, leftover]) == Counter(TABLES.deck)
    play_turns(s, rng, 1)
    assert s.round == 1 and s.turn == 0 and len(s.deck) == 25


def test_r3_10_reshuffle_between_rounds() -> None:
    orders = set()
    for seed in range(5):
        s = new(1, seed=seed)
        play_turns(s, Rng(seed), 13)
        assert s.round == 1 and s.seen == (s.revealed or ())
        assert Counter([*s.deck, *s.seen]) == Counter(TABLES.deck)  # all 27, leftover included
        orders.add(tuple(s.deck))
    assert len(orders) == 5


def test_r3_11_rounds_per_map() -> None:
    for mp, rounds in (("petit", 2), ("grande", 3)):
        s = new(2, seed=2, map=mp)
        play_out(s, Rng(3))
        assert s.is_over and s.round == rounds
        assert s.decisions >= 2 * 13 * rounds
        assert len(s.view(0)["sheets"][0]["boxes"]) == rounds


# -- R4 sights ---------------------------------------------------------------------------------
def test_r4_1_sight_connected_to_any_village() -> None:
    s = new(1)
    link(s, 0, "j2", "k3")  # obelisk to water: no village yet
    assert s.circled[0] == 0
    link(s, 0, "i1", "j2")  # now joined to village 1
    assert s.view(0)["sheets"][0]["circled_sights"] == ["k3"]
    # a trail network without any village scores nothing
    t = new(1)
    link(t, 0, "j6", "i5")
    link(t, 0, "i5", "g5")  # sea monster to yeti, no village
    assert t.circled[0] == 0


def test_r4_2_sight_values_in_order() -> None:
    s = new(1, map="grande")
    link(s, 0, "l4", "n4")  # the obelisk at n4 ...
    link(s, 0, "k3", "l4")  # ... reaches village 1 (k3)
    assert s.sight_counts[0][OBELISK] == 1 and s.sight_sum(0) == 1
    # the second obelisk scores the second value, 2
    link(s, 0, "e3", "f4")
    link(s, 0, "f4", "e5")  # the obelisk at e5 reaches village 10 (e3)
    assert s.sight_counts[0][OBELISK] == 2 and s.sight_sum(0) == 3 and s.bonus_owed[0] == 0
    assert s.view(0)["sheets"][0]["sight_values"]["obelisk"] == [1, 2]


def test_r4_3_last_sight_gives_bonus() -> None:
    """Seed: linking the second obelisk circles its value and earns a bonus segment,
    drawn the same turn between two mountain spaces, ignoring the cards."""
    # the first obelisk, linked to village 1 (i1-j2-k3), and village 6 reaching k9
    s = position(2, trails={0: OBELISK_READY}, revealed=("desert", "desert"))
    assert s.sight_sum(0) == 1 and s.bonus_owed[0] == 0
    s.apply(0, "draw j8-k9")  # the other obelisk reaches village 6
    assert s.view(0)["sheets"][0]["sight_values"]["obelisk"] == [1, 2]
    assert s.bonus_owed[0] == 1 and s.to_move() == (1,)  # drawn once everyone has drawn (R3.8)
    s.apply(1, "draw e1-g1")
    assert s.to_move() == (0,) and s.turn == 0 and s.bonus_step == 1
    legal = s.legal_actions(0)
    assert all(isinstance(a.declared(), Bonus) for a in legal[:-1]) and str(legal[-1]) == "pass"
    assert len(legal) == len(PETIT.edges) - 4 + 1  # anywhere, any terrain, not redrawn
    assert "bonus i1-k1" in texts(s, 0)  # two mountain spaces, though the cards show desert
    s.apply(0, "bonus i1-k1")
    assert s.to_move() == (0, 1) and s.bonus_owed[0] == 0 and s.turn == 1
    # Isla Grande: the 2nd obelisk gives none, the 3rd gives the bonus segment
    g = position(1, map="grande", trails={0: [
        "l4-n4", "k3-l4",  # obelisk n4 via village 1
        "e3-f4", "f4-e5",  # obelisk e5 via village 10
        "m11-n12"]})
    assert g.sight_counts[0][OBELISK] == 2 and g.bonus_owed[0] == 0
    reveal(g, "desert", "desert")
    g.apply(0, "draw n12-p12")  # obelisk m11 via village 5
    assert g.view(0)["sheets"][0]["sight_values"]["obelisk"] == [1, 2, 2]
    assert g.bonus_owed[0] == 1
    assert {type(a.declared()) for a in g.legal_actions(0)} == {Bonus, Pass}


def test_r4_4_bonus_segment_anywhere() -> None:
    s = position(1, map="grande", revealed=("water", "water"), bonus_owed={0: 1})
    assert len(s.legal_actions(0)) == len(GRANDE.edges) + 1  # + pass (R4.8)
    assert {type(a.declared()) for a in s.legal_actions(0)} == {Bonus, Pass}
    bonus, draw = GRANDE_ACTIONS.bonuses[0], GRANDE_ACTIONS.draws[0]
    assert bonus != draw and str(bonus)[5:] == str(draw)[4:]
    assert isinstance(bonus.declared(), Bonus) and isinstance(draw.declared(), Draw)  # same
    # edge, different decision


def test_r4_5_bonus_chain() -> None:
    """Seed: a bonus segment that links another kind's last sight earns another one."""
    s = position(1, trails={0: [
        "i1-j2", "j2-k3",  # obelisk 1
        "d2-e3", "e3-g3",  # toucan 1 via village 10
        "m9-n8",  # village 5 reaches toward the second toucan
        "j10-k9"]}, revealed=("desert", "desert"))
    s.apply(0, "draw j8-k9")  # obelisk 2: bonus
    assert s.bonus_owed[0] == 1
    s.apply(0, "bonus m7-n8")  # toucan 2: another bonus
    assert s.bonus_owed[0] == 1 and s.to_move() == (0,)
    sv = s.view(0)["sheets"][0]["sight_values"]
    assert sv["obelisk"] == [1, 2] and sv["toucan"] == [2, 3]
    s.apply(0, "bonus e1-g1")
    assert s.bonus_owed[0] == 0
    assert s.turn == 1  # the solo turn resolved after the whole chain


def test_r4_6_several_sights_at_once() -> None:
    # the yeti at g5 and the book at g7 join one network, then reach village 7 together
    s = position(1, trails={0: ["g5-h6", "h6-g7", "g7-f8", "f8-e9"]})
    sv = s.view(0)["sheets"][0]["sight_values"]
    assert sv["yeti"] == [3] and sv["book"] == [2]
    # one segment completing two kinds' last sights gives two bonus segments
    t = position(1, trails={0: [
        "a9-b8", "b8-c7",  # yeti 1 (a9) via village 8
        "m5-o5", "o5-p4",  # book 1 (m5) via village 3
        "g5-h6", "h6-g7", "g7-f8"]})  # yeti 2 and book 2 in one network, no village yet
    assert t.bonus_owed[0] == 0 and t.sight_sum(0) == 3 + 2
    reveal(t, "forest", "forest")
    t.apply(0, "draw f8-e9")  # this one segment reaches village 7
    sv = t.view(0)["sheets"][0]["sight_values"]
    assert sv["yeti"] == [3, 4] and sv["book"] == [2, 2]
    assert t.bonus_owed[0] == 2 and t.to_move() == (0,)
    t.apply(0, "bonus e1-g1")
    assert t.bonus_owed[0] == 1 and t.turn == 0
    t.apply(0, "bonus k1-m1")
    assert t.bonus_owed[0] == 0 and t.turn == 1


def test_r4_8_bonus_segment_may_be_declined() -> None:
    """The seed: "I can draw a trail segment anywhere". A player may pass instead of a
    bonus segment (declining the rest of the chain); with option compulsory_bonus the
    bonus segment must be drawn while a free one is left."""
    for compulsory in (False, True):
        s = position(1, trails={0: OBELISK_READY}, revealed=("desert", "desert"),
                     compulsory_bonus=compulsory)
        s.apply(0, "draw j8-k9")
        assert s.bonus_step == 1 and s.bonus_owed[0] == 1
        assert ("pass" in texts(s, 0)) is not compulsory
        if compulsory:
            with pytest.raises(cove.IllegalAction, match="not a legal move"):
                s.apply(0, "pass")
            continue
        s.apply(0, "pass")
        assert s.bonus_owed[0] == 0 and s.turn == 1 and s.bonus_step == 0
        assert s.events(0)[-2].text == "P1: you decline 1 bonus segment"
    # with two owed, a pass declines both
    t = position(1, bonus_owed={0: 2})
    t.apply(0, "pass")
    assert t.bonus_owed[0] == 0 and t.turn == 1


def test_r4_7_sights_share_village() -> None:
    s = position(1, trails={0: [
        "i1-j2", "j2-k3",  # obelisk on village 1
        "i1-h2", "h2-g3"]})  # toucan on the same village
    assert s.view(0)["sheets"][0]["circled_sights"] == ["g3", "k3"]


# -- R5 round scoring ---------------------------------------------------------------------------
def test_r5_1_sights_rescored_each_round() -> None:
    """Seed: sights worth 10 after round 1 go in box I and count again in box II."""
    s = position(1, trails={0: [
        "p10-n10", "n10-m9",  # sea monster 4 (village 5)
        "a9-b8", "b8-c7",  # yeti 3 (village 8)
        "i1-h2", "h2-g3",  # toucan 2 (village 1)
        "i1-j2", "j2-k3"]})  # obelisk 1
    assert s.sight_sum(0) == 10
    end_round(s)
    assert s.view(0)["sheets"][0]["boxes"] == [10] and s.round == 1
    end_round(s)
    assert s.is_over and s.view(0)["sheets"][0]["boxes"] == [10, 10]
    assert s.scores() == [20.0 + s.blue_points[0]]
    # in a played game each box is the circled sum at the round's end, never less than before
    t = new(2, seed=6)
    play_turns(t, Rng(2), 13)
    first = [t.boxes[p * 2] for p in range(2)]
    play_out(t, Rng(3))
    for p in range(2):
        assert t.boxes[p * 2 + 1] == t.sight_sum(p) >= first[p]


# -- R6 village pairs and blue bonus ------------------------------------------------------------
def test_r6_1_village_pair_scores_once() -> None:
    s = new(1, setup_card=1)
    last = build_pair_but_last(s, 0, "A")
    assert s.pairs[0] == 0
    draw_now(s, 0, *last)
    assert s.view(0)["sheets"][0]["pairs"] == ["A"]
    assert s.view(0)["sheets"][0]["pair_points"] == 14
    # more segments on the same network do not score the pair again
    a, _ = pair_villages(s, 0, "A")
    x = s.island.space(a)
    y = next(y for y in s.island.adj[x] if s.island.village[y] < 0 and s.island.sight[y] < 0
             and not drawn_on(s, 0)[s.island.edge_index[(min(x, y), max(x, y))]])
    link(s, 0, a, s.island.labels[y])
    assert s.view(0)["sheets"][0]["pair_points"] == 14


def test_r6_2_blue_bonus_first_and_ties() -> None:
    s = new(3, setup_card=2, symmetry=True)
    lasts = [build_pair_but_last(s, p, "A") for p in (0, 1)]
    assert lasts[0] == lasts[1]
    a, b = lasts[0]
    reveal(s, terrain_name(s.island, a), terrain_name(s.island, b))
    seg = f"draw {'-'.join(sorted((a, b), key=s.island.space))}"
    s.apply(0, seg)
    assert list(s.blue_cards[0]) == [3]  # not handed out before the turn resolves
    s.apply(1, seg)
    s.apply(2, s.legal_actions(2)[0])
    assert not s.blue_cards[0]  # the card is discarded
    assert s.blue_points[:2] == (3, 3)  # both completed it the same turn
    assert any("P1 and P2 take the A-A blue bonus card (3)" in e.text for e in s.events(None))
    # P3 completes it later: village points but no blue card
    last = build_pair_but_last(s, 2, "A")
    reveal(s, terrain_name(s.island, last[0]), terrain_name(s.island, last[1]))
    s.apply(0, s.legal_actions(0)[0])
    s.apply(1, s.legal_actions(1)[0])
    s.apply(2, f"draw {'-'.join(sorted(last, key=s.island.space))}")
    assert has(s.pairs[2], 0) and s.blue_points[2] == 0 and s.pair_sum(s.pairs[2]) >= 14


def test_r6_3_second_blue_card() -> None:
    s = new(5, setup_card=3, symmetry=True)
    last = build_pair_but_last(s, 0, "E")
    for p in range(1, 4):
        build_pair_but_last(s, p, "E")
    seg = f"draw {'-'.join(sorted(last, key=s.island.space))}"

    def turn(who: list[int]) -> None:
        reveal(s, terrain_name(s.island, last[0]), terrain_name(s.island, last[1]))
        for p in range(5):
            s.apply(p, seg if p in who else next(
                a for a in s.legal_actions(p) if str(a) != seg))

    turn([0])
    assert s.blue_points[0] == 7 and list(s.blue_cards[4]) == [5]
    turn([1, 2])
    assert s.blue_points[1] == s.blue_points[2] == 5 and not s.blue_cards[4]
    turn([3])
    assert s.blue_points[3] == 0 and has(s.pairs[3], 4)


# -- R7 red bonus (variant) --------------------------------------------------------------------
def test_r7_1_red_bonus() -> None:
    chain = path(PETIT, "k3", "j8")
    trail = [f"{x}-{y}" for x, y in pairwise(chain[:-1])]
    s = position(2, special_bonus=True, red_cards=[OBELISK], trails={0: trail, 1: trail})
    last = (chain[-2], chain[-1])
    seg = f"draw {'-'.join(sorted(last, key=PETIT.space))}"
    reveal(s, terrain_name(PETIT, last[0]), terrain_name(PETIT, last[1]))
    s.apply(0, seg)
    s.apply(1, next(a for a in s.legal_actions(1) if str(a) != seg))
    assert s.red_points == (6, 0) and s.red_cards == ()  # linked to each other, no village needed
    assert s.view(1)["red_taken"] == [{"sight": "obelisk", "value": 6, "by": [0]}]
    reveal(s, terrain_name(PETIT, last[0]), terrain_name(PETIT, last[1]))
    s.apply(0, s.legal_actions(0)[0])
    s.apply(1, seg)
    assert s.red_points == (6, 0)  # the card is gone
    # Isla Grande: any two of the three sights of the card's kind, joined to each other
    chain = path(GRANDE, "e5", "m11")
    g = position(2, map="grande", special_bonus=True, red_cards=[OBELISK],
                 trails={1: [f"{x}-{y}" for x, y in pairwise(chain[:-1])]})
    last = (chain[-2], chain[-1])
    reveal(g, terrain_name(GRANDE, last[0]), terrain_name(GRANDE, last[1]))
    seg = f"draw {'-'.join(sorted(last, key=GRANDE.space))}"
    g.apply(1, seg)
    assert g.red_points == (0, 0) and g.red_cards == (OBELISK,)  # not before the turn resolves
    g.apply(0, next(a for a in g.legal_actions(0) if str(a) != seg))
    assert g.red_points == (0, 6) and g.red_cards == ()
    assert not any(GRANDE.village[GRANDE.space(x)] >= 0 for x in chain)  # no village used
    # without the variant nothing is tracked
    t = new(2)
    assert t.red_cards == () and not t.special_bonus


# -- R8 end of game ----------------------------------------------------------------------------
def test_r8_1_final_score() -> None:
    for mp in ("petit", "grande"):
        s = new(4, seed=8, map=mp, special_bonus=True)
        play_out(s, Rng(8))
        r = s.island.rounds
        for p in range(4):
            want = (sum(s.boxes[p * r : p * r + r]) + s.pair_sum(s.pairs[p])
                    + s.blue_points[p] + s.red_points[p])
            assert s.scores()[p] == want == s.view(p)["sheets"][p]["score"]
            # the score in parts, the same in every view (GAME.score_parts)
            for q in (None, *range(4)):
                parts = dict(score_parts(s.view(q), p))
                assert [parts.pop(f"sights, box {'I' * (k + 1)}") for k in range(r)] == (
                    list(s.boxes[p * r : p * r + r]))
                assert parts == {"village pairs": s.pair_sum(s.pairs[p]),
                                 "blue bonus cards": s.blue_points[p],
                                 "red bonus cards": s.red_points[p]}


def test_r8_2_tiebreak() -> None:
    def finished(boxes: list[int], blue_points: list[int]) -> TucanaState:
        return position(2, seed=1, played_out=True, boxes=boxes, blue_points=blue_points,
                        pairs=[0, 0], red_points=[0, 0])

    s = finished(boxes=[10, 0, 7, 0], blue_points=[0, 3])
    assert s.scores() == [10.0, 10.0] and s.winners() == (1,)
    s = finished(boxes=[13, 0, 10, 0], blue_points=[3, 6])
    assert s.scores() == [16.0, 16.0] and s.winners() == (1,)
    s = finished(boxes=[10, 0, 10, 0], blue_points=[6, 6])
    assert s.winners() == (0, 1)  # still tied: shared victory


def test_r8_3_running_score() -> None:
    s = position(1, trails={0: ["i1-j2", "j2-k3"]})  # obelisk 1 linked to village 1
    assert s.scores() == [1.0]  # the current round's circles, as if it ended now
    assert score_parts(s.view(0), 0) == [
        ("sights this round", 1.0), ("village pairs", 0.0), ("blue bonus cards", 0.0)]
    end_round(s)
    assert s.scores() == [2.0]  # box I plus the round-2 circles so far
    assert score_parts(s.view(None), 0)[:2] == [("sights, box I", 1.0),
                                                ("sights this round", 1.0)]


# -- R9 solo (DESIGN) ---------------------------------------------------------------------------
def test_r9_1_solo_discard() -> None:
    s = new(1, seed=3)
    play_turns(s, Rng(3), 13)
    assert s.round == 1
    dropped = s.view(0)["solo"]["discarded_blue"]
    completed = {letter for letter in range(5) if has(s.pairs[0], letter)}
    assert len(dropped) == min(3, 5 - len(completed))
    assert all(s.blue_cards["ABCDE".index(x)] == () for x in dropped)
    t = new(1, seed=3, solo_discards=0)
    play_turns(t, Rng(3), 13)
    assert t.view(0)["solo"]["discarded_blue"] == []
    u = new(2, seed=3)
    play_turns(u, Rng(3), 13)
    assert "solo" not in u.view(0)
    # a card already claimed is never among the discards: with A-A and B-B claimed,
    # the 3 discards are exactly the other three letters
    for seed in range(4):
        w = new(1, seed=seed, setup_card=1)
        for letter in "AB":
            draw_now(w, 0, *build_pair_but_last(w, 0, letter))
        assert w.blue_points[0] == 3 + 4 and not w.blue_cards[0] and not w.blue_cards[1]
        end_round(w)
        assert w.view(0)["solo"]["discarded_blue"] == ["C", "D", "E"]
        assert w.blue_cards == ((), (), (), (), ()) and w.blue_points[0] == 7
    # with 2 to discard, the choice among the unclaimed letters is random
    picks = set()
    for seed in range(12):
        w = new(1, seed=seed, solo_discards=2)
        end_round(w)
        picks.add(tuple(w.view(0)["solo"]["discarded_blue"]))
        assert all(len(x) == 2 for x in picks)
    assert len(picks) > 3


def test_r9_2_solo_target() -> None:
    assert new(1).view(0)["solo"]["target"] == TABLES.solo_target["petit"]
    assert new(1, map="grande").view(None)["solo"]["target"] == TABLES.solo_target["grande"]


def test_r9_3_solo_win_is_the_target(monkeypatch: pytest.MonkeyPatch) -> None:
    s = new(1, seed=4)
    play_out(s, Rng(4))
    score = s.scores()[0]
    assert 0 < score < TABLES.solo_target["petit"]  # random play falls short
    assert s.winners() == ()
    assert (f"P1 scored {score:g}, short of the solo target of 70, so nobody wins"
            in end_reason(s))
    monkeypatch.setitem(TABLES.solo_target, "petit", int(score))  # reached exactly: a win
    assert s.winners() == (0,)
    assert f"P1 scored {score:g} and reached the solo target of {score:g}" in end_reason(s)
    monkeypatch.setitem(TABLES.solo_target, "petit", int(score) + 1)  # one short: no win
    assert s.winners() == ()
    assert final_summary(GAME, s, [0])[-1] == "No player wins."  # the terminal's last line
    assert "Game over: no player wins" in end_screen(s, s.view(0), 0)  # the web's
    # with two or more players the top score wins as before (R8.2), and mid-game nobody
    t = new(2, seed=4)
    assert t.winners() == ()
    play_out(t, Rng(4))
    best = max(t.scores())
    assert t.winners() and all(t.scores()[p] == best for p in t.winners())


def test_actions_text_forms() -> None:
    s = new(1)
    reveal(s, "desert", "desert")
    a = s.legal_actions(0)[0]
    d = a.declared()
    assert isinstance(d, Draw) and str(a) == f"draw {d.ends}" and str(a) == str(a).lower()
    assert a.to_json() == {"kind": "draw", "ends": d.ends} and PASS.to_json() == {"kind": "pass"}
    assert pickle.loads(pickle.dumps(a)) is a  # the shared instance, as `of` gives it
    assert len(set(texts(s, 0))) == len(texts(s, 0))
