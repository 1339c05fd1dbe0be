"""Timing and summarising: every figure is the median of several runs, with min and max."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

Summary = dict[str, Any]


def summarize(samples: Sequence[float], unit: str = "s") -> Summary:
    """Median, min and max of ``samples`` (and how many there were).

    Examples
    --------
    >>> summarize([3.0, 1.0, 2.0, 10.0])
    {'median': 2.5, 'min': 1.0, 'max': 10.0, 'runs': 4, 'unit': 's'}
    """
    if len(samples) == 0:
        raise ValueError("summarize needs at least one sample, got none")
    values = [float(s) for s in samples]
    return {
        "median": statistics.median(values),
        "min": min(values),
        "max": max(values),
        "runs": len(values),
        "unit": unit,
    }


def ratio(a: Summary | None, b: Summary | None) -> float | None:
    """``median(a) / median(b)``, or None when either is missing or b is zero.

    Examples
    --------
    >>> ratio({"median": 3.0}, {"median": 2.0})
    1.5
    >>> ratio(None, {"median": 2.0}) is None
    True
    """
    if not a or not b or not b.get("median"):
        return None
    return float(a["median"]) / float(b["median"])


def time_call(
    fn: Callable[[], object],
    *,
    repeat: int = 7,
    warmup: int = 1,
    min_sample: float = 0.05,
    max_number: int = 1000,
) -> Summary:
    """Seconds per call of ``fn``: ``repeat`` samples, each the mean over enough calls.

    Like ``timeit``'s autorange, one sample loops the call ``number`` times, with
    ``number`` grown until a sample lasts at least ``min_sample`` seconds, so that fast
    calls are not lost in the clock's resolution.
    """
    if repeat < 1:
        raise ValueError(f"repeat must be >= 1, got {repeat}")
    for _ in range(warmup):
        fn()
    number = 1
    while True:
        start = time.perf_counter()
        for _ in range(number):
            fn()
        elapsed = time.perf_counter() - start
        if elapsed >= min_sample or number >= max_number:
            break
        number = min(max_number, number * max(2, int(min_sample / max(elapsed, 1e-9)) + 1))
    samples = [elapsed / number]
    for _ in range(repeat - 1):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - start) / number)
    summary = summarize(samples)
    summary["calls_per_run"] = number
    return summary
