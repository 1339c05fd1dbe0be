// Pure helpers of the practice runner (no DOM), unit-tested with node --test. The
// limits (how long a run may take, how long start-up may stall, how much printed output
// is kept) are not written here: the harness declares them (LIMITS in _harness.py) and
// the page reads them from the lesson's manifest (limitsOf).

/** Prefix of every localStorage key of the practice section. */
export const STORAGE_PREFIX = "attention-practice/v1/";

/** The localStorage keys of one step: the reader's code, and whether a run has failed. */
export function storageKeys(stepId) {
  if (!/^\d\d_[a-z0-9_]+$/.test(stepId)) throw new Error(`not a practice step id: ${stepId}`);
  return { code: `${STORAGE_PREFIX}${stepId}/code`, failed: `${STORAGE_PREFIX}${stepId}/failed` };
}

/** Where a lesson's exercises are, relative to the site root: the practice section names
 *  its lesson (`data-lesson="self-attention"`) and loads that lesson's manifest only. */
export function manifestPath(lesson) {
  if (typeof lesson !== "string" || !/^[a-z][a-z0-9-]*$/.test(lesson)) {
    throw new Error(`the practice section names no lesson (data-lesson="${lesson ?? ""}")`);
  }
  return `practice/${lesson}/manifest.json`;
}

/** Bytes as megabytes with one decimal: 8647684 -> "8.6 MB". */
export function formatMB(bytes) {
  if (!Number.isFinite(bytes) || bytes < 0) throw new Error(`not a byte count: ${bytes}`);
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/** The loading line: "Loading Python in your browser: 3.1 MB of 12.2 MB", then, once
 *  every byte has arrived, "Starting Python…" while the interpreter initialises. */
export function progressText(loaded, total) {
  if (total > 0 && loaded >= total) return "Downloaded; starting Python…";
  const shown = Math.min(loaded, total);
  return `Loading Python in your browser: ${formatMB(shown)} of ${formatMB(total)}`;
}

/** Progress as a fraction in [0, 1]. */
export function progressFraction(loaded, total) {
  if (!(total > 0)) return 0;
  return Math.max(0, Math.min(1, loaded / total));
}

/** The summary of a report: "3 of 10 checks passed" or "All 10 checks passed". */
export function summaryText(report) {
  const { passed, total } = report;
  if (total > 0 && passed === total) return `All ${total} checks passed.`;
  return `${passed} of ${total} checks passed.`;
}

/** The message when a run was stopped for taking too long. */
export function timeoutText(ms) {
  return (
    `Stopped after ${Math.round(ms / 1000)} seconds: your code is still running, ` +
    "probably an endless loop (a while loop whose condition never becomes false?). " +
    "Python was restarted; the next run starts fresh."
  );
}

/** What the page shows of the printed output: the text and a note when it was cut,
 *  or null when nothing was printed. */
export function printedView(printed) {
  if (!printed || !printed.total) return null;
  const note = printed.cut > 0
    ? `Only the first ${printed.limit} characters are shown (${printed.cut} more were printed).`
    : "";
  return { text: printed.text.replace(/\n$/, ""), note };
}

/** The tiers of help after a failure, in the order they are revealed on request. */
export const TIERS = ["a nudge", "the failing call", "a solution"];

/** The label of the button that reveals tier `next` (0-based) of the three. */
export function tierButtonText(next) {
  if (!(Number.isInteger(next) && next >= 0 && next < TIERS.length)) {
    throw new RangeError(`there is no hint tier ${next}`);
  }
  const verbs = ["Show a hint", "Show the failing call", "Show a solution"];
  return `${verbs[next]} (${next + 1} of ${TIERS.length})`;
}

// --- start-up ----------------------------------------------------------------------------

/** What each file of Pyodide is, in a learner's words. */
const FILE_NAMES = {
  "pyodide.js": "Python's loader (pyodide.js)",
  "pyodide.asm.js": "Python's loader (pyodide.asm.js)",
  "pyodide.asm.wasm": "Python itself (pyodide.asm.wasm)",
  "python_stdlib.zip": "Python's standard library (python_stdlib.zip)",
  "pyodide-lock.json": "Python's package list (pyodide-lock.json)",
};

function fileName(file) {
  return FILE_NAMES[file] || (file ? `the file ${file}` : "a file");
}

/**
 * The message when Python could not start, from what the worker or the page saw:
 * `{reason: "http", file, status}`, `{reason: "short"|"broken", file, loaded, expected}`,
 * `{reason: "network", file}`, `{reason: "stalled", loaded, total, ms}`,
 * `{reason: "manifest", problem}`, `{reason: "exception", message}`.
 */
export function startFailureText(detail) {
  const d = detail || {};
  const tail = " Check the connection, then press Retry.";
  let why;
  switch (d.reason) {
    case "http":
      why = `${fileName(d.file)} could not be downloaded (the server answered HTTP ${d.status}).`;
      break;
    case "short":
      why = `${fileName(d.file)} arrived incomplete (${formatMB(d.loaded || 0)} of ${formatMB(d.expected || 0)}).`;
      break;
    case "broken":
      why = `the download of ${fileName(d.file)} broke off.`;
      break;
    case "network":
      why = `${fileName(d.file)} could not be downloaded (no connection to the site).`;
      break;
    case "loader":
      why = `${fileName(d.file)} could not be loaded (the site did not send it, or the connection failed).`;
      break;
    case "stalled": {
      const secs = Math.round((d.ms || 0) / 1000);
      why = d.total > 0 && d.loaded < d.total
        ? `the download stopped: no data for ${secs} s, at ${formatMB(d.loaded)} of ${formatMB(d.total)}.`
        : `it downloaded, but did not finish starting within ${secs} s.`;
      break;
    }
    case "manifest":
      return `Python could not start: ${d.problem}. Press Retry to load it again.`;
    default:
      why = d.message ? `${String(d.message).split("\n")[0].slice(0, 200)}.`.replace(/\.\.$/, ".") : "an unknown error.";
  }
  return `Python could not start: ${why}${tail}`;
}

/**
 * What is wrong with a lesson's manifest, in words a reader understands, or null when
 * it holds what the page needs: Pyodide's files, the runner's limits and at least one
 * step with its checks.
 */
export function manifestProblem(manifest, path = "manifest.json") {
  const list = `the list of exercises (${path})`;
  if (!manifest || typeof manifest !== "object" || Array.isArray(manifest)) return `${list} is not an object`;
  if (!Object.keys(manifest).length) return `${list} is empty`;
  const p = manifest.pyodide;
  if (!p || typeof p.index !== "string" || !(p.bytes > 0) || !p.files) return `${list} does not say where Python is`;
  if (typeof manifest.harness !== "string" || !manifest.harness) return `${list} has no check runner`;
  if (!limitsOf(manifest)) return `${list} does not give the runner's limits`;
  if (!Array.isArray(manifest.steps) || !manifest.steps.length) return `${list} has no exercise`;
  for (const s of manifest.steps) {
    if (!s || typeof s.id !== "string" || typeof s.checks !== "string" || typeof s.starter !== "string") {
      return `${list} has an exercise without its code or checks`;
    }
  }
  return null;
}

/**
 * The page's limits as the manifest carries them (declared once, by the harness):
 * `{runMs, startStallMs}`, or null when one is missing or not a positive number
 * (manifestProblem then refuses the manifest). The print limit comes with each report.
 */
export function limitsOf(manifest) {
  const given = (manifest && manifest.limits) || {};
  const limits = { runMs: given.run_ms, startStallMs: given.start_stall_ms };
  return Object.values(limits).every((v) => Number.isFinite(v) && v > 0) ? limits : null;
}

// --- what a run reports ------------------------------------------------------------------

/**
 * Why a report from the runner cannot be believed, or null. A report that claims every
 * check passed must name exactly the step's checks (`checkNames`, from the manifest,
 * computed when the site was built); any report must count its results honestly.
 */
export function reportProblem(report, checkNames) {
  if (!report || !Array.isArray(report.results)) return "the result holds no checks";
  const results = report.results;
  if (!results.every((r) => r && typeof r.name === "string" && typeof r.passed === "boolean")) {
    return "the result holds a check without a name";
  }
  const passed = results.filter((r) => r.passed).length;
  if (report.passed !== passed || report.total !== results.length) return "the result miscounts its checks";
  if (passed === results.length && Array.isArray(checkNames)) {
    const same = checkNames.length === results.length && checkNames.every((name, i) => results[i].name === name);
    if (!same) return `the result does not name this step's ${checkNames.length} checks`;
  }
  return null;
}

const RESTARTED = "Python was restarted, so the next run starts clean.";

/**
 * The one-line verdict of a run that changed what the checks rely on: `names` says
 * what changed (`json.dumps`, `_harness.compare`, `checks.cases`, `builtins.print`,
 * `sys.modules`, `js.postMessage`, `the report`), `line` the reader's line if known.
 */
export function tamperedText(names, line) {
  const list = (names || []).filter(Boolean);
  const at = Number.isInteger(line) && line > 0 ? ` (line ${line})` : "";
  if (list.includes("js.postMessage")) {
    return `Your code sent the page a message of its own (js.postMessage${at}), so this run does not count. ${RESTARTED}`;
  }
  if (list.includes("js.close")) {
    return `Your code closed the runner's worker (js.close()${at}), so this run does not count. ${RESTARTED}`;
  }
  if (list.includes("sys.modules")) {
    return `Your code emptied or replaced entries of sys.modules${at}, Python's table of loaded modules, so this run does not count. ${RESTARTED}`;
  }
  if (list.some((n) => n.startsWith("the report"))) {
    return `The result did not come from this step's checks (${list[0]}), so this run does not count. ${RESTARTED}`;
  }
  const shown = list.slice(0, 2).join(" and ") + (list.length > 2 ? ` and ${list.length - 2} more` : "");
  return `Your code changed ${shown || "the checks"}${at}, which the checks rely on, so this run does not count. ${RESTARTED}`;
}

/** The first character Python cannot read in source code (a lone surrogate or a NUL):
 *  `{line, code}` (1-based line, the code point), or null. */
export function unreadableCharacter(source) {
  const text = String(source);
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) line += 1;
    else if (c === 0) return { line, code: 0 };
    else if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i += 1; // a proper pair: one character
      else return { line, code: c };
    } else if (c >= 0xdc00 && c <= 0xdfff) return { line, code: c };
  }
  return null;
}

/** The one-line verdict for code holding a character Python cannot read. */
export function unreadableText({ line, code }) {
  const hex = code.toString(16).toUpperCase().padStart(4, "0");
  const what = code === 0 ? "a NUL character" : "half of a surrogate pair, a character on its own that no text can hold";
  return `Line ${line} holds U+${hex}, ${what}: Python cannot read it. Delete it and run again.`;
}

/**
 * The deepest bracket nesting of `source` ((, [, {), outside strings and comments, and
 * the line where it is first reached: `{depth, line}`.
 */
export function deepestNesting(source) {
  let depth = 0;
  let best = { depth: 0, line: 1 };
  let line = 1;
  let quote = null;
  const text = String(source);
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\n") line += 1;
    if (quote) {
      if (ch === "\\") i += 1;
      else if (text.startsWith(quote, i)) {
        i += quote.length - 1;
        quote = null;
      } else if (ch === "\n" && quote.length === 1) quote = null;
      continue;
    }
    if (ch === "#") {
      while (i + 1 < text.length && text[i + 1] !== "\n") i += 1;
    } else if (ch === "'" || ch === '"') {
      quote = text.startsWith(ch.repeat(3), i) ? ch.repeat(3) : ch;
      i += quote.length - 1;
    } else if ("([{".includes(ch)) {
      depth += 1;
      if (depth > best.depth) best = { depth, line };
    } else if (")]}".includes(ch)) depth = Math.max(0, depth - 1);
  }
  return best;
}

/** The line of the first `setrecursionlimit(` call in `source`, or null. */
export function recursionLimitLine(source) {
  const lines = String(source).split("\n");
  const i = lines.findIndex((l) => /setrecursionlimit\s*\(/.test(l.replace(/#.*/, "")));
  return i < 0 ? null : i + 1;
}

/**
 * The one-line verdict when Python itself broke during a run: `report.fatal` (Pyodide's
 * fatal error, e.g. its stack overflowed) or `report.crash` (the runner raised).
 */
export function crashText(report, source) {
  const message = String(report.fatal || report.crash || "");
  if (report.fatal && /call stack|stack overflow|recursion/i.test(message)) {
    const limit = recursionLimitLine(source);
    if (limit) {
      return `Your code recursed deeper than Python in the browser can go: sys.setrecursionlimit on line ${limit} ` +
        `raised the limit past what its stack holds. ${RESTARTED}`;
    }
    const { depth, line } = deepestNesting(source);
    if (depth >= 20) return `The code nests too deeply (${depth} brackets, line ${line}) for Python in the browser. ${RESTARTED}`;
    return `Your code went deeper than Python in the browser can go (its stack overflowed). ${RESTARTED}`;
  }
  const at = Number.isInteger(report.line) ? ` on line ${report.line}` : "";
  const what = message.split("\n")[0].slice(0, 120);
  return `Python crashed while running your code${at}${what ? ` (${what})` : ""}. ${RESTARTED}`;
}

/**
 * The one-line verdict of a report: the summary, or, when the reader's code stopped
 * Python itself (sys.exit, SystemExit, KeyboardInterrupt), what it did and where.
 */
export function verdictText(report) {
  const first = (report.results || []).find((r) => !r.passed);
  const error = (first && first.error) || "";
  const stopped = /^SystemExit\b/.test(error) ? "called sys.exit() (or raised SystemExit)"
    : /^KeyboardInterrupt\b/.test(error) ? "raised KeyboardInterrupt" : null;
  if (!stopped) return summaryText(report);
  const where = first.line ? ` on line ${first.line}` : "";
  const who = first.hint === "system-exit" ? "Your function" : "Your code";
  return `${who} ${stopped}${where}, which stops Python rather than returning an answer. ${summaryText(report)}`;
}
