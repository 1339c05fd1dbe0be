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

from site_build.fast_rebuild import reuse_while_unchanged
from site_build.head_roles import HEAD_ROLES_JSON_PATH, head_roles_json
from site_build.heatmap_data import HEATMAP_JSON_PATH, heatmap_json, installed_weights_sha256
from site_build.mkdocs_files import put_generated


# Run before mkdocs-htmlproofer-plugin's on_files, which snapshots the file list.
@event_priority(100)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    # The weights, by the hash their package's RECORD gives (reading 90 MB takes 0.1 s),
    # and the code (reuse_while_unchanged adds it).
    data = reuse_while_unchanged(
        "heatmap data", [], lambda: (heatmap_json(), head_roles_json()), installed_weights_sha256()
    )
    put_generated(files, config, HEATMAP_JSON_PATH, content=data[0])
    put_generated(files, config, HEAD_ROLES_JSON_PATH, content=data[1])
    return files
