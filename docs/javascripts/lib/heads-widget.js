// The "every head of a layer" widget: mount(box, data) builds it inside its box. Loaded
// by ../widgets.js only when the box comes near the screen;
// data.attention is the exported attention of all-MiniLM-L6-v2
// (assets/data/it_attention.json), data.roles the build's classification of its heads
// (assets/data/head_roles.json, from site_build/heads_figure.py).
//
// The twelve small heatmaps and the open head are canvases with one pixel per cell,
// scaled up by CSS, so the widget stays a few hundred elements at most; the numbers of
// the open head are in a real table, built only while its <details> is open. The widget
// follows the site's pattern (lib/dom.js): one state object, layout() once, render
// functions that read the state, wire() for the events.
//
// "Try your own sentence" (lib/own-sentence.js, the same field and model as lesson 1's
// heatmap) adds the reader's sentence: its heads' roles are computed here, in the
// browser, by lib/head-roles.js, the JavaScript of the rule the build applies in Python.
import { formatWeight, h, uniqueId } from "./dom.js";
import { headRole } from "./head-roles.js";
import { fromUnits, scaleOf } from "./heatmap-math.js";
import { ownSentence, ownSentenceRadio, sentencePicker } from "./own-sentence.js";
import {
  cellAt, checkRoles, defaultLayer, describeHead, headCaption, layerSummary, moveIndex, pixels,
} from "./heads-math.js";

/** Build the widget in `box` and wire every control. */
export function mount(box, shared) {
  if (!box.isConnected) return;
  checkRoles(shared.roles, shared.attention);
  // The reader's own sentence is added to this widget's copies of the data only.
  const attention = { ...shared.attention, sentences: [...shared.attention.sentences] };
  const roles = { ...shared.roles, sentences: { ...shared.roles.sentences } };
  const first = defaultLayer(roles.sentences[attention.sentences[0].id]);
  const state = {
    sentence: 0,
    layer: first,
    focus: 0, // the small head in the tab order
    open: null, // the head shown in full, or null
    shown: null, // {tokens, matrix} of the open head
    marked: null, // {row, col} under the pointer
    opens: 0,
  };
  const ctx = { box, ui: layout(box, attention, uniqueId("hd")), state, attention, roles };
  ctx.ui.layer.value = String(state.layer + 1);
  wire(ctx);
  ctx.ui.own.replaceWith(ownSentence(ctx.ui.id, (entry) => showOwn(ctx, entry)));
  renderHeads(ctx);
  box.dataset.hdDefault = String(first);
}

// ------------------------------------------------------------------------------ layout

function layout(box, data, id) {
  const ui = {
    id,
    layer: h(
      "select",
      { "data-hd": "layer" },
      // Option values are layer numbers as shown (from 1); state.layer counts from 0.
      Array.from({ length: data.layers }, (_, i) => h("option", {}, String(i + 1))),
    ),
    sentences: sentencePicker(id, data.sentences),
    status: h("p", { class: "heads__status", "data-hd": "status", id: `${id}-status` }),
    buttons: Array.from({ length: data.heads }, (_, head) =>
      h(
        "button",
        {
          type: "button",
          class: "heads__head",
          "data-head": head,
          tabindex: head === 0 ? 0 : -1,
          "aria-expanded": "false",
          "aria-controls": `${id}-full`,
        },
        h("span", { class: "heads__name" }, `Head ${head + 1}`),
        h("canvas", { "aria-hidden": "true" }),
        h("span", { class: "heads__role" }),
        h("span", { class: "heads__share" }),
      ),
    ),
    ramp: h("canvas", { class: "heads__ramp", "data-hd": "ramp", width: 101, height: 1 }),
    title: h("p", { class: "heads__title", id: `${id}-full-title`, "data-hd": "title" }),
    close: h("button", { type: "button", class: "heads__close", "data-hd": "close" }, "Close"),
    map: h("div", { class: "heads__map", role: "img", "data-hd": "map" }),
    cols: h("div", { class: "heads__cols", "data-hd": "cols" }),
    rows: h("div", { class: "heads__rows", "data-hd": "rows" }),
    canvas: h("canvas", { "data-hd": "canvas" }),
    readout: h("p", { class: "heads__readout", "data-hd": "readout" }),
    tableCaption: h("caption", { id: `${id}-tcap` }),
    tableHead: h("thead"),
    tableBody: h("tbody"),
    live: h("p", { class: "visually-hidden", "aria-live": "polite", "aria-atomic": "true", "data-hd": "live" }),
    mapScroll: h("div", { class: "widget__scroll", "data-hd": "map-scroll" }),
    own: h("div"), // the own-sentence form takes its place (mount)
  };
  ui.grid = h(
    "div",
    {
      class: "heads__grid",
      role: "group",
      "aria-labelledby": `${id}-status`,
      "aria-describedby": `${id}-help`,
      "data-hd": "heads",
    },
    ui.buttons,
  );
  ui.mapScroll.append(ui.map);
  ui.map.append(h("span", { class: "heads__corner" }, "query ↓ key →"), ui.cols, ui.rows, h("div", { class: "heads__cells" }, ui.canvas));
  ui.details = h(
    "details",
    { class: "widget__table", "data-hd": "details" },
    h("summary", {}, "The numbers as a table"),
    h(
      "div",
      { class: "widget__scroll", tabindex: "0", role: "region", "aria-labelledby": `${id}-tcap` },
      h("table", { class: "widget__data", "data-hd": "table" }, ui.tableCaption, ui.tableHead, ui.tableBody),
    ),
  );
  ui.full = h(
    "div",
    { class: "heads__full", id: `${id}-full`, role: "group", "aria-labelledby": `${id}-full-title`, "data-hd": "full", hidden: true },
    h("div", { class: "heads__full-top" }, ui.title, ui.close),
    h(
      "p",
      { class: "heads__full-help" },
      "Rows are queries, columns are keys; each row sums to 1. Point at a cell to read its weight; every weight is in the table below.",
    ),
    ui.mapScroll,
    ui.readout,
    ui.details,
  );
  box.replaceChildren(
    h(
      "div",
      { class: "heads__controls" },
      ui.sentences,
      h("label", { class: "widget__pick" }, "Layer ", ui.layer),
    ),
    ui.status,
    h(
      "p",
      { class: "heads__help", id: `${id}-help` },
      "Each square is one head: rows are queries, columns are keys, and a darker cell (lighter, in the " +
        "dark palette) is more weight. Arrow keys move between heads; Enter or Space opens one in full.",
    ),
    ui.grid,
    h(
      "div",
      {
        class: "widget__legend",
        role: "img",
        "aria-label": "Colour scale: weight 0 is faint, weight 1 is strong; the numbers of an open head are in its table",
      },
      h("span", {}, "0"),
      ui.ramp,
      h("span", {}, "1"),
    ),
    ui.own,
    ui.full,
    ui.live,
  );
  return ui;
}

// ------------------------------------------------------------------------------- state

/** How captions name a sentence: “…too tired.”, or "your sentence". */
const labelOf = (sent) => (sent.own ? "your sentence" : `“…too ${sent.id}.”`);

/**
 * The reader's sentence arrived (own-sentence.js): its 72 heads get their roles here,
 * by head-roles.js; it becomes the widget's last sentence (replacing an earlier one),
 * with its own radio button, shown at the layer whose heads have the most different
 * roles (the widget's rule for the fixed sentences too). An open head stays open, now
 * on the reader's sentence. Returns the sentence own-sentence.js shows in its message.
 */
function showOwn(ctx, entry) {
  const { ui, state, attention, roles } = ctx;
  const layers = entry.attention.map((heads) => heads.map((m) => headRole(m, entry.tokens)));
  const sent = { id: entry.id, tokens: entry.tokens, attention: entry.attention, scale: entry.scale, own: true };
  const index = attention.sentences.findIndex((s) => s.own);
  const at = index >= 0 ? index : attention.sentences.length;
  attention.sentences[at] = sent;
  roles.sentences[sent.id] = layers;
  ui.ownRadio ??= ownSentenceRadio(ui.sentences, ui.id, at, { "data-hd": "own" });
  ui.ownRadio.checked = true;
  state.sentence = at;
  state.layer = defaultLayer(layers);
  ui.layer.value = String(state.layer + 1);
  ctx.rerender();
  return (
    `The heads open on layer ${state.layer + 1}, the layer whose heads have the most different roles; ` +
    "each head's role is worked out in your browser, by the rule the site's build uses."
  );
}

// ------------------------------------------------------------------------------ render

const matrixOf = ({ attention }, s, layer, head) => {
  const sent = attention.sentences[s];
  return fromUnits(sent.attention[layer][head], sent.scale ?? attention.scale);
};
const entriesOf = ({ attention, roles, state }) => roles.sentences[attention.sentences[state.sentence].id][state.layer];

/** Paint `matrix` into `target`, one pixel a cell, in the palette's heat scale. */
function draw(target, matrix, scale) {
  const rows = matrix.length;
  const cols = matrix[0].length;
  if (target.width !== cols) target.width = cols;
  if (target.height !== rows) target.height = rows;
  target.getContext("2d").putImageData(new ImageData(pixels(matrix, scale), cols, rows), 0, 0);
}

/** The twelve small heads of the state's layer, their captions, the status and the legend. */
function renderHeads(ctx) {
  const { ui, state, attention, roles } = ctx;
  const scale = scaleOf(getComputedStyle(ctx.box));
  const entries = entriesOf(ctx);
  ui.buttons.forEach((b, head) => {
    draw(b.querySelector("canvas"), matrixOf(ctx, state.sentence, state.layer, head), scale);
    const { label, short } = headCaption(entries[head], roles.roles);
    b.querySelector(".heads__role").textContent = label;
    b.querySelector(".heads__share").textContent = short;
    b.dataset.role = entries[head].role;
  });
  ui.status.textContent = `Heads of layer ${state.layer + 1} of ${attention.layers}, with ${labelOf(
    attention.sentences[state.sentence],
  )}: ${layerSummary(entries, roles.roles)}.`;
  draw(ui.ramp, [Array.from({ length: 101 }, (_, i) => i / 100)], scale);
}

/** The open head: its heatmap with token labels, the readout and (while open) its table. */
function renderFull(ctx) {
  const { ui, state, attention, roles } = ctx;
  const head = state.open;
  const sent = attention.sentences[state.sentence];
  state.shown = { tokens: sent.tokens, matrix: matrixOf(ctx, state.sentence, state.layer, head) };
  state.marked = null;
  ui.title.textContent = describeHead(state.layer, head, entriesOf(ctx)[head], roles.roles);
  ui.close.setAttribute("aria-label", `Close the full view of head ${head + 1}`);
  ui.map.style.setProperty("--heads-n", String(sent.tokens.length));
  ui.map.setAttribute(
    "aria-label",
    `Heatmap of layer ${state.layer + 1}, head ${head + 1}, ${labelOf(sent)}; its numbers are in the table below`,
  );
  const labels = () => sent.tokens.map((t) => h("span", { class: "heads__token" }, t));
  ui.cols.replaceChildren(...labels());
  ui.rows.replaceChildren(...labels());
  draw(ui.canvas, state.shown.matrix, scaleOf(getComputedStyle(ctx.box)));
  scrollStop(ctx);
  ui.readout.textContent = "";
  ui.tableCaption.textContent = `Attention weights of layer ${state.layer + 1}, head ${head + 1}, ${labelOf(
    sent,
  )}: rows are queries, columns are keys; each row sums to 1.`;
  renderTable(ctx);
  ui.buttons.forEach((b, i) => b.setAttribute("aria-expanded", String(i === head)));
}

/**
 * The open head's picture scrolls sideways when its tokens do not fit (a long sentence, a
 * phone): only then is its box a named tab stop, so that a keyboard can scroll it too.
 */
function scrollStop({ ui }) {
  const s = ui.mapScroll;
  if (s.scrollWidth > s.clientWidth + 1) {
    s.tabIndex = 0;
    s.setAttribute("role", "region");
    s.setAttribute("aria-labelledby", ui.title.id);
  } else {
    s.removeAttribute("tabindex");
    s.removeAttribute("role");
    s.removeAttribute("aria-labelledby");
  }
}

/** Every number of the open head, filled only while the <details> is open. */
function renderTable({ ui, state }) {
  if (!ui.details.open || !state.shown) {
    ui.tableHead.replaceChildren();
    ui.tableBody.replaceChildren();
    return;
  }
  const { tokens, matrix } = state.shown;
  ui.tableHead.replaceChildren(
    h("tr", {}, h("th", { scope: "col" }, "query → key"), tokens.map((t) => h("th", { scope: "col" }, t))),
  );
  ui.tableBody.replaceChildren(
    ...matrix.map((row, r) => h("tr", {}, h("th", { scope: "row" }, tokens[r]), row.map((w) => h("td", {}, formatWeight(w))))),
  );
}

/** Exactly one small head is in the tab order: the one last focused. */
function roving({ ui, state }, head) {
  state.focus = head;
  ui.buttons.forEach((b, i) => {
    b.tabIndex = i === head ? 0 : -1;
  });
}

/** The row and column labels of the cell under the pointer stand out. */
function mark({ ui, state }, cell) {
  if (state.marked) {
    ui.rows.children[state.marked.row]?.classList.remove("heads__token--on");
    ui.cols.children[state.marked.col]?.classList.remove("heads__token--on");
  }
  state.marked = cell;
  if (!cell) return;
  ui.rows.children[cell.row].classList.add("heads__token--on");
  ui.cols.children[cell.col].classList.add("heads__token--on");
}

// -------------------------------------------------------------------------------- wire

function wire(ctx) {
  const { box, ui, state } = ctx;
  const say = (text) => {
    ui.live.textContent = text;
  };

  function open(head) {
    state.open = head;
    ui.full.hidden = false;
    renderFull(ctx);
    state.opens += 1;
    box.dataset.hdOpens = String(state.opens);
    say(`Opened ${ui.title.textContent}.`);
    ui.full.scrollIntoView({ block: "nearest" });
    ui.close.focus({ preventScroll: true });
  }

  function close() {
    if (state.open === null) return;
    const head = state.open;
    state.open = null;
    state.shown = null;
    ui.full.hidden = true;
    ui.details.open = false;
    ui.buttons.forEach((b) => b.setAttribute("aria-expanded", "false"));
    say(`Closed head ${head + 1} of layer ${state.layer + 1}.`);
    roving(ctx, head);
    ui.buttons[head].focus();
  }

  function rerender() {
    renderHeads(ctx);
    if (state.open !== null) {
      renderFull(ctx);
      say(`Now showing ${ui.title.textContent}.`);
    }
  }
  ctx.rerender = rerender;

  ui.details.addEventListener("toggle", () => renderTable(ctx));
  ui.grid.addEventListener("click", (e) => {
    const b = e.target.closest(".heads__head");
    if (!b) return;
    const head = Number(b.dataset.head);
    roving(ctx, head);
    if (state.open === head) close();
    else open(head);
  });
  ui.grid.addEventListener("focusin", (e) => {
    const b = e.target.closest(".heads__head");
    if (b) roving(ctx, Number(b.dataset.head));
  });
  ui.grid.addEventListener("keydown", (e) => {
    const b = e.target.closest(".heads__head");
    if (!b) return;
    const columns = getComputedStyle(ui.grid).gridTemplateColumns.split(" ").length;
    const to = moveIndex(Number(b.dataset.head), e.key, ui.buttons.length, columns);
    if (to === null) return;
    e.preventDefault();
    roving(ctx, to);
    ui.buttons[to].focus();
  });
  ui.close.addEventListener("click", close);
  box.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && state.open !== null) {
      e.preventDefault();
      close();
    }
  });

  // The readout: the weight under the pointer (mouse, pen or touch).
  function point(e) {
    if (!state.shown) return;
    const rect = ui.canvas.getBoundingClientRect();
    const n = state.shown.tokens.length;
    const cell = cellAt(e.clientX - rect.left, e.clientY - rect.top, rect.width, rect.height, n, n);
    mark(ctx, cell);
    if (!cell) return;
    const { tokens, matrix } = state.shown;
    ui.readout.textContent = `${tokens[cell.row]} → ${tokens[cell.col]} ${formatWeight(matrix[cell.row][cell.col])}`;
  }
  ui.canvas.addEventListener("pointermove", point);
  ui.canvas.addEventListener("pointerdown", point);
  ui.canvas.addEventListener("pointerleave", () => mark(ctx, null));

  ui.layer.addEventListener("change", () => {
    state.layer = Number(ui.layer.value) - 1;
    rerender();
  });
  ui.sentences.addEventListener("change", (e) => {
    if (e.target.name === `${ui.id}-s`) {
      state.sentence = Number(e.target.value);
      rerender();
    }
  });

  // Material switches the palette by an attribute of <body>: repaint the canvases then.
  const palette = new MutationObserver(() => {
    if (!box.isConnected) {
      palette.disconnect();
      return;
    }
    renderHeads(ctx);
    if (state.shown) draw(ui.canvas, state.shown.matrix, scaleOf(getComputedStyle(box)));
  });
  palette.observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
}
