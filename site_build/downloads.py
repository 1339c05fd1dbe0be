"""The site's downloads: ``attention_ref``'s wheel, and notebooks that install it.

``hooks/build.py`` wires these functions into MkDocs:

* :func:`build_wheel` builds the wheel of the ``attention_ref`` distribution with the
  same command as ``make dist`` (``uv build``, the locked setuptools, no network),
  from a copy of :data:`DIST_INPUTS`, and caches it under a hash of those inputs, so
  a build that changed none of them reuses the same bytes;
* :func:`wheel_url` is the wheel's address on the published site, from ``site_url``;
* :func:`fill_notebook` writes the wheel's address into a notebook source in place of
  :data:`WHEEL_MARKER`, so the downloaded notebook can install ``attention_ref`` from
  the site it came from; :func:`filled_notebook_copy` keeps that filled text as a file
  for the build to read instead of the source.

Examples
--------
>>> url = wheel_url("https://example.org/lesson/", "attention_ref-1.0-py3-none-any.whl")
>>> url
'https://example.org/lesson/downloads/attention_ref-1.0-py3-none-any.whl'
>>> fill_notebook(f'WHEEL = "{WHEEL_MARKER}"\\n', url) == f'WHEEL = "{url}"\\n'
True
"""

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


def input_files(root: Path) -> list[Path]:
    """The files of :data:`DIST_INPUTS` under ``root``, sorted, without bytecode.

    Parameters
    ----------
    root : Path
        The repository root.

    Returns
    -------
    list of Path
        Absolute paths.

    Raises
    ------
    FileNotFoundError
        If one of the inputs is missing.
    """
    found: list[Path] = []
    for name in DIST_INPUTS:
        path = root / name
        if path.is_dir():
            found += [p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
        elif path.is_file():
            found.append(path)
        else:
            raise FileNotFoundError(f"{name}: missing, the distribution is built from it")
    return sorted(found)


def inputs_key(root: Path, files: list[Path]) -> str:
    """SHA-256 (64 hex digits) of ``files`` (:func:`input_files`): paths under ``root``, bytes."""
    parts: list[bytes] = []
    for path in files:
        parts += [path.relative_to(root).as_posix().encode(), path.read_bytes()]
    return content_key(data=parts)


def uv_command() -> str:
    """The ``uv`` executable that ``make install`` puts next to the venv's Python."""
    beside = Path(sys.executable).with_name("uv")
    found = str(beside) if beside.is_file() else shutil.which("uv")
    if found is None:
        raise RuntimeError("uv not found: run `make install`")
    return found


def build_wheel(root: Path, cache_dir: Path) -> Path:
    """Build the ``attention_ref`` wheel, or take it from ``cache_dir``.

    The inputs are copied to a temporary folder and built there with ``uv build``
    (sdist, then the wheel from the sdist, as ``make dist`` does), without build
    isolation: the backend is the locked setuptools of this venv and no network is
    needed. The wheel is an entry of the build's content-hash cache
    (:class:`site_build.cache.ContentCache`): a new one replaces the older.

    Parameters
    ----------
    root : Path
        The repository root.
    cache_dir : Path
        Where the wheel is kept, in a folder ``wheel-<key>`` (:func:`inputs_key`).

    Returns
    -------
    Path
        The wheel.

    Raises
    ------
    RuntimeError
        If the build fails or does not yield exactly one wheel.
    """
    cache = ContentCache(cache_dir)
    inputs = input_files(root)
    key = inputs_key(root, inputs)
    target = cache.path("wheel", key)
    cached = sorted(target.glob("*.whl"))
    if len(cached) == 1:
        return cached[0]
    cache_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache_dir) as tmp:
        src, out = Path(tmp) / "src", Path(tmp) / "out"
        for path in inputs:
            dest = src / path.relative_to(root)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, dest)
        env = {**os.environ, "SOURCE_DATE_EPOCH": os.environ.get("SOURCE_DATE_EPOCH", "")}
        env["SOURCE_DATE_EPOCH"] = env["SOURCE_DATE_EPOCH"] or DEFAULT_EPOCH
        command = [uv_command(), "build", "--quiet", "--no-build-isolation"]
        command += ["--python", sys.executable, "--out-dir", str(out), str(src)]
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
        wheels = sorted(out.glob("*.whl"))
        if done.returncode != 0 or len(wheels) != 1:
            raise RuntimeError(f"building the wheel failed:\n{done.stdout}{done.stderr}")
        staged = Path(tmp) / "staged"
        staged.mkdir()
        shutil.move(wheels[0], staged / wheels[0].name)
        shutil.rmtree(target, ignore_errors=True)
        staged.rename(target)
    cache.prune("wheel", keep=[target])
    return target / wheels[0].name


def prune_older(folder: Path, keep: Path, seconds: float) -> None:
    """Remove the sub-folders of ``folder`` other than ``keep`` untouched for ``seconds``.

    For the filled notebook copies only, which are not content-cache entries: two builds
    for two site addresses (a test build beside ``mkdocs serve``) each need their own
    copy at the same time, so a copy goes when unused for a while, not when another is
    made.

    Parameters
    ----------
    folder : Path
        A cache folder (may be missing).
    keep : Path
        The sub-folder in use.
    seconds : float
        Age, by modification time, from which another sub-folder is removed.
    """
    if not folder.is_dir():
        return
    now = time.time()
    for sub in folder.iterdir():
        if sub.is_dir() and sub != keep and now - sub.stat().st_mtime > seconds:
            shutil.rmtree(sub, ignore_errors=True)


def wheel_url(site_url: str, wheel_name: str) -> str:
    """The wheel's address on the site published at ``site_url``.

    Parameters
    ----------
    site_url : str
        The site's root address (MkDocs' ``site_url``).
    wheel_name : str
        The wheel's file name.

    Returns
    -------
    str
        ``<site_url>/downloads/<wheel_name>``.

    Raises
    ------
    ValueError
        If ``site_url`` is not an absolute http(s) address (a downloaded notebook
        could not reach a relative one).

    Examples
    --------
    >>> wheel_url("http://127.0.0.1:8000", "a-1-py3-none-any.whl")
    'http://127.0.0.1:8000/downloads/a-1-py3-none-any.whl'
    """
    if not site_url.startswith(("http://", "https://")):
        raise ValueError(f"site_url must be an absolute http(s) address, got {site_url!r}")
    return f"{site_url.rstrip('/')}/{DOWNLOADS_DIR}/{wheel_name}"


def fill_notebook(source: str, url: str) -> str:
    """Write the wheel's address ``url`` into a notebook source in place of the marker.

    Parameters
    ----------
    source : str
        The notebook's text (any format).
    url : str
        The wheel's address, from :func:`wheel_url`.

    Returns
    -------
    str
        ``source`` with every :data:`WHEEL_MARKER` replaced.

    Raises
    ------
    ValueError
        If ``source`` holds no marker.

    Examples
    --------
    >>> fill_notebook("print(1)", "https://example.org/a.whl")
    Traceback (most recent call last):
    ...
    ValueError: the notebook holds no @ATTENTION_REF_WHEEL@ to replace
    """
    if WHEEL_MARKER not in source:
        raise ValueError(f"the notebook holds no {WHEEL_MARKER} to replace")
    return source.replace(WHEEL_MARKER, url)


def filled_notebook_copy(
    source: Path, src_uri: PurePosixPath, url: str, copies: Path
) -> Path | None:
    """The folder of a copy of notebook ``source`` with the wheel's ``url`` written in.

    The copy is ``<folder>/<src_uri>``, in a folder of ``copies`` named by a hash of the
    filled text: two builds for two site addresses (a test build next to ``mkdocs
    serve``) never read each other's copy, and the tail stays ``src_uri``, which
    mkdocs-jupyter's ``include`` matches. Copies unused for a day are removed.

    Parameters
    ----------
    source : Path
        The notebook source in ``docs/``.
    src_uri : PurePosixPath
        Its path under ``docs/``, e.g. ``notebooks/sqrt_dk.py``.
    url : str
        The wheel's address, from :func:`wheel_url`.
    copies : Path
        The cache folder of the copies.

    Returns
    -------
    Path or None
        The folder to read the notebook from, or None when ``source`` holds no
        :data:`WHEEL_MARKER` (it is used as it is).
    """
    text = source.read_text(encoding="utf-8")
    if WHEEL_MARKER not in text:
        return None
    filled = fill_notebook(text, url)
    folder = copies / hashlib.sha256(filled.encode()).hexdigest()[:16]
    copy = folder / src_uri
    if not copy.is_file():
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(filled, encoding="utf-8")
    prune_older(copies, keep=folder, seconds=86400)
    return folder
