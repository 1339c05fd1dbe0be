"""The machine and tool versions a run was measured on (no paths, no host names)."""

from __future__ import annotations

import json
import os
import platform
import subprocess
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError:
        return ""


def cpu_model(cpuinfo: str) -> str | None:
    """The first ``model name`` in /proc/cpuinfo's text.

    Examples
    --------
    >>> cpu_model("processor : 0\\nmodel name\\t: AMD EPYC\\nflags : fpu")
    'AMD EPYC'
    """
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "model name":
            return value.strip()
    return None


def mem_total_gib(meminfo: str) -> float | None:
    """MemTotal from /proc/meminfo's text, in GiB.

    Examples
    --------
    >>> mem_total_gib("MemTotal:       24000000 kB\\nMemFree: 1 kB")
    22.9
    """
    for line in meminfo.splitlines():
        if line.startswith("MemTotal:"):
            return round(int(line.split()[1]) / 2**20, 1)
    return None


def _version(cmd: list[str]) -> str | None:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=30, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def _dist(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def describe_blas(blas: dict[str, Any] | None) -> str | None:
    """One line for the BLAS numpy runs, from :func:`bench.kernel.blas_info`.

    Examples
    --------
    >>> describe_blas({"source": "threadpoolctl", "num_threads": 2, "pools": [
    ...     {"user_api": "blas", "internal_api": "openblas", "version": "0.3.31",
    ...      "architecture": "SkylakeX", "num_threads": 2}]})
    'openblas 0.3.31, kernel SkylakeX, 2 threads (threadpoolctl)'
    """
    if not blas:
        return None
    if blas.get("source") == "threadpoolctl":
        pools = [p for p in blas.get("pools", []) if p.get("user_api") == "blas"]
        if not pools:
            return "no BLAS found by threadpoolctl"
        p = pools[0]
        return (
            f"{p['internal_api']} {p['version']}, kernel {p['architecture']}, "
            f"{p['num_threads']} threads (threadpoolctl)"
        )
    return f"{blas.get('name')} {blas.get('version')} (numpy.show_config)"


def machine(blas: dict[str, Any] | None = None) -> dict[str, Any]:
    """CPU, cores, memory and the versions of everything measured."""
    import numpy

    lighthouse = ROOT / "node_modules" / "lighthouse" / "package.json"
    lh_version = json.loads(lighthouse.read_text())["version"] if lighthouse.exists() else None
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    memory = mem_total_gib(_read("/proc/meminfo"))
    return {
        "cpu": cpu_model(_read("/proc/cpuinfo")) or platform.processor() or None,
        "cores": os.cpu_count(),
        "memory": f"{memory} GiB" if memory else None,
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "blas": describe_blas(blas),
        "torch": _dist("torch"),
        "chromium": _version([chromium, "--version"]),
        "node": _version(["node", "--version"]),
        "lighthouse": lh_version,
        "mkdocs": _dist("mkdocs"),
        "mkdocs_material": _dist("mkdocs-material"),
        "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
    }
