"""Build the practice editor bundle (CodeMirror 6) with esbuild, cached by content hash.

The entry ``site_build/editor_entry.js`` imports the npm CodeMirror packages; esbuild
bundles and minifies it into one ES module that ``hooks/build.py`` adds to the site
as a generated file. The cache key covers everything that can change the output: the
entry's bytes, ``package-lock.json`` (the exact package versions) and esbuild's
options, so a second build (or ``mkdocs serve`` rebuild) costs a file read.

Examples
--------
>>> cache_key(b"export {}", b'{"lockfileVersion": 3}')[:12]
'fa379c43a7b0'
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from site_build.cache import ContentCache, content_key

#: esbuild options: one minified ES module for current browsers.
ESBUILD_ARGS = ("--bundle", "--format=esm", "--minify", "--target=es2020", "--log-level=error")


def cache_key(entry: bytes, lock: bytes, args: tuple[str, ...] = ESBUILD_ARGS) -> str:
    """SHA-256 of the entry source, the npm lock file and the esbuild options."""
    return content_key(meta=list(args), data=[entry, lock])


def build_bundle(entry: Path, root: Path, cache_dir: Path) -> str:
    """Return the bundled editor module's source, from the cache when it is fresh.

    Parameters
    ----------
    entry : Path
        The entry module (ES module importing npm packages).
    root : Path
        The project root: holds ``package-lock.json`` and ``node_modules/.bin/esbuild``.
    cache_dir : Path
        The cache folder (:class:`site_build.cache.ContentCache`: one bundle, the
        newest replacing the older).

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
    cache = ContentCache(cache_dir)
    found = cache.load("editor", key, (".js",))
    if found is not None:
        return found[".js"].decode("utf-8")
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
    cache.store("editor", key, {".js": proc.stdout.encode("utf-8")})
    return proc.stdout
