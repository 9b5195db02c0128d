"""A game at one terminal: human seats (one, or several passing the screen), bots in the
others, a save written after every move, undo and hints.

The save is the game's record plus a ``"table"`` entry (who sits where, how many undos), so
``cove replay`` reads it as any record and ``cove play --resume`` continues it.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cove.bots import make_bot
from cove.bots.base import Bot
from cove.core.actions import match_text
from cove.core.errors import CoveError, RecordError
from cove.core.game import Game
from cove.core.record import replay
from cove.core.state import Action, State

Reader = Callable[[str], "str | None"]
Writer = Callable[[str], None]

HINT_BOT = "mcts:iterations=600"
"""The bot behind ``hint``: the default search at a fixed budget, so a hint reproduces."""

class PlayError(CoveError, ValueError):
    """A bad --save or --resume file, told before the game starts."""


def cove_home() -> Path:
    """Where ``cove play`` keeps the last game: ``$COVE_HOME``, else
    ``$XDG_DATA_HOME/cove``, else ``~/.local/share/cove``."""
    home = os.environ.get("COVE_HOME")
    if home:
        return Path(home).expanduser()
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data).expanduser() / "cove"


def last_game_path() -> Path:
    """The file every ``cove play`` saves to unless told another (``--save``) or none
    (``--no-save``); ``cove play --resume`` with no file continues it."""
    return cove_home() / "last-game.json"


def check_save_path(path: str) -> Path:
    """``path`` if a save can be written there; PlayError naming the problem otherwise (so
    a game is never lost at its end to a bad path)."""
    p = Path(path)
    if p.exists() and p.is_dir():
        raise PlayError(f"--save {path}: is a directory; give a file name such as game.json")
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        raise PlayError(f"--save {path}: the folder {folder} does not exist")
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".cove-check-")
    except OSError as e:
        raise PlayError(f"--save {path}: cannot write in {folder}: {e.strerror or e}") from None
    os.close(fd)
    os.unlink(tmp)
    return p


def write_atomically(path: Path, text: str, *, shared: bool = False) -> None:
    """Write a whole file or nothing: a crash or Ctrl-C mid-write keeps the old save.
    A save is private to its owner (the temporary file's mode, 0600); a ``shared`` file
    (a page or a results file to pass round) is readable by everyone (0644)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent if str(path.parent) else ".",
                               prefix=".cove-save-")
    try:
        if shared:
            os.fchmod(fd, 0o644)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


@dataclass
class Table:
    """One game at the terminal. ``seats[p]`` is ``"human"`` or a bot spec."""

    game: Game
    state: State
    seats: list[str]
    save_path: Path | None = None
    undos: int = 0
    bots: dict[int, Bot] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for p, spec in enumerate(self.seats):
            if spec != "human" and p not in self.bots:
                self.bots[p] = make_bot(spec, seed=self.state.seed * 31 + p)

    @property
    def humans(self) -> list[int]:
        return [p for p, s in enumerate(self.seats) if s == "human"]

    def document(self) -> dict[str, Any]:
        rec = self.state.record()
        rec["table"] = {"seats": list(self.seats), "undos": self.undos}
        return rec

    def save(self) -> None:
        if self.save_path is not None:
            write_atomically(self.save_path, json.dumps(self.document(), indent=1) + "\n")

    def play_bots(self) -> None:
        """Bots move until a human is to move or the game ends (bots commit first in a
        simultaneous step, so their choices stay hidden from the humans)."""
        while not self.state.is_over:
            movers = [p for p in self.state.to_move() if p in self.bots]
            if not movers:
                return
            p = movers[0]
            self.state.apply(p, self.bots[p].act(self.state, p))
            self.save()

    def human_to_move(self) -> int | None:
        for p in self.state.to_move():
            if p not in self.bots:
                return p
        return None

    def apply(self, seat: int, action: Action) -> None:
        self.state.apply(seat, action)
        self.save()

    @property
    def takes_back(self) -> bool:
        """Whether a player here may take a move back past others' moves: only at a table
        of one person, or of people against bots (the bots decide again)."""
        return len(self.humans) < len(self.seats) or len(self.humans) == 1

    def undo(self, seat: int) -> str:
        """Back before ``seat``'s latest decision; returns what was done, or "" when
        nothing could be. A safe undo (``State.can_undo``: nobody has decided since,
        nothing was drawn or revealed) is allowed at every table; at a table against bots
        (``takes_back``) a take-back past the bots' moves is too, counted in the record's
        undos."""
        if self.state.can_undo(seat):
            self.state = self.state.undone(seat)
            self.save()
            return "your last decision is taken back"
        if not self.takes_back:
            return ""
        rec = self.state.record()
        actions = rec["actions"]
        last = max((i for i, (p, _) in enumerate(actions) if p == seat), default=None)
        if last is None:
            return ""
        rec["actions"] = actions[:last]
        rec.pop("chance", None)
        self.state = replay(rec, log=self.state.logging)
        self.undos += 1
        self.save()
        return "back to your previous decision (the bots decide again)"

    def hint(self, seat: int) -> list[tuple[Action, int, float]]:
        """The hint bot's best moves for ``seat``: (move, search visits, estimated win
        share), best first (at most three)."""
        bot = make_bot(HINT_BOT, seed=self.state.decisions)
        chosen = bot.act(self.state, seat)
        ranking: list[tuple[Action, int, float]] = list(getattr(bot, "last_ranking", []))
        if not ranking:
            ranking = [(chosen, 0, float("nan"))]
        return ranking[:3]


def resume(path: str, seats: Sequence[str] | None = None) -> Table:
    """The table a save describes, at its last move."""
    from cove.core.record import load_record

    doc = load_record(path)
    table = doc.get("table")
    if seats is None:
        if not isinstance(table, dict) or not isinstance(table.get("seats"), list):
            raise RecordError(f"{path} has no table (who sits where): it was not saved by "
                              "'cove play'; give --bots and --seat to resume it")
        seats = [str(s) for s in table["seats"]]
    state = replay(doc)
    if len(seats) != state.n:
        raise RecordError(f"{path}: the table lists {len(seats)} seats for {state.n} players")
    undos = table.get("undos", 0) if isinstance(table, dict) else 0
    return Table(state.game, state, list(seats), Path(path),
                 undos if isinstance(undos, int) and not isinstance(undos, bool) else 0)


def resolve(state: State, seat: int, text: str) -> tuple[Action | None, str]:
    """A typed move: its number, its text, a unique prefix or short form. Returns the
    action, or None and what to tell the player."""
    legal = state.legal_actions(seat)
    shown = text if len(text) <= 40 else text[:40] + "..."
    if text.isdigit():  # also odd digits such as "²": never int() them blindly
        k = int(text) if text.isascii() and len(text) <= 9 else 0
        if 1 <= k <= len(legal):
            return legal[k - 1], ""
        return None, f"No move {shown}: choose 1 to {len(legal)}, or type a move's text."
    long = len(text) > 200  # no move is that long: do not search or explain it
    found, candidates = match_text(legal, text) if not long else (None, [])
    if found is not None:
        return found, ""
    if candidates:
        return None, (f"{shown!r} could be: " + "; ".join(str(a) for a in candidates[:8])
                      + (" ..." if len(candidates) > 8 else "") + ". Type more of the move.")
    why = state.explain_illegal(seat, text) if not long else ""
    return None, ((f"{why}. " if why else "") + f"{shown!r} is not a legal move now. Choose "
                  f"1 to {len(legal)} or type one of: " + "; ".join(str(a) for a in legal[:8])
                  + (" ..." if len(legal) > 8 else ""))
