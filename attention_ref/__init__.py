"""attention_ref: scaled dot-product attention in numpy, the lesson's single source of truth.

Every number, plot and widget of the lesson is computed by these functions:

>>> from attention_ref import scaled_dot_product_attention
>>> scaled_dot_product_attention([1, 0, 1, 0], [[1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 0, 0]],
...                              [[10, 0], [0, 5], [2, 2]]).round(2).tolist()
[5.68, 1.55]
"""

from attention_ref.at_scale import (
    kv_cache_bytes,
    online_softmax,
    sliding_window_mask,
    tiled_attention,
)
from attention_ref.backward import (
    cross_entropy,
    cross_entropy_backward,
    embedding_backward,
    linear_backward,
    scaled_dot_product_attention_backward,
    softmax_backward,
)
from attention_ref.block import (
    EncoderLayerWeights,
    encoder_layer,
    erf,
    feed_forward,
    gelu,
    layer_norm,
)
from attention_ref.core import (
    attention_weights,
    causal_mask,
    scale_scores,
    scaled_dot_product_attention,
    scaled_scores,
    scores,
    softmax,
)
from attention_ref.multi_head import merge_heads, multi_head_attention, split_heads
from attention_ref.positions import (
    apply_rope,
    position_frequencies,
    sinusoidal_positions,
    sinusoidal_shift,
)
from attention_ref.stats import entropy, softmax_jacobian

# The one place the version is written: pyproject.toml reads it from here (statically).
__version__ = "0.1.0"

__all__ = [
    "EncoderLayerWeights",
    "apply_rope",
    "attention_weights",
    "causal_mask",
    "cross_entropy",
    "cross_entropy_backward",
    "embedding_backward",
    "encoder_layer",
    "entropy",
    "erf",
    "feed_forward",
    "gelu",
    "kv_cache_bytes",
    "layer_norm",
    "linear_backward",
    "merge_heads",
    "multi_head_attention",
    "online_softmax",
    "position_frequencies",
    "scale_scores",
    "scaled_dot_product_attention",
    "scaled_dot_product_attention_backward",
    "scaled_scores",
    "scores",
    "sinusoidal_positions",
    "sinusoidal_shift",
    "sliding_window_mask",
    "softmax",
    "softmax_backward",
    "softmax_jacobian",
    "split_heads",
    "tiled_attention",
]
