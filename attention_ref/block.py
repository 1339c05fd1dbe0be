"""The transformer block's other parts: layer normalisation, GELU, the feed-forward network.

With :func:`~attention_ref.multi_head_attention` they make a BERT encoder layer
(:func:`encoder_layer`), post-LayerNorm: each sub-layer's output is added to its input
(the residual stream) and the sum is normalised::

    x = layer_norm(x + multi_head_attention(x))
    x = layer_norm(x + feed_forward(x))

Everything is numpy, in the row-vector convention of the lesson (``y = x @ w + b``,
one row per token).

>>> import numpy as np
>>> from attention_ref.block import gelu, layer_norm
>>> layer_norm([[1.0, 2.0, 3.0]], gain=[1, 1, 1], bias=[0, 0, 0]).round(4).tolist()
[[-1.2247, 0.0, 1.2247]]
>>> gelu([-1.0, 0.0, 1.0]).round(4).tolist()
[-0.1587, 0.0, 0.8413]
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, Literal, overload

import numpy as np
import numpy.typing as npt

from attention_ref import _validate
from attention_ref.multi_head import _attend

FloatArray = npt.NDArray[np.floating[Any]]

#: BERT's LayerNorm epsilon (``layer_norm_eps`` in the model's config).
BERT_EPS = 1e-12

_erf_each = np.frompyfunc(math.erf, 1, 1)  # math.erf on every element (object array out)
_erfc_each = np.frompyfunc(math.erfc, 1, 1)  # erfc(z) = 1 - erf(z), exact where erf is near -1


def erf(x: npt.ArrayLike) -> FloatArray:
    """The error function ``erf(x) = 2/sqrt(pi) * integral_0^x exp(-t^2) dt``, element-wise.

    ``math.erf`` applied to every element, computed in float64; float32 and float16
    inputs are rounded back to their own type.

    Parameters
    ----------
    x : array_like
        Real numbers; NaN gives NaN, ``+-inf`` gives ``+-1``.

    Returns
    -------
    numpy.ndarray
        The same shape as ``x``; float64 for integer input.

    Raises
    ------
    TypeError
        If ``x`` is not real and numeric.

    Examples
    --------
    >>> from attention_ref.block import erf
    >>> erf([0.0, 0.5, -2.0]).round(6).tolist()
    [0.0, 0.5205, -0.995322]
    """
    arr = _validate.real_array(x, "x")
    out = np.asarray(_erf_each(arr.astype(np.float64, copy=False)), dtype=np.float64)
    return out.astype(arr.dtype, copy=False) if arr.dtype != np.float64 else out


# ---------------------------------------------------------------------------------------
# The block's functions
# ---------------------------------------------------------------------------------------


def gelu(x: npt.ArrayLike) -> FloatArray:
    """The exact Gaussian error linear unit, ``x * Phi(x) = x/2 * (1 + erf(x/sqrt(2)))``.

    The erf-based GELU that BERT (and ``torch.nn.functional.gelu``'s default) uses, not
    the ``tanh`` approximation. ``Phi`` is the standard normal CDF: a negative input is
    kept with the probability that a normal draw is below it.

    Parameters
    ----------
    x : array_like
        Finite real numbers, any shape.

    Returns
    -------
    numpy.ndarray
        The same shape and floating dtype as ``x`` (float64 for integers), computed in
        float64.

    Raises
    ------
    ValueError
        If ``x`` contains NaN or an infinity.
    TypeError
        If ``x`` is not real and numeric.

    Examples
    --------
    >>> import math
    >>> from attention_ref.block import gelu
    >>> math.isclose(float(gelu(1.0)), 0.5 * (1 + math.erf(1 / math.sqrt(2))), rel_tol=1e-15)
    True
    >>> gelu([-3.0, -0.5, 0.0, 2.0]).round(6).tolist()
    [-0.00405, -0.154269, 0.0, 1.9545]
    """
    arr = _validate.real_array(x, "x")
    _validate.finite(arr, "x")
    return _gelu(arr)


def _gelu(arr: FloatArray) -> FloatArray:
    x64 = arr.astype(np.float64, copy=False)
    # 1 + erf(x / sqrt 2) = erfc(-x / sqrt 2): the same number, without the cancellation
    # that leaves 1 + erf a few units of 1e-16 wide where erf is close to -1 (x < -5)
    out = np.asarray(_erfc_each(x64 * -math.sqrt(0.5)), dtype=np.float64)
    out *= 0.5
    out *= x64
    return out.astype(arr.dtype, copy=False)


def layer_norm(
    x: npt.ArrayLike,
    gain: npt.ArrayLike,
    bias: npt.ArrayLike,
    *,
    eps: float = BERT_EPS,
) -> FloatArray:
    """Normalise every row (token) over its features, then scale and shift it.

    ``(x - mean) / sqrt(var + eps) * gain + bias``, with the mean and the biased
    variance (divided by ``d``, not ``d - 1``) taken over the last axis, as
    ``torch.nn.LayerNorm``.

    Parameters
    ----------
    x : array_like, shape (..., d)
        One row per token.
    gain, bias : array_like, shape (d,)
        The learned per-feature scale and shift (``weight`` and ``bias`` in torch).
    eps : float, keyword-only
        Added to the variance; finite and > 0. Default 1e-12, BERT's.

    Returns
    -------
    numpy.ndarray, shape (..., d)
        Before ``gain`` and ``bias``, every row has mean 0 and variance
        ``var / (var + eps)``, i.e. 1 unless the row is (nearly) constant.

    Raises
    ------
    ValueError
        If ``x`` is 0-D or has rows of width 0, ``gain`` or ``bias`` is not ``(d,)``,
        an input holds NaN or an infinity, or ``eps`` is not finite and > 0.
    TypeError
        If an input is not real and numeric, or ``eps`` is not a real number.

    Examples
    --------
    The row ``[1, 2, 3]`` has mean 2 and variance ``(1 + 0 + 1) / 3 = 2/3``, so it
    becomes ``[-1, 0, 1] / sqrt(2/3) = [-1.2247, 0, 1.2247]``; then gain and bias:

    >>> from attention_ref.block import layer_norm
    >>> layer_norm([1.0, 2.0, 3.0], gain=[2, 2, 2], bias=[0, 1, 0]).round(4).tolist()
    [-2.4495, 1.0, 2.4495]
    >>> layer_norm([1.0, 2.0, 3.0], [1, 1], [0, 0])
    Traceback (most recent call last):
    ...
    ValueError: gain must have shape (d,) = (3,), the width of x's rows, got (2,)
    """
    arr = _validate.real_array(x, "x")
    _validate.ndim_at_least(arr, 1, "x", "(..., d)")
    d = arr.shape[-1]
    if d == 0:
        raise ValueError(f"x has rows of width d = 0 (shape {arr.shape}); need >= 1")
    _validate.finite(arr, "x")
    g = _vector(gain, "gain", d, "the width of x's rows")
    b = _vector(bias, "bias", d, "the width of x's rows")
    return _layer_norm(arr, g, b, _positive_eps(eps))


def _layer_norm(x: FloatArray, gain: FloatArray, bias: FloatArray, eps: float) -> FloatArray:
    mean = x.mean(axis=-1, keepdims=True)  # (..., 1)
    centred: FloatArray = x - mean  # (..., d)
    var = np.mean(centred * centred, axis=-1, keepdims=True)  # (..., 1), divided by d
    centred /= np.sqrt(var + eps)
    centred *= gain
    centred += bias
    return centred


def feed_forward(
    x: npt.ArrayLike,
    w_1: npt.ArrayLike,
    b_1: npt.ArrayLike,
    w_2: npt.ArrayLike,
    b_2: npt.ArrayLike,
) -> FloatArray:
    """The position-wise feed-forward network: ``gelu(x @ w_1 + b_1) @ w_2 + b_2``.

    Every row (token) goes through the same two-layer network on its own: no token
    sees another here.

    Parameters
    ----------
    x : array_like, shape (..., n, d_model)
    w_1 : array_like, shape (d_model, d_ff)
        Into the wider hidden layer (``d_ff`` is 4 ``d_model`` in BERT).
    b_1 : array_like, shape (d_ff,)
    w_2 : array_like, shape (d_ff, d_model)
        Back to the model's width.
    b_2 : array_like, shape (d_model,)

    Returns
    -------
    numpy.ndarray, shape (..., n, d_model)

    Raises
    ------
    ValueError
        If a shape does not fit (the error names the argument) or an input holds NaN
        or an infinity.
    TypeError
        If an input is not real and numeric.

    Examples
    --------
    One token, ``d_model = 1``, ``d_ff = 2``: the hidden layer is ``[x, -x]``, GELU
    keeps ``gelu(2) = 1.9545`` and ``gelu(-2) = -0.0455``, and ``w_2`` subtracts them.

    >>> from attention_ref.block import feed_forward
    >>> feed_forward([[2.0]], w_1=[[1, -1]], b_1=[0, 0], w_2=[[1], [-1]], b_2=[0]).round(4).tolist()
    [[2.0]]
    >>> feed_forward([[2.0]], [[1, -1]], [0, 0, 0], [[1], [-1]], [0])
    Traceback (most recent call last):
    ...
    ValueError: b_1 must have shape (d_ff,) = (2,), the columns of w_1, got (3,)
    """
    arr = _validate.sequence(x, "x")
    d_model = arr.shape[-1]
    w1, b1, w2, b2 = _ffn_weights((w_1, b_1, w_2, b_2), d_model)
    return _feed_forward(arr, w1, b1, w2, b2)


def _feed_forward(
    x: FloatArray, w_1: FloatArray, b_1: FloatArray, w_2: FloatArray, b_2: FloatArray
) -> FloatArray:
    hidden = np.matmul(x, w_1)  # (..., n, d_ff)
    hidden += b_1
    out: FloatArray = np.matmul(_gelu(hidden), w_2)  # (..., n, d_model)
    out += b_2
    return out


def _ffn_weights(
    ffn: tuple[npt.ArrayLike, npt.ArrayLike, npt.ArrayLike, npt.ArrayLike], d_model: int
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """``(w_1, b_1, w_2, b_2)`` checked against ``d_model`` and each other, as arrays."""
    w_1, b_1, w_2, b_2 = ffn
    w1 = _validate.real_array(w_1, "w_1")
    if w1.ndim != 2 or w1.shape[0] != d_model or w1.shape[1] == 0:
        raise ValueError(
            f"w_1 must have shape (d_model, d_ff) with d_model = {d_model} "
            f"(the width of x's rows) and d_ff >= 1, got {w1.shape}"
        )
    d_ff = w1.shape[1]
    _validate.finite(w1, "w_1")
    b1 = _vector(b_1, "b_1", d_ff, "the columns of w_1", symbol="d_ff")
    w2 = _validate.real_array(w_2, "w_2")
    if w2.shape != (d_ff, d_model):
        raise ValueError(
            f"w_2 must have shape (d_ff, d_model) = ({d_ff}, {d_model}), got {w2.shape}"
        )
    _validate.finite(w2, "w_2")
    b2 = _vector(b_2, "b_2", d_model, "the width of x's rows", symbol="d_model")
    return w1, b1, w2, b2


def _vector(v: npt.ArrayLike, name: str, d: int, what: str, *, symbol: str = "d") -> FloatArray:
    arr = _validate.real_array(v, name)
    if arr.shape != (d,):
        raise ValueError(f"{name} must have shape ({symbol},) = ({d},), {what}, got {arr.shape}")
    _validate.finite(arr, name)
    return arr


def _positive_eps(eps: object) -> float:
    return _validate.real_above(eps, "eps", 0)


# ---------------------------------------------------------------------------------------
# The encoder layer
# ---------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, eq=False)
class EncoderLayerWeights:
    """The learned parameters of one post-LN encoder layer (BERT's), checked on creation.

    Row-vector convention: ``Q = x @ w_q + b_q``. A torch ``nn.Linear`` stores the
    transpose: ``w_q`` is ``linear.weight.T``.

    Attributes
    ----------
    w_q, w_k, w_v, w_o : numpy.ndarray, shape (d_model, d_model)
        The attention's projections.
    b_q, b_k, b_v, b_o : numpy.ndarray, shape (d_model,)
        Their biases.
    norm1_gain, norm1_bias : numpy.ndarray, shape (d_model,)
        The LayerNorm after the attention's residual sum.
    w_1, b_1, w_2, b_2 : numpy.ndarray
        The feed-forward network, shapes as in :func:`feed_forward`.
    norm2_gain, norm2_bias : numpy.ndarray, shape (d_model,)
        The LayerNorm after the feed-forward's residual sum.

    Examples
    --------
    >>> import numpy as np
    >>> from attention_ref.block import EncoderLayerWeights
    >>> layer = EncoderLayerWeights.random(d_model=8, d_ff=32, seed=0)
    >>> layer.d_model, layer.d_ff
    (8, 32)
    >>> layer.parameter_counts()
    {'attention': 288, 'feed_forward': 552, 'norms': 32}
    """

    w_q: FloatArray
    b_q: FloatArray
    w_k: FloatArray
    b_k: FloatArray
    w_v: FloatArray
    b_v: FloatArray
    w_o: FloatArray
    b_o: FloatArray
    norm1_gain: FloatArray
    norm1_bias: FloatArray
    w_1: FloatArray
    b_1: FloatArray
    w_2: FloatArray
    b_2: FloatArray
    norm2_gain: FloatArray
    norm2_bias: FloatArray

    def __post_init__(self) -> None:
        w_q = _validate.real_array(self.w_q, "w_q")
        if w_q.ndim != 2 or w_q.shape[0] != w_q.shape[1] or w_q.shape[0] == 0:
            raise ValueError(f"w_q must have shape (d_model, d_model), got {w_q.shape}")
        d = w_q.shape[0]
        checked: dict[str, FloatArray] = {}
        for name in ("w_q", "w_k", "w_v", "w_o"):
            checked[name] = _validate.square_weight(getattr(self, name), name, d)
        vectors = (
            "b_q",
            "b_k",
            "b_v",
            "b_o",
            "norm1_gain",
            "norm1_bias",
            "norm2_gain",
            "norm2_bias",
        )
        for name in vectors:
            checked[name] = _vector(
                getattr(self, name), name, d, "the rows of w_q", symbol="d_model"
            )
        ffn = _ffn_weights((self.w_1, self.b_1, self.w_2, self.b_2), d)
        checked.update(zip(("w_1", "b_1", "w_2", "b_2"), ffn, strict=True))
        for name, arr in checked.items():
            object.__setattr__(self, name, arr)

    @property
    def d_model(self) -> int:
        """The model's width (the rows of ``w_q``)."""
        return int(self.w_q.shape[0])

    @property
    def d_ff(self) -> int:
        """The feed-forward network's hidden width (the columns of ``w_1``)."""
        return int(self.w_1.shape[1])

    def parameter_counts(self) -> dict[str, int]:
        """How many numbers the layer learns, by part: attention, feed-forward, norms."""
        groups = {
            "attention": ("w_q", "b_q", "w_k", "b_k", "w_v", "b_v", "w_o", "b_o"),
            "feed_forward": ("w_1", "b_1", "w_2", "b_2"),
            "norms": ("norm1_gain", "norm1_bias", "norm2_gain", "norm2_bias"),
        }
        return {
            part: sum(int(getattr(self, name).size) for name in names)
            for part, names in groups.items()
        }

    @classmethod
    def random(
        cls, d_model: int, d_ff: int, *, seed: int = 0, dtype: npt.DTypeLike = np.float64
    ) -> EncoderLayerWeights:
        """Random weights for experiments: normal, scaled by ``1/sqrt(fan_in)``; gains 1.

        Examples
        --------
        >>> from attention_ref.block import EncoderLayerWeights
        >>> EncoderLayerWeights.random(4, 16, seed=1).w_1.shape
        (4, 16)
        """
        d = _validate.positive_int(d_model, "d_model")
        f = _validate.positive_int(d_ff, "d_ff")
        rng = np.random.default_rng(seed)

        def normal(*shape: int) -> FloatArray:
            return (rng.standard_normal(shape) / math.sqrt(shape[0])).astype(dtype)

        def small(n: int) -> FloatArray:
            return (0.1 * rng.standard_normal(n)).astype(dtype)

        return cls(
            w_q=normal(d, d),
            b_q=small(d),
            w_k=normal(d, d),
            b_k=small(d),
            w_v=normal(d, d),
            b_v=small(d),
            w_o=normal(d, d),
            b_o=small(d),
            norm1_gain=np.ones(d, dtype=dtype),
            norm1_bias=np.zeros(d, dtype=dtype),
            w_1=normal(d, f),
            b_1=small(f),
            w_2=normal(f, d),
            b_2=small(d),
            norm2_gain=np.ones(d, dtype=dtype),
            norm2_bias=np.zeros(d, dtype=dtype),
        )


# The two typings: the output alone, or with the weights (return_weights=True).
@overload
def encoder_layer(
    x: npt.ArrayLike, weights: EncoderLayerWeights, *, num_heads: int,
    mask: npt.ArrayLike | None = ..., eps: float = ..., return_weights: Literal[False] = ...,
) -> FloatArray: ...  # fmt: skip
@overload
def encoder_layer(
    x: npt.ArrayLike, weights: EncoderLayerWeights, *, num_heads: int,
    mask: npt.ArrayLike | None = ..., eps: float = ..., return_weights: Literal[True],
) -> tuple[FloatArray, FloatArray]: ...  # fmt: skip


def encoder_layer(
    x: npt.ArrayLike,
    weights: EncoderLayerWeights,
    *,
    num_heads: int,
    mask: npt.ArrayLike | None = None,
    eps: float = BERT_EPS,
    return_weights: bool = False,
) -> FloatArray | tuple[FloatArray, FloatArray]:
    """One post-LayerNorm encoder layer, as BERT's: attention, then feed-forward.

    ::

        a = layer_norm(x + multi_head_attention(x), norm1_gain, norm1_bias)
        y = layer_norm(a + feed_forward(a), norm2_gain, norm2_bias)

    Each sub-layer writes a change into the residual stream, and the sum is normalised
    after it (post-LN; GPT-2 and most recent models normalise before, "pre-LN").

    Parameters
    ----------
    x : array_like, shape (..., n, d_model)
        One row per token.
    weights : EncoderLayerWeights
        The layer's parameters.
    num_heads : int, keyword-only
        A positive divisor of ``d_model``.
    mask : array_like, optional, keyword-only
        As in :func:`~attention_ref.multi_head_attention` (True = may attend).
    eps : float, keyword-only
        The LayerNorms' epsilon; default 1e-12 (BERT's).
    return_weights : bool, keyword-only
        Also return the attention weights, ``(..., num_heads, n, n)``.

    Returns
    -------
    numpy.ndarray, shape (..., n, d_model)
        The layer's output, in the dtype numpy promotes ``x`` and the weights to.
    tuple of (output, weights), if ``return_weights``

    Raises
    ------
    ValueError
        If ``x`` is not ``(..., n, d_model)`` with the weights' ``d_model``, holds NaN
        or an infinity, ``num_heads`` does not divide ``d_model``, the mask does not
        fit, or ``eps`` is not finite and > 0.
    TypeError
        If ``weights`` is not an :class:`EncoderLayerWeights`, or an input is not numeric.

    Examples
    --------
    >>> import numpy as np
    >>> from attention_ref.block import EncoderLayerWeights, encoder_layer
    >>> layer = EncoderLayerWeights.random(d_model=8, d_ff=32, seed=0)
    >>> x = np.random.default_rng(1).standard_normal((5, 8))  # 5 tokens
    >>> y, w = encoder_layer(x, layer, num_heads=2, return_weights=True)
    >>> y.shape, w.shape
    ((5, 8), (2, 5, 5))
    >>> bool(np.abs(y.mean(axis=-1)).max() < 1e-12)  # the last LayerNorm: gain 1, bias 0
    True
    """
    if not isinstance(weights, EncoderLayerWeights):
        raise TypeError(f"weights must be an EncoderLayerWeights, got {type(weights).__name__}")
    arr = _validate.sequence(x, "x")
    if arr.shape[-1] != weights.d_model:
        raise ValueError(
            f"x must have rows of width d_model = {weights.d_model} (the weights'), "
            f"got shape {arr.shape}"
        )
    if arr.shape[-2] == 0:
        raise ValueError(f"x holds no tokens (shape {arr.shape}); attention needs at least one")
    e = _positive_eps(eps)
    heads = _validate.num_heads(num_heads, weights.d_model)
    w = weights
    attended, att = _attend(
        arr,
        arr,
        (w.w_q, w.w_k, w.w_v, w.w_o),
        (w.b_q, w.b_k, w.b_v, w.b_o),
        heads,
        mask,
        False,
        "x",
    )
    attended += arr
    a = _layer_norm(attended, w.norm1_gain, w.norm1_bias, e)  # (..., n, d_model)
    y = _feed_forward(a, w.w_1, w.b_1, w.w_2, w.b_2)
    y += a
    out = _layer_norm(y, w.norm2_gain, w.norm2_bias, e)
    return (out, att) if return_weights else out
