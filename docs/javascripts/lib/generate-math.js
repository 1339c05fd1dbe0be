// The maths of lesson 5's generation widget, as pure functions (tested by node --test in
// tests/js/generate.test.js, and against attention_ref.induction.forward in the browser
// test tests/browser/test_generate_widget.py).
//
// Lesson 4's model, one token at a time: feed() reads one token, appends its key and value
// rows to each layer's cache, and returns the next-token logits and every head's attention
// row over the cached keys. Each step is attention_ref.induction.forward's last row: the
// embedding of the token plus its position, then for each layer x = x + MHA(x) with causal
// attention (the cache holds exactly the keys a causal query may see), then x @ W_U. The
// numbers are float64, as numpy's; only the order of the sums differs.
import { check } from "./dom.js";

/** Bytes of one cached number: the widget keeps its keys and values as float64. */
export const BYTES_PER_VALUE = 8;

/** A (rows, cols) matrix of finite numbers, as the JSON holds it, or a readable error. */
function matrix(name, value, rows, cols) {
  check(Array.isArray(value) && value.length === rows, `weights: ${name} should have ${rows} rows, has ${value && value.length}`);
  return value.map((row, i) => {
    check(Array.isArray(row) && row.length === cols, `weights: ${name} row ${i} should have ${cols} numbers, has ${row && row.length}`);
    check(row.every(Number.isFinite), `weights: ${name} row ${i} holds a value that is not a finite number`);
    return Float64Array.from(row);
  });
}

/**
 * The model the widget runs, from the build's JSON (site_build/widget_data.py).
 * @param {object} data  {config: {d_model, heads, max_len, scaled}, layers, vocab, letters, start, params}
 * @returns {object}  sizes and weights as Float64Array rows (row-vector convention, x @ w)
 */
export function prepare(data) {
  const { config, layers, vocab, letters, start, params } = data;
  check(config && Number.isInteger(config.d_model) && Number.isInteger(config.heads), "weights: the model's sizes are missing");
  const d = config.d_model;
  check(config.heads > 0 && d % config.heads === 0, `weights: ${config.heads} heads do not divide d_model ${d}`);
  check(typeof letters === "string" && letters.length + 1 === vocab && start === letters.length,
    `weights: ${vocab} tokens should be the ${letters && letters.length} letters and the start token`);
  check(Number.isInteger(layers) && layers > 0, `weights: ${layers} layers`);
  const dHead = d / config.heads;
  const layer = (name, i) => matrix(`${name}${i}`, params[`${name}${i}`], d, d);
  return {
    d, heads: config.heads, dHead, layers, vocab, letters, start, maxLen: config.max_len,
    scale: config.scaled ? 1 / Math.sqrt(dHead) : 1,
    embed: matrix("W_E", params.W_E, vocab, d),
    positions: matrix("W_pos", params.W_pos, config.max_len, d),
    unembed: matrix("W_U", params.W_U, d, vocab),
    blocks: Array.from({ length: layers }, (_, i) => ({
      q: layer("w_q", i), k: layer("w_k", i), v: layer("w_v", i), o: layer("w_o", i),
    })),
  };
}

/** An empty cache: for each layer, its key rows and value rows, one (d,) row per token. */
export function newCache(model) {
  return Array.from({ length: model.layers }, () => ({ keys: [], values: [] }));
}

/** Tokens the cache holds (every layer holds one row per token read). */
export const cachedTokens = (cache) => cache[0].keys.length;

/**
 * x @ w for a row vector x.
 * @param {Float64Array} x  (n,)
 * @param {Float64Array[]} w  (n, m)
 * @returns {Float64Array}  (m,)
 */
export function vecMat(x, w) {
  check(x.length === w.length, `vecMat: a vector of ${x.length} against ${w.length} rows`);
  const out = new Float64Array(w[0].length);
  for (let i = 0; i < x.length; i++) {
    const xi = x[i];
    const row = w[i];
    for (let j = 0; j < out.length; j++) out[j] += xi * row[j];
  }
  return out;
}

/**
 * Softmax of a row: exp(s - max) / sum, as attention_ref.softmax.
 * @param {Float64Array} s  (n,)
 * @returns {Float64Array}  (n,)
 */
export function softmax(s) {
  check(s.length > 0, "softmax: an empty row");
  let max = -Infinity;
  for (const v of s) max = Math.max(max, v);
  const out = s.map((v) => Math.exp(v - max));
  let sum = 0;
  for (const v of out) sum += v;
  return out.map((v) => v / sum);
}

/**
 * Read one token: the next position after what the cache holds. Its key and value rows
 * join each layer's cache, and its query attends over every cached key, its own included.
 * @param {object} model  from prepare()
 * @param {object[]} cache  from newCache(), changed in place
 * @param {number} token  0..vocab-1
 * @returns {{logits: Float64Array, weights: Float64Array[][]}}  logits (vocab,), and
 *   weights[layer][head] (n,): the token's attention row over the n cached keys
 */
export function feed(model, cache, token) {
  const pos = cachedTokens(cache);
  check(pos < model.maxLen, `the context is full: the model has ${model.maxLen} positions`);
  check(Number.isInteger(token) && token >= 0 && token < model.vocab, `token ${token} is not one of the ${model.vocab} tokens`);
  const { d, heads, dHead, scale } = model;
  let x = model.embed[token].map((e, i) => e + model.positions[pos][i]); // (d,)
  const weights = [];
  model.blocks.forEach((block, layer) => {
    const q = vecMat(x, block.q); // (d,): the heads side by side, dHead each
    const { keys, values } = cache[layer];
    keys.push(vecMat(x, block.k));
    values.push(vecMat(x, block.v));
    const merged = new Float64Array(d); // (d,): each head's output in its own slice
    const rows = [];
    for (let hd = 0; hd < heads; hd++) {
      const at = hd * dHead;
      const scores = new Float64Array(keys.length); // (n,)
      keys.forEach((k, j) => {
        let s = 0;
        for (let c = at; c < at + dHead; c++) s += q[c] * k[c];
        scores[j] = s * scale;
      });
      const w = softmax(scores); // (n,)
      values.forEach((v, j) => {
        for (let c = at; c < at + dHead; c++) merged[c] += w[j] * v[c];
      });
      rows.push(w);
    }
    weights.push(rows);
    const out = vecMat(merged, block.o);
    x = x.map((xi, i) => xi + out[i]); // the residual stream
  });
  return { logits: vecMat(x, model.unembed), weights };
}

/**
 * The greedy choice: the token of the largest logit, the lowest id on ties.
 * @param {ArrayLike<number>} logits
 * @returns {number}
 */
export function argmax(logits) {
  check(logits.length > 0, "argmax: no logits");
  let best = 0;
  for (let i = 1; i < logits.length; i++) if (logits[i] > logits[best]) best = i;
  return best;
}

/** The most letters a prompt may have: with the start token, the context must keep a
 * position free for the model to write into. */
export const maxLetters = (model) => model.maxLen - 2;

/**
 * A new run: the start token and the prompt's letters, an empty cache, nothing saved yet.
 * @param {object} model  from prepare()
 * @param {number[]} prompt  letter ids, 1..maxLetters(model) of them
 * @returns {{tokens: number[], promptTokens: number, cache: object[], steps: number, saved: number, last: object|null}}
 */
export function startRun(model, prompt) {
  check(prompt.length >= 1 && prompt.length <= maxLetters(model),
    `startRun: a prompt of ${prompt.length} letters, the model takes 1 to ${maxLetters(model)}`);
  const tokens = [model.start, ...prompt];
  return { tokens, promptTokens: tokens.length, cache: newCache(model), steps: 0, saved: 0, last: null };
}

/** Whether the context is full: the model has written all it can. */
export const isDone = (model, run) => run.tokens.length >= model.maxLen;

/**
 * One step of greedy generation, in place: read what the cache does not hold yet (the
 * whole prompt at the first step, the letter written last after), write the token of the
 * largest logit, and add this step's saving to run.saved.
 *
 * cost.cached counts every token this step fed through the cache. At the first step that
 * is the whole prompt, one token at a time, which adds up to exactly what recomputing the
 * prompt costs (the sum over p = 1..n of the cached count at p is the recompute count at
 * n): the first step saves nothing, and each later step saves recompute - cached.
 * @returns {{query: number, n: number, fed: number, logits: Float64Array, weights: Float64Array[][], next: number, cost: {cached: number, recompute: number}}}
 *   query: the position of the token whose row is in weights; n: tokens in context;
 *   fed: the tokens this step read into the cache
 */
export function stepRun(model, run) {
  check(!isDone(model, run), `the context is full: the model has ${model.maxLen} positions`);
  let out = null;
  let cached = 0;
  let fed = 0;
  while (cachedTokens(run.cache) < run.tokens.length) {
    cached += multiplyAdds(cachedTokens(run.cache) + 1, model).cached;
    fed += 1;
    out = feed(model, run.cache, run.tokens[cachedTokens(run.cache)]);
  }
  const n = run.tokens.length;
  const cost = { cached, recompute: multiplyAdds(n, model).recompute };
  const next = argmax(out.logits);
  run.tokens.push(next);
  run.steps += 1;
  run.saved += cost.recompute - cost.cached;
  run.last = { query: n - 1, n, fed, logits: out.logits, weights: out.weights, next, cost };
  return run.last;
}

/**
 * Token ids of the letters a reader typed, or an Error whose message says what is wrong.
 * Capitals count as their small letters; spaces around the letters are dropped.
 * @param {string} text
 * @param {string} letters  the alphabet, token i = letters[i]
 * @param {number} maxLetters  the most letters the context leaves room for
 * @returns {number[]}
 */
export function parsePrompt(text, letters, maxLetters) {
  const typed = String(text).trim().toLowerCase();
  check(typed.length > 0, "Type at least one letter for the model to continue.");
  const chars = [...typed];
  const bad = chars.find((c) => !letters.includes(c));
  if (bad !== undefined) {
    const what = /\s/.test(bad) ? "A space" : `“${bad}”`;
    throw new Error(`${what} is not a letter: type the letters a to z only.`);
  }
  check(
    chars.length <= maxLetters,
    `${chars.length} letters is too many: the model reads at most ${maxLetters}, so that it has room to write.`,
  );
  return chars.map((c) => letters.indexOf(c));
}

/**
 * Multiply-adds to get the next-token logits with n tokens in context (L layers of width
 * D, V tokens): with the cache, the newest token alone, L(4D² + 2nD) + DV (its four
 * projections, its scores over n keys and its sum of n values, then its logits); without
 * it, all n tokens again, L(4nD² + n(n+1)D) + nDV (causal scores and sums: 1 + 2 + … + n
 * keys, twice). The same convention as attention_ref.induction.decode_multiply_adds.
 * @param {number} n  tokens in context, n >= 1
 * @param {{layers: number, d: number, vocab: number}} sizes
 * @returns {{cached: number, recompute: number}}
 */
export function multiplyAdds(n, { layers, d, vocab }) {
  check(Number.isInteger(n) && n >= 1, `multiplyAdds: n must be a whole number of tokens >= 1, got ${n}`);
  return {
    cached: layers * (4 * d * d + 2 * n * d) + d * vocab,
    recompute: layers * (4 * n * d * d + n * (n + 1) * d) + n * d * vocab,
  };
}

/**
 * Bytes of one layer's cache: a key row and a value row of d numbers for each token.
 * @param {number} tokens
 * @param {number} d
 * @param {number} [bytesPerValue]
 * @returns {number}
 */
export function layerCacheBytes(tokens, d, bytesPerValue = BYTES_PER_VALUE) {
  return 2 * tokens * d * bytesPerValue;
}

/** A whole number with its thousands grouped by commas: 1234567 -> "1,234,567". */
export function groupDigits(n) {
  check(Number.isSafeInteger(n), `groupDigits: ${n} is not a whole number`);
  const sign = n < 0 ? "-" : "";
  return sign + String(Math.abs(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** How a token is shown: its letter, or ^ for the start token. */
export const symbolOf = (model, token) => (token === model.start ? "^" : model.letters[token]);
