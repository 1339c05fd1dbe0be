import math


def causal_self_attention(q, k, v):
    """Causal self-attention over a whole sequence: position i sees positions 0..i only.

    q and k are n rows of width d_k, v is n rows of width d_v: one row per position,
    all three projected from the same sequence. For each position i, score q[i]
    against k[0], ..., k[i] (never a later key), divide by sqrt(d_k), take the
    softmax of those scores, and blend v[0], ..., v[i] with the weights.
    Return n rows of width d_v.
    """
    raise NotImplementedError("write causal_self_attention(q, k, v)")
