"""What each Tiny Epic Pirates move does, in words (``help <move>`` in the terminal, the
web's move list): ``HELP``, the declaration's ``move_help``. Text only; the rules never
import it."""

from __future__ import annotations

from cove.core import MoveHelp

MOVES = (
    (r"navy to (\w+)", r"places the Navy ship on the corner card \1 (setup, R3)"),
    (r"start in cove (\w+)", r"starts your ship hidden in the cove at \1 (setup, R3)"),
    (r"captain side (\w) \((.+)\)", r"chooses side \1 of your Captain: \2 (R3)"),
    (r"captain to (\d+) \((.+)\)", r"moves your Captain clockwise round the wheel to space "
     r"\1, the \2 Order; each space skipped costs a Deckhand (R4)"),
    (r"skip with a deckhand from (\w+)", r"pays a Deckhand from \1 to pass a wheel space (R4)"),
    (r"sail (north|east|south|west) to (\w+)", r"sails your ship one card \1 to \2 (columns "
     "a-d, rows 1-4); a storm jostles you (R5)"),
    (r"stop sailing", "ends the Sail Order where your ship is (R5)"),
    (r"plunder (\d+)", r"takes booty from the card your ship is on (R7)"),
    (r"trade (.+)", r"sells \1 at this market for gold (R7)"),
    (r"search", "searches the card your ship is on for a bonus (R7)"),
    (r"hide out.*", "hides your ship in this cove and places Deckhands (R7)"),
    (r"crew up", "takes the Crew Up Order: one card of the crew line (R7)"),
    (r"take (.+?)(, discard (.+))?", r"hires \1 for your crew\2 (at most four crew, R7)"),
    (r"attack merchant (\w)", r"attacks merchant \1: roll your cannons against its value; "
     "more sinks it for its cube and gold (R7.10)"),
    (r"attack p(\d)", r"attacks pirate P\1: both roll; the higher gains a Legend level "
     "(R7.11)"),
    (r"bury treasure at (\w+) for (\d+) gold.*", r"buries your next treasure at \1 for \2 "
     "gold; the third treasure wins (R10)"),
    (r"fire with (.+)", r"fires with the dice \1 as they stand (battle)"),
    (r"reroll dice (.+)", r"rerolls die \1 (battle)"),
    (r"skip (.+)", r"passes on \1 (every Order is optional, R7.13)"),
    (r"bonus (.+)", r"takes the bonus action \1 (R8)"),
    (r"(jostle|move|reassign|released deckhand|new deckhand)(.*) to (\w+)",
     r"moves a Deckhand\2 to \3 (R2)"),
    (r"use sail token (.+)", r"spends a sail token for \1 move this Sail Order (R5)"),
    (r"navy sails (\w+)", r"steers the Navy one card \1, towards your ship (R6.4)"),
    (r"refresh the crew line for (\d+) gold", r"pays \1 gold to deal a new crew line (R7)"),
    (r"mutiny \(flip the captain card\)", "flips your Captain to the other side (R8)"),
    (r"sure-fire: die (\d+) to (\d+)", r"spends a sure-fire token to set die \1 to \2 "
     "(battle)"),
    (r"discard the new (\w+)", r"drops the \1 just gained (the ship is full, R2)"),
    (r"done .*|end bonus actions", "finishes this part of your turn"),
    (r"lose (\w+)|keep (.+)", r"drops booty over the ship's limit (R2)"),
)


HELP = MoveHelp(MOVES)
"""The declaration's move help: the first pattern of ``MOVES`` a move's text matches says
what it does. No skip reasons: this game's decisions carry no turn step number for the
terminal to report as skipped."""
