// Accessibility fixes for markup that the theme's own JavaScript creates.
//
// 1. Material wraps the copy button of every code block in an unnamed <nav>; with more
//    than one code block on a page, axe-core reports `landmark-unique` (navigation
//    landmarks a screen reader cannot tell apart). Each gets a name saying which code
//    block it belongs to.
// 2. Material wraps every table in a scrolling box; when a table is wider than the
//    screen, keyboard users must be able to focus the box to scroll it (axe-core:
//    `scrollable-region-focusable`). Such boxes become focusable, named regions.
//
// The theme adds this markup after a page is swapped in (instant navigation), so the
// fixes run again when the DOM changes or a block of the page renders (settle.js), at
// most once per animation frame, and each box is measured once (again after a resize).
(() => {
  "use strict";

  const CHECKED = "data-scroll-checked";

  function nameCodeNavs() {
    const navs = [...document.querySelectorAll("nav.md-code__nav")];
    navs.forEach((nav, i) => {
      if (!nav.hasAttribute("aria-label")) {
        nav.setAttribute("aria-label", `Code block ${i + 1} actions`);
      }
    });
  }

  // A box that settle.js has not let render yet is skipped by the browser
  // (content-visibility: auto) and has no width to measure: it is checked once it has
  // rendered (it gets data-settled, which the observer below watches for).
  function measurable(box) {
    const block = box.closest(".md-content__inner > *");
    return (
      !block ||
      block.hasAttribute("data-settled") ||
      getComputedStyle(block).contentVisibility !== "auto" // never skipped (first screen)
    );
  }

  function focusableScrollBoxes() {
    const boxes = [...document.querySelectorAll(".md-typeset__scrollwrap")];
    const fresh = boxes.filter((box) => !box.hasAttribute(CHECKED) && measurable(box));
    // Read every width first, then write: one layout, however many boxes.
    const wide = fresh.map((box) => box.scrollWidth > box.clientWidth + 1);
    fresh.forEach((box, i) => {
      box.setAttribute(CHECKED, "");
      if (wide[i] && !box.hasAttribute("tabindex")) {
        box.setAttribute("tabindex", "0");
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", `Table ${boxes.indexOf(box) + 1}, scrolls sideways`);
      }
    });
  }

  let pending = false;
  function schedule() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      nameCodeNavs();
      focusableScrollBoxes();
    });
  }

  // Only changes that can bring a new code block or table box call for a pass: a block
  // of the page that renders (settle.js) is worth one only if it holds a table box.
  const BOX = ".md-typeset__scrollwrap";
  const relevant = (m) =>
    m.type === "childList"
      ? m.addedNodes.length > 0
      : m.target instanceof Element && (m.target.matches(BOX) || m.target.querySelector(BOX));
  new MutationObserver((mutations) => {
    if (mutations.some(relevant)) schedule();
  }).observe(document.body, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ["data-settled"],
  });
  window.addEventListener("resize", () => {
    document.querySelectorAll(`[${CHECKED}]`).forEach((box) => box.removeAttribute(CHECKED));
    schedule();
  });
  schedule();
})();

// 3. Where the navigation is a drawer (narrow screens, Material's own breakpoint), the
//    closed drawer sits off screen, yet its links stayed tab stops: focus went out of
//    sight for dozens of presses. While closed it is `inert`; open, it takes focus again.
//    The drawer's menu button is a <label> for Material's hidden checkbox, which no key
//    reaches: it becomes a button for Tab, Enter and Space, saying whether it is open,
//    that moves focus into the drawer it opens; Escape closes the open drawer and gives
//    focus back to the button (issue 34).
(() => {
  "use strict";

  const toggle = document.getElementById("__drawer");
  const sidebar = document.querySelector(".md-sidebar--primary");
  const button = document.querySelector("label.md-header__button[for='__drawer']");
  if (!toggle || !sidebar) return;
  // The width under which Material's stylesheet makes the primary sidebar a drawer.
  const narrow = matchMedia("(max-width: 76.234375em)");

  function sync() {
    const open = toggle.checked;
    sidebar.inert = narrow.matches && !open;
    if (button) button.setAttribute("aria-expanded", String(open));
  }

  if (button) {
    button.setAttribute("tabindex", "0");
    button.setAttribute("role", "button");
    button.setAttribute("aria-label", "Navigation");
    button.addEventListener("keydown", (e) => {
      if (e.key !== "Enter" && e.key !== " ") return;
      e.preventDefault();
      e.stopPropagation(); // Material's own key handler also clicks a focused label on Enter
      toggle.click();
      // Opened from the keyboard: focus goes to the drawer's first link, where Tab goes on.
      if (toggle.checked) sidebar.querySelector("a[href]")?.focus();
    });
  }
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && toggle.checked && narrow.matches) {
      toggle.click();
      button?.focus();
    }
  });
  toggle.addEventListener("change", sync);
  narrow.addEventListener("change", sync);
  sync();
})();
