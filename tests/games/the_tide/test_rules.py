"""The Tide: one test per numbered rule of RULES.md, the notes' section-5 edge cases
(named test_..._edge_N_...) and the seed's examples (test_seed_...). The rules about the data
file and the options (R1.1, R1.2, R8.2) are tested in test_data.py, those about refused
input (R1.3, R8.1) in test_bad_input.py."""

from __future__ import annotations

import pytest

import cove
from cove.core import Rng
from cove.games.the_tide import GAME
from cove.games.the_tide.actions import Collect, Place
from cove.games.the_tide.data import DATA, SHELL
from cove.games.the_tide.rules import ACT, OVER, PLACE, RETURN, REWARD, finish
from cove.games.the_tide.state import TideState

from .helpers import (
    DEFAULT_PILES,
    beach,
    column,
    conserved,
    fill,
    log,
    pile,
    position,
    sq,
    texts,
    tile_totals,
)

B, P, C, W = 2, 3, 4, 5


def moves_from(s: TideState, src: str) -> set[str]:
    return {t.split()[-1] for t in texts(s) if t.startswith(f"move {src} ")}


# -- R1 components ---------------------------------------------------------------------------
def test_r1_4_three_friends_at_most() -> None:
    # double recycling with 3 friends on the beach: no friend option, +3 automatically
    s = position(fill({"a1": "B1", "f6": "W1", "a6": "C1", "d1": "W2"}), held={0: "BBPPCCW"})
    s.apply(0, "collect melon at f6")
    while s.phase != ACT:
        assert s.phase != REWARD  # the friend option is not even offered: +3 at once
        s.apply(s.to_move()[0], s.legal_actions(s.to_move()[0])[0])
    assert s.points[0] == 3 and s.friends_waiting[0] == 0
    assert not any("new friend" in t for t in log(s))


def test_r1_5_public_holdings_and_pile_visibility() -> None:
    s = GAME.new(3, seed=4)
    v = s.view(1)
    assert [p["height"] for p in v["piles"]] == [6] * 6
    assert all(set(p) == {"height", "top"} for p in v["piles"])
    assert v["piles"][0]["top"] == DATA.names[s.piles[0][-1]]  # type: ignore[attr-defined]
    assert all("held" in seat and "points" in seat for seat in v["seats"])
    a = GAME.new(3, seed=4, pile_visibility="all")
    tiles = a.view(None)["piles"][2]["tiles"]
    assert tiles == [DATA.names[t] for t in a.piles[2]]  # type: ignore[attr-defined]


def test_r1_5_points_by_reward_are_public_and_are_the_score_parts() -> None:
    # R6.1's example: a double recycling (3 points), then a recycling (1 point)
    s = position(fill({"c4": "B1", "f6": "S2"}), held={0: "BBPPPCCCWWW"}, piles=[""] * 6)
    s.apply(0, "collect bottle at c4")
    while s.to_move() == (0,):
        s.apply(0, "take 3 points" if s.phase == REWARD else s.legal_actions(0)[0])
    nothing = {"recycling": 0, "double recycling": 0, "bottle collections": 0,
               "bag collections": 0, "cigarette collections": 0, "melon collections": 0}
    for seat in (None, 0, 1):
        seats = s.view(seat)["seats"]
        assert seats[0]["points_by_reward"] == {**nothing, "recycling": 1,
                                                "double recycling": 3}
        assert seats[1]["points_by_reward"] == nothing
    assert GAME.score_parts is not None
    parts = GAME.score_parts(s.view(None), 0)
    assert dict(parts) == {**nothing, "recycling": 1.0, "double recycling": 3.0}
    assert sum(v for _, v in parts) == s.points[0] == 4
    # two specific collections of cigarettes in one check (R6.7)
    c = position(fill({"c3": "C1", "f6": "B2", "a1": "W3"}), players=3,
                 held={0: "CCCCC"}, piles=[""] * 6)
    c.apply(0, "collect cigarette at c3")
    c.apply(0, "return cigarette to pile b")
    c.apply(0, "return cigarette to pile e")
    assert dict(GAME.score_parts(c.view(2), 0)) == {**nothing, "cigarette collections": 2.0}
    assert c.points[0] == 2


# -- R2 setup --------------------------------------------------------------------------------
def test_r2_1_setup_fills_beach_then_piles() -> None:
    s = GAME.new(4, seed=9)
    assert isinstance(s, TideState)
    assert len(s.grid) == 36 and all(s.grid)
    assert all(len(p) == 6 for p in s.piles)
    assert s.friends == [-1] * 36 and s.points == [0] * 4
    assert all(h == [0] * 6 for h in s.held) and s.removed == [0] * 6


def test_r2_2_first_player_is_random_and_seeded() -> None:
    firsts = {GAME.new(4, seed=k).to_move()[0] for k in range(30)}
    assert firsts == {0, 1, 2, 3}
    # the same seed gives the same first player and deal; another seed another deal
    a, b, c = GAME.new(4, seed=5), GAME.new(4, seed=5), GAME.new(4, seed=6)
    assert isinstance(a, TideState) and isinstance(b, TideState) and isinstance(c, TideState)
    assert (a.first_player, a.grid, a.piles) == (b.first_player, b.grid, b.piles)
    assert (a.grid, a.piles) != (c.grid, c.piles)


def test_r2_3_each_player_places_a_friend_of_the_player_to_their_right() -> None:
    s = GAME.new(3, seed=2)
    assert isinstance(s, TideState)
    first = s.first_player
    for i in range(3):
        placer = (first + i) % 3
        assert s.to_move() == (placer,) and s.phase == PLACE
        owner = (placer - 1) % 3
        legal = s.legal_actions(placer)
        assert len(legal) == 36 - i  # any tile without a friend
        target = legal[0]
        assert isinstance(target, Place)
        s.apply(placer, target)
        assert s.friends[target.sq] == owner
    assert s.friends_on_beach == [1, 1, 1] and s.phase == ACT


def test_r2_4_first_player_starts_then_clockwise() -> None:
    s = GAME.new(3, seed=2)
    assert isinstance(s, TideState)
    while s.phase == PLACE:
        s.apply(s.to_move()[0], s.legal_actions(s.to_move()[0])[0])
    order = []
    for _ in range(4):
        p = s.to_move()[0]
        order.append(p)
        s.apply(p, "pass")
    f = s.first_player
    assert order == [f, (f + 1) % 3, (f + 2) % 3, f]


# -- R3 actions -------------------------------------------------------------------------------
def test_r3_1_one_action_per_turn() -> None:
    s = position(fill({"c3": "B1", "e5": "C1", "a1": "B2"}))
    kinds = {t.split()[0] for t in texts(s)}
    assert kinds == {"collect", "move", "pass"}
    s.apply(0, "move c3 to c2")
    assert s.to_move() == (1,) and s.friends[sq("c2")] == 0  # the turn is over after one move


def test_r3_2_move_straight_lines_of_one_to_three() -> None:
    s = position(fill({"c3": "B1", "f6": "B2"}))
    assert moves_from(s, "c3") == {"c2", "c1", "c4", "c5", "c6", "b3", "a3", "d3", "e3", "f3"}
    s8 = position(fill({"c3": "B1", "f6": "B2"}), move_dirs=8)
    assert moves_from(s8, "c3") == moves_from(s, "c3") | {
        "b2", "a1", "d2", "e1", "b4", "a5", "d4", "e5"}  # f6 holds P2's friend


def test_r3_3_moves_cross_and_end_on_empty_squares() -> None:
    s = position(fill({"c3": "B1", "c4": "..", "c5": "..", "f6": "B2"}))
    assert {"c4", "c5", "c6"} <= moves_from(s, "c3")
    s.apply(0, "move c3 to c5")
    assert s.friends[sq("c5")] == 0 and s.grid[sq("c5")] == 0


def test_r3_4_edge_12_move_over_own_friend_not_over_others() -> None:
    s = position(fill({"c3": "B1", "c4": "W1", "d3": "C2", "b3": "..", "a3": "P2"}))
    dests = moves_from(s, "c3")
    assert "c4" not in dests and {"c5", "c6"} <= dests  # over own friend
    assert not {"d3", "e3", "f3"} & dests  # blocked by P2 at d3
    assert "b3" in dests and "a3" not in dests  # empty square ok, never onto a friend


def test_r3_5_edge_5_shell_blocked_orthogonally_not_diagonally() -> None:
    s = position(fill({"c3": "S1", "c4": "B2", "b3": "W1"}))
    assert "collect shell at c3" not in texts(s)
    s = position(fill({"c3": "S1", "d4": "P2", "b3": "W1", "c2": "B1"}))
    assert "collect shell at c3" in texts(s)  # diagonal opponent, own neighbours: allowed
    s8 = position(fill({"c3": "S1", "d4": "P2"}), shell_adjacency=8)
    assert "collect shell at c3" not in texts(s8)


def test_r3_6_one_shell_only_and_rubbish_never_takes_shells() -> None:
    s = position(fill({"c3": "S1", "c4": "S.", "c2": "S.", "f6": "B2"}))
    s.apply(0, "collect shell at c3")
    assert s.held[0][SHELL] == 1
    s = position(fill({"c3": "B1", "c2": "S.", "c4": "S.", "d3": "B.", "e3": "S.", "f6": "W2"}))
    s.apply(0, "collect 2 bottles at c3")
    assert s.held[0] == [0, 0, 2, 0, 0, 0]


def test_r3_7_seed_example_collects_the_connected_group_only() -> None:
    # the seed's example: a friend takes the tile under him and three connected ones,
    # and not the identical tiles that are not connected
    rows = ["S. S. S. S. S. B.",
            "S. B. S. S. S. S.",
            "S. S. B1 S. S. S.",
            "S. S. B. B. S. S.",
            "S. S. S. B. S. S.",
            "W2 S. S. S. S. S."]
    s = position(rows)
    assert "collect 4 bottles at c3" in texts(s)
    s.apply(0, "collect 4 bottles at c3")
    assert s.held[0][B] == 4 and s.grid[sq("b2")] == B and s.grid[sq("f1")] == B
    s8 = position(rows, connectivity=8)
    assert "collect 5 bottles at c3" in texts(s8)  # b2 touches c3 diagonally


def test_r3_8_edge_6_collect_under_opponent_who_then_shirks() -> None:
    cells = {"c1": "..", "c2": "..", "c3": "B1", "c4": "B2", "c5": "P.", "c6": "C."}
    piles = ["SBBPC", "SBBPW", "", "SSBBP", "SBBPC", "SBPPW"]
    s = position(fill(cells), piles=piles, held={1: "S"})
    assert "collect 2 bottles at c3" in texts(s)
    s.apply(0, "collect 2 bottles at c3")
    assert s.friends[sq("c4")] == 1 and s.grid[sq("c4")] == 0  # P2's friend stays, square empty
    assert any("P2's friend at c4 is shirking" in t for t in log(s))
    assert s.to_move() == (1,)  # P2 chooses where the shell goes
    assert set(texts(s)) == {f"return shell to pile {c}" for c in "abcdef"}
    s.apply(1, "return shell to pile c")
    assert pile(s, "c") == "S" and s.held[1][SHELL] == 0 and conserved(s)
    off = position(fill(cells), piles=piles, collect_under_others=False)
    assert "collect bottle at c3" in texts(off)
    # only other players' friends hold their tiles back: the mover's own friend does not
    own = position(fill({**cells, "c4": "B1", "c5": "B."}), piles=piles,
                   collect_under_others=False)
    assert "collect 3 bottles at c3" in texts(own)


def test_r3_9_no_collection_on_an_empty_square() -> None:
    s = position(fill({"c3": ".1", "f6": "B2"}))
    assert not [t for t in texts(s) if t.startswith("collect")]


def test_r3_10_pass_is_always_legal() -> None:
    # boxed in by other players' friends on all four sides, on an empty square
    s = position(fill({"c3": ".1", "c2": "B2", "c4": "B2", "b3": "P2", "d3": "W2"}))
    assert texts(s) == ["pass"]


# -- R4 tide -------------------------------------------------------------------------------------
def test_r4_1_tide_only_after_a_collection() -> None:
    s = position(fill({"c3": "C1", "e2": "..", "f6": "W2"}))
    s.apply(0, "move c3 to c2")
    assert column(s, "e") == "B.BCBC" and pile(s, "e") == DEFAULT_PILES[4]
    s.apply(1, "pass")
    assert column(s, "e") == "B.BCBC"
    s.apply(0, "collect bottle at c2")
    assert column(s, "c") == "CCCBCB"
    assert column(s, "e") == "CBBCBC"  # the tide refilled the old gap in e too (R4.4)


def test_r4_2_gravity_full_or_one_step() -> None:
    cells = {"c1": "P.", "c2": "..", "c3": "..", "c4": "B1", "f6": "W2"}
    s = position(fill(cells))
    s.apply(0, "collect bottle at c4")
    assert column(s, "c") == "..CPCB"  # settle fully, then the pile tile lands on top
    o = position(fill(cells), gravity="one_step")
    o.apply(0, "collect bottle at c4")
    assert column(o, "c") == "CP..CB"  # each tile moves one square; pile tile stops on P


def test_r4_2_one_gap_per_column_settles_alike_in_both_readings() -> None:
    # Why the seed's caption "each tile is moved down one space" does not decide T2: when a
    # collection leaves at most one gap in each column (a horizontal group, as a four-tile
    # group often does) both readings give the same beach; they differ only on a column that
    # lost two or more tiles (test_r4_2_gravity_full_or_one_step).
    cells = {"a3": "W1", "b3": "W.", "c3": "W.", "d3": "W.", "b2": "S.", "b4": "S.",
             "f6": "B2"}
    beaches = []
    for gravity in ("full", "one_step"):
        s = position(fill(cells), gravity=gravity)
        s.apply(0, "collect 4 melons at a3")
        beaches.append((beach(s), [pile(s, c) for c in "abcdef"]))
    assert beaches[0] == beaches[1]


def test_seed_example_tide_moves_each_tile_down_one_space() -> None:
    # "First, each tile is moved down one space; then ... the top most tile of each of the
    # six piles falls down until it touches another tile."  (gravity = one_step)
    s = position(fill({"d5": "W1", "f6": "S2"}), gravity="one_step")
    s.apply(0, "collect melon at d5")
    assert column(s, "d") == "WWPWPP"
    assert pile(s, "d") == "SSBBP"


def test_r4_3_edge_1_vertical_group_of_three() -> None:
    cells = {"c1": "P2", "c2": "B.", "c3": "B.", "c4": "B1", "c5": "C.", "c6": "W."}
    s = position(fill(cells), held={1: "S"})
    s.apply(0, "collect 3 bottles at c4")
    assert column(s, "c") == "..CPCW"  # two empty squares, one pile tile at row 3
    assert s.friends[sq("c1")] == 1 and s.held[1][SHELL] == 0  # P2 shirked at c1
    assert pile(s, "c") == "SSBBPS"  # the only pile with room took the shell


def test_r4_3_pile_tile_falls_to_row_6_of_an_emptied_column() -> None:
    # T3: with no tile left in the column, the pile's top tile falls all the way to row 6
    for gravity in ("full", "one_step"):
        rows = fill({"f1": "..", "f2": "..", "f3": "..", "f4": "..", "f5": "..",
                     "f6": "B1", "a1": "S2"})
        s = position(rows, gravity=gravity)
        s.apply(0, "collect bottle at f6")
        assert column(s, "f") == ".....W" and pile(s, "f") == "SSBPP"
        assert not s.column_end and s.friends[sq("f6")] == 0 and s.to_move() == (1,)


def test_r4_3_edge_2_horizontal_group_across_four_columns() -> None:
    cells = {"a3": "W1", "b3": "W.", "c3": "W.", "d3": "W.", "b2": "S.", "b4": "S.",
             "f6": "B2"}
    s = position(fill(cells))
    s.apply(0, "collect 4 melons at a3")
    assert [column(s, c) for c in "abcd"] == ["CBCCBC", "WPSSPW", "CCBBCB", "WWPPWP"]
    assert [len(s.piles[c]) for c in range(6)] == [5, 5, 5, 5, 6, 6]


def test_r4_4_edge_3_tide_refills_an_older_gap() -> None:
    s = position(fill({"f1": "..", "a2": "C1", "a6": "W2"}))
    s.apply(0, "collect cigarette at a2")
    assert column(s, "f") == "WWPWPW" and pile(s, "f") == "SSBPP"


def test_r4_5_edge_4_friend_stays_while_tiles_slide() -> None:
    s = position(fill({"c4": "S1", "f6": "B2"}))
    s.apply(0, "collect shell at c4")
    assert s.friends[sq("c4")] == 0
    assert column(s, "c") == "CCBCCB" and s.grid[sq("c4")] == C  # old c3 slid under him


def test_r4_6_returned_tile_is_the_next_to_fall() -> None:
    piles = ["SB", "SB", "SSBBPC", "SSBBPW", "SSBBPC", "SSBPPW"]
    s = position(fill({"c3": "C1", "f6": "W2", "a1": "B2"}), piles=piles, held={0: "BPW"})
    s.apply(0, "collect cigarette at c3")
    s.apply(0, "return bottle to pile a")
    s.apply(0, "return bag to pile a")
    assert pile(s, "a") == "SBBP"
    s.apply(1, "collect bottle at a1")
    assert column(s, "a")[0] == "P"  # the returned bag fell first


# -- R5 check: shirking -------------------------------------------------------------------------
def test_r5_1_check_timing_after_tide_or_every_turn() -> None:
    cells = {"c3": "B1", "e2": ".2", "f6": "W2"}
    s = position(fill(cells), held={1: "S"})
    s.apply(0, "move c3 to c2")
    assert s.held[1][SHELL] == 1  # no tide, no check
    e = position(fill(cells), held={1: "S"}, check_timing="every_turn")
    e.apply(0, "move c3 to c2")
    assert e.held[1][SHELL] == 0 and any("e2 is shirking" in t for t in log(e))


def test_r5_2_one_shell_per_shirking_friend_clockwise_from_active() -> None:
    piles = ["", "", "SSBBPC", "SSBBPW", "", "SSBPPW"]
    cells = {"b1": "..", "b2": ".2", "e1": "..", "e2": ".2", "a1": ".3", "d6": "P1"}
    s = position(fill(cells), players=3, piles=piles, held={1: "SS", 2: "S"}, active=0)
    s.apply(0, "collect bag at d6")
    # P2 (next clockwise) pays for each of two friends, then P3; each picks a pile with room
    assert s.to_move() == (1,)
    assert texts(s) == ["return shell to pile a", "return shell to pile b",
                        "return shell to pile d", "return shell to pile e"]
    s.apply(1, "return shell to pile a")
    assert s.to_move() == (1,)
    s.apply(1, "return shell to pile b")
    assert s.to_move() == (2,)
    s.apply(2, "return shell to pile e")
    assert s.held[1][SHELL] == 0 and s.held[2][SHELL] == 0
    assert [pile(s, c) for c in "abe"] == ["S", "S", "S"]
    assert s.to_move() == (1,) and s.phase == ACT


def test_r5_3_edge_10_full_piles_shells_and_returns_leave_the_game() -> None:
    # P2 has two friends on squares the vertical collection empties; the first shell goes to
    # pile c, the only pile with room, the second finds every pile full and leaves the game
    cells = {"c1": "P2", "c2": "B2", "c3": "B.", "c4": "B1", "c5": "C.", "c6": "W."}
    s = position(fill(cells), held={1: "SS"})
    s.apply(0, "collect 3 bottles at c4")
    assert [len(p) for p in s.piles] == [6] * 6 and pile(s, "c") == "SSBBPS"
    assert s.held[1][SHELL] == 0 and s.removed[SHELL] == 1
    assert any("every pile is full" in t for t in log(s))


def test_r5_3_owner_chooses_the_pile_only_when_there_is_a_choice() -> None:
    cells = {"c1": "..", "c2": "..", "c3": "B1", "c4": "B2", "c5": "P.", "c6": "C."}
    piles = ["SBBPCB", "SBBPWB", "", "SSBBPB", "SBBPCB", "SBPPWB"]
    s = position(fill(cells), piles=piles, held={1: "S"})
    s.apply(0, "collect 2 bottles at c3")
    assert pile(s, "c") == "S" and s.to_move() == (1,)  # only pile c had room: automatic


def test_r5_4_a_shirking_friend_pays_again_at_every_check() -> None:
    cells = {"e1": "..", "e2": "..", "e3": ".2", "a3": "B1", "c3": "C1"}
    piles = ["SSBBPC", "SSBBPW", "SSBBPC", "SSBBPW", "", "SSBPPW"]
    s = position(fill(cells), piles=piles, held={1: "SS"})
    s.apply(0, "collect bottle at a3")
    s.apply(1, "return shell to pile a")
    assert s.held[1][SHELL] == 1 and s.phase == ACT
    s.apply(1, "pass")
    s.apply(0, "collect cigarette at c3")
    s.apply(1, "return shell to pile c")
    assert s.held[1][SHELL] == 0 and s.friends[sq("e3")] == 1 and pile(s, "e") == ""


# -- R6 check: rewards ---------------------------------------------------------------------------
def test_r6_1_edge_8_double_then_single_recycling_in_one_check() -> None:
    s = position(fill({"c4": "B1", "f6": "S2"}), held={0: "BBPPPCCCWWW"},
                 piles=["", "", "", "", "", ""])
    s.apply(0, "collect bottle at c4")
    for _ in range(4):
        assert s.to_move() == (0,)
        s.apply(0, s.legal_actions(0)[0])
    assert s.phase == REWARD and texts(s) == ["take 3 points", "take 1 point and a new friend"]
    s.apply(0, "take 3 points")
    assert s.points[0] == 3
    s.apply(0, s.legal_actions(0)[0])
    s.apply(0, s.legal_actions(0)[0])
    assert s.points[0] == 4 and s.held[0] == [0] * 6 and conserved(s)
    assert s.to_move() == (1,)


def test_r6_2_edge_7_necklace_friend_leaves_and_returns_with_partner() -> None:
    s = position(fill({"c3": "S1", "f6": "B2"}), held={0: "SS"})
    s.apply(0, "collect shell at c3")
    assert s.held[0][SHELL] == 0 and s.removed[SHELL] == 3
    assert s.friends[sq("c3")] == -1 and s.friends_on_beach[0] == 0 and s.friends_waiting[0] == 2
    s.apply(1, "pass")
    # P1's next turn starts with the left neighbour (P2) placing both friends
    assert s.phase == PLACE and s.to_move() == (1,)
    s.apply(1, "place friend at a1")
    s.apply(1, "place friend at b1")
    assert s.phase == ACT and s.to_move() == (0,) and s.friends_on_beach[0] == 2
    assert s.friends[sq("a1")] == 0 and s.friends[sq("b1")] == 0
    assert {"collect bottle at a1", "collect bag at b1"} <= set(texts(s))


def test_r6_3_edge_7_no_partner_with_three_friends_in_play() -> None:
    s = position(fill({"c3": "S1", "a1": "B1", "f1": "P1", "f6": "B2"}), players=3,
                 held={0: "SS"})
    s.apply(0, "collect shell at c3")
    assert s.friends_on_beach[0] == 2 and s.friends_waiting[0] == 1
    # C7: the friend who picked up the third shell leaves, not another one (a1 comes first)
    assert s.friends[sq("c3")] == -1 and s.friends[sq("a1")] == 0 and s.friends[sq("f1")] == 0
    assert any("no free token for a partner" in t for t in log(s))
    s.apply(1, "pass")
    s.apply(2, "pass")
    assert s.phase == PLACE and s.to_move() == (1,)  # P1's left neighbour is P2


def test_r6_4_recycling_scores_one_and_returns_two_chosen_tiles() -> None:
    s = position(fill({"c4": "B1", "f6": "S2"}), held={0: "PCW"},
                 piles=["SB", "SB", "SSBBPC", "SSBBPW", "SSBBPC", "SSBPPW"])
    s.apply(0, "collect bottle at c4")
    assert s.to_move() == (0,)
    legal = set(texts(s))
    assert {f"return {n} to pile {c}" for n in ("bottle", "bag", "cigarette", "melon")
            for c in "abc"} == legal
    s.apply(0, "return melon to pile b")
    assert "return melon to pile a" not in texts(s)
    s.apply(0, "return bag to pile b")
    assert s.points[0] == 1 and s.held[0] == [0] * 6
    assert pile(s, "b") == "SBWP" and s.removed[B] >= 1 and s.removed[C] >= 1
    assert conserved(s)


def test_r6_5_double_recycling_reward_one_point_and_a_friend() -> None:
    s = position(fill({"c4": "B1", "f6": "S2"}), held={0: "BPPCCWW"}, piles=[""] * 6)
    s.apply(0, "collect bottle at c4")
    for want in ("bottle", "bottle", "bag", "melon"):
        s.apply(0, f"return {want} to pile a")
    assert s.phase == REWARD and s.to_move() == (0,)
    s.apply(0, "take 1 point and a new friend")
    assert s.points[0] == 1 and s.friends_waiting[0] == 1 and s.held[0] == [0] * 6
    assert s.view(None)["seats"][0]["points_by_reward"]["double recycling"] == 1
    assert pile(s, "a") == "BBPW" and s.removed[C] >= 2
    s.apply(1, "pass")
    assert s.phase == PLACE and s.to_move() == (1,)
    s.apply(1, "place friend at a2")
    assert s.friends_on_beach[0] == 2 and s.to_move() == (0,)


def test_r6_6_check_choices_are_decisions_of_the_right_player() -> None:
    s = position(fill({"c4": "B2", "f6": "S1"}), held={1: "PCW"}, piles=[""] * 6, active=1)
    s.apply(1, "collect bottle at c4")
    assert s.to_move() == (1,)
    with pytest.raises(cove.IllegalAction, match="not P1's turn"):
        s.apply(0, "return bottle to pile a")


def test_r6_7_edge_9_repeated_specific_collections_and_the_others_losses() -> None:
    s = position(fill({"c3": "C1", "f6": "B2", "a1": "W3"}), players=3,
                 held={0: "CCCCC", 1: "CCC", 2: "C"}, piles=["", "", "", "", "", ""])
    s.apply(0, "collect cigarette at c3")
    s.apply(0, "return cigarette to pile b")
    s.apply(0, "return cigarette to pile e")
    assert s.points[0] == 2 and s.held[0][C] == 0
    assert s.held[1][C] == 1 and s.held[2][C] == 0  # P2 lost two, P3 its only one
    assert pile(s, "b") == "C" and pile(s, "e") == "C"
    assert sum("takes part" in t for t in log(s)) == 3


@pytest.mark.parametrize(("where", "letter", "name", "n"),
                         [("c3", "C", "cigarette", 3), ("d3", "W", "melon", 3),
                          ("b3", "P", "bag", 4), ("a3", "B", "bottle", 5)])
def test_r6_7_thresholds(where: str, letter: str, name: str, n: int) -> None:
    code = " SBPCW".index(letter)
    s = position(fill({where: f"{letter}1", "f6": "S2"}), held={0: letter * (n - 2)})
    s.apply(0, f"collect {name} at {where}")
    assert s.points[0] == 0 and s.held[0][code] == n - 1  # one short: nothing
    s = position(fill({where: f"{letter}1", "f6": "S2"}), held={0: letter * (n - 1)})
    s.apply(0, f"collect {name} at {where}")
    assert s.points[0] == 1 and s.held[0][code] == 0
    assert s.piles["abcdef".index(where[0])][-1] == code  # one tile went back


def test_r6_8_others_give_up_one_tile_of_the_type_if_they_have_one() -> None:
    s = position(fill({"b3": "P1", "f6": "W2", "a1": "B3", "e1": "B4"}), players=4,
                 held={0: "PPP", 1: "PP", 2: "B", 3: "PB"})
    s.apply(0, "collect bag at b3")
    assert s.points == [1, 0, 0, 0]
    assert [h[P] for h in s.held] == [0, 1, 0, 0] and [h[B] for h in s.held] == [0, 0, 1, 1]


def test_r6_10_edge_10_tiles_with_no_room_leave_the_game() -> None:
    # recycling: one tile fits in pile c (the tide took its top), the rest leave the game,
    # and the recycling still scores
    r = position(fill({"c4": "B1", "f6": "W2"}), held={0: "PCW"})
    before = tile_totals(r)
    r.apply(0, "collect bottle at c4")
    assert texts(r) == [f"return {n} to pile c" for n in ("bottle", "bag", "cigarette", "melon")]
    r.apply(0, "return bag to pile c")
    assert r.points[0] == 1 and r.held[0] == [0] * 6 and r.to_move() == (1,)
    assert pile(r, "c") == "SSBBPP" and [r.removed[t] for t in (B, C, W)] == [1, 1, 1]
    assert tile_totals(r) == before


def test_r6_6_a_check_decision_is_asked_of_its_player_and_described_to_the_others() -> None:
    s = position(fill({"c4": "B1", "f6": "S2"}), held={0: "PCW"},
                 piles=["SB", "SB", "SSBBPC", "SSBBPW", "SSBBPC", "SSBPPW"])
    s.apply(0, "collect bottle at c4")
    assert s.phase == RETURN
    mine, theirs = s.decision(0), s.decision(1)
    assert mine["kind"] == theirs["kind"] == "return" and mine["players"] == [0]
    assert mine["prompt"] == ("Return 2 more tiles of your recycling to piles: choose a tile "
                              "and a pile with room")
    assert mine["pool"] == {"bottle": 1, "bag": 1, "cigarette": 1, "melon": 1}
    assert mine["to_return"] == 2 and mine["reason"] == "recycling"
    assert theirs["waiting"] and "pool" not in theirs
    assert theirs["prompt"] == s.decision(None)["prompt"] == (
        "Waiting for P1: Return 2 more tiles of P1's recycling to piles: choose a tile and a "
        "pile with room")
    s.apply(0, "return melon to pile b")
    mine = s.decision(0)
    assert mine["to_return"] == 1 and "melon" not in mine["pool"]
    assert mine["prompt"].startswith("Return 1 more tile of your recycling")


def test_r6_9_recycling_comes_before_a_specific_collection() -> None:
    s = position(fill({"c4": "B1", "f6": "S2"}), held={0: "BBBBPCW"})
    s.apply(0, "collect bottle at c4")
    while s.to_move() == (0,) and s.phase != ACT:
        s.apply(0, s.legal_actions(0)[0])
    assert s.points[0] == 1 and s.held[0] == [0, 0, 4, 0, 0, 0]


def test_r6_11_forced_decisions_are_taken_automatically() -> None:
    s = position(fill({"c3": "C1", "f6": "B2"}), held={0: "CC"})
    s.apply(0, "collect cigarette at c3")  # only pile c has room after the tide
    assert s.points[0] == 1 and pile(s, "c") == "SSBBPC" and s.to_move() == (1,)
    assert s.history == [(0, Collect(sq("c3"), C, 1))]
    assert any("returns a cigarette to pile c" in t for t in log(s))


def test_r6_12_new_friends_go_on_free_tiles_else_free_squares() -> None:
    s = position(fill(), waiting={0: 1})  # P2 places a new friend of P1 first
    assert s.phase == PLACE and s.to_move() == (1,)
    assert len(s.legal_actions(1)) == 36
    rows = [" ".join([".."] * 6)] * 5 + ["B1 B2 .. .. .. .."]
    e = position(rows, waiting={0: 1})
    assert len(e.legal_actions(1)) == 34  # no free tile: any square without a friend
    e.apply(1, "place friend at a1")
    assert e.friends[sq("a1")] == 0 and e.phase == ACT and e.to_move() == (0,)


# -- R7 end -------------------------------------------------------------------------------------
def test_r7_1_ten_points_wins_at_once_even_mid_check() -> None:
    s = position(fill({"c3": "C1", "f6": "B2"}), held={0: "CCCCC", 1: "CC"},
                 points=[9, 9], piles=[""] * 6)
    s.apply(0, "collect cigarette at c3")
    s.apply(0, "return cigarette to pile a")
    assert s.is_over and s.winners() == (0,) and s.points == [10, 9]
    assert s.held[0][C] == 3 and s.held[1][C] == 2  # the check stopped at once
    assert "reaches 10 points" in s.end_reason


def test_r7_2_column_end_ends_the_game_as_soon_as_the_tide_is_over() -> None:
    # SEED E2 "The game ends as soon as ... one of the column runs out of tiles": the check
    # that would follow the tide does not run, so the collector's recycling does not score
    # and a friend left on an empty square does not shirk. (Before: the check still ran.)
    rows = fill({"f1": "..", "f2": "..", "f3": "..", "f4": "..", "f5": "..", "f6": "B1",
                 "a1": "S2", "b1": ".2"})
    s = position(rows, held={0: "PCW", 1: "S"}, points=[0, 0],
                 piles=["SSBBPC", "SSBBPW", "SSBBPC", "SSBBPW", "SSBBPC", ""])
    s.apply(0, "collect bottle at f6")
    assert s.is_over and s.column_end and "column" in s.end_reason
    assert s.points == [0, 0] and s.held[0] == [0, 0, 1, 1, 1, 1]  # no recycling
    assert s.held[1][SHELL] == 1  # P2's friend on the empty b1 did not shirk
    assert s.turns == 0  # like the 10-point end, the interrupted turn is not counted
    assert s.winners() == (0,)  # tied on points, P1 holds more tiles (R7.3)


def test_r7_2_edge_11_column_end_after_check_option_still_finishes_the_check() -> None:
    rows = fill({"f1": "..", "f2": "..", "f3": "..", "f4": "..", "f5": "..", "f6": "B1",
                 "a1": "S2"})
    s = position(rows, held={0: "PCW"}, points=[0, 0], column_end="after_check",
                 piles=["SSBBPC", "SSBBPW", "SSBBPC", "SSBBPW", "SSBBPC", ""])
    s.apply(0, "collect bottle at f6")
    assert s.column_end and not s.is_over and s.to_move() == (0,)
    s.apply(0, "return bottle to pile f")
    s.apply(0, "return bag to pile f")
    assert s.is_over and s.points == [1, 0] and "column" in s.end_reason
    assert pile(s, "f") == "BP"  # returns do not cancel the end
    assert s.winners() == (0,)


def test_r7_3_ties_go_to_most_tiles_then_shared() -> None:
    s = position(fill(), held={0: "BB", 1: "P"}, points=[3, 3])
    finish(s, "test")
    assert s.winners() == (0,)
    s = position(fill(), held={0: "B", 1: "S"}, points=[3, 3])
    finish(s, "test")
    assert s.winners() == (0, 1)
    s = position(fill(), held={0: "BBBBB", 1: ""}, points=[2, 3])
    finish(s, "test")
    assert s.winners() == (1,)


def test_r7_4_stall_guard_counts_only_turns_with_nothing_to_collect() -> None:
    # Default stall_counts=stuck: a turn counts only if the player to act had no legal
    # collection; a turn that could have collected resets the count, so declining to
    # collect cannot end the game. (Before: any 4 passes in a row ended this game.)
    s = position(fill({"c3": "B1", "f6": "B2"}))
    for _ in range(8):
        s.apply(s.to_move()[0], "pass")
    assert not s.is_over and s.idle_turns == 0
    # both friends on empty squares: nothing to collect, two rounds end the game
    t = position(fill({"c3": ".1", "f6": ".2"}))
    for k in range(1, 4):
        t.apply(t.to_move()[0], "pass")
        assert not t.is_over and t.idle_turns == k
    t.apply(t.to_move()[0], "pass")
    assert t.is_over and "stall" in t.end_reason
    # a shell blocked by the other player's friend next to it cannot be collected either
    b = position(fill({"c3": "S1", "c4": ".2"}))
    assert "collect shell at c3" not in texts(b)
    for _ in range(4):
        b.apply(b.to_move()[0], "pass")
    assert b.is_over and "stall" in b.end_reason
    # one player able to collect resets the count on their turn, even if they move away
    u = position(fill({"c3": ".1", "f6": "B2"}))
    u.apply(0, "pass")
    assert u.idle_turns == 1
    u.apply(1, "move f6 to f5")
    assert u.idle_turns == 0
    # the turn is judged before the action: moving onto a tile is still a stuck turn
    m = position(fill({"c3": ".1", "f6": ".2"}))
    m.apply(0, "move c3 to c4")
    assert m.idle_turns == 1
    m.apply(1, "pass")
    m.apply(0, "pass")
    assert m.idle_turns == 0 and not m.is_over


def test_r7_4_stall_guard_idle_option_ends_after_two_rounds_without_a_collection() -> None:
    s = position(fill({"c3": "B1", "f6": "B2"}), stall_counts="idle")
    for _ in range(3):
        s.apply(s.to_move()[0], "pass")
    assert not s.is_over
    s.apply(s.to_move()[0], "pass")
    assert s.is_over and "stall" in s.end_reason
    t = position(fill({"c3": "C1", "f6": "B2"}), stall_rounds=3, stall_counts="idle")
    for _ in range(4):
        t.apply(t.to_move()[0], "pass")
    t.apply(0, "collect cigarette at c3")
    assert not t.is_over and t.idle_turns == 0


def test_r7_5_turn_limit_backstop() -> None:
    s = position(fill({"c3": "B1", "f6": "B2"}), stall_rounds=100, turn_limit=5)
    for _ in range(5):
        s.apply(s.to_move()[0], "pass")
    assert s.is_over and "turn limit" in s.end_reason


# -- R8 interface ---------------------------------------------------------------------------------
def test_r8_3_redeterminize_resamples_only_never_seen_pile_tiles() -> None:
    s = GAME.new(3, seed=21)
    assert isinstance(s, TideState)
    while s.turns < 6 and not s.is_over:
        p = s.to_move()[0]
        acts = s.legal_actions(p)
        cs = [a for a in acts if isinstance(a, Collect)]
        s.apply(p, cs[0] if cs else acts[-1])
    orders = set()
    for k in range(12):
        d = s.redeterminize(1, Rng(k))
        assert isinstance(d, TideState)
        assert d.view(1) == s.view(1)
        for c in range(6):
            assert d.piles[c][s.hidden[c]:] == s.piles[c][s.hidden[c]:]
        orders.add(tuple(tuple(p) for p in d.piles))
        assert sorted(t for p in d.piles for t in p) == sorted(t for p in s.piles for t in p)
    assert len(orders) > 1
    a = GAME.new(3, seed=21, pile_visibility="all")
    assert a.redeterminize(0, Rng(1)).piles == a.piles  # type: ignore[attr-defined]


def test_seed_example_three_player_starting_position() -> None:
    s = GAME.new(3, seed=8)
    assert isinstance(s, TideState)
    placed_by = {}
    while s.phase == PLACE:
        placer = s.to_move()[0]
        a = s.legal_actions(placer)[placer * 5]
        assert isinstance(a, Place)
        s.apply(placer, a)
        placed_by[s.friends[a.sq]] = placer
    assert s.friends_on_beach == [1, 1, 1]
    assert placed_by == {p: (p + 1) % 3 for p in range(3)}  # by the player on the left
    assert s.phase == ACT and s.to_move() == (s.first_player,)
    assert s.phase != OVER


@pytest.mark.parametrize("n", range(2, 7))
def test_r7_4_stall_guard_counts_whole_turns_only(n: int) -> None:
    # (under stall_counts=idle, so every turn without a collection counts)
    # E4 counts turns (one action each), over any n consecutive turns: here the last
    # collection is P2's, mid-round. A shell pickup is a collection; the placements of a
    # returning friend and partner and the choices inside a check are not turns.
    others = ["a1", "f1", "a6", "f6", "e5"]
    cells = {"c3": "S2", "c5": "B1", **{others[i]: f"W{i + 3}" for i in range(n - 2)}}
    s = position(fill(cells), players=n, held={1: "SS"}, active=1, stall_counts="idle")
    s.apply(1, "collect shell at c3")  # third shell: a necklace, the friend leaves
    assert s.idle_turns == 0 and s.turns == 1 and s.friends_waiting[1] == 2
    for k in range(1, 2 * n):
        while s.phase == PLACE:  # P2's friend and partner come back: not a turn
            s.apply(s.to_move()[0], s.legal_actions(s.to_move()[0])[0])
        s.apply(s.to_move()[0], "pass")
        assert not s.is_over and s.idle_turns == k and s.turns == k + 1
    s.apply(s.to_move()[0], "pass")
    assert s.is_over and "stall" in s.end_reason and s.idle_turns == 2 * n
    # a collection whose check asks for decisions is one turn, and it resets the count
    r = position(fill({"c4": "B1", "f6": "S2"}), held={0: "PCW"}, stall_counts="idle",
                 piles=["SB", "SB", "SSBBPC", "SSBBPW", "SSBBPC", "SSBPPW"], stall_rounds=1)
    r.apply(0, "pass")
    r.apply(1, "pass")
    assert r.is_over  # one idle round ends it with stall_rounds=1
    r = position(fill({"c4": "B1", "f6": "S2"}), held={0: "PCW"}, stall_counts="idle",
                 piles=["SB", "SB", "SSBBPC", "SSBBPW", "SSBBPC", "SSBPPW"], stall_rounds=1)
    r.apply(0, "collect bottle at c4")
    r.apply(0, "return melon to pile b")
    r.apply(0, "return bag to pile b")
    assert r.turns == 1 and r.idle_turns == 0 and not r.is_over
    r.apply(1, "pass")
    assert not r.is_over and r.idle_turns == 1
    r.apply(0, "pass")
    assert r.is_over and "stall" in r.end_reason


def test_r5_2_shirk_penalty_per_friend_or_per_player() -> None:
    # the seed: "one or more friends stand on an empty space ... they must discard one
    # seashell". Default (notes C4): one shell per shirking friend; the literal per-player
    # reading is option shirk_penalty=per_player: one shell however many friends shirk.
    cells = {"c1": "P2", "c2": "B2", "c3": "B.", "c4": "B1", "c5": "C.", "c6": "W."}
    piles = ["CCBBPC", "SSBBPC", "SSB", "SSBBPW", "SSBBPC", "SSBPPW"]
    s = position(fill(cells), held={1: "SS"}, piles=piles)
    s.apply(0, "collect 3 bottles at c4")  # c1 and c2 stay empty: both P2 friends shirk
    assert s.held[1][SHELL] == 0 and pile(s, "c") == "SSSS"
    o = position(fill(cells), held={1: "SS"}, piles=piles, shirk_penalty="per_player")
    o.apply(0, "collect 3 bottles at c4")
    assert o.held[1][SHELL] == 1 and pile(o, "c") == "SSS" and conserved(o)
    assert sum("is shirking" in t for t in log(o)) == 2 and o.to_move() == (1,)
    with pytest.raises(cove.OptionError, match="shirk_penalty"):
        GAME.new(2, shirk_penalty="never")
