"""Score summaries: at a round's end (from the score events a seat was told) and at the
game's end (each player's score, its parts when the game's events name them, the tie-break
figures, the winner and what decided it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cove.core.game import Game
from cove.core.history import Event
from cove.core.state import State
from cove.core.text import end_reason, seat_name
from cove.tui.hooks import score_breakdown

SCORE_KINDS = ("score", "game_over")


def _name(p: int) -> str:
    return seat_name(p)


def _num(x: Any) -> str:
    return f"{x:g}" if isinstance(x, (int, float)) and not isinstance(x, bool) else str(x)


def score_parts(events: Sequence[Event], n: int) -> dict[int, dict[str, float]]:
    """Points per player and reason from events that say ``{"player", "points", "for"}``."""
    out: dict[int, dict[str, float]] = {}
    for e in events:
        d = e.data or {}
        p, pts = d.get("player"), d.get("points")
        if e.kind in SCORE_KINDS and isinstance(p, int) and 0 <= p < n \
                and isinstance(pts, (int, float)) and not isinstance(pts, bool):
            why = str(d.get("for") or "other")
            parts = out.setdefault(p, {})
            parts[why] = parts.get(why, 0.0) + float(pts)
    return out


def _per_player_lists(events: Sequence[Event], n: int) -> list[str]:
    """Score events whose data holds one figure per player (``boxes``, ``influence``)."""
    lines = []
    for e in events:
        if e.kind not in SCORE_KINDS or not e.data:
            continue
        for key, value in e.data.items():
            if isinstance(value, list) and len(value) == n and all(
                    isinstance(x, (int, float)) and not isinstance(x, bool) for x in value):
                label = f"round {e.data['round']} {key}" if "round" in e.data else key
                lines.append(f"{label}: " + ", ".join(
                    f"{_name(p)} {_num(x)}" for p, x in enumerate(value)))
    return lines


def _standings(events: Sequence[Event], n: int) -> list[str]:
    """Score events about one player with one figure (``{"player": 1, "influence": 10}``):
    each player's latest figure."""
    latest: dict[int, str] = {}
    for e in events:
        d = e.data or {}
        p = d.get("player")
        figures = [(k, v) for k, v in d.items() if k != "player" and isinstance(
            v, (int, float)) and not isinstance(v, bool)]
        if e.kind == "score" and isinstance(p, int) and 0 <= p < n and len(figures) == 1:
            latest[p] = f"{_name(p)} {figures[0][0]} {_num(figures[0][1])}"
    return [latest[p] for p in sorted(latest)]


def round_summary(events: Sequence[Event], n: int) -> list[str]:
    """What the new score events say, per player; [] when none came."""
    if not any(e.kind in SCORE_KINDS for e in events):
        return []
    lines = _per_player_lists(events, n) + _standings(events, n)
    for p, parts in sorted(score_parts(events, n).items()):
        lines.append(f"{_name(p)} scored " + ", ".join(
            f"{_num(v)} for {k}" for k, v in parts.items()))
    return lines


def decider(game: Game, state: State) -> str:
    """Why the winners won: the top score alone, or the tie-break that split a tie."""
    scores = state.scores()
    best = max(scores)
    tied = [p for p in range(state.n) if scores[p] == best]
    winners = list(state.winners())
    if len(tied) == 1:
        second = max((s for p, s in enumerate(scores) if p != tied[0]), default=None)
        return (f"{_name(tied[0])} has the top score, {_num(best)}"
                + (f"; next best {_num(second)}" if second is not None else ""))
    told = dict(enumerate(game.tiebreak))
    keys = {p: state.tiebreak(p) for p in tied}
    who = " and ".join(_name(p) for p in tied)
    for i in range(max((len(k) for k in keys.values()), default=0)):
        values = {p: k[i] if i < len(k) else None for p, k in keys.items()}
        if len(set(values.values())) > 1:
            what = told.get(i, f"tie-break {i + 1}")
            return (f"{who} tied on {_num(best)}; {what} decided: " + ", ".join(
                f"{_name(p)} {_num(v)}" for p, v in values.items()))
    shared = " and ".join(_name(p) for p in winners)
    rules = "; ".join(told.values())
    return (f"{who} tied on {_num(best)}" + (f" and on every tie-break ({rules})" if rules
                                              else " and the game has no tie-break")
            + f": {shared} share the win")


def final_summary(game: Game, state: State, humans: Sequence[int]) -> list[str]:
    """The game-end lines: a line per player (score, its parts, tie-break figures), why
    the game ended (when over and the game says), the winner and what decided it."""
    scores = state.scores()
    names = game.tiebreak
    events = state.events(None)
    parts = score_parts(events, state.n)
    view = state.view(None) if state.is_over else None
    solo = len(humans) == 1
    lines = ["Final scores:"]
    for p in range(state.n):
        you = " (you)" if solo and p in humans else ""
        line = f"  {_name(p)}{you}: {_num(scores[p])}"
        named = score_breakdown(game, view, p) if view is not None else []
        if named:
            line += " = " + " + ".join(f"{k} {_num(v)}" for k, v in named)
        elif p in parts:
            line += " = " + " + ".join(f"{_num(v)} for {k}" for k, v in parts[p].items())
        key = state.tiebreak(p)
        if key:
            line += "; tie-break: " + ", ".join(
                f"{names[i] if i < len(names) else f'key {i + 1}'} {_num(v)}"
                for i, v in enumerate(key))
        lines.append(line)
    lines += [f"  {x}" for x in _per_player_lists(events, state.n)]
    if state.is_over:
        lines.append(f"Game over. {end_reason(state)}")
    winners = state.winners()
    if not winners:  # a solo game lost, or one the rules let nobody win: the line
        lines.append("No player wins.")  # before says why
        return lines
    won = ", ".join(_name(p) for p in winners)
    verdict = (f"Winner: {won}" if len(winners) == 1 else f"Shared win: {won}")
    verdict += f" ({decider(game, state)})"
    if solo and humans[0] in winners:
        verdict += " -- you win!" if len(winners) == 1 else " -- you share the win!"
    lines.append(verdict)
    return lines
