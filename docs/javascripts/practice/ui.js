// The practice section: editors, the run/reset/solution buttons, the results, and the
// Pyodide worker that runs the checks. Loaded on demand by ../practice.js when the
// section comes near the viewport (or gets focus); never on other pages.
import {
  TIME_LIMIT_MS,
  capPrinted,
  detailRows,
  manifestPath,
  printedView,
  tierButtonText,
  progressFraction,
  progressText,
  storageKeys,
  summaryText,
  timeoutText,
} from "./lib.js";

const SITE_ROOT = new URL("../../", import.meta.url);
const SVGNS = "http://www.w3.org/2000/svg";

const manifests = new Map(); // lesson -> Promise of its manifest
let editorPromise = null;
let runner = null; // the one PythonWorker shared by every step of the page
let mounted = null; // the [data-practice] element currently mounted

// --- loading --------------------------------------------------------------------------

function loadManifest(lesson) {
  if (!manifests.has(lesson)) {
    const promise = fetch(new URL(manifestPath(lesson), SITE_ROOT)).then((r) => {
      if (!r.ok) throw new Error(`could not load the exercises (HTTP ${r.status})`);
      return r.json();
    });
    manifests.set(lesson, promise);
    promise.catch(() => manifests.delete(lesson));
  }
  return manifests.get(lesson);
}

function loadEditor() {
  if (!editorPromise) {
    editorPromise = import(new URL("./editor.bundle.js", import.meta.url).href);
    editorPromise.catch(() => (editorPromise = null));
  }
  return editorPromise;
}

// --- the worker -----------------------------------------------------------------------

/** Owns the Pyodide worker: starts it, runs checks one at a time, stops a run that hangs. */
class PythonWorker {
  constructor(manifest, { onProgress, onReady, onRestart }) {
    this.manifest = manifest;
    this.onProgress = onProgress;
    this.onReady = onReady;
    this.onRestart = onRestart;
    this.worker = null;
    this.ready = null;
    this.pending = new Map();
    this.nextId = 1;
    this.queue = Promise.resolve();
    this.starts = 0;
  }

  /** Start the worker if it is not running; resolves when Python is ready. */
  ensure() {
    if (this.ready) return this.ready;
    const { pyodide, harness, steps } = this.manifest;
    const worker = new Worker(new URL("./worker.js", import.meta.url));
    this.worker = worker;
    this.starts += 1;
    if (this.starts > 1) this.onRestart();
    this.ready = new Promise((resolve, reject) => {
      worker.onmessage = (event) => {
        const msg = event.data;
        if (msg.type === "progress") this.onProgress(msg.loaded, msg.total);
        else if (msg.type === "ready") {
          this.onReady(msg.ms);
          resolve();
        } else if (msg.type === "error") reject(new Error(msg.message));
        else if (msg.type === "result") {
          const done = this.pending.get(msg.id);
          this.pending.delete(msg.id);
          if (done) done(msg);
        }
      };
      worker.onerror = (event) => {
        event.preventDefault();
        reject(new Error(event.message || "the Python worker failed to start"));
      };
    });
    this.ready.catch(() => this.stop());
    worker.postMessage({
      type: "init",
      index: new URL(pyodide.index, SITE_ROOT).href,
      total: pyodide.bytes,
      loaderBytes: pyodide.files["pyodide.js"] + pyodide.files["pyodide.asm.js"],
      harness,
      steps: steps.map((s) => ({ id: s.id, checks: s.checks })),
    });
    return this.ready;
  }

  /** Run the checks of `step` on `source`; runs are queued, one at a time. */
  run(step, source) {
    const job = this.queue.then(() => this.runNow(step, source));
    this.queue = job.catch(() => {});
    return job;
  }

  async runNow(step, source) {
    try {
      await this.ensure();
    } catch (err) {
      return { kind: "error", message: `Python could not start: ${err.message}` };
    }
    const id = this.nextId++;
    const t0 = performance.now();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.stop();
        resolve({ kind: "timeout", ms: performance.now() - t0 });
      }, TIME_LIMIT_MS);
      this.pending.set(id, (msg) => {
        clearTimeout(timer);
        if (msg.crash) {
          // The runner itself failed (the reader's code can break the interpreter, e.g.
          // by clearing sys.modules): start from a clean worker next time.
          this.stop();
          resolve({ kind: "error", message: `The checks could not run: ${msg.crash}`, printed: msg.printed });
        } else resolve({ kind: "result", report: msg.report, printed: msg.printed, ms: msg.ms });
      });
      this.worker.postMessage({ type: "run", id, step, source });
    });
  }

  /** Terminate the worker; the next run starts a fresh one. */
  stop() {
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.ready = null;
  }
}

// --- small DOM helpers -------------------------------------------------------------------

function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids) if (kid !== null && kid !== undefined) e.append(kid);
  return e;
}

function mark(passed) {
  const svg = document.createElementNS(SVGNS, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("class", "practice__mark");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const path = document.createElementNS(SVGNS, "path");
  path.setAttribute("d", passed ? "M3 8.5l3.2 3.2L13 4.8" : "M4 4l8 8M12 4l-8 8");
  svg.append(path);
  return svg;
}

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled: the code simply is not kept
  }
}

function getItem(key) {
  try {
    return storage()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function setItem(key, value) {
  try {
    if (value === null) storage()?.removeItem(key);
    else storage()?.setItem(key, value);
  } catch {
    /* quota or privacy mode: keep working without saving */
  }
}

// --- the loader line ----------------------------------------------------------------------

function buildLoader(box) {
  box.replaceChildren();
  const bar = el("progress", { max: "1", value: "0", "aria-label": "Python download progress" });
  const text = el("span", { class: "practice__loader-text" }, "Getting the exercises ready…");
  const status = el("span", { class: "visually-hidden", role: "status" });
  box.append(bar, text, status);
  box.hidden = false;
  return {
    progress(loaded, total) {
      bar.value = progressFraction(loaded, total);
      text.textContent = progressText(loaded, total);
      if (status.textContent === "") status.textContent = "Loading Python in your browser.";
    },
    ready(ms) {
      bar.value = 1;
      text.textContent = `Python is ready (it started in ${(ms / 1000).toFixed(1)} s).`;
      status.textContent = "Python is ready.";
      box.dataset.state = "ready";
    },
    restart() {
      bar.value = 0;
      text.textContent = "Restarting Python…";
      status.textContent = "Restarting Python.";
      box.dataset.state = "loading";
    },
    fail(message) {
      text.textContent = message;
      status.textContent = message;
      box.dataset.state = "error";
    },
  };
}

// --- one step -------------------------------------------------------------------------------

// After a failure nothing but Python's own error is shown at once: the help comes in
// tiers, each on request (a nudge, then the failing call with both answers, then a
// solution), as the harness orders them (Result.tiers in _harness.py).

function renderResults(box, outcome, editor) {
  box.replaceChildren();
  const printed = printedView(outcome.kind === "result" ? outcome.report.printed : capPrinted(outcome.printed));
  if (printed) {
    const out = el("div", { class: "practice__printed", "data-printed": "" },
      el("p", { class: "practice__printed-title" }, "What your code printed"),
      el("pre", {}, el("code", { tabindex: "0" }, printed.text)));
    if (printed.note) out.append(el("p", { class: "practice__printed-note" }, printed.note));
    box.append(out);
  }
  if (outcome.kind === "timeout") {
    box.prepend(el("p", { class: "practice__timeout", "data-outcome": "timeout" }, timeoutText()));
    return;
  }
  if (outcome.kind === "error") {
    box.prepend(el("p", { class: "practice__crash", "data-outcome": "error" }, outcome.message));
    return;
  }
  const { report } = outcome;
  const list = el("ol", { class: "practice__checks" });
  for (const r of report.results) {
    const item = el("li", {
      class: r.passed ? "practice__check is-pass" : "practice__check is-fail",
      "data-hint": r.hint || null,
    });
    item.append(el(
      "span",
      { class: "practice__check-name" },
      mark(r.passed),
      el("span", { class: "practice__verdict" }, r.passed ? "passed" : "failed"),
      " ",
      r.name,
    ));
    // Python's own words (the error and its line) come at once; the rest is a tier.
    const rows = r.passed ? [] : detailRows(r).filter(([label]) => label === "Error" || label === "Line");
    if (rows.length) {
      const dl = el("dl", { class: "practice__detail" });
      for (const [label, value] of rows) {
        const dd = el("dd", {}, el("code", {}, value));
        if (label === "Line" && r.line && editor) {
          const go = el("button", { type: "button", class: "practice__goto" }, `go to line ${r.line}`);
          go.addEventListener("click", () => editor.goToLine(r.line));
          dd.append(" ", go);
        }
        dl.append(el("dt", {}, label), dd);
      }
      item.append(dl);
    }
    list.append(item);
  }
  box.append(list);
}

/** The content of tier `n` (0: the nudge, 1: the failing call) for the first failure. */
function tierContent(n, failure) {
  const tiers = failure.tiers || { nudge: failure.hint_text || "", call: [] };
  if (n === 0) {
    return el("p", { class: "practice__hint", "data-tier": "nudge" }, el("strong", {}, "Hint: "),
      tiers.nudge || "Read the failing check's name: it says what the checks expect.");
  }
  const box = el("div", { class: "practice__tier", "data-tier": "call" },
    el("p", { class: "practice__tier-title" }, el("strong", {}, "The failing check: "), failure.name));
  if (tiers.call.length) {
    const dl = el("dl", { class: "practice__detail" });
    for (const [label, value] of tiers.call) dl.append(el("dt", {}, label), el("dd", {}, el("code", {}, value)));
    box.append(dl);
  } else {
    box.append(el("p", {}, "No call was made: Python stopped before it could call your function, at the error shown above."));
  }
  return box;
}

/** Fill the live status line: a short visible verdict, and for screen readers the
 *  first failure's name, line and hint (the same words the open details show). */
function showStatus(status, outcome) {
  status.replaceChildren();
  if (outcome.kind !== "result") {
    status.dataset.outcome = outcome.kind;
    const text =
      outcome.kind === "timeout"
        ? `Stopped after ${TIME_LIMIT_MS / 1000} seconds: is there an endless loop?`
        : outcome.message;
    status.append(mark(false), text);
    return;
  }
  const { report } = outcome;
  const allPassed = report.passed === report.total;
  status.dataset.outcome = allPassed ? "pass" : "fail";
  status.append(mark(allPassed), summaryText(report), allPassed ? " Well done." : "");
  const first = report.results.find((r) => !r.passed);
  if (first) {
    let more = ` First failure: ${first.name}.`;
    if (first.line) more += ` Line ${first.line}.`;
    more += " Help comes in three steps, each with the button after the results.";
    status.append(el("span", { class: "visually-hidden" }, more));
  }
}

function buildStep(container, step, editorModule) {
  const keys = storageKeys(step.id);
  const ids = { keys: `practice-keys-${step.id}`, solution: `practice-solution-${step.id}` };
  container.replaceChildren();
  const help = el(
    "p",
    { class: "practice__keys", id: ids.keys },
    "Tab indents. To leave the editor with the keyboard, press Esc, then Tab. ",
    el("kbd", {}, "Ctrl"),
    "+",
    el("kbd", {}, "Enter"),
    " runs the checks.",
  );
  const editorBox = el("div", { class: "practice__editor" });
  const run = el("button", { type: "button", class: "practice__button practice__button--primary", "data-action": "run" }, "Run the checks");
  const reset = el("button", { type: "button", class: "practice__button", "data-action": "reset" }, "Reset to the starter");
  const reveal = el(
    "button",
    { type: "button", class: "practice__button", "data-action": "solution", "aria-expanded": "false", "aria-controls": ids.solution },
    tierButtonText(2),
  );
  // The solution is the last tier: offered once the first two were shown (kept across
  // visits, under the step's "failed" key).
  const unlockedBefore = getItem(keys.failed) === "1";
  reveal.hidden = !unlockedBefore;
  const hint = el("button", { type: "button", class: "practice__button", "data-action": "hint", hidden: true }, tierButtonText(0));
  const status = el("p", { class: "practice__status", role: "status", "aria-live": "polite" });
  const results = el("div", { class: "practice__results" });
  const tiers = el("div", { class: "practice__tiers", "aria-live": "polite" });
  let failure = null; // the first failed check of the last run
  let tier = 0; // how many tiers of help this run has shown
  const solution = el(
    "div",
    { class: "practice__solution", id: ids.solution, hidden: true },
    el("p", {}, "One possible solution (yours may differ and still pass):"),
    el("pre", {}, el("code", { tabindex: "0" }, step.solution)),
  );
  container.append(help, editorBox, el("div", { class: "practice__actions" }, run, reset, hint, reveal), status, results, tiers, solution);

  let saveTimer = null;
  const editor = editorModule.createEditor({
    parent: editorBox,
    doc: getItem(keys.code) ?? step.starter,
    label: `Python editor: ${step.title}`,
    describedBy: ids.keys,
    onChange(code) {
      clearTimeout(saveTimer);
      saveTimer = setTimeout(() => setItem(keys.code, code === step.starter ? null : code), 300);
    },
    onRun: () => run.click(),
  });

  run.addEventListener("click", async () => {
    if (run.disabled) return;
    run.disabled = true;
    run.setAttribute("aria-busy", "true");
    container.dataset.state = "running";
    delete status.dataset.outcome;
    status.textContent = runner.ready ? "Running the checks…" : "Waiting for Python to finish loading…";
    const outcome = await runner.run(step.id, editor.getCode());
    renderResults(results, outcome, editor);
    showStatus(status, outcome);
    const passed = outcome.kind === "result" && outcome.report.passed === outcome.report.total;
    container.dataset.state = passed ? "pass" : "fail";
    if (outcome.kind === "result") container.dataset.ms = String(outcome.ms);
    failure = outcome.kind === "result" ? outcome.report.results.find((r) => !r.passed) || null : null;
    tier = 0;
    tiers.replaceChildren();
    hint.textContent = tierButtonText(0);
    hint.hidden = !failure;
    container.dataset.tier = "0";
    run.disabled = false;
    run.removeAttribute("aria-busy");
  });

  reset.addEventListener("click", () => {
    editor.setCode(step.starter);
    setItem(keys.code, null);
    status.textContent = "The starter code is back. Ctrl+Z in the editor undoes the reset.";
  });

  hint.addEventListener("click", () => {
    if (!failure || tier >= 2) return;
    tiers.append(tierContent(tier, failure));
    tier += 1;
    container.dataset.tier = String(tier);
    if (tier < 2) {
      hint.textContent = tierButtonText(tier);
      return;
    }
    // Both tiers shown: the last one, the solution, is offered instead.
    setItem(keys.failed, "1");
    reveal.hidden = false;
    hint.hidden = true;
    reveal.focus();
  });

  reveal.addEventListener("click", () => {
    const open = solution.hidden;
    solution.hidden = !open;
    reveal.setAttribute("aria-expanded", String(open));
    reveal.textContent = open ? "Hide the solution" : tierButtonText(2);
  });

  container.dataset.state = "idle";
  container.practiceEditor = editor; // for the browser tests: getCode/setCode/goToLine
  return editor;
}

// --- entry points, called by ../practice.js (through lib/lazy-mount.js) ---------------------------------------------------

/** Build every step inside `root` (once) and start loading Python. */
export async function mount(root) {
  mounted = root;
  const loaderBox = root.querySelector("[data-practice-loader]") || root.insertBefore(el("div"), root.firstChild);
  loaderBox.classList.add("practice__loader");
  const loader = buildLoader(loaderBox);
  const editorLoading = loadEditor(); // in parallel with the exercises and Python
  let manifest, editorModule;
  try {
    manifest = await loadManifest(root.dataset.practice);
    startPython(manifest, loader);
    editorModule = await editorLoading;
  } catch (err) {
    loader.fail(`The practice section could not load: ${err.message}`);
    throw err; // the lazy loader marks the section data-widget-state="error"
  }
  const steps = new Map(manifest.steps.map((s) => [s.id, s]));
  for (const container of root.querySelectorAll(".practice__runner[data-step]")) {
    const step = steps.get(container.dataset.step);
    if (step) buildStep(container, step, editorModule);
  }
}

/** Start (or keep) the worker, reporting its progress to this page's loader line. */
function startPython(manifest, loader) {
  const news = {
    onProgress: (loaded, total) => loader.progress(loaded, total),
    onReady: (ms) => loader.ready(ms),
    onRestart: () => loader.restart(),
  };
  if (runner && runner.manifest !== manifest) {
    runner.stop(); // another lesson's checks: this page needs its own
    runner = null;
  }
  if (runner) Object.assign(runner, news);
  else runner = new PythonWorker(manifest, news);
  runner.ensure().catch((err) => loader.fail(`Python could not start: ${err.message}`));
}

/** After instant navigation: stop the worker if its page is gone. */
export function release(current) {
  if (mounted && mounted !== current && !mounted.isConnected) {
    mounted = null;
    if (runner) runner.stop();
    runner = null;
  }
}
