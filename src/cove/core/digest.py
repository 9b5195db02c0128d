"""Digests of the persistent history and log chains, remembered between calls.

A state's history and log are chains of immutable nodes ``(previous, item, ...)`` that a
clone shares with its original. ``State.fingerprint`` hashes them link by link, so the
digest of a chain is the digest of its previous node's chain extended by one item. The
last few chain heads are remembered (by identity, holding the node so the identity stays
valid): fingerprinting a state again, a clone of it, or a copy played a few moves further
costs only the new items instead of the whole game's history and log.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

_EMPTY = b"\0" * 20
_REMEMBERED = 64  # chain heads kept: enough for a position, its clones and their copies
_heads: OrderedDict[int, tuple[Any, bytes]] = OrderedDict()
_lock = threading.Lock()


def chain_digest(node: Any, item_json: Callable[[Any], Any]) -> bytes:
    """The digest of the chain ending at ``node`` (None: the empty chain). Each node is
    ``(previous, item, ...)``; ``item_json(item)`` gives the item's JSON form, the same
    one ``State.to_json`` writes, so equal chains give equal digests."""
    pending: list[Any] = []
    digest = _EMPTY
    cur = node
    with _lock:
        while cur is not None:
            hit = _heads.get(id(cur))
            if hit is not None and hit[0] is cur:
                digest = hit[1]
                _heads.move_to_end(id(cur))
                break
            pending.append(cur)
            cur = cur[0]
    for link in reversed(pending):
        doc = json.dumps(item_json(link[1]), sort_keys=True, separators=(",", ":"))
        digest = hashlib.blake2b(digest + doc.encode(), digest_size=20).digest()
    if pending:
        with _lock:
            _heads[id(node)] = (node, digest)
            while len(_heads) > _REMEMBERED:
                _heads.popitem(last=False)
    return digest
