// Lesson 4's training widget: mount(box, data) builds it inside its box. Loaded through
// ../widgets.js only when the box comes near the screen; data.run is the committed
// training run, slimmed by site_build/widget_data.py (assets/data/training.json).
//
// One slider walks the 40 checkpoints of the run. The loss curves of the first half and
// of the repeat are an SVG with a marker at the checkpoint; under them, every head's
// attention on the probe at that checkpoint is a canvas with one pixel per cell (scaled
// up by CSS), captioned with its previous-token and induction scores, which are worked
// out here from the map (training-math.js). The pattern is the site's (lib/dom.js): one
// state object, layout() once, render() from the state, wire() for the events.
import { h, svg, uniqueId } from "./dom.js";
import { pixels } from "./heads-math.js";
import { scaleOf } from "./heatmap-math.js";
import { UNIFORM_LOSS, curvePoints, describeCheckpoint, headScores, square } from "./training-math.js";

/** The loss plot's drawing area, in SVG user units (the CSS scales it to the box). */
const PLOT = { width: 320, height: 120, left: 34, top: 8, bottom: 22, right: 8 };
/** The loss axis runs from 0 to this many nats. */
const MAX_LOSS = 3.6;

/** Build the widget in `box` and wire its controls. */
export function mount(box, { run: data }) {
  if (!box.isConnected) return;
  checkData(data);
  const state = { at: 0 };
  const ctx = { box, data, state, ui: layout(box, data, uniqueId("tr")) };
  wire(ctx);
  render(ctx);
}

/** The data must hold one loss pair and one set of maps per checkpoint. */
function checkData(data) {
  const n = data.steps.length;
  for (const key of ["first", "repeat", "attention"]) {
    if (!Array.isArray(data[key]) || data[key].length !== n) {
      throw new Error(`training data: ${key} has ${data[key] && data[key].length} entries, steps ${n}`);
    }
  }
}

// ------------------------------------------------------------------------------ layout

function layout(box, data, id) {
  const last = data.steps.length - 1;
  const maxStep = data.steps[last];
  const { width, height, left, top, bottom, right } = PLOT;
  const plot = { maxStep, maxLoss: MAX_LOSS, width: width - left - right, height: height - top - bottom };
  const y = (loss) => (top + plot.height - (loss / MAX_LOSS) * plot.height).toFixed(1);
  const ui = {
    slider: h("input", {
      type: "range", id: `${id}-step`, min: 0, max: last, step: 1, value: 0, "data-tr": "step",
      "aria-describedby": `${id}-status`,
    }),
    shown: h("output", { for: `${id}-step`, class: "training__shown", "data-tr": "shown" }),
    earlier: h("button", { type: "button", class: "training__nudge", "data-tr": "earlier" }, "Earlier"),
    later: h("button", { type: "button", class: "training__nudge", "data-tr": "later" }, "Later"),
    marker: svg("line", { class: "training__marker", y1: top, y2: top + plot.height }),
    dots: [svg("circle", { class: "training__dot training__dot--first", r: 3 }),
      svg("circle", { class: "training__dot training__dot--repeat", r: 3 })],
    status: h("p", { class: "training__status", id: `${id}-status`, "data-tr": "status", "aria-live": "polite" }),
    heads: [],
  };
  const curve = svg(
    "svg",
    {
      class: "training__curve", viewBox: `0 0 ${width} ${height}`, role: "img",
      "aria-label": `The loss of the first half and of the repeat, in nats, over ${maxStep} training steps`,
    },
    svg("g", { transform: `translate(${left} 0)` },
      svg("line", { class: "training__axis", x1: 0, x2: 0, y1: top, y2: top + plot.height }),
      svg("line", { class: "training__axis", x1: 0, x2: plot.width, y1: top + plot.height, y2: top + plot.height }),
      svg("line", { class: "training__uniform", x1: 0, x2: plot.width, y1: y(UNIFORM_LOSS), y2: y(UNIFORM_LOSS) }),
      [0, 1, 2, 3].map((v) => svg("text", { class: "training__tick", x: -6, y: Number(y(v)) + 3, "text-anchor": "end" }, String(v))),
      svg("text", { class: "training__tick", x: 0, y: height - 6 }, "0"),
      svg("text", { class: "training__tick", x: plot.width, y: height - 6, "text-anchor": "end" }, `${maxStep} steps`),
      svg("text", { class: "training__tick", x: plot.width, y: Number(y(UNIFORM_LOSS)) - 4, "text-anchor": "end" }, "ln 26"),
      svg("g", { transform: `translate(0 ${top})` },
        svg("polyline", { class: "training__line training__line--first", points: curvePoints(data.steps, data.first, plot) }),
        svg("polyline", { class: "training__line training__line--repeat", points: curvePoints(data.steps, data.repeat, plot) }),
      ),
      ui.marker,
      ui.dots,
    ),
  );
  ui.x = (step) => (step / maxStep) * plot.width; // inside the group moved by `left`
  ui.y = (loss) => Number(y(Math.min(loss, MAX_LOSS)));
  const legend = h("p", { class: "training__legend" },
    h("span", { class: "training__key training__key--first" }, "first half"),
    h("span", { class: "training__key training__key--repeat" }, "the repeat"),
  );
  const layers = data.attention[0].map((heads, layer) =>
    h("div", { class: "training__layer", "data-layer": layer },
      h("p", { class: "training__layer-name" }, `Layer ${layer + 1}`),
      h("div", { class: "training__grid" },
        heads.map((_, head) => {
          const canvas = h("canvas", { width: data.tokens.length, height: data.tokens.length, "aria-hidden": "true" });
          const score = h("span", { class: "training__score", "data-tr": "score" });
          ui.heads.push({ layer, head, canvas, score });
          return h("figure", { class: "training__head", "data-layer": layer, "data-head": head },
            canvas,
            h("figcaption", {}, h("span", { class: "training__name" }, `Head ${head + 1}`), score),
          );
        }),
      ),
    ),
  );
  box.replaceChildren(h("div", { class: "training__body widget__body" },
    h("div", { class: "training__controls" },
      h("label", { for: `${id}-step` }, "Training step"),
      ui.slider, ui.shown, ui.earlier, ui.later),
    curve,
    legend,
    ui.status,
    h("p", { class: "training__probe" },
      "Each square is one head's attention on the probe ",
      h("code", {}, data.tokens.join("")),
      ": a row for each position, its weights on the positions up to it."),
    layers,
  ));
  return ui;
}

// ------------------------------------------------------------------------------ render

function render(ctx) {
  const { data, state, ui } = ctx;
  const step = data.steps[state.at];
  const scores = headScores(data.attention[state.at], data.half, data.scale);
  ui.slider.value = String(state.at);
  ui.slider.setAttribute("aria-valuetext", `step ${step}`);
  ui.shown.textContent = `step ${step}`;
  ui.earlier.disabled = state.at === 0;
  ui.later.disabled = state.at === data.steps.length - 1;
  const x = ui.x(step).toFixed(1);
  ui.marker.setAttribute("x1", x);
  ui.marker.setAttribute("x2", x);
  [data.first, data.repeat].forEach((losses, k) => {
    ui.dots[k].setAttribute("cx", x);
    ui.dots[k].setAttribute("cy", String(ui.y(losses[state.at])));
  });
  ui.status.textContent = describeCheckpoint(step, data.first[state.at], data.repeat[state.at], scores);
  paint(ctx);
  for (const { layer, head, score } of ui.heads) {
    const s = scores[layer][head];
    score.textContent = `previous ${s.previous.toFixed(2)} · induction ${s.induction.toFixed(2)}`;
  }
}

/** Draw every head's map at the current checkpoint, in the palette's heat scale. */
function paint(ctx) {
  const { box, data, state, ui } = ctx;
  const scale = scaleOf(getComputedStyle(box));
  const n = data.tokens.length;
  for (const { layer, head, canvas } of ui.heads) {
    const matrix = square(data.attention[state.at][layer][head], data.scale);
    canvas.getContext("2d").putImageData(new ImageData(pixels(matrix, scale), n, n), 0, 0);
  }
}

// -------------------------------------------------------------------------------- wire

function wire(ctx) {
  const { box, data, state, ui } = ctx;
  const go = (at) => {
    const next = Math.max(0, Math.min(data.steps.length - 1, at));
    if (next === state.at) return;
    state.at = next;
    render(ctx);
  };
  ui.slider.addEventListener("input", () => go(Number(ui.slider.value)));
  ui.earlier.addEventListener("click", () => go(state.at - 1));
  ui.later.addEventListener("click", () => go(state.at + 1));
  // Material switches the palette by an attribute of <body>: repaint the canvases then.
  const palette = new MutationObserver(() => {
    if (!box.isConnected) palette.disconnect();
    else paint(ctx);
  });
  palette.observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
}
