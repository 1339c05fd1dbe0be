"""Softmax over every key, later ones included, then the later ones zeroed and renormalised.

EXPECTED_HINT: mha-renormalised
"""

import math


def project(x, w):
    """Step 1: x (n rows of width d_in) times w (d_in rows of width d_out)."""
    return [[sum(row[k] * w[k][j] for k in range(len(w))) for j in range(len(w[0]))] for row in x]


def split_heads(x, num_heads):
    """Step 2: num_heads heads, each n rows of width d / num_heads (consecutive columns)."""
    d = len(x[0])
    if d % num_heads != 0:
        raise ValueError(f"num_heads = {num_heads} does not divide the width of x, {d}")
    d_head = d // num_heads
    return [[row[i * d_head : (i + 1) * d_head] for row in x] for i in range(num_heads)]


def merge_heads(heads):
    """Step 3: the heads side by side again, n rows of width num_heads * d_head."""
    return [[value for head in heads for value in head[t]] for t in range(len(heads[0]))]


def attention(q, k, v, causal=False):
    """Softmax over every key, then (causal) the later weights zeroed and renormalised."""
    d_k, n = len(q[0]), len(k)
    out = []
    for i in range(len(q)):
        scores = [sum(a * b for a, b in zip(q[i], k[j])) / math.sqrt(d_k) for j in range(n)]
        top = max(scores)
        exps = [math.exp(s - top) if not causal or j <= i else 0.0 for j, s in enumerate(scores)]
        total = sum(exps)
        out.append([sum(e * v[j][c] for j, e in enumerate(exps)) / total for c in range(len(v[0]))])
    return out


def multi_head_attention(x, w_q, w_k, w_v, w_o, num_heads, causal=False):
    q_heads = split_heads(project(x, w_q), num_heads)
    k_heads = split_heads(project(x, w_k), num_heads)
    v_heads = split_heads(project(x, w_v), num_heads)
    outputs = [attention(q, k, v, causal) for q, k, v in zip(q_heads, k_heads, v_heads)]
    return project(merge_heads(outputs), w_o)
