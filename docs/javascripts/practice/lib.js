// Pure helpers of the practice runner (no DOM), unit-tested with node --test.

/** How long one run may take before the worker is stopped (an endless loop). */
export const TIME_LIMIT_MS = 5000;

/** Prefix of every localStorage key of the practice section. */
export const STORAGE_PREFIX = "attention-practice/v1/";

/** The localStorage keys of one step: the reader's code, and whether a run has failed. */
export function storageKeys(stepId) {
  if (!/^\d\d_[a-z0-9_]+$/.test(stepId)) throw new Error(`not a practice step id: ${stepId}`);
  return { code: `${STORAGE_PREFIX}${stepId}/code`, failed: `${STORAGE_PREFIX}${stepId}/failed` };
}

/** Where a lesson's exercises are, relative to the site root: the practice section names
 *  its lesson (`data-practice="self-attention"`) and loads that lesson's manifest only. */
export function manifestPath(lesson) {
  if (typeof lesson !== "string" || !/^[a-z][a-z0-9-]*$/.test(lesson)) {
    throw new Error(`the practice section names no lesson (data-practice="${lesson ?? ""}")`);
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

/**
 * The rows shown under a failed check, in reading order, without the empty ones.
 * @returns {Array<[string, string]>}
 */
export function detailRows(result) {
  const rows = [
    ["Call", result.call],
    ["Your answer", result.actual],
    ["Expected", result.expected],
    ["Tolerance", result.tolerance],
    ["What differs", result.detail],
    ["Error", result.error],
    ["Line", result.line ? `${result.line}: ${result.code || ""}`.trim() : ""],
  ];
  return rows.filter(([, value]) => value);
}

/** The message when a run was stopped for taking too long. */
export function timeoutText(ms = TIME_LIMIT_MS) {
  return (
    `Stopped after ${Math.round(ms / 1000)} seconds: your code is still running, ` +
    "probably an endless loop (a while loop whose condition never becomes false?). " +
    "Python was restarted; the next run starts fresh."
  );
}

/** How many characters of the reader's printed output are shown (as the harness keeps). */
export const PRINT_LIMIT = 400;

/**
 * Output lines (as the worker collects them when the harness itself could not run)
 * in the harness's shape: the first `limit` characters, and how many were cut.
 */
export function capPrinted(lines, limit = PRINT_LIMIT) {
  const all = (lines || []).map((line) => `${line}\n`).join("");
  const text = all.slice(0, limit);
  return { text, total: all.length, cut: all.length - text.length, limit };
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
