"""MkDocs hook: add the query explorer's data (``assets/data/explorer.json``), lesson
4's training run (``assets/data/training.json``) and lesson 5's model weights
(``assets/data/generate.json``) to the site, and the widget loader's map
(``javascripts/widget-map.js``, from the site model ``site_build/site.py``).

Thin wiring only: the numbers come from ``site_build/widget_data.py`` (which computes
them with ``attention_ref``; unit-tested in ``tests/test_widget_data.py``),
``site_build/training_data.py`` (from the committed ``data/induction_run.json``) and
``site_build/generate_data.py`` (from the committed ``data/induction_weights.json``). The
files are generated in memory; nothing is written into ``docs/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import Files

from site_build.mkdocs_files import LIVE_PACKAGES, fresh_import, put_generated

ROOT = Path(__file__).resolve().parent.parent


# Run before mkdocs-htmlproofer-plugin's on_files, which snapshots the file list.
@event_priority(100)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    widget_data = fresh_import("site_build.widget_data")  # edits show under `mkdocs serve`
    put_generated(
        files, config, widget_data.EXPLORER_JSON_PATH, content=widget_data.explorer_json()
    )
    training = fresh_import("site_build.training_data")
    put_generated(files, config, training.TRAINING_JSON_PATH, content=training.training_json())
    generate = fresh_import("site_build.generate_data")
    put_generated(files, config, generate.GENERATE_JSON_PATH, content=generate.generate_json())
    site = fresh_import("site_build.site")  # the loader's map, from the site model
    put_generated(files, config, site.WIDGET_MAP, content=site.widget_map_js())
    return files


def on_serve(server: Any, config: MkDocsConfig, builder: Any) -> Any:
    for name in LIVE_PACKAGES:
        server.watch(str(ROOT / name))
    return server
