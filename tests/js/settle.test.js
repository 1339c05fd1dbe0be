// Unit tests of the batching that docs/javascripts/settle.js uses to let skipped blocks
// render a few per frame. Oracles: batches and budgets worked out by hand.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { batchEnd, nextBudget, skippedSelector, TARGET_MS } from "../../docs/javascripts/settle.js";

/** Every batch of `sizes` under a fixed budget, as [start, end) pairs. */
function allBatches(sizes, budget) {
  const out = [];
  for (let start = 0; start < sizes.length; ) {
    const end = batchEnd(sizes, start, budget);
    out.push([start, end]);
    start = end;
  }
  return out;
}

test("consecutive blocks fill a batch up to the budget", () => {
  assert.deepEqual(allBatches([100, 50, 60, 10, 200], 200), [[0, 2], [2, 4], [4, 5]]);
  assert.deepEqual(allBatches([1, 1, 1], 2), [[0, 2], [2, 3]]);
  assert.equal(batchEnd([5, 5, 5], 1, 10), 3);
});

test("a block larger than the budget is a batch of its own", () => {
  assert.deepEqual(allBatches([10, 500, 10], 200), [[0, 1], [1, 2], [2, 3]]);
});

test("every block lands in exactly one batch, in page order", () => {
  const sizes = Array.from({ length: 103 }, (_, i) => (i * 37) % 251);
  const covered = allBatches(sizes, 60).flatMap(([a, b]) => Array.from({ length: b - a }, (_, k) => a + k));
  assert.deepEqual(covered, sizes.map((_, i) => i));
});

test("the next budget aims at the target time from the last batch's cost", () => {
  // 100 elements in 8 ms: 0.08 ms each; 4 ms buys 50.
  assert.equal(nextBudget(100, 8, 4), 50);
  // 100 elements in 1 ms: 400 would fit, but a budget at most doubles: 200.
  assert.equal(nextBudget(100, 1, 4), 200);
  // Very slow: never below 10 elements. Instant: capped at 2000.
  assert.equal(nextBudget(10, 1000, 4), 10);
  assert.equal(nextBudget(5000, 0, 4), 2000);
  assert.ok(TARGET_MS > 0 && 4 * TARGET_MS < 50, "a batch on a phone 4x slower stays short of a long task");
});

test("a bad budget is named", () => {
  assert.throws(() => batchEnd([1], 0, 0), /budget must be positive, got 0/);
});

test("the skipped blocks are read from the stylesheet's content-visibility rules", () => {
  // Stand-ins for CSSOM objects: a sheet of rules, one inside a media rule, and a sheet
  // of another origin, whose cssRules getter throws as a browser's does.
  const rule = (selectorText, props) => ({ selectorText, style: { getPropertyValue: (n) => props[n] ?? "" } });
  const sheets = [
    { cssRules: [rule("p", { color: "red" }), rule(".far > *", { "content-visibility": "auto" })] },
    { get cssRules() { throw new Error("SecurityError"); } },
    { cssRules: [{ cssRules: [rule(".cell", { "content-visibility": "auto" }), rule(".x", { "content-visibility": "visible" })] }] },
  ];
  assert.equal(skippedSelector(sheets), ".far > *, .cell");
  assert.equal(skippedSelector([{ cssRules: [rule("p", {})] }]), "");
});

test("the site's stylesheets skip blocks in one rule only", () => {
  for (const name of ["extra.css", "widget.css", "heatmap.css", "heads.css", "explorer.css", "practice.css"]) {
    const css = readFileSync(new URL(`../../docs/stylesheets/${name}`, import.meta.url), "utf8");
    const count = (css.match(/content-visibility:\s*auto\s*;/g) || []).length;
    assert.equal(count, name === "extra.css" ? 1 : 0, `${name}: ${count} rules skip blocks`);
  }
});
