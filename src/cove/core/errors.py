"""Errors raised through the public contract.

Every error carries a message that says what was wrong and what is valid, so the CLI
can print it as one line without a traceback.
"""

from __future__ import annotations


class CoveError(Exception):
    """Base of every error Cove raises on bad input."""


class IllegalAction(CoveError, ValueError):
    """An action that is not legal now. The state is unchanged when this is raised."""


class UnknownGame(CoveError, KeyError):
    """A game id that is not in the registry."""

    def __str__(self) -> str:  # KeyError quotes its message; we do not want that
        return str(self.args[0]) if self.args else ""


class OptionError(CoveError, ValueError):
    """An unknown option name or a value outside the option's allowed values."""


class SeatError(CoveError, ValueError):
    """A player (seat) number that is not a whole number in 0..players-1."""


class PlayerCountError(CoveError, ValueError):
    """A player count outside the game's range."""


class RecordError(CoveError, ValueError):
    """A game record that cannot be read or does not replay."""


class DataError(CoveError, ValueError):
    """A malformed game data file; the message names the file, the entry and the problem."""
