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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from attention_ref.backward import (
    cross_entropy,
    cross_entropy_backward,
    cross_entropy_rows,
    embedding_backward,
    linear_backward,
    scaled_dot_product_attention_backward,
)
from attention_ref.core import attention_weights
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


__all__ = [
    "LETTERS",
    "START",
    "VOCAB",
    "Adam",
    "Config",
    "RunSettings",
    "backward",
    "evaluate",
    "forward",
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
