"""The lesson pages now against the same pages at an earlier commit, in one run.

Lighthouse's scores move with the machine: on this kind of machine the same built page
has scored from 62 to 94 on different days and loads. "No worse than before" is only
worth saying when before and now are measured side by side, so this section builds the
site of an earlier commit (``--against REV``, in a temporary git worktree, with that
commit's own ``make build``), serves both sites and the plain Material page at once, and
runs Lighthouse in turns: each round measures every page before, then now, then the
plain page, so that a busier or quieter moment falls on both sides alike. Each figure is
the median of the rounds.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench.site import build_baseline, lighthouse
from bench.stats import summarize
from testbed.serve import built_pages, serve

ROOT = Path(__file__).resolve().parents[1]
SIDES = ("before", "now")


def _git(*args: str) -> str:
    done = subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True)
    return done.stdout.strip()


def build_at(rev: str, work: Path) -> Path:
    """Check ``rev`` out into ``work`` (a detached worktree) and build it with its own Makefile."""
    _git("worktree", "add", "--detach", "--force", str(work), rev)
    done = subprocess.run(["make", "build"], cwd=work, capture_output=True, text=True)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-15:])
        raise SystemExit(f"bench site_vs: `make build` failed at {rev}:\n{tail}")
    return work / "site"


def _pick(report: dict[str, Any]) -> dict[str, float]:
    """Performance score, TBT and LCP of one single-run Lighthouse summary."""
    scores, metrics = report["scores"], report["metrics"]
    return {
        "performance": scores["performance"]["median"],
        "total-blocking-time": metrics["total-blocking-time"]["median"],
        "largest-contentful-paint": metrics["largest-contentful-paint"]["median"],
    }


def run(
    against: str | None, lighthouse_runs: int = 3, site: Path = ROOT / "site"
) -> dict[str, Any]:
    """Lighthouse (mobile) on every page before and now, and on the plain page, in turns."""
    if not against:
        raise SystemExit("bench site_vs: name the earlier commit with --against REV")
    if not (site / "index.html").exists():
        raise SystemExit("site/ is not built: run `make build` first")
    commit = _git("rev-parse", "--short", against)
    subject = _git("log", "-1", "--format=%s", against)
    with tempfile.TemporaryDirectory(prefix="bench-site-vs-") as tmp:
        work = Path(tmp)
        print(f"  site_vs: building {commit}", file=sys.stderr, flush=True)
        try:
            sites = {"before": build_at(against, work / "before"), "now": site}
            baseline_site, _ = build_baseline(work)
            out = ROOT / "bench" / "out" / "site_vs"  # the last round's reports (git-ignored)
            for side in (*SIDES, "plain"):
                (out / side).mkdir(parents=True, exist_ok=True)
            samples: dict[str, dict[str, list[dict[str, float]]]] = {}
            plain: list[dict[str, float]] = []
            with contextlib.ExitStack() as stack:
                urls = {side: stack.enter_context(serve(path)) for side, path in sites.items()}
                plain_url = stack.enter_context(serve(baseline_site))
                pages = {side: built_pages(path) for side, path in sites.items()}
                order = list(dict.fromkeys(pages["now"] + pages["before"]))
                for i in range(lighthouse_runs):
                    for path in order:
                        for side in SIDES:
                            if path not in pages[side]:
                                continue
                            print(f"  site_vs: round {i + 1}, {side} /{path}", file=sys.stderr)
                            got = _pick(lighthouse(urls[side] + path, 1, out / side))
                            samples.setdefault(path, {}).setdefault(side, []).append(got)
                    plain.append(_pick(lighthouse(plain_url, 1, out / "plain")))
        finally:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(work / "before")],
                cwd=ROOT,
                capture_output=True,
            )

    def summary(runs: list[dict[str, float]]) -> dict[str, Any]:
        return {
            "performance": summarize([r["performance"] for r in runs], unit="score"),
            "total-blocking-time": summarize([r["total-blocking-time"] for r in runs], unit="ms"),
            "largest-contentful-paint": summarize(
                [r["largest-contentful-paint"] for r in runs], unit="ms"
            ),
        }

    return {
        "against": commit,
        "against_subject": subject,
        "lighthouse_runs": lighthouse_runs,
        "pages": {
            path: {side: summary(runs) for side, runs in by_side.items()}
            for path, by_side in samples.items()
        },
        "baseline": summary(plain),
    }
