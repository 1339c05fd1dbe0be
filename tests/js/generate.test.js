// Unit tests of lesson 5's generation widget maths (docs/javascripts/lib/generate-math.js).
// Oracles: a one-layer model small enough to work out by hand (in the comments), a plain
// forward pass written here that recomputes every position from scratch with whole
// matrices (no cache), and multiply-add counts worked out by hand. The committed model is
// compared with attention_ref.induction.forward in tests/browser/test_generate_widget.py.
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  argmax, feed, groupDigits, isDone, layerCacheBytes, maxLetters, multiplyAdds, newCache,
  parsePrompt, prepare, softmax, startRun, stepRun, symbolOf,
} from "../../docs/javascripts/lib/generate-math.js";

const I2 = [[1, 0], [0, 1]];

/** Two letters, one layer, one head of width 2, no scaling, identity projections. */
function handModel() {
  return prepare({
    config: { d_model: 2, heads: 1, max_len: 4, scaled: false },
    layers: 1, vocab: 3, letters: "ab", start: 2,
    params: {
      W_E: [[1, 0], [0, 1], [0, 0]], W_pos: [[0, 0], [0, 0], [0, 0], [0, 0]],
      w_q0: I2, w_k0: I2, w_v0: I2, w_o0: I2, W_U: [[1, 0, 0], [0, 1, 0]],
    },
  });
}

test("feed reads one token at a time through the cache, as worked out by hand", () => {
  const model = handModel();
  const cache = newCache(model);
  // "a" at position 0: x = [1, 0], its only key is itself (weight 1), so z = v = [1, 0]
  // and x becomes [2, 0]; the logits are x @ W_U = [2, 0, 0].
  let out = feed(model, cache, 0);
  assert.deepEqual([...out.weights[0][0]], [1]);
  assert.deepEqual([...out.logits], [2, 0, 0]);
  // "b" at position 1: q = [0, 1], scores [0, 1] over the keys [1, 0] and [0, 1], weights
  // [1, e] / (1 + e); z = those weights, x = [0, 1] + z, logits = [x0, x1, 0].
  out = feed(model, cache, 1);
  const e = Math.E;
  const w = [1 / (1 + e), e / (1 + e)];
  out.weights[0][0].forEach((v, j) => assert.ok(Math.abs(v - w[j]) < 1e-15));
  assert.ok(Math.abs(out.logits[0] - w[0]) < 1e-15);
  assert.ok(Math.abs(out.logits[1] - (1 + w[1])) < 1e-15);
  assert.equal(out.logits[2], 0);
  assert.equal(cache[0].keys.length, 2);
  assert.equal(cache[0].values.length, 2);
  feed(model, cache, 2);
  feed(model, cache, 0);
  assert.throws(() => feed(model, cache, 0), /the context is full: the model has 4 positions/);
  assert.throws(() => feed(model, newCache(model), 3), /token 3 is not one of the 3 tokens/);
});

// ------------------------------------------------------------------ the recompute oracle

/** Numbers from a seeded linear congruential generator, in [-1, 1). */
function lcg(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s / 2 ** 32) * 2 - 1;
  };
}

function randomData(seed, { d = 8, heads = 2, layers = 2, maxLen = 9, letters = "abcde" }) {
  const r = lcg(seed);
  const m = (rows, cols) => Array.from({ length: rows }, () => Array.from({ length: cols }, r));
  const vocab = letters.length + 1;
  const params = { W_E: m(vocab, d), W_pos: m(maxLen, d), W_U: m(d, vocab) };
  for (let i = 0; i < layers; i++) for (const w of ["w_q", "w_k", "w_v", "w_o"]) params[`${w}${i}`] = m(d, d);
  return { config: { d_model: d, heads, max_len: maxLen, scaled: true }, layers, vocab, letters, start: letters.length, params };
}

const matmul = (a, b) => a.map((row) => b[0].map((_, j) => row.reduce((s, x, k) => s + x * b[k][j], 0)));

/** The whole sequence again, every position, with (n, n) causal scores: no cache. */
function recompute(data, tokens) {
  const { params, config } = data;
  const dHead = config.d_model / config.heads;
  let x = tokens.map((t, i) => params.W_E[t].map((e, c) => e + params.W_pos[i][c])); // (n, d)
  for (let l = 0; l < data.layers; l++) {
    const [q, k, v] = ["w_q", "w_k", "w_v"].map((w) => matmul(x, params[`${w}${l}`]));
    const z = x.map(() => new Array(config.d_model).fill(0)); // (n, d)
    for (let hd = 0; hd < config.heads; hd++) {
      const cols = Array.from({ length: dHead }, (_, c) => hd * dHead + c);
      for (let i = 0; i < tokens.length; i++) {
        const s = Array.from({ length: i + 1 }, (_, j) => cols.reduce((a, c) => a + q[i][c] * k[j][c], 0) / Math.sqrt(dHead));
        const top = Math.max(...s);
        const ex = s.map((v2) => Math.exp(v2 - top));
        const sum = ex.reduce((a, b) => a + b, 0);
        ex.forEach((p, j) => cols.forEach((c) => (z[i][c] += (p / sum) * v[j][c])));
      }
    }
    const o = matmul(z, params[`w_o${l}`]);
    x = x.map((row, i) => row.map((xi, c) => xi + o[i][c]));
  }
  return matmul(x, params.W_U); // (n, vocab)
}

test("a run with the cache writes what a recompute of the whole context predicts", () => {
  for (const seed of [1, 2, 3]) {
    const data = randomData(seed, {});
    const model = prepare(data);
    const run = startRun(model, [0, 1, 2]);
    let steps = 0;
    while (!isDone(model, run)) {
      const context = run.tokens.slice();
      const step = stepRun(model, run);
      const want = recompute(data, context).at(-1); // the last position's logits
      step.logits.forEach((v, j) => assert.ok(Math.abs(v - want[j]) < 1e-12, `seed ${seed}: ${v} vs ${want[j]}`));
      assert.equal(step.next, want.indexOf(Math.max(...want)));
      assert.equal(step.n, context.length);
      assert.equal(step.query, context.length - 1);
      assert.equal(step.weights.length, 2);
      for (const head of step.weights[1]) {
        assert.equal(head.length, context.length);
        assert.ok(Math.abs(head.reduce((a, b) => a + b, 0) - 1) < 1e-12);
      }
      steps += 1;
    }
    // The start token and three letters, then the model writes until the 9 positions are full.
    assert.equal(steps, 5);
    assert.equal(run.tokens.length, 9);
    assert.equal(run.cache[0].keys.length, 8); // the last token written is never read
    assert.throws(() => stepRun(model, run), /the context is full/);
  }
});

test("prepare names a weight of the wrong shape", () => {
  const data = randomData(4, {});
  data.params.w_k1 = data.params.w_k1.slice(1);
  assert.throws(() => prepare(data), /weights: w_k1 should have 8 rows, has 7/);
  const bad = randomData(4, {});
  bad.params.W_U[3][2] = null;
  assert.throws(() => prepare(bad), /W_U row 3 holds a value that is not a finite number/);
});

// ------------------------------------------------------------------------------ the rest

test("multiply-adds with and without the cache, counted by hand", () => {
  const sizes = { layers: 2, d: 32, vocab: 27 };
  // n = 1: one token either way, 2 (4·1024 + 2·32) + 32·27 = 2·4160 + 864 = 9184.
  assert.deepEqual(multiplyAdds(1, sizes), { cached: 9184, recompute: 9184 });
  // n = 10: with the cache 2 (4096 + 640) + 864 = 10336; without,
  // 2 (40960 + 110·32) + 10·864 = 2·44480 + 8640 = 97600.
  assert.deepEqual(multiplyAdds(10, sizes), { cached: 10336, recompute: 97600 });
  assert.throws(() => multiplyAdds(0, sizes), /n must be a whole number of tokens >= 1, got 0/);
});

test("a run adds up each step's saving", () => {
  const model = prepare(randomData(5, { d: 4, heads: 1, layers: 1, maxLen: 5 }));
  const run = startRun(model, [3]);
  // Steps at n = 2, 3, 4 tokens (L = 1, D = 4, V = 6). The first step feeds both prompt
  // tokens through the cache: (64 + 8 + 24) + (64 + 16 + 24) = 96 + 104 = 200, which is
  // what recomputing 2 tokens costs, (128 + 24 + 48) = 200: nothing saved. Then
  // n = 3: (192 + 48 + 72) - (64 + 24 + 24) = 312 - 112 = 200
  // n = 4: (256 + 80 + 96) - (64 + 32 + 24) = 432 - 120 = 312
  const saved = [];
  const costs = [];
  while (!isDone(model, run)) {
    const step = stepRun(model, run);
    saved.push(run.saved);
    costs.push([step.fed, step.cost.cached, step.cost.recompute]);
  }
  assert.deepEqual(costs, [[2, 200, 200], [1, 112, 312], [1, 120, 432]]);
  assert.deepEqual(saved, [0, 200, 512]);
});

test("the cache's bytes: a key and a value row of d float64 numbers a token", () => {
  assert.equal(layerCacheBytes(10, 32), 5120); // 2 · 10 · 32 · 8
  assert.equal(layerCacheBytes(0, 32), 0);
  assert.equal(layerCacheBytes(3, 4, 2), 48);
});

test("argmax takes the lowest id on ties; softmax subtracts the maximum", () => {
  assert.equal(argmax([0, 3, 1, 3]), 1);
  assert.equal(argmax([-Infinity, -5]), 1);
  const w = softmax(Float64Array.from([1000, 1000]));
  assert.deepEqual([...w], [0.5, 0.5]);
});

test("the prompt: letters only, at least one, no more than the context leaves room for", () => {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  assert.deepEqual(parsePrompt(" Cab ", letters, 22), [2, 0, 1]);
  assert.throws(() => parsePrompt("  ", letters, 22), /^Error: Type at least one letter/);
  assert.throws(() => parsePrompt("ab3", letters, 22), /“3” is not a letter: type the letters a to z only\./);
  assert.throws(() => parsePrompt("a b", letters, 22), /A space is not a letter/);
  assert.throws(() => parsePrompt("é", letters, 22), /“é” is not a letter/);
  assert.throws(() => parsePrompt("a".repeat(23), letters, 22), /23 letters is too many: the model reads at most 22/);
  const model = prepare(randomData(6, {}));
  assert.equal(maxLetters(model), 7);
  assert.throws(() => startRun(model, []), /a prompt of 0 letters, the model takes 1 to 7/);
  assert.equal(symbolOf(model, model.start), "^");
  assert.equal(symbolOf(model, 4), "e");
});

test("groupDigits puts commas between thousands", () => {
  assert.equal(groupDigits(0), "0");
  assert.equal(groupDigits(999), "999");
  assert.equal(groupDigits(1234567), "1,234,567");
  assert.equal(groupDigits(-1000), "-1,000");
  assert.throws(() => groupDigits(1.5), /not a whole number/);
});
