"""The helpers every hook shares: adding generated files (hooks/build.py) and importing
sources anew (site_build/fast_rebuild.py)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files

from hooks.build import put_generated
from site_build.fast_rebuild import fresh_import, sources_signature


@pytest.fixture
def config(tmp_path: Path) -> MkDocsConfig:
    (tmp_path / "docs").mkdir()
    cfg = MkDocsConfig()
    cfg.load_dict(
        {"site_name": "t", "docs_dir": str(tmp_path / "docs"), "site_dir": str(tmp_path / "site")}
    )
    errors, _ = cfg.validate()
    assert not errors
    # MkDocs records which plugin made a generated file; outside an event there is none.
    cfg.plugins._current_plugin = None
    return cfg


def test_put_generated_adds_then_replaces(config: MkDocsConfig) -> None:
    files = Files([])
    put_generated(files, config, {"assets/data/x.json": '{"a": 1}'})
    put_generated(files, config, {"assets/data/x.json": '{"a": 2}'})
    matching = [f for f in files if f.src_uri == "assets/data/x.json"]
    assert len(matching) == 1, "a second call must replace the file, not add a duplicate"
    assert matching[0].content_string == '{"a": 2}'


def test_put_generated_copies_a_path_and_writes_a_content(
    config: MkDocsConfig, tmp_path: Path
) -> None:
    source = tmp_path / "katex.min.css"
    source.write_text(".katex{}", encoding="utf-8")
    files = Files([])
    put_generated(files, config, {"vendor/katex/katex.min.css": source, "a.svg": b"<svg/>"})
    by_uri = {f.src_uri: f for f in files}
    assert by_uri["vendor/katex/katex.min.css"].abs_src_path == str(source)
    assert by_uri["a.svg"].content_bytes == b"<svg/>" and by_uri["a.svg"].abs_src_path is None


def same_time(path: Path, text: str) -> None:
    """Write ``text`` (of the same size) into ``path`` and put its old time back: only
    the content tells the edit (Python's own bytecode check would not see it)."""
    before = path.stat()
    assert len(text.encode()) == before.st_size
    path.write_text(text)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


@pytest.fixture
def live_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    package = tmp_path / "live_pkg_for_test"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "core.py").write_text("VALUE = 1\n")
    (package / "user.py").write_text("from live_pkg_for_test.core import VALUE\n")
    (package / "other.py").write_text("from live_pkg_for_test.core import VALUE\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    # Bytecode written, as under `make serve`, so that a stale one would be found.
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    monkeypatch.setattr(sys, "pycache_prefix", str(tmp_path / "pycache"))
    yield package
    for name in [n for n in sys.modules if n.startswith("live_pkg_for_test")]:
        del sys.modules[name]


def test_fresh_import_keeps_the_modules_while_no_source_changes(live_package: Path) -> None:
    packages = ("live_pkg_for_test",)
    first = fresh_import("live_pkg_for_test.user", packages)
    core = sys.modules["live_pkg_for_test.core"]
    assert fresh_import("live_pkg_for_test.user", packages) is first, "a prose edit's rebuild"
    assert sys.modules["live_pkg_for_test.core"] is core


def test_fresh_import_reimports_everything_after_an_edit(live_package: Path) -> None:
    packages = ("live_pkg_for_test",)
    first = fresh_import("live_pkg_for_test.user", packages)
    core = live_package / "core.py"
    same_time(core, "VALUE = 2\n")
    second = fresh_import("live_pkg_for_test.user", packages)
    assert second is not first and second.VALUE == 2, "the edit reaches the importing module"


def test_fresh_import_of_another_module_keeps_the_first(live_package: Path) -> None:
    """Hooks ask for several modules in one build; none may drop the others."""
    packages = ("live_pkg_for_test",)
    user = fresh_import("live_pkg_for_test.user", packages)
    other = fresh_import("live_pkg_for_test.other", packages)
    core = sys.modules["live_pkg_for_test.core"]
    for _ in range(2):  # the next rebuilds, with nothing edited
        assert fresh_import("live_pkg_for_test.user", packages) is user
        assert fresh_import("live_pkg_for_test.other", packages) is other
    assert sys.modules["live_pkg_for_test.core"] is core


def test_fresh_import_drops_a_plainly_imported_module_after_an_edit(live_package: Path) -> None:
    packages = ("live_pkg_for_test",)
    fresh_import("live_pkg_for_test.user", packages)
    import live_pkg_for_test.other  # type: ignore[import-not-found]  # a hook's plain import

    core = live_package / "core.py"
    same_time(core, "VALUE = 3\n")
    other = fresh_import("live_pkg_for_test.other", packages)
    assert other is not live_pkg_for_test.other and other.VALUE == 3


def test_sources_signature_names_every_source(live_package: Path) -> None:
    signature = sources_signature(["live_pkg_for_test"])
    names = [Path(path).name for path, _ in signature]
    assert names == ["__init__.py", "core.py", "other.py", "user.py"]
