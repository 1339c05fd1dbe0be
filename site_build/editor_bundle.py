"""Build the practice editor bundle (CodeMirror 6) with esbuild, cached by content hash.

The entry ``site_build/editor_entry.js`` imports the npm CodeMirror packages; esbuild
bundles and minifies it into one ES module that ``hooks/practice.py`` adds to the site
as a generated file. The cache key covers everything that can change the output: the
entry's bytes, ``package-lock.json`` (the exact package versions) and esbuild's
options, so a second build (or ``mkdocs serve`` rebuild) costs a file read.

Examples
--------
>>> cache_key(b"export {}", b'{"lockfileVersion": 3}')[:12]
'90bffd5f7321'
"""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

#: esbuild options: one minified ES module for current browsers.
ESBUILD_ARGS = ("--bundle", "--format=esm", "--minify", "--target=es2020", "--log-level=error")


def cache_key(entry: bytes, lock: bytes, args: tuple[str, ...] = ESBUILD_ARGS) -> str:
    """SHA-256 of the entry source, the npm lock file and the esbuild options."""
    digest = hashlib.sha256()
    for part in (entry, lock, "\0".join(args).encode()):
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()


def build_bundle(entry: Path, root: Path, cache_dir: Path) -> str:
    """Return the bundled editor module's source, from the cache when it is fresh.

    Parameters
    ----------
    entry : Path
        The entry module (ES module importing npm packages).
    root : Path
        The project root: holds ``package-lock.json`` and ``node_modules/.bin/esbuild``.
    cache_dir : Path
        Where bundles are kept, one file per cache key (created if missing).

    Returns
    -------
    str
        The minified JavaScript.

    Raises
    ------
    FileNotFoundError
        If the entry or esbuild is missing (``make install`` installs esbuild).
    RuntimeError
        If esbuild fails; the message carries esbuild's own error output.
    """
    if not entry.is_file():
        raise FileNotFoundError(f"editor bundle entry not found: {entry}")
    lock = root / "package-lock.json"
    esbuild = root / "node_modules" / ".bin" / "esbuild"
    key = cache_key(entry.read_bytes(), lock.read_bytes() if lock.is_file() else b"")
    cached = cache_dir / f"editor-{key[:20]}.js"
    if cached.is_file():
        return cached.read_text(encoding="utf-8")
    if not esbuild.exists():
        raise FileNotFoundError(f"esbuild not found at {esbuild}: run `make install`")
    proc = subprocess.run(
        [str(esbuild), str(entry), *ESBUILD_ARGS],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0 or not proc.stdout:
        raise RuntimeError(
            f"esbuild failed on {entry.name} (exit {proc.returncode}):\n{proc.stderr}"
        )
    cache_dir.mkdir(parents=True, exist_ok=True)
    tmp = cached.with_suffix(".tmp")
    tmp.write_text(proc.stdout, encoding="utf-8")
    tmp.replace(cached)  # atomic: parallel builds never read half a file
    return proc.stdout
