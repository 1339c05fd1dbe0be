// The "it → animal" heatmap: real attention of all-MiniLM-L6-v2 (see the partial
// docs/partials/heatmap.md and data/it_attention.json).
//
// The widget lives in lib/heatmap-widget.js (which imports its maths, lib/heatmap-math.js)
// and the data in assets/data/it_attention.json. This module, loaded on every page, only
// hands the containers to the site's lazy loader (lib/lazy-mount.js): the widget and its
// data are fetched when the heatmap comes near the screen or gets focus.
import { fetchJson, lazyMount } from "./lib/lazy-mount.js";

lazyMount({
  selector: "[data-hm-widget]",
  label: "Attention heatmap",
  load: () =>
    Promise.all([
      import("./lib/heatmap-widget.js"),
      fetchJson(new URL("../assets/data/it_attention.json", import.meta.url), "attention data"),
    ]),
  mount: (box, [widget, data]) => widget.mount(box, data),
  fail: (box) => {
    box.querySelector("[data-hm-loading]").textContent = "The attention data could not be loaded.";
  },
});
