"""R11.4: the action codes, their texts and JSON forms are stored forms (records, golden
files and the web boards read them), so the table generated from the action values must
give every code exactly the text and JSON form of the hand-written table it replaced,
which is kept here as it was."""

from __future__ import annotations

from typing import Any

import pytest

import cove
from cove.core.actions import action_json
from cove.games.tricky_tides import actions
from cove.games.tricky_tides.actions import ACT, TABLE, Act
from cove.games.tricky_tides.data import DATA, GOODS_TYPES, NAV_CARDS, NONGOLD, VALUES
from cove.games.tricky_tides.geometry import CELL_NAMES, HEADINGS

SEATS = 4
PAIRS = [(a, b) for a in range(GOODS_TYPES) for b in range(a + 1, GOODS_TYPES)]


def _plural(name: str) -> str:
    return name + ("es" if name.endswith("s") else "s")


def _old_texts() -> list[str]:
    """The text of every code as the hand-written table had it."""
    g, suits = DATA.goods, DATA.suits
    cards = [f"{c % VALUES + 1} "
             f"{suits[c // VALUES] if c % VALUES == 0 else _plural(suits[c // VALUES])}"
             for c in range(NAV_CARDS)]
    return ([f"play {t}" for t in cards]
            + [f"sail {h}" for h in HEADINGS]
            + ["drop anchor", "stop at sea", "sail on"]
            + [f"pick up {x}" for x in g]
            + ["deliver", "pass"]
            + [f"overboard {x}" for x in g]
            + [f"start {c}" for c in CELL_NAMES]
            + ["stay docked"]
            + [f"pick up {g[a]} and {g[b]}" for a, b in PAIRS]
            + [f"deliver and pay 1 {g[t]}" for t in NONGOLD]
            + [f"{m}: {w} first" for m in suits for w in ("move", "ability")]
            + [f"move the {m} to {c}" for m in suits for c in CELL_NAMES]
            + [f"shark takes {g[t]} from p{q + 1}" for q in range(SEATS) for t in NONGOLD]
            + [f"shark eats the {g[t]}" for t in NONGOLD]
            + [f"octopus moves {g[t]} to {c}" for t in NONGOLD for c in CELL_NAMES]
            + [f"octopus grabs {g[t]} from p{q + 1}" for q in range(SEATS) for t in NONGOLD]
            + [f"sea dragon swaps orders with {c}" for c in CELL_NAMES]
            + [f"whale spouts {h}" for h in HEADINGS]
            + [f"first leader p{q + 1}" for q in range(SEATS)])


def _old_forms() -> list[dict[str, Any]]:
    """The JSON form of every code as the hand-written table had it."""
    g, suits, cells, heads = DATA.goods, DATA.suits, CELL_NAMES, HEADINGS
    out: list[dict[str, Any]] = []
    out += [{"kind": "play", "suit": suits[c // VALUES], "value": c % VALUES + 1}
            for c in range(NAV_CARDS)]
    out += [{"kind": "sail", "heading": h} for h in heads]
    out += [{"kind": "drop_anchor"}, {"kind": "stop_at_sea"}, {"kind": "sail_on"}]
    out += [{"kind": "pick_up", "goods": [x]} for x in g]
    out += [{"kind": "deliver"}, {"kind": "pass"}]
    out += [{"kind": "overboard", "goods": x} for x in g]
    out += [{"kind": "start", "cell": c} for c in cells]
    out += [{"kind": "stay_docked"}]
    out += [{"kind": "pick_up", "goods": [g[a], g[b]]} for a, b in PAIRS]
    out += [{"kind": "deliver", "tax": g[t]} for t in NONGOLD]
    out += [{"kind": "monster_order", "monster": m, "first": w}
            for m in suits for w in ("move", "ability")]
    out += [{"kind": "move_monster", "monster": m, "cell": c} for m in suits for c in cells]
    out += [{"kind": "shark_takes", "goods": g[t], "player": q}
            for q in range(SEATS) for t in NONGOLD]
    out += [{"kind": "shark_eats", "goods": g[t]} for t in NONGOLD]
    out += [{"kind": "octopus_moves", "goods": g[t], "cell": c}
            for t in NONGOLD for c in cells]
    out += [{"kind": "octopus_grabs", "goods": g[t], "player": q}
            for q in range(SEATS) for t in NONGOLD]
    out += [{"kind": "dragon_swaps", "cell": c} for c in cells]
    out += [{"kind": "whale_spouts", "heading": h} for h in heads]
    out += [{"kind": "first_leader", "player": q} for q in range(SEATS)]
    return out


def test_r11_4_every_code_keeps_its_text_and_json_form() -> None:
    texts, forms = _old_texts(), _old_forms()
    assert len(ACT) == len(TABLE) == len(texts) == len(forms) == 246
    for code, (text, form) in enumerate(zip(texts, forms, strict=True)):
        a = ACT[code]
        assert type(a) is Act and int(a) == code and Act.of(code) is a
        assert str(a) == text == str(a.declared()), code
        got = a.to_json()
        assert got == form == action_json(a.declared()), code
        assert list(got) == list(form), code              # the keys in the same order
        assert TABLE.code(a.declared()) == code
        assert repr(a) == f"Act({text!r})"


def test_r11_4_code_ranges_are_unchanged() -> None:
    """The rules compute a code as its kind's start plus an index: the starts stay where
    the hand-written table put them."""
    want = {"PLAY": 0, "SAIL": 32, "ANCHOR": 40, "STOP": 41, "ONWARD": 42, "PICK": 43,
            "DELIVER": 48, "PASS": 49, "DROP": 50, "START": 55, "STAY": 67, "PICK2": 68,
            "TAX_DELIVER": 78, "M_ORDER": 82, "M_MOVE": 90, "SHARK_TAKE": 138,
            "SHARK_EAT": 154, "OCTO_MOVE": 158, "OCTO_GRAB": 206, "DRAGON_SWAP": 222,
            "WHALE_SPOUT": 234, "FIRST_LEADER": 242, "END": 246}
    assert {name: getattr(actions, name) for name in want} == want


def test_r11_4_codes_outside_the_table_are_refused() -> None:
    for code in (-1, 246, 999):
        with pytest.raises(cove.RecordError, match=f"no action with code {code}"):
            Act.of(code)
