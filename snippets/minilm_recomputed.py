"""all-MiniLM-L6-v2 run by attention_ref, checked against the data PyTorch saved.

Run the file on its own from the repository's root with
``python snippets/minilm_recomputed.py``.
"""

# --8<-- [start:run]
import json
from pathlib import Path

import numpy as np

from attention_ref.minilm import load_minilm

model = load_minilm()
text = "The animal didn't cross the street because it was too tired."
run = model.run(text)
print(len(run.tokens), "tokens")
print(" ".join(run.tokens))
print("attentions", run.attentions.shape)  # (layers, heads, n, n)
print("hidden states", run.hidden_states.shape)  # (layers + 1, n, 384)
# --8<-- [end:run]

# --8<-- [start:it_row]
it, animal = run.tokens.index("it"), run.tokens.index("animal")
# The head where "it" gives "animal" the most weight.
to_animal = run.attentions[:, :, it, animal]  # (layers, heads)
layer, head = np.unravel_index(to_animal.argmax(), to_animal.shape)
row = run.attentions[layer, head, it]  # one weight per token
# Arrays count from 0; pages and widgets count layers and heads from 1.
where = f"attentions[{layer}, {head}] in the code"
print(f"layer {layer + 1}, head {head + 1} ({where})")
for i in row.argsort()[::-1][:4]:
    print(f"  {run.tokens[i]:<8} {row[i]:.4f}")
# --8<-- [end:it_row]

# --8<-- [start:oracle]
saved = json.loads(Path("data/it_attention.json").read_text())
made_by = saved["versions"]  # what produced the file
print("saved by transformers", made_by["transformers"], end=" ")
print("on torch", made_by["torch"])
worst = 0.0
for sentence in saved["sentences"]:  # "... too tired." and "... too wide."
    ours = model.run(sentence["text"])
    theirs = np.array(sentence["attention"]) / saved["scale"]
    assert ours.tokens == sentence["tokens"]
    worst = max(worst, np.abs(ours.attentions - theirs).max())
    print(
        f"{sentence['id']:<5} it -> animal: saved",
        f"{theirs[layer, head, it, animal]:.4f}, ours",
        f"{ours.attentions[layer, head, it, animal]:.4f}",
    )
# The file keeps 4 decimals: a weight may differ by half of the last one.
print("largest difference", round(worst * saved["scale"], 1), "x 1/10000")
rounding = 0.5 / saved["scale"]
print("within the file's rounding:", bool(worst < rounding + 1e-5))
# --8<-- [end:oracle]

# --8<-- [start:path]
states = run.hidden_states[:, it]  # (layers + 1, 384): "it" after each step
start = states[0]  # the embeddings' output
print("layer  norm  cosine with its input  with the layer before")
for i, v in enumerate(states):
    before = states[max(i - 1, 0)]
    cos_start = v @ start / np.linalg.norm(v) / np.linalg.norm(start)
    cos_before = v @ before / np.linalg.norm(v) / np.linalg.norm(before)
    norm = np.linalg.norm(v)
    print(f"{i:>5} {norm:5.1f} {cos_start:12.2f} {cos_before:19.2f}")
# --8<-- [end:path]
