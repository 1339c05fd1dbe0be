// Accessibility fixes for markup that the theme's own JavaScript creates.
//
// 1. Material wraps the copy button of every code block in an unnamed <nav>; with more
// than one code block on a page, axe-core reports `landmark-unique` (several
// navigation landmarks that a screen reader cannot tell apart). Each gets a name that
// says which code block it belongs to. The theme adds these navs after the page is
// swapped in, so new ones are named as they appear.
// 2. Material wraps every table in a scrolling box; when a table is wider than the
// screen, keyboard users must be able to focus the box to scroll it (axe-core:
// `scrollable-region-focusable`). Such boxes become focusable, named regions.
(() => {
  "use strict";

  function nameCodeNavs(root) {
    root.querySelectorAll("nav.md-code__nav:not([aria-label])").forEach((nav) => {
      const all = [...document.querySelectorAll("nav.md-code__nav")];
      nav.setAttribute("aria-label", `Code block ${all.indexOf(nav) + 1} actions`);
    });
  }

  function focusableScrollBoxes(root) {
    const boxes = [...document.querySelectorAll(".md-typeset__scrollwrap")];
    root.querySelectorAll(".md-typeset__scrollwrap:not([tabindex])").forEach((box) => {
      if (box.scrollWidth > box.clientWidth + 1) {
        box.setAttribute("tabindex", "0");
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", `Table ${boxes.indexOf(box) + 1}, scrolls sideways`);
      }
    });
  }

  function fix() {
    nameCodeNavs(document);
    focusableScrollBoxes(document);
  }

  new MutationObserver(fix).observe(document.body, { childList: true, subtree: true });
  window.addEventListener("resize", fix);
  fix();
})();
