"""What each Material feature costs on the lesson page, and what instant navigation buys.

For every entry of ``theme.features`` in ``mkdocs.yml`` the site is built again without
it (a temporary config that inherits ``mkdocs.yml`` and replaces the list), served as
GitHub Pages serves it, and the lesson page is measured with Lighthouse (mobile preset)
like the pages of :mod:`bench.site`; the site as configured is measured in the same run.
A variant with an empty feature list shows what the features cost together.

Instant navigation is also measured where it should pay: a click from the home page to
the lesson page, in Chromium with Lighthouse's mobile throttling (4x CPU slowdown, 150 ms
round trip, 1.6 Mbit/s), timed from the click until the lesson's title is on screen.

:data:`DECISIONS` says what was decided for each feature; the report prints it beside the
figures, so the Performance page shows both.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

from bench.site import _AnyTagLoader, lighthouse
from bench.stats import summarize
from testbed.chromium import CHROME_FLAGS, CHROMIUM
from testbed.serve import local_sitemap, serve

ROOT = Path(__file__).resolve().parents[1]
PAGE = "attention/"

#: Features measured although they are off, so that the decision stays visible.
CANDIDATES = ("navigation.instant",)

#: The decision taken for each feature, shown beside its measured cost.
DECISIONS = {
    "navigation.instant": "dropped: it cost the lesson page about 120-140 ms of blocking "
    "time at every load (TBT over 300 ms with it) to save about 1 s on a click; "
    "speculation rules now prefetch a page when a link is about to be followed",
    "navigation.sections": "kept: the navigation's sections; within the runs' spread",
    "navigation.footer": "kept: previous/next links; within the runs' spread",
    "toc.follow": "kept: within the runs' spread now that far blocks render later",
    "search.highlight": "kept: acts only after a search; within the runs' spread",
    "content.code.copy": "kept, mounted lazily (content.lazy): a copy button per code "
    "block is built when the block comes into view",
    "content.lazy": "added: code blocks are mounted when they come into view, not at load",
    "content.action.edit": "kept: one link in the page header; within the runs' spread",
}


def variant_config(features: list[str], site_dir: Path) -> str:
    """A MkDocs config that inherits the project's and replaces its feature list.

    Examples
    --------
    >>> print(variant_config(["toc.follow"], Path("/tmp/s")))
    INHERIT: mkdocs.yml
    site_dir: /tmp/s
    theme:
      features:
      - toc.follow
    <BLANKLINE>
    """
    return "INHERIT: mkdocs.yml\n" + yaml.safe_dump(
        {"site_dir": str(site_dir), "theme": {"features": features}}, sort_keys=False
    )


def project_features() -> list[str]:
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_AnyTagLoader)
    return list(config["theme"].get("features", []))


def build_variant(name: str, features: list[str], out: Path) -> Path:
    """Build the site with ``features`` into ``out / name``; return that folder."""
    site = out / name
    config = ROOT / f".bench-features-{os.getpid()}.yml"  # beside mkdocs.yml: relative paths hold
    config.write_text(variant_config(features, site), encoding="utf-8")
    try:
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "HTMLPROOFER": "false"}
        mkdocs = str(Path(sys.executable).with_name("mkdocs"))
        subprocess.run(
            [mkdocs, "build", "-q", "-f", str(config)],
            cwd=ROOT,
            check=True,
            capture_output=True,
            env=env,
        )
    finally:
        config.unlink(missing_ok=True)
    return site


def navigation_ms(site: Path, repeat: int) -> dict[str, Any]:
    """Click from the home page to the lesson page, throttled like Lighthouse's mobile preset."""
    from playwright.sync_api import sync_playwright

    samples: list[float] = []
    with sync_playwright() as pw, serve(site) as base:
        sitemap = local_sitemap(site, base)

        def fulfil_sitemap(route: Any) -> None:
            route.fulfill(body=sitemap, content_type="application/xml")

        browser = pw.chromium.launch(
            executable_path=CHROMIUM, args=[f for f in CHROME_FLAGS if f != "--headless=new"]
        )
        for _ in range(repeat):
            context = browser.new_context(viewport={"width": 412, "height": 823})
            context.route("**/sitemap.xml", fulfil_sitemap)  # instant navigation works here
            page = context.new_page()
            page.goto(base, wait_until="load")
            page.wait_for_load_state("networkidle")  # Material has read the sitemap
            page.evaluate("window.__samePage = true")
            cdp = context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
            cdp.send(
                "Network.emulateNetworkConditions",
                {
                    "offline": False,
                    "latency": 150,
                    "downloadThroughput": 1.6 * 1024 * 1024 / 8,
                    "uploadThroughput": 750 * 1024 / 8,
                },
            )
            link = page.locator(f"a.md-nav__link[href$='{PAGE}']").first
            start = time.perf_counter()
            link.evaluate("(a) => a.click()")  # the drawer is closed on a phone
            page.wait_for_function(
                "() => location.pathname.endsWith('/attention/') && "
                "document.querySelector('article h1')?.textContent.includes('Attention')"
            )
            samples.append((time.perf_counter() - start) * 1000)
            instant = page.evaluate("window.__samePage === true")
            context.close()
        browser.close()
    return {**summarize(samples, unit="ms"), "instant": instant}


def run(lighthouse_runs: int = 3, repeat: int = 5) -> dict[str, Any]:
    """Lighthouse on the lesson page for each feature variant; navigation with and without."""
    features = project_features()
    variants: dict[str, list[str]] = {"as configured": features}
    for feature in features:
        variants[f"without {feature}"] = [f for f in features if f != feature]
    for feature in CANDIDATES:
        if feature not in features:
            variants[f"with {feature}"] = [*features, feature]
    variants["no features"] = []
    results: dict[str, Any] = {"features": features, "page": "/" + PAGE, "variants": {}}
    with tempfile.TemporaryDirectory(prefix="bench-features-") as tmp:
        out = Path(tmp)
        reports = ROOT / "bench" / "out" / "features"
        reports.mkdir(parents=True, exist_ok=True)
        for name, enabled in variants.items():
            print(f"  features: {name}", file=sys.stderr, flush=True)
            site = build_variant(name.replace(" ", "_"), enabled, out)
            with serve(site) as base:
                entry = lighthouse(base + PAGE, lighthouse_runs, reports)
            if name in ("as configured", "without navigation.instant", "with navigation.instant"):
                entry["navigation_ms"] = navigation_ms(site, repeat)
            results["variants"][name] = entry
    results["decisions"] = {f: DECISIONS.get(f, "not decided") for f in (*features, *CANDIDATES)}
    return results


if __name__ == "__main__":
    print(json.dumps(run(lighthouse_runs=1, repeat=2), indent=1))
