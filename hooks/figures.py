"""MkDocs hook: the figures of "why divide by √d_k", as generated SVG files.

Thin wiring only: ``site_build/figures.py`` computes the data with
``attention_ref``, draws light and dark SVGs and caches them in
``.cache/figures/`` (tested in ``tests/test_figures.py``). This hook adds them
to the build as ``figures/<name>-<theme>.svg``; nothing is written into ``docs/``.
"""

from __future__ import annotations

import importlib
import logging
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
CACHE_DIR = ROOT / ".cache" / "figures"
log = logging.getLogger("mkdocs.hooks.figures")
# Packages whose edits must show in the figures while `mkdocs serve` runs.
WATCHED = ("attention_ref", "site_build")


def _fresh_figures() -> ModuleType:
    """Import ``site_build.figures`` anew, together with ``attention_ref``.

    ``mkdocs serve`` keeps one interpreter for every rebuild: without this, an
    edit to ``attention_ref`` would not reach the figures until a restart.
    (The figures module itself is cheap to import; numpy and matplotlib stay loaded.)
    """
    if str(ROOT) not in sys.path:  # MkDocs restores sys.path after loading a hook
        sys.path.insert(0, str(ROOT))
    for name in [m for m in sys.modules if m.split(".")[0] in WATCHED]:
        del sys.modules[name]
    return importlib.import_module("site_build.figures")


# Run before mkdocs-htmlproofer-plugin's on_files, which snapshots the file list:
# files added after it would be reported as broken links.
@event_priority(100)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    start = time.perf_counter()
    figures = _fresh_figures()
    svgs = figures.build_figures(CACHE_DIR)
    log.info("figures: %d SVGs ready in %.2f s", len(svgs), time.perf_counter() - start)
    for path, svg in svgs.items():
        existing = files.get_file_from_path(path)
        if existing is not None:
            files.remove(existing)
        files.append(File.generated(config, path, content=svg))
    return files


def on_serve(server: Any, config: MkDocsConfig, builder: Any) -> Any:
    for name in WATCHED:
        server.watch(str(ROOT / name))
    return server
