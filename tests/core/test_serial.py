"""Records in stored states and pickles: a dataclass, or a plain class that names its
constructor's fields in ``__match_args__`` (the compiled build's native records)."""

from __future__ import annotations

import json
import pickle
from array import array
from dataclasses import dataclass
from typing import ClassVar, Final

import pytest

from cove.core.errors import RecordError
from cove.core.serial import Decoder, encode, pickle_by_fields, record_fields


@dataclass(frozen=True)
class Shelf:
    row: int
    label: str = ""


class PlainShelf:
    """The same fields as ``Shelf``, as a plain class."""

    __match_args__ = ("row", "label")
    made: ClassVar[int] = 0

    def __init__(self, row: int, label: str = "") -> None:
        self.row: Final = row
        self.label: Final = label
        PlainShelf.made += 1

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, PlainShelf) and other.row == self.row
                and other.label == self.label)

    def __hash__(self) -> int:
        return hash((self.row, self.label))


pickle_by_fields(PlainShelf)
DECODER = Decoder((__name__,))


def test_a_plain_record_is_stored_like_a_dataclass_with_the_same_fields() -> None:
    plain = encode(PlainShelf(3, "top"))
    assert plain["v"] == encode(Shelf(3, "top"))["v"] == {"row": 3, "label": "top"}
    back = DECODER.decode(json.loads(json.dumps(plain)))
    assert type(back) is PlainShelf and back == PlainShelf(3, "top")
    assert record_fields(PlainShelf) == record_fields(Shelf) == ("row", "label")
    assert record_fields(int) is None


@pytest.mark.parametrize("fields", [{"row": 3}, {"row": 3, "label": "a", "colour": 1}])
def test_a_stored_plain_record_with_other_fields_is_refused(fields: dict[str, object]) -> None:
    data = {"c": f"{__name__}:PlainShelf", "v": fields}
    with pytest.raises(RecordError, match=r"expected \['label', 'row'\]"):
        DECODER.decode(data)


def test_a_plain_record_pickles_as_a_call_with_its_fields() -> None:
    before = PlainShelf.made
    shelf = PlainShelf(5, "low")
    back = pickle.loads(pickle.dumps(shelf))
    assert back == shelf
    assert PlainShelf.made == before + 2  # made once here and once by the unpickling


def test_bytes_and_bytearrays_are_stored_as_hex_and_come_back_as_the_same_type() -> None:
    for value in (b"\x00\x01\xff", bytearray(b"\x01\x00\x01"), bytearray()):
        data = json.loads(json.dumps(encode(value)))
        assert data == {"y" if type(value) is bytes else "ya": value.hex()}
        back = DECODER.decode(data)
        assert type(back) is type(value) and back == value


@pytest.mark.parametrize("data", [{"y": "0g"}, {"ya": 3}, {"y": "012"}])
def test_stored_bytes_that_are_not_hex_digits_are_refused(data: dict[str, object]) -> None:
    with pytest.raises(RecordError, match="hex digits"):
        DECODER.decode(data)


def test_arrays_are_stored_with_their_typecode() -> None:
    value = array("L", [0, 1, 1 << 25])
    data = json.loads(json.dumps(encode(value)))
    assert data == {"a": ["L", [0, 1, 1 << 25]]}
    back = DECODER.decode(data)
    assert type(back) is array and back.typecode == "L" and back == value


@pytest.mark.parametrize("data", [{"a": ["d", [1]]}, {"a": ["L", [1.5]]}, {"a": ["B", [256]]},
                                  {"a": ["L"]}])
def test_stored_arrays_of_other_kinds_or_numbers_are_refused(data: dict[str, object]) -> None:
    with pytest.raises(RecordError, match="stored array"):
        DECODER.decode(data)
