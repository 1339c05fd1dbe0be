# ruff: noqa: E402 (each section imports what it shows, where it shows it)
"""Lesson 5: what large decoders change in the formula, each change beside the formula.

Online softmax and tiled attention (equal to the formula), grouped-query attention
(equal to multi-head attention when every query head has its own key/value head),
sliding windows (equal to the causal mask when the window holds every key), and what a
cache of keys and values weighs. Run it on its own with ``python snippets/at_scale.py``.
"""

# --8<-- [start:online]
import numpy as np

from attention_ref import online_softmax, softmax

x = np.random.default_rng(5).standard_normal(10) * 4  # one row of 10 logits
for block_size in (1, 3, 4, 10, 16):
    online = online_softmax(x, block_size=block_size)
    same = np.allclose(online, softmax(x), rtol=0, atol=1e-14)
    print(f"blocks of {block_size:2}: equal to softmax: {same}")

m, total = -np.inf, 0.0  # by hand, blocks of 4: the running max and sum
for start in range(0, len(x), 4):
    block = x[start : start + 4]
    m_new = max(m, block.max())
    total = total * np.exp(m - m_new) + np.exp(block - m_new).sum()
    m = m_new
by_hand = np.exp(x - m) / total
print("by hand:", np.allclose(by_hand, softmax(x), rtol=0, atol=1e-14))
# --8<-- [end:online]

# --8<-- [start:tiled]
from attention_ref import scaled_dot_product_attention, tiled_attention

rng = np.random.default_rng(6)
q, k, v = rng.standard_normal((3, 2, 100, 16))  # (heads, n, d) each
plain = scaled_dot_product_attention(q, k, v, is_causal=True)
for bq, bk in ((1, 1), (7, 30), (64, 64), (100, 100)):  # queries x keys
    tiled = tiled_attention(q, k, v, is_causal=True, block_q=bq, block_k=bk)
    same = np.allclose(tiled, plain, rtol=0, atol=1e-12)
    print(f"tiles of {bq:3} x {bk:3}: equal: {same}")
# --8<-- [end:tiled]

# --8<-- [start:tile_memory]
n, tile, size = 4096, 64, 4  # tokens, tile side, bytes of a float32
scores, one_tile = n * n * size, tile * tile * size  # bytes
print(f"all n x n scores of one head: {scores / 2**20:.0f} MiB")
print(f"one tile of {tile} x {tile} scores: {one_tile / 2**10:.0f} KiB")
# --8<-- [end:tile_memory]

# --8<-- [start:gqa]
h, g = 8, 2  # query heads, key/value heads
rng = np.random.default_rng(7)
q8 = rng.standard_normal((h, 5, 4))  # (h, n, d): 8 query heads
k2, v2 = rng.standard_normal((2, g, 5, 4))  # (g, n, d): 2 key/value heads
grouped = scaled_dot_product_attention(q8, k2, v2, enable_gqa=True)
# each key/value head serves h // g = 4 neighbouring query heads
k_rep, v_rep = np.repeat(k2, h // g, axis=0), np.repeat(v2, h // g, axis=0)
shared = scaled_dot_product_attention(q8, k_rep, v_rep)  # (h, n, d)
print("g = 2, each key/value head repeated:", np.allclose(grouped, shared))

k8, v8 = rng.standard_normal((2, h, 5, 4))  # g = h: a head each
gqa = scaled_dot_product_attention(q8, k8, v8, enable_gqa=True)
multi_head = scaled_dot_product_attention(q8, k8, v8)
print("g = h is multi-head attention:", np.allclose(gqa, multi_head))

k1, v1 = k2[:1], v2[:1]  # g = 1: (1, n, d), one key/value head
mqa = scaled_dot_product_attention(q8, k1, v1, enable_gqa=True)
broadcast = scaled_dot_product_attention(q8, k1, v1)  # numpy broadcasting
print("g = 1 is one head shared by all:", np.allclose(mqa, broadcast))
# --8<-- [end:gqa]

# --8<-- [start:window]
from attention_ref import causal_mask, sliding_window_mask

print(sliding_window_mask(6, 3).astype(int))  # row i: the keys query i sees
wide = [sliding_window_mask(6, w) for w in (6, 7, 100)]
causal = all((m == causal_mask(6)).all() for m in wide)
print("window >= n is causal:", causal)
# --8<-- [end:window]

# --8<-- [start:kv_memory]
from attention_ref import kv_cache_bytes

models = [  # name, layers, KV heads, head width, tokens, bytes a number
    ("all-MiniLM-L6-v2 (float32)", 6, 12, 32, 512, 4),
    ("Llama 2 7B", 32, 32, 128, 4096, 2),
    ("Llama 2 70B, if 64 KV heads", 80, 64, 128, 4096, 2),
    ("Llama 2 70B, 8 KV heads", 80, 8, 128, 4096, 2),
    ("Mistral 7B, if 32 KV heads", 32, 32, 128, 8192, 2),
    ("Mistral 7B, 8 KV heads", 32, 8, 128, 8192, 2),
    ("Mistral 7B, window 4096", 32, 8, 128, 4096, 2),
]
print(f"{'model':28} {'tokens':>6} {'a token':>9} {'cache':>10}")
for name, layers, kv_heads, width, tokens, size in models:
    one = kv_cache_bytes(layers, kv_heads, width, 1, size) / 2**10  # KiB
    full = kv_cache_bytes(layers, kv_heads, width, tokens, size) / 2**20
    print(f"{name:28} {tokens:6} {one:5.0f} KiB {full:6.0f} MiB")
# --8<-- [end:kv_memory]
