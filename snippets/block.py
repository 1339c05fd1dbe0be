"""The whole block from its parts, checked against ``encoder_layer``, then a stack.

Run the file on its own from the repository's root with ``python snippets/block.py``.
"""

# --8<-- [start:layer]
import numpy as np

from attention_ref import multi_head_attention
from attention_ref.block import (
    EncoderLayerWeights,
    encoder_layer,
    feed_forward,
    layer_norm,
)

p = EncoderLayerWeights.random(d_model=8, d_ff=32, seed=0)
x = np.random.default_rng(seed=1).standard_normal((5, 8))  # 5 tokens

biases = {"b_q": p.b_q, "b_k": p.b_k, "b_v": p.b_v, "b_o": p.b_o}
weights = (p.w_q, p.w_k, p.w_v, p.w_o)
a = multi_head_attention(x, *weights, num_heads=2, **biases)
h = layer_norm(x + a, p.norm1_gain, p.norm1_bias)  # add, then norm
f = feed_forward(h, p.w_1, p.b_1, p.w_2, p.b_2)
y = layer_norm(h + f, p.norm2_gain, p.norm2_bias)  # add, then norm

print(y.shape, np.allclose(y, encoder_layer(x, p, num_heads=2)))
print(p.parameter_counts())
# --8<-- [end:layer]

# --8<-- [start:stack]
stack = [EncoderLayerWeights.random(8, 32, seed=s) for s in range(6)]
states = [x]
for layer in stack:
    states.append(encoder_layer(states[-1], layer, num_heads=2))
print(len(states), "states of shape", states[-1].shape)
# --8<-- [end:stack]
