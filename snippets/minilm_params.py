"""all-MiniLM-L6-v2's parameters, counted from the arrays of its weights file.

Run the file on its own from the repository's root with
``python snippets/minilm_params.py``.
"""

# --8<-- [start:split]
from attention_ref.minilm import load_minilm

model = load_minilm()


def part(name):
    if name == "embeddings.position_ids":
        return None  # a table of 0..511 the file keeps, not learned
    if name.startswith("pooler."):
        return "pooler (unused)"  # mean pooling replaces it
    if "LayerNorm" in name:
        return "norms"
    if name.startswith("embeddings."):
        return "embeddings"
    return "attention" if ".attention." in name else "feed-forward"


counts = {}
for name, w in model.weights.items():
    if part(name) is not None:
        counts[part(name)] = counts.get(part(name), 0) + w.size
used = sum(n for p, n in counts.items() if p != "pooler (unused)")
for p in (
    "embeddings",
    "attention",
    "feed-forward",
    "norms",
    "pooler (unused)",
):
    print(f"{p:<16} {counts[p]:>11,}  {counts[p] / used:6.2%}")
print(f"{'total, used':<16} {used:>11,}")
print(f"{'the word table':<16} {model.word_embeddings.size:>11,}")
# --8<-- [end:split]
