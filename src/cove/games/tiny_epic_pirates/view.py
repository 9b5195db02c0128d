"""What a player may see, built by whitelisting public fields, and the score in parts.

Hidden: the face-down search tokens (only "searched or not" is shown), the order of the
crew deck (its size and the cards seen going to its bottom are shown), the merchant deck
(its size), and the booty bag (its size). Everything else in Tiny Epic Pirates is public:
wheels, assignments, ships, cargo, crew, gold, dice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cove.games.tiny_epic_pirates import data as D
from cove.games.tiny_epic_pirates.data import ASSIGN
from cove.games.tiny_epic_pirates.sea import cell
from cove.games.tiny_epic_pirates.turn import TASK_NAMES

if TYPE_CHECKING:
    from cove.games.tiny_epic_pirates.state import PiratesState


def build_view(s: PiratesState, player: int | None) -> dict[str, Any]:
    R = s.R
    sea = []
    for i in range(16):
        c = s.card(i)
        sea.append({
            "cell": cell(i),
            "name": c.name,
            "kind": D.KINDS[c.kind],
            "plunder": c.plunder,
            "market": R.booty[c.booty] if c.booty >= 0 else None,
            "searched": s.tokens[i] < 0,
            "port": i in s.ports,
            "navy": s.navy == i,
        })
    merchants = [{
        "name": "ab"[m],
        "cell": cell(s.m_pos[m]),
        "cube": R.booty[s.m_cube[m]] if s.m_cube[m] >= 0 else None,
        "heading_for": cell(s.ports[s.m_face[m]]),
        "card": s.m_card[m],
    } for m in (0, 1)]
    pirates = []
    for p in range(s.np):
        cap = R.captains[s.captain[p]]
        side = s.side[p]
        pirates.append({
            "name": s.name(p),
            "solo_pirate": p == s.solo,
            "cell": cell(s.pos[p]) if s.pos[p] >= 0 else None,
            "hidden": s.hidden[p],
            "wheel": [D.ORDERS[o] for o in s.wheel[p]],
            "captain_at": s.cap[p],
            "wheel_deckhands": [i for i in range(6) if s.wheel_dh[p][i]],
            "assignments": {ASSIGN[j]: s.assign[p][j] for j in range(4)},
            "deckhand_on_legend_mat": s.dh_reserve[p],
            "legend": s.level[p],
            "legend_name": R.legend[s.level[p] - 1].name,
            "bloody": s.bloody[p],
            "gold": s.gold[p],
            "treasures": [cell(t) for t in s.treasures[p]],
            "next_treasure": (
                {"cost": R.treasure_cost[len(s.treasures[p])],
                 "min_legend": R.treasure_level[len(s.treasures[p])]}
                if len(s.treasures[p]) < D.TREASURES else None),
            "booty": sorted(R.booty[t] for t in s.booty[p]),
            "captain": cap.name,
            "captain_side": "AB"[side],
            "captain_trigger": D.ORDERS[cap.trigger[side]],
            "captain_dice": list(cap.dice[side]),
            "crew": [{"name": R.crew[c].name, "trigger": D.ORDERS[R.crew[c].trigger],
                      "dice": list(R.crew[c].dice), "auto": R.crew[c].auto,
                      "bonus": [D.BONUSES[b] for b in R.crew[c].bonus]} for c in s.crew[p]],
            "surefire": s.sure[p],
            "sail_tokens": sorted(s.sail_tokens[p]),
        })
    battle = None
    if s.battle is not None:
        b = s.battle
        battle = {"attacker": s.name(b[0]), "against": ("merchant", "pirate", "navy")[b[1]],
                  "target": ("ab"[b[2]] if b[1] == 0 else s.name(b[2]) if b[1] == 1 else None),
                  "attacker_dice": list(b[3]), "defender_dice": list(b[4])}
    v: dict[str, Any] = {
        "round": (s.turn - 1) // s.np + 1 if s.over else s.turn // s.np + 1,
        "turn_of": s.name(s.turn_player()),
        "sea": sea,
        "merchants": merchants,
        "pirates": pirates,
        "market": [R.booty[t] for t in s.market],
        "crew_line": [R.crew[c].name for c in s.crew_line],
        "crew_deck": len(s.crew_deck),
        "crew_deck_bottom": [R.crew[c].name for c in s.crew_deck[: s.crew_known]],
        "merchant_deck": len(s.m_deck),
        "merchants_sunk": s.m_removed,
        "bag": sum(s.bag),
        "search_tokens_left": sum(1 for t in s.tokens if t >= 0),
        "surefire_supply": s.sure_supply,
        "end_triggered": s.end_trigger,
        "battle": battle,
        "turn_state": {"crossed_ship_line": s.crossed, "moves_used": s.moves_used,
                       "sail_bonus": s.sail_bonus, "crew_line_refreshed": s.refreshed,
                       "rerolls": s.rerolls,
                       "bonus_left": [f"{D.BONUSES[b]} ({R.crew[c].name})"
                                      for c, b in s.bonus_left]},
        "pending": None if s.over else TASK_NAMES[s.steps[-1].kind],
    }
    return v


def score_parts(view: dict[str, Any], p: int) -> list[tuple[str, float]]:
    """Pirate ``p``'s score read from a view: the treasures buried (R11.1), the only source
    of points. Every view shows every pirate's buried treasures."""
    return [("treasures buried", float(len(view["pirates"][p]["treasures"])))]
