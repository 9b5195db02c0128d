"""The shared table components (cove.core.components): decks, bags, dice and grids."""

from __future__ import annotations

import pickle
from collections import Counter, deque

import pytest

from cove.core.components import (
    D6,
    DIAGONAL,
    ORTHOGONAL,
    Bag,
    Deck,
    Die,
    HexGrid,
    SquareGrid,
)
from cove.core.rng import Rng
from cove.core.serial import Decoder, encode


def test_a_deck_draws_from_the_end_of_its_list() -> None:
    d = Deck([1, 2, 3])
    assert d.top() == 3
    assert d.draw() == 3
    assert d.draw_many(5) == [2, 1]
    assert not d and d.top() is None
    with pytest.raises(IndexError):
        d.draw()


def test_cards_put_under_the_deck_are_known_and_drawing_into_them_shrinks_the_known_part(
) -> None:
    d = Deck([5, 6])
    d.put_bottom(9)
    d.put_bottom(8)
    assert d.cards == [8, 9, 5, 6] and d.known == 2
    d.draw_many(3)
    assert d.cards == [8] and d.known == 1
    d.put_top(4)
    assert d.known == 1 and d.top() == 4
    d.check()


def test_a_deck_refuses_a_known_part_longer_than_itself() -> None:
    with pytest.raises(ValueError, match="known=3 but the deck holds 2"):
        Deck([1, 2], known=3)
    d = Deck([1])
    d.known = 2
    with pytest.raises(AssertionError, match="known=2"):
        d.check()


def test_resampling_keeps_the_known_bottom_and_the_cards_and_ignores_the_real_order() -> None:
    a = Deck([7, 8, 1, 2, 3, 4, 5, 6], known=2)
    b = Deck([7, 8, 6, 5, 4, 3, 2, 1], known=2)  # same cards, other hidden order
    a.resample(Rng(3))
    b.resample(Rng(3))
    assert a.cards[:2] == [7, 8]
    assert sorted(a.cards[2:]) == [1, 2, 3, 4, 5, 6]
    assert a == b  # the sample depends on what is known, not on the real order
    seen = set()
    for seed in range(30):
        c = Deck([7, 8, 1, 2, 3, 4, 5, 6], known=2)
        c.resample(Rng(seed))
        seen.add(tuple(c.cards))
    assert len(seen) > 20


def test_shuffling_a_deck_forgets_what_was_known() -> None:
    d = Deck(range(10), known=4)
    d.shuffle(Rng(1))
    assert d.known == 0 and sorted(d.cards) == list(range(10))


def test_a_copied_deck_and_bag_share_no_lists() -> None:
    d = Deck([1, 2, 3], known=1)
    e = d.copy()
    e.draw()
    e.put_bottom(0)
    assert d.cards == [1, 2, 3] and d.known == 1
    b = Bag([2, 1])
    c = b.copy()
    c.add(0)
    assert b.counts == [2, 1] and b.total == 3


def test_components_store_and_pickle_with_a_state() -> None:
    dec = Decoder(("cove.core",))
    for value in (Deck([3, 1, 2], known=1), Bag([0, 4, 1])):
        back = dec.decode(encode(value))
        assert type(back) is type(value) and back == value
        assert pickle.loads(pickle.dumps(value)) == value


def test_a_bag_draws_each_piece_equally_often_and_keeps_its_count() -> None:
    rng = Rng(11)
    tally: Counter[int] = Counter()
    for _ in range(3000):
        b = Bag([1, 0, 3])
        tally[b.draw(rng)] += 1
        assert b.total == 3 == sum(b.counts)
    assert tally[1] == 0
    assert 0.2 < tally[0] / 3000 < 0.3  # one piece in four
    b = Bag([1, 1])
    b.draw(rng)
    b.draw(rng)
    with pytest.raises(IndexError, match="empty bag"):
        b.draw(rng)


def test_a_bag_refuses_to_give_pieces_it_does_not_hold() -> None:
    b = Bag([2, 0])
    with pytest.raises(ValueError, match="holds 0 of kind 1"):
        b.take(1)
    with pytest.raises(ValueError, match="negative"):
        Bag([1, -1])
    b.take(0, 2)
    assert not b
    b.check()


def test_a_die_rolls_only_its_faces_and_each_of_them() -> None:
    rng = Rng(5)
    rolls = Counter(D6.roll_many(rng, 600))
    assert set(rolls) == {1, 2, 3, 4, 5, 6}
    skull = Die([0, 0, 1])
    assert set(skull.roll_many(rng, 100)) == {0, 1}
    with pytest.raises(ValueError, match="at least one face"):
        Die([])


def test_squares_are_named_column_letter_then_row_number() -> None:
    g = SquareGrid(4, 3)
    assert g.names[:5] == ("a1", "b1", "c1", "d1", "a2")
    assert g.parse(" C3 ") == 10 and g.name(10) == "c3"
    assert g.position(10) == (2, 2)
    with pytest.raises(ValueError, match="columns a-d, rows 1-3"):
        g.parse("e1")


def test_grid_neighbours_rays_and_wrapping() -> None:
    g = SquareGrid(3, 3)
    n4 = g.neighbours(ORTHOGONAL)
    assert n4[0] == (1, 3)  # east, south (north and west are off the board)
    assert sorted(n4[4]) == [1, 3, 5, 7]
    assert len(g.neighbours(ORTHOGONAL + DIAGONAL)[4]) == 8
    assert g.step(0, (-1, 0)) == -1 and g.step(0, (-1, 0), wrap=True) == 6
    assert g.steps(((0, 1),), wrap=True)[2] == (0,)
    assert g.rays(ORTHOGONAL, 2)[0] == ((1, 2), (3, 6))
    assert g.distance(0, 8) == 4 and g.distance(0, 8, diagonal=True) == 2
    for a in range(g.size):  # adjacency is symmetric
        assert all(a in n4[b] for b in n4[a])


def _hexagon(radius: int) -> list[tuple[int, int]]:
    out = []
    for r in range(-radius, radius + 1):
        w = 2 * radius - abs(r)
        out.extend((r, c) for c in range(-w, w + 1, 2))
    return out


def test_hex_distance_is_the_number_of_steps_between_hexes() -> None:
    coords = [(r + 4, c + 6) for r, c in _hexagon(3)]
    g = HexGrid(coords)
    assert len(g) == 37
    assert all(len(n) <= 6 for n in g.neighbours)
    assert max(len(n) for n in g.neighbours) == 6
    start = g.at(4, 6)
    dist = {start: 0}
    todo = deque([start])
    while todo:
        a = todo.popleft()
        for b in g.neighbours[a]:
            if b not in dist:
                dist[b] = dist[a] + 1
                todo.append(b)
    assert all(g.distance(start, h) == d for h, d in dist.items())
    assert g.name(start) == "g5" and g.parse("G5") == start


def test_a_hex_map_refuses_bad_coordinates_and_names() -> None:
    with pytest.raises(ValueError, match="must be even"):
        HexGrid([(0, 1)])
    with pytest.raises(ValueError, match="listed twice"):
        HexGrid([(0, 0), (0, 0)])
    g = HexGrid([(0, 0), (0, 2)])
    assert g.neighbours == ((1,), (0,))
    assert g.at(5, 5) == -1
    with pytest.raises(ValueError, match=r"e\.g\. a1"):
        g.parse("z9")
