"""Checks the groups with assert: an AssertionError with no message, not a ValueError
that says what is wrong.

EXPECTED_HINT: gqa-error-message
"""


def kv_head(i, n_heads, n_kv_heads):
    assert n_heads % n_kv_heads == 0
    return i // (n_heads // n_kv_heads)
