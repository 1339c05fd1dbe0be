// Render later, then render all.
//
// stylesheets/extra.css gives the blocks of a lesson page `content-visibility: auto`,
// so that while the page loads the browser styles and lays out only what is near the
// screen (Material's script forces several full style passes at start, each over every
// element of the page). In Chromium a skipped block is also missing from the
// accessibility tree, so once the page has loaded and the reader starts to move (or a
// few seconds have passed) this script lets every skipped block render for good, in
// small batches, one batch each time the browser is idle. Each batch is sized from what
// the previous one cost on this device, so that every batch's style and layout stay
// short and the page stays responsive. When all are done the root element gets
// `data-settled` (tests wait for it).
//
// Material swaps pages in without a reload (instant navigation) and emits on document$
// each time: the work starts again for the new page, and a run left from the previous
// page stops at its next frame.

/** Milliseconds of style and layout a batch may spend. A phone four times slower than
 * the machine that runs the page then spends about 4 x TARGET_MS, under the 50 ms that
 * make a task long, whatever the page's blocks weigh. Each batch also costs the frame
 * that follows it, whatever its size: on /attention/ (8,700 elements) about 20 ms of
 * pre-paint, hit testing and resize observers on the test machine. A target of 3 ms
 * made 80 batches and 1.7-2.0 s of main-thread work to settle the page; 10 ms makes 27
 * and 0.84 s, with no more long tasks. */
export const TARGET_MS = 10;
/** Elements in the first batch; later batches follow what the previous one cost. */
export const FIRST_BUDGET = 40;
const MIN_BUDGET = 10;
const MAX_BUDGET = 2000;

/** The property value that marks the stylesheet's rule of skipped blocks. */
export const SKIP_VALUE = "auto";

/**
 * The selector of the blocks the stylesheet skips: every style rule that sets
 * `content-visibility: auto` (one, at the top of extra.css), read from the page's
 * stylesheets, so that the selector is written in one place only.
 *
 * @param {Iterable<CSSStyleSheet>} sheets e.g. document.styleSheets
 * @returns {string} the rules' selectors joined by commas ("" when there is none)
 */
export function skippedSelector(sheets) {
  const found = [];
  const visit = (rules) => {
    for (const rule of rules) {
      if (rule.style && rule.style.getPropertyValue("content-visibility") === SKIP_VALUE) {
        found.push(rule.selectorText);
      } else if (rule.cssRules) {
        visit(rule.cssRules);
      }
    }
  };
  for (const sheet of sheets) {
    let rules;
    try {
      rules = sheet.cssRules;
    } catch {
      continue; // a stylesheet of another origin cannot be read (the site has none)
    }
    if (rules) visit(rules);
  }
  return found.join(", ");
}

/**
 * The end (exclusive) of the next batch: blocks from `start` on, in page order, while
 * their element counts add up to at most `budget`; always at least one block.
 *
 * @param {number[]} sizes element count of each block, in page order
 * @param {number} start index of the first block of the batch
 * @param {number} budget most elements in the batch (a positive number)
 * @returns {number} index just past the batch's last block
 */
export function batchEnd(sizes, start, budget) {
  if (!(budget > 0)) throw new RangeError(`batchEnd: budget must be positive, got ${budget}`);
  let end = start;
  let total = 0;
  while (end < sizes.length && (end === start || total + sizes[end] <= budget)) {
    total += sizes[end];
    end += 1;
  }
  return end;
}

/**
 * The element budget of the next batch, scaled by what the last one cost: a batch of
 * `done` elements took `elapsedMs` of style and layout, and the next should take about
 * `targetMs`. Clamped to [10, 2000] elements, and at most doubled at a time.
 *
 * @param {number} done elements in the last batch
 * @param {number} elapsedMs its style and layout time
 * @param {number} targetMs the time a batch may take
 * @returns {number} the next batch's budget, in elements
 */
export function nextBudget(done, elapsedMs, targetMs = TARGET_MS) {
  const perElement = Math.max(elapsedMs, 0.05) / Math.max(done, 1);
  const wanted = Math.min(targetMs / perElement, 2 * Math.max(done, MIN_BUDGET));
  return Math.round(Math.min(MAX_BUDGET, Math.max(MIN_BUDGET, wanted)));
}

let run = 0;

function settle() {
  const mine = ++run;
  const root = document.documentElement;
  root.removeAttribute("data-settled");
  const selector = skippedSelector(document.styleSheets);
  const blocks = selector ? [...document.querySelectorAll(selector)] : [];
  const sizes = blocks.map((b) => b.getElementsByTagName("*").length + 1);
  let next = 0;
  let budget = FIRST_BUDGET;
  const step = () => {
    if (mine !== run) return; // a newer page took over
    if (next >= blocks.length) {
      root.setAttribute("data-settled", "");
      return;
    }
    const end = batchEnd(sizes, next, budget);
    const t0 = performance.now();
    for (let i = next; i < end; i++) blocks[i].setAttribute("data-settled", "");
    void document.body.offsetHeight; // the batch's style and layout, done now and timed
    const done = sizes.slice(next, end).reduce((a, b) => a + b, 0);
    budget = nextBudget(done, performance.now() - t0);
    next = end;
    later(step);
  };
  later(step);
}

// A batch runs when the browser is idle (after the frames it has to draw and the work it
// has queued, such as Material's own start-up), so it never lengthens another task; it
// waits at most half a second. Browsers without requestIdleCallback wait a frame.
function later(fn) {
  if (typeof requestIdleCallback === "function") requestIdleCallback(() => fn(), { timeout: 500 });
  else setTimeout(fn, 16);
}

/** How long after load the skipped blocks wait for the reader before they render anyway. */
export const SETTLE_DELAY_MS = 3000;

// The first screen is what a reader reads first; the rest can render when the reader
// starts to move (a key, a tap, the wheel, a scroll) or after SETTLE_DELAY_MS, whichever
// comes first, so that the work stays out of the seconds in which the page starts. A
// page reached by instant navigation (the reader clicked) settles at once.
function start() {
  let begun = false;
  let pending = false;
  const events = ["keydown", "pointerdown", "wheel", "touchstart", "scroll"];
  const go = () => {
    if (begun) return;
    begun = true;
    for (const type of events) removeEventListener(type, go, true);
    if (pending) settle();
  };
  const view = () => {
    if (begun) settle();
    else pending = true;
  };
  for (const type of events) addEventListener(type, go, { capture: true, passive: true });
  setTimeout(go, SETTLE_DELAY_MS);
  // document$ is Material's: it emits for the first page and after every instant navigation.
  if (typeof document$ !== "undefined") document$.subscribe(view);
  else view();
}

if (typeof document !== "undefined") {
  if (document.readyState === "complete") start();
  else window.addEventListener("load", start, { once: true });
}
