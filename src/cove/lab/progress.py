"""Progress of a long run on stderr: games done, rate and ETA.

:func:`progress_bar` gives a bar drawn with ``rich`` when the ``cove[lab]`` extra is
installed, a plain one-line bar otherwise (the core needs nothing), and a silent one when
it is switched off (``--quiet``, ``--json``) or stderr is not a terminal, so pipes and logs
never receive control characters. A bar is called as ``bar(done, total)`` (the lab's
``progress`` callbacks) and closed with :meth:`Bar.close`, which leaves the last state on
screen; after Ctrl-C the caller closes it before printing what was done.
"""

from __future__ import annotations

import os
import sys
import time
from typing import IO, Any


class Bar:
    """A silent bar: the interface of the others."""

    def __call__(self, done: int, total: int) -> None:
        """``done`` of ``total`` units are finished (a resumed run may start above 0)."""

    def close(self) -> None:
        """Stop drawing and leave the last state visible."""

    def __enter__(self) -> Bar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def clock(seconds: float) -> str:
    """``m:ss`` or ``h:mm:ss``."""
    s = int(seconds)
    if s >= 3600:
        return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"
    return f"{s // 60}:{s % 60:02d}"


class PlainBar(Bar):
    """One line rewritten in place: ``label [####----] 40/100 (40%) 12.3 games/s, ETA 0:05``."""

    def __init__(self, label: str, unit: str, stream: IO[str]) -> None:
        self.label, self.unit, self.stream = label, unit, stream
        self.last = -1
        self.first: int | None = None
        self.start = time.perf_counter()
        self.open = False
        try:  # a line wider than the terminal would wrap, and \r would not go back up
            columns = os.get_terminal_size(stream.fileno()).columns
        except (AttributeError, OSError, ValueError):
            columns = 80
        self.width = max(20, columns - 3)  # room for an echoed ^C

    def __call__(self, done: int, total: int) -> None:
        if self.first is None:  # a resumed run starts part-way: the rate counts new units
            self.first = done
            self.start = time.perf_counter()
        pct = int(100 * done / max(1, total))
        if pct == self.last and done != total:
            return
        self.last = pct
        elapsed = time.perf_counter() - self.start
        rate = (done - self.first) / elapsed if elapsed > 0 else 0.0
        eta = f", ETA {clock((total - done) / rate)}" if rate > 0 and done < total else ""
        tail = f" {done}/{total} ({pct}%) {rate:.1f} {self.unit}/s{eta}"
        width = max(5, min(24, self.width - len(self.label) - len(tail) - 3))
        fill = width * min(done, total) // max(1, total)
        line = f"{self.label} [{'#' * fill}{'-' * (width - fill)}]{tail}"
        self.stream.write("\r" + line[: self.width].ljust(self.width))
        self.open = done < total
        if not self.open:
            self.stream.write("\n")
        self.stream.flush()

    def close(self) -> None:
        if self.open:
            self.stream.write("\n")
            self.stream.flush()
            self.open = False


class RichBar(Bar):
    """A ``rich`` progress bar: label, bar, done/total, percent, rate, elapsed and ETA."""

    def __init__(self, label: str, unit: str, stream: IO[str]) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            ProgressColumn,
            TaskProgressColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        from rich.table import Column
        from rich.text import Text

        class Rate(ProgressColumn):
            def render(self, task: Any) -> Text:
                speed = task.finished_speed or task.speed
                return Text("" if speed is None else f"{speed:,.1f} {unit}/s",
                            style="progress.data.speed")

        self.label = label
        console = Console(file=stream)
        console.width = max(40, console.width - 3)  # room for an echoed ^C on the same line
        keep = Column(no_wrap=True)  # a figure split over two lines would break the redraw
        columns: list[ProgressColumn | str] = [
            TextColumn("[progress.description]{task.description}",
                       table_column=Column(no_wrap=True, overflow="ellipsis",
                                           max_width=max(12, console.width // 3))),
            BarColumn(bar_width=None), MofNCompleteColumn(table_column=keep),
            TaskProgressColumn(table_column=keep), Rate(table_column=keep)]
        if console.width >= 100:  # elapsed time only where there is room for it
            columns.append(TimeElapsedColumn(table_column=keep))
        columns += [TextColumn("ETA", table_column=keep), TimeRemainingColumn(table_column=keep)]
        self.progress = Progress(*columns, console=console, transient=False, expand=False)
        self.task: Any = None

    def __call__(self, done: int, total: int) -> None:
        if self.task is None:  # created at the first figure: a resumed run's games done
            self.progress.start()  # before are not counted in its rate
            self.task = self.progress.add_task(self.label, total=total, completed=done)
            return
        self.progress.update(self.task, completed=done, total=total)

    def close(self) -> None:
        self.progress.stop()  # draws the last figures once more and ends the line


def rich_installed() -> bool:
    try:
        import rich.progress  # noqa: F401
    except ImportError:
        return False
    return True


def progress_bar(label: str, enabled: bool = True, unit: str = "games",
                 stream: IO[str] | None = None, fancy: bool | None = None) -> Bar:
    """A bar for ``label`` on ``stream`` (default stderr): silent when not ``enabled`` or
    when the stream is not a terminal; drawn with rich when ``fancy`` (default: when rich
    is installed), plain otherwise."""
    out = sys.stderr if stream is None else stream
    if not enabled or not out.isatty():
        return Bar()
    if fancy is None:
        fancy = rich_installed()
    return RichBar(label, unit, out) if fancy else PlainBar(label, unit, out)
