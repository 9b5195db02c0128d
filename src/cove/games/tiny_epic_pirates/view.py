"""What a player may see, built by whitelisting public fields, and the score in parts.

Hidden: the face-down search tokens (only "searched or not" is shown), the order of the
crew deck (its size and the cards seen going to its bottom are shown), the merchant deck
(its size), and the booty bag (its size). Everything else in Tiny Epic Pirates is public:
wheels, assignments, ships, cargo, crew, gold, dice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cove.games.tiny_epic_pirates import data
from cove.games.tiny_epic_pirates.data import ASSIGN
from cove.games.tiny_epic_pirates.sea import cell
from cove.games.tiny_epic_pirates.turn import B_MERCHANT, B_PIRATE, TASK_NAMES

if TYPE_CHECKING:
    from cove.games.tiny_epic_pirates.state import PiratesState


def build_view(s: PiratesState, player: int | None) -> dict[str, Any]:
    ruleset = s.ruleset
    sea = []
    for i in range(16):
        c = s.card(i)
        sea.append({
            "cell": cell(i),
            "name": c.name,
            "kind": data.KINDS[c.kind],
            "plunder": c.plunder,
            "market": ruleset.booty[c.booty] if c.booty >= 0 else None,
            "searched": s.search_tokens[i] < 0,
            "port": i in s.ports,
            "navy": s.navy_at == i,
        })
    merchants = [{
        "name": "ab"[m],
        "cell": cell(s.merchant_at[m]),
        "cube": ruleset.booty[s.merchant_cube[m]] if s.merchant_cube[m] >= 0 else None,
        "heading_for": cell(s.ports[s.merchant_heading[m]]),
        "card": s.merchant_card[m],
    } for m in (0, 1)]
    pirates = []
    for p in range(s.pirate_count):
        captain = ruleset.captains[s.captain[p]]
        side = s.captain_side[p]
        pirates.append({
            "name": s.name(p),
            "solo_pirate": p == s.solo_pirate,
            "cell": cell(s.ship_at[p]) if s.ship_at[p] >= 0 else None,
            "hidden": s.hidden[p],
            "wheel": [data.ORDERS[o] for o in s.wheel[p]],
            "captain_at": s.captain_space[p],
            "wheel_deckhands": [i for i in range(6) if s.wheel_deckhands[p][i]],
            "assignments": {ASSIGN[j]: s.assignments[p][j] for j in range(4)},
            "deckhand_on_legend_mat": s.deckhand_on_legend_mat[p],
            "legend": s.legend_level[p],
            "legend_name": ruleset.legend[s.legend_level[p] - 1].name,
            "bloody": s.bloody[p],
            "gold": s.gold[p],
            "treasures": [cell(t) for t in s.treasures[p]],
            "next_treasure": (
                {"cost": ruleset.treasure_cost[len(s.treasures[p])],
                 "min_legend": ruleset.treasure_level[len(s.treasures[p])]}
                if len(s.treasures[p]) < data.TREASURES else None),
            "booty": sorted(ruleset.booty[t] for t in s.booty[p]),
            "captain": captain.name,
            "captain_side": "AB"[side],
            "captain_trigger": data.ORDERS[captain.trigger[side]],
            "captain_dice": list(captain.dice[side]),
            "crew": [{"name": crew.name, "trigger": data.ORDERS[crew.trigger],
                      "dice": list(crew.dice), "auto": crew.auto,
                      "bonus": [data.BONUSES[b] for b in crew.bonus]}
                     for crew in (ruleset.crew[c] for c in s.crew[p])],
            "surefire": s.surefire[p],
            "sail_tokens": sorted(s.sail_tokens[p]),
        })
    battle = None
    if s.battle is not None:
        fight = s.battle
        target = ("ab"[fight.target] if fight.kind == B_MERCHANT
                  else s.name(fight.target) if fight.kind == B_PIRATE else None)
        battle = {"attacker": s.name(fight.attacker),
                  "against": ("merchant", "pirate", "navy")[fight.kind], "target": target,
                  "attacker_dice": list(fight.attacker_dice),
                  "defender_dice": list(fight.defender_dice)}
    v: dict[str, Any] = {
        "round": (s.turn - 1 if s.over else s.turn) // s.pirate_count + 1,
        "turn_of": s.name(s.turn_player()),
        "sea": sea,
        "merchants": merchants,
        "pirates": pirates,
        "market": [ruleset.booty[t] for t in s.market],
        "crew_line": [ruleset.crew[c].name for c in s.crew_line],
        "crew_deck": len(s.crew_deck),
        "crew_deck_bottom": [ruleset.crew[c].name for c in s.crew_deck[: s.crew_bottom_seen]],
        "merchant_deck": len(s.merchant_deck),
        "merchants_sunk": s.merchant_cards_removed,
        "bag": sum(s.bag),
        "search_tokens_left": sum(1 for t in s.search_tokens if t >= 0),
        "surefire_supply": s.surefire_supply,
        "end_triggered": s.end_triggered,
        "battle": battle,
        "turn_state": {"crossed_ship_line": s.crossed_ship_line, "moves_used": s.moves_used,
                       "sail_bonus": s.sail_bonus, "crew_line_refreshed": s.crew_line_refreshed,
                       "rerolls": s.rerolls,
                       "bonus_left": [f"{data.BONUSES[pending.bonus]} "
                                      f"({ruleset.crew[pending.card].name})"
                                      for pending in s.bonus_left]},
        "pending": None if s.over else TASK_NAMES[s.steps[-1].kind],
    }
    return v


def score_parts(view: dict[str, Any], p: int) -> list[tuple[str, float]]:
    """Pirate ``p``'s score read from a view: the treasures buried (R11.1), the only source
    of points. Every view shows every pirate's buried treasures."""
    return [("treasures buried", float(len(view["pirates"][p]["treasures"])))]


def end_reason(view: dict[str, Any]) -> str:
    """Why the game ended, in plain words: a third treasure buried, or the round cap."""
    if view["end_triggered"]:
        who = [str(pr["name"]) for pr in view["pirates"]
               if len(pr["treasures"]) >= data.TREASURES]
        return (f"{' and '.join(who) or 'a pirate'} buried a third treasure, so the round "
                "was played out for everyone to have the same turns")
    return (f"the safety limit of {view['round']} rounds was reached before anyone buried "
            f"{data.TREASURES} treasures")
