"""One turn's screen, fitted to the terminal: the board, the other players' moves since
yours (highlighted), the new log lines, what you are deciding and the moves on offer.

Pure text functions (no terminal I/O), so the fitting rules are tested directly:

* every line is at most ``width`` columns (long prompts and log lines wrap with an indent);
* long move lists are grouped by their shared words (``place friend at: 1.a1  2.b1``), a
  grid instead of a line per move;
* with a ``height`` (a terminal, in either mode) the prompt, the moves and your input line
  always show; the log and the list of other players' moves shrink first, and a board
  taller than what is left is shown as a window with a line saying how to scroll it (your
  own lines kept in view below it, unless the window already reaches where they begin: a
  board that puts them right under its map keeps the whole map), so nothing scrolls off.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field

BOLD_YELLOW = "\x1b[1;33m"
RESET = "\x1b[0m"
GROUP_MIN = 3
"""Moves sharing all words but the last are grouped when at least this many do."""


def wrap(text: str, width: int, indent: str = "  ", first: str = "") -> list[str]:
    """``text`` as lines of at most ``width``: the first starts with ``first``, the others
    with ``indent``; words longer than a line are split."""
    return textwrap.wrap(text, max(10, width), initial_indent=first,
                         subsequent_indent=indent, break_on_hyphens=False) or [first.rstrip()]


def _columns(items: Sequence[str], width: int, indent: str) -> list[str]:
    """``items`` in aligned columns of at most ``width`` (one per line if they are wide)."""
    if not items:
        return []
    col = max(len(t) for t in items) + 2
    per_line = max(1, (width - len(indent)) // col)
    return [(indent + "".join(t.ljust(col) for t in items[k:k + per_line])).rstrip()
            for k in range(0, len(items), per_line)]


def _head(text: str) -> str:
    """All words of a move's text but the last (the group a move belongs to)."""
    head, _, _ = text.rpartition(" ")
    return head


def compact_moves(moves: Sequence[str], width: int) -> list[str]:
    """The numbered move list in as few lines as fit ``width``.

    Moves whose texts share every word but the last (``move c2 to c1``, ``move c2 to c3``,
    ...) are written once as ``move c2 to: 1 c1  2 c3 ...`` when at least ``GROUP_MIN`` do;
    the rest go in aligned columns. The numbers are the move numbers one types."""
    heads = [_head(t) for t in moves]
    count: dict[str, int] = {}
    for h in heads:
        if h:
            count[h] = count.get(h, 0) + 1
    out: list[str] = []
    singles: list[str] = []
    done: set[str] = set()
    number_width = len(str(len(moves)))
    for i, (text, head) in enumerate(zip(moves, heads, strict=True), 1):
        if head and count[head] >= GROUP_MIN:
            if head in done:
                continue
            done.add(head)
            if singles:
                out += _columns(singles, width, "  ")
                singles = []
            tails = [f"{k}.{t[len(head) + 1:]}" for k, (t, h) in
                     enumerate(zip(moves, heads, strict=True), 1) if h == head]
            label = f"  {head}:"
            pad = max(len(x) for x in tails)
            cells = [x.ljust(pad) for x in tails]
            out += wrap("  ".join(cells), width, indent=" " * min(len(label) + 1, width // 3),
                        first=label + " ")
        else:
            singles.append(f"{i:>{number_width}}. {text}")
    out += _columns(singles, width, "  ")
    return [ln.rstrip() for ln in out]


@dataclass
class Turn:
    """What one turn's screen holds, before fitting."""

    board: list[str]
    prompt: str
    moves: list[str]
    others: list[str] = field(default_factory=list)
    """The other players' moves since yours, oldest first (``P2: collect shell at c2``)."""
    log: list[str] = field(default_factory=list)
    """New log lines, oldest first."""
    notes: list[str] = field(default_factory=list)
    """Lines that must show (skipped steps, a message answering your last input)."""


@dataclass
class Fitted:
    lines: list[str]
    board_top: int = 0
    """The first board line shown (a board taller than its room is shown as a window)."""
    board_hidden: int = 0
    """Board lines not shown."""


def _section(title: str, body: list[str], limit: int | None) -> list[str]:
    if not body or limit == 0:
        return []
    if limit is not None and len(body) + 1 > limit:
        cut = len(body) - max(0, limit - 1)
        keep = body[cut:] if limit > 1 else []
        return [f"{title} ({cut} earlier line{'s' if cut != 1 else ''}: type 'log')", *keep]
    return [title, *body]


def highlight(lines: Sequence[str], color: bool) -> list[str]:
    """Lines marked for the eye: bold yellow in colour, a leading '>>' otherwise (so the
    mark survives pipes, screen readers and NO_COLOR)."""
    if color:
        return [f"{BOLD_YELLOW}{ln}{RESET}" for ln in lines]
    return [f">> {ln.lstrip()}" for ln in lines]


def _yours(board: Sequence[str]) -> list[str]:
    """The board's lines about the viewer: a line marked ``(you)`` or starting with
    ``Your`` (a hand, a secret card), each with the indented lines that continue it. A
    window over a tall board keeps them in view."""
    out: list[str] = []
    i = 0
    while i < len(board):
        line = board[i]
        i += 1
        if "(you)" in line or line.startswith("Your "):
            out.append(line)
            while i < len(board) and board[i].startswith("  ") and not (
                    "(you)" in board[i] or board[i].lstrip().startswith("Your ")):
                out.append(board[i])
                i += 1
    return out


def fit(turn: Turn, width: int, height: int | None, color: bool = False,
        board_top: int = 0, seat_name: str = "") -> Fitted:
    """The turn's lines for a ``width`` x ``height`` screen (``height`` None: no limit).
    The last line is left for the input line. A board taller than its room is shown as a
    window that '+' and '-' scroll, keeping the viewer's own lines in view."""
    prompt = wrap(turn.prompt, width, first=f"{seat_name}: " if seat_name else "")
    moves = compact_moves(turn.moves, width)
    notes = [y for x in turn.notes for y in wrap(x, width)]
    others = highlight([y for x in turn.others for y in wrap(x, width - 3, indent="    ")],
                       color)
    log = [y for x in turn.log for y in wrap(x, width, indent="      ", first="  ")]
    if height is None:
        lines = [*turn.board, *_section("Since your last move:", others, None),
                 *_section("Log:", log, None), *notes, *prompt, *moves]
        return Fitted(lines)
    room = height - 1                      # the input line
    notes = notes[-max(1, room // 4):]     # the newest notes; a note never fills the screen
    fits = room - len(prompt) - len(notes) - 2   # at least a line of board and its bar
    if len(moves) > fits:                  # more moves than lines: the first ones, and how
        more = max(1, fits - 1)            # to see the rest
        hidden_moves = len(moves) - more
        moves = [*moves[:more], f"-- {hidden_moves} more lines of moves: 'moves' lists them "
                 "all; type any move --"[:width]]
    fixed = len(prompt) + len(moves) + len(notes)
    # the board gets what the fixed part leaves, less a little for the others and the log
    want_extra = min(len(others) + 1 if others else 0, 4) + min(len(log) + 1 if log else 0, 3)
    board_room = max(0, room - fixed - want_extra)
    board = turn.board
    top = 0
    hidden = 0
    if len(board) > board_room:
        board_room = max(0, room - fixed - (min(len(others), 2) + 1 if others else 0))
        if board_room >= 2:
            yours = _yours(board)
            room_left = board_room - 1
            top = max(0, min(board_top, len(board) - room_left))
            pin = [ln for ln in yours if ln not in board[top:top + room_left]]
            starts = [i for i, ln in enumerate(board) if yours and ln == yours[0]]
            if starts and top <= starts[0] < top + room_left:
                pin = []   # the window shows where your lines begin: '+' shows the rest,
                #            and pinning them would push the top (a map) out of view
            if pin and len(pin) <= room_left // 2:   # your lines below the window: kept
                reserved = len(pin)
                room_left -= reserved
                top = max(0, min(board_top, len(board) - room_left))
                pin = [ln for ln in yours if ln not in board[top:top + room_left]][:reserved]
            else:
                pin = []
            shown = board[top:top + room_left]
            last = top + len(shown)
            shown = [*shown, *pin]
            hidden = len(board) - len(shown)
            bar = (f"-- board lines {top + 1}-{last}{' and yours' if pin else ''} of "
                   f"{len(board)}: '+' scrolls down, '-' up --")
            board = [*shown, bar[:width]]
        else:
            hidden = len(board)
            board = [f"-- the board has {len(board)} lines: type 'board' --"[:width]]
    left = room - fixed - len(board)
    other_lines = _section("Since your last move:", others, max(0, min(left, 4)))
    left -= len(other_lines)
    log_lines = _section("Log:", log, max(0, left))
    lines = [*board, *other_lines, *log_lines, *notes, *prompt, *moves]
    return Fitted(lines, top, hidden)
