// Lesson 5's generation widget: mount(box, data) builds it inside its box. Loaded through
// ../widgets.js only when the box comes near the screen; data.model is lesson 4's trained
// model (assets/data/generate.json, written by site_build/widget_data.py).
//
// The reader types letters; lesson 4's model continues them greedily, one letter a step,
// with a cache of keys and values (generate-math.js), until its 24 positions are full. At
// each step the widget shows the newest token's attention over the cached keys (for the
// layer and head picked), how many rows each layer's cache holds and their bytes, and the
// multiply-adds the cache has saved so far. The logits of the last step are kept in the
// box's data-logits attribute (JSON), which the browser test compares with numpy.
// The pattern is the site's (lib/dom.js): one state object, layout() once, render() from
// the state, wire() for the events.
import { formatWeight, h, uniqueId } from "./dom.js";
import {
  BYTES_PER_VALUE, cachedTokens, groupDigits, isDone, layerCacheBytes, maxLetters, parsePrompt, prepare, startRun, stepRun, symbolOf,
} from "./generate-math.js";
import { scalePosition } from "./heatmap-math.js";

const quote = (t) => `“${t}”`;

/** Build the widget in `box` and wire its controls. */
export function mount(box, { model: data }) {
  if (!box.isConnected) return;
  const model = prepare(data);
  const state = { text: data.prompt, run: null, error: null, layer: 0, head: 0 };
  const ctx = { box, model, state, ui: layout(box, model, data.prompt, uniqueId("gen")) };
  restart(ctx);
  wire(ctx);
  render(ctx);
}

// ------------------------------------------------------------------------------- state

/** A new run from the letters in the field, or the reason there is none. */
function restart({ model, state }) {
  try {
    state.run = startRun(model, parsePrompt(state.text, model.letters, maxLetters(model)));
    state.error = null;
  } catch (error) {
    state.run = null;
    state.error = error.message;
  }
}

// ------------------------------------------------------------------------------ layout

function layout(box, model, prompt, id) {
  const options = (n) => Array.from({ length: n }, (_, i) => h("option", { value: i }, String(i + 1)));
  const button = (key, text, type = "button") =>
    h("button", { type, class: "generate__button", "data-gen": key }, text);
  const ui = {
    form: null,
    prompt: h("input", {
      type: "text", id: `${id}-prompt`, value: prompt, "data-gen": "prompt",
      autocomplete: "off", autocapitalize: "none", spellcheck: "false", inputmode: "text",
      "aria-describedby": `${id}-status`,
    }),
    next: button("next", "Next letter", "submit"),
    run: button("run", "Run to the end"),
    reset: button("reset", "Reset"),
    status: h("p", { class: "generate__status", id: `${id}-status`, "data-gen": "status", "aria-live": "polite" }),
    text: h("p", { class: "generate__text", "data-gen": "text" }),
    layer: h("select", { id: `${id}-layer`, "data-gen": "layer" }, options(model.layers)),
    head: h("select", { id: `${id}-head`, "data-gen": "head" }, options(model.heads)),
    rowTitle: h("p", { class: "generate__row-title", id: `${id}-row-title`, "data-gen": "row-title" }),
    row: h("ol", { class: "generate__row", "data-gen": "row", "aria-labelledby": `${id}-row-title` }),
    layers: [],
    step: h("p", { class: "generate__cost", "data-gen": "cost" }),
    saved: h("p", { class: "generate__saved", "data-gen": "saved" }),
  };
  ui.form = h("form", { class: "generate__form" },
    h("label", { for: `${id}-prompt` }, "Your letters"),
    ui.prompt,
    h("span", { class: "generate__buttons" }, ui.next, ui.run, ui.reset),
  );
  const cache = Array.from({ length: model.layers }, (_, layer) => {
    const count = h("span", { class: "generate__count", "data-gen": "cache", "data-layer": layer });
    const fill = h("span", { class: "generate__fill" });
    ui.layers.push({ count, fill });
    return h("li", { class: "generate__layer" },
      h("span", { class: "generate__gauge", "aria-hidden": "true" }, fill), count);
  });
  box.replaceChildren(h("div", { class: "generate__body widget__body" },
    ui.form,
    ui.status,
    ui.text,
    h("div", { class: "generate__panes" },
      h("section", { class: "generate__attention", "aria-label": "Attention of the newest token" },
        h("p", { class: "generate__pick" },
          h("label", { for: `${id}-layer` }, "Layer"), ui.layer,
          h("label", { for: `${id}-head` }, "Head"), ui.head),
        ui.rowTitle,
        ui.row,
      ),
      h("section", { class: "generate__cache", "aria-label": "The cache and the work it saves" },
        h("p", { class: "generate__heading" },
          `The cache: a key row and a value row of ${model.d} numbers for each token read, in each layer (${BYTES_PER_VALUE} bytes a number)`),
        h("ul", { class: "generate__layers" }, cache),
        ui.step,
        ui.saved,
      ),
    ),
  ));
  return ui;
}

// ------------------------------------------------------------------------------ render

function render(ctx) {
  const { box, model, state, ui } = ctx;
  const { run } = state;
  const last = run && run.last;
  const done = !run || isDone(model, run);
  ui.next.disabled = done;
  ui.run.disabled = done;
  // A button that just became disabled would drop the keyboard's focus to the page.
  if ((document.activeElement === ui.next || document.activeElement === ui.run) && done) ui.reset.focus();
  ui.status.classList.toggle("generate__status--error", Boolean(state.error));
  ui.status.textContent = state.error || describe(model, run);
  renderText(ctx);
  renderRow(ctx);
  const rows = run ? cachedTokens(run.cache) : 0;
  ui.layers.forEach(({ count, fill }, layer) => {
    count.textContent = `Layer ${layer + 1}: ${rows} key rows and ${rows} value rows, ${
      groupDigits(layerCacheBytes(rows, model.d))} bytes`;
    fill.style.width = `${((100 * rows) / model.maxLen).toFixed(2)}%`;
  });
  ui.step.textContent = last
    ? `This step's logits, with ${last.n} tokens in context: ${groupDigits(last.cost.recompute)} multiply-adds recomputing all ${
      last.n}, ${groupDigits(last.cost.cached)} ${last.fed > 1
        ? `with the cache, which reads all ${last.fed} once: the first step saves nothing.`
        : "for the newest alone, the others cached."}`
    : `Per step with n tokens in context: ${formula(model)}.`;
  ui.saved.textContent = `Multiply-adds saved so far: ${groupDigits(run ? run.saved : 0)}.`;
  if (last) box.dataset.logits = JSON.stringify(Array.from(last.logits));
  else delete box.dataset.logits;
}

/** The two counts of generate-math.js's multiplyAdds, with the model's sizes put in. */
function formula(model) {
  const { layers: L, d: D, vocab: V } = model;
  return `recomputing costs ${L}(${4 * D * D}n + ${D}n(n+1)) + ${D * V}n, the cache ${L}(${4 * D * D} + ${2 * D}n) + ${D * V}`;
}

/** The status line: what the last step did, or what the next one will do. */
function describe(model, run) {
  const context = `The context holds ${run.tokens.length} of ${model.maxLen} tokens.`;
  if (!run.last) {
    return `Press Next letter: the model reads the start token and your ${run.promptTokens - 1} letters, then writes one. ${context}`;
  }
  const { query, next } = run.last;
  const wrote = `Step ${run.steps}: the model read ${quote(symbolOf(model, run.tokens[query]))} and wrote ${quote(symbolOf(model, next))}.`;
  const end = isDone(model, run) ? " It is full: change the letters or press Reset." : "";
  return `${wrote} ${context}${end}`;
}

/** The tokens so far: the prompt, then what the model wrote (marked). */
function renderText({ model, state, ui }) {
  const { run } = state;
  if (!run) {
    ui.text.replaceChildren();
    return;
  }
  const spell = (tokens) => tokens.map((t) => symbolOf(model, t)).join("");
  const written = run.tokens.slice(run.promptTokens);
  ui.text.replaceChildren(
    h("span", { class: "generate__prompt", "data-gen": "read" }, spell(run.tokens.slice(0, run.promptTokens))),
    written.length ? h("strong", { class: "generate__written", "data-gen": "written" }, spell(written)) : null,
  );
}

/** The newest token's attention row over the cached keys, in the picked layer and head. */
function renderRow({ model, state, ui }) {
  const last = state.run && state.run.last;
  if (!last) {
    ui.rowTitle.textContent = "The newest token's attention shows here after the first step.";
    ui.row.replaceChildren();
    return;
  }
  const w = last.weights[state.layer][state.head]; // (n,)
  let best = 0;
  w.forEach((v, j) => { if (v > w[best]) best = j; });
  const tokens = state.run.tokens;
  ui.rowTitle.textContent = `Where the newest token, ${quote(symbolOf(model, tokens[last.query]))}, looks in layer ${
    state.layer + 1}, head ${state.head + 1}, over the ${w.length} cached keys:`;
  ui.row.replaceChildren(...Array.from(w, (v, j) =>
    h("li", { class: j === best ? "generate__key generate__key--best" : "generate__key", "data-key": j },
      h("span", { class: "generate__letter" }, symbolOf(model, tokens[j])),
      h("span", { class: "generate__bar", "aria-hidden": "true" },
        h("span", { style: `--heat-t:${scalePosition(v).toFixed(4)};height:${(100 * v).toFixed(1)}%` })),
      h("span", { class: "generate__weight", "data-gen": "weight" }, formatWeight(v)),
    )));
}

// -------------------------------------------------------------------------------- wire

function wire(ctx) {
  const { model, state, ui } = ctx;
  const step = () => {
    if (state.run && !isDone(model, state.run)) stepRun(model, state.run);
  };
  ui.form.addEventListener("submit", (event) => {
    event.preventDefault(); // Enter in the field, or the Next letter button
    step();
    render(ctx);
  });
  ui.run.addEventListener("click", () => {
    while (state.run && !isDone(model, state.run)) step();
    render(ctx);
  });
  ui.reset.addEventListener("click", () => {
    state.text = ui.prompt.value;
    restart(ctx);
    render(ctx);
  });
  ui.prompt.addEventListener("input", () => {
    state.text = ui.prompt.value;
    restart(ctx);
    render(ctx);
  });
  ui.layer.addEventListener("change", () => {
    state.layer = Number(ui.layer.value);
    renderRow(ctx);
  });
  ui.head.addEventListener("change", () => {
    state.head = Number(ui.head.value);
    renderRow(ctx);
  });
}
