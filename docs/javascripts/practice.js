// Practice section bootstrap: loaded on every page, so it stays tiny. It does nothing
// unless the page has a [data-practice] section; then it waits until the section comes
// near the viewport (or something in it gets focus) and only then loads the editor, the
// exercises and Python (practice/ui.js). Material's instant navigation re-runs start()
// on each page view; a section is set up once, and leaving the page stops the worker.
(function () {
  "use strict";

  const SCRIPT = document.currentScript ? document.currentScript.src : location.href;
  let ui = null; // Promise of the practice/ui.js module
  let observer = null;

  function load() {
    if (!ui) {
      ui = import(new URL("practice/ui.js", SCRIPT).href);
      ui.catch(() => (ui = null));
    }
    return ui;
  }

  function start() {
    const root = document.querySelector("[data-practice]");
    if (ui) ui.then((m) => m.release(root), () => {});
    if (observer) {
      observer.disconnect();
      observer = null;
    }
    if (!root || root.dataset.practiceState) return;
    root.dataset.practiceState = "waiting";
    const go = () => {
      if (root.dataset.practiceState !== "waiting") return;
      root.dataset.practiceState = "loading";
      root.removeEventListener("focusin", go);
      if (observer) {
        observer.disconnect();
        observer = null;
      }
      load()
        .then((m) => m.mount(root))
        .catch((err) => {
          root.dataset.practiceState = "error";
          const box = root.querySelector("[data-practice-loader]");
          if (box) box.textContent = "The practice section could not load: " + err.message;
        });
    };
    root.addEventListener("focusin", go);
    if ("IntersectionObserver" in window) {
      observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && go(), {
        rootMargin: "800px 0px",
      });
      observer.observe(root);
    } else {
      go();
    }
  }

  if (window.document$) window.document$.subscribe(start);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
