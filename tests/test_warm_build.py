"""A build whose caches are warm imports no matplotlib.

Figures are read from their cache, and the cache keys read matplotlib's version from the
installed metadata. What a build imported is read from ``sys.modules`` in a separate
process. (mkdocs-jupyter still imports nbconvert when MkDocs loads it, cache hit or not.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def build_and_list_modules(site: Path) -> set[str]:
    code = (
        "import json, sys\n"
        "from mkdocs.commands.build import build\n"
        "from mkdocs.config import load_config\n"
        f"build(load_config(site_dir={str(site)!r}))\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return set(json.loads(out.stdout.splitlines()[-1]))


@pytest.mark.build
def test_a_build_with_warm_caches_imports_no_matplotlib(tmp_path: Path) -> None:
    build_and_list_modules(tmp_path / "first")  # fills the caches if they are cold
    loaded = build_and_list_modules(tmp_path / "site")
    assert not [name for name in loaded if name.split(".")[0] == "matplotlib"]
    assert (tmp_path / "site" / "attention" / "index.html").is_file()
