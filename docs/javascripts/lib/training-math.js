// The maths of lesson 4's training widget, as pure functions (tested by node --test in
// tests/js/training.test.js, and against attention_ref.induction in the browser tests).
//
// A map is a head's causal attention on the probe: row i (a query) holds the weights of
// keys 0..i, in the record's thousandths; the scores are those of attention_ref.induction.
import { check } from "./dom.js";

/** ln 26: the loss, in nats, of a model that spreads its bets evenly over the letters. */
export const UNIFORM_LOSS = Math.log(26);

/**
 * A causal map as a square matrix of weights in [0, 1]: row i padded with zeros after
 * its i + 1 entries, each entry divided by `scale`.
 * @param {number[][]} rows  (n, ragged) row i of length i + 1
 * @param {number} scale  e.g. 1000 for thousandths
 * @returns {number[][]}  (n, n)
 */
export function square(rows, scale) {
  check(scale > 0, `square: the scale must be positive, got ${scale}`);
  const n = rows.length;
  return rows.map((row, i) => {
    check(row.length === i + 1, `square: row ${i} has ${row.length} weights, a causal row ${i + 1}`);
    return Array.from({ length: n }, (_, j) => (j <= i ? row[j] / scale : 0));
  });
}

/**
 * The previous-token score: the mean over queries 1..n-1 of the weight each gives to the
 * position just before it (attention_ref.induction.previous_token_score).
 * @param {number[][]} w  (n, n) weights
 * @returns {number}
 */
export function previousTokenScore(w) {
  const n = w.length;
  check(n >= 2, `previousTokenScore: needs at least 2 positions, got ${n}`);
  let sum = 0;
  for (let i = 1; i < n; i++) sum += w[i][i - 1];
  return sum / (n - 1);
}

/**
 * The induction score on a probe [start, a_1..a_half, a_1..a_{half-1}]: the mean over
 * j = 1..half-1 of the weight from the repeat's a_j (position half + j) to the token that
 * followed its first copy (position j + 1) (attention_ref.induction.induction_score).
 * @param {number[][]} w  (n, n) weights, n >= 2 * half
 * @param {number} half
 * @returns {number}
 */
export function inductionScore(w, half) {
  check(half >= 2 && w.length >= 2 * half, `inductionScore: ${w.length} positions cannot hold a repeat of ${half}`);
  let sum = 0;
  for (let j = 1; j < half; j++) sum += w[half + j][j + 1];
  return sum / (half - 1);
}

/**
 * SVG polyline points of a loss curve: step 0..maxStep left to right, loss 0..maxLoss
 * bottom to top, in a plot of `width` x `height` user units.
 * @param {number[]} steps
 * @param {number[]} losses  one per step, in nats
 * @returns {string}  "x,y x,y …" with one decimal
 */
export function curvePoints(steps, losses, { maxStep, maxLoss, width, height }) {
  check(steps.length === losses.length, `curvePoints: ${steps.length} steps but ${losses.length} losses`);
  check(maxStep > 0 && maxLoss > 0, "curvePoints: the axes need positive ranges");
  return steps
    .map((s, i) => {
      check(Number.isFinite(losses[i]), `curvePoints: the loss at step ${s} is ${losses[i]}`);
      const x = (s / maxStep) * width;
      const y = height - (Math.min(losses[i], maxLoss) / maxLoss) * height;
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(" ");
}

/**
 * Every head's scores at one checkpoint.
 * @param {number[][][][]} maps  (layers, heads, n, ragged) thousandths
 * @returns {{previous: number, induction: number}[][]}  (layers, heads)
 */
export function headScores(maps, half, scale) {
  return maps.map((layer) =>
    layer.map((rows) => {
      const w = square(rows, scale);
      return { previous: previousTokenScore(w), induction: inductionScore(w, half) };
    }),
  );
}

/**
 * What the widget says about one checkpoint, in one sentence a screen reader announces.
 * @returns {string}
 */
export function describeCheckpoint(step, first, repeat, scores) {
  const prev = Math.max(...scores[0].map((s) => s.previous));
  const ind = Math.max(...scores[scores.length - 1].map((s) => s.induction));
  return (
    `Step ${step}: the first half costs ${first.toFixed(2)} nats, the repeat ${repeat.toFixed(2)}; ` +
    `best previous-token score in layer 1 ${prev.toFixed(2)}, ` +
    `best induction score in layer ${scores.length} ${ind.toFixed(2)}.`
  );
}
