"""What a game author needs, in one import: ``from cove.core import Game, State, Step, ...``.

The names below are the game author's side of the contract (docs/ARCHITECTURE.md): the
game's declaration, the state and its decision stack, options, randomness, the observation
blocks, the data loader, components, action forms and the errors a game raises. Clients
(the terminal, the web, bots, the lab, the environments) use ``cove`` and ``Game``/``State``
through their public methods only. The web board's drawing helpers stay in
``cove.core.svg``.
"""

from cove.core.actions import ActionSpace, ActionTable, CodedAction
from cove.core.compiled import mypyc_attr
from cove.core.components import Bag, Deck, HexGrid, SquareGrid
from cove.core.data import DataChecker, FileCache, entry, load_typed, schema
from cove.core.decisions import AUTO, Step, StepRule
from cove.core.errors import IllegalAction, OptionError, RecordError
from cove.core.game import Game, MoveHelp
from cove.core.observer import Block, Observer, Out
from cove.core.options import Options, option
from cove.core.rng import Rng
from cove.core.serial import pickle_by_fields, pickle_records
from cove.core.state import Action, State
from cove.core.text import pack
from cove.core.tuples import replaced

__all__ = [
    "AUTO",
    "Action",
    "ActionSpace",
    "ActionTable",
    "Bag",
    "Block",
    "CodedAction",
    "DataChecker",
    "Deck",
    "FileCache",
    "Game",
    "HexGrid",
    "IllegalAction",
    "MoveHelp",
    "Observer",
    "OptionError",
    "Options",
    "Out",
    "RecordError",
    "Rng",
    "SquareGrid",
    "State",
    "Step",
    "StepRule",
    "entry",
    "load_typed",
    "mypyc_attr",
    "option",
    "pack",
    "pickle_by_fields",
    "pickle_records",
    "replaced",
    "schema",
]
