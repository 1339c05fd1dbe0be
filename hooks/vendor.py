"""MkDocs hook: add self-hosted npm assets (KaTeX, ...) to the site as generated files.

Thin wiring only: the table of what to copy and the planning logic live in
``site_build/vendor.py`` (unit-tested in ``tests/test_vendor.py``). Nothing is
written into ``docs/``; MkDocs copies each file from ``node_modules/`` into ``site/``.
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

from site_build.vendor import plan_copies  # noqa: E402


# Run before mkdocs-htmlproofer-plugin's on_files, which snapshots the file list:
# files added after it would be reported as broken links.
@event_priority(100)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    for source, dest in plan_copies(ROOT / "node_modules"):
        existing = files.get_file_from_path(dest)
        if existing is not None:
            files.remove(existing)
        files.append(File.generated(config, dest, abs_src_path=str(source)))
    return files
