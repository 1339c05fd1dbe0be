r"""Typeset the built pages' formulas with KaTeX, so the browser runs no KaTeX code.

:func:`collect` finds arithmatex's ``\(...\)`` and ``\[...\]`` and the ``$...$`` and
``$$...$$`` of notebook Markdown cells (not in ``<code>``/``<pre>``; as in Pandoc,
"costs $5 and $2" holds none); :class:`PageMath` typesets them in one ``node`` run, cached per
formula; :func:`substitute` puts the HTML in. :func:`subset_fonts` cuts KaTeX's woff2
fonts to the characters shown (a browser that reads woff2 never asks for woff or ttf).
"""

from __future__ import annotations

import html as html_lib
import io
import json
import re
import shutil
import subprocess
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path

from site_build.cache import ContentCache, content_key
from site_build.vendor import KATEX_DEST

#: KaTeX options of every formula: a bad formula is an error, not red text; MathML for
#: screen readers beside the HTML. ``displayMode`` is set per formula.
KATEX_OPTIONS: dict[str, object] = {"throwOnError": True, "output": "htmlAndMathml"}

SCRIPT = Path(__file__).with_name("katex_render.mjs")

#: The fonts a page preloads when its first screen (up to the first ``<h2``) shows a
#: formula, so that its text is not laid out in a fallback font first and then shifted.
FIRST_SCREEN_FONTS = ("fonts/KaTeX_Main-Regular.woff2", "fonts/KaTeX_Math-Italic.woff2")
#: The characters every font keeps: KaTeX's stylesheet writes an equation number's
#: parentheses itself; and the space.
ALWAYS = frozenset("() 0123456789")

# arithmatex's generic output (the TeX holds no tag: < is written &lt;).
_ARITHMATEX = re.compile(
    r'<span class="arithmatex">\\\((?P<inline>.*?)\\\)</span>'
    r'|<div class="arithmatex">\\\[(?P<block>.*?)\\\]</div>',
    re.DOTALL,
)
_ARITHMATEX_OPEN = re.compile(r'<(?:span|div) class="arithmatex">')
_NOTEBOOK_CELL = re.compile(r'<div class="[^"]*\bjp-RenderedMarkdown\b[^"]*"[^>]*>')
_TAG = re.compile(r"<[^>]*>")
_VISIBLE = re.compile(r'<span class="katex-html"[^>]*>')
_VERBATIM = re.compile(r"<(/?)(code|pre)\b", re.IGNORECASE)
# $$...$$ (display) or $...$ (inline: no space inside either dollar, no digit after it).
_DOLLARS = re.compile(
    r"\$\$(?P<block>.+?)\$\$|\$(?P<inline>[^\s$](?:[^$]*?[^\s$])?)\$(?!\d)",
    re.DOTALL,
)


@dataclass(frozen=True, order=True)
class Formula:
    """One formula: its TeX source (entities decoded) and whether it is display maths."""

    tex: str
    display: bool


class KatexError(ValueError):
    """KaTeX rejected formulas, or could not run; the message names each formula."""


def element_insides(page: str, opening: re.Pattern[str], tag: str) -> list[tuple[int, int]]:
    """(start, end) of the inside of every element whose start tag matches ``opening``,
    up to its own ``</tag>``; :class:`KatexError` for an element that is never closed.

    Examples
    --------
    >>> page = '<p><span class="k"><span>a</span>b</span>c</p>'
    >>> [page[s:e] for s, e in element_insides(page, re.compile('<span class="k">'), "span")]
    ['<span>a</span>b']
    """
    tags = re.compile(rf"<{tag}\b[^>]*>|</{tag}\s*>")
    spans = []
    for start in opening.finditer(page):
        depth = 1
        for found in tags.finditer(page, start.end()):
            depth += -1 if found.group().startswith("</") else 1
            if depth == 0:
                spans.append((start.end(), found.start()))
                break
        else:
            raise KatexError(
                f"{start.group()} at character {start.start()} has no closing </{tag}>"
            )
    return spans


def _formula(match: re.Match[str]) -> Formula:  # of _ARITHMATEX or _DOLLARS
    inline = match.group("inline")
    tex = inline if inline is not None else match.group("block")
    return Formula(html_lib.unescape(tex).strip(), display=inline is None)


def _edit_notebook_cells(page: str, edit: Callable[[str], str]) -> str:
    """Apply ``edit`` to each text run of the notebook cells outside <code> and <pre>."""
    out, pos = [], 0
    for start, end in element_insides(page, _NOTEBOOK_CELL, "div"):
        out.append(page[pos:start])
        verbatim = 0
        for tag in _TAG.finditer(page, start, end):
            text = page[start : tag.start()]
            out += [text if verbatim else edit(text), tag.group()]
            code = _VERBATIM.match(tag.group())
            if code:
                verbatim = max(0, verbatim + (-1 if code.group(1) else 1))
            start = tag.end()
        out.append(page[start:end] if verbatim else edit(page[start:end]))
        pos = end
    out.append(page[pos:])
    return "".join(out)


def collect(page: str) -> list[Formula]:
    r"""Every distinct formula of an HTML page, in order of first appearance.

    Examples
    --------
    >>> collect(r'<div class="arithmatex">\[ x^2 \]</div> <span class="arithmatex">\(y\)</span>')
    [Formula(tex='x^2', display=True), Formula(tex='y', display=False)]
    >>> cell = '<div class="jp-RenderedMarkdown"><p>$$a$$ costs $5, <code>$b$</code> $c$</p></div>'
    >>> collect(cell)
    [Formula(tex='a', display=True), Formula(tex='c', display=False)]
    """
    found = [_formula(m) for m in _ARITHMATEX.finditer(page)]

    def note(text: str) -> str:
        found.extend(_formula(m) for m in _DOLLARS.finditer(text))
        return text

    _edit_notebook_cells(page, note)
    return list(dict.fromkeys(found))


def substitute(page: str, rendered: Mapping[Formula, str]) -> str:
    r"""Replace every formula's markup in ``page`` with its HTML from ``rendered`` (inside
    arithmatex's wrapper); :class:`KatexError` for a formula missing from ``rendered`` or
    an arithmatex element in another form (it would reach the reader as raw TeX).

    Examples
    --------
    >>> html = '<p>Scores <span class="arithmatex">\\(a &lt; b\\)</span>.</p>'
    >>> substitute(html, {Formula("a < b", False): "<b>a&lt;b</b>"})
    '<p>Scores <span class="arithmatex"><b>a&lt;b</b></span>.</p>'
    """

    def html_of(match: re.Match[str]) -> str:
        formula = _formula(match)
        if formula not in rendered:
            raise KatexError(f"formula not rendered: `{formula.tex}`")
        return rendered[formula]

    def arithmatex(match: re.Match[str]) -> str:
        tag = "span" if match.group("inline") is not None else "div"
        return f'<{tag} class="arithmatex">{html_of(match)}</{tag}>'

    expected = len(_ARITHMATEX_OPEN.findall(page))
    page, replaced = _ARITHMATEX.subn(arithmatex, page)
    if replaced != expected:
        raise KatexError(
            f"{expected - replaced} arithmatex element(s) not in the form "
            '<span class="arithmatex">\\(...\\)</span> or <div class="arithmatex">\\[...\\]</div>'
        )
    return _edit_notebook_cells(page, lambda text: _DOLLARS.sub(html_of, text))


def preload_fonts(page: str, url: Callable[[str], str]) -> str:
    """``page`` preloading :data:`FIRST_SCREEN_FONTS` (at ``url(font)``) if its first
    screen shows a formula.

    Examples
    --------
    >>> page = '<head></head><article><p><span class="katex">x</span></p><h2>S</h2>'
    >>> head = preload_fonts(page, lambda font: font[6:]).split("</head>")[0]
    >>> print(head.replace("><", ">\\n<"))
    <head>
    <link rel="preload" href="KaTeX_Main-Regular.woff2" as="font" type="font/woff2" crossorigin>
    <link rel="preload" href="KaTeX_Math-Italic.woff2" as="font" type="font/woff2" crossorigin>
    >>> late = '<head></head><article><p>a</p><h2>S</h2><span class="katex">x</span>'
    >>> preload_fonts(late, str) == late
    True
    """
    start = page.find("<article")
    cut = page.find("<h2", start) if start >= 0 else -1
    if 'class="katex' not in (page if cut < 0 else page[:cut]):
        return page
    tag = '<link rel="preload" href="{}" as="font" type="font/woff2" crossorigin>'
    links = "".join(tag.format(html_lib.escape(url(font))) for font in FIRST_SCREEN_FONTS)
    return page.replace("</head>", links + "</head>", 1)


class PageMath:
    """A build's formulas, typeset by KaTeX (``root/node_modules/katex``) through ``node``:
    :meth:`start`, :meth:`note` each page's, :meth:`typeset` them in one node run, :meth:`put`
    them in, then :meth:`subset_fonts`. One cache entry per formula, keyed by KaTeX's version
    and :data:`KATEX_OPTIONS` (in ``cache_dir``); ``node_calls`` counts the runs."""

    def __init__(self, root: Path, cache_dir: Path | None = None, node: str = "node") -> None:
        self.root = root
        self._cache = ContentCache(cache_dir or root / ".cache" / "katex")
        self.node = node

    def start(self) -> None:
        """Forget the last build's formulas; :class:`KatexError` if KaTeX is not installed."""
        package = self.root / "node_modules" / "katex" / "package.json"
        if not package.is_file():
            raise KatexError(f"KaTeX is not installed ({package} is missing): run `make install`")
        self.katex_version = str(json.loads(package.read_text(encoding="utf-8"))["version"])
        self.node_calls = 0
        self._memory: dict[Formula, str] = {}
        self.pages: dict[Formula, list[str]] = {}  # formula -> the pages noted with it

    def note(self, html: str, page: str) -> None:
        try:
            formulas = collect(html)
        except KatexError as error:
            raise KatexError(f"{page}: {error}") from None
        for formula in formulas:
            self.pages.setdefault(formula, []).append(page)

    def typeset(self) -> None:
        self.render(sorted(self.pages))

    def _entry(self, formula: Formula) -> tuple[str, str]:
        name = "formula-" + content_key(meta=[formula.tex, formula.display])[:12]
        meta = [formula.tex, formula.display, self.katex_version, KATEX_OPTIONS]
        return name, content_key(meta=meta)

    def render(self, formulas: Iterable[Formula]) -> dict[Formula, str]:
        """HTML of each formula, from memory, the cache, or one node run for the rest;
        :class:`KatexError` naming every formula KaTeX rejected, its noted pages and
        KaTeX's reason, or why node could not run."""
        wanted = list(dict.fromkeys(formulas))
        for formula in set(wanted) - self._memory.keys():
            found = self._cache.load(*self._entry(formula), (".html",))
            if found is not None:
                self._memory[formula] = found[".html"].decode("utf-8")
        missing = [formula for formula in wanted if formula not in self._memory]
        results = dict(zip(missing, self._run_node(missing) if missing else [], strict=True))
        errors = []
        for f, r in results.items():
            if "error" in r:
                on = ", ".join(self.pages.get(f, ()))
                mode = "display" if f.display else "inline"
                errors.append(f"{mode} formula `{f.tex}`{' on ' + on if on else ''}: {r['error']}")
        if errors:
            raise KatexError("KaTeX rejected " + "; ".join(errors))
        for formula, result in results.items():
            self._memory[formula] = result["html"]
            self._cache.store(*self._entry(formula), {".html": result["html"].encode()})
        return {formula: self._memory[formula] for formula in wanted}

    def _run_node(self, formulas: list[Formula]) -> list[dict[str, str]]:
        node = shutil.which(self.node)
        if node is None:
            raise KatexError(f"{self.node!r} not found: node is needed to typeset formulas")
        request = {"options": KATEX_OPTIONS, "formulas": [asdict(f) for f in formulas]}
        self.node_calls += 1
        proc = subprocess.run(
            [node, str(SCRIPT)],
            input=json.dumps(request),
            cwd=self.root,
            capture_output=True,
            encoding="utf-8",
            check=False,
        )
        if proc.returncode != 0:
            raise KatexError(f"{SCRIPT.name} failed (exit {proc.returncode}):\n{proc.stderr}")
        results: list[dict[str, str]] = json.loads(proc.stdout)
        if len(results) != len(formulas):
            raise KatexError(f"{SCRIPT.name} returned {len(results)} results for {len(formulas)}")
        return results

    def put(self, output: str, page: str, relative: Callable[[str], str]) -> str:
        """``output`` typeset; ``relative(path)`` is a site path's URL from the page."""
        try:
            output = substitute(output, self.render(collect(output)))
        except KatexError as error:
            raise KatexError(f"{page}: {error}") from None
        return preload_fonts(output, lambda font: relative(f"{KATEX_DEST}/{font}"))

    def subset_fonts(self, site: Path) -> None:
        fonts = self.root / "node_modules" / "katex" / "dist" / "fonts"
        pages = [p.read_text(encoding="utf-8") for p in sorted(site.rglob("*.html"))]
        cache = ContentCache(self.root / ".cache" / "katex-fonts")
        for name, blob in subset_fonts(pages, fonts.glob("*.woff2"), cache).items():
            dest = site / KATEX_DEST / "fonts" / name
            if not dest.is_file() or dest.read_bytes() != blob:
                dest.write_bytes(blob)


def katex_characters(page: str) -> set[str]:
    """Every character drawn in the page's typeset formulas (their visible HTML).

    Examples
    --------
    >>> page = ('<p>x</p><span class="katex"><span class="katex-mathml"><math>'
    ...         '<mi>q</mi></math></span><span class="katex-html" aria-hidden="true">'
    ...         '<span class="base"><span class="mord mathnormal">k</span>'
    ...         '<span class="mrel">&#x2208;</span></span></span></span> after')
    >>> sorted(katex_characters(page))
    ['k', '∈']
    """
    found: set[str] = set()
    for start, end in element_insides(page, _VISIBLE, "span"):
        found.update(html_lib.unescape(_TAG.sub("", page[start:end])))
    found.discard("\n")
    return found


def subset_woff2(font: bytes, characters: Iterable[str]) -> bytes:
    """The woff2 ``font`` with only the glyphs of ``characters`` (others are ignored);
    layout features and names kept, no timestamp rewritten (same input, same bytes)."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    options = subset.Options(layout_features=["*"], name_IDs=["*"], notdef_outline=True)
    ttf = TTFont(io.BytesIO(font), recalcTimestamp=False)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(ord(c) for c in set(characters)))
    subsetter.subset(ttf)
    out = io.BytesIO()
    ttf.flavor = "woff2"
    ttf.save(out)
    return out.getvalue()


def subset_fonts(
    pages: Iterable[str], fonts: Iterable[Path], cache: ContentCache
) -> dict[str, bytes]:
    """Each woff2 file of ``fonts``, by file name, cut down to the pages' characters;
    cached by the characters, the fonts' bytes and fontTools' version."""
    import fontTools

    fonts = sorted(fonts)
    found = set(ALWAYS).union(*(katex_characters(page) for page in pages))
    characters = "".join(sorted(found))
    key = content_key(
        meta={"fontTools": fontTools.version, "flavor": "woff2"},
        files=fonts,
        data=[characters.encode("utf-8")],
    )
    cut = cache.get(
        "katex-fonts",
        key,
        ["-" + f.name for f in fonts],
        lambda: {"-" + f.name: subset_woff2(f.read_bytes(), characters) for f in fonts},
    )
    return {suffix[1:]: blob for suffix, blob in cut.items()}
