// The practice runner's pure helpers (docs/javascripts/practice/lib.js).
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  PRINT_LIMIT,
  STORAGE_PREFIX,
  TIERS,
  TIME_LIMIT_MS,
  capPrinted,
  detailRows,
  formatMB,
  manifestPath,
  printedView,
  progressFraction,
  progressText,
  storageKeys,
  summaryText,
  tierButtonText,
  timeoutText,
} from "../../docs/javascripts/practice/lib.js";

test("storage keys are per step and reject anything that is not a step id", () => {
  assert.deepEqual(storageKeys("03_softmax"), {
    code: `${STORAGE_PREFIX}03_softmax/code`,
    failed: `${STORAGE_PREFIX}03_softmax/failed`,
  });
  assert.notEqual(storageKeys("01_dot").code, storageKeys("02_scores").code);
  assert.throws(() => storageKeys("softmax"), /not a practice step id: softmax/);
  assert.throws(() => storageKeys("01_dot/../x"), /not a practice step id/);
});

test("each lesson has its own manifest, named by the section's data-practice", () => {
  assert.equal(manifestPath("attention"), "practice/attention/manifest.json");
  assert.equal(manifestPath("self-attention"), "practice/self-attention/manifest.json");
  // An empty attribute (data-practice with no value), or anything that is not a page
  // slug, fails with a message the page can show.
  assert.throws(() => manifestPath(""), /names no lesson \(data-practice=""\)/);
  assert.throws(() => manifestPath(undefined), /names no lesson/);
  assert.throws(() => manifestPath("../x"), /names no lesson/);
  assert.throws(() => manifestPath("Attention"), /names no lesson/);
});

test("megabytes with one decimal, and bad byte counts are refused", () => {
  assert.equal(formatMB(8647684), "8.6 MB");
  assert.equal(formatMB(0), "0.0 MB");
  assert.throws(() => formatMB(-1), /not a byte count/);
  assert.throws(() => formatMB(NaN), /not a byte count/);
});

test("progress text and fraction stay within the total", () => {
  assert.equal(progressText(3_100_000, 12_200_000), "Loading Python in your browser: 3.1 MB of 12.2 MB");
  assert.equal(progressText(12_199_999, 12_200_000), "Loading Python in your browser: 12.2 MB of 12.2 MB");
  assert.equal(progressText(13_000_000, 12_200_000), "Downloaded; starting Python…");
  assert.equal(progressFraction(5, 10), 0.5);
  assert.equal(progressFraction(20, 10), 1);
  assert.equal(progressFraction(-1, 10), 0);
  assert.equal(progressFraction(5, 0), 0);
});

test("summary counts the passed checks", () => {
  assert.equal(summaryText({ passed: 3, total: 10 }), "3 of 10 checks passed.");
  assert.equal(summaryText({ passed: 10, total: 10 }), "All 10 checks passed.");
  assert.equal(summaryText({ passed: 0, total: 0 }), "0 of 0 checks passed.");
});

test("detail rows keep the reading order and drop empty fields", () => {
  const rows = detailRows({
    call: "softmax(scores=[1000, 999])",
    actual: "",
    expected: "[0.731059, 0.268941]",
    tolerance: "±1e-06",
    detail: "",
    error: "OverflowError: math range error",
    line: 5,
    code: "exps = [math.exp(s) for s in scores]",
  });
  assert.deepEqual(
    rows.map(([label]) => label),
    ["Call", "Expected", "Tolerance", "Error", "Line"],
  );
  assert.equal(rows.at(-1)[1], "5: exps = [math.exp(s) for s in scores]");
  assert.deepEqual(detailRows({ call: "f()", line: null }), [["Call", "f()"]]);
});

test("the time-out message names the limit and the restart", () => {
  assert.ok(TIME_LIMIT_MS >= 2000 && TIME_LIMIT_MS <= 10000);
  assert.match(timeoutText(), /^Stopped after 5 seconds/);
  assert.match(timeoutText(3000), /after 3 seconds.*endless loop.*restarted/s);
});

test("printed output is capped as the harness caps it, with a note when cut", () => {
  assert.equal(PRINT_LIMIT, 400);
  assert.deepEqual(capPrinted(["ab", "c"], 10), { text: "ab\nc\n", total: 5, cut: 0, limit: 10 });
  assert.deepEqual(capPrinted(["abcdef"], 4), { text: "abcd", total: 7, cut: 3, limit: 4 });
  assert.deepEqual(capPrinted(undefined), { text: "", total: 0, cut: 0, limit: PRINT_LIMIT });
  assert.equal(printedView({ text: "", total: 0, cut: 0, limit: 400 }), null);
  assert.equal(printedView(null), null);
  assert.deepEqual(printedView({ text: "hi\n", total: 3, cut: 0, limit: 400 }), { text: "hi", note: "" });
  assert.deepEqual(printedView(capPrinted(["x".repeat(450)])), {
    text: "x".repeat(400),
    note: "Only the first 400 characters are shown (51 more were printed).",
  });
});

test("the three tiers of help are offered in order", () => {
  assert.deepEqual(TIERS, ["a nudge", "the failing call", "a solution"]);
  assert.equal(tierButtonText(0), "Show a hint (1 of 3)");
  assert.equal(tierButtonText(1), "Show the failing call (2 of 3)");
  assert.equal(tierButtonText(2), "Show a solution (3 of 3)");
  assert.throws(() => tierButtonText(3), /no hint tier 3/);
});
