"""Build-time KaTeX (site_build/katex_render.py): finding formulas, typesetting, caching.

The typesetting tests run the real npm KaTeX through node; the markup tests need neither.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from site_build.katex_render import Formula, KatexError, PageMath, collect, substitute
from site_build.site import PAGES, Lesson

ROOT = Path(__file__).resolve().parents[1]

needs_katex = pytest.mark.skipif(
    shutil.which("node") is None or not (ROOT / "node_modules" / "katex").is_dir(),
    reason="node or npm katex missing (run `make install`)",
)


# ---- finding and replacing markup (no node) ----

INLINE = '<span class="arithmatex">\\(x_i\\)</span>'
BLOCK = '<div class="arithmatex">\\[\n\\frac{a}{b}\n\\]</div>'


def test_arithmatex_inline_and_block_are_found_in_order_once_each() -> None:
    page = f"<p>{INLINE} and {INLINE}</p>\n{BLOCK}"
    assert collect(page) == [Formula("x_i", False), Formula("\\frac{a}{b}", True)]


def test_entities_written_by_arithmatex_are_decoded_into_tex() -> None:
    # arithmatex writes & < > as entities; KaTeX must get the characters.
    page = (
        '<span class="arithmatex">\\(a &lt; b &amp;&amp; c &gt; d\\)</span>'
        '<div class="arithmatex">\\[\\begin{matrix} 1 &amp; 2 \\end{matrix}\\]</div>'
    )
    assert collect(page) == [
        Formula("a < b && c > d", False),
        Formula("\\begin{matrix} 1 & 2 \\end{matrix}", True),
    ]


def test_substitute_replaces_exactly_the_markup_and_keeps_the_wrapper() -> None:
    page = (
        f"<h1>Title &amp; $5</h1>\n<p>Let {INLINE}, then:</p>\n{BLOCK}\n"
        '<p class="arithmatex-note">\\(no\\)</p>'
    )
    rendered = {Formula("x_i", False): "<X/>", Formula("\\frac{a}{b}", True): "<F/>"}
    assert substitute(page, rendered) == (
        '<h1>Title &amp; $5</h1>\n<p>Let <span class="arithmatex"><X/></span>, then:</p>\n'
        '<div class="arithmatex"><F/></div>\n<p class="arithmatex-note">\\(no\\)</p>'
    )


def test_a_page_without_formulas_is_returned_unchanged() -> None:
    page = "<p>Costs $5 and $2; \\(not arithmatex\\).</p>"
    assert collect(page) == []
    assert substitute(page, {}) == page


def test_a_formula_missing_from_the_rendered_map_is_an_error_naming_it() -> None:
    with pytest.raises(KatexError, match=r"formula not rendered: `x_i`"):
        substitute(INLINE, {})


def test_arithmatex_markup_in_an_unknown_form_is_an_error() -> None:
    with pytest.raises(KatexError, match="1 arithmatex element"):
        substitute('<span class="arithmatex">$x$</span>', {})


CELL = (
    '<div class="jp-RenderedHTMLCommon jp-RenderedMarkdown jp-MarkdownOutput"'
    ' data-mime-type="text/markdown">\n'
)
NOTEBOOK = (
    CELL + "<p>Score $q \\cdot k$ has variance $d_k$; a book costs $5 and a card $2.</p>\n"
    "<div><p>$$\\sum_{i=1}^{n} x_i &lt; 1$$</p></div>\n"
    "<p>Code: <code>$HOME</code> and <code>x = $y$</code>.</p>\n"
    "</div>\n"
    "<pre>$outside$ a cell</pre><p>$also outside$</p>"
)


def test_notebook_cells_dollar_math_is_found_but_not_code_prices_or_other_markup() -> None:
    assert collect(NOTEBOOK) == [
        Formula("q \\cdot k", False),
        Formula("d_k", False),
        Formula("\\sum_{i=1}^{n} x_i < 1", True),
    ]


def test_notebook_cells_dollar_math_is_replaced_in_place() -> None:
    rendered = {
        Formula("q \\cdot k", False): "[qk]",
        Formula("d_k", False): "[dk]",
        Formula("\\sum_{i=1}^{n} x_i < 1", True): "[sum]",
    }
    assert substitute(NOTEBOOK, rendered) == (
        CELL + "<p>Score [qk] has variance [dk]; a book costs $5 and a card $2.</p>\n"
        "<div><p>[sum]</p></div>\n"
        "<p>Code: <code>$HOME</code> and <code>x = $y$</code>.</p>\n"
        "</div>\n"
        "<pre>$outside$ a cell</pre><p>$also outside$</p>"
    )


def test_an_unclosed_notebook_cell_is_an_error() -> None:
    with pytest.raises(KatexError, match="no closing </div>"):
        collect('<div class="jp-RenderedMarkdown"><p>$x$</p>')


# ---- typesetting with the real KaTeX ----


def started(root: Path, cache_dir: Path, node: str = "node") -> PageMath:
    math = PageMath(root, cache_dir, node)
    math.start()
    return math


@needs_katex
def test_a_known_formula_becomes_katex_html_with_mathml(tmp_path: Path) -> None:
    renderer = started(ROOT, tmp_path)
    inline, display = Formula("\\sqrt{d_k}", False), Formula("\\sqrt{d_k}", True)
    html = renderer.render([inline, display])
    assert html[inline].startswith('<span class="katex">')
    assert "<math" in html[inline]
    assert '<annotation encoding="application/x-tex">\\sqrt{d_k}</annotation>' in html[inline]
    assert "katex-display" not in html[inline]
    assert html[display].startswith('<span class="katex-display">')
    assert renderer.node_calls == 1  # both formulas in one node run


@needs_katex
def test_tex_characters_reach_katex_decoded_and_come_back_escaped(tmp_path: Path) -> None:
    formula = collect('<span class="arithmatex">\\(a &lt; b\\)</span>')[0]
    html = started(ROOT, tmp_path).render([formula])[formula]
    assert "<mo>&lt;</mo>" in html  # KaTeX parsed a real "<" (a relation), and escaped it
    assert "&amp;lt;" not in html


@needs_katex
def test_bad_formulas_raise_one_error_naming_each_formula_its_page_and_reason(
    tmp_path: Path,
) -> None:
    bad = Formula("a + \\notacommand", False)
    worse = Formula("\\frac{1}{", True)
    good = Formula("x", False)
    math = started(ROOT, tmp_path)
    math.note(f'<span class="arithmatex">\\({bad.tex}\\)</span>', "attention.md")
    with pytest.raises(KatexError) as caught:
        math.render([good, bad, worse])
    message = str(caught.value)
    assert "inline formula `a + \\notacommand` on attention.md" in message
    assert "Undefined control sequence: \\notacommand" in message
    assert "display formula `\\frac{1}{`" in message
    assert "`x`" not in message
    assert list(tmp_path.iterdir()) == [], "nothing is cached from a failed run"


@needs_katex
def test_the_cache_spares_a_second_node_run(tmp_path: Path) -> None:
    formulas = [Formula("QK^\\top", False), Formula("\\alpha_j", True)]
    first = started(ROOT, tmp_path)
    cold = first.render(formulas)
    assert first.node_calls == 1
    assert len(list(tmp_path.glob("*.html"))) == 2

    warm = started(ROOT, tmp_path)  # a new build: empty memory, same cache folder
    assert warm.render(formulas) == cold
    assert warm.node_calls == 0

    # One new formula: one more node run, for that formula only.
    warm.render([*formulas, Formula("n_q", False)])
    assert warm.node_calls == 1
    assert len(list(tmp_path.glob("*.html"))) == 3


def test_a_missing_node_is_a_clear_error(tmp_path: Path) -> None:
    if not (ROOT / "node_modules" / "katex").is_dir():
        pytest.skip("npm katex missing (run `make install`)")
    renderer = started(ROOT, tmp_path, node="no-such-node-binary")
    with pytest.raises(KatexError, match="'no-such-node-binary' not found"):
        renderer.render([Formula("x", False)])


def test_missing_katex_package_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(KatexError, match="KaTeX is not installed"):
        PageMath(tmp_path, tmp_path / "cache").start()


# ---- the hook in a real build ----


def test_a_bad_formula_fails_the_build_naming_page_and_formula(tmp_path: Path) -> None:
    if shutil.which("node") is None or not (ROOT / "node_modules" / "katex").is_dir():
        pytest.skip("node or npm katex missing (run `make install`)")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Fine\n\nA formula: $x^2$.\n", encoding="utf-8")
    (docs / "broken.md").write_text("# Broken\n\nHere: $a + \\notacommand$.\n", encoding="utf-8")
    # PageMath wired as hooks/build.py wires it (that hook runs the whole site's build).
    (tmp_path / "math_hook.py").write_text(
        "from pathlib import Path\n"
        "from mkdocs.exceptions import PluginError\n"
        "from site_build.katex_render import KatexError, PageMath\n"
        f"math = PageMath(Path({str(ROOT)!r}))\n"
        "def on_pre_build(config):\n    math.start()\n"
        "def on_page_content(html, page, config, files):\n"
        "    try:\n        math.note(html, page.file.src_uri)\n"
        "    except KatexError as error:\n        raise PluginError(str(error)) from None\n"
        "    return html\n"
        "def on_env(env, config, files):\n"
        "    try:\n        math.typeset()\n"
        "    except KatexError as error:\n        raise PluginError(str(error)) from None\n"
        "    return env\n",
        encoding="utf-8",
    )
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\n"
        "hooks: [math_hook.py]\n"
        "markdown_extensions:\n  - pymdownx.arithmatex:\n      generic: true\n",
        encoding="utf-8",
    )
    proc = subprocess.run(
        [str(Path(sys.executable).with_name("mkdocs")), "build", "--strict", "--quiet"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        check=False,
    )
    assert proc.returncode != 0
    assert "broken.md" in proc.stderr
    assert "formula `a + \\notacommand` on broken.md" in proc.stderr
    assert "Undefined control sequence" in proc.stderr
    assert "index.md" not in proc.stderr


# ---- the built site ----

SITE = ROOT / "site"


@pytest.mark.skipif(not (SITE / "attention" / "index.html").is_file(), reason="site not built")
def test_the_built_pages_carry_typeset_math_and_no_katex_script() -> None:
    for page in [p.html for p in PAGES if isinstance(p, Lesson) or p.is_notebook]:
        html = (SITE / page).read_text(encoding="utf-8")
        assert html.count('<span class="katex">') >= 10, page
        assert 'class="arithmatex">\\(' not in html, page
        assert 'class="arithmatex">\\[' not in html, page
        assert "katex.min.js" not in html and "auto-render" not in html, page
