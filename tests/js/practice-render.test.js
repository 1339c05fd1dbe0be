// The practice page's renderer, its pure part (docs/javascripts/practice/render.js): what
// a result from the harness shows at once and in each tier. The rows are written by hand,
// in the shape the harness reports (Result.as_dict in _harness.py).
import { test } from "node:test";
import assert from "node:assert/strict";

import { LABELS, callRows, nudgeText, shownAtOnce, stoppedText } from "../../docs/javascripts/practice/render.js";

const WRONG = {
  name: "negative entries",
  passed: false,
  call: "dot(a=[1], b=[-2])",
  actual: "2",
  expected: "-2",
  tolerance: "±1e-06 (relative for values larger than 1)",
  error: "",
  line: null,
  code: "",
  hint: "dot-wrong",
  detail: "the answer is 2, expected -2",
  hint_text: "Keep the sign.",
  tiers: { nudge: "Keep the sign.", call: ["call", "actual", "expected", "tolerance", "detail"] },
};

const CRASHED = {
  ...WRONG,
  name: "large scores must not overflow",
  actual: "",
  tolerance: "",
  detail: "",
  error: "OverflowError: math range error",
  line: 5,
  code: "exps = [math.exp(s) for s in scores]",
  hint_text: "Subtract the maximum.",
  tiers: { nudge: "Subtract the maximum.", call: ["call", "expected"] },
};

test("a wrong answer shows nothing at once; its second tier is the call and both answers", () => {
  assert.deepEqual(shownAtOnce(WRONG), []);
  assert.deepEqual(callRows(WRONG), [
    ["Call", "dot(a=[1], b=[-2])"],
    ["Your answer", "2"],
    ["Expected", "-2"],
    ["Tolerance", "±1e-06 (relative for values larger than 1)"],
    ["What differs", "the answer is 2, expected -2"],
  ]);
  assert.equal(nudgeText(WRONG), "Keep the sign.");
});

test("Python's error and line come at once; the tier keeps the harness's fields and order", () => {
  assert.deepEqual(shownAtOnce(CRASHED), [
    ["Error", "OverflowError: math range error", "error"],
    ["Line", "5: exps = [math.exp(s) for s in scores]", "line"],
  ]);
  assert.deepEqual(callRows(CRASHED), [["Call", "dot(a=[1], b=[-2])"], ["Expected", "-2"]]);
  // A line without its code still names the line.
  assert.deepEqual(shownAtOnce({ ...CRASHED, error: "", code: "" }), [["Line", "5:", "line"]]);
});

test("a passed check shows nothing, and odd tiers are read safely", () => {
  assert.deepEqual(shownAtOnce({ ...WRONG, passed: true }), []);
  assert.deepEqual(callRows({ ...WRONG, tiers: { nudge: "", call: [] } }), []);
  assert.deepEqual(callRows({ ...WRONG, tiers: undefined }), []);
  // A field the page has no label for, or one that is not text, is left out.
  assert.deepEqual(callRows({ ...WRONG, tiers: { call: ["name", "passed", "actual", "__proto__"] } }), [["Your answer", "2"]]);
  assert.deepEqual(Object.keys(LABELS), ["call", "actual", "expected", "tolerance", "detail", "error", "line"]);
});

test("the nudge falls back to the hint's words, then to where to look", () => {
  assert.equal(nudgeText({ hint_text: "Add.", tiers: undefined }), "Add.");
  assert.equal(nudgeText({ hint_text: "", tiers: { nudge: "", call: [] } }), "Read the failing check's name: it says what the checks expect.");
});

test("the stopped line names the manifest's time limit in seconds", () => {
  assert.equal(stoppedText(5000), "Stopped after 5 seconds: is there an endless loop?");
  assert.equal(stoppedText(2500), "Stopped after 3 seconds: is there an endless loop?");
});
