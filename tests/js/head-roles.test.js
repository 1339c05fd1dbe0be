// The head-role rule in JS (docs/javascripts/lib/head-roles.js) gives attention_ref's
// head_role and role_shares on every head of every layer of the lessons' two sentences
// (data/it_attention.json; expected values in tests/js/fixtures/minilm-math.json).
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";

import { classify, headRole, leastSpecialHead, roleShares, round3 } from "../../docs/javascripts/lib/head-roles.js";

const F = JSON.parse(fs.readFileSync(new URL("./fixtures/minilm-math.json", import.meta.url), "utf8"));
const DATA = JSON.parse(fs.readFileSync(new URL("../../data/it_attention.json", import.meta.url), "utf8"));

test("every head of both sentences: the same role, share and four shares as Python", () => {
  let heads = 0;
  for (const s of DATA.sentences) {
    const expected = F.head_roles.sentences.find((e) => e.id === s.id);
    assert.ok(expected, `fixture has sentence ${s.id}`);
    s.attention.forEach((layer, l) =>
      layer.forEach((units, h) => {
        const m = units.map((row) => row.map((u) => u / DATA.scale));
        assert.deepEqual(headRole(m, s.tokens), expected.roles[l][h], `${s.id} layer ${l} head ${h}`);
        const shares = roleShares(m, s.tokens);
        for (const [k, v] of Object.entries(expected.shares[l][h])) {
          assert.ok(Math.abs(shares[k] - v) < 1e-12, `${s.id} ${l}/${h} ${k}: ${shares[k]} vs ${v}`);
        }
        heads += 1;
      }),
    );
    const m4 = s.attention.map((layer) => layer.map((u) => u.map((row) => row.map((x) => x / DATA.scale))));
    const pick = leastSpecialHead(m4, s.tokens);
    assert.deepEqual({ layer: pick.layer, head: pick.head }, expected.least_special);
  }
  assert.equal(heads, 2 * 6 * 12);
});

test("rounding is Python's round(x, 3): exact ties to even", () => {
  assert.equal(round3(0.0625), 0.062); // round(0.0625, 3) == 0.062
  assert.equal(round3(0.1875), 0.188);
  assert.equal(round3(0.4996), 0.5);
  assert.equal(round3(0.4994), 0.499);
});

test("classify follows the docstring's cases", () => {
  assert.deepEqual(classify({ special: 0.2, previous: 0.5, self: 0.5, next: 0.1 }), { role: "previous", share: 0.5 });
  assert.deepEqual(classify({ special: 0.4996, previous: 0.1, self: 0.1, next: 0.1 }), { role: "special", share: 0.5 });
  assert.deepEqual(classify({ special: 0.4994, previous: 0.1, self: 0.1, next: 0.1 }), { role: "mixed", share: 0.499 });
  assert.throws(() => classify({ special: 0.4 }), /shares: 'previous' must be a finite number/);
});

test("bad weights are refused, naming what is wrong", () => {
  assert.throws(() => roleShares([[1]], ["a"]), /need at least 2 tokens, got 1/);
  assert.throws(() => roleShares([[0.5, 0.2], [0, 1]], ["a", "b"]), /row 0 sums to 0.7000, not 1/);
  assert.throws(() => roleShares([[1, 0]], ["a", "b"]), /square \(n, n\) matrix matching 2 tokens/);
});
