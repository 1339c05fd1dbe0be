"""The contributor's loop: compiled templates are reused, and ``mkdocs serve`` polls faster."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jinja2
import pytest
from mkdocs.livereload import LiveReloadServer

from site_build.fast_rebuild import cache_templates, poll_every


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
    assert "HTMLPROOFER=false" in serve and "mkdocs serve --strict" in serve
    build = make_dry_run("build")
    assert "mkdocs build --strict" in build and "HTMLPROOFER" not in build
