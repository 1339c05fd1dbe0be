// Practice section bootstrap, loaded on every page. It hands the section to the site's
// lazy loader (lib/lazy-mount.js): only when the section comes near the screen (or
// something in it gets focus) are the editor, the exercises and Python loaded
// (practice/ui.js). When a page view leaves the section behind (instant navigation),
// its Python worker is stopped.
import { lazyMount, once, onPageView } from "./lib/lazy-mount.js";

const loadUi = once(() => import("./practice/ui.js"));
let started = false; // whether ui.js was ever asked for

lazyMount({
  selector: "[data-practice]",
  label: "Practice exercises",
  load: () => {
    started = true;
    return loadUi();
  },
  mount: (root, ui) => ui.mount(root),
  fail: (root, error) => {
    const box = root.querySelector("[data-practice-loader]");
    // The section's own loader line may already say what failed, with a Retry: keep it.
    if (box && box.dataset.state !== "error") box.textContent = "The practice section could not load: " + error.message;
  },
});

onPageView(() => {
  if (started) loadUi().then((ui) => ui.release(document.querySelector("[data-practice]")), () => {});
});
