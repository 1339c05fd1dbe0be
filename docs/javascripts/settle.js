// Render later, then render all.
//
// stylesheets/extra.css gives the blocks of a lesson page `content-visibility: auto`,
// so that while the page loads the browser styles and lays out only what is near the
// screen (Material's script forces several full style passes at start, each over every
// element of the page). In Chromium a skipped block is also missing from the
// accessibility tree, so once the page has loaded this script lets every skipped block
// render for good, in small batches, one batch per animation frame: each frame's style
// and layout stay short, and the page stays responsive. When all are done the root
// element gets `data-settled` (tests wait for it).
//
// Material swaps pages in without a reload (instant navigation) and emits on document$
// each time: the work starts again for the new page, and a run left from the previous
// page stops at its next frame.

/** Elements per frame: a batch this size takes a few milliseconds of style and layout on
 * a laptop, and stays under a long task (50 ms) on a phone four times slower. */
export const BATCH = 200;

/** The blocks extra.css skips: keep this selector and the stylesheet's one the same. */
export const SKIPPED = [
  ".md-content__inner > :not(h1, h2, h3, h4, h5, h6, [data-explorer], [data-hm-widget], [data-practice], [data-settled], .jupyter-wrapper)",
  ".jp-Notebook > .jp-CodeCell:not([data-settled])",
  ".jp-RenderedMarkdown > :not(h1, h2, h3, h4, h5, h6, [data-settled])",
].join(",\n");

/**
 * Split blocks, given by their element counts in page order, into consecutive batches
 * of at most `limit` elements. A block larger than the limit is a batch of its own.
 *
 * @param {number[]} sizes element count of each block, in page order
 * @param {number} limit most elements in one batch (a positive number)
 * @returns {number[][]} the batches, as indices into `sizes`
 */
export function batches(sizes, limit) {
  if (!(limit > 0)) throw new RangeError(`batches: limit must be positive, got ${limit}`);
  const out = [];
  let current = [];
  let total = 0;
  sizes.forEach((size, i) => {
    if (current.length && total + size > limit) {
      out.push(current);
      current = [];
      total = 0;
    }
    current.push(i);
    total += size;
  });
  if (current.length) out.push(current);
  return out;
}

let run = 0;

function settle() {
  const mine = ++run;
  const root = document.documentElement;
  root.removeAttribute("data-settled");
  const blocks = [...document.querySelectorAll(SKIPPED)];
  const queue = batches(
    blocks.map((b) => b.getElementsByTagName("*").length + 1),
    BATCH,
  );
  const step = () => {
    if (mine !== run) return; // a newer page took over
    const next = queue.shift();
    if (!next) {
      root.setAttribute("data-settled", "");
      return;
    }
    for (const i of next) blocks[i].setAttribute("data-settled", "");
    requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
}

function start() {
  // document$ is Material's: it emits for the first page and after every instant navigation.
  if (typeof document$ !== "undefined") document$.subscribe(() => settle());
  else settle();
}

if (typeof document !== "undefined") {
  if (document.readyState === "complete") start();
  else window.addEventListener("load", start, { once: true });
}
