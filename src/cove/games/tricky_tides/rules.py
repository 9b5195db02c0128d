"""The decision steps of Tricky Tides: one rule per kind of step, in RULES.md order.

Each rule says who decides (the step's player), the legal actions (side-effect free), what
an action does and the one-sentence prompt; ``public_prompt`` is what the others are told.
Each is a ``TidesRule[TidesState]``, so its hooks are typed with the game's state at no
run-time cost. The kinds, in the order RULES.md gives them: first leader (R2.4, option
``first_leader=ask``), ship placement (R2.8), play a card (R3), sail (R5), open sea
(R5.6), pick up / deliver / pass (R6), overboard (R7); the monster steps (R14, R15) are in
``monsters.py``. :data:`STEPS` is the table ``TidesState.STEPS`` reads.

The legal lists are tuples of shared :class:`~cove.games.tricky_tides.actions.Act` values,
mostly read from tables made once here, so a decision allocates little.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from cove.core import Step
from cove.core.bits import has, including, without
from cove.games.tricky_tides import monsters
from cove.games.tricky_tides.actions import (
    ACT,
    ANCHOR,
    CARD_TEXT,
    DELIVER,
    DROP,
    FIRST_LEADER,
    M_ORDER,
    ONWARD,
    PAIR_INDEX,
    PAIRS,
    PASS,
    PICK,
    PICK2,
    PLAY,
    SAIL,
    START,
    STAY,
    STOP,
    SUIT_PLURALS,
    TAX_DELIVER,
    Act,
)
from cove.games.tricky_tides.constants import (
    CARD_SUIT,
    EVERY_GOODS_TYPE,
    ISLAND_COLOUR,
    ORDER_PAIRS,
    suit_cards,
    suit_values,
    with_void,
)
from cove.games.tricky_tides.data import DATA, GOODS_TYPES, NAV_CARDS, NONGOLD, SUITS, VALUES
from cove.games.tricky_tides.decision_stack import (
    K_ACTION,
    K_LEADER,
    K_OVERBOARD,
    K_PLACE,
    K_PLAY,
    K_SAIL,
    K_SEA,
    SEA_STEPS,
    TidesRule,
)
from cove.games.tricky_tides.geometry import CELL_NAMES, CELLS, HEADINGS
from cove.games.tricky_tides.round_rules import HOOK_FREE_ANCHOR, HOOK_PICK2, HOOK_TAX

if TYPE_CHECKING:
    from cove.games.tricky_tides.state import TidesState

_PLAYS: tuple[tuple[tuple[Act, ...], ...], ...] = tuple(
    tuple(tuple(ACT[PLAY + suit * VALUES + v] for v in range(VALUES) if has(values, v))
          for values in range(1 << VALUES))
    for suit in range(SUITS)
)
"""``_PLAYS[suit][values]``: the play actions of the cards of ``suit`` whose values are in
``values`` (``constants.suit_values``), made once so that a hand's legal plays are a few
tuple lookups."""
assert SUITS == 4    # _plays reads four suits


def _plays(hand: int) -> tuple[Act, ...]:
    """A play action for every card of ``hand``, in card order: each suit's table read at
    ``suit_values(hand, suit)``, which is the hand's byte ``suit``, written out here
    because this runs at every card decision of every simulated game."""
    return (_PLAYS[0][hand & 255] + _PLAYS[1][hand >> 8 & 255] + _PLAYS[2][hand >> 16 & 255]
            + _PLAYS[3][hand >> 24])


_PICK_ACTS: Final = tuple(ACT[PICK + t] for t in EVERY_GOODS_TYPE)
_DROP_ACTS: Final = tuple(ACT[DROP + t] for t in EVERY_GOODS_TYPE)
_A_PASS: Final = ACT[PASS]
_A_DELIVER: Final = ACT[DELIVER]
_A_ANCHOR: Final = ACT[ANCHOR]
_A_STAY: Final = ACT[STAY]
_PAIR_ACTS: Final = tuple(ACT[PICK2 + i] for i in range(len(PAIRS)))
_SEA_ACTS: Final = (ACT[STOP], ACT[ONWARD])
assert GOODS_TYPES == 5    # _types_present reads five goods counts


def _types_present(counts: bytearray, start: int) -> int:
    """The goods types present in ``counts[start:start + 5]`` (an island's goods or a
    hold), as a set of goods types."""
    return ((1 if counts[start] else 0) | (2 if counts[start + 1] else 0)
            | (4 if counts[start + 2] else 0) | (8 if counts[start + 3] else 0)
            | (16 if counts[start + 4] else 0))


_DROP_BY_TYPES: Final = tuple(tuple(_DROP_ACTS[t] for t in EVERY_GOODS_TYPE if has(types, t))
                       for types in range(1 << GOODS_TYPES))
"""``_DROP_BY_TYPES[types]``: the overboard actions of a hold with the goods types in the
set ``types``."""
_PICK_BY_TYPES: Final = tuple(tuple(_PICK_ACTS[t] for t in EVERY_GOODS_TYPE if has(types, t))
                       for types in range(1 << GOODS_TYPES))
"""``_PICK_BY_TYPES[types]``: the pick-up actions of an island holding the goods types in
the set ``types``."""
_PICK_PASS: Final = tuple((*acts, _A_PASS) if acts else () for acts in _PICK_BY_TYPES)
_PICK_DELIVER_PASS: Final = tuple((*acts, _A_DELIVER, _A_PASS) for acts in _PICK_BY_TYPES)


def _where(state: TidesState, player: int) -> str:
    cell = state.ship_cells[player]
    return CELL_NAMES[cell] if cell >= 0 else ""


class FirstLeader(TidesRule["TidesState"]):
    """R2.4, option first_leader=ask: the table names the player most recently on a boat."""

    def legal(self, state: TidesState, step: Step, player: int) -> tuple[Act, ...]:
        return tuple(ACT[FIRST_LEADER + seat] for seat in range(state.n))

    def apply(self, state: TidesState, step: Step, player: int, action: Any) -> None:
        state.leader = state.led_by = action - FIRST_LEADER
        if state.logging:
            state.say(f"P{player + 1} names P{state.leader + 1} as the player most recently "
                      "on a boat")
        state._after_leader(laid_out=True)

    def prompt(self, state: TidesState, step: Step, player: int) -> str:
        return "Name the player most recently on a boat: they lead first"

    def public_prompt(self, state: TidesState, step: Step) -> str:
        return "naming the first leader"


class PlaceShip(TidesRule["TidesState"]):
    """R2.8: place your ship on a starting island of your colour."""

    def legal(self, state: TidesState, step: Step, player: int) -> tuple[Act, ...]:
        colour = state.colour[player]
        layout = state.layout
        return tuple([ACT[START + cell] for cell in range(CELLS)
                      if ISLAND_COLOUR[layout[cell]] == colour])

    def apply(self, state: TidesState, step: Step, player: int, action: Any) -> None:
        state._place_ship(player, action - START)

    def prompt(self, state: TidesState, step: Step, player: int) -> str:
        cells = ", ".join(CELL_NAMES[a - START] for a in self.legal(state, step, player))
        return "Place your ship on an island of your colour: " + cells

    def public_prompt(self, state: TidesState, step: Step) -> str:
        return "placing a ship"


class PlayCard(TidesRule["TidesState"]):
    """R3: play a card to the hand's trick, following the led suit if you can."""

    def legal(self, state: TidesState, step: Step, player: int) -> tuple[Act, ...]:
        hand = state.hands[player]
        if state.cards_in_trick:           # R3.2: follow the led suit if you can
            led = state.led_suit()
            follow = _PLAYS[led][suit_values(hand, led)]
            if follow:
                return follow
        return _plays(hand)

    def apply(self, state: TidesState, step: Step, player: int, action: Any) -> None:
        card = action - PLAY
        state.hands[player] = without(state.hands[player], card)
        state.played = including(state.played, card)
        state.trick[player] = card
        leading = not state.cards_in_trick
        if not leading:
            led = state.led_suit()
            if CARD_SUIT[card] != led:    # public knowledge: the player holds no led suit
                state.voids = with_void(state.voids, player, led)
        if state.logging:
            state.say(f"P{player + 1} {'leads' if leading else 'plays'} {CARD_TEXT[card]}",
                      kind="play", data={"player": player, "card": CARD_TEXT[card]})
        state.cards_in_trick += 1
        if state.cards_in_trick == state.n:
            state._end_trick()

    def prompt(self, state: TidesState, step: Step, player: int) -> str:
        if not state.cards_in_trick:
            return "Lead a card: any card from your hand"
        led = state.led_suit()
        name = SUIT_PLURALS[led]
        if suit_cards(state.hands[player], led):
            return f"Play a card: you must follow {name}"
        return f"Play a card: you hold no {name}, so any card"

    def describe(self, state: TidesState, step: Step, player: int) -> dict[str, Any]:
        if not state.cards_in_trick:
            return {}
        return {"led_suit": DATA.suits[state.led_suit()]}

    def public_prompt(self, state: TidesState, step: Step) -> str:
        return "playing a card"


class Sail(TidesRule["TidesState"]):
    """R5: sail one of your card's headings that stays on the map, or stay docked
    (dropping the anchor, or for free under Calm Seas)."""

    def legal(self, state: TidesState, step: Step, player: int) -> tuple[Act, ...]:
        geometry = state.geometry
        i = state.ship_cells[player] * NAV_CARDS + state.trick[player]
        if state.hooks & HOOK_FREE_ANCHOR:   # Calm Seas: stay docked without the anchor
            acts = geometry.sail_tab[i]
            return (*acts, _A_STAY) if acts else ()
        if has(state.anchors, player):
            return geometry.anchor_tab[i]
        return geometry.sail_tab[i]

    def idle(self, state: TidesState, step: Step, player: int) -> None:
        """No allowed heading stays on the map: the ship stays docked (this still counts
        as sailing, so the player may pick up or deliver)."""
        if state.logging:
            state.say(f"P{player + 1} cannot sail with {CARD_TEXT[state.trick[player]]} and "
                      f"stays docked at {CELL_NAMES[state.ship_cells[player]]}")
        state._arrive(player)

    def apply(self, state: TidesState, step: Step, player: int, action: Any) -> None:
        if action < ANCHOR:
            # sail one card (or the stride of Strong Currents)
            heading = action - SAIL
            geometry = state.geometry
            cell = geometry.step[state.ship_cells[player]][heading]
            state.ship_cells[player] = cell
            if state.logging:
                state.say(f"P{player + 1} sails {HEADINGS[heading]} to "
                          f"{state._place_name(cell)}", kind="sail",
                          data={"player": player, "heading": HEADINGS[heading],
                                "cell": CELL_NAMES[cell]})
            if state.sea[cell]:
                if geometry.runs[cell][heading] >= 0:
                    state.push(SEA_STEPS[player][heading])
                    return
                if state.logging:
                    state.say(f"P{player + 1} stops on open sea (no island ahead)")
            state._arrive(player)
            return
        where = CELL_NAMES[state.ship_cells[player]]
        if action == ANCHOR:
            state.anchors = without(state.anchors, player)
            if state.logging:
                state.say(f"P{player + 1} drops anchor and stays at {where}", kind="anchor",
                          data={"player": player, "cell": where})
        elif state.logging:          # STAY
            state.say(f"P{player + 1} stays docked at {where} (calm seas)")
        state._arrive(player)

    def prompt(self, state: TidesState, step: Step, player: int) -> str:
        acts = self.legal(state, step, player)
        text = (f"Sail with {CARD_TEXT[state.trick[player]]} from {_where(state, player)}: "
                "choose a heading")
        if _A_ANCHOR in acts:
            text += ", or drop your anchor to stay"
        if _A_STAY in acts:
            text += ", or stay docked (calm seas)"
        return text

    def describe(self, state: TidesState, step: Step, player: int) -> dict[str, Any]:
        return {"card": CARD_TEXT[state.trick[player]]}

    def public_prompt(self, state: TidesState, step: Step) -> str:
        return f"sailing with {CARD_TEXT[state.trick[step.players[0]]]}"


class OpenSea(TidesRule["TidesState"]):
    """R5.6: a ship on open sea with an island ahead stops there or sails on (the step
    carries its heading, :class:`~cove.games.tricky_tides.decision_stack.AtSea`)."""

    def legal(self, state: TidesState, step: Step, player: int) -> tuple[Act, ...]:
        return _SEA_ACTS

    def apply(self, state: TidesState, step: Step, player: int, action: Any) -> None:
        if action == STOP:
            if state.logging:
                state.say(f"P{player + 1} stops on open sea at "
                          f"{CELL_NAMES[state.ship_cells[player]]}")
            state._arrive(player)
        elif state.options.sea_stop == "any":   # ONWARD, one card at a time
            heading = step.data.heading
            geometry = state.geometry
            cell = geometry.one[state.ship_cells[player]][heading]
            state.ship_cells[player] = cell
            if state.logging:
                state.say(f"P{player + 1} sails on {HEADINGS[heading]} to "
                          f"{state._place_name(cell)}", kind="sail",
                          data={"player": player, "heading": HEADINGS[heading],
                                "cell": CELL_NAMES[cell]})
            if state.sea[cell] and geometry.runs[cell][heading] >= 0:
                state.push(step)           # open sea with an island ahead: again
            else:
                state._arrive(player)
        else:  # ONWARD to the island (option sea_stop=first)
            cell = state.geometry.runs[state.ship_cells[player]][step.data.heading]
            state.ship_cells[player] = cell
            if state.logging:
                state.say(f"P{player + 1} sails on across open sea to "
                          f"{state._place_name(cell)}", kind="sail",
                          data={"player": player, "cell": CELL_NAMES[cell]})
            state._arrive(player)

    def prompt(self, state: TidesState, step: Step, player: int) -> str:
        return (f"Your ship is on open sea at {_where(state, player)} heading "
                f"{HEADINGS[step.data.heading]}: stop here or sail on")

    def public_prompt(self, state: TidesState, step: Step) -> str:
        return "stopping on open sea or sailing on"


class PickUpOrDeliver(TidesRule["TidesState"]):
    """R6: at an island, pick up all goods of one type, deliver its order, or pass."""

    def legal(self, state: TidesState, step: Step, player: int) -> tuple[Act, ...]:
        cell = state.ship_cells[player]
        if state.sea[cell]:
            return ()                  # nothing to pick up or deliver on open sea
        on_island = _types_present(state.goods, cell * GOODS_TYPES)
        order = state.orders_on[cell]
        ready = False                  # R6.3: the hold has exactly the goods it shows
        if order >= 0:
            hold = state.hold
            base = player * GOODS_TYPES
            for goods_type, k in ORDER_PAIRS[order]:
                if hold[base + goods_type] < k:
                    break
            else:
                ready = True
        if state.hooks & (HOOK_PICK2 | HOOK_TAX):
            return _module_actions(state, player, on_island, order if ready else -1)
        return _PICK_DELIVER_PASS[on_island] if ready else _PICK_PASS[on_island]

    def idle(self, state: TidesState, step: Step, player: int) -> None:
        """Open sea, or nothing to pick up or deliver: the turn ends."""
        state._end_turn(player)

    def apply(self, state: TidesState, step: Step, player: int, action: Any) -> None:
        if action < DELIVER:
            state._pick(player, action - PICK)
        elif action == DELIVER:
            state._deliver(player)
        elif action == PASS:
            state._end_turn(player)
        elif action < TAX_DELIVER:              # Smugglers
            first, second = PAIRS[action - PICK2]
            state._pick(player, first, second)
        else:                                   # Harbor Tax
            state._deliver(player, NONGOLD[action - TAX_DELIVER])

    def prompt(self, state: TidesState, step: Step, player: int) -> str:
        can = any(a == DELIVER or TAX_DELIVER <= a < M_ORDER
                  for a in self.legal(state, step, player))
        return (f"At {_where(state, player)}: pick up all goods of one type"
                + (", deliver the order" if can else "") + ", or pass")

    def public_prompt(self, state: TidesState, step: Step) -> str:
        return "picking up goods, delivering or passing"


def _module_actions(state: TidesState, player: int, on_island: int, ready: int
                    ) -> tuple[Act, ...]:
    """Pick up, deliver or pass when Smugglers (two goods types at once) or Harbor Tax (1
    more non-gold good to deliver) is in force: ``on_island`` is the set of goods types on
    the island, ``ready`` the order the player can deliver (-1: none)."""
    acts = list(_PICK_BY_TYPES[on_island])
    hooks = state.hooks
    if hooks & HOOK_PICK2 and len(acts) > 1:     # Smugglers: all goods of two types
        types = [t for t in EVERY_GOODS_TYPE if has(on_island, t)]
        acts += [_PAIR_ACTS[PAIR_INDEX[(first, second)]] for i, first in enumerate(types)
                 for second in types[i + 1:]]
    if ready >= 0:
        if hooks & HOOK_TAX:                     # Harbor Tax: 1 more non-gold good
            hold = state.hold
            base = player * GOODS_TYPES
            need = DATA.orders[ready].need
            acts += [ACT[TAX_DELIVER + i] for i, t in enumerate(NONGOLD)
                     if hold[base + t] > need[t]]
        else:
            acts.append(_A_DELIVER)
    if not acts:
        return ()
    acts.append(_A_PASS)
    return tuple(acts)


class Overboard(TidesRule["TidesState"]):
    """R7: over the hold limit, throw goods overboard one at a time."""

    def legal(self, state: TidesState, step: Step, player: int) -> tuple[Act, ...]:
        return _DROP_BY_TYPES[_types_present(state.hold, player * GOODS_TYPES)]

    def apply(self, state: TidesState, step: Step, player: int, action: Any) -> None:
        goods_type = action - DROP
        cell = state.ship_cells[player]
        state.hold[player * GOODS_TYPES + goods_type] -= 1
        state.hold_count[player] -= 1
        at_sea = state.sea[cell]
        if at_sea:                   # R7.2: into the bag
            state.bag[goods_type] += 1
            state.bag_count += 1
        else:                        # R7.1: onto the island
            state.goods[cell * GOODS_TYPES + goods_type] += 1
        if state.logging:
            where = "into the bag" if at_sea else f"onto {CELL_NAMES[cell]}"
            state.say(f"P{player + 1} throws 1 {DATA.goods[goods_type]} overboard {where}",
                      kind="overboard", data={"player": player,
                                              "goods": DATA.goods[goods_type],
                                              "cell": CELL_NAMES[cell]})
        state._end_turn(player)  # still over the limit: another one

    def prompt(self, state: TidesState, step: Step, player: int) -> str:
        return (f"Your hold has {state.hold_count[player]} goods, over the limit of "
                f"{state.hold_limit}: throw one overboard")

    def public_prompt(self, state: TidesState, step: Step) -> str:
        return "throwing goods overboard"


STEPS: dict[str, TidesRule[Any]] = {
    K_LEADER: FirstLeader(), K_PLACE: PlaceShip(), K_PLAY: PlayCard(), K_SAIL: Sail(),
    K_SEA: OpenSea(), K_ACTION: PickUpOrDeliver(), K_OVERBOARD: Overboard(),
    **monsters.RULES,
}
"""The rule of each step kind, the monster module's last (``TidesState.STEPS``)."""
