"""Notebook helpers for the build: the ``.ipynb`` download, the page, the cache key.

The notebook sources are jupytext percent ``.py`` files (clean diffs, no outputs
committed); ``hooks/notebook.py`` wires these functions in. :func:`to_ipynb` makes the
``.ipynb`` a reader downloads; :func:`polish_page` gives the page the same cell ids at
every build and makes its code cells reachable by keyboard; :func:`environment_key`
names mkdocs-jupyter's cache folder after the sources the notebook imports and the
library versions (the plugin keys its cache on the notebook's bytes only, so an edit to
``attention_ref`` would be served from a stale cache).

Examples
--------
>>> nb = to_ipynb("# %% [markdown]\\n# # Title\\n\\n# %%\\nprint(1 + 1)\\n")
>>> '"id": "cell-1"' in nb and '"source": [\\n    "print(1 + 1)"' in nb
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path

import jupytext  # type: ignore[import-untyped]

from site_build.cache import content_key


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
