// Pure maths of the "it → animal" heatmap: no DOM, so `node --test` can check it.
//
// Data layout (data/it_attention.json): attention[layer][head][query][key] holds
// integers in units of 1/scale; a row is one query's softmax over the keys.
//
// The colour scale is the site's one heat scale (site_build/heat_scale.py), which the
// build writes into the stylesheet as custom properties: scaleOf() reads them, and
// lightness() places a weight on them as the figures do.
import { check, DIGITS } from "./dom.js";

export { DIGITS };

/** Tokens the tokenizer adds around every sentence. */
export const SPECIAL_TOKENS = Object.freeze(["[CLS]", "[SEP]"]);

/**
 * One (n, n) matrix of weights in [0, 1] from the stored integer units.
 * @param {number[][]} units  (n_q, n_k) integers
 * @param {number} scale      e.g. 10000
 * @returns {number[][]}      (n_q, n_k)
 */
export function fromUnits(units, scale) {
  check(Number.isFinite(scale) && scale > 0, `scale must be a positive number, got ${scale}`);
  return units.map((row) => row.map((u) => u / scale));
}

/**
 * Indices of the tokens kept when special tokens are hidden (or all of them).
 * @param {string[]} tokens
 * @param {boolean} hideSpecial
 * @returns {number[]}
 */
export function keptIndices(tokens, hideSpecial) {
  const out = [];
  tokens.forEach((t, i) => {
    if (!hideSpecial || !SPECIAL_TOKENS.includes(t)) out.push(i);
  });
  return out;
}

/**
 * The matrix restricted to `keep` (rows and columns), each row divided by its
 * remaining sum so that it sums to 1 again. Also returns the share of each
 * original row that the removed keys held.
 * @param {number[][]} matrix  (n, n) rows summing to 1
 * @param {number[]} keep      indices to keep, in order
 * @returns {{matrix: number[][], removed: number[]}}  (m, m) and (m,)
 */
export function restrict(matrix, keep) {
  check(keep.length > 0, "restrict: keep at least one token");
  const rows = keep.map((q) => {
    const row = matrix[q];
    check(Array.isArray(row), `restrict: no row ${q} in a matrix of ${matrix.length} rows`);
    const kept = keep.map((k) => row[k]);
    const total = row.reduce((a, b) => a + b, 0);
    const keptSum = kept.reduce((a, b) => a + b, 0);
    check(keptSum > 0, `restrict: row ${q} has no weight left on the kept keys`);
    return { row: kept.map((w) => w / keptSum), removed: (total - keptSum) / total };
  });
  return { matrix: rows.map((r) => r.row), removed: rows.map((r) => r.removed) };
}

/**
 * Index of the largest weight of a row (the first one on ties).
 * @param {number[]} row
 * @returns {number}
 */
export function strongestKey(row) {
  check(row.length > 0, "strongestKey: empty row");
  let best = 0;
  for (let i = 1; i < row.length; i += 1) if (row[i] > row[best]) best = i;
  return best;
}

/**
 * Index of a token, failing loudly when it is missing or ambiguous.
 * @param {string[]} tokens
 * @param {string} token
 * @returns {number}
 */
export function tokenIndex(tokens, token) {
  const first = tokens.indexOf(token);
  check(first >= 0, `token "${token}" is not among ${JSON.stringify(tokens)}`);
  check(tokens.indexOf(token, first + 1) < 0, `token "${token}" occurs more than once`);
  return first;
}

/**
 * The (layer, head) where `query` gives `key` the most weight; the first in
 * layer-then-head order on ties. Works on the stored integers, so ties are exact.
 * @param {number[][][][]} attention  (layers, heads, n, n)
 * @param {string[]} tokens           (n,)
 * @param {string} query
 * @param {string} key
 * @returns {{layer: number, head: number, value: number}}  0-based indices
 */
export function defaultHead(attention, tokens, query, key) {
  const q = tokenIndex(tokens, query);
  const k = tokenIndex(tokens, key);
  let best = null;
  attention.forEach((heads, layer) =>
    heads.forEach((m, head) => {
      const value = m[q][k];
      if (best === null || value > best.value) best = { layer, head, value };
    }),
  );
  check(best !== null, "defaultHead: no layers");
  return best;
}

/**
 * How much a weight changed between the two sentences, in words a reader can check.
 * @param {string} query
 * @param {string} key
 * @param {number} a  weight with the first sentence
 * @param {number} b  weight with the second sentence
 * @param {number} digits  shown precision
 * @returns {string}
 */
export function describeChange(query, key, a, b, digits = DIGITS) {
  const sa = a.toFixed(digits);
  const sb = b.toFixed(digits);
  if (sa === sb) return `“${query}” → “${key}” stays at ${sa}`;
  const verb = b > a ? "rises" : "falls";
  return `“${query}” → “${key}” ${verb} from ${sa} to ${sb}`;
}

/**
 * Where a weight sits along the colour scale, 0 at weight 0 and 1 at weight 1: the
 * square root spreads the many small weights so they stay distinguishable.
 * @param {number} w  a weight, clipped to [0, 1]
 * @returns {number}
 */
export function scalePosition(w) {
  check(Number.isFinite(w), `weight must be a finite number, got ${w}`);
  return Math.sqrt(Math.min(1, Math.max(0, w)));
}

/** The custom properties that carry the heat scale (site_build/heat_scale.py). */
export const SCALE_PROPERTIES = Object.freeze({
  hue: "--heat-hue",
  sat: "--heat-sat",
  zero: "--heat-zero",
  one: "--heat-one",
});

/**
 * The heat scale of the current palette, read from a computed style.
 * @param {{getPropertyValue: (name: string) => string}} style  e.g. getComputedStyle(box)
 * @returns {{hue: number, sat: number, zero: number, one: number}}  degrees and percents
 */
export function scaleOf(style) {
  const out = {};
  for (const [key, name] of Object.entries(SCALE_PROPERTIES)) {
    const text = style.getPropertyValue(name).trim();
    const value = parseFloat(text);
    check(Number.isFinite(value), `colour scale: ${name} is ${JSON.stringify(text)}, not a number (stylesheet missing?)`);
    out[key] = value;
  }
  return out;
}

/**
 * Map a weight in [0, 1] to a lightness (CSS %) on `scale`, rounded to 0.1: from
 * scale.zero at weight 0 to scale.one at weight 1, along scalePosition().
 * @param {number} w
 * @param {{zero: number, one: number}} scale
 * @returns {number}
 */
export function lightness(w, scale) {
  check(
    scale && Number.isFinite(scale.zero) && Number.isFinite(scale.one),
    `lightness: the scale needs numbers zero and one, got ${JSON.stringify(scale)}`,
  );
  const t = scalePosition(w);
  return Math.round((scale.zero + (scale.one - scale.zero) * t) * 10) / 10;
}
