// The one loader of the site's widgets, each written as <div data-widget="NAME">: WIDGETS
// maps each name to its module (which exports mount(box, data)), the data files it reads
// (data holds each under its key), the name read out while it loads and the sentence its
// box shows if it cannot load. Every container is handed to the site's lazy loader
// (lib/lazy-mount.js), which builds it when it comes near the screen or gets focus.
// A widget that fails says so in its box; the rest of the page keeps working.
import { fetchJson, lazyMount } from "./lib/lazy-mount.js";

/** name -> {label, module, data: {key: [url, what]}, failure}. A url is relative to this
 * file; "{lesson}" in it is the container's data-lesson (the practice section's). */
export const WIDGETS = {
  explorer: {
    label: "Query explorer",
    module: () => import("./lib/explorer-widget.js"),
    data: { inputs: ["../assets/data/explorer.json", "explorer data"] },
    failure: "The query explorer could not be loaded.",
  },
  heads: {
    label: "Every head of a layer",
    module: () => import("./lib/heads-widget.js"),
    data: {
      attention: ["../assets/data/it_attention.json", "attention data"],
      roles: ["../assets/data/head_roles.json", "head roles"],
    },
    failure: "The heads of the model could not be loaded.",
  },
  heatmap: {
    label: "Attention heatmap",
    module: () => import("./lib/heatmap-widget.js"),
    data: { attention: ["../assets/data/it_attention.json", "attention data"] },
    failure: "The attention data could not be loaded.",
  },
  practice: {
    label: "Practice exercises",
    module: () => import("./practice/ui.js"),
    data: { manifest: ["../practice/{lesson}/manifest.json", "list of exercises"] },
    failure: "The exercises could not be loaded.",
  },
  training: {
    label: "Training, checkpoint by checkpoint",
    module: () => import("./lib/training-widget.js"),
    data: { run: ["../assets/data/training.json", "training run"] },
    failure: "The training run could not be loaded.",
  },
  generate: {
    label: "Generating, letter by letter",
    module: () => import("./lib/generate-widget.js"),
    data: { model: ["../assets/data/generate.json", "model weights"] },
    failure: "The model's weights could not be loaded.",
  },
};

/** A data file's address for one container: {name} is its data-name, a page's slug. */
function dataUrl(url, box) {
  const filled = url.replace(/\{(\w+)\}/g, (_, name) => {
    const value = box.dataset[name];
    if (!/^[a-z][a-z0-9-]*$/.test(value ?? "")) {
      throw new Error(`the widget's container names no ${name} (data-${name}="${value ?? ""}")`);
    }
    return value;
  });
  return new URL(filled, import.meta.url);
}

for (const [name, spec] of Object.entries(WIDGETS)) {
  lazyMount({
    selector: `[data-widget="${name}"]`,
    label: spec.label,
    build: async (box) => {
      const entries = Object.entries(spec.data);
      const [widget, ...files] = await Promise.all([
        spec.module(),
        ...entries.map(([, [url, what]]) => fetchJson(dataUrl(url, box), what)),
      ]);
      return widget.mount(box, Object.fromEntries(entries.map(([key], i) => [key, files[i]])));
    },
    fail: (box, error) => {
      if (error.shown) return; // the widget has said what failed, in its own words
      (box.querySelector(".widget__loading") || box).textContent = spec.failure;
    },
  });
}
