// "Every head of a layer": the twelve heads of one layer of all-MiniLM-L6-v2 as small
// heatmaps, each labelled with the role the build found in its weights; one opens in full
// (see the partial docs/partials/heads_widget.md).
//
// The widget lives in lib/heads-widget.js (which imports its maths, lib/heads-math.js and
// lib/heatmap-math.js, whose colour scale it shares) and the data in
// assets/data/it_attention.json and assets/data/head_roles.json. This module, loaded on
// every page, only hands the containers to the site's lazy loader (lib/lazy-mount.js):
// all of them are fetched when the widget comes near the screen or gets focus.
import { fetchJson, lazyMount } from "./lib/lazy-mount.js";

lazyMount({
  selector: "[data-heads]",
  label: "Every head of a layer",
  load: () =>
    Promise.all([
      import("./lib/heads-widget.js"),
      fetchJson(new URL("../assets/data/it_attention.json", import.meta.url), "attention data"),
      fetchJson(new URL("../assets/data/head_roles.json", import.meta.url), "head roles"),
    ]),
  mount: (box, [widget, data, roles]) => widget.mount(box, { attention: data, roles }),
  fail: (box) => {
    // The fallback paragraph, or the whole box if the widget failed half-built.
    (box.querySelector("[data-hd-loading]") || box).textContent =
      "The heads of the model could not be loaded.";
  },
});
