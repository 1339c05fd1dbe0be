"""The site's downloads: ``attention_ref``'s wheel, and notebooks that install it from
the site they came from (:data:`WHEEL_MARKER` replaced by the wheel's address)."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path, PurePosixPath

from site_build.cache import ContentCache, content_key

# What the distribution is built from (and all the sdist holds, with generated metadata).
DIST_INPUTS = ("pyproject.toml", "MANIFEST.in", "README.md", "LICENSE", "attention_ref")
DOWNLOADS_DIR = "downloads"
# Written in a notebook source where the wheel's address goes; the build replaces it.
WHEEL_MARKER = "@ATTENTION_REF_WHEEL@"
# Zip timestamps when SOURCE_DATE_EPOCH is not set (`make` sets it to the last commit's).
DEFAULT_EPOCH = "315532800"


def uv_command() -> str:
    """The ``uv`` executable that ``make install`` puts next to the venv's Python."""
    beside = Path(sys.executable).with_name("uv")
    found = str(beside) if beside.is_file() else shutil.which("uv")
    if found is None:
        raise RuntimeError("uv not found: run `make install`")
    return found


def build_wheel(root: Path, cache_dir: Path) -> Path:
    """The ``attention_ref`` wheel of the repository at ``root``, built or from ``cache_dir``.

    Built as ``make dist`` builds it (``uv build``, no build isolation: no network; the
    wheel alone) from a copy of :data:`DIST_INPUTS`, and cached under a hash of their paths
    and bytes and of ``SOURCE_DATE_EPOCH`` (the dates in the zip). Raises
    ``FileNotFoundError`` if an input is missing, ``RuntimeError`` if the build fails.
    """
    inputs: list[Path] = []
    for name in DIST_INPUTS:
        path = root / name
        if path.is_dir():
            inputs += [p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
        elif path.is_file():
            inputs.append(path)
        else:
            raise FileNotFoundError(f"{name}: missing, the distribution is built from it")
    inputs.sort()
    parts = [b for p in inputs for b in (p.relative_to(root).as_posix().encode(), p.read_bytes())]
    epoch = os.environ.get("SOURCE_DATE_EPOCH") or DEFAULT_EPOCH  # the zip's file dates
    cache = ContentCache(cache_dir)
    target = cache.path("wheel", content_key(meta={"epoch": epoch}, data=parts))
    cached = sorted(target.glob("*.whl"))
    if len(cached) == 1:
        return cached[0]
    cache_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache_dir) as tmp:
        src, staged = Path(tmp) / "src", Path(tmp) / "staged"
        for path in inputs:
            dest = src / path.relative_to(root)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, dest)
        env = {**os.environ, "SOURCE_DATE_EPOCH": epoch}
        command = [uv_command(), "build", "--wheel", "--quiet", "--no-build-isolation"]
        command += ["--python", sys.executable, "--out-dir", str(staged), str(src)]
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
        wheels = sorted(staged.glob("*.whl"))
        if done.returncode != 0 or len(wheels) != 1:
            raise RuntimeError(f"building the wheel failed:\n{done.stdout}{done.stderr}")
        shutil.rmtree(target, ignore_errors=True)
        staged.rename(target)  # the finished folder appears at once
    cache.prune("wheel", keep=[target])
    return target / wheels[0].name


def wheel_url(site_url: str, wheel_name: str) -> str:
    """The wheel's address on the site at ``site_url`` (absolute, or ``ValueError``).

    Examples
    --------
    >>> wheel_url("https://example.org/lesson/", "a-1-py3-none-any.whl")
    'https://example.org/lesson/downloads/a-1-py3-none-any.whl'
    """
    if not site_url.startswith(("http://", "https://")):
        raise ValueError(f"site_url must be an absolute http(s) address, got {site_url!r}")
    return f"{site_url.rstrip('/')}/{DOWNLOADS_DIR}/{wheel_name}"


def filled_notebook_copy(
    source: Path, src_uri: PurePosixPath, url: str, copies: Path
) -> Path | None:
    """The folder of ``copies`` holding ``<src_uri>``, a copy of ``source`` filled with ``url``.

    None when ``source`` holds no :data:`WHEEL_MARKER`. The folder is named by a hash of
    the filled text: two builds for two site addresses never read each other's copy.
    Copies untouched for a day are removed (not at once: another build may be using one).
    """
    text = source.read_text(encoding="utf-8")
    if WHEEL_MARKER not in text:
        return None
    filled = text.replace(WHEEL_MARKER, url)
    folder = copies / hashlib.sha256(filled.encode()).hexdigest()[:16]
    copy = folder / src_uri
    if not copy.is_file():
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(filled, encoding="utf-8")
    for other in copies.iterdir():
        if other.is_dir() and other != folder and time.time() - other.stat().st_mtime > 86400:
            shutil.rmtree(other, ignore_errors=True)
    return folder
