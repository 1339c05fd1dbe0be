"""MkDocs hook: ship the real-model data as ``assets/data/it_attention.json``, and the
role of each of its heads as ``assets/data/head_roles.json``.

Thin wiring only: ``site_build/heatmap_data.py`` computes the record with
``attention_ref.minilm`` (cached in ``.cache/model-data/``), ``site_build/head_roles.py``
classifies its heads (with ``attention_ref.head_roles``); nothing is written into
``docs/``. The widgets fetch the files only when their box comes near the viewport.
"""

from __future__ import annotations

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import Files

from site_build.head_roles import HEAD_ROLES_JSON_PATH, head_roles_json
from site_build.heatmap_data import HEATMAP_JSON_PATH, heatmap_json
from site_build.mkdocs_files import put_generated


# Run before mkdocs-htmlproofer-plugin's on_files, which snapshots the file list.
@event_priority(100)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    put_generated(files, config, HEATMAP_JSON_PATH, content=heatmap_json())
    put_generated(files, config, HEAD_ROLES_JSON_PATH, content=head_roles_json())
    return files
