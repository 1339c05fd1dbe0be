"""The site model: the course's pages, lessons and widgets, declared once, as data.

A lesson is one line of :data:`LESSONS`: its address, practice folder, partial, manifest
and claims test follow from its page's name (its *slug*). :data:`PAGES` gives MkDocs its
``nav``; the loader's map and the stylesheet bundle follow from :data:`WIDGETS`.
``tests/test_site.py`` holds the model to the files and to the built site.

Examples
--------
>>> lesson = LESSONS[2]
>>> lesson.number, lesson.slug, lesson.url
(2, 'self-attention', 'self-attention/')
>>> lesson.practice_partial, lesson.claims_test
('docs/partials/practice_self_attention.md', 'tests/test_self_attention_claims.py')
>>> lesson.manifest
'practice/self-attention/manifest.json'
>>> [page.url for page in PAGES if not isinstance(page, Lesson)]
['', 'notebooks/sqrt_dk/', 'performance/']
>>> widget = WIDGETS["training"]
>>> widget.container, widget.pages, widget.stylesheets
('[data-widget="training"]', ('training.md',), ('training.css',))
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PRACTICE = ROOT / "snippets" / "practice"
#: A lesson's practice folder and a step's folder in it are named like these, and a
#: widget's name (what its containers' ``data-widget`` says) like a lesson's folder.
LESSON_DIR = re.compile(r"^[a-z][a-z0-9-]*$")
STEP_DIR = re.compile(r"^\d\d_[a-z0-9_]+$")
WIDGET_NAME = LESSON_DIR


@dataclass(frozen=True)
class Page:
    """A page: its path under ``docs/`` (``.py`` for a notebook), its title in the
    navigation and the navigation's section that holds it (``""``: none)."""

    source: str
    title: str
    section: str = ""

    @property
    def url(self) -> str:
        """Its address under the site's root: ``""`` for the home page, else ending in ``/``."""
        path = PurePosixPath(self.source).with_suffix("")
        parts = path.parts[:-1] if path.name == "index" else path.parts
        return "".join(f"{part}/" for part in parts)

    @property
    def html(self) -> str:  # the built file, under the site's folder
        return f"{self.url}index.html"

    @property
    def is_notebook(self) -> bool:
        return self.source.endswith(".py")

    @property
    def path(self) -> Path:
        return DOCS / self.source


@dataclass(frozen=True, kw_only=True)
class Lesson(Page):
    """A lesson page, numbered from 0; ``partial`` only where not ``practice_<slug_>.md``."""

    number: int
    partial: str = ""

    @property
    def slug(self) -> str:
        return PurePosixPath(self.source).stem

    @property
    def practice_partial(self) -> str:
        name = self.partial or f"practice_{self.slug.replace('-', '_')}.md"
        return f"docs/partials/{name}"

    @property
    def manifest(self) -> str:
        return manifest_path(self.slug)

    @property
    def claims_test(self) -> str:
        return f"tests/test_{self.slug.replace('-', '_')}_claims.py"


@dataclass(frozen=True)
class Widget:
    """A widget: each ``<div data-widget="NAME">`` of its pages, built by its module's
    ``mount(box, data)`` (``module``, under ``docs/``) when it comes near the screen.

    ``data`` maps each key to ``(address, what)``: a JSON file under the site's root
    (``{lesson}``: the container's ``data-lesson``) and its name for errors. ``label`` is
    read out while it loads, ``failure`` shown if it cannot; ``stylesheets`` are under
    ``docs/stylesheets/``; ``first_control`` is where focus lands once built.
    """

    name: str
    module: str
    label: str
    failure: str
    pages: tuple[str, ...]
    first_control: str
    data: dict[str, tuple[str, str]] = field(default_factory=dict)
    stylesheets: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not WIDGET_NAME.match(self.name):
            raise ValueError(f"widget name {self.name!r} is not lower-case letters and -")
        if not self.module.endswith(".js"):
            raise ValueError(f"widget {self.name}: its module {self.module!r} is no .js file")
        if not self.pages:
            raise ValueError(f"widget {self.name} is on no page")

    @property
    def container(self) -> str:  # the CSS selector of its containers
        return f'[data-widget="{self.name}"]'


# --- the model ------------------------------------------------------------------------------

#: The lessons, in the course's order: one line each.
LESSONS = (
    Lesson(number=0, source="tokens.md", title="From words to vectors"),
    Lesson(number=1, source="attention.md", title="Attention", partial="practice.md"),
    Lesson(number=2, source="self-attention.md", title="Self-attention and multi-head attention"),
    Lesson(number=3, source="transformer-block.md", title="The transformer block"),
    Lesson(number=4, source="training.md", title="How attention learns"),
    Lesson(number=5, source="scale.md", title="Generating, and attention at scale"),
)
#: Every page of the site, in the order of the navigation.
PAGES: tuple[Page, ...] = (
    Page("index.md", "Home"),
    *LESSONS,
    Page("notebooks/sqrt_dk.py", "Try the √d_k experiment"),
    Page("performance.md", "Performance", section="About this site"),
)
#: Every widget, one line each, in the order of their stylesheets in the bundle.
WIDGETS: dict[str, Widget] = {
    w.name: w
    for w in (
        Widget("heatmap", "javascripts/lib/heatmap-widget.js", label="Attention heatmap",
               data={"attention": ("assets/data/it_attention.json", "attention data")},
               failure="The attention data could not be loaded.",
               stylesheets=("heatmap.css", "own-sentence.css"), pages=("attention.md",),
               first_control="input[type=radio][value='0']"),
        Widget("heads", "javascripts/lib/heads-widget.js", label="Every head of a layer",
               data={"attention": ("assets/data/it_attention.json", "attention data"),
                     "roles": ("assets/data/head_roles.json", "head roles")},
               failure="The heads of the model could not be loaded.",
               stylesheets=("heads.css",), pages=("self-attention.md",),
               first_control="input[type=radio][value='0']"),
        Widget("explorer", "javascripts/lib/explorer-widget.js", label="Query explorer",
               data={"inputs": ("assets/data/explorer.json", "explorer data")},
               failure="The query explorer could not be loaded.",
               stylesheets=("explorer.css",), pages=("attention.md",),
               first_control="select[id$='-pair']"),
        Widget("practice", "javascripts/practice/ui.js", label="Practice exercises",
               data={"manifest": ("practice/{lesson}/manifest.json", "list of exercises")},
               failure="The exercises could not be loaded.",
               stylesheets=("practice.css",), pages=tuple(x.source for x in LESSONS),
               first_control="a[href*='pyodide']"),
        Widget("training", "javascripts/lib/training-widget.js",
               label="Training, checkpoint by checkpoint",
               data={"run": ("assets/data/training.json", "training run")},
               failure="The training run could not be loaded.",
               stylesheets=("training.css",), pages=("training.md",),
               first_control="input[type=range]"),
        Widget("generate", "javascripts/lib/generate-widget.js",
               label="Generating, letter by letter",
               data={"model": ("assets/data/generate.json", "model weights")},
               failure="The model's weights could not be loaded.",
               stylesheets=("generate.css",), pages=("scale.md",),
               first_control="input[type=text]"),
    )
}  # fmt: skip


def manifest_path(slug: str) -> str:
    """Where a lesson's manifest goes in the site (the page's ``data-lesson`` names it)."""
    if not LESSON_DIR.match(slug):
        raise ValueError(f"not a lesson name: {slug!r} (lower case, digits and hyphens)")
    return f"practice/{slug}/manifest.json"


def nav_config(pages: tuple[Page, ...] = PAGES) -> list[dict[str, Any]]:
    """MkDocs' ``nav`` for ``pages``: ``{title: source}``, in ``{section: [...]}`` if any.

    Examples
    --------
    >>> nav_config()[:2]
    [{'Home': 'index.md'}, {'From words to vectors': 'tokens.md'}]
    >>> nav_config()[-1]
    {'About this site': [{'Performance': 'performance.md'}]}
    """
    nav: list[dict[str, Any]] = []
    for section, group in itertools.groupby(pages, key=lambda page: page.section):
        items = [{page.title: page.source} for page in group]
        nav += [{section: items}] if section else items
    return nav


#: Where the build publishes the loader's map, next to ``javascripts/widgets.js``.
WIDGET_MAP = "javascripts/widget-map.js"


def widget_map_js(widgets: dict[str, Widget] = WIDGETS) -> str:
    """The module ``docs/javascripts/widgets.js`` imports: ``WIDGETS``, name -> entry.

    Examples
    --------
    >>> text = widget_map_js()
    >>> text.splitlines()[-1][:40]
    'export const WIDGETS = {"heatmap": {"lab'
    """
    entries = {
        name: {
            "label": w.label,
            "module": w.module,
            "data": {key: list(spec) for key, spec in w.data.items()},
            "failure": w.failure,
        }
        for name, w in widgets.items()
    }
    return (
        "// Generated by the build from WIDGETS of site_build/site.py: edit the model there.\n"
        f"export const WIDGETS = {json.dumps(entries, ensure_ascii=False)};\n"
    )
