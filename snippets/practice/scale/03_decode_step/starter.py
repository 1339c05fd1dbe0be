import math

# Nothing is given in this step: write it with plain Python lists and math.


def decode_step(cache_k, cache_v, q, k, v):
    """One step of decoding with a cache of keys and values.

    cache_k and cache_v hold the keys and values of the tokens before this one (n rows
    each, of widths d_k and d_v; both empty for the first token). q, k and v are the new
    token's query, key and value. Add k and v at the end of the cache, then return
        (the new cache_k, the new cache_v, out)
    where out is the new token's attention output over every cached key, its own
    included: scores q . key / sqrt(d_k), softmax over those n + 1 scores, then the
    weighted sum of the n + 1 values (d_v numbers). Build the new cache as new lists
    (cache_k + [k] does): leave the lists you are given unchanged.

    decode_step([], [], [1.0], [2.0], [5.0, 6.0]) is ([[2.0]], [[5.0, 6.0]], [5.0, 6.0]).
    """
    raise NotImplementedError("write decode_step(cache_k, cache_v, q, k, v)")
