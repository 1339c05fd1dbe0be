// Unit tests of lesson 4's training widget maths (docs/javascripts/lib/training-math.js).
// Oracles: small maps whose scores are worked out by hand in the comments. The scores of
// the committed run are compared with attention_ref.induction in
// tests/browser/test_training_widget.py.
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  UNIFORM_LOSS, curvePoints, describeCheckpoint, headScores, inductionScore,
  previousTokenScore, square,
} from "../../docs/javascripts/lib/training-math.js";

test("square pads each causal row with zeros and divides by the scale", () => {
  assert.deepEqual(square([[1000], [250, 750]], 1000), [[1, 0], [0.25, 0.75]]);
  assert.throws(() => square([[1000], [1000]], 1000), /row 1 has 1 weights, a causal row 2/);
  assert.throws(() => square([[1]], 0), /scale must be positive/);
});

test("previous-token score: the mean weight on the position just before", () => {
  // Rows 1 and 2 give 0.5 and 1.0 to the position before: (0.5 + 1.0) / 2 = 0.75.
  const w = [[1, 0, 0], [0.5, 0.5, 0], [0, 1, 0]];
  assert.equal(previousTokenScore(w), 0.75);
  // A head that always looks one token back scores 1 (the first row only has itself).
  assert.equal(previousTokenScore([[1, 0, 0], [1, 0, 0], [0, 1, 0]]), 1);
  assert.throws(() => previousTokenScore([[1]]), /at least 2 positions/);
});

test("induction score: the mean weight on the token after the first copy", () => {
  // half = 3: [start, a1, a2, a3, a1, a2]. Position 4 holds a1 (first copy at 1), so an
  // induction head looks at 2; position 5 holds a2 (first copy at 2) and looks at 3.
  const w = Array.from({ length: 6 }, (_, i) => Array.from({ length: 6 }, (_, j) => (j === i ? 1 : 0)));
  w[4] = [0, 0, 1, 0, 0, 0];
  w[5] = [0, 0, 0, 0.5, 0, 0.5];
  assert.equal(inductionScore(w, 3), (1 + 0.5) / 2);
  assert.throws(() => inductionScore(w, 4), /6 positions cannot hold a repeat of 4/);
});

test("headScores scores every head of every layer from thousandths", () => {
  // One layer, two heads, n = 6, half = 3 ([start, a1, a2, a3, a1, a2]). Head 1 looks back
  // one position everywhere: previous 1; from 4 and 5 it looks at 3 and 4, not at the
  // tokens after the first copies (2 and 3): induction 0. Head 2 looks at itself, except
  // row 3 (back, at 2) and rows 4 and 5 (at 2 and 3): previous 1/5 (only row 3 of rows
  // 1..5), induction (1 + 1) / 2 = 1.
  const row = (i, j) => Array.from({ length: i + 1 }, (_, k) => (k === j ? 1000 : 0));
  const back = [0, 1, 2, 3, 4, 5].map((i) => row(i, Math.max(0, i - 1)));
  const induct = [row(0, 0), row(1, 1), row(2, 2), row(3, 2), row(4, 2), row(5, 3)];
  const [[a, b]] = headScores([[back, induct]], 3, 1000);
  assert.deepEqual(a, { previous: 1, induction: 0 });
  assert.deepEqual(b, { previous: 1 / 5, induction: 1 });
});

test("the loss curve maps steps to x and nats to y, clipped at the top", () => {
  const axes = { maxStep: 100, maxLoss: 4, width: 200, height: 80 };
  assert.equal(curvePoints([0, 50, 100], [4, 2, 0], axes), "0.0,0.0 100.0,40.0 200.0,80.0");
  assert.equal(curvePoints([0], [9], axes), "0.0,0.0");
  assert.throws(() => curvePoints([0, 1], [1], axes), /2 steps but 1 losses/);
  assert.throws(() => curvePoints([0], [NaN], axes), /the loss at step 0 is NaN/);
});

test("ln 26 and the sentence read out for a checkpoint", () => {
  assert.ok(Math.abs(UNIFORM_LOSS - 3.258096538) < 1e-9);
  const scores = [[{ previous: 0.2, induction: 0 }, { previous: 0.81, induction: 0.1 }],
    [{ previous: 0.1, induction: 0.94 }, { previous: 0, induction: 0.5 }]];
  assert.equal(
    describeCheckpoint(160, 3.312, 1.234, scores),
    "Step 160: the first half costs 3.31 nats, the repeat 1.23; best previous-token score in layer 1 0.81, best induction score in layer 2 0.94.",
  );
});
