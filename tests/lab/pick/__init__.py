"""Pick: a toy game for the balance measures, small enough that each measure's value is
known analytically (tests/lab/test_measures.py)."""
