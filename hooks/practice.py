"""MkDocs hook: the practice section's generated files and its editor bundle.

Thin wiring only. ``site_build/practice.py`` turns ``snippets/practice/<lesson>/`` into
one exercise manifest per lesson and the downloadable ``.py`` files;
``site_build/editor_bundle.py`` bundles CodeMirror with esbuild (cached in ``.cache/``
by content hash). Both enter the site as generated files: nothing is written into
``docs/``. Pyodide itself is copied by the vendor hook's table.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import Files

from site_build.editor_bundle import build_bundle
from site_build.fast_rebuild import reuse_while_unchanged
from site_build.mkdocs_files import fresh_import, put_generated
from site_build.practice import site_files

ROOT = Path(__file__).resolve().parent.parent

PRACTICE = ROOT / "snippets" / "practice"
WORKED_EXAMPLE = ROOT / "snippets" / "worked_example.py"
PYODIDE = ROOT / "node_modules" / "pyodide"
EDITOR_ENTRY = ROOT / "site_build" / "editor_entry.js"
EDITOR_PATH = "javascripts/practice/editor.bundle.js"


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    # The navigation comes from the site model (its pages, which hold the lessons).
    config.nav = fresh_import("site_build.site").nav_config()
    return config


# Run before mkdocs-htmlproofer-plugin's on_files, which snapshots the file list.
@event_priority(100)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    # The worked example's values are written into the published files: its source too.
    # Pyodide's files (12 MB) are named by its package.json, which gives their version.
    inputs = [PRACTICE, WORKED_EXAMPLE, PYODIDE / "package.json"]
    generated = dict(
        reuse_while_unchanged("practice", inputs, lambda: site_files(PRACTICE, PYODIDE))
    )
    generated[EDITOR_PATH] = build_bundle(EDITOR_ENTRY, ROOT, ROOT / ".cache" / "editor")
    for path, content in generated.items():
        put_generated(files, config, path, content=content)
    return files


def on_serve(server: Any, config: MkDocsConfig, builder: Any) -> Any:
    server.watch(str(PRACTICE))
    server.watch(str(EDITOR_ENTRY))
    return server
