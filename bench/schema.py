"""The shape of ``bench/results.json``: what each section of ``python -m bench`` writes.

Sections are optional (``python -m bench --only kernel`` writes one and keeps the
others' last results), so every key of :class:`Results` is. Each timing is a
:class:`Summary` of several runs; Lighthouse metrics are summaries in its own units
(milliseconds for times, a plain number for CLS and scores).
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict


class Summary(TypedDict):
    """Several runs of one measurement (seconds for durations, unless said otherwise)."""

    median: float
    min: float
    max: float
    runs: int


class KernelRow(TypedDict):
    """One (dtype, n) case of ``attention_ref`` against the floor, torch and the oracle."""

    dtype: str
    n: int
    attention_ref: Summary
    floor: Summary
    torch: NotRequired[Summary]
    oracle: NotRequired[Summary]
    ratio_to_floor: float
    ratio_to_torch: float | None
    floor_to_torch: NotRequired[float | None]
    weights_bytes: int
    peak_extra_bytes: int
    peak_extra_in_weights: float
    tiled: NotRequired[Summary]
    tiled_peak_extra_bytes: NotRequired[int]
    tiled_to_attention_ref: NotRequired[float | None]


class Kernel(TypedDict):
    """Sections ``kernel``, ``kernel_1thread`` and ``kernel_wheel`` (bench/kernel.py)."""

    what: str
    rows: list[KernelRow]
    blas: NotRequired[dict[str, Any]]
    attention_ref: NotRequired[dict[str, Any]]
    torch: NotRequired[dict[str, Any]]
    environment: NotRequired[dict[str, Any]]
    load_average_before: NotRequired[list[float]]


class Lighthouse(TypedDict):
    """Medians of a page's Lighthouse runs: ``scores`` by category, ``metrics`` by audit."""

    scores: dict[str, Summary]
    metrics: dict[str, Summary]


class Page(TypedDict):
    """One page's first load (bench/site.py), as deployed: gzip, Lighthouse mobile."""

    bytes: int
    requests: int
    transfer: NotRequired[int]
    katex_bytes: NotRequired[int]
    katex_markup_bytes: NotRequired[int]
    third_party: list[str]
    lazy_assets_loaded: list[str]
    lighthouse: NotRequired[Lighthouse]


class Site(TypedDict):
    """Section ``site``: every page and the plain Material page of the same run."""

    bytes_are: str
    pages: dict[str, Page]
    baseline: Page
    load_average_before: NotRequired[list[float]]


class Timings(TypedDict):
    """Sections ``widgets``, ``practice``, ``build`` and ``docs``: named timings."""

    timings: dict[str, Summary]
    load_average_before: NotRequired[list[float]]
    practice_load: NotRequired[dict[str, Any]]
    target_test_docs_seconds: NotRequired[float]  # docs
    source_lines: NotRequired[
        dict[str, dict[str, int]]
    ]  # docs: what the source lines add to each page


class Results(TypedDict, total=False):
    """``bench/results.json`` as a whole."""

    date: str
    bench_seconds: float
    sections_in_last_run: list[str]
    machine: dict[str, Any]
    kernel: Kernel
    kernel_1thread: Kernel
    kernel_wheel: Kernel
    minilm: dict[str, Any]
    site: Site
    site_vs: dict[str, Any]
    features: dict[str, Any]
    widgets: Timings
    browser_model: Timings
    practice: Timings
    build: Timings
    docs: Timings
    ci: Timings
