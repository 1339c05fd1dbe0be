"""Self-hosted npm assets: which files of which package go where in the built site.

The site makes no request to a CDN: KaTeX (and later Pyodide) are copied from
``node_modules/`` into ``site/vendor/...`` at build time by ``hooks/build.py``.
This module holds the declarative table of those assets and a pure function that
turns it into a list of (source file, destination path) pairs.

To ship another package, add one :class:`Asset` row to :data:`ASSETS`.

Examples
--------
>>> row = Asset("katex", base="dist", patterns=("katex.min.js",), dest="vendor/katex")
>>> row.dest_for("katex.min.js")
'vendor/katex/katex.min.js'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath


@dataclass(frozen=True)
class Asset:
    """One row of the vendor table.

    Parameters
    ----------
    package : str
        The npm package name, i.e. the folder under ``node_modules/``.
    base : str
        A folder inside the package that the patterns are relative to ("" for the
        package root). The part of a file's path below ``base`` is kept under ``dest``.
    patterns : tuple of str
        Glob patterns (``pathlib`` syntax, relative to ``base``). Each must match at
        least one file, so a renamed upstream file fails the build loudly.
    dest : str
        The folder under the site root the files go to, e.g. ``"vendor/katex"``.
    """

    package: str
    base: str
    patterns: tuple[str, ...]
    dest: str

    def dest_for(self, relative: str) -> str:
        """Return the site path (POSIX, relative to the site root) for a file below ``base``."""
        return str(PurePosixPath(self.dest) / PurePosixPath(relative))


#: Where KaTeX's CSS and fonts go in the site (``mkdocs.yml`` names its CSS there, and
#: ``tests/test_vendor.py`` checks that the two agree).
KATEX_DEST = "vendor/katex"
KATEX_PREFIX = KATEX_DEST + "/"  # the start of every KaTeX file's site path
#: Where Pyodide's core goes in the site, and the files of it the practice worker fetches
#: (``site_build/practice.py`` lists their sizes for the loader's progress bar).
PYODIDE_DEST = "vendor/pyodide"
PYODIDE_FILES = (
    "pyodide.js",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)

#: Where @huggingface/tokenizers goes (the model worker imports it from there).
TOKENIZERS_DEST = "vendor/tokenizers"

#: What the site ships from ``node_modules/``. Math is typeset at build time
#: (``site_build/katex_render.py``), so of KaTeX only the CSS and fonts are
#: shipped, no JavaScript. KaTeX's CSS names each font as
#: woff2, woff and ttf; all three are shipped so no ``url()`` in it can 404
#: (a browser downloads only the first format it supports, woff2).
ASSETS: tuple[Asset, ...] = (
    Asset(
        "katex",
        base="dist",
        patterns=(
            "katex.min.css",
            "fonts/*.woff2",
            "fonts/*.woff",
            "fonts/*.ttf",
        ),
        dest=KATEX_DEST,
    ),
    Asset("katex", base="", patterns=("LICENSE",), dest=KATEX_DEST),
    # Pyodide's core for the practice section's worker (classic worker: pyodide.js).
    Asset("pyodide", base="", patterns=PYODIDE_FILES, dest=PYODIDE_DEST),
    # The browser model's tokenizer (pure JS, no dependency), for its worker.
    Asset(
        "@huggingface/tokenizers",
        base="dist",
        patterns=("tokenizers.min.mjs",),
        dest=TOKENIZERS_DEST,
    ),
    Asset("@huggingface/tokenizers", base="", patterns=("LICENSE",), dest=TOKENIZERS_DEST),
)


def plan_copies(
    node_modules: Path, assets: Iterable[Asset] | None = None
) -> list[tuple[Path, str]]:
    """List the files to copy into the site.

    Parameters
    ----------
    node_modules : Path
        The ``node_modules`` folder the packages are installed in.
    assets : iterable of Asset
        The vendor table (default: :data:`ASSETS`, looked up at call time).

    Returns
    -------
    list of (Path, str)
        ``(absolute source file, destination path relative to the site root)``,
        sorted by destination, without duplicates.

    Raises
    ------
    FileNotFoundError
        If a package is not installed or a pattern matches no file (naming both).
    ValueError
        If two different source files would land on the same destination.
    """
    chosen: dict[str, Path] = {}
    for asset in ASSETS if assets is None else assets:
        package_dir = node_modules / asset.package
        if not package_dir.is_dir():
            raise FileNotFoundError(
                f"npm package {asset.package!r} is not installed in {node_modules} "
                "(run `make install`)"
            )
        base_dir = package_dir / asset.base if asset.base else package_dir
        for pattern in asset.patterns:
            matches = sorted(p for p in base_dir.glob(pattern) if p.is_file())
            if not matches:
                raise FileNotFoundError(
                    f"pattern {pattern!r} matches no file in npm package {asset.package!r} "
                    f"(looked in {base_dir})"
                )
            for source in matches:
                dest = asset.dest_for(source.relative_to(base_dir).as_posix())
                previous = chosen.setdefault(dest, source.resolve())
                if previous != source.resolve():
                    raise ValueError(f"{previous} and {source} would both be copied to {dest!r}")
    return sorted(((src, dest) for dest, src in chosen.items()), key=lambda pair: pair[1])
