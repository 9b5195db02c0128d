"""The table of a Tricky Tides game: its fields and the helpers every part of the rules
shares (the leaf below ``state``, ``events`` and ``monsters``, so they import it and not
each other: no import circle).

- chance helpers (a cube from the bag, the top order card, filling an island), each
  through the state's rng so the chance record holds every outcome;
- the geometry in force (:class:`~cove.games.tricky_tides.sailing.Geometry`) and the
  monsters' step tables;
- the step kinds of the decision stack, the phase each shows as, the shared sail and
  pick-up steps, and :class:`TidesRule` (the base of every step rule);
- the phase numbers and the constants of the rulebook.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from functools import cache
from itertools import permutations
from typing import TYPE_CHECKING, ClassVar, TypeVar

from cove.core.decisions import Step, StepRule
from cove.core.rng import Rng
from cove.core.state import State
from cove.games.tricky_tides.actions import Act
from cove.games.tricky_tides.data import DATA, GOODS_TYPES, NAV_CARDS, VALUES
from cove.games.tricky_tides.geometry import BOUNDED, CELL_NAMES, CELLS, WRAPPED, sea_runs
from cove.games.tricky_tides.module_state import Activation, Modules
from cove.games.tricky_tides.options import TidesOptions
from cove.games.tricky_tides.sailing import Geometry

if TYPE_CHECKING:
    from cove.games.tricky_tides.observe import Seen, Table

ROUNDS = 3              # [SEED]
HANDS = 6               # [SEED] 8 cards dealt, 6 played, 2 discarded
DEAL = 8                # [SEED]
HOLD_LIMIT = 7          # [SEED]

# phases: what kind of decision is pending (derived from the top step; see PHASE_OF)
PLACE, PLAY_CARD, SAIL_STEP, SEA_STEP, ACTION_STEP, OVERBOARD, OVER = range(7)
MONSTER = 7             # monsters are activated (monster module)
LEADER = 8              # option first_leader=ask: the table names the first leader
PHASE_NAMES = ("place ship", "play card", "sail", "open sea", "pick up or deliver",
               "overboard", "game over", "monster activation", "first leader")
SEATS = 4
OBS_SIZE = (2 * 32 + SEATS * 32 + SEATS * 12 + 12 + 12 + 12 * 5 + 12 * 10 + SEATS * 5
            + SEATS * (1 + 4 + 2) + 4 + ROUNDS + HANDS + len(PHASE_NAMES) + 3 * SEATS + 8
            + 1 + 5 + 4 * 12 + 12 + SEATS)
"""The length of ``observation(p)`` at every player count (see SPEC.md)."""


G = GOODS_TYPES
ALL_CARDS = (1 << NAV_CARDS) - 1
SUIT_MASK = tuple(((1 << VALUES) - 1) << (VALUES * s) for s in range(4))
CARD_HEADINGS = DATA.headings
ORDER_PAIRS = tuple(o.pairs for o in DATA.orders)
ORDER_GOLD = tuple(o.gold for o in DATA.orders)
ORDER_SUIT = tuple(o.monster for o in DATA.orders)
SELL = DATA.sell
ISLAND_GOODS = tuple(i.goods for i in DATA.islands)
ISLAND_COLOUR = tuple(i.colour for i in DATA.islands)
RG = range(G)
EVENT_INDEX = {e.key: i for i, e in enumerate(DATA.events)}

# -- the decision stack: step kinds and the shared step values ----------------------------
# A step's kind is the decision kind clients see (``decision(p)["kind"]``), except the
# monster steps, which all show as "monster". Steps are shared constants (one per kind and
# seat, the open-sea step also per heading), so pushing one allocates nothing.
K_PLACE, K_PLAY, K_SAIL, K_SEA = "place_ship", "play_card", "sail", "open_sea"
K_ACTION, K_OVERBOARD, K_LEADER = "pick_up_or_deliver", "overboard", "first_leader"
K_M_ORDER, K_M_MOVE, K_M_ABILITY = "monster_order", "monster_move", "monster_ability"
K_M_NEXT = "monster_next"
PHASE_OF = {K_PLACE: PLACE, K_PLAY: PLAY_CARD, K_SAIL: SAIL_STEP, K_SEA: SEA_STEP,
            K_ACTION: ACTION_STEP, K_OVERBOARD: OVERBOARD, K_LEADER: LEADER,
            K_M_ORDER: MONSTER, K_M_MOVE: MONSTER, K_M_ABILITY: MONSTER, K_M_NEXT: MONSTER}
"""The phase (view key ``phase``, observation one-hot) of each step kind."""

SAIL_STEPS = tuple(Step(K_SAIL, (p,)) for p in range(SEATS))
SAILING = {order: tuple(SAIL_STEPS[p] for p in reversed(order))
           for n in range(1, SEATS + 1) for order in permutations(range(n))}
"""The sail steps pushed for each sailing order (the first sailor's step on top)."""
ACTION_STEPS = tuple(Step(K_ACTION, (p,)) for p in range(SEATS))


T = TypeVar("T", bound="TidesTable")
X = TypeVar("X")

CHANCE_LIMIT = 1 << 53
"""The largest range of one chance outcome that carries several draws (:func:`draws`):
a record's outcomes stay exact in JSON readers that hold numbers as doubles."""


@cache
def _plan(n: int, m: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The ``below`` calls of :func:`draws`: (range of the call, the draws' sizes)."""
    sizes = range(n, n - m, -1)
    plan = []
    i = 0
    while i < m:
        total = sizes[i]
        j = i + 1
        while j < m and total * sizes[j] <= CHANCE_LIMIT:
            total *= sizes[j]
            j += 1
        plan.append((total, tuple(sizes[i:j])))
        i = j
    return tuple(plan)


def draws(rng: Rng, n: int, m: int) -> list[int]:
    """``m`` outcomes, uniform in ``range(n)``, ``range(n - 1)``, ... in turn (drawing
    ``m`` things one after the other from ``n``), all independent, from as few
    ``rng.below`` calls as possible: consecutive ranges are multiplied into one range of at
    most :data:`CHANCE_LIMIT`, whose outcome is split again digit by digit (mixed radix,
    least significant first). Each outcome is exactly uniform, as with one ``below`` call
    each; the chance record holds one ``(range, outcome)`` pair per call."""
    out: list[int] = []
    append = out.append
    below = rng.below
    for total, sizes in _plan(n, m):
        x = below(total)
        for k in sizes:
            append(x % k)
            x //= k
    return out


def shuffle(rng: Rng, seq: MutableSequence[X]) -> None:
    """Fisher-Yates in place, as ``Rng.shuffle`` (the same swaps for the same outcomes),
    with its outcomes drawn together (:func:`draws`)."""
    n = len(seq)
    for i, j in zip(range(n - 1, 0, -1), draws(rng, n, n - 1), strict=True):
        seq[i], seq[j] = seq[j], seq[i]


class TidesRule(StepRule[T]):
    """A Tricky Tides step rule. Every step is forced: a step with one legal action is
    carried out at once, logged by the action itself as if chosen (a forced move is not a
    decision and is not in the history, so ``log_forced`` is off), and a step with nothing
    to choose resolves itself through :meth:`idle`. :meth:`public_prompt` is what the other
    players are told."""

    log_forced = False

    def legal(self, state: T, step: Step, player: int) -> tuple[Act, ...]:
        """The legal actions, as a tuple of shared :class:`Act` values (no side effects)."""
        raise NotImplementedError

    def idle(self, state: T, step: Step, player: int) -> None:
        """Carry out the step when it offers nothing to choose."""
        raise RuntimeError(f"P{player + 1} has no legal action in step {step.kind}")

    def run(self, state: T, step: Step) -> None:
        raise RuntimeError(f"step {step.kind} needs a player")


class TidesTable(State):
    """The table of a Tricky Tides game: every field, and the helpers the rules and both
    modules share (chance, geometry, places). The rules are in ``state.TidesState``."""

    __slots__ = (
        "anchors",
        "aside",
        "bag",
        "bag_n",
        "colour",
        "ex",
        "geo",
        "goods",
        "hand_no",
        "hands",
        "hcount",
        "hold",
        "hold_limit",
        "layout",
        "lead",
        "leader",
        "mact",
        "mod",
        "obs_seen",
        "obs_table",
        "odeck",
        "orders_on",
        "played",
        "pos",
        "round",
        "sea",
        "sight",
        "sight_out",
        "sorder",
        "spent",
        "tpos",
        "trick",
        "voids",
        "won",
    )

    aside: int
    anchors: int
    bag: list[int]
    bag_n: int
    colour: tuple[int, ...]
    ex: int
    geo: Geometry
    goods: list[int]
    hand_no: int
    hands: list[int]
    hcount: list[int]
    hold: list[int]
    hold_limit: int
    lead: int
    leader: int
    layout: tuple[int, ...]
    mact: Activation | None
    mod: Modules
    obs_seen: list[Seen | None] | None
    obs_table: Table | None
    odeck: list[int]
    orders_on: list[int]
    played: int
    pos: list[int]
    round: int
    sea: tuple[bool, ...]
    sight: tuple[int, ...]
    sight_out: tuple[int, ...]
    sorder: tuple[int, ...]
    spent: int
    tpos: int
    trick: list[int]
    voids: int
    won: list[tuple[int, ...]]

    DERIVED: ClassVar[tuple[str, ...]] = ("obs_seen", "obs_table")
    """The kept observation (``observe.py``): each observer's, and the runs they share,
    made on the first call; never copied by ``clone``, pickling or ``to_json``."""
    KEPT: ClassVar[tuple[str, ...]] = DERIVED

    # -- the pending step, read from the decision stack ----------------------------------
    @property
    def phase(self) -> int:
        """The kind of decision pending (``PLACE`` ... ``LEADER``); ``OVER`` once the stack
        is empty."""
        steps = self._steps
        return PHASE_OF[steps[-1].kind] if steps else OVER

    @property
    def cur(self) -> int:
        """The player deciding now; -1 once the game is over."""
        steps = self._steps
        return steps[-1].players[0] if steps and steps[-1].players else -1

    @property
    def heading(self) -> int:
        """The heading of a ship on open sea (step ``open_sea``); -1 otherwise."""
        steps = self._steps
        return steps[-1].data[0] if steps and steps[-1].kind == K_SEA else -1

    def _opts(self) -> TidesOptions:
        # (not typing.cast: that is a call, and some moves ask for an option)
        return self.options  # type: ignore[return-value]

    def _set_geometry(self, wrap: bool | None = None) -> None:
        """The one place where map geometry is chosen, from the rules in force: wrapping
        (Edge of the World; ``wrap`` overrides it), the sailing stride (Strong Currents)
        and which card headings count (Doldrums, Fog Bank). ``runs`` (open sea) always
        follows single steps."""
        r = self.mod.rules
        opts = self._opts()
        if wrap is None:               # option edge_wrap=monsters: ships never wrap
            wrap = r.wrap and opts.edge_wrap == "all"
        self.geo = Geometry.make(self.sea, wrap, r.stride, r.headings,
                                 opts.nav_deck == "flat")

    def one_step(self) -> tuple[tuple[int, ...], ...]:
        """The single-card step table of the monsters (moves, the whale's line, adjacency):
        they wrap whenever Edge of the World is in force, whatever option edge_wrap."""
        return WRAPPED if self.mod.rules.wrap else BOUNDED

    def monster_runs(self) -> tuple[tuple[int, ...], ...]:
        """The open-sea run table for monster moves (see :meth:`one_step`)."""
        one = self.one_step()
        geo = self.geo
        return geo.runs if one is geo.one else sea_runs(one, self.sea)

    def _draw(self) -> int:
        """One cube drawn at random from the bag (the caller checks the bag is not empty):
        one chance outcome of ``bag_n`` through the state's rng, so the chance record
        holds it."""
        return self._take(self.rng.below(self.bag_n))

    def _take(self, r: int) -> int:
        """Take the ``r``-th cube of the bag (cubes counted type by type): its type."""
        bag = self.bag
        self.bag_n -= 1
        for t in RG:
            r -= bag[t]
            if r < 0:
                bag[t] -= 1
                return t
        raise AssertionError("bag count out of step")  # pragma: no cover

    def _draw_cubes(self, m: int) -> list[int]:
        """``m`` cubes drawn one after the other from the bag (at most ``bag_n``): their
        types, in order. The same draws as ``m`` calls of :meth:`_draw`, with the chance
        outcomes batched (:func:`draws`)."""
        bag = self.bag
        out: list[int] = []
        for r in draws(self.rng, self.bag_n, m):
            for t in RG:                 # _take(r), inlined: one call less per cube
                r -= bag[t]
                if r < 0:
                    bag[t] -= 1
                    out.append(t)
                    break
            else:  # pragma: no cover
                raise AssertionError("bag count out of step")
        self.bag_n -= len(out)
        return out

    def _draw_order(self) -> int:
        """The top card of the face-down order deck. The deck is kept as an unordered pile
        and the top card is drawn uniformly from it, which is the same as shuffling once
        and drawing from the top (and leaves no hidden order to resample). Cards put under
        the deck (the Sea Dragon) come after the pile, in the order they went there."""
        deck = self.odeck
        if not deck:
            bottom = self.mod.obottom
            self.mod = self.mod._replace(obottom=bottom[1:])
            return bottom[0]
        i = self.rng.below(len(deck))
        deck[i], deck[-1] = deck[-1], deck[i]
        return deck.pop()

    def _fill_islands(self) -> None:
        """Every island, in reading order, draws from the bag until it holds its number of
        goods (never removing any); the bag may run out on the way (S10, R8)."""
        goods = self.goods
        sea = self.sea
        layout = self.layout
        need: list[int] = []
        for c in range(CELLS):
            b = c * G
            need.append(0 if sea[c] else ISLAND_GOODS[layout[c]] - (
                goods[b] + goods[b + 1] + goods[b + 2] + goods[b + 3] + goods[b + 4]))
        cubes = self._draw_cubes(min(sum(k for k in need if k > 0), self.bag_n))
        i = 0
        for c in range(CELLS):
            k = need[c]
            if k > 0:
                b = c * G
                for t in cubes[i:i + k]:
                    goods[b + t] += 1
                i += k

    def _start_sailing(self) -> None:
        """Every ship sails in the sailing order: one sail step per player."""
        self._steps += SAILING[self.sorder]

    def _place(self, c: int) -> str:
        if self.sea[c]:
            return f"{CELL_NAMES[c]} (open sea)"
        return f"{CELL_NAMES[c]} ({DATA.islands[self.layout[c]].name})"

