"""High Water's data file (``high_water.toml``: dice, crew cards, quests, setup): its schema,
read by the core's typed loader, and the tables the rules use, built from it. (An effect's
``if`` is taken out before the typed reading, since a Python keyword cannot name a schema
field, and read as a flag by hand.)

Everything the fragment leaves open is DESIGN and lives in the file, so a designer can
change it without touching rules code (option ``data_file`` plays another file). The core
checks every type, bound and allowed value of the schema below, and refuses a missing or
unknown field, naming the file, the entry (``crew[6].copies``) and the problem. :func:`load`
checks by hand only what relates entries to each other (icons and flags name colours, names
are unique, the totals in ``[counts]``, the starting quest, the effect kinds a passive card
may have) and reads the file's two small languages, icons (``"r 4+"``) and tasks
(``"pay 2g"``); its errors name the file, the card and the field.

Dice are plain ints: ``colour * 10 + face`` (faces 1..9), labelled ``"y3"``, ``"bl6"``...
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cove.core import DataChecker, FileCache, entry, load_typed

DEFAULT_PATH = Path(__file__).with_name("high_water.toml")

BASE_FLAGS = ("won_trick", "last_crate", "bought_crew", "bought_quest", "used_active")
WON_TRICK, LAST_CRATE, BOUGHT_CREW, BOUGHT_QUEST, USED_ACTIVE = range(5)

PASSIVE_KINDS = ("gain", "sabotage", "remove_marker")
ACTIVE_KINDS = ("gain", "sabotage", "remove_marker", "reroll", "cycle_market", "set_face")
DICE_KINDS = ("gain", "sabotage", "remove_marker", "reroll")


# -- the file's schema ------------------------------------------------------------------------
@dataclass(frozen=True)
class CountsEntry:
    """``[counts]``: the totals the file must add up to (the rulebook's component counts)."""

    dice: int = entry(minimum=1, maximum=999, help="dice in the game: the colours' counts")
    crew: int = entry(minimum=0, maximum=999, help="crew cards: the designs' copies")
    quests: int = entry(minimum=0, maximum=999, help="quests, the starting quest not counted")


@dataclass(frozen=True)
class DiceEntry:
    faces: int = entry(minimum=2, maximum=9, help="faces of every die, 1..faces")


@dataclass(frozen=True)
class CardEffect:
    """A crew card's effect, and the flag it needs (``if``), if any."""

    kind: str = entry(choices=ACTIVE_KINDS, help="what the card does (a passive card: "
                      + ", ".join(PASSIVE_KINDS) + ")")
    condition: str | None = entry(key="if", default=None,
                                  help="a flag the effect needs this turn, such as won_trick")
    gold: int = entry(minimum=0, maximum=99, default=0, help="gain: gold")
    rum: int = entry(minimum=0, maximum=99, default=0, help="gain: rum")
    target: str = entry(choices=("any", "leader"), default="any",
                        help="sabotage: any opponent's quest or the influence leader's")
    min: int = entry(minimum=1, maximum=99, default=1, help="reroll: fewest dice")
    max: int = entry(minimum=0, maximum=99, default=0, help="reroll: most (0 = any number)")


@dataclass(frozen=True)
class DieAction(CardEffect):
    """A colour's die action: an effect of the kinds a die can have, which may gain by the
    die's face (a re-roll takes the player's other dice)."""

    kind: str = entry(choices=DICE_KINDS, help="what spending the die does")
    resource: str = entry(choices=("gold", "rum"), default="", help="gain by face: what")
    by_face: tuple[int, ...] = entry(minimum=0, min_items=1, default=(),
                                     help="gain by face: the amount for face 1, 2, ...")


@dataclass(frozen=True)
class ColourEntry:
    """``[[colours]]``: one colour of dice."""

    action: DieAction  # what spending a die of this colour does
    id: str = entry(help="the label's letters (\"y\" in \"y3\"); not \"any\"")
    name: str = entry(help="the colour's name, as in the flag used_<name>")
    count: int = entry(minimum=0, maximum=99, help="dice of this colour")
    fill: str = entry(help="how the web board paints its dice: \"#rrggbb\"")
    ansi: str = entry(help="its colour on a terminal: an SGR code such as \"33\"")


@dataclass(frozen=True)
class SetupEntry:
    trick_cards: tuple[int, ...] = entry(min_items=3, help="each player's trick cards")
    gold: int = entry(minimum=0, maximum=99, help="each player's starting gold")
    rum: int = entry(minimum=0, maximum=99, help="each player's starting rum")
    starting_quest: str = entry(help="the quest every player starts with (starting = true)")
    crew_row: int = entry(minimum=1, maximum=10, help="face-up crew cards")
    quest_row: int = entry(minimum=1, maximum=10, help="face-up quests")


@dataclass(frozen=True)
class SabotageEntry:
    max_per_quest: int = entry(minimum=1, maximum=9, help="most markers on one quest")
    extra_removal_gold: int = entry(minimum=0, maximum=99,
                                    help="Step 6: the price of removing one more marker")


@dataclass(frozen=True)
class PayEntry:
    gold: int = entry(minimum=0, maximum=99, default=0, help="gold paid to activate")
    rum: int = entry(minimum=0, maximum=99, default=0, help="rum paid to activate")


@dataclass(frozen=True)
class CrewEntry:
    """``[[crew]]``: one crew card design."""

    effect: CardEffect  # what it does
    name: str = entry(help="the card's name, unique among all cards")
    copies: int = entry(minimum=1, maximum=20, help="copies in the crew deck")
    type: str = entry(choices=("passive", "active"), help="passive (Step 1) or active (Step 2)")
    cost: tuple[str, ...] = entry(min_items=1, help="dice icons to buy it: \"y\", \"r 4+\"")
    pay: PayEntry | None = None  # an active card: what using it costs


@dataclass(frozen=True)
class QuestEntry:
    """``[[quests]]``: one quest card."""

    name: str = entry(help="the card's name, unique among all cards")
    cost: tuple[str, ...] = entry(help="dice icons to buy it (none only for the starting quest)")
    tasks: tuple[str, ...] = entry(min_items=1, help="\"pay 2g\", \"pay r 4+ die\", \"did <flag>\"")
    influence: int = entry(minimum=0, maximum=99, help="influence once completed")
    starting: bool = entry(default=False, help="the quest every player starts with")


@dataclass(frozen=True)
class HighWaterFile:
    """The whole data file."""

    counts: CountsEntry
    dice: DiceEntry
    setup: SetupEntry
    sabotage: SabotageEntry
    crew: tuple[CrewEntry, ...]
    quests: tuple[QuestEntry, ...]
    colours: tuple[ColourEntry, ...] = entry(min_items=1, help="the dice colours")


# -- the tables the rules use -----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Effect:
    """What a passive, an active or a die action does."""

    kind: str
    gold: int = 0
    rum: int = 0
    needs_flag: int = -1  # the flag (its index) the effect needs this turn, -1 = none
    resource: str = ""  # gain by face: "gold" or "rum"
    by_face: tuple[int, ...] = ()  # gain by face: amount for face 1, 2, ...
    target: str = "any"  # sabotage: "any" opponent quest or the "leader"'s
    fewest: int = 1  # reroll: fewest dice
    most: int = 0  # reroll: most dice (0 = any number)


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


# -- reading the file -------------------------------------------------------------------------
def load(path: str | Path = DEFAULT_PATH) -> HWData:
    """Load and check a High Water data file; a DataError names the file, the entry and the
    problem."""
    p = Path(path)
    return _build(load_typed(HighWaterFile, p), p)


_FILL = re.compile(r"#[0-9a-fA-F]{6}")
_ANSI = re.compile(r"\d{1,3}(?:;\d{1,3}){0,4}")
_ICON = re.compile(r"^\s*([a-z]+)\s*(?:(\d)\s*\+|=\s*(\d))?\s*$")
_PAY = re.compile(r"^pay\s+(\d+)\s*([gr])$")
_PAY_DIE = re.compile(r"^pay\s+(.+?)\s+die$")
_DID = re.compile(r"^did\s+([a-z_]+)$")


class _Reader:
    """The checks that relate entries to each other: icons name colours and pips within the
    faces, conditions and tasks name flags (which name the colours), card names are unique."""

    def __init__(self, path: Path, ids: list[str], names: list[str], faces: int) -> None:
        self.ck = DataChecker(path)
        self.ids = ids
        self.faces = faces
        self.flags = BASE_FLAGS + tuple(f"used_{n}" for n in names)
        self.codes = tuple(ci * 10 + f for ci in range(len(ids)) for f in range(1, faces + 1))
        self.seen: set[str] = set()  # the card names so far, in lower case

    def card_name(self, name: str, entry: str) -> str:
        """``name`` stripped; it must be new among all cards (crew and quests)."""
        name = name.strip()
        self.ck.expect(bool(name) and name.lower() not in self.seen, entry,
                       f"field 'name' {name!r} must be non-empty and unique among all cards")
        self.seen.add(name.lower())
        return name

    def icon(self, text: str, entry: str, fld: str) -> Icon:
        m = _ICON.match(text.lower())
        if m is None:
            raise self.ck.fail(entry, f"field {fld!r}: icon {text!r} is not '<colour>', "
                               "'<colour> n+' or '<colour> =n'")
        col, plus, eq = m.group(1), m.group(2), m.group(3)
        if col != "any" and col not in self.ids:
            raise self.ck.fail(entry, f"field {fld!r}: icon {text!r} names unknown colour "
                               f"{col!r}; colours: any, {', '.join(self.ids)}")
        pip = int(plus or eq or 1)
        if not 1 <= pip <= self.faces:
            raise self.ck.fail(entry, f"field {fld!r}: icon {text!r} needs pips from 1 to "
                               f"{self.faces}")
        ok = frozenset(
            code for code in self.codes
            if (col == "any" or self.ids[code // 10] == col)
            and (code % 10 >= pip if eq is None else code % 10 == pip)
        )
        cond = f" {plus}+" if plus else (f" ={eq}" if eq else "")
        return Icon(("Any" if col == "any" else col.capitalize()) + cond, ok)

    def cost(self, icons: tuple[str, ...], entry: str) -> tuple[Icon, ...]:
        return tuple(self.icon(x, entry, "cost") for x in icons)

    def flag(self, name: Any, entry: str, fld: str) -> int:
        if not isinstance(name, str) or name.lower() not in self.flags:
            shown = repr(name) if isinstance(name, str | int) else "a " + type(name).__name__
            raise self.ck.fail(entry, f"field {fld!r}: unknown flag {shown}; flags: "
                               f"{', '.join(self.flags)}")
        return self.flags.index(name.lower())

    def effect(self, e: CardEffect, condition: Any, entry: str, fld: str) -> Effect:
        """A card's effect or (``fld`` "action") a die colour's action, with the flag
        ``condition`` (its ``if``, or None) it needs."""
        needs = -1 if condition is None else self.flag(condition, entry, f"{fld}.if")
        if e.kind == "gain":
            if isinstance(e, DieAction) and e.by_face:
                self.ck.expect(e.resource in ("gold", "rum"), entry,
                               f"field '{fld}.resource' must be gold or rum")
                self.ck.expect(len(e.by_face) == self.faces, entry,
                               f"field '{fld}.by_face' must list {self.faces} amounts")
                return Effect(e.kind, needs_flag=needs, resource=e.resource,
                              by_face=e.by_face)
            self.ck.expect(e.gold + e.rum > 0, entry,
                           f"field {fld!r}: a gain needs gold or rum above 0")
            return Effect(e.kind, gold=e.gold, rum=e.rum, needs_flag=needs)
        if e.kind == "sabotage":
            return Effect(e.kind, needs_flag=needs, target=e.target)
        if e.kind == "reroll":
            self.ck.expect(not e.max or e.max >= e.min, entry,
                           f"field '{fld}.max' must be 0 (any) or at least '{fld}.min'")
            return Effect(e.kind, needs_flag=needs, fewest=e.min, most=e.max)
        return Effect(e.kind, needs_flag=needs)

    def task(self, text: str, done: list[Task], entry: str, fld: str) -> Task:
        s = " ".join(text.lower().split())
        if m := _PAY.match(s):
            n = int(m.group(1))
            self.ck.expect(n >= 1, entry, f"field {fld!r}: pay at least 1")
            return Task(s, gold=n if m.group(2) == "g" else 0, rum=n if m.group(2) == "r" else 0)
        if m := _PAY_DIE.match(s):
            ic = self.icon(m.group(1), entry, fld)
            return Task(f"pay {ic.text} die", die=ic)
        if m := _DID.match(s):
            f = self.flag(m.group(1), entry, fld)
            # notes §4.6: one flag must not finish two tasks of the same quest
            self.ck.expect(all(tk.flag != f for tk in done), entry,
                           f"field {fld!r}: 'did {self.flags[f]}' appears twice on this quest")
            return Task(s, flag=f)
        raise self.ck.fail(entry, f"field {fld!r}: {text!r} is not 'pay <n>g', 'pay <n>r', "
                           "'pay <icon> die' or 'did <flag>'")


def _build(data: HighWaterFile, path: Path) -> HWData:
    """The tables the rules use, from the loaded file: cards numbered crew first, then
    quests, in file order; the decks hold one card id per physical card."""
    ck = DataChecker(path)
    ids: list[str] = []
    names: list[str] = []
    for i, c in enumerate(data.colours):
        entry = f"colour #{i + 1}"
        cid = c.id.strip().lower()
        ck.expect(bool(re.fullmatch(r"[a-z]+", cid)) and cid != "any", entry,
                  f"field 'id' must be letters other than 'any', got {cid!r}")
        ck.expect(cid not in ids, entry, f"field 'id': {cid!r} is used twice")
        name = c.name.strip().lower()
        ck.expect(bool(re.fullmatch(r"[a-z]+", name)) and name not in names, f"colour {cid!r}",
                  f"field 'name' must be unique letters, got {name!r}")
        ids.append(cid)
        names.append(name)
    faces = data.dice.faces
    r = _Reader(path, ids, names, faces)

    colours: list[Colour] = []
    for i, c in enumerate(data.colours):
        entry = f"colour {ids[i]!r}"
        act = r.effect(c.action, c.action.condition, entry, "action")
        fill = c.fill.strip()
        ck.expect(bool(_FILL.fullmatch(fill)), entry,
                  f"field 'fill' must be a colour like \"#f2c500\", got {fill!r}")
        ansi = c.ansi.strip()
        ck.expect(bool(_ANSI.fullmatch(ansi)), entry,
                  f"field 'ansi' must be a terminal colour code like \"33\" or "
                  f"\"38;5;130\", got {ansi!r}")
        colours.append(Colour(ids[i], names[i], c.count, act, len(BASE_FLAGS) + i, fill.lower(),
                              ansi, _describe(act, 0, 0, r.flags, die=True)))
    total = sum(c.count for c in colours)
    ck.expect(total == data.counts.dice, "[[colours]]",
              f"the colour counts add up to {total} dice but [counts] dice = {data.counts.dice}")

    setup = data.setup
    tc = setup.trick_cards
    ck.expect(len(set(tc)) == len(tc), "[setup]",
              "field 'trick_cards' lists a card twice")

    cards: list[Card] = []
    crew_deck: list[int] = []
    quest_deck: list[int] = []
    for i, t in enumerate(data.crew):
        name = r.card_name(t.name, f"crew #{i + 1}")
        entry = f"crew {name!r}"
        if t.type == "active":
            ck.expect(t.pay is not None, entry, "missing field 'pay'")
        else:
            ck.expect(t.pay is None, entry, "field 'pay': a passive card has no activation cost")
            ck.expect(t.effect.kind in PASSIVE_KINDS, entry, f"field 'effect.kind' "
                      f"{t.effect.kind!r} is not one of {', '.join(PASSIVE_KINDS)}")
        cost = r.cost(t.cost, entry)
        eff = r.effect(t.effect, t.effect.condition, entry, "effect")
        pay_gold, pay_rum = (t.pay.gold, t.pay.rum) if t.pay is not None else (0, 0)
        num = len(cards)
        cards.append(Card(num, name, name.lower(), t.type, cost, pay_gold, pay_rum, eff, (),
                          0, _describe(eff, pay_gold, pay_rum, r.flags), _order(cost)))
        crew_deck.extend([num] * t.copies)

    start_id = -1
    for i, q in enumerate(data.quests):
        name = r.card_name(q.name, f"quest #{i + 1}")
        entry = f"quest {name!r}"
        ck.expect(bool(q.cost) or q.starting, entry, "field 'cost' needs at least one dice icon")
        cost = r.cost(q.cost, entry)
        tasks: list[Task] = []
        for k, text in enumerate(q.tasks):
            tasks.append(r.task(text, tasks, entry, f"tasks[{k + 1}]"))
        num = len(cards)
        text = " · ".join(tk.text for tk in tasks) + f" → {q.influence} influence"
        cards.append(Card(num, name, name.lower(), "quest", cost, 0, 0, None, tuple(tasks),
                          q.influence, text, _order(cost)))
        if q.starting:
            ck.expect(name == setup.starting_quest, entry, f"field 'starting': only the setup's "
                      f"starting_quest {setup.starting_quest!r} may be")
            start_id = num
        else:
            quest_deck.append(num)
    ck.expect(start_id >= 0, "[setup]", f"field 'starting_quest': no quest "
              f"{setup.starting_quest!r} marked starting = true")
    for what, n, want in (("crew", len(crew_deck), data.counts.crew),
                          ("quests", len(quest_deck), data.counts.quests)):
        ck.expect(n == want, f"[[{what}]]", f"the file has {n} {what} cards but [counts] "
                  f"{what} = {want}")
    return HWData(
        path=str(path), faces=faces, colours=tuple(colours), flags=r.flags,
        label={code: ids[code // 10] + str(code % 10) for code in r.codes}, codes=r.codes,
        cards=tuple(cards), crew_deck=tuple(crew_deck), quest_deck=tuple(quest_deck),
        starting_quest=start_id, trick_cards=tuple(sorted(tc)), gold=setup.gold,
        rum=setup.rum, crew_row=setup.crew_row, quest_row=setup.quest_row,
        max_markers=data.sabotage.max_per_quest,
        extra_removal_gold=data.sabotage.extra_removal_gold, total_dice=total,
    )


def _order(cost: tuple[Icon, ...]) -> tuple[Icon, ...]:
    return tuple(sorted(cost, key=lambda ic: len(ic.accepts)))


def _describe(e: Effect, pay_gold: int, pay_rum: int, flags: tuple[str, ...],
              die: bool = False) -> str:
    """A card's effect in words, or (``die``) a die colour's action, where a gain goes by
    the face and a re-roll takes the player's other dice."""
    parts = []
    if pay_gold or pay_rum:
        pay = " and ".join(x for x in (f"{pay_gold} gold" if pay_gold else "",
                                       f"{pay_rum} rum" if pay_rum else "") if x)
        parts.append(f"pay {pay}:")
    if e.needs_flag >= 0:
        parts.append(f"if {flags[e.needs_flag].replace('_', ' ')},")
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
        n = ("any number of" if not e.most
             else f"{e.fewest}-{e.most}" if e.most != e.fewest else str(e.fewest))
        parts.append(f"re-roll {n} of your other dice" if die else f"re-roll {n} dice")
    elif e.kind == "cycle_market":
        parts.append("cycle a market card")
    elif e.kind == "set_face":
        parts.append("set a die to any face")
    return " ".join(parts)


_FILES = FileCache(load)


def get(path: str = "") -> HWData:
    """The data for a path ('' = the built-in file), loaded once per content."""
    return _FILES.get(path or DEFAULT_PATH)


DATA = get()
