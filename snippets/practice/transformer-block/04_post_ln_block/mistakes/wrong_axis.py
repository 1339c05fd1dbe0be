"""Normalises each feature over the tokens (a column of x) instead of each token over its features.

EXPECTED_HINT: block-wrong-axis
"""

import math


def layer_norm(x, gain, bias, eps=1e-12):
    """Step 1: normalise one token's vector over its features, then gain and bias."""
    mean = sum(x) / len(x)
    variance = sum((v - mean) ** 2 for v in x) / len(x)
    return [g * (v - mean) / math.sqrt(variance + eps) + b for v, g, b in zip(x, gain, bias)]


def gelu(x):
    """Step 2: the exact GELU of one number."""
    return x * (1 + math.erf(x / math.sqrt(2))) / 2


def feed_forward(x, w_1, b_1, w_2, b_2):
    """Step 3: gelu(x W_1 + b_1) W_2 + b_2 for one token's vector x."""
    hidden = [gelu(sum(x[i] * w_1[i][j] for i in range(len(x))) + b_1[j]) for j in range(len(b_1))]
    return [
        sum(hidden[j] * w_2[j][c] for j in range(len(hidden))) + b_2[c] for c in range(len(b_2))
    ]


def project(x, w):
    """Lesson 2: x (n rows of width d_in) times w (d_in rows of width d_out)."""
    return [[sum(row[k] * w[k][j] for k in range(len(w))) for j in range(len(w[0]))] for row in x]


def self_attention(x, w_q, w_k, w_v, w_o):
    """Lesson 2, one head, no mask: softmax(Q K^T / sqrt(d)) V, times w_o (n rows of width d)."""
    q, k, v = project(x, w_q), project(x, w_k), project(x, w_v)
    out = []
    for qi in q:
        scores = [sum(a * b for a, b in zip(qi, kj)) / math.sqrt(len(qi)) for kj in k]
        top = max(scores)
        exps = [math.exp(s - top) for s in scores]
        total = sum(exps)
        out.append([sum(e * vj[c] for e, vj in zip(exps, v)) / total for c in range(len(v[0]))])
    return project(out, w_o)


def norm_columns(rows, gain, bias, eps=1e-12):
    n = len(rows)
    out = [list(r) for r in rows]
    for c in range(len(rows[0])):
        column = [r[c] for r in rows]
        mean = sum(column) / n
        variance = sum((v - mean) ** 2 for v in column) / n
        for t in range(n):
            out[t][c] = gain[c] * (column[t] - mean) / math.sqrt(variance + eps) + bias[c]
    return out


def post_ln_block(x, p):
    a = self_attention(x, p["w_q"], p["w_k"], p["w_v"], p["w_o"])
    s1 = [[xi + ai for xi, ai in zip(xt, at)] for xt, at in zip(x, a)]
    h = norm_columns(s1, p["norm_1_gain"], p["norm_1_bias"])
    s2 = []
    for ht in h:
        f = feed_forward(ht, p["w_1"], p["b_1"], p["w_2"], p["b_2"])
        s2.append([hi + fi for hi, fi in zip(ht, f)])
    return norm_columns(s2, p["norm_2_gain"], p["norm_2_bias"])
