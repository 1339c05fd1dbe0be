// Render the page's formulas with the self-hosted KaTeX (vendor/katex/).
//
// Lesson pages: pymdownx.arithmatex (generic mode) wraps each formula in an
// element with the class "arithmatex", using \( ... \) inline and \[ ... \] for
// display maths. Only those elements are rendered, so a dollar sign in ordinary
// text is left alone.
// Notebook pages (mkdocs-jupyter): Markdown cells keep $ ... $ and $$ ... $$;
// the dollar delimiters are enabled inside rendered notebook cells only.
//
// Material's instant navigation swaps the page content without a reload and
// emits on document$ each time, so rendering runs on every emission. It is
// idempotent: a rendered element is marked and skipped next time.
//
// throwOnError is true so a broken formula is not drawn in red and forgotten:
// auto-render catches the ParseError and reports it with console.error, which
// the browser tests treat as a failure.
(function () {
  "use strict";

  const BRACKETS = [
    { left: "\\[", right: "\\]", display: true },
    { left: "\\(", right: "\\)", display: false },
  ];
  const DOLLARS = [
    { left: "$$", right: "$$", display: true },
    { left: "$", right: "$", display: false },
  ];
  const NOTEBOOK_CELLS = ".jp-MarkdownCell .jp-RenderedMarkdown, .jp-RenderedHTMLCommon.jp-MarkdownOutput";
  const DONE = "katexRendered";

  function render(element, delimiters) {
    if (element.dataset[DONE] === "true") {
      return;
    }
    window.renderMathInElement(element, {
      delimiters: delimiters,
      throwOnError: true,
      ignoredClasses: ["no-math"],
    });
    element.dataset[DONE] = "true";
  }

  function renderAll() {
    if (typeof window.renderMathInElement !== "function") {
      console.error("katex-init: KaTeX auto-render is not loaded (vendor/katex/contrib/auto-render.min.js)");
      return;
    }
    document.querySelectorAll(".arithmatex").forEach((el) => render(el, BRACKETS));
    document.querySelectorAll(NOTEBOOK_CELLS).forEach((el) => render(el, BRACKETS.concat(DOLLARS)));
  }

  if (typeof window.document$ !== "undefined") {
    window.document$.subscribe(renderAll);
  } else {
    document.addEventListener("DOMContentLoaded", renderAll);
  }
})();
