"""Random multi-head attention problems, to hold ``attention_ref`` against an oracle.

:func:`mha_cases` is a hypothesis strategy: a sequence, four projections scaled like a
trained layer's, and one of :data:`KINDS` (self-attention, cross-attention, a mask for
every head, a mask per head, causal). ``tests/test_multi_head.py`` compares the cases
with the plain-loop oracle (``testbed/oracle.py``), ``tests/test_attention_ref_torch.py``
with torch.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from hypothesis import strategies as st

import attention_ref as ar

Array = npt.NDArray[np.float64]
Result = npt.NDArray[np.floating[Any]]
KINDS = ("self", "cross", "mask", "head_masks", "causal")


@dataclass(frozen=True)
class MhaCase:
    """One problem: ``x`` attends over ``context`` (or itself) with ``heads`` heads."""

    kind: str
    heads: int
    x: Array  # (n, d_model)
    w: tuple[Array, Array, Array, Array]  # w_q, w_k, w_v, w_o, each (d_model, d_model)
    context: Array | None  # (m, d_model), for "cross", "mask" and "head_masks"
    mask: npt.NDArray[np.bool_] | None  # (n, m) for "mask", (heads, n, m) for "head_masks"

    @property
    def is_causal(self) -> bool:
        return self.kind == "causal"

    def ours(self) -> tuple[Result, Result, Result]:
        """``attention_ref.multi_head_attention``'s output ``(n, d_model)`` and weights,
        then its output again without the weights (the path that does not keep them)."""
        options: dict[str, Any] = {
            "num_heads": self.heads,
            "context": self.context,
            "mask": self.mask,
            "is_causal": self.is_causal,
        }
        out, weights = ar.multi_head_attention(self.x, *self.w, **options, return_weights=True)
        return out, weights, ar.multi_head_attention(self.x, *self.w, **options)


def mha_cases(
    *,
    max_tokens: int,
    heads: tuple[int, ...],
    max_d_head: int,
    keep: float,
    key_0_open: bool = False,
) -> st.SearchStrategy[MhaCase]:
    """Cases of up to ``max_tokens`` queries and keys, a mask keeping each key with
    probability ``keep``; ``key_0_open`` lets every query see key 0 (torch gives NaN
    for a query that may attend to nothing)."""

    @st.composite
    def cases(draw: Any) -> MhaCase:
        rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
        n, m = draw(st.integers(1, max_tokens)), draw(st.integers(1, max_tokens))
        h = draw(st.sampled_from(heads))
        d = h * draw(st.integers(1, max_d_head))
        kind = draw(st.sampled_from(KINDS))
        x = rng.standard_normal((n, d))
        w_q, w_k, w_v, w_o = rng.standard_normal((4, d, d)) / math.sqrt(d)
        context = rng.standard_normal((m, d)) if kind in ("cross", "mask", "head_masks") else None
        n_keys = n if context is None else m
        mask = None
        if kind in ("mask", "head_masks"):
            mask = rng.random((n, n_keys) if kind == "mask" else (h, n, n_keys)) < keep
            if key_0_open:
                mask[..., 0] = True
        return MhaCase(kind, h, x, (w_q, w_k, w_v, w_o), context, mask)

    result: st.SearchStrategy[MhaCase] = cases()
    return result
