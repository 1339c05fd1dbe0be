"""The site model (``site_build/site.py``) agrees with the files and the built site.

The model declares the pages, lessons and widgets once; the build and the tests take
their lists from it. These tests hold it to what it describes, each against a source of
its own: the files under ``docs/``, ``snippets/practice/`` and ``tests/``, and the pages
of the built site (its navigation, read from the HTML, and its widgets' containers).
"""

from __future__ import annotations

import ast
import json
import os
import re
from pathlib import Path

import pytest
import yaml

from site_build import practice, site
from site_build.site import LESSONS, PAGES, WIDGETS, Lesson, Page, Widget
from testbed.serve import built_pages

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
BUILT = Path(os.environ.get("SITE_DIR", ROOT / "site"))


class _Loader(yaml.SafeLoader):
    pass


_Loader.add_multi_constructor("!", lambda loader, suffix, node: None)

#: A link of the built navigation: its address and the title it shows.
NAV_LINK = re.compile(
    r'<a href="([^"#]*)" class="md-nav__link[^"]*"[^>]*>'
    r'\s*<span class="md-ellipsis">\s*(.*?)\s*</span>',
    re.S,
)
#: A section's label in the built navigation.
NAV_SECTION = re.compile(
    r'<label class="md-nav__link"[^>]*>\s*<span class="md-ellipsis">\s*(.*?)\s*</span>', re.S
)


def built(path: str) -> str:
    if not (BUILT / "index.html").is_file():
        pytest.skip(f"{BUILT.name}/ is not built (make build): the built pages are not there")
    return (BUILT / path).read_text(encoding="utf-8")


def test_mkdocs_yml_names_no_page() -> None:
    """The pages are named once, in the model: ``mkdocs.yml`` has no ``nav:`` of its own."""
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Loader)
    assert "nav" not in config


def test_the_built_navigation_is_the_models() -> None:
    """The site's navigation lists the model's pages in order, each under its title (a
    notebook shows its own first heading), and the sections the model names."""
    html = built("404.html")  # a page with no active item: every link is the same shape
    nav = html[html.index("md-nav--primary") :]
    nav = nav[: nav.index("</nav>")]
    links = NAV_LINK.findall(nav)
    base = links[0][0].removesuffix(".")
    assert [href.removeprefix(base).removesuffix(".") for href, _ in links] == [
        page.url for page in PAGES
    ]
    titles = [title for (_, title), page in zip(links, PAGES, strict=True) if not page.is_notebook]
    assert titles == [page.title for page in PAGES if not page.is_notebook]
    assert NAV_SECTION.findall(nav) == ["About this site"]


def test_nav_config_groups_a_section() -> None:
    pages = (Page("a.md", "A"), Page("b.md", "B", "S"), Page("c.md", "C", "S"), Page("d.md", "D"))
    assert site.nav_config(pages) == [
        {"A": "a.md"},
        {"S": [{"B": "b.md"}, {"C": "c.md"}]},
        {"D": "d.md"},
    ]


def test_the_model_names_each_lesson_once() -> None:
    lessons = [page for page in PAGES if isinstance(page, Lesson)]
    assert lessons == list(LESSONS)


def test_lessons_are_numbered_from_0_in_order() -> None:
    assert [lesson.number for lesson in LESSONS] == list(range(len(LESSONS)))
    assert len({lesson.slug for lesson in LESSONS}) == len(LESSONS)


def test_every_page_under_docs_is_in_the_model() -> None:
    """MkDocs builds every Markdown file of docs/ but the partials and overrides, and the
    notebooks mkdocs-jupyter includes (``notebooks/*.py``)."""
    sources = {
        p.relative_to(DOCS).as_posix()
        for p in DOCS.rglob("*.md")
        if p.relative_to(DOCS).parts[0] not in {"partials", "overrides"}
    }
    sources |= {p.relative_to(DOCS).as_posix() for p in (DOCS / "notebooks").glob("*.py")}
    assert sources == {page.source for page in PAGES}
    assert all(page.path.is_file() for page in PAGES)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda x: x.slug)
def test_a_lesson_has_its_practice_partial_and_claims_test(lesson: Lesson) -> None:
    steps = [step.id for step in practice.read_steps(site.PRACTICE / lesson.slug)]
    assert len(steps) >= 4, f"{lesson.source}: {steps}"
    # Numbered from 01 without a gap (a step lost in the middle shows).
    assert [int(step[:2]) for step in steps] == list(range(1, len(steps) + 1)), steps
    partial = ROOT / lesson.practice_partial
    assert partial.is_file(), f"{lesson.source}: no practice partial {lesson.practice_partial}"
    page = lesson.path.read_text(encoding="utf-8")
    assert f'--8<-- "{lesson.practice_partial}"' in page, f"{lesson.source} shows no practice"
    claims = ROOT / lesson.claims_test
    assert claims.is_file(), f"{lesson.source}: no claims test {lesson.claims_test}"
    tree = ast.parse(claims.read_text(encoding="utf-8"))
    named = [
        node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and [getattr(t, "id", None) for t in node.targets] == ["PAGE"]
        and isinstance(node.value, ast.Constant)
    ]
    assert named == [lesson.source], f"{lesson.claims_test} checks {named}, not {lesson.source}"


def test_every_practice_folder_is_a_lessons() -> None:
    folders = {
        p.name for p in site.PRACTICE.iterdir() if p.is_dir() and site.LESSON_DIR.match(p.name)
    }
    assert folders == {lesson.slug for lesson in LESSONS}


def test_what_a_lesson_derives() -> None:
    """A new lesson's line gives its address, practice, manifest and claims test."""
    lesson = Lesson(number=6, source="long-context.md", title="Long context")
    assert (lesson.url, lesson.html) == ("long-context/", "long-context/index.html")
    assert lesson.practice_partial == "docs/partials/practice_long_context.md"
    assert lesson.manifest == "practice/long-context/manifest.json"
    assert lesson.claims_test == "tests/test_long_context_claims.py"
    notebook = Page("notebooks/x.py", "X")
    assert notebook.url == "notebooks/x/" and notebook.is_notebook


def test_the_built_site_has_the_models_pages() -> None:
    built("index.html")
    assert built_pages(BUILT) == sorted(page.url for page in PAGES)


# --- widgets ---------------------------------------------------------------------------------

#: A widget's container as written in a page or partial.
CONTAINER = re.compile(r"""data-widget=["']([^"']+)["']""")
#: What a module exporting ``mount`` says (a function, or a name in an export list).
EXPORTS_MOUNT = re.compile(r"^export (?:async )?function mount\(|^export \{[^}]*\bmount\b", re.M)


@pytest.mark.parametrize("widget", WIDGETS.values(), ids=lambda w: w.name)
def test_a_widget_has_its_module_and_stylesheets(widget: Widget) -> None:
    module = DOCS / widget.module
    assert module.is_file(), f"{widget.name}: no module docs/{widget.module}"
    assert EXPORTS_MOUNT.search(module.read_text(encoding="utf-8")), (
        f"docs/{widget.module} exports no mount(box, data)"
    )
    for name in widget.stylesheets:
        assert (DOCS / "stylesheets" / name).is_file(), f"{widget.name}: no stylesheets/{name}"
    assert set(widget.pages) <= {page.source for page in PAGES}, widget.pages


def test_every_container_is_a_models_widget() -> None:
    """No page or partial has a ``data-widget`` that the loader would not know."""
    named = {
        m[1]
        for path in DOCS.rglob("*.md")
        for m in CONTAINER.finditer(path.read_text(encoding="utf-8"))
    }
    assert named == set(WIDGETS)


def test_each_widget_is_on_the_pages_the_model_says() -> None:
    """The built pages that hold a widget's container are its pages, no more, no fewer."""
    built("index.html")
    for widget in WIDGETS.values():
        holding = {
            page.source for page in PAGES if f'data-widget="{widget.name}"' in built(page.html)
        }
        assert holding == set(widget.pages), widget.name


def test_every_stylesheet_is_bundled_once() -> None:
    """Every stylesheet of ``docs/`` is in the bundle once, widgets' included, but the
    notebook pages' own, which ``docs/overrides/main.html`` links on those pages only."""
    from site_build.bundles import SOURCES

    on_disk = {f"stylesheets/{p.name}" for p in (DOCS / "stylesheets").glob("*.css")}
    assert sorted(SOURCES) == sorted(on_disk - {"stylesheets/notebook.css"})


def test_the_practice_widget_reads_each_lessons_manifest() -> None:
    """The loader's address of the manifest is where the build publishes each lesson's."""
    url, _ = WIDGETS["practice"].data["manifest"]
    assert [url.replace("{lesson}", x.slug) for x in LESSONS] == [x.manifest for x in LESSONS]
    assert WIDGETS["practice"].pages == tuple(x.source for x in LESSONS)


def test_the_loader_map_is_the_models() -> None:
    """The module the build publishes for the loader, read back as JSON; one entry
    written out by hand."""
    text = site.widget_map_js()
    head = "export const WIDGETS = "
    line = next(x for x in text.splitlines() if x.startswith(head))
    entries = json.loads(line.removeprefix(head).removesuffix(";"))
    assert list(entries) == list(WIDGETS)
    assert entries["training"] == {
        "label": "Training, checkpoint by checkpoint",
        "module": "javascripts/lib/training-widget.js",
        "data": {"run": ["assets/data/training.json", "training run"]},
        "failure": "The training run could not be loaded.",
    }
    built_map = built(site.WIDGET_MAP)
    assert built_map == text


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"name": "Heat map"}, r"widget name 'Heat map' is not lower-case letters"),
        ({"module": "lib/x.ts"}, r"widget x: its module 'lib/x\.ts' is no \.js file"),
        ({"pages": ()}, r"widget x is on no page"),
    ],
)
def test_a_bad_widget_line_says_what_is_wrong(fields: dict[str, object], message: str) -> None:
    line: dict[str, object] = {
        "name": "x",
        "module": "javascripts/lib/x.js",
        "label": "X",
        "failure": "X could not be loaded.",
        "pages": ("index.md",),
        "first_control": "button",
    }
    with pytest.raises(ValueError, match=message):
        Widget(**{**line, **fields})  # type: ignore[arg-type]
