"""How long a contributor waits: ``make test-docs`` and ``make outputs``.

- **make test-docs**: the target as written in the Makefile, in the working tree (it
  writes nothing: pytest's cache is off);
- **make outputs, after a changed input**: in a copy of the project (the files git tracks
  or would track) made a git repository, the worked example's ``v_1`` is changed to
  ``[10, 1]`` and committed, then ``python -m testbed.outputs`` rewrites the stale blocks
  and runs the claim tests; the copy is reset between samples;
- **make outputs, nothing stale**: the same run again, a no-op.

Each figure is the median of ``repeat`` runs; the CPU time (user + system, of every
process a run starts) is kept too, since on a busy machine the wall time says more
about the other work than about this one. The target for ``make test-docs`` is 60 s
on this kind of machine (2 cores).
"""

from __future__ import annotations

import gzip
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.build import copy_project
from bench.stats import summarize
from site_build import worked_example
from testbed.worked_input import with_input

ROOT = Path(__file__).resolve().parents[1]
TARGET_TEST_DOCS = 60.0  # seconds


def _git(folder: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.org", *args],
        cwd=folder,
        check=True,
        capture_output=True,
    )


_CPU: list[float] = []  # CPU seconds (user + system) of the last timed command's processes


def _timed(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, int]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    _CPU.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return elapsed, done.returncode


_LINE = re.compile(r'<p class="output-source"[^>]*>.*?</p>', re.DOTALL)


def source_line_cost(site: Path) -> dict[str, dict[str, int]]:
    """What the source lines add to each built page that has them.

    Lines, elements (the ``<p>`` and its links), bytes of HTML and bytes gzipped (the
    page gzipped with and without them, level 9): measured on the built files.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     page = Path(tmp, "a", "index.html")
    ...     page.parent.mkdir()
    ...     line = '<p class="output-source"><a href="x">s</a> · <a href="y">c</a></p>'
    ...     _ = page.write_text(line)
    ...     cost = source_line_cost(Path(tmp))
    >>> cost["a/index.html"]["lines"], cost["a/index.html"]["elements"]
    (1, 3)
    """
    found: dict[str, dict[str, int]] = {}
    for page in sorted(site.rglob("index.html")):
        html = page.read_text(encoding="utf-8")
        lines = _LINE.findall(html)
        if not lines:
            continue
        without = _LINE.sub("", html)
        found[page.relative_to(site).as_posix()] = {
            "lines": len(lines),
            "elements": sum(line.count("<a ") + 1 for line in lines),
            "bytes": len(html.encode()) - len(without.encode()),
            "gzip_bytes": len(gzip.compress(html.encode(), 9, mtime=0))
            - len(gzip.compress(without.encode(), 9, mtime=0)),
        }
    return found


def run(repeat: int = 3, site: Path = ROOT / "site") -> dict[str, Any]:
    timings: dict[str, Any] = {}
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    _CPU.clear()
    runs = [_timed(["make", "-s", "test-docs"], ROOT, env) for _ in range(repeat)]
    timings["make test-docs"] = summarize([t for t, _ in runs])
    timings["make test-docs"]["exit_codes"] = sorted({code for _, code in runs})
    timings["make test-docs, CPU time"] = summarize(list(_CPU))
    with tempfile.TemporaryDirectory(prefix="bench-outputs-") as tmp:
        project = copy_project(Path(tmp) / "project")
        _git(project, "init", "-q")
        _git(project, "add", "-A")
        _git(project, "commit", "-q", "-m", "copy")
        snippet = project / "snippets" / "worked_example.py"
        was = worked_example.read(snippet)
        v_1 = [was.values[0][0], was.values[0][1] + 1]  # a contributor's change
        text = with_input(snippet.read_text(encoding="utf-8"), "v_1", v_1)
        snippet.write_text(text, encoding="utf-8")
        _git(project, "commit", "-q", "-am", f"v_1 = {v_1}")
        command = [sys.executable, "-m", "testbed.outputs"]
        out_env = {**env, "PYTHONPATH": str(project)}
        changed, unchanged, cpu = [], [], []
        for _ in range(repeat):
            _git(project, "checkout", "-q", "--", ".")
            subprocess.run(["rm", "-rf", ".cache/outputs"], cwd=project, check=True)
            _CPU.clear()
            changed.append(_timed(command, project, out_env)[0])
            cpu.append(_CPU[0])
            unchanged.append(_timed(command, project, out_env)[0])
    timings["make outputs, after a changed input (5 blocks)"] = summarize(changed)
    timings["make outputs, after a changed input, CPU time"] = summarize(cpu)
    timings["make outputs, nothing stale"] = summarize(unchanged)
    return {
        "what": "seconds a contributor waits: make test-docs in the working tree; "
        "make outputs (claim tests included) in a copy of the project",
        "timings": timings,
        "target_test_docs_seconds": TARGET_TEST_DOCS,
        "source_lines": source_line_cost(site) if site.is_dir() else {},
    }


def lighthouse_paired(site: Path, pages: list[str], runs: int = 3) -> dict[str, Any]:
    """Lighthouse on each page with and without its source lines, runs interleaved.

    The "without" site is a copy of ``site`` with the lines cut out of the HTML; both
    are served gzipped (``testbed.serve``), and the runs alternate between them, so that
    a busy machine weighs on both alike.
    """
    from bench.site import lighthouse
    from testbed.serve import serve

    found: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="bench-lines-") as tmp:
        bare = Path(tmp) / "site"
        shutil.copytree(site, bare)
        for page in bare.rglob("index.html"):
            page.write_text(_LINE.sub("", page.read_text(encoding="utf-8")), encoding="utf-8")
        out = Path(tmp) / "reports"
        out.mkdir()
        with serve(site) as with_lines, serve(bare) as without:
            for path in pages:
                print(f"  docs: Lighthouse /{path}", file=sys.stderr, flush=True)
                pairs: dict[str, list[dict[str, Any]]] = {"with": [], "without": []}
                for _ in range(runs):
                    pairs["with"].append(lighthouse(with_lines + path, 1, out))
                    pairs["without"].append(lighthouse(without + path, 1, out))
                found[path] = {
                    side: {
                        "performance": summarize(
                            [r["scores"]["performance"]["median"] for r in results], "score"
                        ),
                        "tbt_ms": summarize(
                            [r["metrics"]["total-blocking-time"]["median"] for r in results],
                            "ms",
                        ),
                        "dom_size": summarize(
                            [r["metrics"]["dom-size"]["median"] for r in results], ""
                        ),
                    }
                    for side, results in pairs.items()
                }
    return found


if __name__ == "__main__":
    import json

    result = lighthouse_paired(ROOT / "site", ["attention/", "self-attention/"])
    print(json.dumps(result, indent=1))
