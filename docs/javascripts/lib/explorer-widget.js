// The query explorer's widget: mount(root, data) builds it inside its container and
// wires every control. Loaded by ../widgets.js only when the explorer comes near the
// screen; its maths is attention-math.js, imported here, and its
// DOM is built with lib/dom.js, like every widget of the site.
import * as m from "./attention-math.js";
import { h, svg, uniqueId } from "./dom.js";

/** A number as the explorer shows it (attention-math: a true minus sign, never "-0.000"). */
const fmt = m.fixed;

const sub = (base, i) => h("span", {}, base, h("sub", {}, String(i)));

// --- the widget -----------------------------------------------------------------
//
// The same shape as the other widgets: `mount` builds the DOM once (`layout`), keeps what
// the reader changes in one state object, renders from that state (`render`, `renderDk`)
// and wires the events apart (`wire`). `config` derives, once, what every part reads
// from the build's data.

/** Build the explorer in `root` from the build's data (data.inputs: assets/data/explorer.json). */
export function mount(root, { inputs: data }) {
  const cfg = config(data);
  const state = {
    q: cfg.W.q.slice(),
    pair: cfg.C.plane_pair.slice(),
    dkIndex: cfg.D.d_k.indexOf(cfg.D.default_d_k),
    seed: cfg.D.seed,
    renders: 0,
    solved: {}, // challenge key -> true, false, or absent before the first render
    news: [], // challenge announcements waiting for the live region
    timers: { live: 0, challenges: 0 },
    samples: new Map(), // "seed:d_k" -> the random query and keys of the d_k experiment
  };
  const ui = layout(cfg, state, uniqueId("ex"));
  wire(ui, state, cfg, root);
  root.replaceChildren(ui.part1, ui.part2);
  drawPlane(ui, state, cfg);
  render(ui, state, cfg, root);
  renderDk(ui, state, cfg, root);
}

/** What every part of the widget reads: the data's sections, the plane's geometry. */
function config(data) {
  const W = data.worked_example;
  const C = data.query_controls;
  const decimals = data.precision.q;
  const PLANE = 220;
  const PM = 26; // margin for the axis labels
  const CH = data.challenges;
  return {
    P: data.precision,
    W,
    C,
    D: data.dk_slider,
    CH,
    spec: { win: CH.win, near: CH.near, double: CH.double },
    winKey: CH.win + 1,
    nearValue: CH.near.value + 1,
    dk: W.d_k,
    n: W.keys.length,
    decimals,
    PLANE,
    PM,
    snap: (v) =>
      Number(Math.min(C.max, Math.max(C.min, Math.round(v / C.step) * C.step)).toFixed(decimals)),
    toPx: (v) => PM + ((v - C.min) / (C.max - C.min)) * (PLANE - 2 * PM),
    fromPx: (px) => C.min + ((px - PM) / (PLANE - 2 * PM)) * (C.max - C.min),
  };
}

const vec = (v, dp) => "[" + v.map((x) => fmt(x, dp)).join(", ") + "]";
const nums = (xs, dp) => xs.map((x) => fmt(x, dp)).join(", ");

/** The challenges, in order: key and wording (the conditions are m.challenges'). */
function tasksOf(cfg) {
  return [
    ["win", [`Make `, sub("k", cfg.winKey), ` win: give it the largest weight. Which components of q must change, and which way?`]],
    ["equal", ["Make all three weights equal. What do equal weights need from the scores?"]],
    ["near", [`Try to make the output exactly `, sub("v", cfg.nearValue), `. Where must the square go, and can it get there?`]],
    ["double", [`Predict what doubling the query does to the weights; then, from the worked example, double every component of q (two Shift+arrow presses on the dot do it).`]],
  ];
}

/** Every element of the widget, built once; returns the ones that render or wire touch. */
function layout(cfg, state, id) {
  const { P, W, C, D, dk, n, PLANE } = cfg;

  // Part 1: the worked example, with a movable query.
  const pairSelect = h("select", { id: `${id}-pair` });
  for (let a = 0; a < dk; a++) {
    for (let b = a + 1; b < dk; b++) {
      const opt = h("option", { value: `${a},${b}` }, `q${a + 1} across, q${b + 1} up`);
      if (a === state.pair[0] && b === state.pair[1]) opt.selected = true;
      pairSelect.append(opt);
    }
  }

  const plane = svg("svg", { class: "ex__plane", viewBox: `0 0 ${PLANE} ${PLANE}` });
  const planeStatic = svg("g");
  const handle = svg("circle", { class: "ex__handle", r: 9, tabindex: 0, role: "slider" });
  plane.append(planeStatic, handle);

  const sliders = [];
  const sliderOutputs = [];
  const sliderBox = h("fieldset", { class: "ex__sliders" }, h("legend", {}, "Query components"));
  for (let i = 0; i < dk; i++) {
    const input = h("input", {
      type: "range", id: `${id}-q${i}`, min: C.min, max: C.max, step: C.step, value: state.q[i],
    });
    const out = h("output", { for: `${id}-q${i}`, class: "ex__num" });
    sliders.push(input);
    sliderOutputs.push(out);
    sliderBox.append(h("div", { class: "ex__slider" }, h("label", { for: input.id }, sub("q", i + 1)), input, out));
  }
  const reset = h("button", { type: "button", class: "ex__button" }, "Back to the worked example");
  sliderBox.append(reset);

  const qLine = h("p", { class: "ex__qline" });
  const tbody = h("tbody");
  const cells = [];
  for (let j = 0; j < n; j++) {
    const c = {
      score: h("td", { class: "ex__num", "data-ex": "score" }),
      scaled: h("td", { class: "ex__num", "data-ex": "scaled" }),
      weight: h("span", { class: "ex__num", "data-ex": "weight" }),
      bar: h("span", { class: "ex__bar-fill" }),
    };
    cells.push(c);
    tbody.append(
      h("tr", {},
        h("th", { scope: "row" }, sub("k", j + 1), " ", h("span", { class: "ex__vec" }, `[${W.keys[j].map((x) => fmt(x, 0)).join(",")}]`)),
        c.score, c.scaled,
        h("td", { class: "ex__wcell" }, h("span", { class: "ex__bar", "aria-hidden": "true" }, c.bar), c.weight)),
    );
  }
  const table = h("table", { class: "ex__table" },
    h("caption", {}, `Each key's score, the score times 1/√${dk} = ${fmt(W.scale, 2)}, and its softmax weight`),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, "key"),
      h("th", { scope: "col" }, "q·k", h("sub", {}, "j")),
      h("th", { scope: "col" }, `÷ √${dk}`),
      h("th", { scope: "col" }, "weight α", h("sub", {}, "j")))),
    tbody);

  const outPlot = outputPlot(W.values);
  const outText = h("span", { class: "ex__num", "data-ex": "output" });
  const figure = h("figure", { class: "ex__out" }, outPlot.svg,
    h("figcaption", { id: `${id}-outcap` }, "output = ", outText,
      `: the weighted average of the values v1…v${n} (circles); the square is the output.`));
  outPlot.svg.setAttribute("aria-labelledby", `${id}-outcap`);

  const live = h("p", { class: "visually-hidden", "aria-live": "polite", "data-ex": "live" });

  // The challenges: predict, then check. Each one's condition is computed by the maths
  // module from the query (m.challenges); here they are only worded and shown.
  const chItems = {};
  const chList = h("ol", { class: "ex-ch__list" });
  for (const [key, text] of tasksOf(cfg)) {
    const status = h("p", { class: "ex-ch__status", "data-ex": `challenge-${key}` });
    const li = h("li", { class: "ex-ch__item", "data-challenge": key, "data-solved": "false" },
      h("p", { class: "ex-ch__task" }, ...text), status);
    chItems[key] = { li, status };
    chList.append(li);
  }
  const chLive = h("p", { class: "visually-hidden", "aria-live": "polite", "data-ex": "challenge-live" });
  const challengeBox = h("section", { class: "ex-ch", "aria-labelledby": `${id}-t3` },
    h("p", { class: "ex__title", id: `${id}-t3` }, "Predict, then check"),
    h("p", { class: "ex__hint" }, "Before you move anything, say what you expect. Each task ticks itself when the explorer reaches it."),
    chList, chLive);

  const part1 = h("section", { class: "ex__part", "aria-labelledby": `${id}-t1` },
    h("p", { class: "ex__title", id: `${id}-t1` }, "Move the query"),
    h("div", { class: "ex__row" },
      h("div", { class: "ex__planebox" },
        h("label", { for: pairSelect.id }, "Plane: "), pairSelect, plane,
        h("p", { class: "ex__hint" },
          "Drag the dot, or focus it and use the arrow keys (Shift: steps of 1). Squares mark the keys' components in this plane.")),
      sliderBox),
    qLine,
    h("div", { class: "ex__row" }, h("div", { class: "ex__tablebox" }, table), figure),
    live, challengeBox);

  // Part 2: the d_k experiment.
  const dkInput = h("input", { type: "range", id: `${id}-dk`, min: 0, max: D.d_k.length - 1, step: 1, value: state.dkIndex });
  const dkOut = h("output", { for: dkInput.id, class: "ex__num", "data-ex": "dk" });
  const seedOut = h("output", { class: "ex__num", "data-ex": "seed" });
  const reseed = h("button", { type: "button", class: "ex__button" }, "New sample");
  const dkBody = h("tbody");
  const dkCells = [];
  for (let j = 0; j < D.n_keys; j++) {
    const side = () => ({ num: h("span", { class: "ex__num" }), bar: h("span", { class: "ex__bar-fill" }) });
    const c = { raw: side(), scaled: side() };
    dkCells.push(c);
    const td = (s, kind) => h("td", { class: "ex__wcell", "data-ex": `dk-${kind}` },
      h("span", { class: `ex__bar ex__bar--${kind}`, "aria-hidden": "true" }, s.bar), s.num);
    dkBody.append(h("tr", {}, h("th", { scope: "row" }, sub("k", j + 1)), td(c.raw, "raw"), td(c.scaled, "scaled")));
  }
  const summary = (label, kind) => {
    const raw = h("td", { class: "ex__num", "data-ex": `dk-raw-${kind}` });
    const scaled = h("td", { class: "ex__num", "data-ex": `dk-scaled-${kind}` });
    return { row: h("tr", {}, h("th", { scope: "row" }, label), raw, scaled), raw, scaled };
  };
  const maxRow = summary("largest weight", "max");
  const entRow = summary("entropy (nats)", "entropy");
  const dkCaption = h("caption");
  const dkTable = h("table", { class: "ex__table ex__table--dk" }, dkCaption,
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, "key"),
      h("th", { scope: "col" }, "without scaling: softmax(q·k)"),
      h("th", { scope: "col" }, "with scaling: softmax(q·k / √d", h("sub", {}, "k"), ")"))),
    dkBody, h("tfoot", {}, maxRow.row, entRow.row));
  const dkLive = h("p", { class: "visually-hidden", "aria-live": "polite", "data-ex": "dk-live" });

  const part2 = h("section", { class: "ex__part", "aria-labelledby": `${id}-t2` },
    h("p", { class: "ex__title", id: `${id}-t2` }, "Why divide by √d", h("sub", {}, "k"), "? Random queries and keys"),
    h("p", { class: "ex__hint" },
      `One query and ${D.n_keys} keys with independent entries of mean 0 and variance 1, drawn from a seeded ` +
      `generator. Entropy measures the spread: ${fmt(Math.log(D.n_keys), P.entropy)} nats when all ${D.n_keys} ` +
      "weights are equal, 0 when one weight takes everything."),
    h("div", { class: "ex__controls" },
      h("span", { class: "ex__slider" }, h("label", { for: dkInput.id }, "d", h("sub", {}, "k")), dkInput, dkOut),
      h("span", {}, "seed ", seedOut), reseed),
    h("div", { class: "ex__tablebox" }, dkTable),
    dkLive);

  return {
    part1, part2, pairSelect, plane, planeStatic, handle, sliders, sliderOutputs, reset, qLine,
    cells, outPlot, outText, live, chItems, chLive,
    dkInput, dkOut, seedOut, reseed, dkCells, maxRow, entRow, dkCaption, dkLive,
  };
}

// --- drawing ---------------------------------------------------------------------

/** The plane's grid, axes and keys for the chosen pair of query components. */
function drawPlane(ui, state, cfg) {
  const { C, W, PLANE, PM, toPx } = cfg;
  const [a, b] = state.pair;
  const items = [];
  for (let v = Math.ceil(C.min); v <= C.max; v++) {
    const p = toPx(v);
    const cls = v === 0 ? "ex__axis" : "ex__grid";
    items.push(svg("line", { class: cls, x1: p, x2: p, y1: PM, y2: PLANE - PM }));
    items.push(svg("line", { class: cls, y1: PLANE - p, y2: PLANE - p, x1: PM, x2: PLANE - PM }));
  }
  const label = (text, x, y, anchor) =>
    svg("text", { x, y, "text-anchor": anchor, class: "ex__label" }, text);
  items.push(label(`q${a + 1} →`, PLANE / 2, PLANE - 8, "middle"));
  items.push(label(`q${b + 1} ↑`, PM, PM - 10, "middle"));
  items.push(label(fmt(C.min, 0), PM, PLANE - 8, "middle"), label(fmt(C.max, 0), PLANE - PM, PLANE - 8, "middle"));
  // Keys projected onto the plane; keys that land on one spot share a label.
  const spots = new Map();
  W.keys.forEach((k, j) => {
    const key = `${k[a]},${k[b]}`;
    spots.set(key, [...(spots.get(key) || []), j + 1]);
  });
  for (const [key, js] of spots) {
    const [x, y] = key.split(",").map(Number);
    const px = toPx(x);
    const py = PLANE - toPx(y);
    items.push(svg("rect", { class: "ex__key", x: px - 4, y: py - 4, width: 8, height: 8 }));
    items.push(label(js.map((j) => `k${j}`).join(","), px + 7, py - 6, "start"));
  }
  ui.planeStatic.replaceChildren(...items);
  ui.plane.setAttribute("aria-label", `Query plane: q${a + 1} across, q${b + 1} up`);
  ui.handle.setAttribute("aria-label", `Query dot: q${a + 1} across, q${b + 1} up`);
  ui.handle.setAttribute("aria-valuemin", C.min);
  ui.handle.setAttribute("aria-valuemax", C.max);
}

/** Part 1 from the state: the dot, the sliders, the table, the output, the challenges. */
function render(ui, state, cfg, root) {
  const { P, W, n, decimals, PLANE, toPx } = cfg;
  state.renders += 1;
  root.dataset.renders = String(state.renders);
  const r = m.attend(state.q, W.keys, W.values);
  const [a, b] = state.pair;
  ui.handle.setAttribute("cx", toPx(state.q[a]));
  ui.handle.setAttribute("cy", PLANE - toPx(state.q[b]));
  ui.handle.setAttribute("aria-valuenow", state.q[a]);
  ui.handle.setAttribute("aria-valuetext",
    `q${a + 1} = ${fmt(state.q[a], decimals)}, q${b + 1} = ${fmt(state.q[b], decimals)}`);
  state.q.forEach((v, i) => {
    ui.sliders[i].value = String(v);
    ui.sliderOutputs[i].textContent = fmt(v, decimals);
  });
  ui.qLine.replaceChildren("q = ", h("span", { class: "ex__num", "data-ex": "q" }, vec(state.q, decimals)));
  let best = 0;
  for (let j = 0; j < n; j++) {
    const c = ui.cells[j];
    c.score.textContent = fmt(r.scores[j], P.scores);
    c.scaled.textContent = fmt(r.scaled[j], P.scaled);
    c.weight.textContent = fmt(r.weights[j], P.weights);
    c.bar.style.width = `${(100 * r.weights[j]).toFixed(1)}%`;
    if (r.weights[j] > r.weights[best]) best = j;
  }
  ui.outText.textContent = vec(r.output, P.output);
  ui.outPlot.update(r.output, r.weights);
  renderChallenges(ui, state, cfg);
  clearTimeout(state.timers.live);
  state.timers.live = setTimeout(() => {
    ui.live.textContent =
      `Output ${vec(r.output, P.output)}. Weights ${r.weights.map((w) => fmt(w, P.weights)).join(", ")}; ` +
      `the largest is on key ${best + 1}.`;
  }, 300);
}

const checkMark = () =>
  svg("svg", { class: "ex-ch__mark", viewBox: "0 0 16 16", width: 16, height: 16, "aria-hidden": "true", focusable: "false" },
    svg("path", { d: "M2.5 8.5 6.5 12.5 13.5 3.5" }));

/** One sentence per challenge: why it worked (or, for v2, why it only comes close). */
function explain(key, c, cfg) {
  const { P, W, CH, winKey, nearValue } = cfg;
  if (key === "win") {
    const s = c.scores;
    const others = s.filter((_, j) => j !== CH.win);
    return [`Solved: `, sub("k", winKey), ` now has the largest score (${fmt(s[CH.win], P.scores)} against ` +
      `${nums(others, P.scores)}), and softmax keeps the order of the scores, so it gets the largest weight, ` +
      `${fmt(c.weights[CH.win], P.weights)}.`];
  }
  if (key === "equal") {
    return [`Solved: all three scores are equal (${fmt(c.scores[0], P.scores)}), and softmax turns equal ` +
      `scores into equal weights, a third each, so the output is the plain average of the values.`];
  }
  if (key === "near") {
    return [`As close as it gets, never exact: the output is ${fmt(c.distance, P.output)} from `, sub("v", nearValue),
      `, but softmax gives every key a weight above 0 (here ` +
      W.keys.map((_, j) => j).filter((j) => j !== CH.near.value)
        .map((j, i) => `α${j + 1} = ${fmt(c.others[i], P.weights)}`).join(" and ") +
      `), so the other values ` +
      `always pull a little; at best these sliders get within ${fmt(CH.near.closest.distance, P.output)}.`];
  }
  const b = c.before;
  const a = c.after;
  return [`Solved: doubling q doubled every score (${nums(b.scores, P.scores)} became ${nums(a.scores, P.scores)}), ` +
    `so the gaps between them doubled too and the largest weight rose from ${fmt(b.max, P.weights)} to ` +
    `${fmt(a.max, P.weights)}: a longer query acts like a lower softmax temperature.`];
}

/** Each challenge's status from the state, and news of what changed for the live region. */
function renderChallenges(ui, state, cfg) {
  const states = m.challenges(state.q, cfg.W.keys, cfg.W.values, cfg.spec);
  tasksOf(cfg).forEach(([key], i) => {
    const item = ui.chItems[key];
    const c = states[key];
    const was = state.solved[key];
    if (c.solved) {
      item.status.replaceChildren(checkMark(), h("span", {}, ...explain(key, c, cfg)));
    } else if (was !== false) {
      item.status.replaceChildren(h("span", { class: "ex-ch__open" }, "Not yet."));
    }
    if (was !== undefined && was !== c.solved) {
      state.news.push(c.solved ? `Challenge ${i + 1} done. ${item.status.textContent}` : `Challenge ${i + 1}: no longer done.`);
    }
    state.solved[key] = c.solved;
    item.li.dataset.solved = String(c.solved);
  });
  if (state.news.length) {
    clearTimeout(state.timers.challenges);
    state.timers.challenges = setTimeout(() => {
      ui.chLive.textContent = state.news.splice(0).join(" ");
    }, 300);
  }
}

/** Part 2 from the state: the weights of one random sample, with and without 1/√d_k. */
function renderDk(ui, state, cfg, root) {
  const { D, P } = cfg;
  const d = D.d_k[state.dkIndex];
  const key = `${state.seed}:${d}`;
  if (!state.samples.has(key)) {
    if (state.samples.size > 32) state.samples.clear();
    state.samples.set(key, m.drawSample(state.seed, d, D.n_keys));
  }
  const { q, keys } = state.samples.get(key);
  const s = m.saturation(q, keys);
  ui.dkInput.value = String(state.dkIndex);
  ui.dkInput.setAttribute("aria-valuetext", `d_k = ${d}`);
  ui.dkOut.textContent = String(d);
  ui.seedOut.textContent = String(state.seed);
  root.dataset.seed = String(state.seed);
  root.dataset.dk = String(d);
  ui.dkCaption.textContent = `Softmax weights of one random query over ${D.n_keys} random keys, d_k = ${d} (the scale is 1/√${d}).`;
  for (let j = 0; j < D.n_keys; j++) {
    for (const kind of ["raw", "scaled"]) {
      const w = s[kind].weights[j];
      ui.dkCells[j][kind].num.textContent = fmt(w, P.weights);
      ui.dkCells[j][kind].bar.style.width = `${(100 * w).toFixed(1)}%`;
    }
  }
  ui.maxRow.raw.textContent = fmt(s.raw.max, P.weights);
  ui.maxRow.scaled.textContent = fmt(s.scaled.max, P.weights);
  ui.entRow.raw.textContent = fmt(s.raw.entropy, P.entropy);
  ui.entRow.scaled.textContent = fmt(s.scaled.entropy, P.entropy);
  ui.dkLive.textContent =
    `d_k ${d}, seed ${state.seed}. Without scaling: largest weight ${fmt(s.raw.max, P.weights)}, ` +
    `entropy ${fmt(s.raw.entropy, P.entropy)}. With scaling: largest weight ${fmt(s.scaled.max, P.weights)}, ` +
    `entropy ${fmt(s.scaled.entropy, P.entropy)}.`;
}

// --- input -----------------------------------------------------------------------

/** Every event: each changes the state, then renders the part it touched. */
function wire(ui, state, cfg, root) {
  const { C, W, PLANE, snap, fromPx } = cfg;
  const again = () => render(ui, state, cfg, root);
  ui.sliders.forEach((input, i) =>
    input.addEventListener("input", () => {
      state.q[i] = snap(Number(input.value));
      again();
    }),
  );
  ui.reset.addEventListener("click", () => {
    state.q = W.q.slice();
    again();
  });
  ui.pairSelect.addEventListener("change", () => {
    state.pair = ui.pairSelect.value.split(",").map(Number);
    drawPlane(ui, state, cfg);
    again();
  });

  const { plane } = ui;
  function moveTo(event) {
    const pt = new DOMPoint(event.clientX, event.clientY).matrixTransform(plane.getScreenCTM().inverse());
    const [a, b] = state.pair;
    state.q[a] = snap(fromPx(pt.x));
    state.q[b] = snap(fromPx(PLANE - pt.y));
    again();
  }
  plane.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    plane.setPointerCapture(event.pointerId);
    ui.handle.focus({ preventScroll: true });
    moveTo(event);
    event.preventDefault();
  });
  plane.addEventListener("pointermove", (event) => {
    if (plane.hasPointerCapture(event.pointerId)) moveTo(event);
  });
  // The keys of the ARIA slider pattern, in two dimensions: the arrows move the dot a
  // step (Shift: steps of 1); PageUp and PageDown move it up and down by a sixth of the
  // range (the larger step); Home and End put it at the left and right ends, the value
  // the slider reports (aria-valuenow is the component across). None scrolls the page.
  ui.handle.addEventListener("keydown", (event) => {
    const step = event.shiftKey ? 1 : C.step;
    const large = (C.max - C.min) / 6;
    const [a, b] = state.pair;
    const moves = {
      ArrowRight: [step, 0], ArrowLeft: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step],
      PageUp: [0, large], PageDown: [0, -large],
      Home: [C.min - state.q[a], 0], End: [C.max - state.q[a], 0],
    };
    const d = moves[event.key];
    if (!d || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    state.q[a] = snap(state.q[a] + d[0]);
    state.q[b] = snap(state.q[b] + d[1]);
    again();
  });

  ui.dkInput.addEventListener("input", () => {
    state.dkIndex = Number(ui.dkInput.value);
    renderDk(ui, state, cfg, root);
  });
  ui.reseed.addEventListener("click", () => {
    state.seed = (state.seed + 1) >>> 0;
    renderDk(ui, state, cfg, root);
  });
}

/** The values as labelled points, the output as a square, lines weighted by α. */
function outputPlot(values) {
  const WIDTH = 300;
  const M = 14;
  const xs = values.map((v) => v[0]);
  const ys = values.map((v) => v[1]);
  const pad = 0.12 * Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys), 1);
  const x0 = Math.min(...xs, 0) - pad;
  const x1 = Math.max(...xs, 0) + pad;
  const y0 = Math.min(...ys, 0) - pad;
  const y1 = Math.max(...ys, 0) + pad;
  const k = (WIDTH - 2 * M) / (x1 - x0); // one scale for both axes: distances are honest
  const height = Math.round((y1 - y0) * k + 2 * M);
  const X = (x) => M + (x - x0) * k;
  const Y = (y) => height - M - (y - y0) * k;
  const root = svg("svg", { class: "ex__plot", viewBox: `0 0 ${WIDTH} ${height}`, role: "img" });
  root.append(
    svg("line", { class: "ex__axis", x1: X(x0), x2: X(x1), y1: Y(0), y2: Y(0) }),
    svg("line", { class: "ex__axis", x1: X(0), x2: X(0), y1: Y(y0), y2: Y(y1) }),
    svg("polygon", { class: "ex__hull", points: values.map((v) => `${X(v[0])},${Y(v[1])}`).join(" ") }),
  );
  const spokes = values.map(() => svg("line", { class: "ex__spoke" }));
  root.append(...spokes);
  values.forEach((v, j) => {
    const right = X(v[0]) < WIDTH / 2;
    root.append(
      svg("circle", { class: "ex__value", cx: X(v[0]), cy: Y(v[1]), r: 5 }),
      svg("text", {
        class: "ex__label", x: X(v[0]) + (right ? 8 : -8), y: Y(v[1]) - 8, "text-anchor": right ? "start" : "end",
      }, `v${j + 1} (${v.map((x) => fmt(x, 0)).join(", ")})`),
    );
  });
  const dot = svg("rect", { class: "ex__output", width: 12, height: 12 });
  root.append(dot);
  return {
    svg: root,
    update(out, weights) {
      spokes.forEach((line, j) => {
        line.setAttribute("x1", X(out[0]));
        line.setAttribute("y1", Y(out[1]));
        line.setAttribute("x2", X(values[j][0]));
        line.setAttribute("y2", Y(values[j][1]));
        line.setAttribute("stroke-width", (0.5 + 6 * weights[j]).toFixed(2));
      });
      dot.setAttribute("x", X(out[0]) - 6);
      dot.setAttribute("y", Y(out[1]) - 6);
    },
  };
}
