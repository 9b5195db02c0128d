"""The int-coded action form: a table made from declared values gives each action's code,
text and JSON form from one place, and refuses a table that would be ambiguous."""

from __future__ import annotations

import json
import pickle
from dataclasses import dataclass

import pytest

from cove.core.actions import ActionTable, CodedAction, action_json
from cove.core.errors import RecordError
from cove.core.serial import Decoder, encode


@dataclass(frozen=True)
class Play:
    card: int

    def __str__(self) -> str:
        return f"play {self.card}"


@dataclass(frozen=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


class Act(CodedAction):
    __slots__ = ()


TABLE = ActionTable(Act, [*(Play(c) for c in range(1, 6)), Pass()])


def test_codes_texts_and_forms_come_from_the_declared_values() -> None:
    assert len(TABLE) == 6 and TABLE.start(Play) == 0 and TABLE.start(Pass) == 5
    assert TABLE.count(Play) == 5
    a = TABLE[TABLE.start(Play) + 2]
    assert isinstance(a, Act) and a == 2 and hash(a) == hash(2)
    assert str(a) == "play 3" and repr(a) == "Act('play 3')"
    assert a.to_json() == action_json(a) == {"kind": "play", "card": 3}
    assert a.declared() == Play(3) and TABLE.code(Play(3)) == 2
    assert TABLE[5].to_json() == {"kind": "pass"}
    assert TABLE[2] is TABLE.actions[2] is Act.of(2)  # one shared instance per code


def test_stored_forms_read_back_as_the_shared_instances() -> None:
    a = TABLE[4]
    assert Decoder((__name__,)).decode(json.loads(json.dumps(encode(a)))) is a
    again = pickle.loads(pickle.dumps(a))
    assert again == a and str(again) == "play 5" and type(again) is Act


def test_an_unknown_code_is_refused_naming_the_range() -> None:
    with pytest.raises(RecordError, match=r"no action with code 6 \(codes 0..5\)"):
        Act.of(6)
    with pytest.raises(KeyError, match="is not a declared action"):
        TABLE.code(Play(9))


def test_an_ambiguous_table_is_refused() -> None:
    class Twice(CodedAction):
        __slots__ = ()

    with pytest.raises(ValueError, match="declared twice"):
        ActionTable(Twice, [Play(1), Play(1)])
    with pytest.raises(ValueError, match="not declared together"):
        ActionTable(Twice, [Play(1), Pass(), Play(2)])

    @dataclass(frozen=True)
    class Other:
        def __str__(self) -> str:
            return "pass"

    with pytest.raises(ValueError, match="same text 'pass'"):
        ActionTable(Twice, [Pass(), Other()])
