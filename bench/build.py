"""How long the build takes: ``mkdocs build`` cold and warm, the baseline's build, ``make test``.

The project is copied (the files git tracks or would track, with ``node_modules`` linked)
into a temporary folder, so the caches and ``site/`` of the working tree are left alone.
Python's bytecode goes to a private cache folder (``PYTHONPYCACHEPREFIX``), warmed by one
untimed build, so the figures compare the project's own work:

- **cold**: ``.cache/`` removed before each build (figures re-rendered, the notebook
  executed again);
- **warm**: the same build again with every figure cached;
- **baseline**: the plain Material page of :mod:`bench.site`, built the same way;
- the warm and baseline builds again without Python bytecode files (as with
  ``PYTHONDONTWRITEBYTECODE=1`` and a venv installed without compiling): every import
  is compiled from source, which costs seconds in a build that imports Jupyter;
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


def build_env(pycache: Path, *, bytecode: bool = True) -> dict[str, str]:
    """The environment of a timed build: bytecode kept in ``pycache``, or none at all.

    With ``bytecode=False``, ``pycache`` should be an empty folder: Python then finds no
    bytecode there (it ignores ``__pycache__`` folders) and is told to write none.

    Examples
    --------
    >>> env = build_env(Path("cache"))
    >>> env["PYTHONPYCACHEPREFIX"], "PYTHONDONTWRITEBYTECODE" in env
    ('cache', False)
    >>> build_env(Path("empty"), bytecode=False)["PYTHONDONTWRITEBYTECODE"]
    '1'
    """
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPYCACHEPREFIX": str(pycache)}
    if bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def timed_build(project: Path, out: Path, env: dict[str, str]) -> float:
    """Seconds of one strict ``mkdocs build`` of ``project`` into ``out``."""
    mkdocs = str(Path(sys.executable).with_name("mkdocs"))
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
        env = build_env(work / "pycache")
        baseline = build_baseline(work)[0].parent
        # Untimed: fills the bytecode cache and the OS file cache for both projects.
        timed_build(project, work / "site", env)
        timed_build(baseline, work / "baseline-site", env)
        cold = []
        for _ in range(repeat):
            shutil.rmtree(project / ".cache", ignore_errors=True)
            cold.append(timed_build(project, work / "site", env))
        print("  build: cold done", file=sys.stderr, flush=True)
        warm = [timed_build(project, work / "site", env) for _ in range(repeat)]
        base = [timed_build(baseline, work / "baseline-site", env) for _ in range(repeat)]
        (work / "no-pycache").mkdir()
        no_pyc = build_env(work / "no-pycache", bytecode=False)
        warm_no_pyc = [timed_build(project, work / "site", no_pyc) for _ in range(repeat)]
        base_no_pyc = [timed_build(baseline, work / "baseline-site", no_pyc) for _ in range(repeat)]
        timings["cold build (no cache)"] = summarize(cold)
        timings["warm build (figures cached)"] = summarize(warm)
        timings["baseline build"] = summarize(base)
        timings["warm build, no bytecode cache"] = summarize(warm_no_pyc)
        timings["baseline build, no bytecode cache"] = summarize(base_no_pyc)
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
        "what": "strict mkdocs build of a copy of the project; seconds; Python bytecode "
        "cached (private PYTHONPYCACHEPREFIX) unless the row says otherwise",
        "timings": timings,
    }
