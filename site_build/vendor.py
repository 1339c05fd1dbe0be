"""Self-hosted npm assets (no CDN): which files of which package go where in the site.

To ship another package, add one :class:`Asset` row to :data:`ASSETS`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Asset:
    """The files of npm ``package`` matching ``patterns`` (globs in its folder ``base``, ""
    for its root) go to the site folder ``dest``, keeping their path below ``base``."""

    package: str
    base: str
    patterns: tuple[str, ...]
    dest: str


#: Where KaTeX's CSS and fonts go in the site (``mkdocs.yml`` names its CSS there).
KATEX_DEST = "vendor/katex"
#: Where Pyodide's core goes in the site, and the files of it the practice worker fetches.
PYODIDE_DEST = "vendor/pyodide"
PYODIDE_FILES = (
    "pyodide.js",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)

#: What the site ships from ``node_modules/``. Of KaTeX (math is typeset at build time)
#: the CSS and fonts, in all three formats its CSS names, so that no ``url()`` can 404.
ASSETS: tuple[Asset, ...] = (
    Asset(
        "katex",
        "dist",
        ("katex.min.css", "fonts/*.woff2", "fonts/*.woff", "fonts/*.ttf"),
        KATEX_DEST,
    ),
    Asset("katex", "", ("LICENSE",), KATEX_DEST),
    # Pyodide's core for the practice section's worker (classic worker: pyodide.js).
    Asset("pyodide", "", PYODIDE_FILES, PYODIDE_DEST),
    # The browser model's tokenizer (pure JS, no dependency), where its worker imports it.
    Asset("@huggingface/tokenizers", "dist", ("tokenizers.min.mjs",), "vendor/tokenizers"),
    Asset("@huggingface/tokenizers", "", ("LICENSE",), "vendor/tokenizers"),
)


def plan_copies(node_modules: Path, assets: Iterable[Asset] = ASSETS) -> list[tuple[Path, str]]:
    """``(source file, site path)`` of every file to copy (default :data:`ASSETS`), sorted.

    Raises ``FileNotFoundError`` naming a package not installed or a pattern that matches no
    file, ``ValueError`` if two different files would land on the same site path.
    """
    chosen: dict[str, Path] = {}
    for asset in assets:
        package_dir = node_modules / asset.package
        if not package_dir.is_dir():
            raise FileNotFoundError(
                f"npm package {asset.package!r} is not installed in {node_modules} "
                "(run `make install`)"
            )
        base_dir = package_dir / asset.base
        for pattern in asset.patterns:
            matches = sorted(p for p in base_dir.glob(pattern) if p.is_file())
            if not matches:
                raise FileNotFoundError(
                    f"pattern {pattern!r} matches no file in npm package {asset.package!r} "
                    f"(looked in {base_dir})"
                )
            for source in matches:
                dest = f"{asset.dest}/{source.relative_to(base_dir).as_posix()}"
                previous = chosen.setdefault(dest, source.resolve())
                if previous != source.resolve():
                    raise ValueError(f"{previous} and {source} would both be copied to {dest!r}")
    return sorted(((src, dest) for dest, src in chosen.items()), key=lambda pair: pair[1])
