// Unit tests of the batching that docs/javascripts/settle.js uses to let skipped blocks
// render a few per frame. Oracles: batches worked out by hand.
import { test } from "node:test";
import assert from "node:assert/strict";

import { readFileSync } from "node:fs";

import { batches, BATCH, SKIPPED } from "../../docs/javascripts/settle.js";

test("consecutive blocks fill a batch up to the limit", () => {
  assert.deepEqual(batches([100, 50, 60, 10, 200], 200), [[0, 1], [2, 3], [4]]);
  assert.deepEqual(batches([1, 1, 1], 2), [[0, 1], [2]]);
});

test("a block larger than the limit is a batch of its own", () => {
  assert.deepEqual(batches([10, 500, 10], 200), [[0], [1], [2]]);
});

test("every block lands in exactly one batch, in page order", () => {
  const sizes = Array.from({ length: 103 }, (_, i) => (i * 37) % 251);
  const flat = batches(sizes, BATCH).flat();
  assert.deepEqual(flat, sizes.map((_, i) => i));
});

test("no blocks, no batches; a bad limit is named", () => {
  assert.deepEqual(batches([], 10), []);
  assert.throws(() => batches([1], 0), /limit must be positive, got 0/);
});

test("the script settles exactly the blocks the stylesheet skips", () => {
  const css = readFileSync(new URL("../../docs/stylesheets/extra.css", import.meta.url), "utf8");
  assert.ok(css.includes(`${SKIPPED} {`), "extra.css and settle.js name different blocks");
});
