"""The site model: the course's pages and lessons, declared once, as data.

A lesson is one line of :data:`LESSONS`, its number and its page under ``docs/``.
Everything else about it follows from the page's name (its *slug*, ``self-attention``
for ``self-attention.md``), by the conventions the course keeps:

- its address: ``self-attention/`` (MkDocs' directory URLs);
- its practice: one folder per step, ``snippets/practice/<slug>/NN_name/``, shown on the
  page by the partial ``docs/partials/practice_<slug_>.md`` (``_`` for ``-``; lesson 1's
  is ``practice.md``, the first there was), published by the build as the manifest
  ``practice/<slug>/manifest.json``;
- its claims test: ``tests/test_<slug_>_claims.py``.

The other pages (the home page, the notebook, the about pages) are in :data:`PAGES`
too, in the order of ``nav:`` in ``mkdocs.yml``, which gives their titles
(:func:`nav`). ``tests/test_site.py`` holds the model to the nav and to the files: every
lesson in the nav in order, every nav page known here, every lesson's practice folder,
partial and claims test present, and no practice folder that is no lesson's.

The build reads the lessons from here (the practice manifests), and so do the tests
that are about every page or every lesson (the browser tests' parameters among them):
a new lesson is a page, its snippets, its practice folder and partial, and one line.

Examples
--------
>>> lesson = lesson_of("self-attention.md")
>>> lesson.number, lesson.slug, lesson.url
(2, 'self-attention', 'self-attention/')
>>> lesson.practice_partial, lesson.claims_test
('docs/partials/practice_self_attention.md', 'tests/test_self_attention_claims.py')
>>> lesson.manifest
'practice/self-attention/manifest.json'
>>> lesson.steps()[:2]
('01_project', '02_split_heads')
>>> [page.url for page in PAGES if not isinstance(page, Lesson)]
['', 'notebooks/sqrt_dk/', 'performance/']
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
#: Each lesson's practice folder is ``PRACTICE / <slug>``.
PRACTICE = ROOT / "snippets" / "practice"
#: A lesson's practice folder and a step's folder in it are named like these.
LESSON_DIR = re.compile(r"^[a-z][a-z0-9-]*$")
STEP_DIR = re.compile(r"^\d\d_[a-z0-9_]+$")


@dataclass(frozen=True)
class Page:
    """A page of the site: ``source`` is its path under ``docs/`` (``.md``, or ``.py`` for
    a notebook, which mkdocs-jupyter builds)."""

    source: str

    @property
    def url(self) -> str:
        """Its address under the site's root: ``""`` for the home page, else ending in ``/``."""
        path = PurePosixPath(self.source).with_suffix("")
        parts = path.parts[:-1] if path.name == "index" else path.parts
        return "".join(f"{part}/" for part in parts)

    @property
    def html(self) -> str:
        """The built file, under the site's folder."""
        return f"{self.url}index.html"

    @property
    def is_notebook(self) -> bool:
        return self.source.endswith(".py")

    @property
    def path(self) -> Path:
        return DOCS / self.source

    @property
    def title(self) -> str:
        """Its title in the nav of ``mkdocs.yml``."""
        return dict((source, title) for title, source in nav())[self.source]


@dataclass(frozen=True, kw_only=True)
class Lesson(Page):
    """A lesson page: ``number`` counts from 0 in the course's order. ``partial`` names
    its practice partial only where it is not ``practice_<slug_>.md``."""

    number: int
    partial: str = ""

    @property
    def slug(self) -> str:
        return PurePosixPath(self.source).stem

    @property
    def practice_dir(self) -> Path:
        return PRACTICE / self.slug

    @property
    def practice_partial(self) -> str:
        """The partial that shows the lesson's steps, from the repository's root."""
        name = self.partial or f"practice_{self.slug.replace('-', '_')}.md"
        return f"docs/partials/{name}"

    @property
    def manifest(self) -> str:
        """Where the build publishes the lesson's exercises (the partial names the lesson)."""
        return f"practice/{self.slug}/manifest.json"

    @property
    def claims_test(self) -> str:
        return f"tests/test_{self.slug.replace('-', '_')}_claims.py"

    def steps(self, practice: Path = PRACTICE) -> tuple[str, ...]:
        """The lesson's practice steps, in order: its folders named like ``01_name``."""
        folder = practice / self.slug
        if not folder.is_dir():
            raise FileNotFoundError(
                f"lesson {self.number} ({self.source}) has no practice folder {folder}"
            )
        return tuple(
            sorted(p.name for p in folder.iterdir() if p.is_dir() and STEP_DIR.match(p.name))
        )


# --- the model ------------------------------------------------------------------------------

#: The lessons, in the course's order: one line each.
LESSONS = (
    Lesson(number=0, source="tokens.md"),
    Lesson(number=1, source="attention.md", partial="practice.md"),
    Lesson(number=2, source="self-attention.md"),
    Lesson(number=3, source="transformer-block.md"),
    Lesson(number=4, source="training.md"),
    Lesson(number=5, source="scale.md"),
)
#: Every page of the site, in the order of the nav.
PAGES: tuple[Page, ...] = (
    Page("index.md"),
    *LESSONS,
    Page("notebooks/sqrt_dk.py"),
    Page("performance.md"),
)

# --------------------------------------------------------------------------------------------


def lesson_of(source: str) -> Lesson:
    """The lesson whose page is ``source`` (a path under ``docs/``).

    Raises
    ------
    KeyError
        If no lesson has that page.
    """
    for lesson in LESSONS:
        if lesson.source == source:
            return lesson
    raise KeyError(f"no lesson has the page {source!r}: the lessons are in site_build/site.py")


class _AnyTagLoader(yaml.SafeLoader):
    """Reads ``mkdocs.yml`` without resolving its own tags (``!ENV``, ``!relative``)."""


_AnyTagLoader.add_multi_constructor("!", lambda loader, suffix, node: None)


def _flatten(items: list[Any]) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for item in items:
        if isinstance(item, str):  # a page without a title of its own
            found.append((item, item))
            continue
        for title, value in item.items():
            if isinstance(value, list):
                found.extend(_flatten(value))  # a section
            else:
                found.append((title, value))
    return found


@functools.cache
def nav(config_file: Path = ROOT / "mkdocs.yml") -> tuple[tuple[str, str], ...]:
    """``(title, source)`` of every page of ``nav:``, sections flattened, in order.

    Examples
    --------
    >>> nav()[:2]
    (('Home', 'index.md'), ('From words to vectors', 'tokens.md'))
    """
    config = yaml.load(config_file.read_text(encoding="utf-8"), Loader=_AnyTagLoader)
    return tuple(_flatten(config["nav"]))
