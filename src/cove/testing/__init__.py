"""The conformance harness: every registered game held to the contract the same way.

    from cove.testing import random_sim_test
    random_sim_test("<game>", players=3, games=2, seed=1)             # default options
    random_sim_test("<game>", players=3, games=2, seed=1, **options)  # options by name

See docs/TESTING.md for what each check means and how a failure reads.
"""

from cove.testing.harness import HarnessError, option_variants, random_sim_test

# cove.testing.playthrough is imported on its own: it is also a script
# (python -m cove.testing.playthrough), which must not be imported twice.
__all__ = ["HarnessError", "option_variants", "random_sim_test"]
