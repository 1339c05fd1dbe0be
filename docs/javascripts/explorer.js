// The query explorer: move the query of the worked example and watch every step of
// attention recompute; then draw random q and keys for a chosen d_k and compare the
// softmax with and without the 1/√d_k scale.
//
// Inputs come from the build (assets/data/explorer.json, computed by attention_ref);
// the maths lives in lib/attention-math.js (pure, unit-tested with node --test) and the
// widget itself in lib/explorer-widget.js: this file, loaded on every page, only decides
// when to fetch them.
//
// Nothing is fetched or built at page load: the explorer sits far down the lesson, so
// start() only watches each container and builds it when it comes within about two
// screens of the viewport, or when something in it gets focus (data-explorer-state goes
// waiting, loading, ready). Material's instant navigation swaps the page without a
// reload and emits on document$ each time: each container is built once and every
// listener lives on elements inside it, so nothing is left behind or duplicated when
// the reader navigates away and back.
(function () {
  "use strict";

  const SCRIPT = document.currentScript ? document.currentScript.src : location.href;
  let loaded = null; // Promise of [maths module, widget module, data], shared by every page view

  function load() {
    if (!loaded) {
      const data = fetch(new URL("../assets/data/explorer.json", SCRIPT)).then((r) => {
        if (!r.ok) throw new Error(`explorer: could not load its data (HTTP ${r.status})`);
        return r.json();
      });
      loaded = Promise.all([
        import(new URL("lib/attention-math.js", SCRIPT).href),
        import(new URL("lib/explorer-widget.js", SCRIPT).href),
        data,
      ]);
      loaded.catch(() => (loaded = null)); // let a later page view retry
    }
    return loaded;
  }

  let observer = null; // watches the containers of the current page only

  function wake(root) {
    if (root.dataset.explorerState !== "waiting") return;
    root.dataset.explorerState = "loading";
    if (observer) observer.unobserve(root);
    load()
      .then(([m, widget, data]) => {
        widget.build(root, m, data);
        // The placeholder stops being a tab stop; a reader who tabbed onto it lands
        // on the explorer's first control.
        const hadFocus = document.activeElement === root;
        for (const attr of ["tabindex", "role", "aria-label"]) root.removeAttribute(attr);
        const first = root.querySelector("select, input, button");
        if (hadFocus && first) first.focus();
      })
      .catch((err) => {
        root.dataset.explorerState = "error";
        root.querySelector(".ex__fallback").textContent =
          "The explorer could not start: " + err.message;
        console.error(err);
      });
  }

  function start() {
    if (observer) {
      observer.disconnect(); // its containers belonged to the page we left
      observer = null;
    }
    const roots = [...document.querySelectorAll("[data-explorer]")].filter((r) => !r.dataset.explorerState);
    if (!roots.length) return;
    if ("IntersectionObserver" in window) {
      observer = new IntersectionObserver(
        (entries) => entries.forEach((e) => e.isIntersecting && wake(e.target)),
        { rootMargin: "1500px 0px" },
      );
    }
    for (const root of roots) {
      root.dataset.explorerState = "waiting";
      // Until it is built the explorer has no controls, so Tab would skip it: the box
      // itself is a tab stop meanwhile, and focusing it starts the build.
      root.tabIndex = 0;
      root.setAttribute("role", "group");
      root.setAttribute("aria-label", "Query explorer (loading)");
      root.addEventListener("focusin", () => wake(root), { once: true });
      if (observer) observer.observe(root);
      else wake(root);
    }
  }

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(start);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
