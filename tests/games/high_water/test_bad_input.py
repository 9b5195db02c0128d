"""Bad input is refused and changes nothing: illegal actions and texts, records that are
malformed or of an older version. (Malformed data files and option values: test_data.py;
the player counts: R19 in test_rules_design.py.)"""

from __future__ import annotations

import json

import pytest

import cove
from tests.games.high_water.helpers import new, random_play


def test_illegal_actions_leave_the_state_unchanged() -> None:
    s = new(3, seed=4)
    before = json.dumps(s.view(None)), s.record()
    with pytest.raises(cove.IllegalAction, match=r"has no trick card 9 in hand.*legal: play 1"):
        s.apply(0, "play 9")
    with pytest.raises(cove.IllegalAction, match="not a legal move"):
        s.apply(0, "take crate 1")
    assert (json.dumps(s.view(None)), s.record()) == before


def test_malformed_records_are_rejected() -> None:
    s = new(2, seed=4)
    rec = s.record()
    rec["actions"] = [[0, "play 3"], [1, "play 3"], [0, "play 3"]]
    with pytest.raises(cove.RecordError, match="action #3"):
        cove.replay(rec)


@pytest.mark.parametrize("old", ["4", "5"])
def test_records_of_an_older_version_are_refused(old: str) -> None:
    """Version 5 had the data file before its presentation fields (another digest): such a
    record is refused by its version, naming both."""
    s = new(2, seed=1)
    random_play(s, 1, limit=10)
    rec = s.record()
    rec["version"] = old
    with pytest.raises(cove.RecordError, match=f"version '{old}'.*version '6'"):
        cove.replay(rec)
