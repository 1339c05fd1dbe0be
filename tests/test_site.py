"""The site model (``site_build/site.py``) agrees with the nav, the files and the built site.

The model declares the lessons and pages once; the build and the tests take their lists
from it. These tests hold it to what it describes, each against a source of its own:
``nav:`` in ``mkdocs.yml`` (read here with PyYAML, not through the model), the files
under ``docs/``, ``snippets/practice/`` and ``tests/``, and the pages of the built site.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest
import yaml

from site_build import site
from site_build.site import LESSONS, PAGES, Lesson, Page
from testbed.serve import built_pages

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
BUILT = Path(os.environ.get("SITE_DIR", ROOT / "site"))


class _Loader(yaml.SafeLoader):
    pass


_Loader.add_multi_constructor("!", lambda loader, suffix, node: None)


def nav_sources() -> list[str]:
    """Every page the nav lists, in order, walked here without the model's reader."""
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Loader)
    found: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, str):
            found.append(node)
        elif isinstance(node, list):
            for item in node:
                walk(item)
        elif isinstance(node, dict):
            for value in node.values():
                walk(value)

    walk(config["nav"])
    return found


def test_the_model_is_the_nav() -> None:
    """Every page of the nav is a page of the model, in the same order; the lessons too."""
    assert [page.source for page in PAGES] == nav_sources()
    lessons = [source for source in nav_sources() if source in {x.source for x in LESSONS}]
    assert lessons == [lesson.source for lesson in LESSONS]
    assert [title for title, _ in site.nav()][:2] == ["Home", "From words to vectors"]
    assert site.lesson_of("attention.md").title == "Attention"


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
    steps = lesson.steps()
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


def test_what_a_lesson_derives(tmp_path: Path) -> None:
    """A new lesson's line gives its address, practice, manifest and claims test."""
    lesson = Lesson(number=6, source="long-context.md")
    assert (lesson.url, lesson.html) == ("long-context/", "long-context/index.html")
    assert lesson.practice_partial == "docs/partials/practice_long_context.md"
    assert lesson.manifest == "practice/long-context/manifest.json"
    assert lesson.claims_test == "tests/test_long_context_claims.py"
    with pytest.raises(FileNotFoundError, match=r"lesson 6 \(long-context\.md\) has no practice"):
        lesson.steps(tmp_path)
    for name in ("02_b", "01_a", "notes", "__pycache__"):
        (tmp_path / "long-context" / name).mkdir(parents=True)
    assert lesson.steps(tmp_path) == ("01_a", "02_b")
    assert Page("notebooks/x.py").url == "notebooks/x/" and Page("notebooks/x.py").is_notebook
    with pytest.raises(KeyError, match=r"no lesson has the page 'nowhere\.md'"):
        site.lesson_of("nowhere.md")


def test_the_built_site_has_the_models_pages() -> None:
    if not (BUILT / "index.html").is_file():
        pytest.skip(f"{BUILT.name}/ is not built (make build): the built pages are not there")
    assert built_pages(BUILT) == sorted(page.url for page in PAGES)
