"""The site as a reader gets it: bytes, requests and Lighthouse scores for every page.

Every built page is opened in Debian's Chromium (Playwright) with an empty cache and
no scrolling, so the practice section is not near the viewport and Pyodide must not
load: that is the "first load". A plain Material page (``mkdocs new`` with the same theme
settings) is built and measured in the same run as the baseline.

Lighthouse 12.2.3 (npm, mobile preset, the default) runs several times per page; each
category score is the median of the runs. The full-page screenshot is disabled: it
resizes the window to the whole page, which would bring the practice section into view.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

from bench.stats import summarize
from site_build.vendor import KATEX_DEST
from testbed.chromium import CHROME_FLAGS, CHROMIUM
from testbed.pageweight import RequestLog
from testbed.serve import built_pages, serve

ROOT = Path(__file__).resolve().parents[1]
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
METRICS = (
    "first-contentful-paint",
    "largest-contentful-paint",
    "total-blocking-time",
    "cumulative-layout-shift",
    "speed-index",
    "dom-size",
)


class _AnyTagLoader(yaml.SafeLoader):
    """Reads mkdocs.yml without resolving its custom tags (!ENV, !relative)."""


_AnyTagLoader.add_multi_constructor("!", lambda loader, suffix, node: None)


def baseline_config(project_config: dict[str, Any]) -> dict[str, Any]:
    """The ``mkdocs new`` site's config with the project's theme settings.

    Same theme name, ``font``, features and palette, and a ``site_description``;
    no custom_dir, hooks, plugins beyond search, or Markdown extensions.

    Examples
    --------
    >>> cfg = baseline_config({"site_description": "d", "theme": {
    ...     "name": "material", "custom_dir": "docs/overrides", "font": False}})
    >>> cfg["theme"]
    {'name': 'material', 'font': False}
    """
    theme = {k: v for k, v in project_config.get("theme", {}).items() if k != "custom_dir"}
    return {
        "site_name": "Baseline",
        "site_description": project_config.get("site_description") or "A plain Material page.",
        "theme": theme,
    }


def build_baseline(work: Path) -> tuple[Path, float]:
    """``mkdocs new`` into ``work``, apply the theme settings, build; return (site, seconds)."""
    mkdocs = str(Path(sys.executable).with_name("mkdocs"))
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    project = work / "baseline"
    subprocess.run([mkdocs, "new", str(project)], check=True, capture_output=True, env=env)
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_AnyTagLoader)
    (project / "mkdocs.yml").write_text(yaml.safe_dump(baseline_config(config)), encoding="utf-8")
    start = time.perf_counter()
    subprocess.run(
        [mkdocs, "build", "--strict", "-q"], cwd=project, check=True, capture_output=True, env=env
    )
    return project / "site", time.perf_counter() - start


def first_load(browser: Any, url: str, color_scheme: str = "light") -> dict[str, Any]:
    """Open ``url`` in a fresh context (empty cache) and count what it fetched."""
    context = browser.new_context(
        viewport={"width": 1280, "height": 900},
        color_scheme=color_scheme,
        service_workers="block",
    )
    blocked: list[str] = []

    def route(r: Any) -> None:
        if urlsplit(r.request.url).hostname == "127.0.0.1":
            r.continue_()
        else:
            blocked.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    log = RequestLog().attach(page)
    page.goto(url, wait_until="load")
    # Pages of this site render far blocks after load (settle.js); the fonts of their
    # formulas belong to the first load too. The baseline page has no such script.
    page.wait_for_function(
        """() => !document.querySelector('script[src*="settle.js"]')
            || document.documentElement.hasAttribute('data-settled')""",
        timeout=15_000,
    )
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(500)  # late lazy loaders would show here
    result = log.totals()
    result["third_party"] = sorted(set(result["third_party"]) | set(blocked))
    result["console_errors"] = errors
    result["katex_bytes"] = sum(
        e["bytes"] for e in log.entries() if urlsplit(e["url"]).path.startswith(f"/{KATEX_DEST}/")
    )
    # Math typeset at build time: KaTeX's markup travels inside the page (approximate:
    # the elements as the browser serialises them again).
    result["katex_markup_bytes"] = page.evaluate(
        """() => [...document.querySelectorAll('.katex')]
            .filter((e) => !e.parentElement.closest('.katex'))
            .reduce((n, e) => n + new TextEncoder().encode(e.outerHTML).length, 0)"""
    )
    context.close()
    return result


def slug(url: str) -> str:
    """A file name for a page URL.

    Examples
    --------
    >>> slug("http://127.0.0.1:8000/notebooks/sqrt_dk/"), slug("http://127.0.0.1:8000/")
    ('notebooks-sqrt_dk', 'home')
    """
    path = urlsplit(url).path.strip("/")
    return path.replace("/", "-") or "home"


def lighthouse(url: str, runs: int, out_dir: Path) -> dict[str, Any]:
    """Median (min, max) of each Lighthouse category score (0-100) and key metrics."""
    binary = ROOT / "node_modules" / ".bin" / "lighthouse"
    env = {**os.environ, "CHROME_PATH": CHROMIUM}
    scores: dict[str, list[float]] = {c: [] for c in CATEGORIES}
    metrics: dict[str, list[float]] = {m: [] for m in METRICS}
    missed: dict[str, set[str]] = {c: set() for c in CATEGORIES}
    failed: dict[str, int] = {c: 0 for c in CATEGORIES}
    version = None
    for i in range(runs):
        report = out_dir / f"lighthouse-{slug(url)}-{i}.json"
        subprocess.run(
            [
                str(binary),
                url,
                "--quiet",
                "--output=json",
                f"--output-path={report}",
                f"--chrome-flags={' '.join(CHROME_FLAGS)}",
                f"--only-categories={','.join(CATEGORIES)}",
                "--disable-full-page-screenshot",
            ],
            check=True,
            env=env,
            capture_output=True,
        )
        data = json.loads(report.read_text(encoding="utf-8"))
        version = data.get("lighthouseVersion")
        for cat in CATEGORIES:
            category = data["categories"][cat]
            if category["score"] is None:  # Lighthouse could not score this run
                failed[cat] += 1
                continue
            scores[cat].append(round(100 * category["score"]))
            for ref in category["auditRefs"]:
                audit = data["audits"][ref["id"]]
                score = audit.get("score")
                if ref.get("weight", 0) > 0 and score is not None and score < 1:
                    missed[cat].add(ref["id"])
        for m in METRICS:
            value = data["audits"][m].get("numericValue")
            if value is not None:
                metrics[m].append(float(value))
    return {
        "version": version,
        "scores": {c: summarize(v, unit="score") for c, v in scores.items() if v},
        "unscored_runs": {c: n for c, n in failed.items() if n},
        "metrics": {
            m: summarize(v, unit="" if m in ("cumulative-layout-shift", "dom-size") else "ms")
            for m, v in metrics.items()
            if v
        },
        "audits_below_full_score": {c: sorted(v) for c, v in missed.items() if v},
    }


def measure_site(
    site: Path, browser: Any, runs: int, out_dir: Path, pages: list[str]
) -> dict[str, Any]:
    """First load and Lighthouse for each page of one built site."""
    results: dict[str, Any] = {}
    with serve(site) as base:
        for path in pages:
            print(f"  site: /{path}", file=sys.stderr, flush=True)
            entry = first_load(browser, base + path)
            if runs > 0:
                entry["lighthouse"] = lighthouse(base + path, runs, out_dir)
            results[path] = entry
    return results


def run(lighthouse_runs: int = 3, site: Path = ROOT / "site") -> dict[str, Any]:
    """Measure the built ``site/`` and a baseline Material page built here."""
    from playwright.sync_api import sync_playwright

    if not (site / "index.html").exists():
        raise SystemExit("site/ is not built: run `make build` first (make bench does)")
    with tempfile.TemporaryDirectory(prefix="bench-site-") as tmp:
        work = Path(tmp)
        baseline_site, baseline_build = build_baseline(work)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=CHROMIUM, args=[f for f in CHROME_FLAGS if f != "--headless=new"]
            )
            out = ROOT / "bench" / "out"  # Lighthouse reports, for a closer look (git-ignored)
            out.mkdir(parents=True, exist_ok=True)
            pages = measure_site(site, browser, lighthouse_runs, out, built_pages(site))
            (out / "baseline").mkdir(exist_ok=True)
            baseline = measure_site(
                baseline_site, browser, lighthouse_runs, out / "baseline", [""]
            )[""]
            browser.close()
        shutil.rmtree(work / "baseline", ignore_errors=True)
    return {
        "bytes_are": "served like GitHub Pages (text types gzipped); transfer: encoded bodies "
        "plus headers, as Chromium counted them; decoded: bodies after gzip",
        "lighthouse_runs": lighthouse_runs,
        "lighthouse_preset": "mobile (default), full-page screenshot disabled",
        "pages": pages,
        "baseline": baseline,
        "baseline_build_seconds_single": baseline_build,
    }
