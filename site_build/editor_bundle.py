"""The practice editor's bundle (CodeMirror 6, from ``site_build/editor_entry.js``) made
by esbuild, cached by the entry's bytes, ``package-lock.json`` and esbuild's options.

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
    """The minified bundle of the ES module ``entry`` (``root`` holds the lock file and
    esbuild), from ``cache_dir`` when it is fresh.

    Raises ``FileNotFoundError`` if the entry or esbuild is missing, ``RuntimeError`` with
    esbuild's own error output if it fails.
    """
    if not entry.is_file():
        raise FileNotFoundError(f"editor bundle entry not found: {entry}")
    lock = root / "package-lock.json"
    esbuild = root / "node_modules" / ".bin" / "esbuild"

    def make() -> dict[str, bytes]:
        if not esbuild.exists():
            raise FileNotFoundError(f"esbuild not found at {esbuild}: run `make install`")
        command = [str(esbuild), str(entry), *ESBUILD_ARGS]
        proc = subprocess.run(command, cwd=root, capture_output=True, text=True, check=False)
        if proc.returncode != 0 or not proc.stdout:
            raise RuntimeError(
                f"esbuild failed on {entry.name} (exit {proc.returncode}):\n{proc.stderr}"
            )
        return {".js": proc.stdout.encode("utf-8")}

    key = cache_key(entry.read_bytes(), lock.read_bytes() if lock.is_file() else b"")
    return ContentCache(cache_dir).get("editor", key, [".js"], make)[".js"].decode("utf-8")
