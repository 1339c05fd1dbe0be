"""The contributor's loop: compiled templates are reused, ``mkdocs serve`` polls faster,
and ``make serve``'s dirty rebuilds render the pages that changed, and only those.

The last tests build a small project of two pages (one including a snippet) with the
real Material theme, its search plugin and this site's hook, twice in one process, as
``mkdocs serve --dirty`` does; what was rendered is read from the built pages.
"""

from __future__ import annotations

import json
import logging
import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jinja2
import pytest
import yaml
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.livereload import LiveReloadServer

from site_build.fast_rebuild import (
    DIRTY_WARNING,
    ListedOnceLoader,
    cache_templates,
    included_files,
    list_theme_files_once,
    merge_search_index,
    poll_every,
    quiet_dirty_warning,
    reuse_while_unchanged,
    settle_after,
    stale_pages,
)

ROOT = Path(__file__).resolve().parents[1]


def counting_env(templates: Path, cache: Path) -> tuple[jinja2.Environment, list[str]]:
    env = cache_templates(jinja2.Environment(loader=jinja2.FileSystemLoader(templates)), cache)
    compiled: list[str] = []
    compile_ = env.compile

    def counting(source: Any, name: str | None = None, *args: Any, **kwargs: Any) -> Any:
        compiled.append(str(name))
        return compile_(source, name, *args, **kwargs)

    env.compile = counting  # type: ignore[method-assign]
    return env, compiled


def test_a_new_environment_reuses_the_compiled_templates(tmp_path: Path) -> None:
    templates, cache = tmp_path / "templates", tmp_path / "cache"
    templates.mkdir()
    (templates / "page.html").write_text("<p>{{ text }}</p>")
    first, compiled = counting_env(templates, cache)
    assert first.get_template("page.html").render(text="a") == "<p>a</p>"
    assert compiled == ["page.html"]
    second, compiled = counting_env(templates, cache)  # as in the next build
    assert second.get_template("page.html").render(text="b") == "<p>b</p>"
    assert compiled == [], "compiled again although the template did not change"


def test_an_edited_template_is_compiled_again(tmp_path: Path) -> None:
    templates, cache = tmp_path / "templates", tmp_path / "cache"
    templates.mkdir()
    (templates / "page.html").write_text("<p>{{ text }}</p>")
    counting_env(templates, cache)[0].get_template("page.html").render(text="a")
    (templates / "page.html").write_text("<div>{{ text }}</div>")
    env, compiled = counting_env(templates, cache)
    assert env.get_template("page.html").render(text="a") == "<div>a</div>"
    assert compiled == ["page.html"]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveReloadServer]:
    # Not bound to its port and not started: only its watcher is looked at.
    srv = LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=str(tmp_path))
    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text("site_name: t\n")
    srv.watch(str(tmp_path / "docs"))
    srv.watch(str(tmp_path / "mkdocs.yml"))
    yield srv
    srv.server_close()


def timeouts(server: LiveReloadServer) -> set[float]:
    return {e.timeout for e in server.observer.emitters}


def watches(server: LiveReloadServer, path: Path) -> bool:
    """Whether a change to ``path`` reaches the server's watcher (through one of its watches)."""
    # A watched file is a non-recursive watch of its folder.
    return any(
        Path(e.watch.path) in (path.parents if e.watch.is_recursive else [path.parent])
        for e in server.observer.emitters
    )


def test_the_watcher_polls_faster_and_watches_the_same_paths(
    server: LiveReloadServer, tmp_path: Path
) -> None:
    assert timeouts(server) == {0.5}, "MkDocs' own interval"
    assert poll_every(server, 0.1, [str(tmp_path / "docs"), str(tmp_path / "mkdocs.yml")])
    assert timeouts(server) == {0.1}
    assert watches(server, tmp_path / "docs" / "page.md")
    assert watches(server, tmp_path / "mkdocs.yml")
    (tmp_path / "snippets").mkdir()
    server.watch(str(tmp_path / "snippets"))  # as a later on_serve handler does
    assert timeouts(server) == {0.1} and watches(server, tmp_path / "snippets" / "a.py")
    server.unwatch(str(tmp_path / "docs"))  # the server's bookkeeping is whole
    assert not watches(server, tmp_path / "docs" / "page.md")


def test_a_path_it_was_not_told_of_leaves_the_watcher_as_it_was(
    server: LiveReloadServer, tmp_path: Path
) -> None:
    observer = server.observer
    assert not poll_every(server, 0.1, [str(tmp_path / "docs")])  # mkdocs.yml not named
    assert server.observer is observer and timeouts(server) == {0.5}
    assert watches(server, tmp_path / "docs" / "page.md")
    server.unwatch(str(tmp_path / "docs"))  # still the server's own bookkeeping


def test_a_started_watcher_is_left_alone(server: LiveReloadServer, tmp_path: Path) -> None:
    server.observer.start()
    try:
        assert not poll_every(server, 0.1, [str(tmp_path / "docs"), str(tmp_path / "mkdocs.yml")])
        assert timeouts(server) == {0.5}
    finally:
        server.observer.stop()
        server.observer.join()


def test_the_rebuild_waits_less_for_changes_to_settle(server: LiveReloadServer) -> None:
    assert server.build_delay == 0.1, "MkDocs' own wait"
    settle_after(server, 0.03)
    assert server.build_delay == 0.03
    with pytest.raises(ValueError, match="zero or more"):
        settle_after(server, -1)


def test_the_interval_must_be_positive(server: LiveReloadServer) -> None:
    with pytest.raises(ValueError, match="must be positive"):
        poll_every(server, 0, [])


def test_the_hook_is_listed_in_mkdocs_yml() -> None:
    text = (Path(__file__).resolve().parents[1] / "mkdocs.yml").read_text(encoding="utf-8")
    assert "\n  - hooks/fast_rebuild.py\n" in text


def make_dry_run(target: str) -> str:
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run(["make", "-n", target], cwd=root, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_only_make_serve_skips_the_link_check() -> None:
    serve = make_dry_run("serve")
    assert "HTMLPROOFER=false" in serve and "mkdocs serve --strict --dirty" in serve
    # Bytecode is kept, outside every watched folder (a write there would rebuild again).
    prefix = re.search(r"PYTHONPYCACHEPREFIX=(\S+)", serve)
    assert prefix and "PYTHONDONTWRITEBYTECODE= " in serve  # empty: bytecode is written
    watched = [ROOT / "docs", ROOT / "snippets", ROOT / "attention_ref", ROOT / "site_build"]
    assert not any(Path(prefix[1]).is_relative_to(folder) for folder in watched)
    build = make_dry_run("build")
    assert "mkdocs build --strict" in build and "HTMLPROOFER" not in build


# --- which pages a dirty rebuild renders ------------------------------------------------


def test_includes_are_found_through_partials_and_a_cycle_ends() -> None:
    files = {
        "docs/partials/a.md": '--8<-- "docs/partials/b.md"\n',
        "docs/partials/b.md": '  --8<-- "docs/partials/a.md"\n--8<-- "snippets/x.py:show"\n',
    }
    page = 'Prose.\n\n```python\n--8<-- "snippets/y.py"\n```\n\n--8<-- "docs/partials/a.md"\n'
    assert included_files(page, files.get) == {
        "snippets/y.py",
        "docs/partials/a.md",
        "docs/partials/b.md",
        "snippets/x.py",
    }
    assert included_files('--8<-- "docs/partials/gone.md"\n', files.get) == {
        "docs/partials/gone.md"
    }
    assert included_files("No include; the word --8<-- alone in prose.\n", files.get) == set()


def dated(path: Path, text: str, when: float) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    os.utime(path, (when, when))
    return path


def test_a_page_is_stale_when_it_or_an_include_or_a_shared_file_is_newer(tmp_path: Path) -> None:
    src, out = tmp_path / "docs", tmp_path / "site"
    part = dated(tmp_path / "docs/partials/p.md", '--8<-- "snippets/s.py"\n', 100)
    snippet = dated(tmp_path / "snippets/s.py", "x = 1\n", 100)
    config = dated(tmp_path / "mkdocs.yml", "site_name: t\n", 100)
    pages = {
        "a.md": (dated(src / "a.md", '--8<-- "docs/partials/p.md"\n', 100), out / "a.html"),
        "b.md": (dated(src / "b.md", "Prose.\n", 100), out / "b.html"),
        "c.md": (dated(src / "c.md", "New.\n", 100), out / "c.html"),
    }
    dated(out / "a.html", "", 200)
    dated(out / "b.html", "", 200)
    # c.md has never been built.
    assert stale_pages(pages, tmp_path, [config]) == ["c.md"]
    os.utime(snippet, (300, 300))  # two includes deep
    assert stale_pages(pages, tmp_path, [config]) == ["a.md", "c.md"]
    os.utime(snippet, (100, 100))
    os.utime(part, (300, 300))
    assert stale_pages(pages, tmp_path, [config]) == ["a.md", "c.md"]
    os.utime(part, (100, 100))
    os.utime(pages["b.md"][0], (300, 300))
    assert stale_pages(pages, tmp_path, [config]) == ["b.md", "c.md"]
    os.utime(pages["b.md"][0], (100, 100))
    os.utime(config, (300, 300))
    assert stale_pages(pages, tmp_path, [config, tmp_path / "missing.html"]) == [
        "a.md",
        "b.md",
        "c.md",
    ]


def test_the_search_index_keeps_the_other_pages_and_replaces_the_rebuilt_ones() -> None:
    def index(*locations: str) -> dict[str, Any]:
        return {"config": {"lang": ["en"]}, "docs": [{"location": x, "text": x} for x in locations]}

    old = index("", "#who", "a/", "a/#x", "ab/", "b/", "b/#y")
    # The home page's location is "": it is not a prefix of every other page.
    merged = merge_search_index(old, index("", "#new"), [""])
    assert [e["location"] for e in merged["docs"]] == [
        "",
        "#new",
        "a/",
        "a/#x",
        "ab/",
        "b/",
        "b/#y",
    ]
    # Two pages at once (a snippet both include); "a/" is not a prefix of "ab/";
    # a section removed from b/ is gone; a stale entry of another page in `current` is ignored.
    merged = merge_search_index(old, index("a/", "a/#z", "b/", "ab/#stale"), ["a/", "b/"])
    assert [e["location"] for e in merged["docs"]] == ["", "#who", "a/", "a/#z", "ab/", "b/"]
    # A new page goes at the end; with no previous index, the current one is whole.
    merged = merge_search_index(old, index("c/"), ["c/"])
    assert [e["location"] for e in merged["docs"]][-2:] == ["b/#y", "c/"]
    assert merge_search_index(None, index("a/"), ["a/"])["docs"] == index("a/")["docs"]


def test_only_the_dirty_build_warning_is_dropped() -> None:
    logger = logging.getLogger("test_fast_rebuild.quiet")
    seen: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: seen.append(record.getMessage())  # type: ignore[method-assign]
    logger.addHandler(handler)
    quiet_dirty_warning(logger)
    quiet_dirty_warning(logger)  # idempotent
    assert len(logger.filters) == 1
    logger.warning(DIRTY_WARNING + ", this will likely lead to inaccurate navigation")
    logger.warning("Doc file 'a.md' contains a link 'b.md', but the target is not found.")
    assert seen == ["Doc file 'a.md' contains a link 'b.md', but the target is not found."]


def test_a_result_is_made_again_only_when_an_input_changes(tmp_path: Path) -> None:
    made: list[str] = []

    def make() -> str:
        made.append("x")
        return (tmp_path / "in" / "a.txt").read_text()

    dated(tmp_path / "in/a.txt", "1", 100)
    first = reuse_while_unchanged("test-inputs", [tmp_path / "in"], make)
    assert reuse_while_unchanged("test-inputs", [tmp_path / "in"], make) is first
    assert made == ["x"]
    dated(tmp_path / "in/a.txt", "22", 100)  # same time, new size
    assert reuse_while_unchanged("test-inputs", [tmp_path / "in"], make) == "22"
    dated(tmp_path / "in/b.txt", "", 100)  # a new file in the folder
    reuse_while_unchanged("test-inputs", [tmp_path / "in"], make)
    assert made == ["x", "x", "x"]


def test_the_search_settings_are_the_themes_english_defaults() -> None:
    """mkdocs.yml writes them out (a lookup per build saved); they must match the theme."""
    languages = Path(jinja2.__file__).parents[1] / "material/templates/partials/languages/en.html"
    theme = dict(re.findall(r'"search\.config\.(\w+)": "(.*)"', languages.read_text("utf-8")))
    plugins = yaml.load((ROOT / "mkdocs.yml").read_text("utf-8"), Loader=yaml.BaseLoader)["plugins"]
    search = next(p["search"] for p in plugins if isinstance(p, dict) and "search" in p)
    assert search["lang"] == theme["lang"] == "en"
    assert search["separator"] == theme["separator"].replace("\\\\", "\\")
    assert search["pipeline"] == [p.strip() for p in theme["pipeline"].split(",")]


def theme_files(config: Any) -> list[str]:
    from mkdocs.structure.files import Files

    files = Files([])
    files.add_files_from_theme(config.theme.get_env(), config)
    return sorted(f.src_uri for f in files)


def test_the_theme_files_listed_once_are_the_files_mkdocs_lists() -> None:
    """This site's theme (Material and docs/overrides): the same static files either way."""
    plain = load_config(str(ROOT / "mkdocs.yml"))
    listed_once = load_config(str(ROOT / "mkdocs.yml"))
    list_theme_files_once(listed_once.theme)
    assert isinstance(listed_once.theme.get_env().loader, ListedOnceLoader)
    expected = theme_files(plain)
    assert len(expected) > 40 and "assets/javascripts/bundle" in " ".join(expected)
    assert theme_files(listed_once) == expected
    assert theme_files(listed_once) == expected  # the kept listing, the second time


def test_a_file_added_to_the_watched_folder_is_listed(tmp_path: Path) -> None:
    (tmp_path / "theme").mkdir()
    (tmp_path / "theme/main.html").write_text("x")
    (tmp_path / "theme/.hidden").mkdir()
    (tmp_path / "theme/.hidden/icon.svg").write_text("<svg/>")
    loader = ListedOnceLoader([str(tmp_path / "theme")], [tmp_path / "theme"])
    assert loader.list_templates() == ["main.html"]
    (tmp_path / "theme/extra.css").write_text("p{}")
    assert loader.list_templates() == ["extra.css", "main.html"]


# --- a real dirty rebuild of a small project --------------------------------------------


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "docs").mkdir()
    (tmp_path / "snippets").mkdir()
    (tmp_path / "snippets/shown.py").write_text("print(1)\n", encoding="utf-8")
    (tmp_path / "docs/index.md").write_text("# Home\n\nWelcome, reader.\n", encoding="utf-8")
    (tmp_path / "docs/code.md").write_text(
        '# Code\n\n## Shown\n\n```python\n--8<-- "snippets/shown.py"\n```\n', encoding="utf-8"
    )
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\nsite_url: http://127.0.0.1/\ntheme: {name: material}\nplugins: [search]\n"
        f"hooks: [{ROOT / 'hooks' / 'fast_rebuild.py'}]\n"
        "markdown_extensions:\n  - pymdownx.superfences\n"
        "  - pymdownx.snippets: {base_path: [!relative $config_dir], check_paths: true}\n",
        encoding="utf-8",
    )
    return tmp_path


def dirty_build(project: Path) -> dict[str, Any]:
    """One build as ``mkdocs serve --dirty`` runs it; returns the search index."""
    config = load_config(str(project / "mkdocs.yml"), site_dir=str(project / "site"))
    config.plugins.on_startup(command="serve", dirty=True)
    build(config, serve_url="http://127.0.0.1/", dirty=True)
    return dict(json.loads((project / "site/search/search_index.json").read_text("utf-8")))


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    later = path.stat().st_mtime + 10  # clearly newer than the built pages
    os.utime(path, (later, later))


def texts(index: dict[str, Any]) -> dict[str, str]:
    return {e["location"]: e["text"] for e in index["docs"]}


def test_a_dirty_rebuild_renders_what_changed_and_keeps_the_search_index_whole(
    project: Path, caplog: pytest.LogCaptureFixture
) -> None:
    site = project / "site"
    first = dirty_build(project)
    assert set(texts(first)) == {"", "code/", "code/#shown"}
    code_built = (site / "code/index.html").stat().st_mtime_ns
    # A prose edit of the home page: the home page only; code/ is left as it was.
    edit(project / "docs/index.md", "Welcome, reader.", "Welcome back, reader.")
    with caplog.at_level(logging.INFO):
        after_prose = dirty_build(project)
    assert "Welcome back" in (site / "index.html").read_text("utf-8")
    assert (site / "code/index.html").stat().st_mtime_ns == code_built
    assert "Rebuilt 1 of 2 pages (index.md)" in caplog.text
    assert DIRTY_WARNING not in caplog.text  # and strict mode would have stopped on it
    assert set(texts(after_prose)) == set(texts(first))
    assert "Welcome back" in texts(after_prose)[""]
    assert texts(after_prose)["code/#shown"] == texts(first)["code/#shown"]
    # An edit of the included snippet only: the page that includes it is rendered again.
    edit(project / "snippets/shown.py", "print(1)", "print(22)")
    after_snippet = dirty_build(project)
    assert "22" in (site / "code/index.html").read_text("utf-8")
    assert "22" in texts(after_snippet)["code/#shown"]
    assert set(texts(after_snippet)) == set(texts(first))
