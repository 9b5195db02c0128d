"""The rules an event card may change for one round, as one small immutable value.

Every event of the data file (``[[events]]`` in ``tricky_tides.toml``) lists its changes
as ``changes = { field = value }`` over the fields below; the base game is
:data:`BASE_RULES` (every field at its default). Each field is put into force in exactly
one place (see ``events.install`` and the comment on each field), so an event is data, not
a branch scattered through the code, and a designer can write a new event from these
fields without touching code.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True, slots=True)
class Rules:
    # Low Tide: which card of a monster's suit activates it ("lowest" or "highest").
    # Read by monsters.activations.
    monster_trigger: str = "lowest"
    # Edge of the World: the map wraps for ships, monsters and the Whale's line.
    # Put in force by TidesState._set_geometry.
    wrap: bool = False
    # Calm Seas: any player may stay docked without spending the anchor ("stay docked").
    # Read by the sail step's rule (rules.Sail.legal).
    free_anchor: bool = False
    # Strong Currents: a ship moves this many cards in its heading if the last is on the
    # map, else as far as it can. TidesState._set_geometry (the sailing step table).
    stride: int = 1
    # Doldrums "orthogonal" (N/E/S/W only), Fog Bank "widened" (also 45 degrees off an
    # allowed heading); "card" = the card's headings. TidesState._set_geometry.
    headings: str = "card"
    # Bountiful Harvest: goods drawn from the bag onto each island when the event is
    # revealed. events.reveal.
    harvest: int = 0
    # Storm: the hold limit, checked at the end of each player's pick up / deliver step.
    # TidesState.hold_limit (checked in TidesState._end_turn).
    hold_limit: int = 7
    # Market Boom: goods drawn from the bag into your hold after you deliver.
    # TidesState._deliver.
    deliver_draw: int = 0
    # Smugglers: how many goods types one pick up may take (1 or 2).
    # The pick-up step's rule (rules.PickUpOrDeliver.legal).
    pick_types: int = 1
    # Harbor Tax: extra non-gold goods a delivery costs, paid into the bag (0 or 1).
    # rules.PickUpOrDeliver.legal / TidesState._deliver.
    deliver_tax: int = 0
    # Trade Winds: the sailing order (and so the order of monster activations) is reversed;
    # the leader sails last. TidesState._end_trick.
    reverse_sailing: bool = False


BASE_RULES = Rules()

# What each field accepts in the data file: a tuple of allowed values, or (type, min, max).
ALLOWED: dict[str, Any] = {
    "monster_trigger": ("lowest", "highest"),
    "wrap": (True, False),
    "free_anchor": (True, False),
    "stride": (int, 1, 3),
    "headings": ("card", "orthogonal", "widened"),
    "harvest": (int, 0, 3),
    "hold_limit": (int, 1, 20),
    "deliver_draw": (int, 0, 3),
    "pick_types": (int, 1, 2),
    "deliver_tax": (int, 0, 1),
    "reverse_sailing": (True, False),
}
assert set(ALLOWED) == {f.name for f in fields(Rules)}


def describe(r: Rules, ships_wrap: bool = True) -> list[str]:
    """Plain sentences for what ``r`` changes from the base game (for the screen/log);
    ``ships_wrap``: option edge_wrap=all (else only monsters wrap)."""
    out = []
    if r.monster_trigger != "lowest":
        out.append("monsters are activated by the highest card of their suit")
    if r.wrap:
        out.append("the map wraps around (ships, monsters and the whale's line)" if ships_wrap
                   else "the map wraps around for monsters and the whale's line, not ships")
    if r.free_anchor:
        out.append("any ship may stay docked without spending its anchor")
    if r.stride != 1:
        out.append(f"ships sail {r.stride} cards in their heading when they can")
    if r.headings == "orthogonal":
        out.append("only N, E, S and W headings may be sailed")
    elif r.headings == "widened":
        out.append("a ship may also sail 45 degrees off an allowed heading")
    if r.harvest:
        out.append(f"{r.harvest} extra good(s) drawn onto each island")
    if r.hold_limit != BASE_RULES.hold_limit:
        out.append(f"hold limit {r.hold_limit}")
    if r.deliver_draw:
        out.append(f"draw {r.deliver_draw} good(s) into your hold after delivering")
    if r.pick_types != 1:
        out.append(f"a pick up may take all goods of {r.pick_types} types")
    if r.deliver_tax:
        out.append(f"delivering costs {r.deliver_tax} extra non-gold good(s) into the bag")
    if r.reverse_sailing:
        out.append("sailing order reversed: the leader sails last")
    return out


# ``TidesState.ex`` bits: which module hooks are live (0 in the base game, so each hook
# costs the base one int test).
EX_FREE_ANCHOR = 1      # Calm Seas
EX_PICK2 = 2            # Smugglers
EX_TAX = 4              # Harbor Tax
EX_DRAW = 8             # Market Boom
EX_REVERSE = 16         # Trade Winds
EX_MONSTERS = 32        # the monster module
EX_EVENTS = 64          # the event module
EX_MODULES = EX_MONSTERS | EX_EVENTS


def ex_bits(r: Rules) -> int:
    """The ``ex`` bits of the round-scoped rules ``r``."""
    return ((EX_FREE_ANCHOR if r.free_anchor else 0) | (EX_PICK2 if r.pick_types > 1 else 0)
            | (EX_TAX if r.deliver_tax else 0) | (EX_DRAW if r.deliver_draw else 0)
            | (EX_REVERSE if r.reverse_sailing else 0))
