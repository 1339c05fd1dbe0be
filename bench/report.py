"""Turn ``bench/results.json`` into Markdown tables (printed, and included by the docs page).

Pure functions only: they read the results dict and return text, so they are unit-tested.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from bench.schema import Kernel, Page, Results, Site, Summary, Timings

TARGET_SCORES = {"performance": 90, "accessibility": 100, "best-practices": 100, "seo": 100}
LESSON = "attention/"
MUST_BE_LAZY = ("pyodide", "editor", "practice runner")


_TIME_UNITS = (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6))


def _time_unit(seconds: float) -> tuple[str, float]:
    for unit, factor in _TIME_UNITS:
        if abs(seconds) >= factor:
            return unit, factor
    return _TIME_UNITS[-1]


def _digits(value: float) -> int:
    return 2 if abs(value) < 10 else 1 if abs(value) < 100 else 0


def fmt_seconds(seconds: float | None, unit: str | None = None) -> str:
    """A duration with three significant digits, in ``unit`` or one that fits it.

    Examples
    --------
    >>> [fmt_seconds(x) for x in (2.5, 0.01234, 0.0000456, None)]
    ['2.50 s', '12.3 ms', '45.6 µs', '–']
    """
    if seconds is None:
        return "–"
    name, factor = (unit, dict(_TIME_UNITS)[unit]) if unit else _time_unit(seconds)
    value = seconds / factor
    return f"{value:.{_digits(value)}f} {name}"


def fmt_bytes(n: float | None) -> str:
    """Bytes in KiB or MiB (binary units, as Lighthouse and DevTools show them).

    Examples
    --------
    >>> [fmt_bytes(x) for x in (512, 280869, 3 * 2**20, None)]
    ['512 B', '274.3 KiB', '3.00 MiB', '–']
    """
    if n is None:
        return "–"
    if n < 1024:
        return f"{int(n)} B"
    if n < 2**20:
        return f"{n / 1024:.1f} KiB"
    return f"{n / 2**20:.2f} MiB"


def fmt_ratio(r: float | None) -> str:
    """A ratio as ``1.23×``.

    Examples
    --------
    >>> fmt_ratio(1.2345), fmt_ratio(None)
    ('1.23×', '–')
    """
    return "–" if r is None else f"{r:.2f}×"


def fmt_summary(s: Summary | None, fmt: Callable[[float], str] | None = None) -> str:
    """``median (min–max)`` of a summary; durations share the median's unit.

    Examples
    --------
    >>> fmt_summary({"median": 0.002, "min": 0.0019, "max": 0.0031, "runs": 7})
    '2.00 ms (1.90–3.10)'
    >>> fmt_summary({"median": 0.002, "min": 0.002, "max": 0.002, "runs": 1})
    '2.00 ms'
    >>> fmt_summary({"median": 0.9, "min": 0.8, "max": 1.2, "runs": 3})
    '900 ms (800–1200)'
    """
    if not s:
        return "–"
    if fmt is None:
        _, factor = _time_unit(s["median"])
        median = fmt_seconds(s["median"])
        low, high = s["min"] / factor, s["max"] / factor
        spread = f"{low:.{_digits(low)}f}–{high:.{_digits(high)}f}"
    else:
        median, spread = fmt(s["median"]), f"{fmt(s['min'])}–{fmt(s['max'])}"
    if s["runs"] == 1 or s["min"] == s["max"]:
        return str(median)
    return f"{median} ({spread})"


def fmt_score(s: Summary | None) -> str:
    """A Lighthouse score summary: ``98 (97–99)`` or ``100``.

    Examples
    --------
    >>> fmt_score({"median": 98.0, "min": 97.0, "max": 99.0, "runs": 3})
    '98 (97–99)'
    """
    return fmt_summary(s, lambda v: f"{v:.0f}")


@dataclass(frozen=True)
class Limit:
    """A goal: a figure must stay at most (or at least) ``value``, shown with ``show``.

    Examples
    --------
    >>> tbt = Limit(300, lambda v: fmt_seconds(v / 1000))
    >>> tbt.text(), tbt.holds(310), tbt.holds(None)
    ('≤ 300 ms', False, None)
    >>> Limit(90, lambda v: f"{v:.0f}", at_least=True).text()
    '≥ 90'
    """

    value: float
    show: Callable[[float], str]
    at_least: bool = False

    def text(self) -> str:
        return ("≥ " if self.at_least else "≤ ") + self.show(self.value)

    def holds(self, measured: float | None) -> bool | None:
        """Whether ``measured`` meets the goal; None when it was not measured."""
        if measured is None:
            return None
        return measured >= self.value if self.at_least else measured <= self.value


@dataclass(frozen=True)
class Target:
    """One row of the targets table: what, the goal, how it is measured, the figure, met."""

    what: str
    goal: str
    how: str
    measured: str = "–"
    met: bool | None = None  # None: not measured

    @property
    def verdict(self) -> str:
        return "not measured" if self.met is None else ("met" if self.met else "missed")

    def row(self) -> list[str]:
        return [self.what, self.goal, self.measured, self.verdict, self.how]


def _score(v: float) -> str:
    return f"{v:.0f}"


def _ms(v: float) -> str:
    return fmt_seconds(v / 1000)


# The goals, each written once (the issues that set them: performance, the wheel's speed).
PERFORMANCE = Limit(TARGET_SCORES["performance"], _score, at_least=True)
PERFECT = Limit(100, _score, at_least=True)  # accessibility, best practices, SEO
TBT = Limit(300, _ms)  # every page, as deployed (gzip), Lighthouse mobile, median of the runs
LCP = Limit(2500, _ms)
CLS = Limit(0.0, lambda v: f"{v:g}")  # the worst run
PEAK = Limit(2.0, lambda v: f"{v:g}")  # peak extra memory, in weights matrices
WEIGHT = Limit(1.5, fmt_ratio)  # lesson first load <= 1.5 x baseline + KaTeX
BUILD = Limit(1.5, fmt_ratio)  # warm build <= 1.5 x baseline build
MINILM_RUN = Limit(2.0, fmt_ratio)  # attention_ref.minilm model.run <= 2 x transformers eager
MINILM_LOAD = Limit(1.0, fmt_seconds)  # load_minilm() in a fresh process
#: Per kernel section: the limits of n = 2048, float32, against the floor and torch.
KERNEL_LIMITS: dict[str, tuple[Limit, Limit, str]] = {
    "kernel": (Limit(1.5, fmt_ratio), Limit(2.0, fmt_ratio), ""),
    "kernel_1thread": (Limit(1.5, fmt_ratio), Limit(2.0, fmt_ratio), " (1 thread)"),
    # What a pip user gets: the wheel installed alone.
    "kernel_wheel": (Limit(1.25, fmt_ratio), Limit(1.5, fmt_ratio), " (installed wheel)"),
}


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A Markdown pipe table, padded so it also reads well in a terminal.

    Examples
    --------
    >>> print(table(["a", "bb"], [[1, "x"], ["long", 2]]))
    | a    | bb |
    | ---- | -- |
    | 1    | x  |
    | long | 2  |
    """
    if any(len(r) != len(headers) for r in rows):
        raise ValueError(f"every row needs {len(headers)} cells, one per header {list(headers)}")
    cells = [[str(h) for h in headers], *[[str(c) for c in r] for r in rows]]
    widths = [max(2, *(len(row[i]) for row in cells)) for i in range(len(headers))]

    def line(row: Sequence[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) + " |"

    rule = "| " + " | ".join("-" * w for w in widths) + " |"
    return "\n".join([line(cells[0]), rule, *(line(r) for r in cells[1:])])


def kernel_table(kernel: Kernel) -> str:
    # The tiled path's columns only where it was measured: a record made before
    # attention_ref had tiled_attention has none, and three columns of dashes say nothing.
    tiled = any("tiled" in r for r in kernel["rows"])
    rows = []
    for r in kernel["rows"]:
        row: list[object] = [
            r["dtype"],
            r["n"],
            fmt_summary(r["attention_ref"]),
            fmt_summary(r["floor"]),
            fmt_summary(r.get("torch")),
            fmt_summary(r.get("oracle")),
            fmt_ratio(r["ratio_to_floor"]),
            fmt_ratio(r["ratio_to_torch"]),
            f"{r['peak_extra_in_weights']:.2f} ({fmt_bytes(r['peak_extra_bytes'])})",
        ]
        if tiled:
            row += [
                fmt_summary(r.get("tiled")),
                fmt_ratio(r.get("tiled_to_attention_ref")),
                fmt_bytes(r.get("tiled_peak_extra_bytes")),
            ]
        rows.append(row)
    headers = [
        "dtype",
        "n",
        "attention_ref",
        "floor (2 matmuls)",
        "torch",
        "loop oracle",
        "÷ floor",
        "÷ torch",
        "peak extra (weights matrices)",
    ]
    if tiled:
        headers += ["tiled 64×64", "tiled ÷ attention_ref", "tiled peak extra"]
    return table(headers, rows)


def _page_name(path: str) -> str:
    return "/" + path


def _metric(e: Page, name: str) -> Summary | None:
    lighthouse = e.get("lighthouse")
    return None if lighthouse is None else lighthouse["metrics"].get(name)


def fmt_ms(s: Summary | None) -> str:
    """A Lighthouse time metric (milliseconds): :func:`fmt_summary` of it in seconds.

    Examples
    --------
    >>> fmt_ms({"median": 120.4, "min": 80, "max": 150, "runs": 3}), fmt_ms({"median": 2310,
    ...        "min": 2310, "max": 2310, "runs": 3}), fmt_ms(None)
    ('120 ms (80.0–150)', '2.31 s', '–')
    """
    if not s:
        return "–"
    return fmt_summary(
        {"median": s["median"] / 1000, "min": s["min"] / 1000, "max": s["max"] / 1000,
         "runs": s["runs"]}
    )  # fmt: skip


def site_table(site: Site) -> str:
    rows = []
    entries = [*site["pages"].items(), ("baseline (plain Material)", site["baseline"])]
    for path, e in entries:
        lh = e.get("lighthouse", {}).get("scores", {})
        name = path if path.startswith("baseline") else _page_name(path)
        cls = _metric(e, "cumulative-layout-shift")
        dom = _metric(e, "dom-size")
        rows.append(
            [
                name,
                fmt_bytes(e.get("transfer")),
                fmt_bytes(e["bytes"]),
                e["requests"],
                f"{dom['median']:.0f}" if dom else "–",
                fmt_score(lh.get("performance")),
                fmt_ms(_metric(e, "total-blocking-time")),
                fmt_ms(_metric(e, "largest-contentful-paint")),
                f"{cls['max']:.3g}" if cls else "–",
                *(fmt_score(lh.get(c)) for c in TARGET_SCORES if c != "performance"),
            ]
        )
    headers = [
        "page",
        "transfer",
        "decoded",
        "requests",
        "DOM elements",
        "perf",
        "TBT",
        "LCP",
        "CLS (worst run)",
        "a11y",
        "best practices",
        "SEO",
    ]
    return table(headers, rows)


def page_targets(path: str, e: Page) -> list[Target]:
    """The Lighthouse targets of one page (medians of the runs; CLS: the worst run).

    Examples
    --------
    >>> m = lambda v: {"median": v, "min": v, "max": v, "runs": 3}
    >>> e = {"lighthouse": {"scores": {"performance": m(93), "accessibility": m(100),
    ...      "best-practices": m(100), "seo": m(100)}, "metrics": {
    ...      "total-blocking-time": m(310), "largest-contentful-paint": m(2100),
    ...      "cumulative-layout-shift": m(0)}}}
    >>> for t in page_targets("attention/", e):
    ...     print(t.verdict, t.measured)
    missed 93 · TBT 310 ms · LCP 2.10 s · CLS 0
    met 100 · 100 · 100
    """
    lh = e.get("lighthouse")
    if not lh:
        return []
    scores = lh["scores"]
    perf = scores.get("performance")
    tbt = _metric(e, "total-blocking-time")
    lcp = _metric(e, "largest-contentful-paint")
    cls = _metric(e, "cumulative-layout-shift")
    speed = [
        (PERFORMANCE, None if perf is None else perf["median"]),
        (TBT, None if tbt is None else tbt["median"]),
        (LCP, None if lcp is None else lcp["median"]),
        (CLS, None if cls is None else cls["max"]),
    ]
    rest = [scores.get(c) for c in ("accessibility", "best-practices", "seo")]
    how = "python -m bench --only site"
    return [
        Target(
            f"{_page_name(path)} Lighthouse mobile: performance, TBT, LCP, CLS",
            " · ".join(limit.text() for limit, _ in speed),
            how,
            f"{fmt_score(perf)} · TBT {fmt_ms(tbt)} · LCP {fmt_ms(lcp)} · CLS {cls['max']:.3g}"
            if cls
            else "–",
            _all(limit.holds(value) for limit, value in speed),
        ),
        Target(
            f"{_page_name(path)} Lighthouse: accessibility · best practices · SEO",
            " · ".join(PERFECT.show(PERFECT.value) for _ in rest),
            how,
            " · ".join(fmt_score(r) for r in rest),
            _all(PERFECT.holds(None if r is None else r["median"]) for r in rest),
        ),
    ]


_PERF, _TBT = "performance", "total-blocking-time"  # a Lighthouse score and a metric


def _delta(a: float | None, b: float | None, unit: str = "") -> str:
    """``a - b`` signed and rounded, e.g. ``+2``, ``−50 ms``, ``±0``; "–" when one is missing."""
    if a is None or b is None:
        return "–"
    d = a - b
    return ("+" if d > 0 else "−" if d < 0 else "±") + f"{abs(d):.0f}{unit}"


def _median(e: dict[str, Any] | None, what: str) -> float | None:
    """The median of a score or metric of a Lighthouse summary (scores, metrics or flat)."""
    if not e:
        return None
    got = e.get(what) or e.get("scores", {}).get(what) or e.get("metrics", {}).get(what)
    return None if got is None else float(got["median"])


def features_table(features: dict[str, Any]) -> str:
    """One row per Material feature variant of the lesson page, with the decision taken.

    Examples
    --------
    >>> m = lambda v: {"median": v, "min": v, "max": v, "runs": 1}
    >>> lh = lambda p, t: {"scores": {"performance": m(p)}, "metrics": {
    ...     "total-blocking-time": m(t), "largest-contentful-paint": m(2000),
    ...     "dom-size": m(900)}}
    >>> f = {"features": ["toc.follow"], "decisions": {"toc.follow": "kept"},
    ...      "variants": {"as configured": lh(91, 200), "without toc.follow": lh(92, 180)}}
    >>> print(features_table(f).splitlines()[-1])
    | without toc.follow | 92   | +1     | 180 ms | −20 ms | 2.00 s | 900          | kept     |
    """
    rows = []
    base = features["variants"].get("as configured")

    for name, e in features["variants"].items():
        feature = name.removeprefix("without ").removeprefix("with ")
        decision = features.get("decisions", {}).get(feature, "")
        if name == "no features":
            decision = "(every feature off, for scale)"
        rows.append(
            [
                name,
                fmt_score(e.get("scores", {}).get("performance")),
                _delta(_median(e, _PERF), _median(base, _PERF)) if e is not base else "",
                fmt_ms(e.get("metrics", {}).get("total-blocking-time")),
                _delta(_median(e, _TBT), _median(base, _TBT), " ms") if e is not base else "",
                fmt_ms(e.get("metrics", {}).get("largest-contentful-paint")),
                f"{_median(e, 'dom-size') or 0:.0f}",
                decision,
            ]
        )
    headers = ["lesson page", "perf", "Δ perf", "TBT", "Δ TBT", "LCP", "DOM elements"]
    return table([*headers, "decision"], rows)


def site_vs_table(vs: dict[str, Any]) -> str:
    """Each page before (the earlier commit) and now, measured in turns in one run.

    Examples
    --------
    >>> m = lambda v: {"median": v, "min": v - 2, "max": v + 2, "runs": 3}
    >>> side = lambda p, t: {"performance": m(p), "total-blocking-time": m(t),
    ...     "largest-contentful-paint": m(3000)}
    >>> vs = {"against": "abc1234", "pages": {"attention/": {
    ...     "before": side(78, 550), "now": side(80, 500)}},
    ...     "baseline": side(97, 150)}
    >>> print(site_vs_table(vs).splitlines()[-1])  # doctest: +NORMALIZE_WHITESPACE
    | /attention/ | 78 (76–80) | 550 ms (548–552) | 80 (78–82) | 500 ms (498–502)
      | +2 | −50 ms |
    """

    rows = []
    entries = [("the plain Material page", {"now": vs["baseline"]}), *vs["pages"].items()]
    for path, sides in entries:
        before, now = sides.get("before"), sides.get("now")
        name = path if path.startswith("the plain") else _page_name(path)
        rows.append(
            [
                name,
                fmt_score(before["performance"]) if before else "–",
                fmt_ms(before["total-blocking-time"]) if before else "–",
                fmt_score(now["performance"]) if now else "–",
                fmt_ms(now["total-blocking-time"]) if now else "–",
                _delta(_median(now, _PERF), _median(before, _PERF)),
                _delta(_median(now, _TBT), _median(before, _TBT), " ms"),
            ]
        )
    at = vs["against"]
    headers = ["page", f"perf at {at}", f"TBT at {at}", "perf now", "TBT now", "Δ perf", "Δ TBT"]
    return table(headers, rows)


def navigation_lines(features: dict[str, Any]) -> list[str]:
    """What instant navigation buys: the click-to-title time with and without it."""
    variants = features["variants"]
    if "navigation.instant" in features.get("features", []):
        on = variants.get("as configured", {}).get("navigation_ms")
        off = variants.get("without navigation.instant", {}).get("navigation_ms")
    else:
        on = variants.get("with navigation.instant", {}).get("navigation_ms")
        off = variants.get("as configured", {}).get("navigation_ms")
    if not on or not off:
        return []
    return [
        "Home page to lesson page, one click, throttled like Lighthouse's mobile preset "
        f"(until the lesson's title shows): {fmt_ms(on)} with instant navigation, "
        f"{fmt_ms(off)} without ({on['runs']} clicks each)."
    ]


_ORDER = {
    "cold build (no cache)": 0,
    "warm build (figures cached)": 1,
    "baseline build": 2,
    "warm build, no bytecode cache": 3,
    "baseline build, no bytecode cache": 4,
    "make test (warm)": 5,
}


def timings_table(results: Results) -> str:
    """Widgets, practice and build timings, one row each."""
    rows: list[list[object]] = []
    sections = cast(Mapping[str, Any], results)  # keyed by the sections' names
    for section in ("minilm", "widgets", "browser_model", "practice", "build", "docs", "ci"):
        timings = sections.get(section, {}).get("timings", {})
        for name, s in sorted(timings.items(), key=lambda kv: _ORDER.get(kv[0], 99)):
            rows.append([section, name, fmt_summary(s)])
    return table(["area", "what", "median (min–max)"], rows) if rows else ""


def _all(verdicts: Iterable[bool | None]) -> bool | None:
    """True when every verdict holds, None when one is missing (not measured)."""
    found = list(verdicts)
    return None if None in found else all(found)


def minilm_targets(minilm: dict[str, Any] | None) -> list[Target]:
    """The real model's two targets: ``model.run`` against transformers, and loading.

    Examples
    --------
    >>> found = minilm_targets({"tokens": 16, "ratio_to_transformers": 1.25, "timings": {
    ...     "model.run": {"median": 0.02}, "transformers eager forward": {"median": 0.016},
    ...     "load_minilm() (fresh process)": {"median": 0.4}}})
    >>> [(t.measured, t.verdict) for t in found]
    [('1.25× (20.0 ms vs 16.0 ms)', 'met'), ('400 ms', 'met')]
    >>> minilm_targets({"tokens": 16, "ratio_to_transformers": 3.0, "ratio_interleaved": 1.5,
    ...     "timings": {"model.run": {"median": 0.048},
    ...     "transformers eager forward": {"median": 0.016},
    ...     "load_minilm() (fresh process)": {"median": 0.4}}})[0].measured
    '3.00× (48.0 ms vs 16.0 ms); in turns 1.50×'
    >>> [t.verdict for t in minilm_targets(None)]
    ['not measured', 'not measured']
    """
    run_what = "attention_ref.minilm model.run ÷ transformers eager forward (lesson sentence)"
    load_what = "load_minilm() in a fresh process"
    how = "python -m bench --only minilm"
    if not minilm:
        return [
            Target(run_what, MINILM_RUN.text(), how),
            Target(load_what, MINILM_LOAD.text(), how),
        ]
    t = minilm["timings"]
    r = minilm.get("ratio_to_transformers")
    theirs = t.get("transformers eager forward")
    value = "–"
    if r is not None and theirs is not None:
        value = f"{fmt_ratio(r)} ({fmt_seconds(t['model.run']['median'])} vs "
        value += f"{fmt_seconds(theirs['median'])})"
    turns = minilm.get("ratio_interleaved")
    if turns is not None:  # the fairer figure on a busy machine (bench/minilm.py)
        value += f"; in turns {fmt_ratio(turns)}"
        r = turns
    load = t["load_minilm() (fresh process)"]["median"]
    return [
        Target(f"{run_what}, {minilm['tokens']} tokens", MINILM_RUN.text(), how, value,
               MINILM_RUN.holds(r)),
        Target(load_what, MINILM_LOAD.text(), how, fmt_seconds(load), MINILM_LOAD.holds(load)),
    ]  # fmt: skip


def _kernel_targets(name: str, kernel: Kernel | None) -> list[Target]:
    """The n = 2048 float32 case of one kernel section against its two ratio limits."""
    floor, torch, label = KERNEL_LIMITS[name]
    how = f"python -m bench --only {name}"
    if not kernel:
        return [Target(f"attention_ref ÷ floor and ÷ torch{label}", f"{floor.text()} · "
                       f"{torch.text()}", how)]  # fmt: skip
    big = next((r for r in kernel["rows"] if r["dtype"] == "float32" and r["n"] == 2048), None)
    if big is None:
        return []
    rf, rt = big["ratio_to_floor"], big["ratio_to_torch"]
    found = [
        Target(f"attention_ref ÷ two-matmul floor (n=2048, float32, 4 heads){label}",
               floor.text(), how, fmt_ratio(rf), floor.holds(rf)),
        Target(f"attention_ref ÷ torch SDPA on CPU (same case, same threads){label}",
               torch.text(), how, fmt_ratio(rt), torch.holds(rt)),
    ]  # fmt: skip
    if name == "kernel":
        worst = max(r["peak_extra_in_weights"] for r in kernel["rows"] if r["n"] >= 512)
        found.append(
            Target("peak extra memory (n ≥ 512, worst case), in weights matrices",
                   PEAK.text(), how, f"{worst:.2f}", PEAK.holds(worst))
        )  # fmt: skip
    return found


def _site_targets(site: Site | None) -> list[Target]:
    how = "python -m bench --only site"
    if not site:
        speed = (PERFORMANCE, TBT, LCP, CLS)
        return [Target("every page: Lighthouse mobile", " · ".join(x.text() for x in speed), how)]
    found = [t for path, e in site["pages"].items() for t in page_targets(path, e)]
    lesson = site["pages"].get(LESSON)
    if not lesson:
        return found
    base, katex = site["baseline"]["bytes"], lesson.get("katex_bytes", 0)
    allowed = WEIGHT.value * base + katex
    found.append(
        Target("lesson page first load vs baseline",
               f"≤ {WEIGHT.value} × {fmt_bytes(base)} + KaTeX {fmt_bytes(katex)} = "
               f"{fmt_bytes(allowed)}", how, fmt_bytes(lesson["bytes"]), lesson["bytes"] <= allowed)
    )  # fmt: skip
    markup = lesson.get("katex_markup_bytes", 0)
    if markup:
        found.append(
            Target("the same, counting KaTeX's build-time markup in the page as KaTeX too",
                   f"≤ {fmt_bytes(allowed)} + markup {fmt_bytes(markup)} = "
                   f"{fmt_bytes(allowed + markup)}", how, fmt_bytes(lesson["bytes"]),
                   lesson["bytes"] <= allowed + markup)
        )  # fmt: skip
    loaded = sorted({a for e in site["pages"].values() for a in e["lazy_assets_loaded"]})
    lazy = [a for a in loaded if a in MUST_BE_LAZY]
    found.append(
        Target("Pyodide, editor, practice runner on any page's first load", "none", how,
               ", ".join(lazy) or "none", not lazy)
    )  # fmt: skip
    model = [p for p, e in site["pages"].items() if "model data" in e["lazy_assets_loaded"]]
    found.append(
        Target("real-model data (heatmap) fetched only where the widget is near the screen",
               "lesson page only", how, ", ".join(_page_name(p) for p in model) or "nowhere",
               set(model) <= {LESSON})
    )  # fmt: skip
    return found


def _build_targets(build: Timings | None) -> list[Target]:
    timings = build["timings"] if build else {}
    warm, base = timings.get("warm build (figures cached)"), timings.get("baseline build")
    how = "python -m bench --only build"
    if not (warm and base):
        return [Target("warm build vs baseline build", BUILD.text(), how)]
    r = warm["median"] / base["median"]
    measured = f"{fmt_ratio(r)} ({fmt_seconds(warm['median'])} vs {fmt_seconds(base['median'])})"
    return [Target("warm mkdocs build ÷ baseline page's build", BUILD.text(), how, measured,
                   BUILD.holds(r))]  # fmt: skip


def targets(results: Results) -> list[Target]:
    """Every target of the performance issues with the measured figure and a verdict."""
    found: list[Target] = []
    for name in KERNEL_LIMITS:
        kernel: Kernel | None = results.get(name)  # type: ignore[assignment]
        if kernel or name == "kernel":
            found += _kernel_targets(name, kernel)
    found += minilm_targets(results.get("minilm"))
    found += _site_targets(results.get("site"))
    found += _build_targets(results.get("build"))
    found += _docs_targets(results.get("docs"))
    found += _ci_targets(results.get("ci"))
    return found


CI = Limit(600, fmt_seconds)  # a fresh clone's .ci/run, whole


def _ci_targets(ci: Timings | None) -> list[Target]:
    whole = (ci["timings"] if ci else {}).get(".ci/run (fresh clone)")
    how = "python -m bench --only ci"
    if not whole:
        return [Target("fresh clone's bash .ci/run", CI.text(), how)]
    return [Target("fresh clone's bash .ci/run", CI.text(), how, fmt_seconds(whole["median"]),
                   CI.holds(whole["median"]))]  # fmt: skip


def _docs_targets(docs: Timings | None) -> list[Target]:
    """``make test-docs``, the loop of people editing docs, against its limit."""
    timing = docs["timings"].get("make test-docs") if docs else None
    limit = Limit(docs.get("target_test_docs_seconds", 60.0) if docs else 60.0, fmt_seconds)
    measured = fmt_seconds(timing["median"]) if timing else "–"
    return [Target("make test-docs (doc, snippet, claim and unit tests)", limit.text(),
                   "python -m bench --only docs", measured,
                   limit.holds(timing["median"] if timing else None))]  # fmt: skip


def source_line_lines(cost: dict[str, dict[str, int]]) -> list[str]:
    """What the source lines under Output blocks add to each page.

    Examples
    --------
    >>> cost = {"a/index.html": {"lines": 2, "elements": 6, "bytes": 600, "gzip_bytes": 90}}
    >>> print(source_line_lines(cost)[-1])
    - a/index.html: 2 lines, 6 elements, 600 B (90 B gzipped)
    """
    if not cost:
        return []
    return [
        "",
        "The source lines under Output blocks (and notebook cells) add, per page:",
        "",
        *(
            f"- {page}: {c['lines']} lines, {c['elements']} elements, "
            f"{fmt_bytes(c['bytes'])} ({fmt_bytes(c['gzip_bytes'])} gzipped)"
            for page, c in cost.items()
        ),
    ]


def machine_lines(machine: dict[str, Any]) -> list[str]:
    """The machine and versions as Markdown list items."""
    order = [
        ("cpu", "CPU"),
        ("cores", "cores"),
        ("memory", "memory"),
        ("os", "OS"),
        ("python", "Python"),
        ("numpy", "numpy"),
        ("blas", "BLAS"),
        ("torch", "torch"),
        ("chromium", "Chromium"),
        ("node", "Node"),
        ("lighthouse", "Lighthouse"),
        ("mkdocs", "MkDocs"),
        ("mkdocs_material", "Material for MkDocs"),
        ("bench_priority", "bench priority"),
    ]
    return [f"- {label}: {machine[key]}" for key, label in order if machine.get(key)]


def load_lines(results: Results) -> list[str]:
    """The load average before each section, and which sections shared a busy machine.

    Examples
    --------
    >>> lines = load_lines({"machine": {"cores": 2},
    ...                     "kernel": {"load_average_before": [0.1, 0, 0]},
    ...                     "site": {"load_average_before": [3.5, 0, 0]}})
    >>> for line in lines:
    ...     print(line)
    - load average (1 min) before each section: kernel 0.1, site 3.5
    - busy machine (load above the 2 cores) during: site; those figures are less reliable
    """
    cores = results.get("machine", {}).get("cores") or 1
    sections = cast(Mapping[str, Any], results)  # keyed by the sections' names
    loads = {
        name: sections[name]["load_average_before"][0]
        for name in (
            "kernel",
            "kernel_1thread",
            "kernel_wheel",
            "minilm",
            "site",
            "widgets",
            "practice",
            "build",
            "docs",
        )
        if sections.get(name, {}).get("load_average_before")
    }
    if not loads:
        return []
    lines = [
        "- load average (1 min) before each section: "
        + ", ".join(f"{name} {load:.1f}" for name, load in loads.items())
    ]
    busy = [name for name, load in loads.items() if load > cores]
    if busy:
        lines.append(
            f"- busy machine (load above the {cores} cores) during: {', '.join(busy)}; "
            "those figures are less reliable"
        )
    return lines


def markdown(results: Results) -> str:
    """The whole report: targets, kernel, site, timings, machine."""
    parts = [
        f"Measured on {results.get('date', '?')}.",
        "",
        "**Targets**",
        "",
        table(
            ["target", "goal", "measured", "verdict", "measured by"],
            [t.row() for t in targets(results)],
        ),
    ]
    for name in ("kernel", "kernel_1thread", "kernel_wheel"):
        if name in results:
            parts += ["", f"**attention_ref forward** ({results[name]['what']})", ""]
            parts += [kernel_table(results[name])]
    if "site" in results:
        parts += ["", "**Pages, first load** " + f"({results['site']['bytes_are']})", ""]
        parts += [site_table(results["site"])]
    if "features" in results:
        f = results["features"]
        parts += [
            "",
            f"**Material's features on {f['page']}** (Lighthouse mobile, "
            "gzip, each variant built without one feature)",
            "",
            features_table(f),
        ]
        nav = navigation_lines(f)
        if nav:
            parts += ["", *nav]
    if "site_vs" in results:
        vs = results["site_vs"]
        parts += [
            "",
            f"**The pages now against {vs['against']}** ({vs['against_subject']}; Lighthouse "
            f"mobile, gzip, {vs['lighthouse_runs']} rounds in turns, medians; "
            "`python -m bench --only site_vs --against REV`)",
            "",
            site_vs_table(vs),
        ]
    timings = timings_table(results)
    if timings:
        parts += ["", "**Widgets, practice, build**", "", timings]
    practice = results.get("practice", {}).get("practice_load")
    if practice:
        parts += [
            "",
            f"The practice section loads {fmt_bytes(practice['bytes'])} in "
            f"{practice['requests']} requests when it comes near the screen "
            f"(Pyodide: {fmt_bytes(practice['pyodide_bytes'])}); none of it is in a first load.",
        ]
    docs = results.get("docs")
    parts += source_line_lines(docs.get("source_lines", {}) if docs else {})
    parts += ["", "**Machine**", "", *machine_lines(results.get("machine", {}))]
    parts += load_lines(results)
    return "\n".join(parts) + "\n"
