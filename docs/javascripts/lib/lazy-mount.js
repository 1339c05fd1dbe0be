// One way to bring a widget to life, shared by every widget of the site.
//
// A widget's container sits in the page from the start (with a fallback text and the
// height it will take). lazyMount() watches the containers of each page view and
// builds a widget only when it is needed: when its container comes within LOOK_AHEAD_PX
// of the screen, or when something in it gets focus. One attribute tells where each
// container stands: data-widget-state goes waiting, loading, then ready (or error; a
// widget that failed may ask to be built again, with RETRY_EVENT on its container).
//
// While it waits or loads, the container itself is a tab stop with a name ("… (loading)"),
// so a keyboard reader who tabs onto it wakes it, and focus moves to its first control
// once it is ready. Material's instant navigation swaps pages without reloading scripts
// and emits on document$ each time: each page view watches only its own containers, and
// a container is built once (the site has it off, but widgets need not know).

/** How far below (or above) the screen a widget starts loading, in CSS pixels: enough
 * to be built before a reader scrolls onto it, not so much that the heatmap (a screen
 * and a half down the lesson) loads with the page on a desktop screen. */
export const LOOK_AHEAD_PX = 300;
/** The attribute that holds a container's state. */
export const STATE_ATTR = "data-widget-state";
/** The event a widget that failed dispatches on its container to be built again (its
 * Retry button): the loader fetches what it needs afresh and mounts it again. */
export const RETRY_EVENT = "widget-retry";
const FOCUSABLE =
  'button, select, input, textarea, a[href], [contenteditable="true"], [tabindex]:not([tabindex="-1"])';

/** Run `fn` for every page view: the first one, and each of Material's instant navigations. */
export function onPageView(fn) {
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(() => fn());
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", () => fn());
  } else {
    fn();
  }
}

/** fetch() a JSON file, with an error that names it when it cannot be had. */
export async function fetchJson(url, what) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${what}: HTTP ${response.status} for ${url}`);
  return response.json();
}

/**
 * Watch the containers matching `selector` on every page view and build each one when
 * it is needed.
 *
 * @param {object} spec
 * @param {string} spec.selector the widget's containers
 * @param {string} spec.label the widget's name, read out while it loads
 * @param {(root: Element) => Promise<any>} spec.build fetches what the widget needs and builds it
 * @param {(root: Element, error: Error) => void} spec.fail says in the page what failed
 */
export function lazyMount({ selector, label, build, fail }) {
  let observer = null; // watches the containers of the current page view only

  function wake(root) {
    if (root.getAttribute(STATE_ATTR) !== "waiting") return;
    root.setAttribute(STATE_ATTR, "loading");
    if (observer) observer.unobserve(root);
    Promise.resolve()
      .then(() => build(root))
      .then(() => {
        const hadFocus = document.activeElement === root;
        restore(root);
        root.setAttribute(STATE_ATTR, "ready");
        const first = root.querySelector(FOCUSABLE);
        if (hadFocus && first) first.focus();
      })
      .catch((error) => {
        root.setAttribute(STATE_ATTR, "error");
        fail(root, error);
        console.error(error);
        root.addEventListener(RETRY_EVENT, () => {
          root.setAttribute(STATE_ATTR, "waiting");
          wake(root);
        }, { once: true });
      });
  }

  function start() {
    if (observer) observer.disconnect(); // its containers belonged to the page we left
    observer = null;
    const roots = [...document.querySelectorAll(selector)].filter((r) => !r.hasAttribute(STATE_ATTR));
    if (!roots.length) return;
    if ("IntersectionObserver" in window) {
      observer = new IntersectionObserver(
        (entries) => entries.forEach((e) => e.isIntersecting && wake(e.target)),
        { rootMargin: `${LOOK_AHEAD_PX}px 0px` },
      );
    }
    for (const root of roots) {
      root.setAttribute(STATE_ATTR, "waiting");
      placeholder(root, label);
      root.addEventListener("focusin", () => wake(root), { once: true });
      if (observer) observer.observe(root);
      else wake(root);
    }
  }

  onPageView(start);
}

// While it waits, the container is a named tab stop; the attributes it had before are
// kept aside and put back once the widget is built.
const saved = new WeakMap();
const PLACEHOLDER = ["tabindex", "role", "aria-label"];

function placeholder(root, label) {
  saved.set(root, PLACEHOLDER.map((name) => [name, root.getAttribute(name)]));
  root.setAttribute("tabindex", "0");
  root.setAttribute("role", "group");
  root.setAttribute("aria-label", `${label} (loading)`);
}

function restore(root) {
  for (const [name, value] of saved.get(root) || []) {
    if (value === null) root.removeAttribute(name);
    else root.setAttribute(name, value);
  }
  saved.delete(root);
}
