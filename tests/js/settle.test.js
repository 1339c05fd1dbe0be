// Unit tests of the batching that docs/javascripts/settle.js uses to let skipped blocks
// render a few per frame. Oracles: batches and budgets worked out by hand.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { batchEnd, nextBudget, SKIPPED, TARGET_MS } from "../../docs/javascripts/settle.js";

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
  assert.ok(TARGET_MS > 0 && TARGET_MS <= 5, "a frame stays far from a long task");
});

test("a bad budget is named", () => {
  assert.throws(() => batchEnd([1], 0, 0), /budget must be positive, got 0/);
});

test("the script settles exactly the blocks the stylesheet skips", () => {
  const css = readFileSync(new URL("../../docs/stylesheets/extra.css", import.meta.url), "utf8");
  assert.ok(css.includes(`${SKIPPED} {`), "extra.css and settle.js name different blocks");
});
