"""The helpers every hook shares: adding generated files and importing sources anew."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

from site_build.mkdocs_files import (
    LIVE_PACKAGES,
    fresh_import,
    put_built,
    put_generated,
    sources_signature,
)


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
    put_generated(files, config, "assets/data/x.json", content='{"a": 1}')
    put_generated(files, config, "assets/data/x.json", content='{"a": 2}')
    matching = [f for f in files if f.src_uri == "assets/data/x.json"]
    assert len(matching) == 1, "a second call must replace the file, not add a duplicate"
    assert matching[0].content_string == '{"a": 2}'


def test_put_generated_copies_from_a_source_file(config: MkDocsConfig, tmp_path: Path) -> None:
    source = tmp_path / "katex.min.css"
    source.write_text(".katex{}", encoding="utf-8")
    files = Files([])
    put_generated(files, config, "vendor/katex/katex.min.css", abs_src_path=str(source))
    (file,) = list(files)
    assert isinstance(file, File) and file.abs_src_path == str(source)


@pytest.mark.parametrize("kwargs", [{}, {"content": "x", "abs_src_path": "/x"}])
def test_put_generated_needs_exactly_one_source(
    config: MkDocsConfig, kwargs: dict[str, str]
) -> None:
    with pytest.raises(ValueError, match="exactly one of content or abs_src_path"):
        put_generated(Files([]), config, "a.txt", **kwargs)  # type: ignore[arg-type]


def test_put_built_adds_contents_and_copies_and_logs(
    config: MkDocsConfig, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    source = tmp_path / "shard.bin"
    source.write_bytes(b"\x00\x01")
    seen = []

    def build(module: object) -> dict[str, str | Path]:
        seen.append(getattr(module, "__name__", None))
        return {"figures/a.svg": "<svg/>", "assets/shard.bin": source}

    with caplog.at_level(logging.INFO, logger="test.put_built"):
        files = put_built(
            Files([]), config, "site_build.vendor", build, logging.getLogger("test.put_built")
        )
    assert seen == ["site_build.vendor"]
    by_uri = {f.src_uri: f for f in files}
    assert by_uri["figures/a.svg"].content_string == "<svg/>"
    assert by_uri["assets/shard.bin"].abs_src_path == str(source)
    (message,) = [r.getMessage() for r in caplog.records]
    assert message.startswith("vendor: 2 files ready in "), message


def test_fresh_import_reloads_the_live_packages() -> None:
    import attention_ref

    saved = {n: m for n, m in sys.modules.items() if n.split(".")[0] in LIVE_PACKAGES}
    try:
        if "site_build.widget_data" in saved:  # as if imported by a plain import
            vars(saved["site_build.widget_data"]).pop("__live_sources__", None)
        module = fresh_import("site_build.widget_data")
        assert module.__name__ == "site_build.widget_data"
        assert sys.modules["attention_ref"] is not attention_ref, "must be imported anew"
        assert module is not saved.get("site_build.widget_data")
    finally:
        # Put the modules other tests imported back, so they keep seeing one set.
        for name in [n for n in sys.modules if n.split(".")[0] in LIVE_PACKAGES]:
            del sys.modules[name]
        sys.modules.update(saved)


@pytest.fixture
def live_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    package = tmp_path / "live_pkg_for_test"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "core.py").write_text("VALUE = 1\n")
    (package / "user.py").write_text("from live_pkg_for_test.core import VALUE\n")
    monkeypatch.syspath_prepend(str(tmp_path))
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
    core.write_text("VALUE = 22\n")
    os.utime(core, ns=(core.stat().st_atime_ns, core.stat().st_mtime_ns + 10**9))
    second = fresh_import("live_pkg_for_test.user", packages)
    assert second is not first and second.VALUE == 22, "the edit reaches the importing module"


def test_sources_signature_names_every_source(live_package: Path) -> None:
    signature = sources_signature(["live_pkg_for_test"])
    assert [Path(path).name for path, _, _ in signature] == ["__init__.py", "core.py", "user.py"]
