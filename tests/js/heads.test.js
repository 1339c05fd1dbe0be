// Unit tests of the heads widget's pure maths (docs/javascripts/lib/heads-math.js).
// Oracles: colours converted by hand (worked out in the comments), tiny hand-made role
// files and grids whose answers are counted by hand.
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  cellAt, checkRoles, defaultLayer, describeHead, headCaption, hslToRgb, layerSummary, moveIndex, pixels,
  ROLE_KEYS,
} from "../../docs/javascripts/lib/heads-math.js";

const LABELS = {
  special: "mostly [CLS]/[SEP]",
  previous: "mostly the previous token",
  self: "mostly itself",
  next: "mostly the next token",
  mixed: "no single pattern",
};

test("hsl to sRGB: the primaries, a grey, and the heatmap's darkest cell by hand", () => {
  assert.deepEqual(hslToRgb(0, 100, 50), [255, 0, 0]);
  assert.deepEqual(hslToRgb(240, 100, 50), [0, 0, 255]);
  // l = 0.25, s = 1: chroma 0.5, so green is 0.5 * 255 = 127.5, rounded up.
  assert.deepEqual(hslToRgb(120, 100, 25), [0, 128, 0]);
  assert.deepEqual(hslToRgb(0, 0, 50), [128, 128, 128]);
  assert.deepEqual(hslToRgb(360, 100, 50), hslToRgb(0, 100, 50));
  // hsl(231 48% 24%): chroma (1 - |2(0.24) - 1|) * 0.48 = 0.2304; h/60 = 3.85, so
  // x = 0.2304 * (1 - |1.85 - 1|) = 0.03456; m = 0.24 - 0.1152 = 0.1248.
  // (r, g, b) = (m, x + m, chroma + m) * 255 = (31.8, 40.6, 90.6).
  assert.deepEqual(hslToRgb(231, 48, 24), [32, 41, 91]);
  assert.throws(() => hslToRgb(231, NaN, 50), /not a colour/);
});

const LIGHT = { hue: 231, sat: 48, zero: 97, one: 24 };
const DARK = { hue: 231, sat: 42, zero: 17, one: 82 };

test("pixels: one RGBA pixel per cell, row by row, the scale's lightness", () => {
  const px = pixels([[0, 1], [1, 0]], LIGHT);
  assert.equal(px.length, 2 * 2 * 4);
  // Weight 0 is lightness 97 in the light palette: chroma 0.06 * 0.48 = 0.0288,
  // x = 0.00432, m = 0.9556, so (0.9556, 0.95992, 0.9844) * 255 = (243.7, 244.8, 251.0).
  assert.deepEqual([...px.slice(0, 4)], [244, 245, 251, 255]);
  // Weight 1 is lightness 24: the colour worked out in the test above.
  assert.deepEqual([...px.slice(4, 8)], [32, 41, 91, 255]);
  assert.deepEqual([...px.slice(8, 12)], [32, 41, 91, 255]);
  assert.deepEqual([...px.slice(12, 16)], [244, 245, 251, 255]);
  // The dark palette turns the scale round: weight 1 is the lighter end.
  const dark = pixels([[0, 1]], DARK);
  assert.ok(dark[4] > dark[0] && dark[6] > dark[2]);
  assert.throws(() => pixels([], LIGHT), /empty matrix/);
  assert.throws(() => pixels([[0, 1], [1]], LIGHT), /row 1 has 1 values, row 0 has 2/);
});

test("cellAt: the cell under a point, null outside", () => {
  assert.deepEqual(cellAt(0, 0, 160, 160, 16, 16), { row: 0, col: 0 });
  // 10 px per cell: x 159.9 is in column 15, y 10 starts row 1.
  assert.deepEqual(cellAt(159.9, 10, 160, 160, 16, 16), { row: 1, col: 15 });
  assert.deepEqual(cellAt(25, 5, 100, 50, 5, 4), { row: 0, col: 1 });
  assert.equal(cellAt(160, 0, 160, 160, 16, 16), null);
  assert.equal(cellAt(-1, 3, 160, 160, 16, 16), null);
  assert.equal(cellAt(1, 1, 0, 0, 16, 16), null);
});

test("moveIndex: arrows in a grid of 12 heads, 4 or 5 a row", () => {
  // 4 a row:  0  1  2  3 /  4  5  6  7 /  8  9 10 11
  assert.equal(moveIndex(5, "ArrowUp", 12, 4), 1);
  assert.equal(moveIndex(1, "ArrowUp", 12, 4), 1);
  assert.equal(moveIndex(5, "ArrowDown", 12, 4), 9);
  assert.equal(moveIndex(9, "ArrowDown", 12, 4), 9);
  assert.equal(moveIndex(0, "ArrowLeft", 12, 4), 0);
  assert.equal(moveIndex(3, "ArrowRight", 12, 4), 4); // reading order wraps to the next row
  assert.equal(moveIndex(11, "ArrowRight", 12, 4), 11);
  assert.equal(moveIndex(6, "Home", 12, 4), 0);
  assert.equal(moveIndex(6, "End", 12, 4), 11);
  // 5 a row: 0-4 / 5-9 / 10 11; from 8 there is nothing below.
  assert.equal(moveIndex(8, "ArrowDown", 12, 5), 8);
  assert.equal(moveIndex(6, "ArrowDown", 12, 5), 11);
  assert.equal(moveIndex(6, "Enter", 12, 5), null);
  assert.throws(() => moveIndex(0, "Home", 12, 0), /columns must be positive/);
});

test("captions, descriptions and layer counts, by hand", () => {
  assert.deepEqual(headCaption({ role: "self", share: 0.8316 }, LABELS), {
    label: "mostly itself",
    share: "0.832",
    short: "share 0.832",
  });
  assert.equal(headCaption({ role: "mixed", share: 0.3 }, LABELS).short, "largest 0.300");
  assert.equal(
    describeHead(2, 4, { role: "previous", share: 0.9 }, LABELS),
    "Layer 3, head 5: mostly the previous token (share 0.900)",
  );
  assert.equal(
    describeHead(0, 11, { role: "mixed", share: 0.41 }, LABELS),
    "Layer 1, head 12: no single pattern (largest share 0.410)",
  );
  const layer = ["mixed", "special", "special", "next", "special"].map((role) => ({ role, share: 0.5 }));
  // Counted by hand: 3 special, 1 next, 1 mixed, in ROLE_KEYS order.
  assert.equal(layerSummary(layer, LABELS), "3 mostly [CLS]/[SEP], 1 mostly the next token, 1 no single pattern");
  assert.deepEqual(ROLE_KEYS, ["special", "previous", "self", "next", "mixed"]);
  assert.throws(() => headCaption({ role: "odd", share: 0.5 }, LABELS), /no label for role 'odd'/);
});

test("checkRoles accepts a matching file and names what is wrong otherwise", () => {
  const record = { layers: 2, heads: 3, sentences: [{ id: "tired" }, { id: "wide" }] };
  const heads = () => [0, 1, 2].map(() => ({ role: "self", share: 0.7 }));
  const good = () => ({ roles: { ...LABELS }, sentences: { tired: [heads(), heads()], wide: [heads(), heads()] } });
  checkRoles(good(), record);

  const noLabel = good();
  delete noLabel.roles.next;
  assert.throws(() => checkRoles(noLabel, record), /no label for role 'next'/);
  const noWide = good();
  delete noWide.sentences.wide;
  assert.throws(() => checkRoles(noWide, record), /no entry for sentence 'wide'/);
  const shortLayers = good();
  shortLayers.sentences.tired.pop();
  assert.throws(() => checkRoles(shortLayers, record), /'tired' has 1 layers, the attention data 2/);
  const shortHeads = good();
  shortHeads.sentences.wide[1].pop();
  assert.throws(() => checkRoles(shortHeads, record), /'wide' layer 2 does not have 3 heads/);
  const badRole = good();
  badRole.sentences.tired[0][2].role = "sideways";
  assert.throws(() => checkRoles(badRole, record), /layer 1, head 3: unknown role "sideways"/);
  const badShare = good();
  badShare.sentences.tired[1][0].share = 1.5;
  assert.throws(() => checkRoles(badShare, record), /layer 2, head 1: share must be a number in \[0, 1\], got 1.5/);
  assert.throws(() => checkRoles({ sentences: {} }, record), /missing key 'roles'/);
});

test("default layer: the most different roles, the first on ties, by hand", () => {
  const layer = (...roles) => roles.map((role) => ({ role, share: 0.6 }));
  // Kinds of role: 1, 3, 2, 3; layer 1 is the first with three.
  const layers = [
    layer("mixed", "mixed", "mixed"),
    layer("special", "next", "mixed"),
    layer("special", "special", "self"),
    layer("self", "previous", "mixed"),
  ];
  assert.equal(defaultLayer(layers), 1);
  assert.equal(defaultLayer([layer("mixed")]), 0);
  assert.throws(() => defaultLayer([]), /no layers/);
});
