"""Build the site strictly into a folder, as ``make build`` does: for tests and benchmarks.

Examples
--------
>>> build_command(Path("out"))[1:]
['build', '--strict', '--quiet', '-d', 'out']
>>> build_command(Path("out"), quiet=False)[-3:]
['--strict', '-d', 'out']
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def build_command(dest: Path, *, quiet: bool = True) -> list[str]:
    """The ``mkdocs build --strict`` command line (this venv's mkdocs) into ``dest``."""
    mkdocs = str(Path(sys.executable).with_name("mkdocs"))
    return [mkdocs, "build", "--strict", *(["--quiet"] if quiet else []), "-d", str(dest)]


def build_site(
    dest: Path,
    *,
    env: Mapping[str, str] | None = None,
    project: Path = ROOT,
    quiet: bool = True,
    capture: bool = False,
) -> None:
    """Build ``project`` (default: this repository) strictly into ``dest``.

    Parameters
    ----------
    dest : Path
        The site folder to write.
    env : mapping, optional
        The environment (default: this process's); ``NO_MKDOCS_2_WARNING=1`` is added.
    project : Path
        The folder holding ``mkdocs.yml``.
    quiet : bool
        Pass ``--quiet`` (warnings still fail the build: ``--strict``).
    capture : bool
        Keep mkdocs' output out of the terminal.

    Raises
    ------
    subprocess.CalledProcessError
        If the build fails.
    """
    full_env = {**(os.environ if env is None else env), "NO_MKDOCS_2_WARNING": "1"}
    subprocess.run(
        build_command(dest, quiet=quiet),
        cwd=project,
        check=True,
        env=full_env,
        capture_output=capture,
    )
