"""Stepping back through a live table's moves: the board after move k as the asking seat
saw it then (its token decides the seat, never the request), drawn without moves to play.

``GET /web/tables/{id}/replay?step=k&token=T`` on a table still playing comes here
(:func:`live_step`); a finished game keeps the replay of :mod:`cove.web.routes`, where any
seat's view may be asked for. While the game runs, ``as`` naming another seat is refused:
what one seat saw (its hand, its secret choices) is not another's to see until the end.

The states are rebuilt from the table's seed and its moves so far, keeping one every
:data:`cove.web.routes.MARK` moves per table (:class:`Lives`): a move on the table keeps
them (its history only grew), an undo drops those after the move taken back.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from cove.core.state import Action, State
from cove.serve.clients import client_key, seat_token
from cove.serve.hub import encode_bytes
from cove.web import fragments

NO_STORE = {"Cache-Control": "no-store"}


class Live:
    """One live table's moves so far and the states at every MARK-th of them."""

    def __init__(self, table: Any, mark: int) -> None:
        self.mark = mark
        self.history: list[tuple[int, Action]] = []
        st = table.state
        self.marks: dict[int, State] = {
            0: table.game.start(st.n, table.seed, options=st.options.to_dict())}
        self.lock = threading.Lock()
        """Guards ``marks`` and ``history``: steps are replayed in worker threads while
        the event loop follows the table."""

    def follow(self, history: list[tuple[int, Action]]) -> None:
        """Take the table's history now: the marks after the first move that differs go
        (an undo took moves back)."""
        with self.lock:
            same = 0
            for (a, b) in zip(self.history, history, strict=False):
                if a != b:
                    break
                same += 1
            for k in [k for k in self.marks if k > same]:
                del self.marks[k]
            self.history = history

    def state_at(self, step: int) -> State:
        with self.lock:  # the nearest mark and the moves after it, as they are now
            base = max(k for k in self.marks if k <= step)
            state = self.marks[base].clone()
            moves = self.history[base:step]
        made: dict[int, State] = {}
        for i, (p, act) in enumerate(moves, start=base):
            state.apply(p, act)
            if (i + 1) % self.mark == 0:
                made[i + 1] = state.clone()
        with self.lock:
            if self.history[base:step] == moves:  # no undo took them back meanwhile
                for k, kept in made.items():
                    self.marks.setdefault(k, kept)
        return state


class Lives:
    """The live tables stepped through lately (the most recent ``tables``)."""

    def __init__(self, tables: int = 64) -> None:
        self.tables = tables
        self.items: OrderedDict[str, Live] = OrderedDict()

    def of(self, table: Any, mark: int) -> Live:
        have = self.items.get(table.id)
        if have is None:
            have = self.items[table.id] = Live(table, mark)
            while len(self.items) > self.tables:
                self.items.popitem(last=False)
        self.items.move_to_end(table.id)
        have.follow(list(table.state.history))
        return have


LIVES = Lives()


def step_body(table: Any, state: State, step: int, total: int, seat: int | None) -> bytes:
    """Step ``step`` of ``total`` as ``seat`` saw it (in a worker thread)."""
    view = state.view(seat)
    html, drawn = fragments.board(table.game, view, [], seat)
    last = fragments.last_move(state, seat)
    move = f"Move {step}: {last}" if step else "The start of the game"
    decision = view.get("decision") or state.decision(seat)
    return encode_bytes({"step": step, "total": total, "live": True, "board": html,
                         "drawn": drawn, "move": move, "prompt": decision.get("prompt", ""),
                         "seat": seat})


async def live_step(request: Request, hub: Any, table: Any, mark: int, cost: int
                    ) -> Response:
    """Step ``step`` (default: the latest) of a table still playing, as the seat of the
    request's token (a spectator without one) saw it: ``{"step", "total", "live",
    "board", "move", "prompt", "seat"}``. 403 when ``as`` names another seat."""
    seat = hub.seat_for(table, seat_token(request, request.query_params.get("token")))
    who = request.query_params.get("as", "")
    if who and who != ("" if seat is None else str(seat)):
        mine = "as a spectator" if seat is None else f"as P{seat + 1}, your seat"
        return JSONResponse({"error": "not_yours", "reason": "while the game runs each "
                             "seat steps back through what it saw itself (the seat of its "
                             f"token): you see the moves {mine}; as= names any seat once "
                             "the game is over"}, status_code=403)
    total = table.moves
    raw = request.query_params.get("step", str(total))
    if not (raw.isascii() and raw.isdigit() and len(raw) < 10 and int(raw) <= total):
        return JSONResponse({"error": "bad_request", "reason": f"step is a move number "
                             f"from 0 to {total} (the moves so far)"}, status_code=400)
    step = int(raw)
    hub.throttle("read", client_key(request), cost - 1)  # replayed and drawn now
    if step == total:
        state = table.state.clone()
    else:
        live = LIVES.of(table, mark)
        state = await asyncio.to_thread(live.state_at, step)
    body = await asyncio.to_thread(step_body, table, state, step, total, seat)
    return Response(body, media_type="application/json", headers=NO_STORE)
