"""MkDocs hook: add self-hosted npm assets (KaTeX, ...) to the site as generated files.

Thin wiring only: the table of what to copy and the planning logic live in
``site_build/vendor.py`` (unit-tested in ``tests/test_vendor.py``). Nothing is
written into ``docs/``; MkDocs copies each file from ``node_modules/`` into ``site/``.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import Files

from site_build.mkdocs_files import put_generated
from site_build.vendor import plan_copies

ROOT = Path(__file__).resolve().parent.parent


# Run before mkdocs-htmlproofer-plugin's on_files, which snapshots the file list:
# files added after it would be reported as broken links.
@event_priority(100)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    for source, dest in plan_copies(ROOT / "node_modules"):
        put_generated(files, config, dest, abs_src_path=str(source))
    return files
