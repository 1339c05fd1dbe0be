"""Where the norm sits in a block: post-LN (BERT, MiniLM) against pre-LN (GPT-2).

Six random blocks of width 64, stacked both ways; the length of one token's vector
after each block. Run the file on its own from the repository's root with
``python snippets/post_pre_ln.py``.
"""

# --8<-- [start:post_pre]
import numpy as np

from attention_ref import multi_head_attention
from attention_ref.block import (
    EncoderLayerWeights,
    feed_forward,
    layer_norm,
)


def post_ln(x, p):  # BERT, MiniLM: add, then normalise
    x = layer_norm(x + attend(x, p), p.norm1_gain, p.norm1_bias)
    return layer_norm(x + mlp(x, p), p.norm2_gain, p.norm2_bias)


def pre_ln(x, p):  # GPT-2 and most recent models: normalise, then add
    x = x + attend(layer_norm(x, p.norm1_gain, p.norm1_bias), p)
    return x + mlp(layer_norm(x, p.norm2_gain, p.norm2_bias), p)


def attend(x, p):  # four heads, with BERT's biases
    biases = {"b_q": p.b_q, "b_k": p.b_k, "b_v": p.b_v, "b_o": p.b_o}
    weights = (p.w_q, p.w_k, p.w_v, p.w_o)
    return multi_head_attention(x, *weights, num_heads=4, **biases)


def mlp(x, p):
    return feed_forward(x, p.w_1, p.b_1, p.w_2, p.b_2)


stack = [EncoderLayerWeights.random(64, 256, seed=s) for s in range(6)]
x0 = np.random.default_rng(seed=1).standard_normal((5, 64))  # 5 tokens
for name, block in (("post-LN", post_ln), ("pre-LN", pre_ln)):
    x, norms = x0, []
    for p in stack:
        x = block(x, p)
        norms.append(round(float(np.linalg.norm(x[0])), 1))  # token 0
    print(f"{name:<8}", norms)
# --8<-- [end:post_pre]
