"""The build itself: strict, reproducible, self-contained.

`make test` builds the site into site/ with `mkdocs build --strict` before pytest runs;
these tests build it once more into a temporary folder and compare.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

import pytest

from testbed.site import build_site

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "site"
# Hosts a built page may name in an attribute that the browser fetches.
FETCHING_ATTR = re.compile(
    r"""<(?:script|img|iframe|source|link(?![^>]*rel=["']canonical))\b[^>]*?\b(?:src|href)=["']([^"']+)["']"""
)


def build(dest: Path) -> None:
    env = dict(os.environ)
    env.setdefault("SOURCE_DATE_EPOCH", "1767225600")
    build_site(dest, env=env)


def digest_tree(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def two_builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    first = tmp_path_factory.mktemp("build-a") / "site"
    second = tmp_path_factory.mktemp("build-b") / "site"
    build(first)
    build(second)
    return first, second


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
    for rel, source in [
        ("index.html", "index.md"),
        ("attention/index.html", "attention.md"),
        ("self-attention/index.html", "self-attention.md"),
        ("tokens/index.html", "tokens.md"),
    ]:
        page = (site / rel).read_text(encoding="utf-8")
        assert f"/edit/main/docs/{source}" in page, f"{rel} has no edit link to docs/{source}"
