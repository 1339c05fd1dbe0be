"""An independent Python implementation of the explorer's seeded generator.

Written from the specification in the header of ``docs/javascripts/lib/attention-math.js``
(mulberry32 uniforms, Box–Muller normals, q first then each key), not from its code, so
the browser test can recreate the widget's random q and keys and check its numbers
with attention_ref.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

MASK = 0xFFFFFFFF


def _imul32(a: int, b: int) -> int:
    return (a * b) & MASK


def uniforms(seed: int) -> Iterator[float]:
    """mulberry32: uniform floats in [0, 1) from a uint32 seed."""
    s = seed & MASK
    while True:
        s = (s + 0x6D2B79F5) & MASK
        t = _imul32(s ^ (s >> 15), s | 1)
        t ^= (t + _imul32(t ^ (t >> 7), t | 61)) & MASK
        yield (t ^ (t >> 14)) / 2**32


def normals(seed: int) -> Iterator[float]:
    """Standard normals by Box–Muller, two per pair of uniforms (cos first, then sin)."""
    u = uniforms(seed)
    while True:
        u1, u2 = next(u), next(u)
        r = math.sqrt(-2.0 * math.log(1.0 - u1))
        a = 2.0 * math.pi * u2
        yield r * math.cos(a)
        yield r * math.sin(a)


def draw_sample(seed: int, d_k: int, n_keys: int) -> tuple[list[float], list[list[float]]]:
    """The widget's (q, keys) for a seed: q is the first d_k normals, then the keys by row."""
    z = normals(seed)
    q = [next(z) for _ in range(d_k)]
    keys = [[next(z) for _ in range(d_k)] for _ in range(n_keys)]
    return q, keys
