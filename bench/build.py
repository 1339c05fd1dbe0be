"""How long the build takes: ``mkdocs build`` cold and warm, the baseline's build, ``make test``.

The project is copied (the files git tracks or would track, with ``node_modules`` linked)
into a temporary folder, so the caches and ``site/`` of the working tree are left alone:

- **cold**: ``.cache/`` removed before each build (figures re-rendered, the notebook
  executed again);
- **warm**: the same build again with every figure cached;
- **baseline**: the plain Material page of :mod:`bench.site`, built the same way;
- **make test** (only with ``--with-make-test``: it takes minutes): ``make test`` once in
  the working tree, after everything is installed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.site import build_baseline
from bench.stats import summarize

ROOT = Path(__file__).resolve().parents[1]


def copy_project(dest: Path) -> Path:
    """Copy the project's source files (not site/, caches or the venv) into ``dest``."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout.decode()
    for rel in filter(None, listed.split("\0")):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    (dest / "node_modules").symlink_to(ROOT / "node_modules")
    return dest


def timed_build(project: Path, out: Path) -> float:
    """Seconds of one strict ``mkdocs build`` of ``project`` into ``out``."""
    mkdocs = str(Path(sys.executable).with_name("mkdocs"))
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    start = time.perf_counter()
    subprocess.run(
        [mkdocs, "build", "--strict", "-q", "-d", str(out)],
        cwd=project,
        check=True,
        capture_output=True,
        env=env,
    )
    return time.perf_counter() - start


def run(repeat: int = 3, with_make_test: bool = False) -> dict[str, Any]:
    timings: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="bench-build-") as tmp:
        work = Path(tmp)
        project = copy_project(work / "project")
        cold = []
        for _ in range(repeat):
            shutil.rmtree(project / ".cache", ignore_errors=True)
            cold.append(timed_build(project, work / "site"))
        print("  build: cold done", file=sys.stderr, flush=True)
        warm = [timed_build(project, work / "site") for _ in range(repeat)]
        baseline_site, first = build_baseline(work)
        baseline = [first] + [
            timed_build(baseline_site.parent, work / "baseline-site") for _ in range(repeat - 1)
        ]
        timings["cold build (no cache)"] = summarize(cold)
        timings["warm build (figures cached)"] = summarize(warm)
        timings["baseline build"] = summarize(baseline)
    if with_make_test:
        print("  build: make test (long)", file=sys.stderr, flush=True)
        start = time.perf_counter()
        proc = subprocess.run(["make", "test"], cwd=ROOT, capture_output=True, text=True)
        elapsed = time.perf_counter() - start
        timings["make test (warm)"] = summarize([elapsed])
        tail = proc.stdout.strip().splitlines()[-1:] if proc.stdout else []
        timings["make test (warm)"]["exit_code"] = proc.returncode
        timings["make test (warm)"]["last_line"] = tail[0] if tail else ""
    return {
        "what": "strict mkdocs build of a copy of the project; seconds",
        "timings": timings,
    }
