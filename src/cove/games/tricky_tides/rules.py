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

from typing import TYPE_CHECKING, Any

from cove.core.decisions import Step
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
from cove.games.tricky_tides.constants import ISLAND_COLOUR, ORDER_PAIRS, RG, SUIT_MASK, G
from cove.games.tricky_tides.data import DATA, NAV_CARDS, NONGOLD, VALUES
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
from cove.games.tricky_tides.round_rules import EX_FREE_ANCHOR, EX_PICK2, EX_TAX

if TYPE_CHECKING:
    from cove.games.tricky_tides.state import TidesState


# legal "play" actions for each (suit, 8-bit pattern of values held in that suit)
_BYTE_ACTS: tuple[tuple[tuple[Act, ...], ...], ...] = tuple(
    tuple(tuple(ACT[PLAY + s * VALUES + v] for v in range(VALUES) if b >> v & 1)
          for b in range(256))
    for s in range(4)
)
_B0, _B1, _B2, _B3 = _BYTE_ACTS


def _hand_acts(mask: int) -> tuple[Act, ...]:
    return _B0[mask & 255] + _B1[mask >> 8 & 255] + _B2[mask >> 16 & 255] + _B3[mask >> 24]


_PICK_ACTS = tuple(ACT[PICK + t] for t in RG)
_DROP_ACTS = tuple(ACT[DROP + t] for t in RG)
_A_PASS = ACT[PASS]
_A_DELIVER = ACT[DELIVER]
_A_ANCHOR = ACT[ANCHOR]
_A_STAY = ACT[STAY]
_PAIR_ACTS = tuple(ACT[PICK2 + i] for i in range(len(PAIRS)))
_SEA_ACTS = (ACT[STOP], ACT[ONWARD])
assert G == 5    # _types reads five goods counts


def _types(counts: list[int], b: int) -> int:
    """The bit mask of the goods types present in ``counts[b:b + 5]`` (an island's goods or
    a hold)."""
    return ((1 if counts[b] else 0) | (2 if counts[b + 1] else 0)
            | (4 if counts[b + 2] else 0) | (8 if counts[b + 3] else 0)
            | (16 if counts[b + 4] else 0))


_DROP_BY_TYPES = tuple(tuple(_DROP_ACTS[t] for t in RG if m >> t & 1) for m in range(1 << G))
"""``_DROP_BY_TYPES[m]``: the overboard actions of a hold with the goods types in ``m``."""
_PICK_BY_TYPES = tuple(tuple(_PICK_ACTS[t] for t in RG if m >> t & 1) for m in range(1 << G))
"""``_PICK_BY_TYPES[m]``: the pick-up actions of an island holding the goods types in the
bit mask ``m``."""
_PICK_PASS = tuple((*acts, _A_PASS) if acts else () for acts in _PICK_BY_TYPES)
_PICK_DELIVER_PASS = tuple((*acts, _A_DELIVER, _A_PASS) for acts in _PICK_BY_TYPES)


def _where(s: TidesState, p: int) -> str:
    return CELL_NAMES[s.pos[p]] if s.pos[p] >= 0 else ""



class FirstLeader(TidesRule["TidesState"]):
    """R2.4, option first_leader=ask: the table names the player most recently on a boat."""

    def legal(self, state: TidesState, step: Step, player: int) -> tuple[Act, ...]:
        return tuple(ACT[FIRST_LEADER + q] for q in range(state.n))

    def apply(self, state: TidesState, step: Step, player: int, action: Any) -> None:
        state.leader = state.lead = action - FIRST_LEADER
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
        col = state.colour[player]
        layout = state.layout
        return tuple([ACT[START + c] for c in range(CELLS) if ISLAND_COLOUR[layout[c]] == col])

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
        if state.tpos:
            led = state.trick[state.lead] >> 3
            follow = _BYTE_ACTS[led][hand >> (led << 3) & 255]
            if follow:
                return follow
        return _hand_acts(hand)

    def apply(self, state: TidesState, step: Step, player: int, action: Any) -> None:
        c = action - PLAY
        state.hands[player] &= ~(1 << c)
        state.played |= 1 << c
        trick = state.trick
        trick[player] = c
        tpos = state.tpos
        if tpos:
            led = trick[state.lead] >> 3
            if c >> 3 != led:
                state.voids |= 1 << (player * 4 + led)  # public knowledge: holds no led suit
        if state.logging:
            state.say(f"P{player + 1} {'leads' if not tpos else 'plays'} {CARD_TEXT[c]}",
                      kind="play", data={"player": player, "card": CARD_TEXT[c]})
        state.tpos = tpos = tpos + 1
        if tpos == state.n:
            state._end_trick()

    def prompt(self, state: TidesState, step: Step, player: int) -> str:
        if not state.tpos:
            return "Lead a card: any card from your hand"
        led = state.trick[state.lead] >> 3
        name = SUIT_PLURALS[led]
        if state.hands[player] & SUIT_MASK[led]:
            return f"Play a card: you must follow {name}"
        return f"Play a card: you hold no {name}, so any card"

    def describe(self, state: TidesState, step: Step, player: int) -> dict[str, Any]:
        if not state.tpos:
            return {}
        return {"led_suit": DATA.suits[state.trick[state.lead] >> 3]}

    def public_prompt(self, state: TidesState, step: Step) -> str:
        return "playing a card"


class Sail(TidesRule["TidesState"]):
    """R5: sail one of your card's headings that stays on the map, or stay docked
    (dropping the anchor, or for free under Calm Seas)."""

    def legal(self, state: TidesState, step: Step, player: int) -> tuple[Act, ...]:
        geo = state.geo
        i = state.pos[player] * NAV_CARDS + state.trick[player]
        if state.ex & EX_FREE_ANCHOR:   # Calm Seas: stay docked without the anchor
            acts = geo.sail_tab[i]
            return (*acts, _A_STAY) if acts else ()
        if state.anchors >> player & 1:
            return geo.anchor_tab[i]
        return geo.sail_tab[i]

    def idle(self, state: TidesState, step: Step, player: int) -> None:
        """No allowed heading stays on the map: the ship stays docked (this still counts
        as sailing, so the player may pick up or deliver)."""
        if state.logging:
            state.say(f"P{player + 1} cannot sail with {CARD_TEXT[state.trick[player]]} and "
                      f"stays docked at {CELL_NAMES[state.pos[player]]}")
        state._arrive(player)

    def apply(self, state: TidesState, step: Step, player: int, action: Any) -> None:
        if action < ANCHOR:
            # sail one card
            h = action - SAIL
            geo = state.geo
            c = geo.step[state.pos[player]][h]
            state.pos[player] = c
            if state.logging:
                state.say(f"P{player + 1} sails {HEADINGS[h]} to {state._place(c)}",
                          kind="sail", data={"player": player, "heading": HEADINGS[h],
                                             "cell": CELL_NAMES[c]})
            if state.sea[c]:
                if geo.runs[c][h] >= 0:
                    state.push(SEA_STEPS[player][h])
                    return
                if state.logging:
                    state.say(f"P{player + 1} stops on open sea (no island ahead)")
            state._arrive(player)
            return
        where = CELL_NAMES[state.pos[player]]
        if action == ANCHOR:
            state.anchors &= ~(1 << player)
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
    """R5.5: a ship on open sea with an island ahead stops there or sails on (the step's
    data is the heading)."""

    def legal(self, state: TidesState, step: Step, player: int) -> tuple[Act, ...]:
        return _SEA_ACTS

    def apply(self, state: TidesState, step: Step, player: int, action: Any) -> None:
        if action == STOP:
            if state.logging:
                state.say(f"P{player + 1} stops on open sea at {CELL_NAMES[state.pos[player]]}")
            state._arrive(player)
        elif state._opts().sea_stop == "any":   # ONWARD, one card at a time
            h = step.data[0]
            geo = state.geo
            c = geo.one[state.pos[player]][h]
            state.pos[player] = c
            if state.logging:
                state.say(f"P{player + 1} sails on {HEADINGS[h]} to {state._place(c)}",
                          kind="sail", data={"player": player, "heading": HEADINGS[h],
                                             "cell": CELL_NAMES[c]})
            if state.sea[c] and geo.runs[c][h] >= 0:
                state.push(step)           # open sea with an island ahead: again
            else:
                state._arrive(player)
        else:  # ONWARD to the island (option sea_stop=first)
            c = state.geo.runs[state.pos[player]][step.data[0]]
            state.pos[player] = c
            if state.logging:
                state.say(f"P{player + 1} sails on across open sea to {state._place(c)}",
                          kind="sail", data={"player": player, "cell": CELL_NAMES[c]})
            state._arrive(player)

    def prompt(self, state: TidesState, step: Step, player: int) -> str:
        return (f"Your ship is on open sea at {_where(state, player)} heading "
                f"{HEADINGS[step.data[0]]}: stop here or sail on")

    def public_prompt(self, state: TidesState, step: Step) -> str:
        return "stopping on open sea or sailing on"


class PickUpOrDeliver(TidesRule["TidesState"]):
    """R6: at an island, pick up all goods of one type, deliver its order, or pass."""

    def legal(self, state: TidesState, step: Step, player: int) -> tuple[Act, ...]:
        c = state.pos[player]
        if state.sea[c]:
            return ()                  # nothing to pick up or deliver on open sea
        have = _types(state.goods, c * G)
        o = state.orders_on[c]
        ready = False
        if o >= 0:
            hold = state.hold
            hb = player * G
            for t, k in ORDER_PAIRS[o]:
                if hold[hb + t] < k:
                    break
            else:
                ready = True
        if state.ex & (EX_PICK2 | EX_TAX):
            return _module_actions(state, player, have, o if ready else -1)
        return _PICK_DELIVER_PASS[have] if ready else _PICK_PASS[have]

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
            x, y = PAIRS[action - PICK2]
            state._pick(player, x, y)
        else:                                   # Harbor Tax
            state._deliver(player, NONGOLD[action - TAX_DELIVER])

    def prompt(self, state: TidesState, step: Step, player: int) -> str:
        can = any(a == DELIVER or TAX_DELIVER <= a < M_ORDER
                  for a in self.legal(state, step, player))
        return (f"At {_where(state, player)}: pick up all goods of one type"
                + (", deliver the order" if can else "") + ", or pass")

    def public_prompt(self, state: TidesState, step: Step) -> str:
        return "picking up goods, delivering or passing"


def _module_actions(state: TidesState, player: int, have: int, ready: int
                    ) -> tuple[Act, ...]:
    """Pick up, deliver or pass when Smugglers (two goods types at once) or Harbor Tax (1
    more non-gold good to deliver) is in force: ``have`` is the mask of goods types on the
    island, ``ready`` the order the player can deliver (-1: none)."""
    acts = list(_PICK_BY_TYPES[have])
    ex = state.ex
    if ex & EX_PICK2 and len(acts) > 1:     # Smugglers: all goods of two types
        types = [t for t in RG if have >> t & 1]
        acts += [_PAIR_ACTS[PAIR_INDEX[(x, y)]] for i, x in enumerate(types)
                 for y in types[i + 1:]]
    if ready >= 0:
        if ex & EX_TAX:                     # Harbor Tax: 1 more non-gold good
            hold = state.hold
            hb = player * G
            need = DATA.orders[ready].need
            acts += [ACT[TAX_DELIVER + i] for i, t in enumerate(NONGOLD)
                     if hold[hb + t] > need[t]]
        else:
            acts.append(_A_DELIVER)
    if not acts:
        return ()
    acts.append(_A_PASS)
    return tuple(acts)


class Overboard(TidesRule["TidesState"]):
    """R7: over the hold limit, throw goods overboard one at a time."""

    def legal(self, state: TidesState, step: Step, player: int) -> tuple[Act, ...]:
        return _DROP_BY_TYPES[_types(state.hold, player * G)]

    def apply(self, state: TidesState, step: Step, player: int, action: Any) -> None:
        t = action - DROP
        c = state.pos[player]
        state.hold[player * G + t] -= 1
        state.hcount[player] -= 1
        sea = state.sea[c]
        if sea:
            state.bag[t] += 1
            state.bag_n += 1
        else:
            state.goods[c * G + t] += 1
        if state.logging:
            where = "into the bag" if sea else f"onto {CELL_NAMES[c]}"
            state.say(f"P{player + 1} throws 1 {DATA.goods[t]} overboard {where}",
                      kind="overboard", data={"player": player, "goods": DATA.goods[t],
                                              "cell": CELL_NAMES[c]})
        state._end_turn(player)  # still over the limit: another one

    def prompt(self, state: TidesState, step: Step, player: int) -> str:
        return (f"Your hold has {state.hcount[player]} goods, over the limit of "
                f"{state.hold_limit}: throw one overboard")

    def public_prompt(self, state: TidesState, step: Step) -> str:
        return "throwing goods overboard"


STEPS: dict[str, TidesRule[Any]] = {
    K_LEADER: FirstLeader(), K_PLACE: PlaceShip(), K_PLAY: PlayCard(), K_SAIL: Sail(),
    K_SEA: OpenSea(), K_ACTION: PickUpOrDeliver(), K_OVERBOARD: Overboard(),
    **monsters.RULES,
}
"""The rule of each step kind, the monster module's last (``TidesState.STEPS``)."""
