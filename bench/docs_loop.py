"""How long a contributor waits: ``make test-docs`` and ``make outputs``.

- **make test-docs**: the target as written in the Makefile, in the working tree (it
  writes nothing: pytest's cache is off);
- **make outputs, after a changed input**: in a copy of the project (the files git tracks
  or would track) made a git repository, the worked example's ``v_1`` is changed to
  ``[10, 1]`` and committed, then ``python -m testbed.outputs`` rewrites the stale blocks
  and runs the claim tests; the copy is reset between samples;
- **make outputs, nothing stale**: the same run again, a no-op.

Each figure is the median of ``repeat`` runs. The target for ``make test-docs`` is 60 s on
this kind of machine (2 cores).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.build import copy_project
from bench.stats import summarize

ROOT = Path(__file__).resolve().parents[1]
TARGET_TEST_DOCS = 60.0  # seconds


def _git(folder: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.org", *args],
        cwd=folder,
        check=True,
        capture_output=True,
    )


def _timed(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, int]:
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True)
    return time.perf_counter() - start, done.returncode


def run(repeat: int = 3) -> dict[str, Any]:
    timings: dict[str, Any] = {}
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    runs = [_timed(["make", "-s", "test-docs"], ROOT, env) for _ in range(repeat)]
    timings["make test-docs"] = summarize([t for t, _ in runs])
    timings["make test-docs"]["exit_codes"] = sorted({code for _, code in runs})
    with tempfile.TemporaryDirectory(prefix="bench-outputs-") as tmp:
        project = copy_project(Path(tmp) / "project")
        _git(project, "init", "-q")
        _git(project, "add", "-A")
        _git(project, "commit", "-q", "-m", "copy")
        snippet = project / "snippets" / "worked_example.py"
        text = snippet.read_text(encoding="utf-8")
        snippet.write_text(text.replace("= [10, 0], [0, 5]", "= [10, 1], [0, 5]"))
        _git(project, "commit", "-q", "-am", "v_1 = [10, 1]")
        command = [sys.executable, "-m", "testbed.outputs"]
        out_env = {**env, "PYTHONPATH": str(project)}
        changed, unchanged = [], []
        for _ in range(repeat):
            _git(project, "checkout", "-q", "--", ".")
            subprocess.run(["rm", "-rf", ".cache/outputs"], cwd=project, check=True)
            changed.append(_timed(command, project, out_env)[0])
            unchanged.append(_timed(command, project, out_env)[0])
    timings["make outputs, after a changed input (5 blocks)"] = summarize(changed)
    timings["make outputs, nothing stale"] = summarize(unchanged)
    return {
        "what": "seconds a contributor waits: make test-docs in the working tree; "
        "make outputs (claim tests included) in a copy of the project",
        "timings": timings,
        "target_test_docs_seconds": TARGET_TEST_DOCS,
    }
