"""The Tide's options: each DESIGN reading of the notes that has a literal alternative."""

from __future__ import annotations

from dataclasses import dataclass, fields

from cove.core import OptionError, Options, option


@dataclass(frozen=True)
class TideOptions(Options):
    move_dirs: int = option(
        4, choices=(4, 8),
        help="DESIGN A2: a friend moves 1-3 squares in a straight line in 4 (orthogonal) "
             "or 8 (with diagonals) directions",
    )
    shell_adjacency: int = option(
        4, choices=(4, 8),
        help="DESIGN A7: another player's friend on one of these 4 or 8 neighbours blocks "
             "a shell pickup",
    )
    connectivity: int = option(
        4, choices=(4, 8),
        help="DESIGN A8: rubbish tiles of one type are connected through 4 or 8 neighbours",
    )
    collect_under_others: bool = option(
        True,
        help="DESIGN A10: a rubbish group includes tiles under other players' friends "
             "(false: those tiles are left and break the group)",
    )
    gravity: str = option(
        "full", choices=("full", "one_step"),
        help="DESIGN T2: the tide settles each column fully (full) or moves each tile "
             "down at most one square (one_step)",
    )
    pile_visibility: str = option(
        "top", choices=("top", "all"),
        help="DESIGN S1: only the top tile of each pile is visible (top) or whole piles (all)",
    )
    check_timing: str = option(
        "after_tide", choices=("after_tide", "every_turn"),
        help="DESIGN C1: the checking phase runs after every tide (after_tide) or at the "
             "end of every turn (every_turn)",
    )
    shirk_penalty: str = option(
        "per_friend", choices=("per_friend", "per_player"),
        help="DESIGN C4: a shirking player gives up one shell for each friend on an empty "
             "square (per_friend) or one shell however many of their friends shirk "
             "(per_player, the seed's literal 'one or more friends ... discard one seashell')",
    )
    column_end: str = option(
        "at_once", choices=("at_once", "after_check"),
        help="SEED E2: when a column and its pile are empty after a tide the game ends at "
             "once, before the check ('as soon as', like the 10-point end) (at_once), or "
             "after the check, so the active player may still score (after_check)",
    )
    stall_rounds: int = option(
        2, minimum=1, maximum=1000,
        help="DESIGN E4 (software guard): the game ends, scored on points, after this many "
             "full rounds of turns in a row that count (see stall_counts)",
    )
    stall_counts: str = option(
        "stuck", choices=("stuck", "idle"),
        help="DESIGN E4: which turns count toward the stall guard: only turns in which the "
             "player to act could not collect anything (stuck; a turn that could have "
             "collected resets the count), or every turn without a collection (idle)",
    )
    turn_limit: int = option(
        1000, minimum=1, maximum=1_000_000,
        help="DESIGN (software guard): the game ends, scored on points, after this many "
             "turns in all; it only matters if shells shuttle between beach and piles forever",
    )

    def check(self, players: int) -> None:
        for f in fields(self):
            allowed = f.metadata.get("choices")
            value = getattr(self, f.name)
            if allowed is not None and value not in allowed:
                opts = ", ".join(str(a) for a in allowed)
                raise OptionError(f"the-tide: option {f.name}={value!r} is not valid; "
                                  f"allowed: one of: {opts}")
