"""MkDocs hook: the real model for the browser (``assets/minilm/``), as generated files.

Thin wiring only: ``site_build/minilm_export.py`` writes float16 weights, word-embedding
shards, the tokenizer and a manifest into ``.cache/minilm/`` (keyed by the weights' hash
and its own source, tested in ``tests/test_minilm_export.py``); this hook adds those
files to the build by path (MkDocs copies them), writing nothing into ``docs/``. No page
loads them until the reader asks for the model.
"""

from __future__ import annotations

import logging
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import Files

from site_build.cache import ContentCache
from site_build.mkdocs_files import put_built

ROOT = Path(__file__).resolve().parent.parent
CACHE_DIR = ROOT / ".cache" / "minilm"
log = logging.getLogger("mkdocs.hooks.minilm_export")


# Run before mkdocs-htmlproofer-plugin's on_files, which snapshots the file list.
@event_priority(100)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    return put_built(
        files,
        config,
        "site_build.minilm_export",
        lambda m: m.cached_export(ContentCache(CACHE_DIR)),
        log,
    )
