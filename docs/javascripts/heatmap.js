// The "it → animal" heatmap: real attention of all-MiniLM-L6-v2 (see the partial
// docs/partials/heatmap.md and data/it_attention.json).
//
// A small classic script on every page; it does nothing unless a `[data-hm-widget]` box
// is on the page. The widget lives in lib/heatmap-widget.js, the maths in
// lib/heatmap-math.js and the data in assets/data/it_attention.json: all three are
// fetched only when the box comes near the viewport. Material's instant navigation
// swaps the page content without reloading scripts, so `init` runs on every `document$`
// emission and skips boxes already set up; every listener is attached to the widget's
// own box and disappears with it.
(() => {
  "use strict";

  const here = document.currentScript ? document.currentScript.src : document.baseURI;
  const MATH_URL = new URL("lib/heatmap-math.js", here).href;
  const DATA_URL = new URL("../assets/data/it_attention.json", here).href;
  const WIDGET_URL = new URL("lib/heatmap-widget.js", here).href;

  let loading = null; // Promise<[math, widget, data]>, shared by every widget and navigation
  const observers = new Set();

  function load() {
    if (!loading) {
      loading = Promise.all([
        import(MATH_URL),
        import(WIDGET_URL),
        fetch(DATA_URL).then((r) => {
          if (!r.ok) throw new Error(`attention data: HTTP ${r.status} for ${DATA_URL}`);
          return r.json();
        }),
      ]).catch((err) => {
        loading = null;
        throw err;
      });
    }
    return loading;
  }

  function init() {
    for (const obs of observers) {
      // Boxes of a page we navigated away from: stop watching them.
      if (![...obs.targets].some((el) => el.isConnected)) {
        obs.disconnect();
        observers.delete(obs);
      }
    }
    document.querySelectorAll("[data-hm-widget]:not([data-hm-ready])").forEach((box) => {
      box.setAttribute("data-hm-ready", "");
      const start = () =>
        load().then(
          ([math, widget, data]) => widget.mount(box, math, data),
          (err) => {
            box.querySelector("[data-hm-loading]").textContent =
              "The attention data could not be loaded.";
            console.error(err);
          },
        );
      if (!("IntersectionObserver" in window)) return void start();
      const obs = new IntersectionObserver(
        (entries) => {
          if (entries.some((e) => e.isIntersecting)) {
            obs.disconnect();
            observers.delete(obs);
            start();
          }
        },
        { rootMargin: "300px 0px" },
      );
      obs.targets = [box];
      observers.add(obs);
      obs.observe(box);
    });
  }

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(init);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
