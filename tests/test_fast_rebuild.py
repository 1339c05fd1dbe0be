"""The contributor's loop: ``make serve``'s dirty rebuilds render the pages that changed,
judged by the content of what they are made from, and compiled templates are reused.

The last tests build a small project (two pages, a partial, two snippets, a script) with
the real Material theme, its search plugin and this site's hook, several times in one
process, as ``mkdocs serve --dirty`` does; what was rendered is read from the built
site. In a git repository, a branch switch or a ``git stash pop`` lands in the middle of
a build (as when it comes while the server rebuilds), and after one more build every
page and file shows what is on disk.
"""

from __future__ import annotations

import json
import logging
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import jinja2
import pytest
import yaml
from mkdocs.commands.build import build
from mkdocs.config import load_config

from site_build.fast_rebuild import (
    DIRTY_WARNING,
    DirtyRebuild,
    files_signature,
    merge_search_index,
    page_inputs,
    quiet_dirty_warning,
    stale,
    with_template_cache,
)
from site_build.page import included_files

ROOT = Path(__file__).resolve().parents[1]


class CountingEnvironment(jinja2.Environment):
    """An environment that lists the templates it compiles (its overlays share the list)."""

    compiled: list[str]

    def compile(self, source: Any, name: str | None = None, *args: Any, **kwargs: Any) -> Any:
        self.compiled.append(str(name))
        return super().compile(source, name, *args, **kwargs)


def counting_env(templates: Path, cache: Path) -> tuple[jinja2.Environment, list[str]]:
    plain = CountingEnvironment(loader=jinja2.FileSystemLoader(templates))
    plain.compiled = []
    env = with_template_cache(plain, cache)
    assert plain.bytecode_cache is None, "the environment MkDocs made is left as it was"
    return env, plain.compiled


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


def test_the_build_hook_is_listed_in_mkdocs_yml_and_judges_the_files_last() -> None:
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "\n  - hooks/build.py\n" in text
    hook = (ROOT / "hooks" / "build.py").read_text(encoding="utf-8")
    for call in ["rebuild.start(", "rebuild.judge(", "rebuild.rendered(", "rebuild.finish("]:
        assert call in hook, call


#: The test project's hook: :class:`DirtyRebuild` wired as ``hooks/build.py`` wires it
#: (the site's hook runs every other step of the build too, which needs the whole site).
REBUILD_HOOK = """
from mkdocs.plugins import event_priority
from site_build.fast_rebuild import DirtyRebuild, with_template_cache
from pathlib import Path

rebuild = DirtyRebuild()

def on_pre_build(config):
    rebuild.start(config)

@event_priority(-100)
def on_files(files, config):
    return rebuild.judge(files, config)

def on_env(env, config, files):
    return with_template_cache(env, Path(config.config_file_path).parent / ".cache" / "jinja")

def on_pre_page(page, config, files):
    rebuild.rendered(page)
    return page

@event_priority(-100)
def on_post_build(config):
    rebuild.finish(config)
"""


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


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def same_time(path: Path, text: str) -> None:
    """Write ``text`` into ``path`` and put its old modification time back."""
    before = path.stat()
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


def test_a_page_is_stale_when_it_or_an_include_or_a_shared_file_changes(tmp_path: Path) -> None:
    root = tmp_path
    part = write(root / "docs/partials/p.md", '--8<-- "snippets/s.py"\n')
    snippet = write(root / "snippets/s.py", "x = 1\n")
    config = write(root / "mkdocs.yml", "site_name: t\n")
    pages = {
        "a.md": page_inputs(write(root / "docs/a.md", '--8<-- "docs/partials/p.md"\n'), root),
        "b.md": page_inputs(write(root / "docs/b.md", "Prose.\n"), root),
    }
    assert pages["a.md"] == [root / "docs/a.md", part, snippet]

    def shared() -> str:
        return str(files_signature([config], root=root))

    built, todo = stale(pages, {}, root, shared())
    assert todo == ["a.md", "b.md"], "never built"
    assert stale(pages, built, root, shared())[1] == []
    # Each change keeps the file's size and time: only its content tells.
    for path, new, expected in [
        (snippet, "x = 2\n", ["a.md"]),  # two includes deep
        (part, "--8<-- 'snippets/s.py'\n", ["a.md"]),  # the partial itself
        (root / "docs/b.md", "Prize.\n", ["b.md"]),
        (config, "site_name: u\n", ["a.md", "b.md"]),
    ]:
        old = path.read_text(encoding="utf-8")
        same_time(path, new)
        assert stale(pages, built, root, shared())[1] == expected, path
        same_time(path, old)  # put back as it was: nothing is stale any more
        assert stale(pages, built, root, shared())[1] == []
    # Another copy of the project is not stale: names are taken from the project's root.
    copy = tmp_path / "copy"
    for path in [part, snippet, config, root / "docs/a.md", root / "docs/b.md"]:
        write(copy / path.relative_to(root), path.read_text(encoding="utf-8"))
    in_copy = {key: page_inputs(copy / "docs" / key, copy) for key in pages}
    shared_in_copy = str(files_signature([copy / "mkdocs.yml"], root=copy))
    assert stale(in_copy, built, copy, shared_in_copy)[1] == []


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

    rebuild = DirtyRebuild()  # one per process, held by hooks/build.py
    write(tmp_path / "in/a.txt", "1")
    first = rebuild.reuse("test-inputs", [tmp_path / "in"], make)
    assert rebuild.reuse("test-inputs", [tmp_path / "in"], make) is first
    assert made == ["x"]
    same_time(tmp_path / "in/a.txt", "2")  # same size, same time, new content
    assert rebuild.reuse("test-inputs", [tmp_path / "in"], make) == "2"
    write(tmp_path / "in/b.txt", "")  # a new file in the folder
    rebuild.reuse("test-inputs", [tmp_path / "in"], make)
    assert made == ["x", "x", "x"]
    rebuild.reuse("test-inputs", [tmp_path / "in"], make, key="v2")  # a new version
    assert made == ["x", "x", "x", "x"]


def test_the_search_settings_are_the_themes_english_defaults() -> None:
    """mkdocs.yml writes them out (a lookup per build saved); they must match the theme."""
    languages = Path(jinja2.__file__).parents[1] / "material/templates/partials/languages/en.html"
    theme = dict(re.findall(r'"search\.config\.(\w+)": "(.*)"', languages.read_text("utf-8")))
    plugins = yaml.load((ROOT / "mkdocs.yml").read_text("utf-8"), Loader=yaml.BaseLoader)["plugins"]
    search = next(p["search"] for p in plugins if isinstance(p, dict) and "search" in p)
    assert search["lang"] == theme["lang"] == "en"
    assert search["separator"] == theme["separator"].replace("\\\\", "\\")
    assert search["pipeline"] == [p.strip() for p in theme["pipeline"].split(",")]


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
    (tmp_path / "rebuild.py").write_text(REBUILD_HOOK, encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\nsite_url: http://127.0.0.1/\ntheme: {name: material}\nplugins: [search]\n"
        "hooks: [rebuild.py]\n"
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
    """Replace ``old`` by ``new`` in ``path``, keeping the file's old time (older than the
    built pages): the rebuild must see the edit by the content alone."""
    text = path.read_text(encoding="utf-8")
    assert old in text
    same_time(path, text.replace(old, new))


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


# --- a branch switch or a stash that lands while the server rebuilds ---------------------

#: The files each page is made from (the test's own list: the page, its includes).
MADE_FROM = {
    "index.html": ["docs/index.md"],
    "code/index.html": [
        "docs/code.md",
        "snippets/shown.py",
        "docs/partials/part.md",
        "snippets/inner.py",
    ],
    "copied/index.html": ["docs/copied.md"],
    "javascripts/note.js": ["docs/javascripts/note.js"],
}
TOKEN = re.compile(r"tok_[a-z]+_[a-z]+")
#: A hook of the test project: runs ``git $MIDWAY_GIT`` once, after every page has been
#: read and before any is written, as a checkout lands while the server rebuilds.
MIDWAY_HOOK = """
import os, subprocess
def on_env(env, config, files):
    command = os.environ.pop("MIDWAY_GIT", "")
    if command:
        folder = os.path.dirname(config.config_file_path)
        subprocess.run(["git", *command.split()], cwd=folder, check=True, capture_output=True)
    return env
"""
#: A hook of the test project: the page copied.md is built from a copy in a folder named
#: by its content, written once (so its file time is that of its first build), as
#: hooks/build.py does with the notebook.
COPY_HOOK = """
import hashlib
from pathlib import Path
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

@event_priority(110)
def on_files(files, config):
    page = files.get_file_from_path("copied.md")
    text = Path(page.abs_src_path).read_bytes()
    folder = Path(config.config_file_path).parent / ".copies" / hashlib.sha256(text).hexdigest()
    if not (folder / "copied.md").exists():
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "copied.md").write_bytes(text)
    files.remove(page)
    files.append(File("copied.md", str(folder), config.site_dir, config.use_directory_urls))
    return files
"""


def git(project: Path, *args: str) -> None:
    identity = ["-c", "user.name=Test", "-c", "user.email=test@example.invalid"]
    subprocess.run(["git", *identity, *args], cwd=project, check=True, capture_output=True)


def tokens(text: str) -> set[str]:
    return set(TOKEN.findall(text))


def stale_outputs(project: Path) -> dict[str, tuple[set[str], set[str]]]:
    """Each built file whose tokens differ from its sources' on disk: (built, on disk).

    The search index is checked too: every page's tokens, and no other.
    """
    wrong = {}
    everything: set[str] = set()
    for built, sources in MADE_FROM.items():
        on_disk = set().union(*(tokens((project / s).read_text("utf-8")) for s in sources))
        shown = tokens((project / "site" / built).read_text("utf-8"))
        if shown != on_disk:
            wrong[built] = (shown, on_disk)
        everything |= on_disk if built.endswith(".html") else set()
    index = tokens((project / "site/search/search_index.json").read_text("utf-8"))
    if index != everything:
        wrong["search/search_index.json"] = (index, everything)
    return wrong


def set_tokens(project: Path, word: str) -> None:
    """Write the project's sources with ``word`` in every token (``tok_<file>_<word>``)."""
    files = {
        "docs/index.md": "# Home\n\nWelcome, tok_home_{w}.\n",
        "docs/code.md": '# Code\n\n## Shown\n\n```python\n--8<-- "snippets/shown.py"\n```\n\n'
        '--8<-- "docs/partials/part.md"\n',
        "docs/partials/part.md": "A partial, tok_part_{w}.\n\n"
        '```python\n--8<-- "snippets/inner.py"\n```\n',
        "snippets/shown.py": 'print("tok_shown_{w}")\n',
        "snippets/inner.py": 'print("tok_inner_{w}")\n',
        "docs/copied.md": "# Copied\n\nBuilt from a copy, tok_copied_{w}.\n",
        "docs/javascripts/note.js": "// tok_note_{w}\n",
    }
    for name, text in files.items():
        write(project / name, text.replace("{w}", word))


@pytest.fixture
def repo(project: Path) -> Path:
    """The project in a git repository: branch ``main`` (tokens ``..._one``) and ``other``
    (tokens ``..._two``), ``main`` checked out; the test hook listed after this site's."""
    write(project / "midway.py", MIDWAY_HOOK)
    write(project / "copy_page.py", COPY_HOOK)
    config = (project / "mkdocs.yml").read_text("utf-8")
    hooks = "hooks: [rebuild.py]"
    assert hooks in config
    ours = "hooks: [rebuild.py, midway.py, copy_page.py]"
    write(project / "mkdocs.yml", config.replace(hooks, ours) + "exclude_docs: partials/\n")
    write(project / ".gitignore", "site/\n__pycache__/\n.copies/\n.cache/\n")
    set_tokens(project, "one")
    git(project, "init", "-q", "-b", "main")
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "one")
    git(project, "checkout", "-q", "-b", "other")
    set_tokens(project, "two")
    git(project, "commit", "-q", "-am", "two")
    git(project, "checkout", "-q", "main")
    return project


def test_a_branch_switch_during_a_rebuild_is_shown_after_the_next_one(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dirty_build(repo)
    assert stale_outputs(repo) == {}
    for branch in ("other", "main"):  # the server rebuilds after each switch
        git(repo, "checkout", "-q", branch)
        dirty_build(repo)
        assert stale_outputs(repo) == {}, branch
    assert "tok_copied_one" in (repo / "site/copied/index.html").read_text("utf-8")
    # To other, and back to main before that rebuild writes its pages.
    git(repo, "checkout", "-q", "other")
    monkeypatch.setenv("MIDWAY_GIT", "checkout -q main")
    dirty_build(repo)
    assert "MIDWAY_GIT" not in os.environ, "the checkout did not happen during the build"
    dirty_build(repo)  # the rebuild the second checkout asks for
    assert stale_outputs(repo) == {}


def test_a_stash_popped_during_a_rebuild_is_shown_after_the_next_one(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    set_tokens(repo, "three")  # work in progress, not committed
    dirty_build(repo)
    assert stale_outputs(repo) == {}
    git(repo, "stash", "-q")
    monkeypatch.setenv("MIDWAY_GIT", "stash pop -q")
    dirty_build(repo)
    assert "MIDWAY_GIT" not in os.environ, "the stash was not popped during the build"
    dirty_build(repo)
    assert stale_outputs(repo) == {}
    assert "tok_home_three" in (repo / "site/index.html").read_text("utf-8")
