// The "it → animal" heatmap widget: mount(box, data) builds it inside its box. Loaded by
// ../widgets.js only when the box comes near the screen; data.attention is the exported
// attention of all-MiniLM-L6-v2 (assets/data/it_attention.json).
//
// The widget pattern of the site (lib/dom.js): one state object, layout() builds the
// formatWeight parts once, render() redraws everything that depends on the state, wire() turns
// events into state changes followed by a render.
import { DIGITS, formatWeight, h, uniqueId } from "./dom.js";
import { pixels } from "./heads-math.js";
import { ownSentence, ownSentenceRadio, sentencePicker } from "./own-sentence.js";
import {
  defaultHead, describeChange, fromUnits, keptIndices, restrict, scaleOf, scalePosition, strongestKey, tokenIndex,
} from "./heatmap-math.js";

const QUERY = "it";
const KEY = "animal";
const DISTRACTOR = "street";
const LEGEND = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];

const quote = (t) => `“${t}”`;
/** A cell's or swatch's place on the colour scale; heatmap.css turns it into a colour. */
const heat = (w) => `--heat-t:${scalePosition(w).toFixed(4)}`;

/** Build the heatmap in `box` and wire every control. */
export function mount(box, { attention: shared }) {
  if (!box.isConnected) return;
  // The reader's own sentence is added to this widget's copy of the data only.
  const data = { ...shared, sentences: [...shared.sentences] };
  const first = data.sentences[0];
  const dflt = defaultHead(first.attention, first.tokens, QUERY, KEY);
  const state = {
    sentence: 0,
    layer: dflt.layer,
    head: dflt.head,
    hide: false,
    query: tokenIndex(first.tokens, QUERY), // index into the full token list
    view: null, // the shown matrix (viewOf), kept for the event handlers
    selections: 0,
  };
  const ui = layout(box, data, uniqueId("hm"));
  ui.layer.value = String(state.layer);
  ui.head.value = String(state.head);
  wire(ui, state, data, dflt);
  ui.box.append(ownSentence(ui.id, (entry) => showOwn(ui, state, data, dflt, entry)));
  render(ui, state, data, dflt);
  box.dataset.hmDefault = `${dflt.layer},${dflt.head}`;
}

// ------------------------------------------------------------------------------- state

/**
 * The matrix shown for sentence `s`: its stored units for the state's layer and head,
 * in [0, 1], restricted (and renormalised) when special tokens are hidden.
 */
function viewOf(data, state, s) {
  const sent = data.sentences[s];
  const full = fromUnits(sent.attention[state.layer][state.head], sent.scale ?? data.scale);
  const keep = keptIndices(sent.tokens, state.hide);
  const { matrix, removed } = restrict(full, keep);
  return { tokens: keep.map((i) => sent.tokens[i]), keep, matrix, removed };
}

/** How captions name a sentence: “…too tired.”, or "your sentence". */
const labelOf = (sent) => (sent.own ? "your sentence" : `“…too ${sent.id}.”`);

/**
 * The reader's sentence arrived (own-sentence.js): it becomes the widget's last sentence
 * (replacing an earlier one), with its own radio button, and the widget shows it at the
 * head whose rows look least at [CLS] and [SEP], on the row of its first word.
 * Returns the sentence own-sentence.js shows in its message.
 */
function showOwn(ui, state, data, dflt, entry) {
  const index = data.sentences.findIndex((s) => s.own);
  const sent = { ...entry, own: true };
  if (index >= 0) data.sentences[index] = sent;
  else data.sentences.push(sent);
  const at = index >= 0 ? index : data.sentences.length - 1;
  ui.ownRadio ??= ownSentenceRadio(ui.sentences, ui.id, at, { "data-hm": "own" });
  ui.ownRadio.checked = true;
  state.sentence = at;
  state.layer = entry.pick.layer;
  state.head = entry.pick.head;
  state.query = Math.min(1, entry.tokens.length - 1);
  ui.layer.value = String(state.layer);
  ui.head.value = String(state.head);
  render(ui, state, data, dflt);
  return `The grid opens on the head whose rows look least at [CLS] and [SEP] (layer ${
    entry.pick.layer + 1
  }, head ${entry.pick.head + 1}).`;
}

// ------------------------------------------------------------------------------ layout

/** The parts that never change, with a handle on each one render() fills. */
function layout(box, data, id) {
  const options = (n) => Array.from({ length: n }, (_, i) => h("option", { value: i }, String(i + 1)));
  const ui = {
    box,
    id,
    layer: h("select", { "data-hm": "layer" }, options(data.layers)),
    head: h("select", { "data-hm": "head" }, options(data.heads)),
    hide: h("input", { type: "checkbox", "data-hm": "hide" }),
    sentences: sentencePicker(id, data.sentences),
    sentence: h("p", { class: "heatmap__sentence", "data-hm": "sentence" }),
    status: h("p", { class: "heatmap__status", "data-hm": "status" }),
    caption: h("caption", { id: `${id}-cap` }),
    gridHead: h("thead"),
    gridBody: h("tbody"),
    rowTitle: h("h3", { class: "heatmap__row-title", id: `${id}-row-title` }),
    live: h("p", { class: "heatmap__live", "aria-live": "polite", "aria-atomic": "true", "data-hm": "live" }),
    bars: h("ol", { class: "heatmap__bars", "aria-labelledby": `${id}-row-title` }),
    contrast: h("p", { class: "heatmap__contrast", "data-hm": "contrast" }),
    tableCaption: h("caption", { id: `${id}-tcap` }),
    tableHead: h("thead"),
    tableBody: h("tbody"),
  };
  ui.grid = h(
    "table",
    {
      role: "grid",
      class: "heatmap__grid",
      "aria-labelledby": `${id}-cap`,
      "aria-describedby": `${id}-help`,
      "data-hm": "grid",
    },
    ui.caption,
    ui.gridHead,
    ui.gridBody,
  );
  ui.table = h("table", { class: "widget__data", "data-hm": "table" }, ui.tableCaption, ui.tableHead, ui.tableBody);
  ui.details = h(
    "details",
    { class: "widget__table" },
    h("summary", {}, "The same numbers as a table"),
    h("div", { class: "widget__scroll", tabindex: "0", role: "region", "aria-labelledby": `${id}-tcap` }, ui.table),
  );
  box.replaceChildren(
    h(
      "div",
      { class: "heatmap__controls" },
      ui.sentences,
      h("label", { class: "widget__pick" }, "Layer ", ui.layer),
      h("label", { class: "widget__pick" }, "Head ", ui.head),
      h("label", { class: "heatmap__check" }, ui.hide, " Hide [CLS] and [SEP]"),
    ),
    ui.sentence,
    ui.status,
    h(
      "p",
      { class: "heatmap__help", id: `${id}-help` },
      "Rows are queries, columns are keys. Click a row, or Tab into the grid and use ↑ ↓ " +
        "(Home, End) to move between queries and ← → to read one weight; Enter repeats the strongest key.",
    ),
    h(
      "div",
      { class: "heatmap__body" },
      h(
        "div",
        { class: "heatmap__map" },
        h("div", { class: "widget__scroll" }, ui.grid),
        h(
          "div",
          {
            class: "widget__legend",
            role: "img",
            "aria-label":
              "Colour scale: weight 0 is faint, weight 1 is strong; the numbers are in the row panel and the table",
          },
          h("span", {}, "0"),
          h("span", { class: "heatmap__ramp" }, LEGEND.map((w) => h("span", { class: "heatmap__swatch", style: heat(w) }))),
          h("span", {}, "1"),
        ),
      ),
      h("div", { class: "heatmap__row", "data-hm": "row" }, ui.rowTitle, ui.live, ui.bars),
    ),
    ui.contrast,
    ui.details,
  );
  return ui;
}

// ------------------------------------------------------------------------------ render

/** Everything that depends on the sentence, layer, head and hiding; then the row. */
function render(ui, state, data, dflt) {
  const sent = data.sentences[state.sentence];
  // Hiding [CLS] and [SEP] must leave a token: otherwise the box is off and disabled.
  const canHide = keptIndices(sent.tokens, true).length > 0;
  ui.hide.disabled = !canHide;
  if (!canHide && state.hide) {
    state.hide = false;
    ui.hide.checked = false;
  }
  const v = viewOf(data, state, state.sentence);
  state.view = v;
  const first = data.sentences[0];
  const L = data.layers;
  const H = data.heads;
  const rebuilt = renderGrid(ui, v);
  ui.caption.textContent = `Attention weights, query → key: layer ${state.layer + 1}, head ${
    state.head + 1
  }, ${labelOf(sent)}`;
  ui.tableCaption.textContent = `${ui.caption.textContent}${
    state.hide ? " ([CLS] and [SEP] hidden, rows renormalised)" : ""
  }. Rows are queries, columns are keys; each row sums to 1.`;
  renderTable(ui, state);

  const said = sent.tokens.join("\u0000");
  if (ui.sentenceKey !== said) {
    ui.sentenceKey = said;
    ui.sentence.replaceChildren(
      h("span", { class: "heatmap__label" }, "Sentence as the model saw it:"),
      ...sent.tokens.flatMap((t) => [" ", h("code", {}, t)]),
    );
  }
  const isDefault = state.layer === dflt.layer && state.head === dflt.head;
  const pick = sent.own ? sent.pick : null;
  const where = pick
    ? pick.layer === state.layer && pick.head === state.head
      ? `your sentence, at the head whose rows look least at [CLS] and [SEP] (their average weight on them is ${formatWeight(pick.special)}, the least of all ${L * H} heads)`
      : `your sentence; it opened on layer ${pick.layer + 1}, head ${pick.head + 1}, the head whose rows look least at [CLS] and [SEP]`
    : isDefault
    ? `the head where ${quote(QUERY)} gives ${quote(KEY)} the most weight with “…too ${first.id}.” (of all ${L * H} heads)`
    : `the default is layer ${dflt.layer + 1}, head ${dflt.head + 1}, where ${quote(QUERY)} gives ${quote(KEY)} the most weight`;
  if (!v.keep.includes(state.query)) state.query = sent.own ? v.keep[Math.min(1, v.keep.length - 1)] : tokenIndex(sent.tokens, QUERY);
  const qPos = v.keep.indexOf(state.query);
  const qName = quote(v.tokens[qPos]);
  ui.status.textContent = `Layer ${state.layer + 1} of ${L}, head ${state.head + 1} of ${H}: ${where}.${
    state.hide
      ? ` [CLS] and [SEP] are hidden: each row is divided by the weight left on the other tokens, so it sums to 1 again (the ${qName} row had ${formatWeight(v.removed[qPos])} of its weight on them).`
      : ""
  }`;
  ui.contrast.textContent = sent.own ? "" : contrastNote(data, state);
  renderRow(ui, state, qPos, false);
  if (rebuilt) placeGridImage(ui); // new cells; a layer or head change moves none
}

/** From this many tokens on, the grid's colours are one image instead of a style per cell. */
export const IMAGE_FROM = 24;

/**
 * The grid's cells. Up to IMAGE_FROM tokens each cell carries its shade (--heat-t) and
 * its number. A longer sentence (a reader's, up to 64 tokens: 4,096 cells) would cost a
 * style pass over every cell at each layer or head change, seconds on a slow phone: its
 * shades are drawn as one image of n x n pixels behind the cells (the tbody's
 * background, scaled to the cells, the same heat scale as lib/heads-math.js's pixels),
 * and only the selected row's cells carry numbers (focus never leaves that row; the row
 * panel and the table alternative hold every number). The same tokens as shown already:
 * the cells are kept, never rebuilt. The box's `data-hm-cells-built` counts every cell
 * ever built (tests read it). Returns whether the cells were built afresh.
 */
function renderGrid(ui, v) {
  const key = v.tokens.join("\u0000");
  const n = v.tokens.length;
  const image = n >= IMAGE_FROM;
  ui.grid.classList.toggle("heatmap__grid--image", image);
  const rows = ui.gridBody.rows;
  let rebuilt = false;
  if (ui.gridKey !== key || rows.length !== n) {
    ui.gridKey = key;
    ui.gridHead.replaceChildren(headRow(v.tokens, true));
    ui.gridBody.replaceChildren(
      ...v.matrix.map((row, r) =>
        h(
          "tr",
          { class: "heatmap__query", "data-row": r },
          h("th", { scope: "row", tabindex: "-1" }, v.tokens[r]),
          row.map(() => h("td", { tabindex: "-1" }, h("span", { class: "visually-hidden" }))),
        ),
      ),
    );
    ui.cellsBuilt = (ui.cellsBuilt ?? 0) + n * n;
    ui.box.dataset.hmCellsBuilt = String(ui.cellsBuilt);
    ui.shownRow = -1;
    rebuilt = true;
  }
  if (image) {
    drawGridImage(ui, v.matrix);
  } else {
    ui.gridBody.style.removeProperty("background-image");
    v.matrix.forEach((row, r) => {
      const cells = rows[r].cells;
      row.forEach((w, k) => {
        const td = cells[k + 1];
        const t = scalePosition(w).toFixed(4);
        if (td.dataset.t !== t) {
          td.dataset.t = t;
          td.style.setProperty("--heat-t", t);
        }
        setText(td.firstChild, formatWeight(w));
      });
    });
  }
  return rebuilt;
}

const setText = (el, text) => {
  if (el.textContent !== text) el.textContent = text;
};

/** The shades of a long sentence as the tbody's background: n x n pixels, scaled to the cells. */
function drawGridImage(ui, matrix) {
  const n = matrix.length;
  ui.canvas ??= document.createElement("canvas");
  ui.canvas.width = n;
  ui.canvas.height = n;
  ui.canvas.getContext("2d").putImageData(new ImageData(pixels(matrix, scaleOf(getComputedStyle(ui.box))), n, n), 0, 0);
  ui.gridBody.style.backgroundImage = `url(${ui.canvas.toDataURL()})`;
}

/** Where the cells lie in the tbody, for its background (measured once per layout). */
function placeGridImage(ui) {
  const rows = ui.gridBody.rows;
  if (!ui.grid.classList.contains("heatmap__grid--image") || !rows.length) return;
  const body = ui.gridBody.getBoundingClientRect();
  const first = rows[0].cells[1].getBoundingClientRect();
  const last = rows[rows.length - 1].cells[rows.length].getBoundingClientRect();
  const s = ui.gridBody.style;
  s.backgroundPosition = `${first.left - body.left}px ${first.top - body.top}px`;
  s.backgroundSize = `${last.right - first.left}px ${last.bottom - first.top}px`;
}

/** The selected row's numbers, in a long sentence's grid (the only cells that hold them). */
function fillRowNumbers(ui, state, pos) {
  if (!ui.grid.classList.contains("heatmap__grid--image")) return;
  const rows = ui.gridBody.rows;
  if (ui.shownRow >= 0 && ui.shownRow !== pos && rows[ui.shownRow]) {
    for (const td of [...rows[ui.shownRow].cells].slice(1)) setText(td.firstChild, "");
  }
  ui.shownRow = pos;
  state.view.matrix[pos].forEach((w, k) => setText(rows[pos].cells[k + 1].firstChild, formatWeight(w)));
}

/** The header row of the grid (with its corner cell's class) or of the table. */
function headRow(tokens, grid) {
  return h(
    "tr",
    {},
    h("th", { scope: "col", class: grid ? "heatmap__corner" : null }, "query → key"),
    tokens.map((t) => h("th", { scope: "col" }, h("span", {}, t))),
  );
}

/**
 * The table alternative holds every number of the shown matrix: it is filled only while
 * its <details> is open (and again when it opens), so a closed one costs no DOM.
 */
function renderTable(ui, state) {
  if (!ui.details.open) {
    ui.tableHead.replaceChildren();
    ui.tableBody.replaceChildren();
    return;
  }
  const v = state.view;
  ui.tableHead.replaceChildren(headRow(v.tokens, false));
  ui.tableBody.replaceChildren(
    ...v.matrix.map((row, r) => h("tr", {}, h("th", { scope: "row" }, v.tokens[r]), row.map((w) => h("td", {}, formatWeight(w))))),
  );
}

/** What changes in the shown head from the first sentence to the second, from the numbers. */
function contrastNote(data, state) {
  if (data.sentences.length < 2) return "";
  const [a, b] = [0, 1].map((s) => viewOf(data, state, s));
  const [sa, sb] = data.sentences;
  const rowOf = (v, s) => v.matrix[v.keep.indexOf(tokenIndex(s.tokens, QUERY))];
  const at = (v, s, t) => rowOf(v, s)[v.keep.indexOf(tokenIndex(s.tokens, t))];
  const top = (v, s) => v.tokens[strongestKey(rowOf(v, s))];
  const animalB = at(b, sb, KEY);
  const streetB = at(b, sb, DISTRACTOR);
  const verdict =
    formatWeight(streetB) === formatWeight(animalB)
      ? `${quote(KEY)} and ${quote(DISTRACTOR)} are level`
      : streetB > animalB
        ? `${quote(DISTRACTOR)} now gets more than ${quote(KEY)}`
        : `${quote(KEY)} still gets more than ${quote(DISTRACTOR)}`;
  return `What changes from “…too ${sa.id}.” to “…too ${sb.id}.” in this head: ${describeChange(
    QUERY, KEY, at(a, sa, KEY), animalB, DIGITS,
  )}; ${describeChange(QUERY, DISTRACTOR, at(a, sa, DISTRACTOR), streetB, DIGITS)}; ${verdict}. The strongest key of ${quote(
    QUERY,
  )} is ${quote(top(a, sa))} with “${sa.id}” and ${quote(top(b, sb))} with “${sb.id}”.`;
}

/**
 * Row `pos` of the shown matrix becomes the selected query: roving tabindex, numbers and
 * bars, live text; with `moveFocus`, focus goes to its cell `cell` (-1: the row header).
 */
function renderRow(ui, state, pos, moveFocus, cell = -1) {
  const v = state.view;
  state.query = v.keep[pos];
  const rows = ui.gridBody.rows;
  for (const tr of rows) {
    const on = Number(tr.dataset.row) === pos;
    tr.classList.toggle("heatmap__query--selected", on);
    tr.setAttribute("aria-selected", String(on));
  }
  roving(ui, rows[pos].cells[moveFocus ? cell + 1 : 0]);
  fillRowNumbers(ui, state, pos);
  const row = v.matrix[pos];
  const best = strongestKey(row);
  const q = v.tokens[pos];
  ui.rowTitle.textContent = `Query ${quote(q)}: its weight on each key`;
  renderBars(ui, v.tokens, row, best);
  ui.live.textContent = `${q} → ${v.tokens[best]} ${formatWeight(row[best])}`;
  state.selections += 1;
  ui.box.dataset.hmSelections = String(state.selections);
  if (moveFocus) rows[pos].cells[cell + 1].focus();
}

/**
 * The row panel's bars: built when the tokens change, else updated in place (a long
 * sentence's layer or head change touches 64 bars, not 64 new list items).
 */
function renderBars(ui, tokens, row, best) {
  const key = tokens.join("\u0000");
  const tag = () => h("span", { class: "heatmap__tag" }, "strongest");
  if (ui.barsKey !== key || ui.bars.children.length !== row.length) {
    ui.barsKey = key;
    ui.bars.replaceChildren(
      ...row.map((w, k) =>
        h(
          "li",
          { class: k === best ? "heatmap__weight heatmap__weight--best" : "heatmap__weight" },
          h("span", { class: "heatmap__key" }, tokens[k]),
          h("span", { class: "heatmap__bar" }, h("span", { style: `width:${(w * 100).toFixed(1)}%` })),
          h("span", { class: "heatmap__num" }, formatWeight(w)),
          k === best && tag(),
        ),
      ),
    );
    return;
  }
  row.forEach((w, k) => {
    const li = ui.bars.children[k];
    li.classList.toggle("heatmap__weight--best", k === best);
    const width = `${(w * 100).toFixed(1)}%`;
    const bar = li.querySelector(".heatmap__bar > span");
    if (bar.style.width !== width) bar.style.width = width;
    setText(li.querySelector(".heatmap__num"), formatWeight(w));
    const has = li.querySelector(".heatmap__tag");
    if (k === best && !has) li.append(tag());
    else if (k !== best && has) has.remove();
  });
}

/** Exactly one cell of the grid is in the tab order: the one last focused. */
function roving(ui, target) {
  for (const el of ui.gridBody.querySelectorAll("[tabindex='0']")) el.tabIndex = -1;
  target.tabIndex = 0;
}

// -------------------------------------------------------------------------------- wire

function wire(ui, state, data, dflt) {
  const rerender = () => render(ui, state, data, dflt);
  const where = (el) => {
    const cellEl = el.closest("th, td");
    const tr = el.closest("tbody tr");
    if (!cellEl || !tr || !ui.grid.contains(tr)) return null;
    return { pos: Number(tr.dataset.row), cell: cellEl.cellIndex - 1 };
  };

  ui.details.addEventListener("toggle", () => renderTable(ui, state));
  // A long sentence's shades are an image: redrawn when the palette changes, placed
  // again when the cells move.
  new MutationObserver(() => {
    if (ui.grid.classList.contains("heatmap__grid--image") && state.view) drawGridImage(ui, state.view.matrix);
  }).observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
  new ResizeObserver(() => placeGridImage(ui)).observe(ui.grid);
  ui.grid.addEventListener("click", (e) => {
    const at = where(e.target);
    if (at) renderRow(ui, state, at.pos, true, at.cell);
  });
  ui.grid.addEventListener("focusin", (e) => {
    if (where(e.target)) roving(ui, e.target.closest("th, td"));
  });
  ui.grid.addEventListener("keydown", (e) => {
    const at = where(e.target);
    if (!at) return;
    const n = state.view.matrix.length;
    let { pos, cell } = at;
    switch (e.key) {
      case "ArrowUp": pos = Math.max(0, pos - 1); break;
      case "ArrowDown": pos = Math.min(n - 1, pos + 1); break;
      case "Home": case "PageUp": pos = 0; break;
      case "End": case "PageDown": pos = n - 1; break;
      case "ArrowLeft": cell = Math.max(-1, cell - 1); break;
      case "ArrowRight": cell = Math.min(n - 1, cell + 1); break;
      case "Enter": case " ": break;
      default: return;
    }
    e.preventDefault();
    if (pos !== at.pos || e.key === "Enter" || e.key === " ") renderRow(ui, state, pos, true, cell);
    else ui.gridBody.rows[pos].cells[cell + 1].focus();
  });

  ui.layer.addEventListener("change", () => {
    state.layer = Number(ui.layer.value);
    rerender();
  });
  ui.head.addEventListener("change", () => {
    state.head = Number(ui.head.value);
    rerender();
  });
  ui.hide.addEventListener("change", () => {
    state.hide = ui.hide.checked;
    rerender();
  });
  ui.sentences.addEventListener("change", (e) => {
    if (e.target.name === `${ui.id}-s`) {
      state.sentence = Number(e.target.value);
      rerender();
    }
  });
}
