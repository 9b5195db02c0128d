"""The monster module (option ``monsters``): four standees that players activate.

Notes section 12. Each hand, once every card is played and before anyone sails, the
player who played the lowest card of a monster's suit (the highest under Low Tide)
activates that monster; several activations resolve in the sailing order of the
activating cards. Activating means: choose move-first or ability-first, move the monster
in a straight line to the first island in one of the 8 headings (never stopping on open
sea, never onto another monster's island; staying put if no heading works, which counts
as its move), and use its ability on its current island. Monsters never touch gold.

Phase ``MONSTER``. An activation is a few steps on the decision stack, each a rule
below: the order (move or ability first), the move, the ability (again while it has more to
do: the shark takes from each ship in turn, the whale draws before it spouts), then an
automatic step that starts the next activation (or the sailing). Every choice is made by the
activating player; steps with one or no choice resolve themselves. What the table shows of
the activation in progress is ``state.mact`` (an immutable :class:`Activation`, replaced at
each step, so clones share it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cove.core.decisions import Step
from cove.games.tricky_tides.actions import (
    ACT,
    CARD_TEXT,
    DRAGON_SWAP,
    M_MOVE,
    M_ORDER,
    NG,
    OCTO_GRAB,
    OCTO_MOVE,
    SHARK_EAT,
    SHARK_TAKE,
    WHALE_SPOUT,
    Act,
)
from cove.games.tricky_tides.constants import SEATS, G
from cove.games.tricky_tides.data import DATA, GOLD, NONGOLD
from cove.games.tricky_tides.decision_stack import (
    K_M_ABILITY,
    K_M_MOVE,
    K_M_NEXT,
    K_M_ORDER,
    TidesRule,
)
from cove.games.tricky_tides.geometry import CELL_NAMES, CELLS, HEADINGS
from cove.games.tricky_tides.module_state import Activation
from cove.games.tricky_tides.round_rules import EX_MONSTERS

if TYPE_CHECKING:
    from cove.games.tricky_tides.state import TidesState

__all__ = ["RULES", "begin", "setup", "view"]
SUIT = {name: i for i, name in enumerate(DATA.suits)}
OCTOPUS, DRAGON, SHARK, WHALE = SUIT["octopus"], SUIT["sea dragon"], SUIT["shark"], SUIT["whale"]
NAMES = DATA.suits
WHALE_GOODS = 3             # the whale spouts 3 non-gold goods [INFERRED from the seed]
WHALE_MIN_ON_MAP = 2        # its heading must land at least 2 of them on the map [SEED]


def setup(s: TidesState) -> None:
    """R14.1: each monster on the island with its icon (monster islands are never flipped)."""
    mpos = [-1] * len(NAMES)
    for c in range(CELLS):
        m = DATA.islands[s.layout[c]].monster
        if m >= 0 and not s.sea[c]:
            mpos[m] = c
    s.mod = s.mod._replace(mpos=tuple(mpos))
    s.ex |= EX_MONSTERS
    s.mact = None


def _place(s: TidesState, c: int) -> str:
    return s._place(c)


# ---------------------------------------------------------------------------- activation
def activations(s: TidesState) -> tuple[tuple[int, int], ...]:
    """(monster, player) pairs activated by the cards of this hand, in sailing order."""
    high = s.mod.rules.monster_trigger == "highest"        # Low Tide
    trick = s.trick
    found = []
    for m, cell in enumerate(s.mod.mpos):
        if cell < 0:
            continue
        who = best = -1
        for p in range(s.n):
            c = trick[p]
            if c >> 3 == m:
                v = c & 7
                if who < 0 or (v > best if high else v < best):
                    who, best = p, v
        if who >= 0:             # nobody played the suit: not activated [INFERRED]
            found.append((s.sorder.index(who), m, who))
    found.sort()
    return tuple((m, p) for _, m, p in found)


def begin(s: TidesState) -> None:
    """Every card of the hand is played: activate the monsters, then ships sail."""
    queue = activations(s)
    if s.logging and queue:
        word = "highest" if s.mod.rules.monster_trigger == "highest" else "lowest"
        s.say("Monsters activated: " + "; ".join(
            f"the {NAMES[m]} by P{p + 1} ({word} {NAMES[m]}: {_card(s.trick[p])})"
            for m, p in queue), kind="monsters",
            data={"activations": [{"monster": NAMES[m], "player": p} for m, p in queue]})
    _next(s, queue)


def _card(c: int) -> str:
    return CARD_TEXT[c]


def _next(s: TidesState, queue: tuple[tuple[int, int], ...]) -> None:
    """Start the next activation of ``queue``; none left: the ships sail."""
    if not queue:
        s.mact = None
        s._start_sailing()
        return
    (m, p), rest = queue[0], queue[1:]
    s.push(_NEXT_STEP)
    if targets(s, m):
        s.mact = Activation(rest, m, p, -1, False, False)
        s.push(_ORDER_STEPS[p])
    else:
        _stays(s, m)
        s.mact = Activation(rest, m, p, 1, True, False)
        s.push(_ABILITY_STEPS[p])


def _stays(s: TidesState, m: int) -> None:
    if s.logging:
        s.say(f"The {NAMES[m]} has no legal move and stays at {_place(s, s.mod.mpos[m])} "
              "(this counts as its move)")


def targets(s: TidesState, m: int) -> list[int]:
    """Islands monster ``m`` may move to: the first island in each heading, across open
    sea, not off the map (unless the map wraps), not another monster's island."""
    mpos = s.mod.mpos
    c = mpos[m]
    one = s.one_step()
    row = one[c]
    runs = s.monster_runs()
    sea = s.sea
    out: list[int] = []
    for h in range(8):
        t = row[h]
        if t < 0:
            continue
        if sea[t]:
            t = runs[t][h]
        if t < 0 or t == c or t in mpos or t in out:
            continue
        out.append(t)
    return out


def adjacent_islands(s: TidesState, c: int) -> list[int]:
    """Islands one card away from ``c`` in any of the 8 headings (wrapping if the map
    wraps); open sea does not count."""
    out: list[int] = []
    for t in s.one_step()[c]:
        if t >= 0 and t != c and not s.sea[t] and t not in out:
            out.append(t)
    return out


def _variant(s: TidesState, m: int) -> str:
    o = s._opts()
    if m == SHARK:
        return o.shark
    if m == OCTOPUS:
        return o.octopus
    if m == DRAGON:
        return o.sea_dragon
    return o.whale


def _use_ability(s: TidesState, act: int) -> None:
    """Carry out an ability action (codes from ``SHARK_TAKE`` on)."""
    if act < SHARK_EAT:
        q, t = divmod(act - SHARK_TAKE, NG)
        _shark_take(s, q, NONGOLD[t])
    elif act < OCTO_MOVE:
        _shark_eat(s, NONGOLD[act - SHARK_EAT])
    elif act < OCTO_GRAB:
        t, c = divmod(act - OCTO_MOVE, CELLS)
        _octopus_move(s, NONGOLD[t], c)
    elif act < DRAGON_SWAP:
        q, t = divmod(act - OCTO_GRAB, NG)
        _octopus_grab(s, q, NONGOLD[t])
    elif act < WHALE_SPOUT:
        _dragon_swap(s, act - DRAGON_SWAP)
    else:
        _whale_spout(s, act - WHALE_SPOUT)


def _used(s: TidesState, data: tuple[int, ...] | None = None) -> None:
    a = s.mact
    assert a is not None
    s.mact = a._replace(used=True, data=data)


def _no_effect(s: TidesState, why: str) -> None:
    """The ability has nothing to do: say why; it counts as used."""
    a = s.mact
    assert a is not None
    if s.logging:
        s.say(f"The {NAMES[a.monster]} {why}")
    s.mact = a._replace(used=True)


# ---------------------------------------------------------------------------- the shark
def _ships_with_goods(s: TidesState, c: int, start: int) -> tuple[int, ...]:
    """Seats with a ship on ``c`` and a non-gold good in the hold, clockwise from
    ``start``."""
    n = s.n
    hold = s.hold
    out = []
    for i in range(n):
        q = (start + i) % n
        if s.pos[q] == c and any(hold[q * G + t] for t in NONGOLD):
            out.append(q)
    return tuple(out)


def _shark_holds_options(s: TidesState) -> tuple[Act, ...]:
    """[DESIGN] Each ship on the shark's island (the activator's too) returns 1 non-gold
    good of the activator's choice to the bag; ships are taken clockwise from the
    activator. () until the ships are listed (:func:`_shark_holds_start`)."""
    a = s.mact
    assert a is not None
    if a.data is None:
        return ()
    q = a.data[0]
    return tuple(ACT[SHARK_TAKE + q * NG + i] for i, t in enumerate(NONGOLD)
                 if s.hold[q * G + t])


def _shark_holds_start(s: TidesState) -> None:
    """List the ships the shark takes from (data), or no effect without any."""
    a = s.mact
    assert a is not None
    seats = _ships_with_goods(s, s.mod.mpos[SHARK], a.player)
    if not seats:
        _no_effect(s, f"finds no non-gold cargo at {CELL_NAMES[s.mod.mpos[SHARK]]}")
    else:
        s.mact = a._replace(data=seats)


def _shark_take(s: TidesState, q: int, t: int) -> None:
    s.hold[q * G + t] -= 1
    s.hcount[q] -= 1
    s.bag[t] += 1
    s.bag_n += 1
    if s.logging:
        s.say(f"The shark takes 1 {DATA.goods[t]} from P{q + 1}'s hold into the bag")
    a = s.mact
    assert a is not None and a.data is not None
    rest = a.data[1:]
    if rest:
        s.mact = a._replace(data=rest)
    else:
        _used(s)


def _shark_island_options(s: TidesState) -> tuple[Act, ...]:
    """[DESIGN alternative] All goods of one non-gold type on the shark's island go back
    to the bag."""
    c = s.mod.mpos[SHARK]
    return tuple(ACT[SHARK_EAT + i] for i, t in enumerate(NONGOLD) if s.goods[c * G + t])


def _shark_eat(s: TidesState, t: int) -> None:
    c = s.mod.mpos[SHARK]
    k = s.goods[c * G + t]
    s.goods[c * G + t] = 0
    s.bag[t] += k
    s.bag_n += k
    if s.logging:
        s.say(f"The shark eats {k} {DATA.goods[t]} on {CELL_NAMES[c]} (back to the bag)")
    _used(s)


# ---------------------------------------------------------------------------- the octopus
def _octopus_move_options(s: TidesState) -> tuple[Act, ...]:
    """[DESIGN] Move all goods of one non-gold type from the octopus's island to one
    adjacent island (any heading; not open sea, not off the map)."""
    c = s.mod.mpos[OCTOPUS]
    adj = adjacent_islands(s, c)
    return tuple(ACT[OCTO_MOVE + i * CELLS + d] for i, t in enumerate(NONGOLD)
                 if s.goods[c * G + t] for d in adj)


def _octopus_move(s: TidesState, t: int, d: int) -> None:
    c = s.mod.mpos[OCTOPUS]
    k = s.goods[c * G + t]
    s.goods[c * G + t] = 0
    s.goods[d * G + t] += k
    if s.logging:
        s.say(f"The octopus moves {k} {DATA.goods[t]} from {CELL_NAMES[c]} to "
              f"{CELL_NAMES[d]}")
    _used(s)


def _octopus_grab_options(s: TidesState) -> tuple[Act, ...]:
    """[DESIGN alternative] Take 1 non-gold good from one ship on the octopus's island and
    put it on the island."""
    c = s.mod.mpos[OCTOPUS]
    return tuple(ACT[OCTO_GRAB + q * NG + i] for q in range(s.n) if s.pos[q] == c
                 for i, t in enumerate(NONGOLD) if s.hold[q * G + t])


def _octopus_grab(s: TidesState, q: int, t: int) -> None:
    c = s.mod.mpos[OCTOPUS]
    s.hold[q * G + t] -= 1
    s.hcount[q] -= 1
    s.goods[c * G + t] += 1
    if s.logging:
        s.say(f"The octopus grabs 1 {DATA.goods[t]} from P{q + 1}'s hold onto "
              f"{CELL_NAMES[c]}")
    _used(s)


# ---------------------------------------------------------------------------- the sea dragon
def _dragon_bury(s: TidesState) -> None:
    """[DESIGN] The order on the sea dragon's island goes to the bottom of the order deck
    and the top card replaces it (no choice: carried out by :meth:`UseAbility.idle`)."""
    c = s.mod.mpos[DRAGON]
    o = s.orders_on[c]
    if o < 0:
        _no_effect(s, f"finds no order on {CELL_NAMES[c]}")
        return
    s.mod = s.mod._replace(obottom=(*s.mod.obottom, o))
    s.orders_on[c] = s._draw_order()
    if s.logging:
        s.say(f"The sea dragon sends order {DATA.orders[o].id} from {CELL_NAMES[c]} to the "
              f"bottom of the order deck; {CELL_NAMES[c]} gets "
              f"{DATA.orders[s.orders_on[c]].id}")
    _used(s)


def _dragon_swap_options(s: TidesState) -> tuple[Act, ...]:
    """[DESIGN alternative] Swap the sea dragon's island's order with an adjacent
    island's (at least one of the two must have an order)."""
    c = s.mod.mpos[DRAGON]
    on = s.orders_on
    return tuple(ACT[DRAGON_SWAP + d] for d in adjacent_islands(s, c)
                 if on[c] >= 0 or on[d] >= 0)


def _dragon_swap(s: TidesState, d: int) -> None:
    c = s.mod.mpos[DRAGON]
    on = s.orders_on
    on[c], on[d] = on[d], on[c]
    if s.logging:
        s.say(f"The sea dragon swaps the orders of {CELL_NAMES[c]} and {CELL_NAMES[d]}")
    _used(s)


# ---------------------------------------------------------------------------- the whale
def whale_line(s: TidesState, h: int, k: int) -> list[int]:
    """The ``k`` cards where the whale's goods land in heading ``h`` (-1: off the map):
    the next cards in a straight line (option whale=next) or starting with the whale's own
    island (whale=own); with option whale_empty_spot, cards holding a ship or a monster
    are skipped (the seed's "choose an empty spot")."""
    one = s.one_step()
    cur = s.mod.mpos[WHALE]
    opts = s._opts()
    out = [cur] if opts.whale == "own" else []
    # option whale_empty_spot: a good skips cards holding a ship or a monster
    busy = {*s.pos, *s.mod.mpos} if opts.whale_empty_spot else ()
    while len(out) < k:
        for _ in range(CELLS):          # bounded: a wrapping line may come round again
            cur = one[cur][h] if cur >= 0 else -1
            if cur not in busy:
                break
        else:
            cur = -1                    # every card ahead is occupied: no spot on the map
        out.append(cur)
    return out[:k]


def _whale_draw(s: TidesState) -> None:
    """[INFERRED from the seed] Draw until 3 non-gold goods (gold drawn goes back to the
    bag); nothing drawn: the ability is used up."""
    a = s.mact
    assert a is not None
    drawn: list[int] = []
    gold = 0
    bag = s.bag
    while len(drawn) < WHALE_GOODS and s.bag_n - bag[GOLD] > 0:
        t = s._draw()
        if t == GOLD:                 # gold goes back and the whale draws again
            bag[GOLD] += 1
            s.bag_n += 1
            gold += 1
        else:
            drawn.append(t)
    if s.logging:
        got = ", ".join(DATA.goods[t] for t in drawn) or "nothing (no non-gold goods left)"
        extra = f" ({gold} gold drawn and put back)" if gold else ""
        s.say(f"The whale draws {got}{extra}")
    s.mact = a._replace(data=tuple(drawn)) if drawn else a._replace(used=True)


def _whale_options(s: TidesState) -> tuple[Act, ...]:
    """The headings landing at least 2 of the drawn goods on the map (see
    :func:`_whale_spout`); () before the draw."""
    a = s.mact
    assert a is not None
    if a.data is None:
        return ()
    k = len(a.data)
    need = min(WHALE_MIN_ON_MAP, k)
    # option whale_on_map: "islands" (the seed's "place ... on the map": a good landing on
    # open sea goes back, so it is not placed) or "cards" (any map card counts)
    sea = s.sea if s._opts().whale_on_map == "islands" else (False,) * CELLS
    return tuple(ACT[WHALE_SPOUT + h] for h in range(8)
                 if sum(1 for c in whale_line(s, h, k) if c >= 0 and not sea[c]) >= need)


def _whale_no_choice(s: TidesState) -> None:
    a = s.mact
    assert a is not None
    if a.data is None:
        _whale_draw(s)
        return
    # no heading places enough goods (open sea, occupied cards, the edge)
    for t in a.data:
        s.bag[t] += 1
        s.bag_n += 1
    _used(s)
    _no_effect(s, "finds no heading; its goods go back to the bag")


def _whale_spout(s: TidesState, h: int) -> None:
    a = s.mact
    assert a is not None and a.data is not None
    line = whale_line(s, h, len(a.data))
    parts = []
    for t, c in zip(a.data, line, strict=True):
        if c < 0 or s.sea[c]:             # lands in the sea or off the map: to the bag
            s.bag[t] += 1
            s.bag_n += 1
            where = "off the map" if c < 0 else f"in the sea at {CELL_NAMES[c]}"
            parts.append(f"{DATA.goods[t]} {where} (back to the bag)")
        else:
            s.goods[c * G + t] += 1
            parts.append(f"{DATA.goods[t]} onto {CELL_NAMES[c]}")
    if s.logging:
        s.say(f"The whale spouts {HEADINGS[h]}: " + ", ".join(parts))
    _used(s)


def _ability_prompt(s: TidesState, acts: tuple[Act, ...]) -> str:
    """One sentence for the activating player: what the ability step decides."""
    first = int(acts[0])
    if first < SHARK_EAT:
        q = (first - SHARK_TAKE) // NG
        return (f"The shark takes 1 non-gold good from P{q + 1}'s hold into the bag: "
                "choose which")
    if first < OCTO_MOVE:
        return "The shark eats every good of one non-gold type on its island: choose which"
    if first < OCTO_GRAB:
        return ("The octopus moves every good of one non-gold type to an adjacent island: "
                "choose the type and the island")
    if first < DRAGON_SWAP:
        return "The octopus grabs 1 non-gold good from a ship on its island: choose which"
    if first < WHALE_SPOUT:
        return ("The sea dragon swaps its island's order with an adjacent island's: "
                "choose the island")
    where = "islands" if s._opts().whale_on_map == "islands" else "the map"
    return f"The whale spouts its goods: choose a heading that lands at least 2 on {where}"


def pending_cubes(s: TidesState) -> int:
    """Cubes drawn by the whale and not yet placed (for the 78-cube count)."""
    a = s.mact
    if a is None or a.monster != WHALE or a.used or a.data is None:
        return 0
    return len(a.data)


ABILITY_OPTIONS: dict[tuple[int, str], Callable[[TidesState], tuple[Act, ...]]] = {
    (SHARK, "holds"): _shark_holds_options,
    (SHARK, "island"): _shark_island_options,
    (OCTOPUS, "move"): _octopus_move_options,
    (OCTOPUS, "grab"): _octopus_grab_options,
    (DRAGON, "bury"): lambda s: (),
    (DRAGON, "swap"): _dragon_swap_options,
    (WHALE, "next"): _whale_options,
    (WHALE, "own"): _whale_options,
}
"""The choices of each ability, computed without changing anything."""


def _nothing(why: str) -> Callable[[TidesState], None]:
    def run(s: TidesState) -> None:
        m = s.mact
        assert m is not None
        _no_effect(s, why.format(CELL_NAMES[s.mod.mpos[m.monster]]))
    return run


ABILITY_NO_CHOICE: dict[tuple[int, str], Callable[[TidesState], None]] = {
    (SHARK, "holds"): _shark_holds_start,
    (SHARK, "island"): _nothing("finds no non-gold goods on {}"),
    (OCTOPUS, "move"): _nothing("finds nothing to move on {}"),
    (OCTOPUS, "grab"): _nothing("finds no non-gold cargo at {}"),
    (DRAGON, "bury"): _dragon_bury,
    (DRAGON, "swap"): _nothing("has no order to swap at {}"),
    (WHALE, "next"): _whale_no_choice,
    (WHALE, "own"): _whale_no_choice,
}
"""What each ability does when it offers no choice (see :meth:`UseAbility.idle`)."""

ABILITY_TEXT = {
    (SHARK, "holds"): "each ship on its island returns 1 non-gold good (activator's choice) "
                      "to the bag",
    (SHARK, "island"): "all goods of one non-gold type on its island go to the bag",
    (OCTOPUS, "move"): "moves all goods of one non-gold type from its island to an adjacent "
                       "island",
    (OCTOPUS, "grab"): "takes 1 non-gold good from a ship on its island onto the island",
    (DRAGON, "bury"): "its island's order goes under the order deck and is replaced",
    (DRAGON, "swap"): "swaps its island's order with an adjacent island's",
    (WHALE, "next"): "draws 3 non-gold goods and spouts them onto the next 3 cards in a "
                     "heading (at least 2 on the map; sea or off-map: back to the bag)",
    (WHALE, "own"): "draws 3 non-gold goods and spouts them in a line starting on its own "
                    "island (at least 2 on the map; sea or off-map: back to the bag)",
}


def view(s: TidesState) -> dict[str, Any]:
    """Public: where each monster stands, what it does, the activation in progress."""
    skip = " (cards holding a ship or monster are skipped)" if (
        s._opts().whale_empty_spot) else ""
    mons = [{"monster": NAMES[m], "cell": CELL_NAMES[c] if c >= 0 else None,
             "ability": ABILITY_TEXT[(m, _variant(s, m))] + (skip if m == WHALE else "")}
            for m, c in enumerate(s.mod.mpos)]
    a = s.mact
    act = None
    if a is not None:
        act = {
            "monster": NAMES[a.monster],
            "player": a.player,
            "order": None if a.first < 0 else ("move first", "ability first")[a.first],
            "moved": a.moved,
            "ability_used": a.used,
            "whale_goods": ([DATA.goods[t] for t in a.data]
                            if a.monster == WHALE and a.data and not a.used else []),
            "next": [{"monster": NAMES[m], "player": p} for m, p in a.queue],
        }
    return {"monsters": mons, "monster_activation": act,
            "orders_at_bottom": [DATA.orders[o].id for o in s.mod.obottom]}


# ---------------------------------------------------------------------------- the steps
class _MonsterRule(TidesRule["TidesState"]):
    """A step of the activation in progress (``state.mact``), decided by its activator.
    Clients see every monster step as one decision kind, "monster"."""

    name = "monster"

    def public_prompt(self, state: TidesState, step: Step) -> str:
        a = state.mact
        return f"activating the {NAMES[a.monster]}" if a is not None else ""


class ChooseOrder(_MonsterRule):
    """Move first or use the ability first."""

    def legal(self, state: TidesState, step: Step, player: int) -> tuple[Act, ...]:
        assert state.mact is not None
        m = state.mact.monster
        return (ACT[M_ORDER + 2 * m], ACT[M_ORDER + 2 * m + 1])

    def apply(self, state: TidesState, step: Step, player: int, action: Any) -> None:
        a = state.mact
        assert a is not None
        first = (action - M_ORDER) & 1
        state.mact = a._replace(first=first)
        if state.logging:
            state.say(f"P{player + 1} has the {NAMES[a.monster]} "
                      + ("move first" if first == 0 else "use its ability first"))
        p = step.players[0]
        if first == 0:
            state.then(_MOVE_STEPS[p], _ABILITY_STEPS[p])
        else:
            state.then(_ABILITY_STEPS[p], _MOVE_STEPS[p])

    def prompt(self, state: TidesState, step: Step, player: int) -> str:
        assert state.mact is not None
        return (f"You activated the {NAMES[state.mact.monster]}: choose whether it moves or "
                "uses its ability first")


class MoveMonster(_MonsterRule):
    """Move the monster in a straight line to the first island of a heading."""

    def legal(self, state: TidesState, step: Step, player: int) -> tuple[Act, ...]:
        assert state.mact is not None
        m = state.mact.monster
        return tuple(ACT[M_MOVE + m * CELLS + t] for t in targets(state, m))

    def idle(self, state: TidesState, step: Step, player: int) -> None:
        """Nowhere to go: the monster stays (this counts as its move)."""
        a = state.mact
        assert a is not None
        _stays(state, a.monster)
        state.mact = a._replace(moved=True)

    def apply(self, state: TidesState, step: Step, player: int, action: Any) -> None:
        a = state.mact
        assert a is not None
        m = a.monster
        t = (action - M_MOVE) % CELLS
        c = state.mod.mpos[m]
        mpos = list(state.mod.mpos)
        mpos[m] = t
        state.mod = state.mod._replace(mpos=tuple(mpos))
        state.mact = a._replace(moved=True)
        if state.logging:
            state.say(f"P{player + 1} moves the {NAMES[m]} from {CELL_NAMES[c]} to "
                      f"{_place(state, t)}", kind="monster_move",
                      data={"player": player, "monster": NAMES[m], "from": CELL_NAMES[c],
                            "to": CELL_NAMES[t]})

    def prompt(self, state: TidesState, step: Step, player: int) -> str:
        assert state.mact is not None
        return f"Move the {NAMES[state.mact.monster]} in a straight line to another island"


class UseAbility(_MonsterRule):
    """The monster's ability (its variant's option). It stays on the stack until the
    ability is used: the shark takes from one ship at a time, the whale draws first."""

    def legal(self, state: TidesState, step: Step, player: int) -> tuple[Act, ...]:
        assert state.mact is not None
        m = state.mact.monster
        return ABILITY_OPTIONS[(m, _variant(state, m))](state)

    def idle(self, state: TidesState, step: Step, player: int) -> None:
        """An ability that starts with a draw or a list of ships gets it; one with nothing
        to do (or nothing to choose, the sea dragon's bury) resolves."""
        assert state.mact is not None
        m = state.mact.monster
        ABILITY_NO_CHOICE[(m, _variant(state, m))](state)
        _again(state, step)

    def apply(self, state: TidesState, step: Step, player: int, action: Any) -> None:
        _use_ability(state, action)
        _again(state, step)

    def prompt(self, state: TidesState, step: Step, player: int) -> str:
        return _ability_prompt(state, self.legal(state, step, player))


def _again(s: TidesState, step: Step) -> None:
    """The ability step stays until the ability is used."""
    a = s.mact
    assert a is not None
    if not a.used:
        s.push(step)


class NextActivation(TidesRule["TidesState"]):
    """Automatic: this activation is done; the next one (or the sailing) starts."""

    def run(self, state: TidesState, step: Step) -> None:
        a = state.mact
        assert a is not None
        _next(state, a.queue)


_ORDER_STEPS = tuple(Step(K_M_ORDER, (p,)) for p in range(SEATS))
_MOVE_STEPS = tuple(Step(K_M_MOVE, (p,)) for p in range(SEATS))
_ABILITY_STEPS = tuple(Step(K_M_ABILITY, (p,)) for p in range(SEATS))
_NEXT_STEP = Step(K_M_NEXT)

RULES: dict[str, TidesRule[TidesState]] = {K_M_ORDER: ChooseOrder(), K_M_MOVE: MoveMonster(),
                                           K_M_ABILITY: UseAbility(),
                                           K_M_NEXT: NextActivation()}
"""The monster module's step rules, by kind."""
