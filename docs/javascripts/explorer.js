// The query explorer: move the query of the worked example and watch every step of
// attention recompute; then draw random q and keys for a chosen d_k and compare the
// softmax with and without the 1/√d_k scale.
//
// Inputs come from the build (assets/data/explorer.json, computed by attention_ref);
// the widget lives in lib/explorer-widget.js, which imports its maths from
// lib/attention-math.js (pure, unit-tested with node --test). This module, loaded on every page, only
// hands the containers to the site's lazy loader (lib/lazy-mount.js): nothing is
// fetched until the explorer comes near the screen or gets focus.
import { fetchJson, lazyMount } from "./lib/lazy-mount.js";

lazyMount({
  selector: "[data-explorer]",
  label: "Query explorer",
  load: () =>
    Promise.all([
      import("./lib/explorer-widget.js"),
      fetchJson(new URL("../assets/data/explorer.json", import.meta.url), "explorer data"),
    ]),
  mount: (root, [widget, data]) => widget.mount(root, data),
  fail: (root, error) => {
    root.querySelector(".ex__fallback").textContent =
      "The explorer could not start: " + error.message;
  },
});
