"""The terminal's turn loop: draw a seat's turn, read what the player types, answer it.

Two modes share it. ``redraw`` (a terminal): one screen that is cleared and drawn again
each time, fitted to the terminal's size (cove.tui.layout), long answers shown a page at a
time. ``plain`` (a pipe, a screen reader, ``--screen plain``): every turn is printed below
the last and nothing is cleared; on a terminal a turn still fits its height (a tall board
shown as a window, '+'/'-' scroll it, 'board' prints it whole), in a pipe it is whole.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from cove.core.game import Game
from cove.core.state import Action, State
from cove.core.text import seat_name
from cove.core.undo import why_not
from cove.terminal import Table, resolve
from cove.tui.hooks import move_help, skip_reason
from cove.tui.layout import Turn, compact_moves, fit, wrap
from cove.tui.summary import round_summary

Reader = Callable[[str], "str | None"]

CLEAR = "\x1b[H\x1b[2J"
QUIT = "quit"
EOF_ = "eof"
UNDO = "undo"

HELP = ("Type a move's number, its text or a unique short form ('sail n', 'a1'). Also: "
        "'help <move>' what that move does; 'rules' how to play; 'rules full' every rule; "
        "'log' the whole log; "
        "'board' the whole board ('+'/'-' scroll it); 'moves' every move on offer; 'undo' "
        "back to your previous decision; 'hint' what the search bot would play; 'quit' "
        "leave (the save keeps the game).")


def player_name(p: int) -> str:
    return seat_name(p)


@dataclass
class Display:
    """Where screens go and how: ``redraw`` clears and redraws one screen, ``plain``
    scrolls. ``size`` is (columns, lines); None asks the terminal each time."""

    out: IO[str]
    redraw: bool
    color: bool = False
    size: tuple[int, int] | None = None

    def dims(self) -> tuple[int, int]:
        if self.size is not None:
            return self.size
        cols, rows = shutil.get_terminal_size((100, 40))
        return max(40, cols), max(10, rows)

    def show(self, lines: Sequence[str]) -> None:
        if self.redraw:
            self.out.write(CLEAR + "\n".join(lines) + "\n")
        else:
            width = self.dims()[0]
            self.out.write("\n" + "=" * min(72, width) + "\n" + "\n".join(lines) + "\n")
        self.out.flush()

    def say(self, text: str, indent: str = "  ") -> None:
        """A message: wrapped to the width (continuation lines start with ``indent``) and
        printed (both modes)."""
        width = self.dims()[0]
        self.out.write("\n".join(y for x in text.splitlines()
                                 for y in wrap(x, width, indent=indent)) + "\n")
        self.out.flush()

    def page(self, lines: Sequence[str], read: Reader) -> None:
        """Long text: a page at a time in the redraw mode (Enter: more, q: back), all at once
        in the plain mode."""
        width, height = self.dims()
        body = [y for x in lines for y in (wrap(x, width, indent="    ") if x else [""])]
        if not self.redraw:
            self.out.write("\n".join(body) + "\n")
            self.out.flush()
            return
        room = max(1, height - 1)
        start = 0
        while start < len(body):
            chunk = body[start:start + room]
            end = start + len(chunk)
            self.out.write(CLEAR + "\n".join(chunk) + "\n")
            self.out.flush()
            more = end < len(body)
            answer = read(f"-- lines {start + 1}-{end} of {len(body)}; "
                          + ("Enter: more, q: back -- " if more else "Enter: back -- "))
            if answer is None or answer.strip().lower() in ("q", "quit") or not more:
                return
            start = end


def rules_lines(game: Game) -> list[str]:
    """The game's full RULES.md as plain lines: table rows become 'R3.1 text [TAG]'."""
    text = game.rules_text
    if not text:
        return [f"{game.name}: {game.summary}", "(this game has no RULES.md)"]
    out: list[str] = []
    joining = False   # the last line is a paragraph's, which the next plain line continues
    for raw in text.splitlines():
        line = raw.rstrip()
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if all(set(c) <= set("-: ") for c in cells) or cells[:2] == ["Rule", "Text"]:
                continue
            tag = f" [{cells[2]}]" if len(cells) > 2 and cells[2] else ""
            out.append(" ".join(c for c in cells[:2] if c) + tag)
            joining = False
        elif line.startswith("#") or not line:
            out.append(line.lstrip("#").strip())
            joining = False
        elif joining and not line.lstrip().startswith(("- ", "* ")):
            out[-1] += " " + line.strip()   # one line per paragraph: the pager wraps it
        else:
            out.append(line)
            joining = True
    return out


ITEM = re.compile(r"( *)([-*]|\d+\.) (.*)")
"""A list item of the guide's markdown: its indent, its mark and its text."""


def guide_lines(game: Game, width: int) -> list[str]:
    """``rules``: the game's player's guide (HOW_TO_PLAY.md) as lines of at most ``width``:
    paragraphs and list items re-wrapped, headings set off, ``**``/backticks dropped. A
    game without a guide gets its summary and a pointer to ``rules full``."""
    text = game.how_to_play
    if not text:
        return [f"{game.name}: {game.summary}", "", "(no guide for this game: 'rules full' "
                "shows every rule)"]
    out: list[str] = []
    block: list[str] = []
    first = indent = ""

    def flush() -> None:
        if block:
            words = " ".join(block).replace("**", "").replace("`", "")
            out.extend(wrap(words, width, indent=indent, first=first))
            block.clear()

    for raw in text.splitlines():
        line = raw.strip()
        item = ITEM.fullmatch(raw.rstrip())
        if not line or line.startswith("#") or item:
            flush()
        if not line:
            continue
        if line.startswith("#"):
            title = line.lstrip("#").strip()
            out += ([title.upper(), ""] if line.startswith("# ") else
                    ["", f"-- {title} --"])
            first = indent = ""
        elif item:
            pad = " " * (len(item.group(1)) + 2)
            first = f"{pad}{item.group(2)} "
            indent = " " * len(first)
            block.append(item.group(3))
        else:
            if not block:   # a paragraph; one indented under a list item stays under it
                lead = len(raw) - len(raw.lstrip())
                first = indent = " " * (lead + 2 if lead else 0)
                if out and out[-1] and not out[-1].startswith("-- "):
                    out.append("")
            block.append(line)
    flush()
    return [*out, "", "('rules full' shows every rule with its source)"]


STEP = re.compile(r"Step (\d+) \(([^)]*)\)")


def skipped_steps(game: Game, before: dict[str, Any] | None, now: dict[str, Any]) -> list[str]:
    """Numbered steps that passed the player by between two of their decisions, each with
    why ("no purchase possible: step 4 skipped"). A game numbers its steps with a ``step``
    in the decision; a smaller number than before means a new turn, whose first steps
    (from 2: step 1 is never a decision) were passed over."""
    k = now.get("step")
    if not isinstance(k, int) or now.get("kind") != "step":
        return []
    j = before.get("step") if before else None
    start = j + 1 if isinstance(j, int) and j < k else 2
    out = []
    for s in range(start, k):
        why = skip_reason(game, s)
        if why:
            out.append(f"{why}: step {s} skipped")
    return out


@dataclass
class Seat:
    """What one human seat has seen: log lines, its last decision, the board scroll."""

    seen_log: int = 0
    seen_moves: int = 0
    last_decision: dict[str, Any] | None = None
    board_top: int = 0
    notes: list[str] = field(default_factory=list)


def others_moves(state: State, seat: int, since: int) -> list[str]:
    """The other players' moves after history entry ``since`` as ``seat`` saw them (a
    secret choice not yet revealed says so)."""
    out = []
    for p, a in state.history_for(seat)[since:]:
        if p != seat:
            out.append(f"{player_name(p)}: {a if a is not None else '(a secret choice)'}")
    return out[-8:]


def turn_for(game: Game, table: Table, seat: int, seen: Seat, width: int,
             color: bool = False) -> Turn:
    """The turn's content for ``seat`` (fitting is done by the caller)."""
    state = table.state
    board = (game.render(state.view(seat), color, width=width).splitlines()
             if game.render is not None
             else [y for x in json.dumps(state.view(seat), indent=1).splitlines()
                   for y in wrap(x, width, indent="    ", first="")])
    events = state.events(seat, seen.seen_log)
    decision = state.decision(seat)
    notes = [*seen.notes]
    summary = round_summary(events, state.n)
    if summary:
        notes.append("Scores: " + "; ".join(summary))
    notes += skipped_steps(game, seen.last_decision, decision)
    return Turn(board=board, prompt=decision["prompt"],
                moves=[str(a) for a in state.legal_actions(seat)],
                others=others_moves(state, seat, seen.seen_moves),
                log=[e.text for e in events], notes=notes)


def draw(display: Display, game: Game, table: Table, seat: int, seen: Seat) -> Turn:
    width, rows = display.dims()
    # a terminal's turn fits its height (the plain mode too: a screen reader's user reads
    # the newest lines); a pipe or a file has no height and gets every line
    height = rows if display.redraw or display.out.isatty() else None
    turn = turn_for(game, table, seat, seen, width, display.color)
    fitted = fit(turn, width, height, display.color, board_top=seen.board_top,
                 seat_name=player_name(seat))
    seen.board_top = fitted.board_top
    display.show(fitted.lines)
    return turn


def describe_move(game: Game, state: State, seat: int, text: str) -> str:
    """``help <move>``: what one move on offer does."""
    action, why = resolve(state, seat, text)
    if action is None:
        return why
    said = move_help(game, str(action))
    prompt = state.decision(seat)["prompt"]
    return f"{action}: " + (said if said else f"one of the answers to: {prompt}")


def help_lines(game: Game, state: State, seat: int) -> list[str]:
    """``help``: the game in a sentence, the commands, and each move on offer explained."""
    lines = [f"{game.name}: {game.summary}", "", HELP, "", "The moves on offer:"]
    for i, a in enumerate(state.legal_actions(seat), 1):
        said = move_help(game, str(a))
        lines.append(f"  {i}. {a}" + (f": {said}" if said else ""))
    return lines


def ask(display: Display, table: Table, seat: int, seen: Seat, read: Reader
        ) -> Action | str:
    """Draw ``seat``'s turn and read until a legal move is given; QUIT, EOF_ or UNDO
    otherwise."""
    game = table.game
    while True:
        state = table.state
        draw(display, game, table, seat, seen)
        seen.notes = []
        line = read("> ")
        if line is None:
            return EOF_
        text = line.strip()
        low = text.lower()
        if not text:
            continue
        if low in ("q", "quit", "exit"):
            return QUIT
        if low in ("+", "-"):
            seen.board_top = max(0, seen.board_top + (8 if low == "+" else -8))
            continue
        if low in ("?", "help"):
            display.page(help_lines(game, state, seat), read)
            continue
        if low.startswith("help ") or low.startswith("? "):
            seen.notes.append(describe_move(game, state, seat, text.split(None, 1)[1]))
            continue
        if low == "rules":
            display.page(guide_lines(game, display.dims()[0]), read)
            continue
        if low in ("rules full", "rules all"):
            display.page(rules_lines(game), read)
            continue
        if low == "log":
            display.page([e.text for e in state.events(seat)] or ["(nothing logged yet)"],
                         read)
            continue
        if low == "moves":
            display.page(compact_moves([str(a) for a in state.legal_actions(seat)],
                                       display.dims()[0]), read)
            continue
        if low == "board":
            display.page(turn_for(game, table, seat, Seat(), display.dims()[0],
                                  display.color).board, read)
            continue
        if low == "undo":
            if table.takes_back or state.can_undo(seat):
                return UNDO
            seen.notes.append(f"no undo now: {why_not(state, seat)} (between people, a "
                              "decision can be taken back until someone else decides, "
                              "a die is rolled or something hidden is shown).")
            continue
        if low == "hint":
            display.say("Thinking...")
            seen.notes += [f"hint: {a} ("
                           + ("" if share != share else f"estimated win share {share:.0%}, ")
                           + f"{visits} search visits)" for a, visits, share in table.hint(seat)]
            continue
        action, why = resolve(state, seat, text)
        if action is None:
            seen.notes.append(why)
            continue
        seen.last_decision = state.decision(seat)
        seen.seen_log = state.log_count(seat)
        return action
