// The page's one renderer of a practice run: the verdict line, the list of checks, the
// tiers of help and what the code printed, all built from the plain data the harness
// reports (Result.as_dict in _harness.py, through the worker). The command line has its
// own formatter of the same data (report_text in _harness.py); the labels below are the
// page's. The pure functions (no DOM) are unit-tested with node --test.
import { h, svg } from "../lib/dom.js";
import { printedView, summaryText, timeoutText, verdictText } from "./lib.js";

/** The page's label of each field of a result. */
export const LABELS = {
  call: "Call",
  actual: "Your answer",
  expected: "Expected",
  tolerance: "Tolerance",
  detail: "What differs",
  error: "Error",
  line: "Line",
};

/**
 * What a failed check shows at once, before any help is asked for: Python's own words,
 * the error and the line it happened on. `[[label, value, field]]`, empty ones left out.
 */
export function shownAtOnce(result) {
  if (!result || result.passed) return [];
  const rows = [
    ["Error", result.error, "error"],
    ["Line", result.line ? `${result.line}: ${result.code || ""}`.trim() : "", "line"],
  ];
  return rows.filter(([, value]) => value);
}

/**
 * The second tier of help: the fields the harness names in `result.tiers.call`, in its
 * order, labelled (`[[label, value]]`); a field the page has no label for, or an empty
 * one, is left out.
 */
export function callRows(result) {
  const fields = (result && result.tiers && Array.isArray(result.tiers.call)) ? result.tiers.call : [];
  return fields
    .filter((field) => Object.hasOwn(LABELS, field) && typeof result[field] === "string" && result[field])
    .map((field) => [LABELS[field], result[field]]);
}

/** The first tier of help: the hint's words (or, if the check gave none, where to look). */
export function nudgeText(result) {
  const words = (result && ((result.tiers && result.tiers.nudge) || result.hint_text)) || "";
  return words || "Read the failing check's name: it says what the checks expect.";
}

/** The short line of a run that was stopped for taking longer than `runMs`. */
export function stoppedText(runMs) {
  return `Stopped after ${Math.round(runMs / 1000)} seconds: is there an endless loop?`;
}

// --- DOM ------------------------------------------------------------------------------------

/** The pass or fail mark (an SVG: headless browsers have no emoji font). */
export function mark(passed) {
  return svg("svg", { viewBox: "0 0 16 16", class: "practice__mark", "aria-hidden": "true", focusable: "false" },
    svg("path", { d: passed ? "M3 8.5l3.2 3.2L13 4.8" : "M4 4l8 8M12 4l-8 8" }));
}

function codeBlock(text) {
  return h("pre", {}, h("code", { tabindex: "0" }, text));
}

/**
 * Fill `box` with a run's outcome: what the code printed, then either the one-line
 * verdict of a run that did not report (time-out, crash, tampering) or the list of
 * checks, where a failure shows only Python's own error and line (with a button that
 * moves the editor there). The help is held back for the tiers (tierContent).
 */
export function renderResults(box, outcome, { editor, runMs }) {
  box.replaceChildren();
  const printed = outcome.kind === "result" ? printedView(outcome.report.printed) : null;
  if (printed) {
    box.append(h("div", { class: "practice__printed", "data-printed": "" },
      h("p", { class: "practice__printed-title" }, "What your code printed"),
      codeBlock(printed.text),
      printed.note ? h("p", { class: "practice__printed-note" }, printed.note) : null));
  }
  if (outcome.kind !== "result") {
    const timeout = outcome.kind === "timeout";
    box.append(h("p", { class: timeout ? "practice__timeout" : "practice__crash", "data-outcome": outcome.kind },
      timeout ? timeoutText(runMs) : outcome.message));
    if (outcome.details) {
      // What Python itself said: for the curious, folded away from the verdict.
      box.append(h("details", { class: "practice__details" }, h("summary", {}, "What Python said"), codeBlock(outcome.details)));
    }
    return;
  }
  const list = h("ol", { class: "practice__checks" });
  for (const r of outcome.report.results) {
    const rows = shownAtOnce(r).map(([label, value, field]) => {
      const go = field === "line" && editor
        ? h("button", { type: "button", class: "practice__goto" }, `go to line ${r.line}`)
        : null;
      if (go) go.addEventListener("click", () => editor.goToLine(r.line));
      return [h("dt", {}, label), h("dd", {}, h("code", {}, value), go ? [" ", go] : null)];
    });
    list.append(h("li", { class: r.passed ? "practice__check is-pass" : "practice__check is-fail", "data-hint": r.hint || null },
      h("span", { class: "practice__check-name" },
        mark(r.passed), h("span", { class: "practice__verdict" }, r.passed ? "passed" : "failed"), " ", r.name),
      rows.length ? h("dl", { class: "practice__detail" }, rows) : null));
  }
  box.append(list);
}

/** The content of tier `n` (0: the nudge, 1: the failing call) for the first failure. */
export function tierContent(n, failure) {
  if (n === 0) {
    return h("p", { class: "practice__hint", "data-tier": "nudge" }, h("strong", {}, "Hint: "), nudgeText(failure));
  }
  const rows = callRows(failure);
  return h("div", { class: "practice__tier", "data-tier": "call" },
    h("p", { class: "practice__tier-title" }, h("strong", {}, "The failing check: "), failure.name),
    rows.length
      ? h("dl", { class: "practice__detail" }, rows.map(([label, value]) => [h("dt", {}, label), h("dd", {}, h("code", {}, value))]))
      : h("p", {}, "No call was made: Python stopped before it could call your function, at the error shown above."));
}

/** Fill the live status line: a short visible verdict, and for screen readers the
 *  first failure's name, line and where the help is. */
export function showStatus(status, outcome, { runMs }) {
  status.replaceChildren();
  if (outcome.kind !== "result") {
    status.dataset.outcome = outcome.kind;
    status.append(mark(false), outcome.kind === "timeout" ? stoppedText(runMs) : outcome.message);
    return;
  }
  const { report } = outcome;
  const allPassed = report.passed === report.total;
  status.dataset.outcome = allPassed ? "pass" : "fail";
  const verdict = verdictText(report);
  status.append(mark(allPassed), verdict, allPassed ? " Well done." : "");
  const first = report.results.find((r) => !r.passed);
  if (first) {
    let more = "";
    if (verdict === summaryText(report)) { // else the verdict has named what and where
      more += ` First failure: ${first.name}.`;
      if (first.line) more += ` Line ${first.line}.`;
    }
    more += " Help comes in three steps, each with the button after the results.";
    status.append(h("span", { class: "visually-hidden" }, more));
  }
}
