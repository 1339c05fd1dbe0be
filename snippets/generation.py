# ruff: noqa: E402 (each section imports what it shows, where it shows it)
"""Lesson 5: lesson 4's letter model writes, with and without a cache of keys and values.

The weights are the ones ``make train`` committed (``data/induction_weights.json``);
nothing is trained here. Run it on its own with ``python snippets/generation.py`` from
the repository's root.
"""

# --8<-- [start:loop]
import json
from pathlib import Path

import numpy as np

from attention_ref.induction import Config, encode, forward, spell

weights = json.loads(Path("data/induction_weights.json").read_text())
config = Config(**weights["config"])  # lesson 4's model
params = {name: np.array(w) for name, w in weights["params"].items()}

tokens = encode("^quartzqu")  # ^ is the start token
for _ in range(4):
    logits, _ = forward(params, np.array([tokens]), config)  # (1, n, 27)
    tokens.append(int(np.argmax(logits[0, -1])))  # greedy: the top logit
print(spell(tokens))
# --8<-- [end:loop]

# --8<-- [start:generate]
from attention_ref.induction import generate

for run in ("quartz", "attention"):
    prompt = encode("^" + run + run[:2])  # the run, then 2 letters again
    out = generate(params, prompt, len(run) - 2, config=config)  # greedy
    print(f"^{run}{run[:2]} -> {spell(out.tokens)}")
# --8<-- [end:generate]

# --8<-- [start:cost]
from attention_ref.induction import decode_multiply_adds

print("context | without cache | with cache | ratio")
for n in (4, 8, 16, 24):
    slow = decode_multiply_adds(config, n, use_cache=False)
    fast = decode_multiply_adds(config, n, use_cache=True)
    print(f"{n:7} | {slow:13,} | {fast:10,} | {slow / fast:5.1f}")
# --8<-- [end:cost]

# --8<-- [start:cache]
from attention_ref.induction import KVCache, decode_step

cache = KVCache.empty(config)
for token in encode("^quartzqu"):  # one token at a time
    step = decode_step(params, token, cache, config=config)
print("tokens in the cache:", cache.n_tokens)
print("keys of one layer:", cache.keys[0].shape)  # (heads, n, d_head)
print("next letter:", spell([int(np.argmax(step.logits))]))

prompt = encode("^quartzqu")
fast = generate(params, prompt, 4, config=config)  # use_cache=True
slow = generate(params, prompt, 4, config=config, use_cache=False)
print("same letters:", fast.tokens == slow.tokens)
gap = np.abs(fast.logits - slow.logits).max()
print("largest logit difference below 1e-12:", bool(gap < 1e-12))
# --8<-- [end:cache]
