"""Never checks that the groups are equal: 6 heads over 4 key/value heads gives an answer.

EXPECTED_HINT: gqa-no-error
"""


def kv_head(i, n_heads, n_kv_heads):
    return i // (n_heads // n_kv_heads)
