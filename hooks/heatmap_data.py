"""MkDocs hook: ship the heatmap's real-model data as ``assets/data/it_attention.json``.

Thin wiring only: ``site_build/heatmap_data.py`` reads and checks the committed file
``data/it_attention.json``; nothing is written into ``docs/``. The widget fetches the
file only when its box comes near the viewport.
"""

from __future__ import annotations

import sys
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from site_build.heatmap_data import DATA_FILE, HEATMAP_JSON_PATH, heatmap_json  # noqa: E402


# Run before mkdocs-htmlproofer-plugin's on_files, which snapshots the file list.
@event_priority(100)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    existing = files.get_file_from_path(HEATMAP_JSON_PATH)
    if existing is not None:
        files.remove(existing)
    files.append(File.generated(config, HEATMAP_JSON_PATH, content=heatmap_json()))
    return files


def on_serve(server, config, builder):  # type: ignore[no-untyped-def]
    """Rebuild when the committed data changes under ``mkdocs serve``."""
    server.watch(str(DATA_FILE))
    return server
