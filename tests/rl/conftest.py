"""The research environments need the ``rl`` extra; without it these tests skip and say
why (``python3 dev.py test`` installs it)."""

from __future__ import annotations

import pytest

for _module in ("numpy", "pettingzoo", "gymnasium"):
    pytest.importorskip(_module, reason=f"{_module} is not installed: pip install -e '.[rl]'")
