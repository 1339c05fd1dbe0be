"""MkDocs hook: add the query explorer's data (``assets/data/explorer.json``) to the site.

Thin wiring only: the numbers come from ``site_build/widget_data.py`` (which computes
them with ``attention_ref``; unit-tested in ``tests/test_widget_data.py``). The file is
generated in memory; nothing is written into ``docs/``.
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

from site_build.widget_data import EXPLORER_JSON_PATH, explorer_json  # noqa: E402


# Run before mkdocs-htmlproofer-plugin's on_files, which snapshots the file list.
@event_priority(100)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    existing = files.get_file_from_path(EXPLORER_JSON_PATH)
    if existing is not None:
        files.remove(existing)
    files.append(File.generated(config, EXPLORER_JSON_PATH, content=explorer_json()))
    return files
