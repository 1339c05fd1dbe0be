"""How long the build takes: ``mkdocs build`` cold and warm, a rebuild under ``make serve``.

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
- **prose edit under serve**: ``make serve`` is started in the copy on a free port; once
  it serves, a paragraph is appended to ``docs/attention.md`` and the time until the
  server logs that the rebuilt site is live ("Reloading browsers") is one sample. That
  time includes MkDocs' file-watcher delay (it polls every 0.5 s, then waits 0.1 s for
  more changes), as a contributor sees it; a second row keeps the rebuild alone. Each
  sample checks that the served page carries the edit, then the page is restored (and
  that rebuild waited for) before the next one;
- **make test** (only with ``--with-make-test``: it takes minutes): ``make test`` once in
  the working tree, after everything is installed.
"""

from __future__ import annotations

import os
import queue
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import IO, Any

from bench.site import build_baseline
from bench.stats import summarize
from testbed.site import build_site

ROOT = Path(__file__).resolve().parents[1]


def project_files(root: Path = ROOT) -> list[str]:
    """The project's source files under ``root`` (what git tracks or would track, not
    site/, caches or the venv), sorted, as paths relative to ``root``."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=root,
        check=True,
        capture_output=True,
    ).stdout.decode()
    return sorted(rel for rel in listed.split("\0") if rel and (root / rel).is_file())


def copy_project(dest: Path) -> Path:
    """Copy the project's source files (not site/, caches or the venv) into ``dest``."""
    for rel in project_files():
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, dest / rel)
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
    start = time.perf_counter()
    build_site(out, env=env, project=project, capture=True)
    return time.perf_counter() - start


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port on ``host`` that nothing listens on at the moment of the call."""
    with socket.socket() as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
    return port


#: What ``mkdocs serve`` logs when a rebuild starts, when the rebuilt site is live, and
#: when a rebuild failed. (MkDocs' own "Documentation built in" line is no use here: its
#: logger drops a message it has printed before, so a build time that repeats is lost.)
REBUILDING = "Building documentation..."
REBUILT = "Reloading browsers"
REBUILD_FAILED = "An error happened during the rebuild"


def rebuild_seconds(lines: list[tuple[float, str]]) -> float:
    """Seconds from the one rebuild's start to its end, read off timed log lines.

    Raises
    ------
    RuntimeError
        If the lines hold no rebuild, or more than one (one edit must make one rebuild).

    Examples
    --------
    >>> rebuild_seconds([(0.0, "Detected file changes"), (0.1, "INFO - Building documentation..."),
    ...                  (0.6, "INFO - Reloading browsers")])
    0.5
    """
    starts = [when for when, line in lines if REBUILDING in line]
    ends = [when for when, line in lines if REBUILT in line]
    if len(starts) != 1 or len(ends) != 1:
        text = "\n".join(line for _, line in lines)
        raise RuntimeError(f"expected exactly one rebuild in the log, got:\n{text}")
    return ends[0] - starts[0]


def prose_edit(n: int) -> str:
    """The text appended to a page for edit ``n``: one more paragraph.

    Examples
    --------
    >>> prose_edit(3)
    '\\nServe benchmark edit 3.\\n'
    """
    return "\n" + edit_marker(n) + "\n"


def edit_marker(n: int) -> str:
    """The sentence :func:`prose_edit` adds, which the served page must then show."""
    return f"Serve benchmark edit {n}."


def restore(path: Path, text: str) -> None:
    """Put ``text`` back into ``path`` at once (a watcher never sees it half written)."""
    tmp = path.with_name(f".{path.name}.bench-tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


class ServeLog:
    """The lines a running ``make serve`` prints, each with the time it was read."""

    def __init__(self, stream: IO[str]) -> None:
        self.lines: queue.Queue[tuple[float, str]] = queue.Queue()
        self.seen: list[str] = []
        thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        thread.start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self.lines.put((time.perf_counter(), line.rstrip()))

    def wait_for(self, text: str, timeout: float) -> list[tuple[float, str]]:
        """Wait for a line containing ``text``; return the lines up to it, with their times."""
        deadline = time.perf_counter() + timeout
        lines: list[tuple[float, str]] = []
        while True:
            try:
                when, line = self.lines.get(timeout=max(0.0, deadline - time.perf_counter()))
            except queue.Empty:
                tail = "\n".join(self.seen[-20:])
                raise TimeoutError(
                    f"no {text!r} from mkdocs serve in {timeout} s:\n{tail}"
                ) from None
            self.seen.append(line)
            lines.append((when, line))
            if REBUILD_FAILED in line:
                raise RuntimeError("\n".join(self.seen[-30:]))
            if text in line:
                return lines

    def drain(self) -> None:
        """Forget the lines read so far (after a pause in which nothing should happen)."""
        while not self.lines.empty():
            self.seen.append(self.lines.get_nowait()[1])


def serve_rebuilds(
    project: Path,
    venv: Path,
    *,
    page: str = "docs/attention.md",
    url_path: str = "attention/",
    repeat: int = 5,
    settle: float = 1.0,
    timeout: float = 120.0,
) -> dict[str, list[float]]:
    """Time prose edits of ``page`` under ``make serve`` (the Makefile's own recipe).

    Parameters
    ----------
    project : Path
        The project copy to serve (its caches warm, its ``docs/`` edited and restored).
    venv : Path
        The installed virtual environment (``make install``'s), passed as ``VENV`` so the
        recipe installs nothing.
    page, url_path : str
        The page edited, and its address under the server.
    repeat : int
        Timed edits.
    settle : float
        Seconds of quiet before each edit, so the file watcher has nothing pending.
    timeout : float
        Seconds to wait for the first build, and for each rebuild.

    Returns
    -------
    dict
        ``"reflected"``: seconds from each edit to the log line saying the rebuilt site is
        live; ``"build"``: the part of it from the rebuild's start (after the watcher
        noticed the edit) to its end.
    """
    port = free_port()
    make_vars = [f"VENV={venv}", "HOST=127.0.0.1", f"PORT={port}"]
    check = subprocess.run(
        ["make", "-q", *make_vars, f"{venv}/.synced", "node_modules/.synced"],
        cwd=project,
        capture_output=True,
    )
    if check.returncode != 0:
        raise RuntimeError("the installation is not up to date: run `make install` first")
    source = project / page
    original = source.read_text(encoding="utf-8")
    proc = subprocess.Popen(
        ["make", "--no-print-directory", "serve", *make_vars],
        cwd=project,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its own process group: make, its shell and mkdocs
    )
    assert proc.stdout is not None
    log = ServeLog(proc.stdout)
    reflected: list[float] = []
    build: list[float] = []
    try:
        log.wait_for("Serving on", timeout)
        for n in range(repeat):
            time.sleep(settle)
            log.drain()
            with source.open("a", encoding="utf-8") as handle:
                start = time.perf_counter()
                handle.write(prose_edit(n))  # one write: the watcher cannot see half an edit
            lines = log.wait_for(REBUILT, timeout)
            reflected.append(lines[-1][0] - start)
            build.append(rebuild_seconds(lines))
            url = f"http://127.0.0.1:{port}/{url_path}"
            with urllib.request.urlopen(url, timeout=10) as response:
                if edit_marker(n) not in response.read().decode("utf-8"):
                    raise RuntimeError(f"{url} does not show the edit after the rebuild")
            time.sleep(settle)
            log.drain()
            restore(source, original)
            log.wait_for(REBUILT, timeout)
    finally:
        restore(source, original)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGINT)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
    return {"reflected": reflected, "build": build}


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
        print("  build: prose edits under make serve", file=sys.stderr, flush=True)
        served = serve_rebuilds(project, Path(sys.prefix), repeat=max(5, repeat))
        timings["prose edit under serve, until reflected"] = summarize(served["reflected"])
        timings["prose edit under serve, build only"] = summarize(served["build"])
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
