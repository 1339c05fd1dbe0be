"""Lesson 4's model: a two-layer, attention-only, causal transformer on letters, and Adam.

The model reads a start token and a run of letters, and predicts each next letter:

1. ``x = W_E[tokens] + W_pos[:n]``: a learned embedding of each of the 27 tokens
   (26 letters and a start token) plus a learned embedding of each position;
2. two layers, each ``x = x + MHA(x)``: causal multi-head attention, nothing else (no
   MLP, no layer norm), whose heads write into the same residual stream ``x``;
3. ``logits = x @ W_U``: a score for each of the 27 tokens.

Every gradient is computed by the hand-written backward passes of
:mod:`attention_ref.backward`, in reverse order of the forward. The task
(:func:`repeat_batch`) is a run of random letters followed by the same run again: only
a model that looks up the earlier copy can predict the second half.

>>> import numpy as np
>>> from attention_ref.induction import Config, init_params, loss_and_grads, repeat_batch
>>> config = Config(d_model=16, heads=2, max_len=8)
>>> params = init_params(config, np.random.default_rng(0))
>>> tokens = repeat_batch(np.random.default_rng(1), batch=3, half=4)  # (3, 9)
>>> loss, grads = loss_and_grads(params, tokens, config)
>>> 3.0 < loss < 3.6  # near ln 27 = 3.3 before any training
True
>>> sorted(grads) == sorted(params)
True
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from attention_ref import _validate
from attention_ref.backward import (
    cross_entropy,
    cross_entropy_backward,
    cross_entropy_rows,
    embedding_backward,
    linear_backward,
    scaled_dot_product_attention_backward,
)
from attention_ref.core import attention_weights, softmax
from attention_ref.multi_head import merge_heads, split_heads

FloatArray = npt.NDArray[np.floating[Any]]
IntArray = npt.NDArray[np.integer[Any]]
Params = dict[str, FloatArray]

LETTERS = "abcdefghijklmnopqrstuvwxyz"
START = len(LETTERS)  # token 26, the start of every sequence
VOCAB = len(LETTERS) + 1  # 27 tokens
LAYERS = 2


@dataclass(frozen=True)
class Config:
    """The model's sizes.

    Attributes
    ----------
    d_model : int
        Width of the residual stream.
    heads : int
        Heads per layer; each has width ``d_model // heads``.
    max_len : int
        Positions the model has embeddings for (the longest input).
    scaled : bool
        Divide scores by ``sqrt(d_head)`` (True), or not (the ablation).
    """

    d_model: int = 32
    heads: int = 4
    max_len: int = 24
    scaled: bool = True

    @property
    def d_head(self) -> int:
        return self.d_model // self.heads

    @property
    def scale(self) -> float:
        return 1.0 / math.sqrt(self.d_head) if self.scaled else 1.0


def param_names() -> list[str]:
    """The parameters' names, in a fixed order."""
    names = ["W_E", "W_pos"]
    for layer in range(LAYERS):
        names += [f"{w}{layer}" for w in ("w_q", "w_k", "w_v", "w_o")]
    return [*names, "W_U"]


def init_params(config: Config, rng: np.random.Generator) -> Params:
    """Random starting weights: normal, with standard deviation ``1/sqrt(d_model)``.

    Examples
    --------
    >>> import numpy as np
    >>> from attention_ref.induction import Config, init_params
    >>> p = init_params(Config(d_model=8, heads=2, max_len=6), np.random.default_rng(0))
    >>> p["W_E"].shape, p["W_pos"].shape, p["w_q0"].shape, p["W_U"].shape
    ((27, 8), (6, 8), (8, 8), (8, 27))
    """
    d = config.d_model
    if d % config.heads:
        raise ValueError(f"heads ({config.heads}) must divide d_model ({d})")
    shapes = {"W_E": (VOCAB, d), "W_pos": (config.max_len, d), "W_U": (d, VOCAB)}
    std = 1.0 / math.sqrt(d)
    return {name: rng.standard_normal(shapes.get(name, (d, d))) * std for name in param_names()}


def repeat_batch(rng: np.random.Generator, batch: int, half: int) -> IntArray:
    """Sequences ``[start, a_1 .. a_half, a_1 .. a_half]`` of random letters.

    Returns
    -------
    numpy.ndarray of int, shape (batch, 2 * half + 1)

    Examples
    --------
    >>> import numpy as np
    >>> from attention_ref.induction import repeat_batch, spell
    >>> spell(repeat_batch(np.random.default_rng(0), batch=1, half=5)[0])
    '^wqnhi|wqnhi'
    """
    first = rng.integers(0, len(LETTERS), size=(batch, half))  # (batch, half)
    start = np.full((batch, 1), START)
    return np.concatenate([start, first, first], axis=1)


def spell(tokens: Iterable[int]) -> str:
    """Letters for token ids, ``^`` for the start token and ``|`` where a repeat begins."""
    ids = [int(t) for t in tokens]
    text = "".join("^" if t == START else LETTERS[t] for t in ids)
    half = (len(ids) - 1) // 2
    return text[: half + 1] + "|" + text[half + 1 :] if ids and ids[0] == START else text


def forward(
    params: Mapping[str, FloatArray],
    inputs: IntArray,
    config: Config,
    *,
    ablate: Iterable[tuple[int, int]] = (),
) -> tuple[FloatArray, dict[str, Any]]:
    """Logits for every position, and what the backward pass needs.

    Parameters
    ----------
    params : mapping of str to numpy.ndarray
    inputs : numpy.ndarray of int, shape (batch, n)
        Token ids, ``n <= config.max_len``.
    config : Config
    ablate : iterable of (layer, head), keyword-only
        Heads whose output is replaced by zeros.

    Returns
    -------
    logits : numpy.ndarray, shape (batch, n, 27)
    cache : dict
        The inputs of every step, and each layer's attention weights
        ``cache["weights"][layer]`` of shape (batch, heads, n, n).
    """
    n = inputs.shape[-1]
    if n > config.max_len:
        raise ValueError(f"inputs have {n} positions, the model has {config.max_len}")
    cut = set(ablate)
    x = params["W_E"][inputs] + params["W_pos"][:n]  # (batch, n, d_model)
    cache: dict[str, Any] = {"inputs": inputs, "layers": [], "weights": []}
    for layer in range(LAYERS):
        q = split_heads(x @ params[f"w_q{layer}"], config.heads)  # (batch, heads, n, d_head)
        k = split_heads(x @ params[f"w_k{layer}"], config.heads)
        v = split_heads(x @ params[f"w_v{layer}"], config.heads)
        w = attention_weights(q, k, is_causal=True, scale=config.scale)  # (batch, heads, n, n)
        z = w @ v  # (batch, heads, n, d_head): each head's output
        keep = np.ones((config.heads, 1, 1))
        for lay, head in cut:
            if lay == layer:
                keep[head] = 0.0
        z = z * keep
        merged = merge_heads(z)  # (batch, n, d_model)
        cache["layers"].append({"x": x, "q": q, "k": k, "v": v, "merged": merged, "keep": keep})
        cache["weights"].append(w)
        x = x + merged @ params[f"w_o{layer}"]  # the residual stream
    cache["x_final"] = x
    logits: FloatArray = x @ params["W_U"]  # (batch, n, 27)
    return logits, cache


def backward(
    params: Mapping[str, FloatArray],
    cache: Mapping[str, Any],
    grad_logits: FloatArray,
    config: Config,
) -> Params:
    """The gradient of the loss with respect to every parameter, layer by layer in reverse.

    ``grad_logits`` is ``dL/dlogits`` (batch, n, 27), e.g. from
    :func:`~attention_ref.cross_entropy_backward`.
    """
    grads: Params = {}
    grad_x, grads["W_U"] = linear_backward(cache["x_final"], params["W_U"], grad_logits)
    for layer in reversed(range(LAYERS)):
        c = cache["layers"][layer]
        # x_out = x + merged @ w_o: the residual passes grad_x on unchanged
        grad_merged, grads[f"w_o{layer}"] = linear_backward(
            c["merged"], params[f"w_o{layer}"], grad_x
        )
        grad_z = split_heads(grad_merged, config.heads) * c["keep"]  # (batch, heads, n, d_head)
        grad_q, grad_k, grad_v = scaled_dot_product_attention_backward(
            c["q"], c["k"], c["v"], grad_z, is_causal=True, scale=config.scale
        )
        for name, g in (("w_q", grad_q), ("w_k", grad_k), ("w_v", grad_v)):
            grad_in, grads[f"{name}{layer}"] = linear_backward(
                c["x"], params[f"{name}{layer}"], merge_heads(g)
            )
            grad_x = grad_x + grad_in  # x fed the residual and the three projections
    inputs = cache["inputs"]
    grads["W_E"] = embedding_backward(inputs, grad_x, VOCAB)
    grad_pos = np.zeros_like(params["W_pos"])  # (max_len, d_model)
    grad_pos[: inputs.shape[-1]] = grad_x.sum(axis=0)  # every sequence shares the positions
    grads["W_pos"] = grad_pos
    return grads


def loss_and_grads(
    params: Mapping[str, FloatArray], tokens: IntArray, config: Config
) -> tuple[float, Params]:
    """Mean next-token cross-entropy over every position, and its gradients.

    ``tokens`` (batch, n + 1): the model reads ``tokens[:, :-1]`` and is scored on
    ``tokens[:, 1:]``.
    """
    inputs, targets = tokens[:, :-1], tokens[:, 1:]
    logits, cache = forward(params, inputs, config)
    loss = cross_entropy(logits, targets)
    grads = backward(params, cache, cross_entropy_backward(logits, targets), config)
    return loss, grads


def losses_by_position(
    params: Mapping[str, FloatArray],
    tokens: IntArray,
    config: Config,
    *,
    ablate: Iterable[tuple[int, int]] = (),
) -> FloatArray:
    """The loss of each predicted position, averaged over the batch: shape (n,)."""
    logits, _ = forward(params, tokens[:, :-1], config, ablate=ablate)
    rows: FloatArray = cross_entropy_rows(logits, tokens[:, 1:]).mean(axis=0)
    return rows


@dataclass
class Adam:
    """Adam (Kingma & Ba, 2015): a running mean of the gradient and of its square.

    For each parameter ``θ`` with gradient ``g``, at step ``t = 1, 2, ...``::

        m = β₁ m + (1 - β₁) g          # momentum: the mean gradient
        s = β₂ s + (1 - β₂) g²         # the mean squared gradient
        θ = θ - lr · (m / (1 - β₁ᵗ)) / (sqrt(s / (1 - β₂ᵗ)) + ε)

    The two divisions by ``1 - βᵗ`` undo the bias of averages that start at zero.

    Examples
    --------
    The first step moves every weight by ``lr`` against the sign of its gradient:

    >>> import numpy as np
    >>> from attention_ref.induction import Adam
    >>> params = {"w": np.array([1.0, 1.0])}
    >>> Adam(lr=0.1).step(params, {"w": np.array([3.0, -0.5])})
    >>> params["w"].round(6).tolist()
    [0.9, 1.1]
    """

    lr: float = 1e-3
    beta1: float = 0.9
    beta2: float = 0.999
    eps: float = 1e-8
    t: int = 0

    def __post_init__(self) -> None:
        self.m: Params = {}
        self.s: Params = {}

    def step(self, params: Params, grads: Mapping[str, FloatArray]) -> None:
        """Update ``params`` in place from ``grads``."""
        self.t += 1
        for name, g in grads.items():
            m = self.m.get(name, np.zeros_like(g))
            s = self.s.get(name, np.zeros_like(g))
            m = self.beta1 * m + (1 - self.beta1) * g
            s = self.beta2 * s + (1 - self.beta2) * g * g
            self.m[name], self.s[name] = m, s
            m_hat = m / (1 - self.beta1**self.t)  # bias-corrected mean
            s_hat = s / (1 - self.beta2**self.t)  # bias-corrected mean square
            params[name] = params[name] - self.lr * m_hat / (np.sqrt(s_hat) + self.eps)


def probe_weights(params: Mapping[str, FloatArray], probe: IntArray, config: Config) -> FloatArray:
    """Every head's attention on one sequence: shape (layers, heads, n, n)."""
    _, cache = forward(params, probe[np.newaxis, :-1], config)
    return np.stack([w[0] for w in cache["weights"]])


def previous_token_score(weights: FloatArray) -> FloatArray:
    """Mean attention from each position to the one just before it.

    ``weights (..., n, n)``, a head's causal attention; the mean over queries
    ``1 .. n-1`` of ``weights[i, i-1]``. 1 for a head that always looks one token back.

    Examples
    --------
    >>> import numpy as np
    >>> from attention_ref.induction import previous_token_score
    >>> back = np.eye(4, k=-1)
    >>> back[0, 0] = 1.0  # the first token can only see itself
    >>> float(previous_token_score(back))
    1.0
    """
    n = weights.shape[-1]
    i = np.arange(1, n)
    score: FloatArray = weights[..., i, i - 1].mean(axis=-1)
    return score


def induction_score(weights: FloatArray, half: int) -> FloatArray:
    """Mean attention from each token of the repeat to the token after its first copy.

    For the input ``[start, a_1 .. a_half, a_1 .. a_{half-1}]`` (a probe sequence without
    its last token), the query at position ``half + j`` holds ``a_j``, whose first copy
    sits at ``j``; an induction head attends to the token that followed it, at
    ``j + 1``. The score is the mean of ``weights[half + j, j + 1]`` over
    ``j = 1 .. half - 1`` (Olsson et al. 2022's score on repeated random tokens).

    Examples
    --------
    >>> import numpy as np
    >>> from attention_ref.induction import induction_score
    >>> w = np.zeros((6, 6))  # half = 3: positions 4 and 5 hold a_1 and a_2
    >>> w[4, 2] = w[5, 3] = 1.0
    >>> float(induction_score(w, half=3))
    1.0
    """
    j = np.arange(1, half)
    score: FloatArray = weights[..., half + j, j + 1].mean(axis=-1)
    return score


@dataclass(frozen=True)
class RunSettings:
    """How :func:`train` trains: the same settings give the same run on one machine.

    Attributes
    ----------
    seed : int
        Seeds the starting weights and every batch.
    steps : int
    lr : float
        Adam's learning rate.
    batch : int
        Sequences per step.
    halves : tuple of int
        The shortest and longest first half; each step draws one length.
    checkpoints : tuple of int
        The steps after which every head's attention on the probe is kept (0 = before
        any training).
    """

    seed: int = 0
    steps: int = 1500
    lr: float = 1e-2
    batch: int = 32
    halves: tuple[int, int] = (6, 12)
    checkpoints: tuple[int, ...] = ()


def evaluate(
    params: Mapping[str, FloatArray],
    tokens: IntArray,
    config: Config,
    *,
    ablate: Iterable[tuple[int, int]] = (),
) -> dict[str, float]:
    """The loss on the first half and on the repeat, for sequences of one length.

    ``first``: the mean loss of predicting ``a_1 .. a_half`` (nothing to copy yet);
    ``repeat``: of predicting ``a_2 .. a_half`` of the second copy, where an earlier
    copy can be found (``a_1`` of the repeat is left out: nothing says a repeat starts).
    """
    half = (tokens.shape[-1] - 1) // 2
    rows = losses_by_position(params, tokens, config, ablate=ablate)  # (2 * half,)
    return {"first": float(rows[:half].mean()), "repeat": float(rows[half + 1 :].mean())}


def train(
    config: Config,
    run: RunSettings,
    probe: IntArray,
    eval_tokens: IntArray,
) -> tuple[Params, dict[str, Any]]:
    """Train from ``run.seed`` with Adam and return the weights and the record.

    The record holds the training loss of every step (``loss``) and, at each of
    ``run.checkpoints``, the losses of :func:`evaluate` on ``eval_tokens`` and every
    head's attention on ``probe`` (:func:`probe_weights`).
    """
    rng = np.random.default_rng(run.seed)
    params = init_params(config, rng)
    adam = Adam(lr=run.lr)
    losses: list[float] = []
    checkpoints: list[dict[str, Any]] = []

    def keep(step: int) -> None:
        weights = probe_weights(params, probe, config)  # (layers, heads, n, n)
        checkpoints.append(
            {"step": step, **evaluate(params, eval_tokens, config), "weights": weights}
        )

    if 0 in run.checkpoints:
        keep(0)
    for step in range(1, run.steps + 1):
        half = int(rng.integers(run.halves[0], run.halves[1] + 1))
        loss, grads = loss_and_grads(params, repeat_batch(rng, run.batch, half), config)
        adam.step(params, grads)
        losses.append(loss)
        if step in run.checkpoints:
            keep(step)
    return params, {"loss": losses, "checkpoints": checkpoints}


# --- generating, with and without a cache of keys and values ----------------------------


def encode(text: str) -> list[int]:
    """Token ids for letters, ``^`` standing for the start token (the inverse of :func:`spell`).

    A ``|`` (where :func:`spell` marks the start of a repeat) is skipped.

    Examples
    --------
    >>> from attention_ref.induction import encode, spell
    >>> encode("^abz")
    [26, 0, 1, 25]
    >>> spell(encode("^abz"))
    '^a|bz'
    >>> encode(spell(encode("^abz")))
    [26, 0, 1, 25]
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a string of letters a-z and ^, got {type(text).__name__}")
    bad = sorted({ch for ch in text if ch not in "^|" and ch not in LETTERS})
    if bad:
        raise ValueError(f"text may hold only the letters a-z and ^ (the start token), got {bad}")
    return [START if ch == "^" else LETTERS.index(ch) for ch in text if ch != "|"]


@dataclass
class KVCache:
    """The keys and values every layer has computed so far, one row per token read.

    ``keys[layer]`` and ``values[layer]`` have shape ``(heads, n, d_head)``, where ``n``
    is the number of tokens read so far. A token's key and value depend only on the
    tokens up to it (the model is causal), so they never change once computed: a new
    token appends one row to each and reads all of them.

    Examples
    --------
    >>> from attention_ref.induction import Config, KVCache
    >>> cache = KVCache.empty(Config(d_model=8, heads=2))
    >>> cache.n_tokens, cache.keys[0].shape
    (0, (2, 0, 4))
    """

    keys: list[FloatArray]  # per layer: (heads, n, d_head)
    values: list[FloatArray]  # per layer: (heads, n, d_head)

    @classmethod
    def empty(cls, config: Config) -> KVCache:
        """A cache holding no token yet, for a model of ``config``'s sizes."""
        shape = (config.heads, 0, config.d_head)
        return cls(
            keys=[np.zeros(shape) for _ in range(LAYERS)],
            values=[np.zeros(shape) for _ in range(LAYERS)],
        )

    @property
    def n_tokens(self) -> int:
        """How many tokens the cache holds (the position of the next token)."""
        return int(self.keys[0].shape[-2])

    def append(self, layer: int, k: FloatArray, v: FloatArray) -> None:
        """Add one token's key and value ``(heads, 1, d_head)`` to ``layer``."""
        self.keys[layer] = np.concatenate([self.keys[layer], k], axis=-2)
        self.values[layer] = np.concatenate([self.values[layer], v], axis=-2)

    def nbytes(self) -> int:
        """Bytes the cached keys and values take (see :func:`attention_ref.kv_cache_bytes`)."""
        return sum(int(a.nbytes) for a in (*self.keys, *self.values))


@dataclass(frozen=True)
class DecodeStep:
    """What one token's pass through the model gives.

    Attributes
    ----------
    logits : numpy.ndarray, shape (27,)
        The scores of the next token.
    weights : tuple of numpy.ndarray, one per layer, each of shape (heads, n)
        The new token's attention over the ``n`` cached tokens, itself included.
    """

    logits: FloatArray
    weights: tuple[FloatArray, ...]


def decode_step(
    params: Mapping[str, FloatArray], token: int, cache: KVCache, *, config: Config
) -> DecodeStep:
    """Run one new token through both layers, reading and extending ``cache``.

    The token sits at position ``n = cache.n_tokens``. In each layer it computes its
    own query, key and value (one row each, ``x @ w``), appends the key and value to
    the cache, and attends over the ``n + 1`` cached keys: no mask is needed, since the
    cache holds only this token and the ones before it. The result equals the last row
    of :func:`forward` on the whole sequence (tested within 1e-12).

    Parameters
    ----------
    params : mapping of str to numpy.ndarray
    token : int
        A token id, 0 to 26.
    cache : KVCache
        What the earlier tokens left; extended in place by one row per layer.
    config : Config, keyword-only

    Returns
    -------
    DecodeStep
        The next token's logits (27,) and this token's attention in each layer.

    Raises
    ------
    ValueError
        If the cache already holds ``config.max_len`` tokens (no position is left), or
        the token is not an id 0 to 26.

    Examples
    --------
    >>> import numpy as np
    >>> from attention_ref.induction import Config, KVCache, decode_step, forward, init_params
    >>> config = Config(d_model=8, heads=2, max_len=6)
    >>> params = init_params(config, np.random.default_rng(0))
    >>> cache = KVCache.empty(config)
    >>> steps = [decode_step(params, t, cache, config=config) for t in (26, 3, 4)]
    >>> cache.n_tokens, cache.keys[1].shape, steps[-1].weights[0].shape
    (3, (2, 3, 4), (2, 3))
    >>> full, _ = forward(params, np.array([[26, 3, 4]]), config)  # (1, 3, 27)
    >>> bool(np.allclose(steps[-1].logits, full[0, -1], rtol=0, atol=1e-12))
    True
    """
    position = cache.n_tokens
    if position >= config.max_len:
        raise ValueError(
            f"the cache holds {position} tokens, the model's whole context "
            f"(max_len = {config.max_len}): no position is left for another token"
        )
    token = _token_ids([token], "token")[0]
    heads, d_head = config.heads, config.d_head
    x = params["W_E"][token] + params["W_pos"][position]  # (d_model,)
    weights = []
    for layer in range(LAYERS):
        q = (x @ params[f"w_q{layer}"]).reshape(heads, 1, d_head)  # (heads, 1, d_head)
        k = (x @ params[f"w_k{layer}"]).reshape(heads, 1, d_head)
        v = (x @ params[f"w_v{layer}"]).reshape(heads, 1, d_head)
        cache.append(layer, k, v)  # the cache now holds n + 1 keys and values
        w = attention_weights(q, cache.keys[layer], scale=config.scale)  # (heads, 1, n + 1)
        z = w @ cache.values[layer]  # (heads, 1, d_head): each head's output
        x = x + z.reshape(heads * d_head) @ params[f"w_o{layer}"]  # heads side by side
        weights.append(w[:, 0, :])
    logits: FloatArray = x @ params["W_U"]  # (27,)
    return DecodeStep(logits=logits, weights=tuple(weights))


@dataclass(frozen=True)
class Generation:
    """What :func:`generate` returns.

    Attributes
    ----------
    prompt : tuple of int
        The tokens the model was given.
    tokens : tuple of int
        The ``n_new`` tokens it chose, in order.
    logits : numpy.ndarray, shape (n_new, 27)
        ``logits[t]``: the scores from which ``tokens[t]`` was chosen.
    """

    prompt: tuple[int, ...]
    tokens: tuple[int, ...]
    logits: FloatArray

    @property
    def sequence(self) -> tuple[int, ...]:
        """The prompt followed by the new tokens."""
        return self.prompt + self.tokens


def generate(
    params: Mapping[str, FloatArray],
    prompt: Sequence[int] | IntArray,
    n_new: int,
    *,
    config: Config,
    temperature: float = 0.0,
    seed: int | None = None,
    use_cache: bool = True,
) -> Generation:
    """Continue ``prompt`` by ``n_new`` tokens, one at a time.

    Each step computes the logits of the next token from everything so far, picks a
    token, and appends it:

    - ``use_cache=True``: each token goes once through :func:`decode_step`, which keeps
      every layer's keys and values in a :class:`KVCache` (the prompt too is read token
      by token; a production decoder reads it in one pass, filling the cache with the
      same keys and values);
    - ``use_cache=False``: each step runs :func:`forward` on the whole sequence again
      and keeps its last row.

    Both give the same tokens and logits (tested within 1e-12 in float64);
    :func:`decode_multiply_adds` counts what each costs.

    The model reads at most ``config.max_len`` tokens. The last new token is chosen but
    never read, so ``len(prompt) + n_new - 1`` may be at most ``config.max_len``: a
    prompt that fills the context still gets one new token. Asking for more raises
    ``ValueError`` naming the limit; generation never stops early or truncates.

    Parameters
    ----------
    params : mapping of str to numpy.ndarray
        The model's weights (:func:`init_params`' names and shapes).
    prompt : sequence of int
        At least one token id, each 0 to 26 (:func:`encode` turns letters into ids).
    n_new : int
        How many tokens to add, >= 0.
    config : Config, keyword-only
    temperature : float, default 0.0, keyword-only
        0: greedy, the token of the largest logit (the lowest id among ties, as
        ``numpy.argmax``). Above 0: a draw from ``softmax(logits / temperature)``.
    seed : int, optional, keyword-only
        Seeds ``numpy.random.default_rng`` for the draws (unused when greedy).
    use_cache : bool, default True, keyword-only

    Returns
    -------
    Generation
        The prompt, the new tokens and the logits of every step.

    Raises
    ------
    ValueError
        For an empty prompt, a token id outside 0..26, a prompt longer than
        ``config.max_len``, too many new tokens for the context, a negative ``n_new``
        or a negative or non-finite temperature.
    TypeError
        For token ids that are not integers, or an ``n_new`` that is not one.

    Examples
    --------
    >>> import numpy as np
    >>> from attention_ref.induction import Config, encode, generate, init_params, spell
    >>> config = Config(d_model=8, heads=2, max_len=8)
    >>> params = init_params(config, np.random.default_rng(0))
    >>> out = generate(params, encode("^abc"), 3, config=config)
    >>> len(out.tokens), out.logits.shape
    (3, (3, 27))
    >>> slow = generate(params, encode("^abc"), 3, config=config, use_cache=False)
    >>> slow.tokens == out.tokens
    True
    """
    tokens = _token_ids(prompt, "prompt")
    new = _validate.positive_int(n_new, "n_new", allow_zero=True)
    if not tokens:
        raise ValueError("prompt is empty: give at least one token (the start token, 26, say)")
    if len(tokens) > config.max_len:
        raise ValueError(
            f"prompt has {len(tokens)} tokens, longer than the model's context "
            f"(max_len = {config.max_len})"
        )
    if len(tokens) + new - 1 > config.max_len:
        raise ValueError(
            f"a prompt of {len(tokens)} tokens leaves room for at most "
            f"{config.max_len + 1 - len(tokens)} new tokens (max_len = {config.max_len}; "
            f"the last new token is never read), got n_new = {new}"
        )
    temp = _validate_temperature(temperature)
    rng = np.random.default_rng(seed)
    prompt_ids = tuple(tokens)
    cache = KVCache.empty(config)
    step_logits: list[FloatArray] = []
    chosen: list[int] = []
    pending = list(tokens)  # tokens the model has not read yet
    for _ in range(new):
        if use_cache:
            for t in pending:
                logits = decode_step(params, t, cache, config=config).logits  # (27,)
        else:
            full, _ = forward(params, np.array([tokens]), config)  # (1, n, 27)
            logits = full[0, -1]
        token = _pick(logits, temp, rng)
        step_logits.append(logits)
        chosen.append(token)
        tokens.append(token)
        pending = [token]
    stacked = np.array(step_logits).reshape(new, VOCAB)  # (n_new, 27)
    return Generation(prompt=prompt_ids, tokens=tuple(chosen), logits=stacked)


def _pick(logits: FloatArray, temperature: float, rng: np.random.Generator) -> int:
    """The next token: greedy at temperature 0 (lowest id among ties), else a draw."""
    if temperature == 0.0:
        return int(np.argmax(logits))
    probs = softmax(logits / temperature)  # (27,)
    return int(rng.choice(VOCAB, p=probs))


def _token_ids(tokens: Sequence[int] | IntArray, name: str) -> list[int]:
    """``tokens`` as a list of ints after checking each is an id 0 to 26."""
    if isinstance(tokens, str):
        raise TypeError(f"{name} must be token ids, not a string (encode({tokens!r}) gives them)")
    arr = np.asarray(tokens)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-D sequence of token ids, got shape {arr.shape}")
    if arr.size and (arr.dtype.kind not in "iu"):
        raise TypeError(f"{name} must hold integer token ids, got dtype {arr.dtype}")
    bad = [int(t) for t in arr if not 0 <= int(t) < VOCAB]
    if bad:
        raise ValueError(f"{name} holds ids outside 0..{VOCAB - 1}: {bad[:5]}")
    return [int(t) for t in arr]


def _validate_temperature(temperature: object) -> float:
    if isinstance(temperature, bool | np.bool_) or not isinstance(temperature, numbers.Real):
        raise TypeError(f"temperature must be a real number, got {temperature!r}")
    value = float(temperature)
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"temperature must be finite and >= 0, got {value!r}")
    return value


def decode_multiply_adds(config: Config, n_context: int, *, use_cache: bool) -> int:
    """Multiply-adds to get the next token's logits when the context holds ``n_context`` tokens.

    With ``L = 2`` layers, ``D = d_model`` and ``V = 27`` tokens, and ``n = n_context``:

    - with the cache, one new row goes through each layer's four projections
      (``4 D^2``), meets the ``n`` cached keys (``n D`` over all heads) and sums the
      ``n`` cached values (``n D``); then the one row is unembedded::

          L (4 D^2 + 2 n D) + D V

    - without it, :func:`forward` runs the whole prefix again: ``n`` rows through the
      projections, the causal scores (row ``i`` meets ``i + 1`` keys, ``n (n + 1) / 2``
      pairs) and their weighted sums, and every row unembedded (masked scores, which
      ``forward`` computes and then discards, are not counted)::

          L (4 n D^2 + n (n + 1) D) + n D V

    Parameters
    ----------
    config : Config
    n_context : int
        Tokens in the context, the new one included, >= 1.
    use_cache : bool, keyword-only

    Returns
    -------
    int

    Examples
    --------
    >>> from attention_ref.induction import Config, decode_multiply_adds
    >>> config = Config(d_model=32, heads=4, max_len=24)
    >>> decode_multiply_adds(config, 24, use_cache=True)
    12128
    >>> decode_multiply_adds(config, 24, use_cache=False)
    255744
    """
    n = _validate.positive_int(n_context, "n_context")
    if not isinstance(use_cache, bool | np.bool_):
        raise TypeError(f"use_cache must be True or False, got {use_cache!r}")
    d, v = config.d_model, VOCAB
    if use_cache:
        return LAYERS * (4 * d * d + 2 * n * d) + d * v
    return LAYERS * (4 * n * d * d + n * (n + 1) * d) + n * d * v


__all__ = [
    "LETTERS",
    "START",
    "VOCAB",
    "Adam",
    "Config",
    "DecodeStep",
    "Generation",
    "KVCache",
    "RunSettings",
    "backward",
    "decode_multiply_adds",
    "decode_step",
    "encode",
    "evaluate",
    "forward",
    "generate",
    "induction_score",
    "init_params",
    "loss_and_grads",
    "losses_by_position",
    "param_names",
    "previous_token_score",
    "probe_weights",
    "repeat_batch",
    "spell",
    "train",
]
