"""MkDocs hook: the build's figures, as generated SVG files.

Thin wiring only: ``site_build/figures.py`` pairs the experiments
(``site_build/experiments.py``, from ``attention_ref``) with their drawings
(``site_build/drawing.py``, light and dark SVGs), and the real model's data with the
figure of every head (``site_build/heads_figure.py``), and caches them in
``.cache/figures/`` (tested in ``tests/test_figures.py``, ``tests/test_heads_figure.py``).
This hook adds them to the build as ``figures/<name>-<theme>.svg``; nothing is written
into ``docs/``.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import Files

from site_build.mkdocs_files import LIVE_PACKAGES, put_built

ROOT = Path(__file__).resolve().parent.parent
CACHE_DIR = ROOT / ".cache" / "figures"
log = logging.getLogger("mkdocs.hooks.figures")


# Run before mkdocs-htmlproofer-plugin's on_files, which snapshots the file list:
# files added after it would be reported as broken links.
@event_priority(100)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    return put_built(files, config, "site_build.figures", lambda m: m.build_figures(CACHE_DIR), log)


def on_serve(server: Any, config: MkDocsConfig, builder: Any) -> Any:
    for name in LIVE_PACKAGES:
        server.watch(str(ROOT / name))
    return server
