"""Options: typed values checked against their declaration, with errors that say what is
allowed."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from cove.core.errors import OptionError
from cove.core.options import Options, build_options, option


@dataclass(frozen=True)
class _Opts(Options):
    count: int = option(3, help="a whole number", minimum=1, maximum=9)
    rate: float = option(0.5, help="a fraction", minimum=0.0, maximum=1.0)


@pytest.mark.parametrize("name", ["count", "rate"])
@pytest.mark.parametrize("raw", [float("inf"), float("nan"), "inf", "nan", "1e999", 10**400])
def test_infinite_nan_or_huge_values_are_refused_saying_what_is_allowed(name: str,
                                                                        raw: object) -> None:
    with pytest.raises(OptionError, match=f"option {name}=.*allowed"):
        build_options(_Opts, {name: raw}, 2, "test")


def test_values_in_range_are_taken() -> None:
    opts = build_options(_Opts, {"count": "4", "rate": 0.25}, 2, "test")
    assert (opts.count, opts.rate) == (4, 0.25)


def test_options_and_bot_parameters_share_one_parser() -> None:
    """One typed-parameter parser; the same text is judged the same way."""
    from cove.bots import BotSpecError, make_bot
    from cove.core.options import BadValue, parse_value

    assert parse_value("int", "7", minimum=1) == 7
    assert parse_value("bool", "on") is True
    assert parse_value("list", "a,b", choices=("a", "b", "c")) == ("a", "b")
    for kind, raw in (("int", "1.5"), ("int", "0"), ("float", "nan"), ("bool", "maybe")):
        with pytest.raises(BadValue):
            parse_value(kind, raw, minimum=1)
    with pytest.raises(BotSpecError, match="an integer >= 1"):
        make_bot("mcts:iterations=1.5")
