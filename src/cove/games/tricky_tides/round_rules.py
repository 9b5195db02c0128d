"""The rules an event card may change for one round, as one small immutable value.

Every event of the data file (``[[events]]`` in ``tricky_tides.toml``) lists its changes
as ``changes = { field = value }`` over the fields below; the base game is
:data:`BASE_RULES` (every field at its default). Each field is put into force in exactly
one place (see ``events.install`` and the comment on each field), so an event is data, not
a branch scattered through the code, and a designer can write a new event from these
fields without touching code. Each field declares, with :func:`cove.core.data.entry`, the
values a data file may give it (its type, allowed values or bounds), so the core's typed
loader checks an event's ``changes`` against them; the comment above it says where it is
put in force.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from cove.core import entry, pickle_by_fields


@dataclass(frozen=True, slots=True)
class Rules:
    # In force: monsters.activations.
    monster_trigger: str = entry(
        default="lowest", choices=("lowest", "highest"),
        help="Low Tide: which card of a monster's suit activates it")
    # In force: TidesState._set_geometry.
    wrap: bool = entry(
        default=False, help="Edge of the World: the map wraps for ships, monsters and the "
        "Whale's line")
    # In force: the sail step's rule (rules.Sail.legal).
    free_anchor: bool = entry(
        default=False, help="Calm Seas: any player may stay docked without spending the "
        "anchor (\"stay docked\")")
    # In force: TidesState._set_geometry (the sailing step table).
    stride: int = entry(
        default=1, minimum=1, maximum=3, help="Strong Currents: a ship moves this many cards "
        "in its heading if the last is on the map, else as far as it can")
    # In force: TidesState._set_geometry.
    headings: str = entry(
        default="card", choices=("card", "orthogonal", "widened"),
        help="Doldrums \"orthogonal\" (N/E/S/W only), Fog Bank \"widened\" (also 45 "
        "degrees off an allowed heading); \"card\" = the card's headings")
    # In force: events.reveal.
    harvest: int = entry(
        default=0, minimum=0, maximum=3, help="Bountiful Harvest: goods drawn from the bag "
        "onto each island when the event is revealed")
    # In force: TidesState.hold_limit (checked in TidesState._end_turn).
    hold_limit: int = entry(
        default=7, minimum=1, maximum=20, help="Storm: the hold limit, checked at the end of "
        "each player's pick up / deliver step (7 [SEED] in the base game)")
    # In force: TidesState._deliver.
    deliver_draw: int = entry(
        default=0, minimum=0, maximum=3, help="Market Boom: goods drawn from the bag into "
        "your hold after you deliver")
    # In force: the pick-up step's rule (rules.PickUpOrDeliver.legal).
    pick_types: int = entry(
        default=1, minimum=1, maximum=2, help="Smugglers: how many goods types one pick up "
        "may take")
    # In force: rules.PickUpOrDeliver.legal / TidesState._deliver.
    deliver_tax: int = entry(
        default=0, minimum=0, maximum=1, help="Harbor Tax: extra non-gold goods a delivery "
        "costs, paid into the bag")
    # In force: TidesState._end_trick.
    reverse_sailing: bool = entry(
        default=False, help="Trade Winds: the sailing order (and so the order of monster "
        "activations) is reversed; the leader sails last")


pickle_by_fields(Rules)  # a compiled frozen dataclass pickles by its fields
BASE_RULES: Final = Rules()

def describe(rules: Rules, ships_wrap: bool = True) -> list[str]:
    """Plain sentences for what ``rules`` changes from the base game (for the screen/log);
    ``ships_wrap``: option edge_wrap=all (else only monsters wrap)."""
    out = []
    if rules.monster_trigger != "lowest":
        out.append("monsters are activated by the highest card of their suit")
    if rules.wrap:
        out.append("the map wraps around (ships, monsters and the whale's line)" if ships_wrap
                   else "the map wraps around for monsters and the whale's line, not ships")
    if rules.free_anchor:
        out.append("any ship may stay docked without spending its anchor")
    if rules.stride != 1:
        out.append(f"ships sail {rules.stride} cards in their heading when they can")
    if rules.headings == "orthogonal":
        out.append("only N, E, S and W headings may be sailed")
    elif rules.headings == "widened":
        out.append("a ship may also sail 45 degrees off an allowed heading")
    if rules.harvest:
        out.append(f"{rules.harvest} extra good(s) drawn onto each island")
    if rules.hold_limit != BASE_RULES.hold_limit:
        out.append(f"hold limit {rules.hold_limit}")
    if rules.deliver_draw:
        out.append(f"draw {rules.deliver_draw} good(s) into your hold after delivering")
    if rules.pick_types != 1:
        out.append(f"a pick up may take all goods of {rules.pick_types} types")
    if rules.deliver_tax:
        out.append(f"delivering costs {rules.deliver_tax} extra non-gold good(s) into the bag")
    if rules.reverse_sailing:
        out.append("sailing order reversed: the leader sails last")
    return out


# ``TidesState.hooks``: which module hooks are live, one flag each (0 in the base game, so
# each hook costs the base game one int test).
HOOK_FREE_ANCHOR: Final = 1    # Calm Seas
HOOK_PICK2: Final = 2          # Smugglers
HOOK_TAX: Final = 4            # Harbor Tax
HOOK_DRAW: Final = 8           # Market Boom
HOOK_REVERSE: Final = 16       # Trade Winds
HOOK_MONSTERS: Final = 32      # the monster module
HOOK_EVENTS: Final = 64        # the event module
HOOK_MODULES: Final = HOOK_MONSTERS | HOOK_EVENTS


def hook_bits(rules: Rules) -> int:
    """The ``hooks`` flags of the round-scoped rules ``rules``."""
    return ((HOOK_FREE_ANCHOR if rules.free_anchor else 0)
            | (HOOK_PICK2 if rules.pick_types > 1 else 0)
            | (HOOK_TAX if rules.deliver_tax else 0)
            | (HOOK_DRAW if rules.deliver_draw else 0)
            | (HOOK_REVERSE if rules.reverse_sailing else 0))
