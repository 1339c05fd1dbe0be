// The practice section: editors, the run/reset/solution buttons, the results, and the
// Pyodide worker that runs the checks. Loaded by ../widgets.js when the section
// (<div class="practice" data-widget="practice" data-lesson="...">) comes near the
// viewport or gets focus, with the lesson's manifest as data.manifest; never on other
// pages. mount() returns the section's state: its worker, its storage, its editors' saves.
import { h } from "../lib/dom.js";
import {
  crashText,
  limitsOf,
  manifestProblem,
  manifestPath,
  reportProblem,
  startFailureText,
  tamperedText,
  tierButtonText,
  progressFraction,
  progressText,
  unreadableCharacter,
  unreadableText,
  STORAGE_PREFIX,
  storageKeys,
} from "./lib.js";
import { renderResults, showStatus, tierContent } from "./render.js";
import { RETRY_EVENT } from "../lib/lazy-mount.js";

const SITE_ROOT = new URL("../../", import.meta.url);

// --- loading --------------------------------------------------------------------------

/** Refuse a manifest that cannot drive the section, with a `detail` (see startFailureText). */
function checkManifest(manifest, lesson) {
  const problem = manifestProblem(manifest, manifestPath(lesson));
  if (problem) {
    const err = new Error(startFailureText({ reason: "manifest", problem }));
    err.detail = { reason: "manifest", problem };
    throw err;
  }
}

const loadEditor = () => import(new URL("./editor.bundle.js", import.meta.url).href);

// --- the worker -----------------------------------------------------------------------

/** Owns the Pyodide worker: starts it, runs checks one at a time, stops a run that hangs,
 *  and believes a result only when it comes from the runner's own code path (the
 *  secret the worker sent with "ready", never given to Python) and names the step's
 *  real checks. */
class PythonWorker {
  constructor(manifest, { onProgress, onReady, onRestart, onFail }) {
    this.manifest = manifest;
    this.limits = limitsOf(manifest);
    this.checkNames = new Map(manifest.steps.map((s) => [s.id, s.check_names]));
    this.onProgress = onProgress;
    this.onReady = onReady;
    this.onRestart = onRestart;
    this.onFail = onFail;
    this.worker = null;
    this.ready = null; // a Promise while starting or started (always truthy: see isReady)
    this.isReady = false;
    this.secret = null;
    this.pending = new Map();
    this.current = null; // the run in progress: {id, forged}
    this.nextId = 1;
    this.queue = Promise.resolve();
    this.starts = 0;
    this.watchdog = null;
  }

  /** Start the worker if it is not running; resolves when Python is ready. A start that
   *  fails, or makes no progress for `limits.startStallMs`, rejects with a `detail`
   *  (see startFailureText) and stops the worker, so the next call starts afresh. */
  ensure() {
    if (this.ready) return this.ready;
    const { pyodide, harness, steps } = this.manifest;
    const worker = new Worker(new URL("./worker.js", import.meta.url));
    this.worker = worker;
    this.isReady = false;
    this.secret = null;
    this.starts += 1;
    if (this.starts > 1) this.onRestart();
    let progress = { loaded: 0, total: pyodide.bytes };
    this.ready = new Promise((resolve, reject) => {
      const failWith = (detail) => {
        const err = new Error(startFailureText(detail));
        err.detail = detail;
        reject(err);
      };
      const arm = () => {
        clearTimeout(this.watchdog);
        const ms = this.limits.startStallMs;
        this.watchdog = setTimeout(() => failWith({ reason: "stalled", ms, ...progress }), ms);
      };
      arm();
      worker.onmessage = (event) => {
        if (this.worker !== worker) return; // a stopped worker's late message
        const msg = event.data || {};
        if (!this.isReady) {
          // Before "ready" no reader's code has run in this worker.
          if (msg.type === "progress") {
            progress = { loaded: msg.loaded, total: msg.total };
            arm();
            this.onProgress(msg.loaded, msg.total);
          } else if (msg.type === "ready" && typeof msg.secret === "string") {
            clearTimeout(this.watchdog);
            this.secret = msg.secret;
            this.isReady = true;
            this.onReady(msg.ms);
            resolve();
          } else if (msg.type === "error") failWith(msg);
          return;
        }
        const done = msg.type === "result" && msg.secret === this.secret && this.pending.get(msg.id);
        if (done) {
          this.pending.delete(msg.id);
          done(msg);
        } else if (this.current) this.current.forged = true; // the reader's code posted it
      };
      worker.onerror = (event) => {
        event.preventDefault();
        if (!this.isReady) failWith({ reason: "exception", message: event.message || "the Python worker failed to start" });
      };
    });
    this.ready.catch((err) => {
      clearTimeout(this.watchdog);
      if (this.worker === worker) this.stop();
      if (this.onFail) this.onFail(err);
    });
    worker.postMessage({
      type: "init",
      index: new URL(pyodide.index, SITE_ROOT).href,
      total: pyodide.bytes,
      files: pyodide.files,
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
    const unreadable = unreadableCharacter(source);
    if (unreadable) return { kind: "crash", message: unreadableText(unreadable), line: unreadable.line };
    try {
      await this.ensure();
    } catch (err) {
      return { kind: "error", message: err.message };
    }
    const id = this.nextId++;
    const t0 = performance.now();
    const current = { id, forged: false };
    this.current = current;
    const outcome = await new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.stop();
        resolve({ kind: "timeout", ms: performance.now() - t0 });
      }, this.limits.runMs);
      this.pending.set(id, (msg) => {
        clearTimeout(timer);
        resolve(this.judge(step, source, msg, current.forged));
      });
      this.worker.postMessage({ type: "run", id, step, source });
    });
    this.current = null;
    if (outcome.restart) {
      this.stop(); // a fresh interpreter for the next run, started at once
      this.ensure().catch(() => {});
    }
    return outcome;
  }

  /** What a result from the runner means for the reader. */
  judge(step, source, msg, forged) {
    const { report, log, ms } = msg;
    const restart = true;
    if (forged) return { kind: "tampered", message: tamperedText(["js.postMessage"], null), names: ["js.postMessage"], restart };
    if (report.tampered) {
      return { kind: "tampered", message: tamperedText(report.tampered, report.line), names: report.tampered, restart };
    }
    if (report.fatal || report.crash) {
      return { kind: "crash", message: crashText(report, source), details: [report.fatal || report.crash, ...(log || [])].join("\n"), restart };
    }
    const problem = reportProblem(report, this.checkNames.get(step));
    if (problem) return { kind: "tampered", message: tamperedText([`the report: ${problem}`], null), names: ["the report"], restart };
    return { kind: "result", report, ms, restart: Boolean(report.restart) };
  }

  /** Terminate the worker; the next run starts a fresh one. */
  stop() {
    clearTimeout(this.watchdog);
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.ready = null;
    this.isReady = false;
    this.secret = null;
  }
}

/** The reader's code, kept in localStorage. When the browser refuses (storage blocked,
 *  or full), practice works on and the section says so once, quietly (onTrouble). */
class Store {
  constructor() {
    this.trouble = null; // null, "blocked" or "full", once seen
    this.onTrouble = () => {};
  }

  note(kind) {
    if (this.trouble) return;
    this.trouble = kind;
    this.onTrouble(kind);
  }

  storage() {
    try {
      const store = window.localStorage;
      if (!store) this.note("blocked");
      return store;
    } catch {
      this.note("blocked");
      return null;
    }
  }

  get(key) {
    try {
      return this.storage()?.getItem(key) ?? null;
    } catch {
      this.note("blocked");
      return null;
    }
  }

  set(key, value) {
    try {
      const store = this.storage();
      if (!store) return false;
      if (value === null) store.removeItem(key);
      else store.setItem(key, value);
      return true;
    } catch (err) {
      this.note(err && (err.name === "QuotaExceededError" || err.code === 22) ? "full" : "blocked");
      return false;
    }
  }
}

// Saves still waiting for their 300 ms pause are written at once when the page is left
// or hidden (a quick reload, a closed tab, a phone switching apps); a change another tab
// makes to a step's code is offered to this one.
function listenToThePage({ pendingSaves, otherTab }) {
  const flush = () => {
    for (const save of [...pendingSaves]) save();
  };
  window.addEventListener("pagehide", flush);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") flush();
  });
  window.addEventListener("storage", (event) => {
    const handle = event.key && otherTab.get(event.key);
    if (handle) handle(event.newValue);
  });
}

// --- the loader line ----------------------------------------------------------------------

function buildLoader(box) {
  box.replaceChildren();
  const bar = h("progress", { max: "1", value: "0", "aria-label": "Python download progress" });
  const text = h("span", { class: "practice__loader-text" }, "Getting the exercises ready…");
  const status = h("span", { class: "visually-hidden", role: "status" });
  const retry = h("button", { type: "button", class: "practice__button", "data-action": "retry", hidden: true }, "Retry");
  box.append(bar, text, retry, status);
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
      retry.hidden = true;
      text.textContent = "Restarting Python…";
      status.textContent = "Restarting Python.";
      box.dataset.state = "loading";
    },
    /** Say what failed, and offer a Retry that calls `again` (which starts over). */
    fail(message, again) {
      text.textContent = message;
      status.textContent = message;
      box.dataset.state = "error";
      retry.hidden = !again;
      retry.onclick = again
        ? () => {
            retry.hidden = true;
            bar.value = 0;
            text.textContent = "Trying again…";
            status.textContent = "Trying again.";
            box.dataset.state = "loading";
            again();
          }
        : null;
    },
  };
}

// --- one step -------------------------------------------------------------------------------

// After a failure nothing but Python's own error is shown at once: the help comes in
// tiers, each on request (a nudge, then the failing call with both answers, then a
// solution), which render.js builds from the report's own tiers (tiers() in _harness.py).

function buildStep(section, container, step, editorModule) {
  const { store, pendingSaves, otherTab } = section;
  const keys = storageKeys(step.id);
  const ids = { keys: `practice-keys-${step.id}`, solution: `practice-solution-${step.id}` };
  container.replaceChildren();
  const help = h(
    "p",
    { class: "practice__keys", id: ids.keys },
    "Tab indents. To leave the editor with the keyboard, press Esc, then Tab. ",
    h("kbd", {}, "Ctrl"),
    "+",
    h("kbd", {}, "Enter"),
    " runs the checks.",
  );
  const editorBox = h("div", { class: "practice__editor" });
  const run = h("button", { type: "button", class: "practice__button practice__button--primary", "data-action": "run" }, "Run the checks");
  const reset = h("button", { type: "button", class: "practice__button", "data-action": "reset" }, "Reset to the starter");
  const reveal = h(
    "button",
    { type: "button", class: "practice__button", "data-action": "solution", "aria-expanded": "false", "aria-controls": ids.solution },
    tierButtonText(2),
  );
  // The solution is the last tier: offered once the first two were shown (kept across
  // visits, under the step's "failed" key).
  const unlockedBefore = store.get(keys.failed) === "1";
  reveal.hidden = !unlockedBefore;
  const hint = h("button", { type: "button", class: "practice__button", "data-action": "hint", hidden: true }, tierButtonText(0));
  const status = h("p", { class: "practice__status", role: "status", "aria-live": "polite" });
  const results = h("div", { class: "practice__results" });
  const tiers = h("div", { class: "practice__tiers", "aria-live": "polite" });
  let failure = null; // the first failed check of the last run
  let tier = 0; // how many tiers of help this run has shown
  const solution = h(
    "div",
    { class: "practice__solution", id: ids.solution, hidden: true },
    h("p", {}, "One possible solution (yours may differ and still pass):"),
    h("pre", {}, h("code", { tabindex: "0" }, step.solution)),
  );
  container.append(help, editorBox, h("div", { class: "practice__actions" }, run, reset, hint, reveal), status, results, tiers, solution);

  let saveTimer = null;
  const cancelSave = () => {
    clearTimeout(saveTimer);
    pendingSaves.delete(save);
  };
  const save = () => {
    cancelSave();
    const code = editor.getCode();
    store.set(keys.code, code === step.starter ? null : code);
  };
  const editor = editorModule.createEditor({
    parent: editorBox,
    doc: store.get(keys.code) ?? step.starter,
    label: `Python editor: ${step.title}`,
    describedBy: ids.keys,
    onChange() {
      clearTimeout(saveTimer);
      pendingSaves.add(save);
      saveTimer = setTimeout(save, 300);
    },
    onRun: () => run.click(),
  });

  // Another tab saved this step: offer its code (it is newer), or say it was reset there.
  const elsewhere = h("div", { class: "practice__elsewhere", "data-other-tab": "", hidden: true });
  container.insertBefore(elsewhere, editorBox);
  otherTab.set(keys.code, (newValue) => {
    const theirs = newValue ?? step.starter;
    if (theirs === editor.getCode()) {
      elsewhere.hidden = true;
      return;
    }
    const load = h("button", { type: "button", class: "practice__button", "data-action": "load-other-tab" },
      newValue === null ? "Load the starter" : "Load the other tab's code");
    const keep = h("button", { type: "button", class: "practice__button", "data-action": "keep-mine" }, "Keep mine");
    elsewhere.replaceChildren(
      h("p", { role: "status" }, newValue === null
        ? "This exercise was reset to the starter in another tab."
        : "This exercise was changed in another tab, which now keeps newer code than this one."),
      h("div", { class: "practice__actions" }, load, keep));
    elsewhere.hidden = false;
    load.addEventListener("click", () => {
      editor.setCode(theirs);
      // What was loaded is what the storage holds: saving it later could overwrite a
      // newer change made there in between (a reset in the other tab).
      cancelSave();
      elsewhere.hidden = true;
      editor.focus?.();
    });
    keep.addEventListener("click", () => {
      save(); // this tab's code becomes the kept one again
      elsewhere.hidden = true;
    });
  });

  run.addEventListener("click", async () => {
    if (run.disabled) return;
    run.disabled = true;
    run.setAttribute("aria-busy", "true");
    container.dataset.state = "running";
    delete status.dataset.outcome;
    const { runner } = section;
    // runner.ready is a promise (always truthy): isReady says whether Python is up.
    status.textContent = runner.isReady ? "Running the checks…" : "Starting Python…";
    const outcome = await runner.run(step.id, editor.getCode());
    renderResults(results, outcome, { editor, runMs: runner.limits.runMs });
    showStatus(status, outcome, runner.limits);
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
    cancelSave();
    store.set(keys.code, null);
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
    store.set(keys.failed, "1");
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

// --- the entry point, called by ../widgets.js ----------------------------------------------

/** Build every step inside `box` from the lesson's manifest and start loading Python.
 *  Returns the section's state. A manifest that cannot drive the section, or an editor
 *  that cannot load, is said in the section's loader line with a Retry (which asks the
 *  loader for the manifest again); the error thrown then is marked `shown`. */
export async function mount(box, { manifest }) {
  const loaderBox = box.querySelector(".practice__loader") || box.insertBefore(h("div"), box.firstChild);
  loaderBox.classList.add("practice__loader");
  const loader = buildLoader(loaderBox);
  const section = {
    box,
    runner: null, // the one PythonWorker shared by every step of the section
    store: new Store(),
    pendingSaves: new Set(), // functions that write one editor's code now
    otherTab: new Map(), // storage key -> what to do when another tab changes it
  };
  let editorModule;
  try {
    checkManifest(manifest, box.dataset.lesson);
    const editorLoading = loadEditor(); // in parallel with Python
    startPython(section, manifest, loader);
    editorModule = await editorLoading;
  } catch (err) {
    if (section.runner) section.runner.stop();
    const message = err.detail ? err.message : "The editor could not be loaded. Check the connection, then press Retry.";
    loader.fail(message, () => box.dispatchEvent(new Event(RETRY_EVENT)));
    err.shown = true;
    throw err; // the loader marks the section data-widget-state="error"
  }
  listenToThePage(section);
  const note = h("p", { class: "practice__storage-note", "data-storage-note": "", hidden: true });
  loaderBox.after(note);
  section.store.onTrouble = (kind) => {
    note.textContent = kind === "full"
      ? "Your browser's storage for this site is full, so the code you type here will not be kept when you leave the page."
      : "Your browser does not let this site keep data, so the code you type here will not be kept when you leave the page.";
    note.hidden = false;
  };
  section.store.get(STORAGE_PREFIX + "probe"); // blocked storage shows at once, not at the first save
  const steps = new Map(manifest.steps.map((s) => [s.id, s]));
  for (const container of box.querySelectorAll(".practice__runner[data-step]")) {
    const step = steps.get(container.dataset.step);
    if (step) buildStep(section, container, step, editorModule);
  }
  return section;
}

/** Start the section's worker, reporting its progress to the section's loader line. */
function startPython(section, manifest, loader) {
  section.runner = new PythonWorker(manifest, {
    onProgress: (loaded, total) => loader.progress(loaded, total),
    onReady: (ms) => loader.ready(ms),
    onRestart: () => loader.restart(),
    onFail: (err) => loader.fail(err.message, () => section.runner.ensure().catch(() => {})),
  });
  section.runner.ensure().catch(() => {}); // onFail says what failed, with a Retry
}
