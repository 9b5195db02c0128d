"""A pytest plugin that sums each test file's CPU seconds (``time.process_time``), so the
suite's cost can be compared part by part on a loaded machine (wall time cannot):

    PYTHONPATH=benchmarks python -m pytest -p pytest_cpu [pytest args]

writes ``cpu_by_file.txt`` (or the file named by ``COVE_CPU_OUT``): one line per test file,
costliest first, then the total. docs/TESTING.md uses it for the harness's share.
"""

from __future__ import annotations

import os
import time
from collections import defaultdict
from collections.abc import Generator
from typing import Any

import pytest

_cpu: defaultdict[str, float] = defaultdict(float)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: Any) -> Generator[None, None, None]:
    start = time.process_time()
    yield
    _cpu[item.nodeid.split("::")[0]] += time.process_time() - start


def pytest_sessionfinish(session: pytest.Session) -> None:
    with open(os.environ.get("COVE_CPU_OUT", "cpu_by_file.txt"), "w", encoding="utf-8") as f:
        for name, secs in sorted(_cpu.items(), key=lambda kv: -kv[1]):
            f.write(f"{secs:8.2f} {name}\n")
        f.write(f"{sum(_cpu.values()):8.2f} TOTAL\n")
