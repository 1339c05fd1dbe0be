// The one way the site's widgets build DOM, and the checks they share.
//
// h() and svg() build an element from a tag, attributes and children. A child that is a
// string becomes a text node, so text never passes through an HTML parser: there is
// nothing to escape, and no widget assigns HTML strings. Every widget module is written
// the same way: it exports mount(box, data), keeps its state in one object, renders the
// DOM from that state and wires its events separately; see heatmap-widget.js.

export const SVG_NS = "http://www.w3.org/2000/svg";

/** Decimals of a weight shown in a widget (lesson 1's heatmap, lesson 2's heads). */
export const DIGITS = 3;

/** Throw an Error with `message` unless `condition` holds. */
export function check(condition, message) {
  if (!condition) throw new Error(message);
}

/** `w` with the decimals widgets show (DIGITS unless told). */
export const formatWeight = (w, digits = DIGITS) => w.toFixed(digits);

function fill(e, attrs, kids) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === false || v === null || v === undefined) continue;
    e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const kid of kids.flat(Infinity)) {
    if (kid !== null && kid !== undefined && kid !== false) e.append(kid);
  }
  return e;
}

/**
 * An HTML element. Attributes that are false, null or undefined are left out, true is
 * an empty attribute; children may be nodes, strings (text) or arrays of them, and
 * null, undefined and false are skipped.
 * @param {string} tag
 * @param {Object<string, string|number|boolean|null|undefined>} [attrs]
 * @param {...(Node|string|Array|null|undefined|false)} kids
 * @returns {HTMLElement}
 */
export function h(tag, attrs, ...kids) {
  return fill(document.createElement(tag), attrs, kids);
}

/** An SVG element, with the same arguments as h(). */
export function svg(tag, attrs, ...kids) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, kids);
}

/** An id no other widget of the page has: `${prefix}1`, `${prefix}2`, … */
const counts = new Map();
export function uniqueId(prefix) {
  const n = (counts.get(prefix) || 0) + 1;
  counts.set(prefix, n);
  return `${prefix}${n}`;
}
