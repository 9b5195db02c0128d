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
the activation in progress is ``state.activation`` (an immutable :class:`Activation`,
replaced at each step, so clones share it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from cove.core import Step, replaced
from cove.games.tricky_tides.actions import (
    ACT,
    CARD_TEXT,
    DRAGON_SWAP,
    M_MOVE,
    M_ORDER,
    NONGOLD_TYPES,
    OCTO_GRAB,
    OCTO_MOVE,
    SHARK_EAT,
    SHARK_TAKE,
    WHALE_SPOUT,
    Act,
)
from cove.games.tricky_tides.constants import SEATS, suit_of, value_of
from cove.games.tricky_tides.data import DATA, GOLD, GOODS_TYPES, NONGOLD
from cove.games.tricky_tides.decision_stack import (
    K_M_ABILITY,
    K_M_MOVE,
    K_M_NEXT,
    K_M_ORDER,
    TidesRule,
)
from cove.games.tricky_tides.geometry import CELL_NAMES, CELLS, HEADINGS
from cove.games.tricky_tides.module_state import (
    ABILITY_FIRST,
    MOVE_FIRST,
    NOT_CHOSEN,
    Activation,
    Trigger,
)
from cove.games.tricky_tides.round_rules import HOOK_MONSTERS

if TYPE_CHECKING:
    from cove.games.tricky_tides.state import TidesState

__all__ = ["RULES", "begin", "setup", "view"]
SUIT: Final = {name: i for i, name in enumerate(DATA.suits)}
OCTOPUS, DRAGON, SHARK, WHALE = SUIT["octopus"], SUIT["sea dragon"], SUIT["shark"], SUIT["whale"]
NAMES: Final = DATA.suits
WHALE_GOODS: Final = 3             # the whale spouts 3 non-gold goods [INFERRED from the seed]
WHALE_MIN_ON_MAP: Final = 2        # its heading must land at least 2 of them on the map [SEED]


def setup(state: TidesState) -> None:
    """R14.1: each monster on the island with its icon (monster islands are never flipped)."""
    cells = [-1] * len(NAMES)
    for cell in range(CELLS):
        monster = DATA.islands[state.layout[cell]].monster
        if monster >= 0 and not state.sea[cell]:
            cells[monster] = cell
    state.modules = state.modules._replace(monster_cells=tuple(cells))
    state.hooks |= HOOK_MONSTERS
    state.activation = None


def _cell_of(state: TidesState, monster: int) -> int:
    """The cell ``monster`` stands on."""
    return state.modules.monster_cells[monster]


def _activation(state: TidesState) -> Activation:
    """The activation in progress (there is one whenever a monster step is pending)."""
    activation = state.activation
    assert activation is not None
    return activation


# ---------------------------------------------------------------------------- activation
def activations(state: TidesState) -> tuple[Trigger, ...]:
    """The monsters the cards of this hand activate, and who activates each, in sailing
    order (R14.2)."""
    highest = state.modules.rules.monster_trigger == "highest"        # Low Tide
    trick = state.trick
    found = []
    for monster, cell in enumerate(state.modules.monster_cells):
        if cell < 0:
            continue
        who = best = -1
        for p in range(state.n):
            card = trick[p]
            if suit_of(card) == monster:
                value = value_of(card)
                if who < 0 or (value > best if highest else value < best):
                    who, best = p, value
        if who >= 0:             # nobody played the suit: not activated [INFERRED]
            found.append((state.sailing_order.index(who), monster, who))
    found.sort()
    return tuple(Trigger(monster, player) for _, monster, player in found)


def begin(state: TidesState) -> None:
    """Every card of the hand is played: activate the monsters, then ships sail."""
    queue = activations(state)
    if state.logging and queue:
        word = "highest" if state.modules.rules.monster_trigger == "highest" else "lowest"
        state.say("Monsters activated: " + "; ".join(
            f"the {NAMES[t.monster]} by P{t.player + 1} ({word} {NAMES[t.monster]}: "
            f"{CARD_TEXT[state.trick[t.player]]})" for t in queue), kind="monsters",
            data={"activations": [{"monster": NAMES[t.monster], "player": t.player}
                                  for t in queue]})
    _next(state, queue)


def _next(state: TidesState, queue: tuple[Trigger, ...]) -> None:
    """Start the next activation of ``queue``; none left: the ships sail."""
    if not queue:
        state.activation = None
        state._start_sailing()
        return
    trigger, rest = queue[0], queue[1:]
    monster, player = trigger.monster, trigger.player
    state.push(_NEXT_STEP)
    if targets(state, monster):
        state.activation = Activation(rest, monster, player)
        state.push(_ORDER_STEPS[player])
    else:
        _stays(state, monster)
        state.activation = Activation(rest, monster, player, first=ABILITY_FIRST,
                                      moved=True)
        state.push(_ABILITY_STEPS[player])


def _stays(state: TidesState, monster: int) -> None:
    if state.logging:
        state.say(f"The {NAMES[monster]} has no legal move and stays at "
                  f"{state._place_name(_cell_of(state, monster))} (this counts as its move)")


def targets(state: TidesState, monster: int) -> list[int]:
    """Islands ``monster`` may move to: the first island in each heading, across open
    sea, not off the map (unless the map wraps), not another monster's island."""
    monster_cells = state.modules.monster_cells
    here = monster_cells[monster]
    row = state.one_step()[here]
    runs = state.monster_runs()
    sea = state.sea
    out: list[int] = []
    for heading in range(8):
        cell = row[heading]
        if cell < 0:
            continue
        if sea[cell]:
            cell = runs[cell][heading]
        if cell < 0 or cell == here or cell in monster_cells or cell in out:
            continue
        out.append(cell)
    return out


def adjacent_islands(state: TidesState, cell: int) -> list[int]:
    """Islands one card away from ``cell`` in any of the 8 headings (wrapping if the map
    wraps); open sea does not count."""
    out: list[int] = []
    for other in state.one_step()[cell]:
        if other >= 0 and other != cell and not state.sea[other] and other not in out:
            out.append(other)
    return out


def _variant(state: TidesState, monster: int) -> str:
    """The monster's ability variant (its option)."""
    options = state.options
    if monster == SHARK:
        return options.shark
    if monster == OCTOPUS:
        return options.octopus
    if monster == DRAGON:
        return options.sea_dragon
    return options.whale


def _use_ability(state: TidesState, action: int) -> None:
    """Carry out an ability action (codes from ``SHARK_TAKE`` on)."""
    if action < SHARK_EAT:
        seat, i = divmod(action - SHARK_TAKE, NONGOLD_TYPES)
        _shark_take(state, seat, NONGOLD[i])
    elif action < OCTO_MOVE:
        _shark_eat(state, NONGOLD[action - SHARK_EAT])
    elif action < OCTO_GRAB:
        i, cell = divmod(action - OCTO_MOVE, CELLS)
        _octopus_move(state, NONGOLD[i], cell)
    elif action < DRAGON_SWAP:
        seat, i = divmod(action - OCTO_GRAB, NONGOLD_TYPES)
        _octopus_grab(state, seat, NONGOLD[i])
    elif action < WHALE_SPOUT:
        _dragon_swap(state, action - DRAGON_SWAP)
    else:
        _whale_spout(state, action - WHALE_SPOUT)


def _used(state: TidesState) -> None:
    """The ability is used up (its working lists cleared)."""
    state.activation = _activation(state)._replace(used=True, ships_left=None,
                                                   whale_goods=None)


def _no_effect(state: TidesState, why: str) -> None:
    """The ability has nothing to do: say why; it counts as used."""
    activation = _activation(state)
    if state.logging:
        state.say(f"The {NAMES[activation.monster]} {why}")
    state.activation = activation._replace(used=True)


# ---------------------------------------------------------------------------- the shark
def _ships_with_goods(state: TidesState, cell: int, start: int) -> tuple[int, ...]:
    """Seats with a ship on ``cell`` and a non-gold good in the hold, clockwise from
    ``start``."""
    n = state.n
    hold = state.hold
    out = []
    for i in range(n):
        seat = (start + i) % n
        if state.ship_cells[seat] == cell and any(hold[seat * GOODS_TYPES + t]
                                                  for t in NONGOLD):
            out.append(seat)
    return tuple(out)


def _shark_holds_options(state: TidesState) -> tuple[Act, ...]:
    """[DESIGN] Each ship on the shark's island (the activator's too) returns 1 non-gold
    good of the activator's choice to the bag; ships are taken clockwise from the
    activator. () until the ships are listed (:func:`_shark_holds_start`)."""
    ships_left = _activation(state).ships_left
    if ships_left is None:
        return ()
    seat = ships_left[0]
    return tuple(ACT[SHARK_TAKE + seat * NONGOLD_TYPES + i] for i, t in enumerate(NONGOLD)
                 if state.hold[seat * GOODS_TYPES + t])


def _shark_holds_start(state: TidesState) -> None:
    """List the ships the shark takes from, or no effect without any."""
    activation = _activation(state)
    cell = _cell_of(state, SHARK)
    seats = _ships_with_goods(state, cell, activation.player)
    if not seats:
        _no_effect(state, f"finds no non-gold cargo at {CELL_NAMES[cell]}")
    else:
        state.activation = activation._replace(ships_left=seats)


def _shark_take(state: TidesState, seat: int, goods_type: int) -> None:
    state.hold[seat * GOODS_TYPES + goods_type] -= 1
    state.hold_count[seat] -= 1
    state.bag[goods_type] += 1
    state.bag_count += 1
    if state.logging:
        state.say(f"The shark takes 1 {DATA.goods[goods_type]} from P{seat + 1}'s hold into "
                  "the bag")
    activation = _activation(state)
    assert activation.ships_left is not None
    rest = activation.ships_left[1:]
    if rest:
        state.activation = activation._replace(ships_left=rest)
    else:
        _used(state)


def _shark_island_options(state: TidesState) -> tuple[Act, ...]:
    """[DESIGN alternative] All goods of one non-gold type on the shark's island go back
    to the bag."""
    base = _cell_of(state, SHARK) * GOODS_TYPES
    return tuple(ACT[SHARK_EAT + i] for i, t in enumerate(NONGOLD) if state.goods[base + t])


def _shark_eat(state: TidesState, goods_type: int) -> None:
    cell = _cell_of(state, SHARK)
    i = cell * GOODS_TYPES + goods_type
    k = state.goods[i]
    state.goods[i] = 0
    state.bag[goods_type] += k
    state.bag_count += k
    if state.logging:
        state.say(f"The shark eats {k} {DATA.goods[goods_type]} on {CELL_NAMES[cell]} (back "
                  "to the bag)")
    _used(state)


# ---------------------------------------------------------------------------- the octopus
def _octopus_move_options(state: TidesState) -> tuple[Act, ...]:
    """[DESIGN] Move all goods of one non-gold type from the octopus's island to one
    adjacent island (any heading; not open sea, not off the map)."""
    cell = _cell_of(state, OCTOPUS)
    base = cell * GOODS_TYPES
    nearby = adjacent_islands(state, cell)
    return tuple(ACT[OCTO_MOVE + i * CELLS + other] for i, t in enumerate(NONGOLD)
                 if state.goods[base + t] for other in nearby)


def _octopus_move(state: TidesState, goods_type: int, to: int) -> None:
    cell = _cell_of(state, OCTOPUS)
    k = state.goods[cell * GOODS_TYPES + goods_type]
    state.goods[cell * GOODS_TYPES + goods_type] = 0
    state.goods[to * GOODS_TYPES + goods_type] += k
    if state.logging:
        state.say(f"The octopus moves {k} {DATA.goods[goods_type]} from {CELL_NAMES[cell]} "
                  f"to {CELL_NAMES[to]}")
    _used(state)


def _octopus_grab_options(state: TidesState) -> tuple[Act, ...]:
    """[DESIGN alternative] Take 1 non-gold good from one ship on the octopus's island and
    put it on the island."""
    cell = _cell_of(state, OCTOPUS)
    return tuple(ACT[OCTO_GRAB + seat * NONGOLD_TYPES + i] for seat in range(state.n)
                 if state.ship_cells[seat] == cell
                 for i, t in enumerate(NONGOLD) if state.hold[seat * GOODS_TYPES + t])


def _octopus_grab(state: TidesState, seat: int, goods_type: int) -> None:
    cell = _cell_of(state, OCTOPUS)
    state.hold[seat * GOODS_TYPES + goods_type] -= 1
    state.hold_count[seat] -= 1
    state.goods[cell * GOODS_TYPES + goods_type] += 1
    if state.logging:
        state.say(f"The octopus grabs 1 {DATA.goods[goods_type]} from P{seat + 1}'s hold "
                  f"onto {CELL_NAMES[cell]}")
    _used(state)


# ---------------------------------------------------------------------------- the sea dragon
def _dragon_bury(state: TidesState) -> None:
    """[DESIGN] The order on the sea dragon's island goes to the bottom of the order deck
    and the top card replaces it (no choice: carried out by :meth:`UseAbility.idle`)."""
    cell = _cell_of(state, DRAGON)
    order = state.orders_on[cell]
    if order < 0:
        _no_effect(state, f"finds no order on {CELL_NAMES[cell]}")
        return
    state.modules = state.modules._replace(orders_under=(*state.modules.orders_under, order))
    state.orders_on = replaced(state.orders_on, cell, state._draw_order())
    if state.logging:
        state.say(f"The sea dragon sends order {DATA.orders[order].id} from "
                  f"{CELL_NAMES[cell]} to the bottom of the order deck; {CELL_NAMES[cell]} "
                  f"gets {DATA.orders[state.orders_on[cell]].id}")
    _used(state)


def _dragon_swap_options(state: TidesState) -> tuple[Act, ...]:
    """[DESIGN alternative] Swap the sea dragon's island's order with an adjacent
    island's (at least one of the two must have an order)."""
    cell = _cell_of(state, DRAGON)
    orders_on = state.orders_on
    return tuple(ACT[DRAGON_SWAP + other] for other in adjacent_islands(state, cell)
                 if orders_on[cell] >= 0 or orders_on[other] >= 0)


def _dragon_swap(state: TidesState, other: int) -> None:
    cell = _cell_of(state, DRAGON)
    orders_on = list(state.orders_on)
    orders_on[cell], orders_on[other] = orders_on[other], orders_on[cell]
    state.orders_on = tuple(orders_on)
    if state.logging:
        state.say(f"The sea dragon swaps the orders of {CELL_NAMES[cell]} and "
                  f"{CELL_NAMES[other]}")
    _used(state)


# ---------------------------------------------------------------------------- the whale
def whale_line(state: TidesState, heading: int, count: int) -> list[int]:
    """The ``count`` cards where the whale's goods land in ``heading`` (-1: off the map):
    the next cards in a straight line (option whale=next) or starting with the whale's own
    island (whale=own); with option whale_empty_spot, cards holding a ship or a monster
    are skipped (the seed's "choose an empty spot")."""
    one = state.one_step()
    cell = _cell_of(state, WHALE)
    options = state.options
    out = [cell] if options.whale == "own" else []
    # option whale_empty_spot: a good skips cards holding a ship or a monster
    busy = ({*state.ship_cells, *state.modules.monster_cells} if options.whale_empty_spot
            else ())
    while len(out) < count:
        for _ in range(CELLS):          # bounded: a wrapping line may come round again
            cell = one[cell][heading] if cell >= 0 else -1
            if cell not in busy:
                break
        else:
            cell = -1                   # every card ahead is occupied: no spot on the map
        out.append(cell)
    return out[:count]


def _whale_draw(state: TidesState) -> None:
    """[INFERRED from the seed] Draw until 3 non-gold goods (gold drawn goes back to the
    bag); nothing drawn: the ability is used up."""
    activation = _activation(state)
    drawn: list[int] = []
    gold = 0
    bag = state.bag
    while len(drawn) < WHALE_GOODS and state.bag_count - bag[GOLD] > 0:
        goods_type = state._draw()
        if goods_type == GOLD:          # gold goes back and the whale draws again
            bag[GOLD] += 1
            state.bag_count += 1
            gold += 1
        else:
            drawn.append(goods_type)
    if state.logging:
        got = ", ".join(DATA.goods[t] for t in drawn) or "nothing (no non-gold goods left)"
        extra = f" ({gold} gold drawn and put back)" if gold else ""
        state.say(f"The whale draws {got}{extra}")
    state.activation = (activation._replace(whale_goods=tuple(drawn)) if drawn
                        else activation._replace(used=True))


def _whale_options(state: TidesState) -> tuple[Act, ...]:
    """The headings landing at least 2 of the drawn goods on the map (see
    :func:`_whale_spout`); () before the draw."""
    drawn = _activation(state).whale_goods
    if drawn is None:
        return ()
    count = len(drawn)
    need = min(WHALE_MIN_ON_MAP, count)
    # option whale_on_map: "islands" (the seed's "place ... on the map": a good landing on
    # open sea goes back, so it is not placed) or "cards" (any map card counts)
    sea = state.sea if state.options.whale_on_map == "islands" else (False,) * CELLS
    return tuple(ACT[WHALE_SPOUT + heading] for heading in range(8)
                 if sum(1 for c in whale_line(state, heading, count) if c >= 0 and not sea[c])
                 >= need)


def _whale_no_choice(state: TidesState) -> None:
    drawn = _activation(state).whale_goods
    if drawn is None:
        _whale_draw(state)
        return
    # no heading places enough goods (open sea, occupied cards, the edge)
    for goods_type in drawn:
        state.bag[goods_type] += 1
        state.bag_count += 1
    _used(state)
    _no_effect(state, "finds no heading; its goods go back to the bag")


def _whale_spout(state: TidesState, heading: int) -> None:
    drawn = _activation(state).whale_goods
    assert drawn is not None
    line = whale_line(state, heading, len(drawn))
    parts = []
    for goods_type, cell in zip(drawn, line, strict=True):
        name = DATA.goods[goods_type]
        if cell < 0 or state.sea[cell]:     # lands in the sea or off the map: to the bag
            state.bag[goods_type] += 1
            state.bag_count += 1
            where = "off the map" if cell < 0 else f"in the sea at {CELL_NAMES[cell]}"
            parts.append(f"{name} {where} (back to the bag)")
        else:
            state.goods[cell * GOODS_TYPES + goods_type] += 1
            parts.append(f"{name} onto {CELL_NAMES[cell]}")
    if state.logging:
        state.say(f"The whale spouts {HEADINGS[heading]}: " + ", ".join(parts))
    _used(state)


def _ability_prompt(state: TidesState, acts: tuple[Act, ...]) -> str:
    """One sentence for the activating player: what the ability step decides."""
    first = int(acts[0])
    if first < SHARK_EAT:
        seat = (first - SHARK_TAKE) // NONGOLD_TYPES
        return (f"The shark takes 1 non-gold good from P{seat + 1}'s hold into the bag: "
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
    where = "islands" if state.options.whale_on_map == "islands" else "the map"
    return f"The whale spouts its goods: choose a heading that lands at least 2 on {where}"


def pending_cubes(state: TidesState) -> int:
    """Cubes drawn by the whale and not yet placed (for the 78-cube count)."""
    activation = state.activation
    if (activation is None or activation.monster != WHALE or activation.used
            or activation.whale_goods is None):
        return 0
    return len(activation.whale_goods)


ABILITY_OPTIONS: dict[tuple[int, str], Callable[[TidesState], tuple[Act, ...]]] = {
    (SHARK, "holds"): _shark_holds_options,
    (SHARK, "island"): _shark_island_options,
    (OCTOPUS, "move"): _octopus_move_options,
    (OCTOPUS, "grab"): _octopus_grab_options,
    (DRAGON, "bury"): lambda state: (),
    (DRAGON, "swap"): _dragon_swap_options,
    (WHALE, "next"): _whale_options,
    (WHALE, "own"): _whale_options,
}
"""The choices of each ability, computed without changing anything."""


def _nothing(why: str) -> Callable[[TidesState], None]:
    def run(state: TidesState) -> None:
        _no_effect(state, why.format(CELL_NAMES[_cell_of(state, _activation(state).monster)]))
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

ABILITY_TEXT: Final = {
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


def view(state: TidesState) -> dict[str, Any]:
    """Public: where each monster stands, what it does, the activation in progress."""
    skip = " (cards holding a ship or monster are skipped)" if (
        state.options.whale_empty_spot) else ""
    monsters = [{"monster": NAMES[m], "cell": CELL_NAMES[c] if c >= 0 else None,
                 "ability": ABILITY_TEXT[(m, _variant(state, m))] + (skip if m == WHALE
                                                                     else "")}
                for m, c in enumerate(state.modules.monster_cells)]
    activation = state.activation
    shown = None
    if activation is not None:
        drawn = activation.whale_goods
        shown = {
            "monster": NAMES[activation.monster],
            "player": activation.player,
            "order": (None if activation.first == NOT_CHOSEN
                      else "move first" if activation.first == MOVE_FIRST
                      else "ability first"),
            "moved": activation.moved,
            "ability_used": activation.used,
            "whale_goods": ([DATA.goods[t] for t in drawn]
                            if activation.monster == WHALE and drawn and not activation.used
                            else []),
            "next": [{"monster": NAMES[t.monster], "player": t.player}
                     for t in activation.queue],
        }
    return {"monsters": monsters, "monster_activation": shown,
            "orders_at_bottom": [DATA.orders[o].id for o in state.modules.orders_under]}


# ---------------------------------------------------------------------------- the steps
class _MonsterRule(TidesRule["TidesState"]):
    """A step of the activation in progress (``state.activation``), decided by its
    activator. Clients see every monster step as one decision kind, "monster"."""

    name = "monster"

    def public_prompt(self, state: TidesState, step: Step) -> str:
        activation = state.activation
        return f"activating the {NAMES[activation.monster]}" if activation is not None else ""


class ChooseOrder(_MonsterRule):
    """R14.4: move first or use the ability first."""

    def legal(self, state: TidesState, step: Step, player: int) -> tuple[Act, ...]:
        monster = _activation(state).monster
        return (ACT[M_ORDER + 2 * monster + MOVE_FIRST],
                ACT[M_ORDER + 2 * monster + ABILITY_FIRST])

    def apply(self, state: TidesState, step: Step, player: int, action: Any) -> None:
        activation = _activation(state)
        first = (action - M_ORDER) & 1
        state.activation = activation._replace(first=first)
        if state.logging:
            state.say(f"P{player + 1} has the {NAMES[activation.monster]} "
                      + ("move first" if first == MOVE_FIRST else "use its ability first"))
        p = step.players[0]
        if first == MOVE_FIRST:
            state.then(_MOVE_STEPS[p], _ABILITY_STEPS[p])
        else:
            state.then(_ABILITY_STEPS[p], _MOVE_STEPS[p])

    def prompt(self, state: TidesState, step: Step, player: int) -> str:
        return (f"You activated the {NAMES[_activation(state).monster]}: choose whether it "
                "moves or uses its ability first")


class MoveMonster(_MonsterRule):
    """R14.5: move the monster in a straight line to the first island of a heading."""

    def legal(self, state: TidesState, step: Step, player: int) -> tuple[Act, ...]:
        monster = _activation(state).monster
        return tuple(ACT[M_MOVE + monster * CELLS + cell] for cell in targets(state, monster))

    def idle(self, state: TidesState, step: Step, player: int) -> None:
        """Nowhere to go: the monster stays (this counts as its move)."""
        activation = _activation(state)
        _stays(state, activation.monster)
        state.activation = activation._replace(moved=True)

    def apply(self, state: TidesState, step: Step, player: int, action: Any) -> None:
        activation = _activation(state)
        monster = activation.monster
        to = (action - M_MOVE) % CELLS
        cells = list(state.modules.monster_cells)
        start = cells[monster]
        cells[monster] = to
        state.modules = state.modules._replace(monster_cells=tuple(cells))
        state.activation = activation._replace(moved=True)
        if state.logging:
            state.say(f"P{player + 1} moves the {NAMES[monster]} from {CELL_NAMES[start]} to "
                      f"{state._place_name(to)}", kind="monster_move",
                      data={"player": player, "monster": NAMES[monster],
                            "from": CELL_NAMES[start], "to": CELL_NAMES[to]})

    def prompt(self, state: TidesState, step: Step, player: int) -> str:
        return (f"Move the {NAMES[_activation(state).monster]} in a straight line to another "
                "island")


class UseAbility(_MonsterRule):
    """R15: the monster's ability (its variant's option). It stays on the stack until the
    ability is used: the shark takes from one ship at a time, the whale draws first."""

    def legal(self, state: TidesState, step: Step, player: int) -> tuple[Act, ...]:
        monster = _activation(state).monster
        return ABILITY_OPTIONS[(monster, _variant(state, monster))](state)

    def idle(self, state: TidesState, step: Step, player: int) -> None:
        """An ability that starts with a draw or a list of ships gets it; one with nothing
        to do (or nothing to choose, the sea dragon's bury) resolves."""
        monster = _activation(state).monster
        ABILITY_NO_CHOICE[(monster, _variant(state, monster))](state)
        _again(state, step)

    def apply(self, state: TidesState, step: Step, player: int, action: Any) -> None:
        _use_ability(state, action)
        _again(state, step)

    def prompt(self, state: TidesState, step: Step, player: int) -> str:
        return _ability_prompt(state, self.legal(state, step, player))


def _again(state: TidesState, step: Step) -> None:
    """The ability step stays until the ability is used."""
    if not _activation(state).used:
        state.push(step)


class NextActivation(TidesRule["TidesState"]):
    """Automatic: this activation is done; the next one (or the sailing) starts."""

    def run(self, state: TidesState, step: Step) -> None:
        _next(state, _activation(state).queue)


_ORDER_STEPS: Final = tuple(Step(K_M_ORDER, (p,)) for p in range(SEATS))
_MOVE_STEPS: Final = tuple(Step(K_M_MOVE, (p,)) for p in range(SEATS))
_ABILITY_STEPS: Final = tuple(Step(K_M_ABILITY, (p,)) for p in range(SEATS))
_NEXT_STEP: Final = Step(K_M_NEXT)

RULES: dict[str, TidesRule[TidesState]] = {K_M_ORDER: ChooseOrder(), K_M_MOVE: MoveMonster(),
                                           K_M_ABILITY: UseAbility(),
                                           K_M_NEXT: NextActivation()}
"""The monster module's step rules, by kind."""
