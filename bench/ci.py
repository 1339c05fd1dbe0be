"""Section ``ci``: a fresh clone's ``bash .ci/run`` (what CI runs), timed as a whole and by phase.

The clone is of this checkout's ``HEAD`` (commit first), into a temporary folder, so that a
missing install step or an untracked file the tests need shows here as it would in CI.
``make test`` writes its phases (install, lint, node tests, build, pytest without and with
the browser) to the file named by ``PHASES``; this section reads them. What a clone here
cannot make fresh: the package managers' download caches and Debian's Chromium, which
stay installed (on a new CI machine, installing Chromium adds about a minute).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.stats import summarize

ROOT = Path(__file__).resolve().parents[1]
#: The budget of a fresh clone's whole run, in seconds.
BUDGET_SECONDS = 600.0


def read_phases(text: str) -> dict[str, float]:
    """``make test``'s phase file ("name<TAB>milliseconds" lines) as seconds by name.

    Examples
    --------
    >>> read_phases("install\\t61250\\nlint\\t9000\\n")
    {'install': 61.25, 'lint': 9.0}
    """
    phases: dict[str, float] = {}
    for line in text.splitlines():
        if line.strip():
            name, ms = line.rsplit("\t", 1)
            phases[name] = int(ms) / 1000
    return phases


def run(repeat: int = 1) -> dict[str, Any]:
    samples: dict[str, list[float]] = {}
    exit_codes = []
    for i in range(repeat):
        with tempfile.TemporaryDirectory(prefix="bench-ci-") as tmp:
            clone = Path(tmp) / "clone"
            subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
            phases_file = Path(tmp) / "phases.tsv"
            print(f"  ci: bash .ci/run in a fresh clone ({i + 1}/{repeat})", file=sys.stderr)
            start = time.perf_counter()
            proc = subprocess.run(
                ["bash", ".ci/run"],
                cwd=clone,
                env={**os.environ, "PHASES": str(phases_file)},
                capture_output=True,
                text=True,
            )
            samples.setdefault(".ci/run (fresh clone)", []).append(time.perf_counter() - start)
            exit_codes.append(proc.returncode)
            if phases_file.is_file():
                for name, seconds in read_phases(phases_file.read_text()).items():
                    samples.setdefault(name, []).append(seconds)
            if proc.returncode:
                print(proc.stdout[-3000:], proc.stderr[-3000:], file=sys.stderr)
    return {
        "what": "a fresh clone of HEAD running bash .ci/run (make test); seconds by phase",
        "timings": {name: summarize(values) for name, values in samples.items()},
        "exit_codes": exit_codes,
        "budget_seconds": BUDGET_SECONDS,
    }
