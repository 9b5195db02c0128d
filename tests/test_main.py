"""`python -m cove` is the `cove` command."""

from __future__ import annotations

import subprocess
import sys

import cove


def test_python_dash_m_cove_is_the_cove_command() -> None:
    out = subprocess.run([sys.executable, "-m", "cove", "games"], capture_output=True,
                         text=True, timeout=60, check=False)
    assert out.returncode == 0, out.stderr
    assert all(gid in out.stdout for gid in cove.ids())
