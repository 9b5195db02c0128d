"""Loading and validating High Water's data file (dice, crew cards, quests, setup).

Everything the fragment leaves open is DESIGN and lives in ``high_water.toml`` so a designer
can change it without touching rules code. :func:`load` turns the file into frozen tables
and raises :class:`cove.DataError` naming the file, the card and the field on any problem.

Dice are plain ints: ``colour * 10 + face`` (faces 1..9), labelled ``"y3"``, ``"bl6"``...
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cove.core.data import DataChecker, load_data

DEFAULT_PATH = Path(__file__).with_name("high_water.toml")

BASE_FLAGS = ("won_trick", "last_crate", "bought_crew", "bought_quest", "used_active")
WON_TRICK, LAST_CRATE, BOUGHT_CREW, BOUGHT_QUEST, USED_ACTIVE = range(5)

PASSIVE_KINDS = ("gain", "sabotage", "remove_marker")
ACTIVE_KINDS = ("gain", "sabotage", "remove_marker", "reroll", "cycle_market", "set_face")
DICE_KINDS = ("gain", "sabotage", "remove_marker", "reroll")


@dataclass(frozen=True, slots=True)
class Effect:
    """What a passive, an active or a die action does."""

    kind: str
    gold: int = 0
    rum: int = 0
    cond: int = -1  # flag index the effect needs, -1 = none
    resource: str = ""  # gain by face: "gold" or "rum"
    by_face: tuple[int, ...] = ()  # gain by face: amount for face 1, 2, ...
    target: str = "any"  # sabotage: "any" opponent quest or the "leader"'s
    lo: int = 1  # reroll: fewest dice
    hi: int = 0  # reroll: most dice (0 = any number)


@dataclass(frozen=True, slots=True)
class Icon:
    """One dice icon of a cost: a colour (or any) with an optional pip condition."""

    text: str
    accepts: frozenset[int]  # the die codes that satisfy it


@dataclass(frozen=True, slots=True)
class Task:
    text: str
    gold: int = 0
    rum: int = 0
    die: Icon | None = None
    flag: int = -1


@dataclass(frozen=True, slots=True)
class Card:
    id: int
    name: str
    key: str  # lower-case name used in action texts
    kind: str  # "passive", "active" or "quest"
    cost: tuple[Icon, ...]
    pay_gold: int
    pay_rum: int
    effect: Effect | None
    tasks: tuple[Task, ...]
    influence: int
    text: str  # generated description
    match_order: tuple[Icon, ...] = ()  # the cost, most restrictive icon first


@dataclass(frozen=True, slots=True)
class Colour:
    id: str
    name: str
    count: int
    action: Effect
    flag: int  # index of used_<name>
    fill: str  # how a die of this colour is painted on the web board: "#rrggbb"
    ansi: str  # its colour on a terminal: an SGR code such as "33" or "38;5;130"
    text: str  # generated description of the action


@dataclass(frozen=True, slots=True)
class HWData:
    path: str
    faces: int
    colours: tuple[Colour, ...]
    flags: tuple[str, ...]
    label: dict[int, str]  # die code -> "y3"
    codes: tuple[int, ...]  # every die code
    cards: tuple[Card, ...]
    crew_deck: tuple[int, ...]  # card ids, one per physical card
    quest_deck: tuple[int, ...]
    starting_quest: int
    trick_cards: tuple[int, ...]
    gold: int
    rum: int
    crew_row: int
    quest_row: int
    max_markers: int
    extra_removal_gold: int
    total_dice: int


_FILL = re.compile(r"#[0-9a-fA-F]{6}")
_ANSI = re.compile(r"\d{1,3}(?:;\d{1,3}){0,4}")
_ICON = re.compile(r"^\s*([a-z]+)\s*(?:(\d)\s*\+|=\s*(\d))?\s*$")
_PAY = re.compile(r"^pay\s+(\d+)\s*([gr])$")
_PAY_DIE = re.compile(r"^pay\s+(.+?)\s+die$")
_DID = re.compile(r"^did\s+([a-z_]+)$")


class _Loader:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.ck = DataChecker(path)

    def fail(self, entry: str, problem: str) -> Exception:
        return self.ck.fail(entry, problem)

    def int_field(self, t: dict[str, Any], key: str, entry: str, lo: int, hi: int = 10**6,
                  default: int | None = None) -> int:
        if key not in t and default is not None:
            return default
        v: int = self.ck.field(t, key, int, entry)
        if not lo <= v <= hi:
            raise self.fail(entry, f"field {key!r} must be from {lo} to {hi}, got {v}")
        return v

    def table(self, t: dict[str, Any], key: str, entry: str) -> dict[str, Any]:
        v: dict[str, Any] = self.ck.field(t, key, dict, entry)
        return v

    def tables(self, t: dict[str, Any], key: str, entry: str) -> list[dict[str, Any]]:
        v = self.ck.field(t, key, list, entry)
        for i, x in enumerate(v):
            if not isinstance(x, dict):
                raise self.fail(f"{key} #{i + 1}", "must be a table")
        return v  # type: ignore[no-any-return]


def load(path: str | Path = DEFAULT_PATH) -> HWData:
    """Load and validate a High Water data file; DataError names file, entry and field."""
    p = Path(path)
    raw = load_data(p)
    L = _Loader(p)
    ck = L.ck

    counts = L.table(raw, "counts", "[counts]")
    dice = L.table(raw, "dice", "[dice]")
    faces = L.int_field(dice, "faces", "[dice]", 2, 9)

    # colours and their dice actions
    col_tables = L.tables(raw, "colours", "[[colours]]")
    ck.expect(len(col_tables) >= 1, "[[colours]]", "at least one colour is needed")
    ids: list[str] = []
    names: list[str] = []
    for i, c in enumerate(col_tables):
        entry = f"colour #{i + 1}"
        cid = ck.field(c, "id", str, entry).strip().lower()
        ck.expect(bool(re.fullmatch(r"[a-z]+", cid)) and cid != "any", entry,
                  f"field 'id' must be letters other than 'any', got {cid!r}")
        ck.expect(cid not in ids, entry, f"field 'id': {cid!r} is used twice")
        name = ck.field(c, "name", str, f"colour {cid!r}").strip().lower()
        ck.expect(bool(re.fullmatch(r"[a-z]+", name)) and name not in names, f"colour {cid!r}",
                  f"field 'name' must be unique letters, got {name!r}")
        ids.append(cid)
        names.append(name)
    flags = BASE_FLAGS + tuple(f"used_{n}" for n in names)
    codes = tuple(ci * 10 + f for ci in range(len(ids)) for f in range(1, faces + 1))
    label = {code: ids[code // 10] + str(code % 10) for code in codes}

    def icon(text: Any, entry: str, fld: str) -> Icon:
        if not isinstance(text, str):
            raise L.fail(entry, f"field {fld!r}: icon {text!r} must be text like 'y', 'r 4+'")
        m = _ICON.match(text.lower())
        if m is None:
            raise L.fail(entry, f"field {fld!r}: icon {text!r} is not '<colour>', "
                         "'<colour> n+' or '<colour> =n'")
        col, plus, eq = m.group(1), m.group(2), m.group(3)
        if col != "any" and col not in ids:
            raise L.fail(entry, f"field {fld!r}: icon {text!r} names unknown colour {col!r}; "
                         f"colours: any, {', '.join(ids)}")
        pip = int(plus or eq or 1)
        if not 1 <= pip <= faces:
            raise L.fail(entry, f"field {fld!r}: icon {text!r} needs pips from 1 to {faces}")
        ok = frozenset(
            code for code in codes
            if (col == "any" or ids[code // 10] == col)
            and (code % 10 >= pip if eq is None else code % 10 == pip)
        )
        cond = f" {plus}+" if plus else (f" ={eq}" if eq else "")
        return Icon(("Any" if col == "any" else col.capitalize()) + cond, ok)

    def flag(name: Any, entry: str, fld: str) -> int:
        if not isinstance(name, str) or name.lower() not in flags:
            raise L.fail(entry, f"field {fld!r}: unknown flag {name!r}; flags: {', '.join(flags)}")
        return flags.index(name.lower())

    def effect(t: Any, entry: str, allowed: tuple[str, ...], *, dice: bool = False) -> Effect:
        if not isinstance(t, dict):
            raise L.fail(entry, "field 'effect' must be a table like { kind = \"gain\", gold = 1 }")
        kind = t.get("kind")
        if kind not in allowed:
            raise L.fail(entry, f"field 'effect.kind' {kind!r} is not one of {', '.join(allowed)}")
        known = {"kind", "gold", "rum", "if", "resource", "by_face", "target", "min", "max"}
        extra = sorted(set(t) - known)
        if extra:
            raise L.fail(entry, f"field 'effect' has unknown keys {', '.join(extra)}")
        cond = flag(t["if"], entry, "effect.if") if "if" in t else -1
        if kind == "gain":
            if dice and "by_face" in t:
                res = t.get("resource")
                if res not in ("gold", "rum"):
                    raise L.fail(entry, f"field 'effect.resource' {res!r} must be gold or rum")
                bf = t["by_face"]
                if (not isinstance(bf, list) or len(bf) != faces
                        or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0
                                   for x in bf)):
                    raise L.fail(entry, f"field 'effect.by_face' must list {faces} amounts >= 0")
                return Effect(kind, cond=cond, resource=res, by_face=tuple(bf))
            g = L.int_field(t, "gold", entry + " effect", 0, 99, default=0)
            r = L.int_field(t, "rum", entry + " effect", 0, 99, default=0)
            if g + r == 0:
                raise L.fail(entry, "field 'effect': a gain needs gold or rum above 0")
            return Effect(kind, gold=g, rum=r, cond=cond)
        if kind == "sabotage":
            tgt = t.get("target", "any")
            if tgt not in ("any", "leader"):
                raise L.fail(entry, f"field 'effect.target' {tgt!r} must be any or leader")
            return Effect(kind, cond=cond, target=tgt)
        if kind == "reroll":
            lo = L.int_field(t, "min", entry + " effect", 1, 99, default=1)
            hi = L.int_field(t, "max", entry + " effect", 0, 99, default=0)
            if hi and hi < lo:
                raise L.fail(entry, "field 'effect.max' must be 0 (any) or at least 'min'")
            return Effect(kind, cond=cond, lo=lo, hi=hi)
        return Effect(kind, cond=cond)

    colours: list[Colour] = []
    for i, c in enumerate(col_tables):
        entry = f"colour {ids[i]!r}"
        n = L.int_field(c, "count", entry, 0, 99)
        act = effect(c.get("action"), entry, DICE_KINDS, dice=True)
        fill = ck.field(c, "fill", str, entry).strip()
        ck.expect(bool(_FILL.fullmatch(fill)), entry,
                  f"field 'fill' must be a colour like \"#f2c500\", got {fill!r}")
        ansi = ck.field(c, "ansi", str, entry).strip()
        ck.expect(bool(_ANSI.fullmatch(ansi)), entry,
                  f"field 'ansi' must be a terminal colour code like \"33\" or "
                  f"\"38;5;130\", got {ansi!r}")
        colours.append(Colour(ids[i], names[i], n, act, len(BASE_FLAGS) + i, fill.lower(),
                              ansi, _describe(act, 0, 0, flags, die=True)))
    total = sum(c.count for c in colours)
    want = L.int_field(counts, "dice", "[counts]", 1, 999)
    ck.expect(total == want, "[[colours]]",
              f"the colour counts add up to {total} dice but [counts] dice = {want}")

    # setup
    st = L.table(raw, "setup", "[setup]")
    tc = ck.field(st, "trick_cards", list, "[setup]")
    ck.expect(len(tc) >= 3 and all(isinstance(x, int) and not isinstance(x, bool) for x in tc)
              and len(set(tc)) == len(tc), "[setup]",
              "field 'trick_cards' must list at least 3 different whole numbers")
    gold = L.int_field(st, "gold", "[setup]", 0, 99)
    rum = L.int_field(st, "rum", "[setup]", 0, 99)
    crew_row = L.int_field(st, "crew_row", "[setup]", 1, 10)
    quest_row = L.int_field(st, "quest_row", "[setup]", 1, 10)
    start_name = ck.field(st, "starting_quest", str, "[setup]")
    sab = L.table(raw, "sabotage", "[sabotage]")
    max_markers = L.int_field(sab, "max_per_quest", "[sabotage]", 1, 9)
    extra_gold = L.int_field(sab, "extra_removal_gold", "[sabotage]", 0, 99)

    # cards
    cards: list[Card] = []
    crew_deck: list[int] = []
    quest_deck: list[int] = []
    seen: set[str] = set()
    start_id = -1

    def card_name(t: dict[str, Any], what: str, i: int) -> str:
        name: str = ck.field(t, "name", str, f"{what} #{i + 1}").strip()
        ck.expect(bool(name) and name.lower() not in seen, f"{what} #{i + 1}",
                  f"field 'name' {name!r} must be non-empty and unique among all cards")
        seen.add(name.lower())
        return name

    def costs(t: dict[str, Any], entry: str, allow_empty: bool) -> tuple[Icon, ...]:
        raw_cost = ck.field(t, "cost", list, entry)
        if not raw_cost and not allow_empty:
            raise L.fail(entry, "field 'cost' needs at least one dice icon")
        return tuple(icon(x, entry, "cost") for x in raw_cost)

    for i, t in enumerate(L.tables(raw, "crew", "[[crew]]")):
        name = card_name(t, "crew", i)
        entry = f"crew {name!r}"
        kind = ck.one_of(t.get("type"), ("passive", "active"), entry, "field 'type'")
        copies = L.int_field(t, "copies", entry, 1, 20)
        cost = costs(t, entry, False)
        pg = pr = 0
        if kind == "active":
            pay = L.table(t, "pay", entry)
            bad = sorted(set(pay) - {"gold", "rum"})
            ck.expect(not bad, entry, f"field 'pay' may hold only gold and rum, not {bad}")
            pg = L.int_field(pay, "gold", entry + " pay", 0, 99, default=0)
            pr = L.int_field(pay, "rum", entry + " pay", 0, 99, default=0)
        else:
            ck.expect("pay" not in t, entry, "field 'pay': a passive card has no activation cost")
        eff = effect(t.get("effect"), entry, PASSIVE_KINDS if kind == "passive" else ACTIVE_KINDS)
        cid = len(cards)
        text = _describe(eff, pg, pr, flags)
        cards.append(Card(cid, name, name.lower(), kind, cost, pg, pr, eff, (), 0, text,
                          _order(cost)))
        crew_deck.extend([cid] * copies)

    for i, t in enumerate(L.tables(raw, "quests", "[[quests]]")):
        name = card_name(t, "quest", i)
        entry = f"quest {name!r}"
        starting = t.get("starting", False)
        ck.expect(isinstance(starting, bool), entry, "field 'starting' must be true or false")
        cost = costs(t, entry, starting)
        infl = L.int_field(t, "influence", entry, 0, 99)
        raw_tasks = ck.field(t, "tasks", list, entry)
        ck.expect(len(raw_tasks) >= 1, entry, "field 'tasks' needs at least one task")
        tasks: list[Task] = []
        for k, tx in enumerate(raw_tasks):
            fld = f"tasks[{k + 1}]"
            if not isinstance(tx, str):
                raise L.fail(entry, f"field {fld!r} must be text like 'pay 2g'")
            s = " ".join(tx.lower().split())
            if m := _PAY.match(s):
                n = int(m.group(1))
                ck.expect(n >= 1, entry, f"field {fld!r}: pay at least 1")
                tasks.append(Task(s, gold=n if m.group(2) == "g" else 0,
                                  rum=n if m.group(2) == "r" else 0))
            elif m := _PAY_DIE.match(s):
                ic = icon(m.group(1), entry, fld)
                tasks.append(Task(f"pay {ic.text} die", die=ic))
            elif m := _DID.match(s):
                f = flag(m.group(1), entry, fld)
                # notes §4.6: one flag must not finish two tasks of the same quest
                ck.expect(all(tk.flag != f for tk in tasks), entry,
                          f"field {fld!r}: 'did {flags[f]}' appears twice on this quest")
                tasks.append(Task(s, flag=f))
            else:
                raise L.fail(entry, f"field {fld!r}: {tx!r} is not 'pay <n>g', 'pay <n>r', "
                             "'pay <icon> die' or 'did <flag>'")
        cid = len(cards)
        text = " · ".join(tk.text for tk in tasks) + f" → {infl} influence"
        cards.append(Card(cid, name, name.lower(), "quest", cost, 0, 0, None, tuple(tasks),
                          infl, text, _order(cost)))
        if starting:
            ck.expect(name == start_name, entry,
                      f"field 'starting': only the setup's starting_quest {start_name!r} may be")
            start_id = cid
        else:
            quest_deck.append(cid)
    ck.expect(start_id >= 0, "[setup]",
              f"field 'starting_quest': no quest {start_name!r} marked starting = true")
    for what, n in (("crew", len(crew_deck)), ("quests", len(quest_deck))):
        want = L.int_field(counts, what, "[counts]", 0, 999)
        ck.expect(n == want, f"[[{what}]]", f"the file has {n} {what} cards but [counts] "
                  f"{what} = {want}")
    return HWData(
        path=str(p), faces=faces, colours=tuple(colours), flags=flags, label=label,
        codes=codes, cards=tuple(cards), crew_deck=tuple(crew_deck),
        quest_deck=tuple(quest_deck), starting_quest=start_id, trick_cards=tuple(sorted(tc)),
        gold=gold, rum=rum, crew_row=crew_row, quest_row=quest_row, max_markers=max_markers,
        extra_removal_gold=extra_gold, total_dice=total,
    )


def _order(cost: tuple[Icon, ...]) -> tuple[Icon, ...]:
    return tuple(sorted(cost, key=lambda ic: len(ic.accepts)))


def _describe(e: Effect, pg: int, pr: int, flags: tuple[str, ...], die: bool = False) -> str:
    """A card's effect in words, or (``die``) a die colour's action, where a gain goes by
    the face and a re-roll takes the player's other dice."""
    parts = []
    if pg or pr:
        pay = " and ".join(x for x in (f"{pg} gold" if pg else "", f"{pr} rum" if pr else "") if x)
        parts.append(f"pay {pay}:")
    if e.cond >= 0:
        parts.append(f"if {flags[e.cond].replace('_', ' ')},")
    if e.kind == "gain" and e.by_face:
        runs: list[tuple[int, int, int]] = []  # (amount, first face, last face)
        for face, amount in enumerate(e.by_face, 1):
            if runs and runs[-1][0] == amount:
                runs[-1] = (amount, runs[-1][1], face)
            else:
                runs.append((amount, face, face))
        on = [f"{a} on {lo}-{hi}" if hi > lo else f"{a} on {lo}" for a, lo, hi in runs]
        on[0] = on[0].replace(" on ", f" {e.resource} on ", 1)
        parts.append("gain " + (", ".join(on) if len(runs) > 1
                                else f"{runs[0][0]} {e.resource}"))
    elif e.kind == "gain":
        got = " and ".join(x for x in (f"{e.gold} gold" if e.gold else "",
                                         f"{e.rum} rum" if e.rum else "") if x)
        parts.append(f"gain {got}")
    elif e.kind == "sabotage":
        who = "the influence leader's" if e.target == "leader" else "an opponent's"
        parts.append(f"sabotage {who} quest")
    elif e.kind == "remove_marker":
        parts.append("remove a sabotage marker from your quest")
    elif e.kind == "reroll":
        n = "any number of" if not e.hi else (f"{e.lo}-{e.hi}" if e.hi != e.lo else str(e.lo))
        parts.append(f"re-roll {n} of your other dice" if die else f"re-roll {n} dice")
    elif e.kind == "cycle_market":
        parts.append("cycle a market card")
    elif e.kind == "set_face":
        parts.append("set a die to any face")
    return " ".join(parts)


_CACHE: dict[str, HWData] = {}


def get(path: str = "") -> HWData:
    """The data for a path ('' = the built-in file), loaded once and cached."""
    key = path or str(DEFAULT_PATH)
    d = _CACHE.get(key)
    if d is None:
        d = _CACHE[key] = load(key)
    return d


DATA = get()
