"""Notebook helpers for the build: the ``.ipynb`` download, the page, the cache key.

The notebook sources are jupytext percent ``.py`` files (clean diffs, no outputs
committed); ``hooks/build.py`` wires these functions in. :func:`to_ipynb` makes the
``.ipynb`` a reader downloads; :func:`polish_page` gives the page the same cell ids at
every build and makes its code cells reachable by keyboard; :func:`key_jupyter_cache`
keys mkdocs-jupyter's cache by what the notebook imports.

Examples
--------
>>> nb = to_ipynb("# %% [markdown]\\n# # Title\\n\\n# %%\\nprint(1 + 1)\\n")
>>> '"id": "cell-1"' in nb and '"source": [\\n    "print(1 + 1)"' in nb
True
"""

from __future__ import annotations

import platform
import re
from collections.abc import Iterable, Mapping
from importlib.metadata import version
from pathlib import Path
from typing import Any

import jupytext  # type: ignore[import-untyped]

from site_build.cache import ContentCache, content_key

#: The name of the cache entry :func:`key_jupyter_cache` points mkdocs-jupyter's cache at.
NOTEBOOK_ENTRY = re.compile(r"notebook-[0-9a-f]+")


def to_ipynb(source: str) -> str:
    """A jupytext percent ``.py`` notebook as ``.ipynb`` JSON text: nbformat 4, no outputs,
    cell ids ``cell-0``, ``cell-1``... and no jupytext metadata (a plain notebook, the same
    bytes at every build). ``ValueError`` if ``source`` holds no cell at all."""
    nb = jupytext.reads(source, fmt="py:percent")
    if not nb.cells:
        raise ValueError("the notebook source holds no cell")
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{i}"
    nb.metadata.pop("jupytext", None)
    text: str = jupytext.writes(nb, fmt="ipynb")
    return text


def ipynb_of(source: Path) -> str:
    """The notebook (no outputs) of the jupytext source file ``source``."""
    return to_ipynb(source.read_text(encoding="utf-8"))


def environment_key(sources: Iterable[Path], versions: Mapping[str, str]) -> str:
    """SHA-256 of the bytes of ``sources`` (files the notebook's results depend on, in the
    given order) and of ``versions`` (library versions, e.g. ``{"numpy": "2.4.6"}``).

    Examples
    --------
    >>> environment_key([], {"numpy": "2.4"}) == environment_key([], {"numpy": "2.5"})
    False
    """
    return content_key(meta=dict(versions), files=sources)


_CELL_ID = re.compile(r'id="cell-id=[^"]*"')
_CODE_SCROLLER = re.compile(r'<div class="highlight-ipynb( [^"]*)?"(?! tabindex)')


def polish_page(html: str) -> str:
    """Number the ``cell-id`` attributes in order; give code cells ``tabindex="0"``.

    A region that scrolls must be focusable, or keyboard users cannot scroll it
    (WCAG 2.1.1; axe-core's ``scrollable-region-focusable``).

    Examples
    --------
    >>> polish_page('<div id="cell-id=3f2a"></div><div id="cell-id=9c1b"></div>')
    '<div id="cell-id=cell-0"></div><div id="cell-id=cell-1"></div>'
    >>> polish_page('<div class="highlight-ipynb hl-python"><pre>')
    '<div class="highlight-ipynb hl-python" tabindex="0"><pre>'
    """
    counter = iter(range(1 << 30))
    html = _CELL_ID.sub(lambda _: f'id="cell-id=cell-{next(counter)}"', html)
    return _CODE_SCROLLER.sub(lambda m: m.group(0) + ' tabindex="0"', html)


def key_jupyter_cache(config: Any, root: Path) -> None:
    """Point mkdocs-jupyter's cache at a folder named by ``attention_ref`` and the versions.

    mkdocs-jupyter caches an executed notebook under a hash of the notebook's own bytes,
    so after an edit to ``attention_ref`` it would serve old outputs (and a broken
    ``attention_ref`` would still "pass"). Its ``cache_dir`` is moved into a sub-folder
    named after ``attention_ref``'s sources (under ``root``) and the library versions, an
    entry of the build's content-hash cache: the new entry replaces the older ones.
    ``config`` is MkDocs' (only its ``plugins`` are read); called again, nothing nests.
    """
    plugin = config.plugins.get("mkdocs-jupyter")
    if plugin is None or not plugin.config["cache"]:
        return
    base = Path(plugin.config["cache_dir"])
    if NOTEBOOK_ENTRY.fullmatch(base.name):  # set by a call before: the folders never nest
        base = base.parent
    # Versions read from the installed metadata: importing matplotlib costs 0.2 s.
    versions = {
        "python": platform.python_version(),
        "numpy": version("numpy"),
        "matplotlib": version("matplotlib"),
    }
    key = environment_key(sorted((root / "attention_ref").glob("*.py")), versions)
    plugin.config["cache_dir"] = str(ContentCache(base).folder_for("notebook", key))
