"""Turn ``bench/results.json`` into Markdown tables (printed, and included by the docs page).

Pure functions only: they read the results dict and return text, so they are unit-tested.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

TARGET_FLOOR = 1.5  # attention_ref / two-matmul floor at n=2048, float32
TARGET_TORCH = 2.0  # attention_ref / torch at n=2048, float32
TARGET_PEAK = 2.0  # peak extra memory, in weights matrices
TARGET_SCORES = {"performance": 90, "accessibility": 100, "best-practices": 100, "seo": 100}
# Every page, as deployed (gzip), Lighthouse mobile, median of the runs:
TARGET_TBT_MS = 300
TARGET_LCP_MS = 2500
TARGET_CLS = 0.0
TARGET_WEIGHT = 1.5  # lesson first load <= 1.5 x baseline + KaTeX
TARGET_BUILD = 1.5  # warm build <= 1.5 x baseline build
TARGET_MINILM_RATIO = 2.0  # attention_ref.minilm model.run <= 2 x transformers eager
TARGET_MINILM_LOAD = 1.0  # seconds, load_minilm() in a fresh process
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


def fmt_summary(s: dict[str, Any] | None, fmt: Any = None) -> str:
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


def fmt_score(s: dict[str, Any] | None) -> str:
    """A Lighthouse score summary: ``98 (97–99)`` or ``100``.

    Examples
    --------
    >>> fmt_score({"median": 98.0, "min": 97.0, "max": 99.0, "runs": 3})
    '98 (97–99)'
    """
    return fmt_summary(s, lambda v: f"{v:.0f}")


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


def kernel_table(kernel: dict[str, Any]) -> str:
    rows = []
    for r in kernel["rows"]:
        rows.append(
            [
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
        )
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
    return table(headers, rows)


def _page_name(path: str) -> str:
    return "/" + path


def _metric(e: dict[str, Any], name: str) -> dict[str, Any] | None:
    got: dict[str, Any] | None = e.get("lighthouse", {}).get("metrics", {}).get(name)
    return got


def fmt_ms(s: dict[str, Any] | None) -> str:
    """A Lighthouse time metric: median in ms or s, with the range when runs differ.

    Examples
    --------
    >>> fmt_ms({"median": 120.4, "min": 80, "max": 150}), fmt_ms({"median": 2310,
    ...        "min": 2310, "max": 2310}), fmt_ms(None)
    ('120 ms (80–150)', '2.31 s', '–')
    """
    if not s:
        return "–"
    seconds = s["median"] >= 1000

    def one(v: float) -> str:
        return f"{v / 1000:.2f} s" if seconds else f"{v:.0f} ms"

    if s["min"] == s["max"]:
        return one(s["median"])
    return f"{one(s['median'])} ({one(s['min']).split()[0]}–{one(s['max']).split()[0]})"


def site_table(site: dict[str, Any]) -> str:
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


def page_targets(path: str, e: dict[str, Any]) -> list[list[str]]:
    """The Lighthouse targets of one page (medians of the runs; CLS: the worst run).

    Examples
    --------
    >>> m = lambda v: {"median": v, "min": v, "max": v, "runs": 3}
    >>> e = {"lighthouse": {"scores": {"performance": m(93), "accessibility": m(100),
    ...      "best-practices": m(100), "seo": m(100)}, "metrics": {
    ...      "total-blocking-time": m(310), "largest-contentful-paint": m(2100),
    ...      "cumulative-layout-shift": m(0)}}}
    >>> for row in page_targets("attention/", e):
    ...     print(row[-1], row[2])
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
    speed_ok = None
    if perf and tbt and lcp and cls:
        speed_ok = (
            perf["median"] >= TARGET_SCORES["performance"]
            and tbt["median"] <= TARGET_TBT_MS
            and lcp["median"] <= TARGET_LCP_MS
            and cls["max"] <= TARGET_CLS
        )
    rest = [scores.get(c) for c in ("accessibility", "best-practices", "seo")]
    return [
        _target_row(
            f"{_page_name(path)} Lighthouse mobile: performance, TBT, LCP, CLS",
            f"≥ {TARGET_SCORES['performance']} · ≤ {TARGET_TBT_MS} ms · "
            f"≤ {TARGET_LCP_MS / 1000:.1f} s · {TARGET_CLS:g}",
            f"{fmt_score(perf)} · TBT {fmt_ms(tbt)} · LCP {fmt_ms(lcp)} · CLS {cls['max']:.3g}"
            if cls
            else "–",
            speed_ok,
        ),
        _target_row(
            f"{_page_name(path)} Lighthouse: accessibility · best practices · SEO",
            "100 · 100 · 100",
            " · ".join(fmt_score(r) for r in rest),
            None if None in rest else all(r["median"] >= 100 for r in rest if r),
        ),
    ]


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

    def med(e: dict[str, Any] | None, what: str) -> float | None:
        if not e:
            return None
        got = e.get("scores", {}).get(what) or e.get("metrics", {}).get(what)
        return None if got is None else float(got["median"])

    def delta(a: float | None, b: float | None, unit: str = "") -> str:
        if a is None or b is None:
            return "–"
        d = a - b
        return ("+" if d > 0 else "−" if d < 0 else "±") + f"{abs(d):.0f}{unit}"

    for name, e in features["variants"].items():
        feature = name.removeprefix("without ").removeprefix("with ")
        decision = features.get("decisions", {}).get(feature, "")
        if name == "no features":
            decision = "(every feature off, for scale)"
        rows.append(
            [
                name,
                fmt_score(e.get("scores", {}).get("performance")),
                delta(med(e, "performance"), med(base, "performance")) if e is not base else "",
                fmt_ms(e.get("metrics", {}).get("total-blocking-time")),
                delta(med(e, "total-blocking-time"), med(base, "total-blocking-time"), " ms")
                if e is not base
                else "",
                fmt_ms(e.get("metrics", {}).get("largest-contentful-paint")),
                f"{med(e, 'dom-size') or 0:.0f}",
                decision,
            ]
        )
    headers = ["lesson page", "perf", "Δ perf", "TBT", "Δ TBT", "LCP", "DOM elements"]
    return table([*headers, "decision"], rows)


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


def timings_table(results: dict[str, Any]) -> str:
    """Widgets, practice and build timings, one row each."""
    rows: list[list[object]] = []
    for section in ("minilm", "widgets", "practice", "build"):
        timings = results.get(section, {}).get("timings", {})
        for name, s in sorted(timings.items(), key=lambda kv: _ORDER.get(kv[0], 99)):
            rows.append([section, name, fmt_summary(s)])
    return table(["area", "what", "median (min–max)"], rows) if rows else ""


def _target_row(what: str, goal: str, value: str, ok: bool | None) -> list[str]:
    verdict = "not measured" if ok is None else ("met" if ok else "missed")
    return [what, goal, value, verdict]


def targets(results: dict[str, Any]) -> list[list[str]]:
    """Every target of the performance issue with the measured figure and a verdict."""
    rows: list[list[str]] = []
    for name in ("kernel", "kernel_1thread"):
        kernel = results.get(name)
        if not kernel:
            if name == "kernel":
                rows.append(
                    _target_row(
                        "attention_ref speed and memory (python -m bench --only kernel)",
                        f"≤ {TARGET_FLOOR}× floor, ≤ {TARGET_TORCH}× torch",
                        "–",
                        None,
                    )
                )
            continue
        threads = " (1 thread)" if name == "kernel_1thread" else ""
        big = next((r for r in kernel["rows"] if r["dtype"] == "float32" and r["n"] == 2048), None)
        if big is None:
            continue
        rf, rt = big["ratio_to_floor"], big["ratio_to_torch"]
        rows.append(
            _target_row(
                f"attention_ref ÷ two-matmul floor (n=2048, float32, 4 heads){threads}",
                f"≤ {TARGET_FLOOR}×",
                fmt_ratio(rf),
                rf <= TARGET_FLOOR,
            )
        )
        rows.append(
            _target_row(
                f"attention_ref ÷ torch SDPA on CPU (same case, same threads){threads}",
                f"≤ {TARGET_TORCH}×",
                fmt_ratio(rt),
                None if rt is None else rt <= TARGET_TORCH,
            )
        )
        if name == "kernel":
            worst = max(r["peak_extra_in_weights"] for r in kernel["rows"] if r["n"] >= 512)
            rows.append(
                _target_row(
                    "peak extra memory (n ≥ 512, worst case), in weights matrices",
                    f"≤ {TARGET_PEAK}",
                    f"{worst:.2f}",
                    worst <= TARGET_PEAK,
                )
            )
    rows += minilm_targets(results.get("minilm"))
    site: dict[str, Any] = results.get("site") or {}
    lesson = site["pages"].get(LESSON) if site else None
    if site:
        for path, e in site["pages"].items():
            rows += page_targets(path, e)
    if lesson:
        base = site["baseline"]
        allowed = TARGET_WEIGHT * base["bytes"] + lesson["katex_bytes"]
        rows.append(
            _target_row(
                "lesson page first load vs baseline",
                f"≤ {TARGET_WEIGHT} × {fmt_bytes(base['bytes'])} + KaTeX "
                f"{fmt_bytes(lesson['katex_bytes'])} = {fmt_bytes(allowed)}",
                fmt_bytes(lesson["bytes"]),
                lesson["bytes"] <= allowed,
            )
        )
        markup = lesson.get("katex_markup_bytes", 0)
        if markup:
            rows.append(
                _target_row(
                    "the same, counting KaTeX's build-time markup in the page as KaTeX too",
                    f"≤ {fmt_bytes(allowed)} + markup {fmt_bytes(markup)} = "
                    f"{fmt_bytes(allowed + markup)}",
                    fmt_bytes(lesson["bytes"]),
                    lesson["bytes"] <= allowed + markup,
                )
            )
        loaded = sorted({a for e in site["pages"].values() for a in e["lazy_assets_loaded"]})
        lazy = [a for a in loaded if a in MUST_BE_LAZY]
        rows.append(
            _target_row(
                "Pyodide, editor, practice runner on any page's first load",
                "none",
                ", ".join(lazy) or "none",
                not lazy,
            )
        )
        model = [p for p, e in site["pages"].items() if "model data" in e["lazy_assets_loaded"]]
        rows.append(
            _target_row(
                "real-model data (heatmap) fetched only where the widget is near the screen",
                "lesson page only",
                ", ".join(_page_name(p) for p in model) or "nowhere",
                set(model) <= {LESSON},
            )
        )
    else:
        rows.append(
            _target_row(
                "every page: Lighthouse mobile (python -m bench --only site)",
                f"≥ {TARGET_SCORES['performance']} · ≤ {TARGET_TBT_MS} ms · "
                f"≤ {TARGET_LCP_MS / 1000:.1f} s · {TARGET_CLS:g}",
                "–",
                None,
            )
        )
    build = results.get("build", {}).get("timings", {})
    warm, base_build = build.get("warm build (figures cached)"), build.get("baseline build")
    if warm and base_build:
        r = warm["median"] / base_build["median"]
        rows.append(
            _target_row(
                "warm mkdocs build ÷ baseline page's build",
                f"≤ {TARGET_BUILD}×",
                f"{fmt_ratio(r)} ({fmt_seconds(warm['median'])} vs "
                f"{fmt_seconds(base_build['median'])})",
                r <= TARGET_BUILD,
            )
        )
    else:
        rows.append(_target_row("warm build vs baseline build", f"≤ {TARGET_BUILD}×", "–", None))
    return rows


def minilm_targets(minilm: dict[str, Any] | None) -> list[list[str]]:
    """The real model's two targets: ``model.run`` against transformers, and loading.

    Examples
    --------
    >>> rows = minilm_targets({"tokens": 16, "ratio_to_transformers": 1.25, "timings": {
    ...     "model.run": {"median": 0.02}, "transformers eager forward": {"median": 0.016},
    ...     "load_minilm() (fresh process)": {"median": 0.4}}})
    >>> [row[2:] for row in rows]
    [['1.25× (20.0 ms vs 16.0 ms)', 'met'], ['400 ms', 'met']]
    >>> minilm_targets({"tokens": 16, "ratio_to_transformers": 3.0, "ratio_interleaved": 1.5,
    ...     "timings": {"model.run": {"median": 0.048},
    ...     "transformers eager forward": {"median": 0.016},
    ...     "load_minilm() (fresh process)": {"median": 0.4}}})[0][2:]
    ['3.00× (48.0 ms vs 16.0 ms); in turns 1.50×', 'met']
    >>> [row[3] for row in minilm_targets(None)]
    ['not measured', 'not measured']
    """
    run_goal, load_goal = f"≤ {TARGET_MINILM_RATIO:g}×", f"≤ {fmt_seconds(TARGET_MINILM_LOAD)}"
    run_what = "attention_ref.minilm model.run ÷ transformers eager forward (lesson sentence)"
    load_what = "load_minilm() in a fresh process"
    if not minilm:
        return [
            _target_row(run_what, run_goal, "–", None),
            _target_row(load_what, load_goal, "–", None),
        ]
    t = minilm["timings"]
    r = minilm.get("ratio_to_transformers")
    theirs = t.get("transformers eager forward")
    value = (
        "–"
        if r is None or theirs is None
        else (
            f"{fmt_ratio(r)} ({fmt_seconds(t['model.run']['median'])} vs "
            f"{fmt_seconds(theirs['median'])})"
        )
    )
    turns = minilm.get("ratio_interleaved")
    if turns is not None:  # the fairer figure on a busy machine (bench/minilm.py)
        value += f"; in turns {fmt_ratio(turns)}"
        r = turns
    load = t["load_minilm() (fresh process)"]["median"]
    return [
        _target_row(
            f"{run_what}, {minilm['tokens']} tokens",
            run_goal,
            value,
            None if r is None else r <= TARGET_MINILM_RATIO,
        ),
        _target_row(load_what, load_goal, fmt_seconds(load), load <= TARGET_MINILM_LOAD),
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


def load_lines(results: dict[str, Any]) -> list[str]:
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
    loads = {
        name: results[name]["load_average_before"][0]
        for name in ("kernel", "kernel_1thread", "minilm", "site", "widgets", "practice", "build")
        if results.get(name, {}).get("load_average_before")
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


def markdown(results: dict[str, Any]) -> str:
    """The whole report: targets, kernel, site, timings, machine."""
    parts = [
        f"Measured on {results.get('date', '?')}.",
        "",
        "**Targets**",
        "",
        table(["target", "goal", "measured", "verdict"], targets(results)),
    ]
    for name in ("kernel", "kernel_1thread"):
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
    parts += ["", "**Machine**", "", *machine_lines(results.get("machine", {}))]
    parts += load_lines(results)
    return "\n".join(parts) + "\n"
