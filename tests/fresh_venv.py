"""Fresh virtual environments outside the repository, for the tests of what readers download.

A fresh environment sees nothing of this checkout: it is created in a temporary folder,
commands run from there, and ``PYTHONPATH``, ``VIRTUAL_ENV`` and the user's site
folder are left out of its environment variables. Packages come from the package
registry (or uv's cache) through uv, as a reader's would.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from site_build.downloads import uv_command

# Variables that would let the checkout or the dev venv leak into a fresh environment.
_LEAKY = ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP", "CONDA_PREFIX")


def clean_env(**extra: str) -> dict[str, str]:
    """This process's environment without the variables that leak the dev setup.

    Examples
    --------
    >>> env = clean_env(FOO="1")
    >>> env["FOO"], "PYTHONPATH" in env, env["PYTHONNOUSERSITE"]
    ('1', False, '1')
    """
    env = {k: v for k, v in os.environ.items() if k not in _LEAKY}
    env.update(PYTHONNOUSERSITE="1", PIP_DISABLE_PIP_VERSION_CHECK="1", **extra)
    return env


def run(command: list[str], cwd: Path, timeout: float = 600, **extra: str) -> str:
    """Run ``command`` in ``cwd`` with :func:`clean_env`; return its stdout.

    Raises
    ------
    AssertionError
        If the command fails; the message holds its output.
    """
    done = subprocess.run(
        command,
        cwd=cwd,
        env=clean_env(**extra),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def make_venv(folder: Path, *, with_pip: bool = False) -> Path:
    """Create a virtual environment in ``folder``; return its Python.

    ``with_pip`` seeds pip into it (``python -m venv`` does that for readers).
    """
    command = [uv_command(), "venv", "--quiet", "--python", sys.executable, str(folder)]
    run([*command, "--seed"] if with_pip else command, cwd=folder.parent)
    return folder / "bin" / "python"


def install(python: Path, *requirements: str, cwd: Path) -> None:
    """Install ``requirements`` into the environment of ``python`` with uv."""
    run([uv_command(), "pip", "install", "--quiet", "--python", str(python), *requirements], cwd)
