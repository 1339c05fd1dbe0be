# ruff: noqa: E402 (each section imports what it shows, where it shows it)
"""Lesson 4: how attention learns. Gradients by hand, checked, and the committed run.

The backward passes come from ``attention_ref.backward``; the training run is the one
``make train`` wrote into ``data/induction_run.json``, so every number printed here is
read from that file or recomputed from it, never retrained. Run it on its own with
``python snippets/learning.py`` from the repository's root.
"""

# --8<-- [start:chain]
import numpy as np

from attention_ref import scaled_dot_product_attention, softmax_backward

rng = np.random.default_rng(seed=4)
q, k, v = rng.standard_normal((3, 5, 4))  # (n, d): 5 tokens, width 4
grad_out = rng.standard_normal((5, 4))  # dL/d(out), from above

s = q @ k.T / np.sqrt(4)  # (n_q, n_k): scaled scores
p = np.exp(s - s.max(axis=-1, keepdims=True))
p = p / p.sum(axis=-1, keepdims=True)  # (n_q, n_k): attention weights
grad_v = p.T @ grad_out  # (n_k, d_v)
grad_p = grad_out @ v.T  # (n_q, n_k)
grad_s = softmax_backward(p, grad_p)  # (n_q, n_k): the Jacobian
grad_q = grad_s @ k / np.sqrt(4)  # (n_q, d_k)
grad_k = grad_s.T @ q / np.sqrt(4)  # (n_k, d_k)
print("grad_q", grad_q.shape, "grad_k", grad_k.shape)
print("grad_v", grad_v.shape)
row_sums = np.abs(grad_s.sum(axis=-1)).max()
print("each row of grad_s sums to", row_sums.round(12))
# --8<-- [end:chain]

# --8<-- [start:check]
h = 1e-6


def loss(q_):  # L = sum(out * grad_out): dL/d(out) = grad_out
    out = scaled_dot_product_attention(q_, k, v)
    return float(np.sum(out * grad_out))


numeric = np.zeros_like(q)
for i in np.ndindex(q.shape):
    bump = np.zeros_like(q)
    bump[i] = h
    numeric[i] = (loss(q + bump) - loss(q - bump)) / (2 * h)
worst = np.abs(numeric - grad_q).max() / np.abs(grad_q).max()
print("worst relative error below 1e-6:", bool(worst < 1e-6))
# --8<-- [end:check]

# --8<-- [start:adam]
from attention_ref.induction import Adam

params = {"w": np.array([1.0, 1.0, 1.0])}
adam = Adam(lr=0.01)
for grad in ([4.0, -0.1, 0.0], [4.0, 0.1, 0.0]):
    adam.step(params, {"w": np.array(grad)})
print("after two steps:", params["w"].round(4).tolist())
# --8<-- [end:adam]

# --8<-- [start:record]
import json
import math
from pathlib import Path

from attention_ref.induction import spell

record = json.loads(Path("data/induction_run.json").read_text())
run, config = record["run"], record["config"]
print("d_model", config["d_model"], "| heads per layer", config["heads"])
print("steps", run["steps"], "| batch", run["batch"], "| lr", run["lr"])
print("probe:", spell(record["probe"]["tokens"]))
start, end = record["checkpoints"][0], record["checkpoints"][-1]
first = f"{start['first']:.2f} -> {end['first']:.2f}"
print(f"first half: {first} nats (ln 26 = {math.log(26):.2f})")
again = f"{start['repeat']:.2f} -> {end['repeat']:.2f}"
print(f"the repeat: {again} nats")
# --8<-- [end:record]

# --8<-- [start:heads]
from attention_ref.induction import induction_score, previous_token_score

half = record["probe"]["half"]
steps = [c["step"] for c in record["checkpoints"]]
scale = record["attention_scale"]  # thousandths
maps = [np.array(c["attention"]) / scale for c in record["checkpoints"]]
# the best head of layer 1, and of layer 2, at each checkpoint
previous = np.array([previous_token_score(m[0]).max() for m in maps])
induction = np.array([induction_score(m[1], half).max() for m in maps])
repeat = np.array([c["repeat"] for c in record["checkpoints"]])


def halfway(curve):  # the first step past half of the whole change
    middle = (curve[0] + curve[-1]) / 2
    crossed = curve < middle if curve[-1] < curve[0] else curve > middle
    return steps[int(np.argmax(crossed))]


print("half the drop of the repeat's loss: step", halfway(repeat))
print("half the rise of the induction score: step", halfway(induction))
print("half the rise of the previous-token score: step", halfway(previous))
last = maps[-1]  # (layers, heads, n, n) at the end
print(
    "layer 1, previous-token scores:",
    previous_token_score(last[0]).round(2).tolist(),
)
print(
    "layer 2, induction scores:",
    induction_score(last[1], half).round(2).tolist(),
)
# --8<-- [end:heads]

# --8<-- [start:ablations]
ablations = record["ablations"]
print(f"nothing removed: {end['repeat']:.2f} nats")
for row in ablations["heads"]:
    name = f"layer {row['layer'] + 1} · head {row['head'] + 1}"
    print(f"without {name}: {row['repeat']:.2f} nats")
for name, wide in ablations["scale"].items():
    by_step = {c["step"]: c["repeat"] for c in wide["checkpoints"]}
    shown = " ".join(f"{by_step[s]:.2f}" for s in (100, 200, 500, 1500))
    print(f"one head of width {wide['config']['d_model']}, {name}: {shown}")
# --8<-- [end:ablations]
