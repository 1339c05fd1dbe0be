"""MkDocs hook: add the query explorer's data (``assets/data/explorer.json``) to the site.

Thin wiring only: the numbers come from ``site_build/widget_data.py`` (which computes
them with ``attention_ref``; unit-tested in ``tests/test_widget_data.py``). The file is
generated in memory; nothing is written into ``docs/``.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
# Packages whose edits must reach the exported numbers while `mkdocs serve` runs
# (hooks/figures.py watches the same folders).
WATCHED = ("attention_ref", "site_build")


def _fresh_widget_data() -> ModuleType:
    """Import ``site_build.widget_data`` anew, with ``attention_ref``.

    ``mkdocs serve`` keeps one interpreter for every rebuild; without this, an edit
    to ``attention_ref`` would not reach the widget's data until a restart.
    """
    if str(ROOT) not in sys.path:  # MkDocs restores sys.path after loading a hook
        sys.path.insert(0, str(ROOT))
    for name in [m for m in sys.modules if m.split(".")[0] in WATCHED]:
        del sys.modules[name]
    return importlib.import_module("site_build.widget_data")


# Run before mkdocs-htmlproofer-plugin's on_files, which snapshots the file list.
@event_priority(100)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    widget_data = _fresh_widget_data()
    path = widget_data.EXPLORER_JSON_PATH
    existing = files.get_file_from_path(path)
    if existing is not None:
        files.remove(existing)
    files.append(File.generated(config, path, content=widget_data.explorer_json()))
    return files
