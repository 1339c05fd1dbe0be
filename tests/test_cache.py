"""The build's one content-hash cache (site_build/cache.py): keys, entries, pruning, users."""

from __future__ import annotations

from pathlib import Path

import pytest

from site_build import notebook
from site_build.cache import KEY_CHARS, ContentCache, content_key

A, B = content_key(meta="a"), content_key(meta="b")


def test_the_key_follows_every_input(tmp_path: Path) -> None:
    src = tmp_path / "core.py"
    src.write_text("x = 1\n")
    key = content_key(meta={"v": 1}, files=[src], data=[b"d"])
    assert key == content_key(meta={"v": 1}, files=[src], data=[b"d"])
    assert key != content_key(meta={"v": 2}, files=[src], data=[b"d"])
    assert key != content_key(meta={"v": 1}, files=[src], data=[b"e"])
    src.write_text("x = 2\n")
    assert key != content_key(meta={"v": 1}, files=[src], data=[b"d"])


def test_an_entry_with_a_missing_file_is_a_miss(tmp_path: Path) -> None:
    cache = ContentCache(tmp_path)
    cache.store("fig", A, {"-light.svg": b"l", "-dark.svg": b"d"})
    cache.path("fig", A, "-dark.svg").unlink()
    assert cache.load("fig", A, ("-light.svg", "-dark.svg")) is None
    assert cache.load("fig", A, ("-light.svg",)) == {"-light.svg": b"l"}


def test_storing_prunes_the_same_name_only(tmp_path: Path) -> None:
    cache = ContentCache(tmp_path)
    cache.store("spread", A, {".svg": b"1"})
    cache.store("spread-x", A, {".svg": b"other figure whose name starts alike"})
    (tmp_path / "notes.txt").write_text("not an entry")
    cache.store("spread", B, {".svg": b"2"})
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == sorted(
        ["notes.txt", f"spread-{B[:KEY_CHARS]}.svg", f"spread-x-{A[:KEY_CHARS]}.svg"]
    )
    assert not list(tmp_path.glob("*.tmp")), "writes are atomic: no temporary file stays"


def test_a_folder_entry_replaces_the_older_one(tmp_path: Path) -> None:
    cache = ContentCache(tmp_path)
    old = cache.folder_for("notebook", A)
    (old / "cell.json").write_text("{}")
    new = cache.folder_for("notebook", B)
    assert new.is_dir() and not old.exists()
    assert cache.folder_for("notebook", B) == new, "asking again keeps the entry"


def test_the_notebook_page_is_slimmed_once_then_read_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = (
        "<style>.jupyter-wrapper{--jp-a:1px}.jp-Cell{margin:var(--jp-a)}.jp-Unused{color:red}"
        '</style><div class="jp-Cell">x</div>'
    )
    html, images = notebook.slim_page(page, tmp_path)
    assert ".jp-Cell" in html and ".jp-Unused" not in html and images == {}

    def must_not_run(_: str) -> str:
        raise AssertionError("slim ran on a cache hit")

    monkeypatch.setattr(notebook, "slim", must_not_run)
    assert notebook.slim_page(page, tmp_path) == (html, images)
    with pytest.raises(AssertionError, match="cache hit"):  # another page is a miss
        notebook.slim_page(page.replace(">x<", ">y<"), tmp_path)
