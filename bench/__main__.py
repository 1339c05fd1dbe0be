"""``make bench``: measure, write ``bench/results.json`` and ``bench/results.md``, print a table.

Usage::

    python -m bench                       # everything except `make test` (several minutes)
    python -m bench --only kernel,site    # some sections; the others keep their last results
                                          # (kernel, kernel_1thread, kernel_wheel, minilm,
                                          # site, site_vs, features, widgets, browser_model,
                                          # practice, build, docs, ci)
    python -m bench --only site_vs --against REV   # the pages now against REV's, in turns
    python -m bench --with-make-test      # also time one warm `make test` (long)
    python -m bench --write-page          # only regenerate bench/results.md from results.json
    python -m bench --update-budgets      # measure every page and rewrite tests/budgets.json

``bench/results.md`` is the table that ``docs/performance.md`` includes.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from bench import (
    browser_model,
    build,
    ci,
    docs_loop,
    features,
    kernel,
    minilm,
    practice,
    report,
    site,
    site_vs,
    widgets,
)
from bench.schema import Results

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results.json"
PAGE_TABLE = ROOT / "bench" / "results.md"
# What each section runs, with the options parsed by main(); the table's order is the
# order of a full run.
RUNS: dict[str, Callable[[argparse.Namespace], dict[str, Any]]] = {
    "kernel": lambda a: kernel.run(repeat=a.repeat, threads=a.threads),
    "kernel_1thread": lambda a: kernel.run(repeat=a.repeat, threads=1),
    "kernel_wheel": lambda a: kernel.run_from_wheel(repeat=a.repeat, threads=a.threads or 2),
    "minilm": lambda a: minilm.run(repeat=a.repeat, threads=a.threads),
    "site": lambda a: site.run(lighthouse_runs=a.lighthouse_runs, site=a.site),
    "site_vs": lambda a: site_vs.run(a.against, lighthouse_runs=a.lighthouse_runs, site=a.site),
    "features": lambda a: features.run(lighthouse_runs=a.lighthouse_runs, repeat=a.browser_repeat),
    "widgets": lambda a: widgets.run(repeat=a.repeat, site=a.site),
    "browser_model": lambda a: browser_model.run(repeat=a.repeat, site=a.site),
    "practice": lambda a: practice.run(repeat=a.browser_repeat, site=a.site),
    "build": lambda a: build.run(repeat=a.build_repeat, with_make_test=a.with_make_test),
    "docs": lambda a: docs_loop.run(repeat=a.build_repeat, site=a.site),
    "ci": lambda a: ci.run(repeat=1),
}
SECTIONS = tuple(RUNS)


def _now() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


def raise_priority(increment: int) -> str:
    """Renice this process (children inherit it) so other work disturbs the timings less."""
    if increment == 0:
        return "normal (nice 0)"
    try:
        value = os.nice(increment)
    except PermissionError:
        return f"normal (nice {os.nice(0)}; raising it needs root)"
    return f"nice {value} (raised so that other work on the machine disturbs the timings less)"


def load() -> dict[str, Any]:
    if RESULTS.exists():
        data: dict[str, Any] = json.loads(RESULTS.read_text(encoding="utf-8"))
        return data
    return {}


def measure(section: str, args: argparse.Namespace) -> dict[str, Any]:
    if section not in RUNS:
        raise ValueError(f"unknown section {section!r}; choose from {', '.join(SECTIONS)}")
    return RUNS[section](args)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--only", help="comma-separated sections (default: all; site_vs only with --against)"
    )
    parser.add_argument("--repeat", type=int, default=7, help="timing samples (kernel, widgets)")
    parser.add_argument("--lighthouse-runs", type=int, default=3, help="Lighthouse runs a page")
    parser.add_argument("--browser-repeat", type=int, default=3, help="Pyodide cold starts")
    parser.add_argument("--build-repeat", type=int, default=3, help="builds of each kind")
    parser.add_argument("--site", type=Path, default=ROOT / "site", help="the built site")
    parser.add_argument("--against", help="site_vs: the earlier commit to compare the pages with")
    parser.add_argument("--threads", type=int, help="BLAS and torch threads (default: BLAS's)")
    parser.add_argument("--with-make-test", action="store_true", help="also time `make test`")
    parser.add_argument("--write-page", action="store_true", help="only rewrite results.md")
    parser.add_argument("--update-budgets", action="store_true", help="rewrite tests/budgets.json")
    parser.add_argument(
        "--nice",
        type=int,
        default=-10,
        help="niceness increment for the bench and its children (negative needs root; 0 = off)",
    )
    args = parser.parse_args(argv)
    priority = raise_priority(args.nice)

    results = load()
    if args.update_budgets:
        from bench import budgets

        path = budgets.update(site=args.site)
        print(f"wrote {path.relative_to(ROOT)}")
        return 0
    if not args.write_page:
        default = [s for s in SECTIONS if s != "site_vs" or args.against]
        sections = [s.strip() for s in args.only.split(",") if s.strip()] if args.only else default
        unknown = sorted(set(sections) - set(SECTIONS))
        if unknown:
            parser.error(f"unknown section(s) {unknown}; choose from {', '.join(SECTIONS)}")
        from bench.machine import machine

        started = time.perf_counter()
        load_at_start = [round(x, 2) for x in os.getloadavg()]
        for section in sections:
            print(f"bench: {section}...", file=sys.stderr, flush=True)
            t0 = time.perf_counter()
            results[section] = measure(section, args)
            results[section]["measured"] = _now()
            results[section]["bench_seconds"] = round(time.perf_counter() - t0, 1)
            results[section]["load_average_before"] = load_at_start
            load_at_start = [round(x, 2) for x in os.getloadavg()]
        blas = results.get("kernel", {}).get("blas")
        results["machine"] = machine(blas)
        results["date"] = _now()
        results["bench_seconds"] = round(time.perf_counter() - started, 1)
        results["sections_in_last_run"] = sections
        results["machine"]["bench_priority"] = priority
        RESULTS.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    text = report.markdown(cast(Results, results))
    PAGE_TABLE.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
