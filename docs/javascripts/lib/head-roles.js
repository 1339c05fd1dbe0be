// What one attention head mostly looks at: attention_ref/head_roles.py in JavaScript,
// the same rule, for the reader's own sentence (the build computes the fixed sentences'
// roles in Python). tests/js/head-roles.test.js requires the same role and share as
// Python on every head of every layer of the lessons' two sentences.
//
// Four shares, each averaged over the query rows it applies to: special (weight on
// [CLS] and [SEP], every row), previous (key i-1, rows i >= 1), self (key i, every row),
// next (key i+1, rows i < n-1). The head takes the largest when that share, rounded to
// 3 decimals, is at least the threshold (0.5); otherwise "mixed". Ties go to the first
// in PATTERNS.

export const THRESHOLD = 0.5;
export const SPECIAL_TOKENS = Object.freeze(["[CLS]", "[SEP]"]);
export const PATTERNS = Object.freeze(["special", "previous", "self", "next"]);
const ROW_SUM_TOLERANCE = 0.01;

/**
 * `x` rounded to 3 decimals as Python's round(x, 3) does: to the nearest, an exact tie
 * (x = m/2000 for odd m, which binary can hold, e.g. 0.0625) to the even last digit.
 */
export function round3(x) {
  const t = x * 2000;
  if (Number.isInteger(t) && Math.abs(t % 2) === 1 && t / 2000 === x) {
    const low = Math.floor(t / 2);
    return (low % 2 === 0 ? low : low + 1) / 1000;
  }
  return Number(x.toFixed(3));
}

/**
 * The four shares of one head.
 * @param {ArrayLike<number>[] | {n: number, at: (i: number, j: number) => number}} weights
 *        (n, n) rows summing to 1, as an array of rows
 * @param {string[]} tokens
 * @returns {{special: number, previous: number, self: number, next: number}}
 */
export function roleShares(weights, tokens) {
  const n = tokens.length;
  if (!Array.isArray(weights) || weights.length !== n || weights.some((r) => r.length !== n)) {
    throw new Error(`weights: must be a square (n, n) matrix matching ${n} tokens`);
  }
  if (n < 2) throw new Error(`weights: need at least 2 tokens, got ${n}`);
  weights.forEach((row, i) => {
    let s = 0;
    for (const w of row) {
      if (!Number.isFinite(w) || w < 0) throw new Error(`weights: row ${i} holds ${w}`);
      s += w;
    }
    if (Math.abs(s - 1) > ROW_SUM_TOLERANCE) throw new Error(`weights: row ${i} sums to ${s.toFixed(4)}, not 1`);
  });
  const special = tokens.flatMap((t, j) => (SPECIAL_TOKENS.includes(t) ? [j] : []));
  let sp = 0;
  let prev = 0;
  let self = 0;
  let next = 0;
  for (let i = 0; i < n; i++) {
    for (const j of special) sp += weights[i][j];
    self += weights[i][i];
    if (i >= 1) prev += weights[i][i - 1];
    if (i < n - 1) next += weights[i][i + 1];
  }
  return {
    special: special.length ? sp / n : 0,
    previous: prev / (n - 1),
    self: self / n,
    next: next / (n - 1),
  };
}

/** The role and share (rounded to 3 decimals) for four shares. */
export function classify(shares, threshold = THRESHOLD) {
  if (!(threshold > 0 && threshold <= 1)) throw new Error(`threshold: must be in (0, 1], got ${threshold}`);
  let best = PATTERNS[0];
  const rounded = {};
  for (const key of PATTERNS) {
    const v = shares[key];
    if (!Number.isFinite(v) || v < 0) throw new Error(`shares: '${key}' must be a finite number >= 0, got ${v}`);
    rounded[key] = round3(v);
    if (rounded[key] > rounded[best]) best = key;
  }
  return { role: rounded[best] >= threshold ? best : "mixed", share: rounded[best] };
}

/** The role of one head: classify(roleShares(weights, tokens)). */
export function headRole(weights, tokens, threshold = THRESHOLD) {
  return classify(roleShares(weights, tokens), threshold);
}

/**
 * The head to open a sentence on: the one whose rows are most different from "look at
 * [CLS]/[SEP]", i.e. with the smallest `special` share (the first such head in layer
 * order, then head order).
 * @param {number[][][][]} attention  [layer][head][query][key]
 * @returns {{layer: number, head: number, special: number}}
 */
export function leastSpecialHead(attention, tokens) {
  let pick = null;
  attention.forEach((heads, layer) =>
    heads.forEach((m, head) => {
      const special = roleShares(m, tokens).special;
      if (pick === null || special < pick.special) pick = { layer, head, special };
    }),
  );
  if (pick === null) throw new Error("attention: no heads");
  return pick;
}
