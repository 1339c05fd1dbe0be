// Pure maths of the "every head of a layer" widget: no DOM, so `node --test` can check it.
//
// Data: assets/data/it_attention.json (attention[layer][head][query][key] in units of
// 1/scale, as for the lesson-1 heatmap) and assets/data/head_roles.json (the role and
// share of every head, computed at build time by site_build/heads_figure.py). Layers and
// heads count from 0 in the data and from 1 on the screen.
//
// The colour scale is the site's one heat scale (read from the stylesheet with
// heatmap-math.js's scaleOf): the same colour for the same weight as the lesson-1
// heatmap's cells and the figures, drawn here into canvas pixels.
import { check, DIGITS } from "./dom.js";
import { lightness } from "./heatmap-math.js";

/** The roles head_roles.json may give a head, in the order the widget counts them. */
export const ROLE_KEYS = Object.freeze(["special", "previous", "self", "next", "mixed"]);

/**
 * Throw an Error naming the first thing in `roles` that does not fit `record`: every
 * sentence of the attention data needs layers x heads entries of a known role and a
 * share in [0, 1], and every role a label.
 * @param {object} roles   head_roles.json
 * @param {object} record  it_attention.json
 */
export function checkRoles(roles, record) {
  check(roles && typeof roles === "object", "head roles: the top level must be an object");
  check(roles.roles && typeof roles.roles === "object", "head roles: missing key 'roles'");
  for (const key of ROLE_KEYS) {
    check(typeof roles.roles[key] === "string", `head roles: no label for role '${key}'`);
  }
  check(roles.sentences && typeof roles.sentences === "object", "head roles: missing key 'sentences'");
  for (const s of record.sentences) {
    const layers = roles.sentences[s.id];
    check(Array.isArray(layers), `head roles: no entry for sentence '${s.id}'`);
    check(
      layers.length === record.layers,
      `head roles: sentence '${s.id}' has ${layers.length} layers, the attention data ${record.layers}`,
    );
    layers.forEach((heads, layer) => {
      check(
        Array.isArray(heads) && heads.length === record.heads,
        `head roles: sentence '${s.id}' layer ${layer + 1} does not have ${record.heads} heads`,
      );
      heads.forEach((e, head) => {
        const where = `head roles: sentence '${s.id}' layer ${layer + 1}, head ${head + 1}`;
        check(e && ROLE_KEYS.includes(e.role), `${where}: unknown role ${JSON.stringify(e && e.role)}`);
        check(
          Number.isFinite(e.share) && e.share >= 0 && e.share <= 1,
          `${where}: share must be a number in [0, 1], got ${JSON.stringify(e.share)}`,
        );
      });
    });
  }
}

/**
 * The caption of one head: its role's label, its share, and the share as a small head
 * shows it ("largest" for a mixed head, whose share is the largest of the four).
 * @param {{role: string, share: number}} entry  one head of head_roles.json
 * @param {Object<string, string>} labels        head_roles.json's `roles`
 * @returns {{label: string, share: string, short: string}}
 *   e.g. {label: "mostly itself", share: "0.832", short: "share 0.832"}
 */
export function headCaption(entry, labels) {
  const label = labels[entry.role];
  check(typeof label === "string", `no label for role '${entry.role}'`);
  const share = entry.share.toFixed(DIGITS);
  return { label, share, short: `${entry.role === "mixed" ? "largest" : "share"} ${share}` };
}

/**
 * The layer to open on: the one whose heads have the most different roles (the first
 * such layer on ties), so that the reader meets several patterns at once.
 * @param {{role: string}[][]} layers  (layers, heads) entries of one sentence
 * @returns {number}  0-based
 */
export function defaultLayer(layers) {
  check(layers.length > 0, "defaultLayer: no layers");
  let best = 0;
  let most = -1;
  layers.forEach((heads, layer) => {
    const kinds = new Set(heads.map((e) => e.role)).size;
    if (kinds > most) {
      best = layer;
      most = kinds;
    }
  });
  return best;
}

/**
 * One sentence naming a head, its role and its share, for titles and announcements.
 * @param {number} layer  0-based
 * @param {number} head   0-based
 * @param {{role: string, share: number}} entry
 * @param {Object<string, string>} labels
 * @returns {string}
 */
export function describeHead(layer, head, entry, labels) {
  const { label, share } = headCaption(entry, labels);
  const what = entry.role === "mixed" ? "largest share" : "share";
  return `Layer ${layer + 1}, head ${head + 1}: ${label} (${what} ${share})`;
}

/**
 * How many heads of a layer have each role, in ROLE_KEYS order, roles with no head left out.
 * @param {{role: string}[]} entries  the heads of one layer
 * @param {Object<string, string>} labels
 * @returns {string}  e.g. "7 mostly [CLS]/[SEP], 5 no single pattern"
 */
export function layerSummary(entries, labels) {
  const parts = [];
  for (const key of ROLE_KEYS) {
    const count = entries.filter((e) => e.role === key).length;
    if (count) parts.push(`${count} ${labels[key]}`);
  }
  return parts.join(", ");
}

/**
 * sRGB of a CSS hsl() colour, each channel rounded to 0..255.
 * @param {number} hue  degrees
 * @param {number} sat  percent
 * @param {number} light  percent
 * @returns {[number, number, number]}
 */
export function hslToRgb(hue, sat, light) {
  check([hue, sat, light].every(Number.isFinite), `hslToRgb: not a colour: ${hue}, ${sat}, ${light}`);
  const s = Math.min(100, Math.max(0, sat)) / 100;
  const l = Math.min(100, Math.max(0, light)) / 100;
  const h = ((hue % 360) + 360) % 360;
  const a = s * Math.min(l, 1 - l);
  const f = (n) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

/**
 * RGBA pixels of a heatmap, one pixel per cell (row = query, column = key), ready for
 * an ImageData of width cols and height rows.
 * @param {number[][]} matrix  (rows, cols) weights in [0, 1]
 * @param {{hue: number, sat: number, zero: number, one: number}} scale  see scaleOf
 * @returns {Uint8ClampedArray}  (rows * cols * 4,)
 */
export function pixels(matrix, scale) {
  const rows = matrix.length;
  check(rows > 0, "pixels: empty matrix");
  const cols = matrix[0].length;
  const out = new Uint8ClampedArray(rows * cols * 4);
  matrix.forEach((row, r) => {
    check(row.length === cols, `pixels: row ${r} has ${row.length} values, row 0 has ${cols}`);
    row.forEach((w, c) => {
      const [R, G, B] = hslToRgb(scale.hue, scale.sat, lightness(w, scale));
      out.set([R, G, B, 255], (r * cols + c) * 4);
    });
  });
  return out;
}

/**
 * The cell under a point of a heatmap drawn `width` x `height`, or null outside it.
 * @param {number} x  from the left edge
 * @param {number} y  from the top edge
 * @returns {{row: number, col: number} | null}
 */
export function cellAt(x, y, width, height, rows, cols) {
  if (!(width > 0 && height > 0) || x < 0 || y < 0 || x >= width || y >= height) return null;
  return { row: Math.floor((y / height) * rows), col: Math.floor((x / width) * cols) };
}

/**
 * Where a key press moves the focus in a grid of `count` items laid out `columns` wide,
 * in reading order; null for a key that does not move it.
 * @param {number} index  the focused item
 * @param {string} key    KeyboardEvent.key
 * @param {number} count
 * @param {number} columns
 * @returns {number | null}
 */
export function moveIndex(index, key, count, columns) {
  check(count > 0 && columns > 0, `moveIndex: count and columns must be positive, got ${count}, ${columns}`);
  const last = count - 1;
  switch (key) {
    case "ArrowLeft": return Math.max(0, index - 1);
    case "ArrowRight": return Math.min(last, index + 1);
    case "ArrowUp": return index - columns >= 0 ? index - columns : index;
    case "ArrowDown": return index + columns <= last ? index + columns : index;
    case "Home": return 0;
    case "End": return last;
    default: return null;
  }
}
