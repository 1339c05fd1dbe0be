"""Tests of the vendor table (site_build/vendor.py): what self-hosted files the site ships."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from site_build.vendor import ASSETS, KATEX_DEST, Asset, plan_copies

ROOT = Path(__file__).resolve().parent.parent
NODE_MODULES = ROOT / "node_modules"


def make_package(root: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_plan_keeps_the_path_below_base_and_sorts_by_destination(tmp_path: Path) -> None:
    make_package(
        tmp_path / "pkg",
        {"dist/b.js": "b", "dist/a.css": "a", "dist/fonts/x.woff2": "x", "README.md": "r"},
    )
    table = (Asset("pkg", base="dist", patterns=("*.js", "*.css", "fonts/*"), dest="vendor/p"),)
    plan = plan_copies(tmp_path, table)
    assert [dest for _, dest in plan] == [
        "vendor/p/a.css",
        "vendor/p/b.js",
        "vendor/p/fonts/x.woff2",
    ]
    assert plan[0][0] == (tmp_path / "pkg" / "dist" / "a.css").resolve()


def test_package_root_base_and_repeated_patterns_give_no_duplicates(tmp_path: Path) -> None:
    make_package(tmp_path / "pkg", {"LICENSE": "MIT"})
    table = (
        Asset("pkg", base="", patterns=("LICENSE", "LIC*"), dest="v"),
        Asset("pkg", base="", patterns=("LICENSE",), dest="v"),
    )
    assert [dest for _, dest in plan_copies(tmp_path, table)] == ["v/LICENSE"]


def test_missing_package_is_named(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="'nope' is not installed"):
        plan_copies(tmp_path, (Asset("nope", base="", patterns=("*",), dest="v"),))


def test_pattern_matching_nothing_is_named(tmp_path: Path) -> None:
    make_package(tmp_path / "pkg", {"dist/a.js": "a"})
    with pytest.raises(FileNotFoundError, match=r"'katex\.min\.js' matches no file"):
        plan_copies(tmp_path, (Asset("pkg", base="dist", patterns=("katex.min.js",), dest="v"),))


def test_two_sources_for_one_destination_is_an_error(tmp_path: Path) -> None:
    make_package(tmp_path / "one", {"a.js": "1"})
    make_package(tmp_path / "two", {"a.js": "2"})
    table = (
        Asset("one", base="", patterns=("a.js",), dest="v"),
        Asset("two", base="", patterns=("a.js",), dest="v"),
    )
    with pytest.raises(ValueError, match=r"would both be copied to 'v/a\.js'"):
        plan_copies(tmp_path, table)


# The real table against the installed npm packages.

needs_npm = pytest.mark.skipif(
    not (NODE_MODULES / "katex").is_dir(), reason="npm packages not installed (run `make install`)"
)


class _Loader(yaml.SafeLoader):
    """Reads mkdocs.yml, ignoring MkDocs' own tags (!ENV, !relative)."""


_Loader.add_multi_constructor("!", lambda loader, suffix, node: None)


def site_paths_named_in_mkdocs_yml() -> list[str]:
    config = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=_Loader)
    names = [*config.get("extra_css", []), *config.get("extra_javascript", [])]
    return [n if isinstance(n, str) else n["path"] for n in names if "vendor/" in str(n)]


@needs_npm
def test_every_vendor_file_mkdocs_yml_loads_is_shipped() -> None:
    shipped = {dest for _, dest in plan_copies(NODE_MODULES)}
    wanted = site_paths_named_in_mkdocs_yml()
    # Math is typeset at build time: KaTeX's CSS only, where the vendor table puts it.
    assert f"{KATEX_DEST}/katex.min.css" in wanted
    assert set(wanted) <= shipped, sorted(set(wanted) - shipped)


@needs_npm
def test_every_font_url_in_katex_css_is_shipped() -> None:
    shipped = {dest for _, dest in plan_copies(NODE_MODULES)}
    css = (NODE_MODULES / "katex" / "dist" / "katex.min.css").read_text()
    urls = {u.strip("'\"") for u in re.findall(r"url\(([^)]+)\)", css)}
    assert len(urls) >= 20 * 3, "KaTeX names about 20 fonts in 3 formats"
    missing = sorted(u for u in urls if f"{KATEX_DEST}/{u}" not in shipped)
    assert missing == []


def test_the_table_ships_katex_licence() -> None:
    assert any(a.package == "katex" and "LICENSE" in a.patterns for a in ASSETS)
