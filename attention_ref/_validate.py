"""Input checks shared by the public functions.

Every check runs before any arithmetic, and every error names the argument
that was wrong together with its shape or dtype, so a learner can fix the call
without reading a numpy traceback.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.floating[Any]]
BoolArray = npt.NDArray[np.bool_]


def real_array(x: npt.ArrayLike, name: str) -> FloatArray:
    """Return ``x`` as a floating-point array.

    float16/32/64 arrays are returned unchanged (no copy); integer and boolean
    arrays become float64. Anything else (complex, object, strings, dates...)
    raises ``TypeError``.
    """
    try:
        arr = np.asarray(x)
    except (ValueError, TypeError) as err:  # ragged nested lists, odd objects
        raise TypeError(f"{name} must be a numeric array; numpy could not read it: {err}") from None
    if arr.dtype.kind == "f":
        return arr
    if arr.dtype.kind in "biu":
        return arr.astype(np.float64)
    raise TypeError(
        f"{name} must hold real numbers (float, int or bool), got dtype {arr.dtype} "
        f"with shape {arr.shape}"
    )


def finite(arr: FloatArray, name: str) -> None:
    """Raise ``ValueError`` if ``arr`` holds a NaN or an infinity."""
    if not np.isfinite(arr).all():
        bad = "NaN" if np.isnan(arr).any() else "an infinite value"
        raise ValueError(f"{name} contains {bad} (shape {arr.shape}); every entry must be finite")


def no_nan(arr: FloatArray, name: str) -> None:
    """Raise ``ValueError`` if ``arr`` holds a NaN."""
    if np.isnan(arr).any():
        raise ValueError(f"{name} contains NaN (shape {arr.shape})")


def no_pos_inf(arr: FloatArray, name: str) -> None:
    """Raise ``ValueError`` if ``arr`` holds ``+inf`` (``-inf`` is allowed: it means "masked")."""
    if np.isposinf(arr).any():
        raise ValueError(
            f"{name} contains +inf (shape {arr.shape}); only -inf (weight 0) is allowed"
        )


def ndim_at_least(arr: FloatArray, ndim: int, name: str, layout: str) -> None:
    """Raise ``ValueError`` if ``arr`` has fewer than ``ndim`` dimensions."""
    if arr.ndim < ndim:
        raise ValueError(
            f"{name} must have shape {layout} (at least {ndim}-D), "
            f"got {arr.ndim}-D shape {arr.shape}"
        )


def positive_scale(scale: object) -> float:
    """Return ``scale`` as a float after checking it is a finite number > 0."""
    return real_above(scale, "scale", 0)


def real_above(x: object, name: str, floor: int, why: str = "") -> float:
    """Return ``x`` as a float after checking it is a finite real number > ``floor``.

    ``why``, when given, follows the bound in the message, e.g. `` (frequencies must fall)``.
    """
    if isinstance(x, bool | np.bool_) or not isinstance(x, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(x).__name__} {x!r}")
    value = float(x)
    if not math.isfinite(value) or value <= floor:
        raise ValueError(f"{name} must be finite and > {floor}{why}, got {value!r}")
    return value


def positive_int(n: object, name: str, *, allow_zero: bool = False) -> int:
    """Return ``n`` as an int after checking it is an integer >= 1 (or >= 0)."""
    if isinstance(n, bool | np.bool_) or not isinstance(n, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(n).__name__} {n!r}")
    low = 0 if allow_zero else 1
    if int(n) < low:
        raise ValueError(f"{name} must be >= {low}, got {int(n)}")
    return int(n)


def queries_and_keys(q: npt.ArrayLike, k: npt.ArrayLike) -> tuple[FloatArray, FloatArray]:
    """Check ``q`` (..., n_q, d_k) or (d_k,) against ``k`` (..., n_k, d_k)."""
    q_arr = real_array(q, "q")
    k_arr = real_array(k, "k")
    ndim_at_least(q_arr, 1, "q", "(..., n_q, d_k) or (d_k,)")
    ndim_at_least(k_arr, 2, "k", "(..., n_k, d_k)")
    if q_arr.shape[-1] != k_arr.shape[-1]:
        raise ValueError(
            f"q and k must have the same last dimension d_k, got q {q_arr.shape} "
            f"(d_k={q_arr.shape[-1]}) and k {k_arr.shape} (d_k={k_arr.shape[-1]})"
        )
    if q_arr.shape[-1] == 0:
        raise ValueError(f"d_k must be at least 1, got q {q_arr.shape} and k {k_arr.shape}")
    if k_arr.shape[-2] == 0:
        raise ValueError(
            f"k holds no keys (n_k = 0, shape {k_arr.shape}); attention needs at least one"
        )
    batch_shape("q and k", q_arr.shape[:-2], k_arr.shape[:-2])
    finite(q_arr, "q")
    finite(k_arr, "k")
    return q_arr, k_arr


def values(v: npt.ArrayLike, k: FloatArray) -> FloatArray:
    """Check ``v`` (..., n_k, d_v) against the keys ``k`` (..., n_k, d_k)."""
    v_arr = real_array(v, "v")
    ndim_at_least(v_arr, 2, "v", "(..., n_k, d_v)")
    if v_arr.shape[-2] != k.shape[-2]:
        raise ValueError(
            f"k and v must hold the same number of rows n_k, got k {k.shape} "
            f"(n_k={k.shape[-2]}) and v {v_arr.shape} (n_k={v_arr.shape[-2]})"
        )
    finite(v_arr, "v")
    return v_arr


def batch_shape(names: str, *shapes: tuple[int, ...]) -> tuple[int, ...]:
    """Broadcast the leading (batch, head...) dimensions, naming the arguments if they clash."""
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError:
        listed = ", ".join(str(s) for s in shapes)
        raise ValueError(
            f"the leading (batch, head...) dimensions of {names} do not broadcast: {listed}"
        ) from None


def attention_mask(
    mask: npt.ArrayLike,
    scores_shape: tuple[int, ...],
    *,
    given: tuple[int, ...] | None = None,
    target: str = "the scores' shape",
    layout: str = "(..., n_q, n_k)",
) -> FloatArray | BoolArray:
    """Check that ``mask`` is boolean or floating and broadcasts to the scores' shape.

    ``given``, ``target`` and ``layout`` word the error for a caller that reshaped the
    mask first (:func:`head_mask`): the shape the user gave and what it must fit.
    """
    arr = np.asarray(mask)
    if arr.dtype.kind not in "bf":
        raise TypeError(
            f"mask must be boolean (True = may attend) or floating (added to the scores), "
            f"got dtype {arr.dtype} with shape {arr.shape}"
        )
    try:
        fits = np.broadcast_shapes(arr.shape, scores_shape) == scores_shape
    except ValueError:
        fits = False
    if not fits:
        shown = arr.shape if given is None else given
        raise ValueError(
            f"mask of shape {shown} does not broadcast to {target} {scores_shape} {layout}"
        )
    if arr.dtype.kind == "f":
        no_nan(arr, "mask")
        no_pos_inf(arr, "mask")
    return arr


def working_dtype(*arrays: FloatArray) -> tuple[np.dtype[Any], np.dtype[Any]]:
    """Return ``(result_dtype, compute_dtype)`` for floating inputs.

    The result keeps numpy's promotion of the inputs (float32 stays float32).
    float16 is computed in float32, which is both faster and more accurate, and
    rounded back to float16 at the end.
    """
    result = np.result_type(*arrays)
    compute = np.dtype(np.float32) if result == np.float16 else result
    return result, compute


def num_heads(h: object, d_model: int) -> int:
    """Return ``h`` as an int after checking it is a positive divisor of ``d_model``."""
    heads = positive_int(h, "num_heads")
    if d_model % heads:
        divisors = [d for d in range(1, d_model + 1) if d_model % d == 0]
        raise ValueError(
            f"num_heads must divide d_model = {d_model} into equal heads, got {heads} "
            f"(divisors: {', '.join(map(str, divisors))})"
        )
    return heads


def square_weight(w: npt.ArrayLike, name: str, d_model: int) -> FloatArray:
    """Check a projection weight: real, finite and of shape ``(d_model, d_model)``."""
    arr = real_array(w, name)
    if arr.shape != (d_model, d_model):
        raise ValueError(
            f"{name} must have shape (d_model, d_model) = ({d_model}, {d_model}), got {arr.shape}"
        )
    finite(arr, name)
    return arr


def bias(b: npt.ArrayLike, name: str, d_model: int) -> FloatArray:
    """Check a projection bias: real, finite and of shape ``(d_model,)``."""
    arr = real_array(b, name)
    if arr.shape != (d_model,):
        raise ValueError(f"{name} must have shape (d_model,) = ({d_model},), got {arr.shape}")
    finite(arr, name)
    return arr


def sequence(x: npt.ArrayLike, name: str) -> FloatArray:
    """Check a sequence of token vectors: real, finite, at least ``(n, d_model)``."""
    arr = real_array(x, name)
    ndim_at_least(arr, 2, name, "(..., n, d_model)")
    if arr.shape[-1] == 0:
        raise ValueError(f"{name} has rows of width d_model = 0 (shape {arr.shape}); need >= 1")
    finite(arr, name)
    return arr


def head_mask(mask: npt.ArrayLike, x_ndim: int, heads_shape: tuple[int, ...]) -> npt.NDArray[Any]:
    """Bring a multi-head mask to ``(..., num_heads, n, m)`` or say which shapes it may have.

    ``mask`` may be ``(n, m)``, ``(..., n, m)`` (the same for every head) or
    ``(..., num_heads, n, m)``; ``x_ndim`` is the number of dimensions of ``x``
    (..., n, d_model), which tells the two apart, and ``heads_shape`` is the
    weights' shape ``(..., num_heads, n, m)``.
    """
    arr = np.asarray(mask)
    layouts = "(n, m), (..., n, m) or (..., num_heads, n, m)"
    n, m = heads_shape[-2:]
    if arr.ndim < 2 or arr.ndim > x_ndim + 1 or arr.shape[-2:] != (n, m):
        raise ValueError(
            f"mask must have shape {layouts} with n = {n} queries and m = {m} keys, got {arr.shape}"
        )
    given = arr.shape
    if arr.ndim <= x_ndim:  # no head axis: the same mask for every head
        arr = arr[..., np.newaxis, :, :]
    return attention_mask(
        arr,
        heads_shape,
        given=given,
        target="the weights' shape",
        layout=f"(..., num_heads, n, m); it may be {layouts}",
    )
