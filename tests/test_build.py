"""The build itself: strict, reproducible, self-contained, and light once its caches are warm.

`make test` builds the site into site/ with `mkdocs build --strict` before pytest runs;
these tests build it twice more into temporary folders and compare. The first build fills
the caches if they are cold; the second runs in a process of its own, which then lists
what it imported (``sys.modules``): with warm caches, figures are read from their cache
and the cache keys read matplotlib's version from the installed metadata, so matplotlib
is never imported. (mkdocs-jupyter still imports nbconvert when MkDocs loads it, cache
hit or not.)
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from site_build.site import PAGES
from testbed.site import build_command, build_site

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "site"
pytestmark = pytest.mark.build

# Hosts a built page may name in an attribute that the browser fetches.
FETCHING_ATTR = re.compile(
    r"""<(?:script|img|iframe|source|link(?![^>]*rel=["']canonical))\b[^>]*?\b(?:src|href)=["']([^"']+)["']"""
)


# `mkdocs build` as the command line runs it, in a new process that then prints the
# names of the modules it imported.
BUILD_AND_LIST_MODULES = """
import json, sys
from mkdocs.__main__ import cli
cli(sys.argv[1:], standalone_mode=False)
print(json.dumps(sorted(sys.modules)))
"""


def build_env() -> dict[str, str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    env.setdefault("SOURCE_DATE_EPOCH", "1767225600")
    return env


def build_and_list_modules(dest: Path) -> set[str]:
    args = build_command(dest)[1:]  # the same command line as `build_site`, in-process
    out = subprocess.run(
        [sys.executable, "-c", BUILD_AND_LIST_MODULES, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=build_env(),
    )
    assert out.returncode == 0, out.stderr[-3000:]
    assert (dest / "attention" / "index.html").is_file()
    return set(json.loads(out.stdout.splitlines()[-1]))


def digest_tree(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, set[str]]:
    """Two clean builds, and the modules the second (whose caches are warm) imported."""
    first = tmp_path_factory.mktemp("build-a") / "site"
    second = tmp_path_factory.mktemp("build-b") / "site"
    build_site(first, env=build_env())  # fills the caches if they are cold
    return first, second, build_and_list_modules(second)


@pytest.fixture(scope="module")
def two_builds(builds: tuple[Path, Path, set[str]]) -> tuple[Path, Path]:
    return builds[0], builds[1]


def test_a_build_with_warm_caches_imports_no_matplotlib(
    builds: tuple[Path, Path, set[str]],
) -> None:
    loaded = builds[2]
    assert "mkdocs" in loaded  # the list is the build's own
    assert not [name for name in loaded if name.split(".")[0] == "matplotlib"]


def test_two_clean_builds_are_byte_identical(two_builds: tuple[Path, Path]) -> None:
    a, b = (digest_tree(p) for p in two_builds)
    assert sorted(a) == sorted(b), "the two builds produced different file lists"
    differing = [name for name in a if a[name] != b[name]]
    assert differing == [], f"files that differ between two clean builds: {differing}"


def test_no_page_fetches_from_another_host(two_builds: tuple[Path, Path]) -> None:
    site = two_builds[0]
    offenders = []
    for html in site.rglob("*.html"):
        for url in FETCHING_ATTR.findall(html.read_text(encoding="utf-8")):
            if re.match(r"(?i)^(https?:)?//", url):
                offenders.append(f"{html.relative_to(site)}: {url}")
    assert offenders == [], "\n".join(offenders)


def test_repository_facts_are_not_fetched(two_builds: tuple[Path, Path]) -> None:
    """Material's header widget fetches stars and forks from the host's API when the
    repository link carries data-md-component="source"; our override drops it."""
    page = (two_builds[0] / "attention" / "index.html").read_text(encoding="utf-8")
    assert 'class="md-source"' in page
    assert 'data-md-component="source"' not in page


def test_every_page_has_an_edit_link_to_its_source(two_builds: tuple[Path, Path]) -> None:
    site = two_builds[0]
    for rel, source in [(page.html, page.source) for page in PAGES]:
        page = (site / rel).read_text(encoding="utf-8")
        assert f"/edit/main/docs/{source}" in page, f"{rel} has no edit link to docs/{source}"
