// The "every head of a layer" widget: mount(box, M, data, roles) builds it inside its box
// and wires every control. Loaded through ../heads.js and lib/lazy-mount.js only when the
// box comes near the screen; M is heads-math.js, data the exported attention of
// all-MiniLM-L6-v2 (assets/data/it_attention.json), roles the build's classification of
// its heads (assets/data/head_roles.json, from site_build/head_roles.py).
//
// The twelve small heatmaps and the open head are canvases with one pixel per cell,
// scaled up by CSS, so the widget stays a few hundred elements at most; the numbers of
// the open head are in a real table, built only while its <details> is open.

let counter = 0;

export function mount(box, M, data, roles) {
  if (!box.isConnected) return;
  const esc = M.esc;
  M.checkRoles(roles, data);
  const id = `hd${(counter += 1)}`;
  const L = data.layers;
  const H = data.heads;
  const sentences = data.sentences;
  const labels = roles.roles;
  const first = M.defaultLayer(roles.sentences[sentences[0].id]);
  const state = { sentence: 0, layer: first, focus: 0, open: null };
  let opens = 0;

  const radios = sentences
    .map(
      (s, i) =>
        `<label class="hd-radio"><input type="radio" name="${id}-s" value="${i}"${
          i === 0 ? " checked" : ""
        }> …too <strong>${esc(s.id)}</strong></label>`,
    )
    .join("");
  // Option values are layer numbers as shown (from 1); state.layer counts from 0.
  const layerOptions = Array.from({ length: L }, (_, i) => `<option>${i + 1}</option>`).join("");
  const heads = Array.from(
    { length: H },
    (_, h) =>
      `<button type="button" class="hd-head" data-head="${h}" tabindex="${h === 0 ? 0 : -1}" aria-expanded="false" aria-controls="${id}-full">` +
      `<span class="hd-head-name">Head ${h + 1}</span><canvas aria-hidden="true"></canvas>` +
      `<span class="hd-role"></span><span class="hd-share"></span></button>`,
  ).join("");

  box.innerHTML = `
    <div class="hd-controls">
      <fieldset class="hd-sentences"><legend>Sentence</legend>${radios}</fieldset>
      <label class="hd-pick">Layer <select data-hd="layer">${layerOptions}</select></label>
    </div>
    <p class="hd-status" data-hd="status"></p>
    <p class="hd-help" id="${id}-help">Each square is one head: rows are queries, columns are
      keys, and a darker cell (lighter, in the dark palette) is more weight. Arrow keys move
      between heads; Enter or Space opens one in full.</p>
    <div class="hd-heads" role="group" aria-labelledby="${id}-status" aria-describedby="${id}-help" data-hd="heads">${heads}</div>
    <div class="hd-legend" role="img" aria-label="Colour scale: weight 0 is faint, weight 1 is strong; the numbers of an open head are in its table">
      <span>0</span><canvas class="hd-ramp" data-hd="ramp" width="101" height="1"></canvas><span>1</span>
    </div>
    <div class="hd-full" id="${id}-full" role="group" aria-labelledby="${id}-full-title" data-hd="full" hidden>
      <div class="hd-full-top">
        <p class="hd-full-title" id="${id}-full-title" data-hd="title"></p>
        <button type="button" class="hd-close" data-hd="close">Close</button>
      </div>
      <p class="hd-full-help">Rows are queries, columns are keys; each row sums to 1. Point at
        a cell to read its weight; every weight is in the table below.</p>
      <div class="hd-scroll">
        <div class="hd-map" role="img" data-hd="map">
          <span class="hd-corner">query ↓ key →</span>
          <div class="hd-cols" data-hd="cols"></div>
          <div class="hd-rows" data-hd="rows"></div>
          <div class="hd-cells"><canvas data-hd="canvas"></canvas></div>
        </div>
      </div>
      <p class="hd-readout" data-hd="readout"></p>
      <details class="hd-table" data-hd="details">
        <summary>The numbers as a table</summary>
        <div class="hd-scroll" tabindex="0" role="region" aria-labelledby="${id}-tcap">
          <table class="hd-data" data-hd="table"><caption id="${id}-tcap"></caption><thead></thead><tbody></tbody></table>
        </div>
      </details>
    </div>
    <p class="visually-hidden" aria-live="polite" aria-atomic="true" data-hd="live"></p>`;

  const $ = (name) => box.querySelector(`[data-hd="${name}"]`);
  const status = $("status");
  status.id = `${id}-status`;
  const grid = $("heads");
  const buttons = [...grid.querySelectorAll(".hd-head")];
  const layerSel = $("layer");
  layerSel.value = String(state.layer + 1);
  const full = $("full");
  const canvas = $("canvas");
  const details = $("details");
  const readout = $("readout");

  // The colour scale's hue and saturation are the lesson-1 heatmap's CSS custom
  // properties, and the palette is named by heads.css: the stylesheet decides both.
  function colours() {
    const css = getComputedStyle(box);
    const hue = parseFloat(css.getPropertyValue("--hm-hue"));
    const sat = parseFloat(css.getPropertyValue("--hm-sat"));
    const palette = css.getPropertyValue("--hd-palette").trim();
    if (!Number.isFinite(hue) || !Number.isFinite(sat) || !palette) {
      throw new Error("heads widget: --hm-hue, --hm-sat or --hd-palette is not set (stylesheet missing?)");
    }
    return { hue, sat, palette };
  }

  function draw(target, matrix, c) {
    const rows = matrix.length;
    const cols = matrix[0].length;
    if (target.width !== cols) target.width = cols;
    if (target.height !== rows) target.height = rows;
    const img = new ImageData(M.pixels(matrix, c.palette, c.hue, c.sat), cols, rows);
    target.getContext("2d").putImageData(img, 0, 0);
  }

  const matrixOf = (s, layer, head) => M.fromUnits(sentences[s].attention[layer][head], data.scale);
  const entryOf = (layer, head) => roles.sentences[sentences[state.sentence].id][layer][head];

  function renderHeads() {
    const c = colours();
    const entries = roles.sentences[sentences[state.sentence].id][state.layer];
    buttons.forEach((b, h) => {
      draw(b.querySelector("canvas"), matrixOf(state.sentence, state.layer, h), c);
      const { label, short } = M.headCaption(entries[h], labels);
      b.querySelector(".hd-role").textContent = label;
      b.querySelector(".hd-share").textContent = short;
      b.dataset.role = entries[h].role;
    });
    status.textContent = `Heads of layer ${state.layer + 1} of ${L}, with “…too ${
      sentences[state.sentence].id
    }.”: ${M.layerSummary(entries, labels)}.`;
    draw($("ramp"), [Array.from({ length: 101 }, (_, i) => i / 100)], c);
  }

  // The open head: its heatmap with token labels, the readout and (while open) its table.
  let shown = null; // {tokens, matrix} of the open head
  function renderFull() {
    const h = state.open;
    const sent = sentences[state.sentence];
    shown = { tokens: sent.tokens, matrix: matrixOf(state.sentence, state.layer, h) };
    const n = shown.tokens.length;
    const title = M.describeHead(state.layer, h, entryOf(state.layer, h), labels);
    $("title").textContent = title;
    $("close").setAttribute("aria-label", `Close the full view of head ${h + 1}`);
    const map = $("map");
    map.style.setProperty("--hd-n", String(n));
    map.setAttribute(
      "aria-label",
      `Heatmap of layer ${state.layer + 1}, head ${h + 1}, “…too ${sent.id}.”; its numbers are in the table below`,
    );
    const spans = shown.tokens.map((t) => `<span>${esc(t)}</span>`).join("");
    $("cols").innerHTML = spans;
    $("rows").innerHTML = spans;
    draw(canvas, shown.matrix, colours());
    readout.textContent = "";
    $("table").caption.textContent = `Attention weights of layer ${state.layer + 1}, head ${h + 1}, “…too ${
      sent.id
    }.”: rows are queries, columns are keys; each row sums to 1.`;
    fillTable();
    buttons.forEach((b, i) => b.setAttribute("aria-expanded", String(i === h)));
  }

  // Every number of the open head, filled only while the <details> is open.
  function fillTable() {
    const table = $("table");
    if (!details.open || !shown) {
      table.tHead.replaceChildren();
      table.tBodies[0].replaceChildren();
      return;
    }
    const { tokens, matrix } = shown;
    table.tHead.innerHTML = `<tr><th scope="col">query → key</th>${tokens
      .map((t) => `<th scope="col">${esc(t)}</th>`)
      .join("")}</tr>`;
    table.tBodies[0].innerHTML = matrix
      .map(
        (row, r) =>
          `<tr><th scope="row">${esc(tokens[r])}</th>${row
            .map((w) => `<td>${w.toFixed(M.DIGITS)}</td>`)
            .join("")}</tr>`,
      )
      .join("");
  }
  details.addEventListener("toggle", fillTable);

  const say = (text) => {
    $("live").textContent = text;
  };

  function open(h) {
    state.open = h;
    full.hidden = false;
    renderFull();
    opens += 1;
    box.dataset.hdOpens = String(opens);
    say(`Opened ${$("title").textContent}.`);
    full.scrollIntoView({ block: "nearest" });
    $("close").focus({ preventScroll: true });
  }

  function close() {
    if (state.open === null) return;
    const h = state.open;
    state.open = null;
    shown = null;
    full.hidden = true;
    details.open = false;
    buttons.forEach((b) => b.setAttribute("aria-expanded", "false"));
    say(`Closed head ${h + 1} of layer ${state.layer + 1}.`);
    roving(h);
    buttons[h].focus();
  }

  // Exactly one small head is in the tab order: the one last focused.
  function roving(h) {
    state.focus = h;
    buttons.forEach((b, i) => {
      b.tabIndex = i === h ? 0 : -1;
    });
  }

  grid.addEventListener("click", (e) => {
    const b = e.target.closest(".hd-head");
    if (!b) return;
    const h = Number(b.dataset.head);
    roving(h);
    if (state.open === h) close();
    else open(h);
  });
  grid.addEventListener("focusin", (e) => {
    const b = e.target.closest(".hd-head");
    if (b) roving(Number(b.dataset.head));
  });
  grid.addEventListener("keydown", (e) => {
    const b = e.target.closest(".hd-head");
    if (!b) return;
    const columns = getComputedStyle(grid).gridTemplateColumns.split(" ").length;
    const to = M.moveIndex(Number(b.dataset.head), e.key, H, columns);
    if (to === null) return;
    e.preventDefault();
    roving(to);
    buttons[to].focus();
  });
  $("close").addEventListener("click", close);
  box.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && state.open !== null) {
      e.preventDefault();
      close();
    }
  });

  // The readout: the weight under the pointer (mouse, pen or touch).
  const rowLabels = () => $("rows").children;
  const colLabels = () => $("cols").children;
  let marked = null;
  function mark(cell) {
    if (marked) {
      rowLabels()[marked.row]?.classList.remove("hd-on");
      colLabels()[marked.col]?.classList.remove("hd-on");
    }
    marked = cell;
    if (!cell) return;
    rowLabels()[cell.row].classList.add("hd-on");
    colLabels()[cell.col].classList.add("hd-on");
  }
  function point(e) {
    if (!shown) return;
    const rect = canvas.getBoundingClientRect();
    const n = shown.tokens.length;
    const cell = M.cellAt(e.clientX - rect.left, e.clientY - rect.top, rect.width, rect.height, n, n);
    mark(cell);
    if (!cell) return;
    const { tokens, matrix } = shown;
    readout.textContent = `${tokens[cell.row]} → ${tokens[cell.col]} ${matrix[cell.row][cell.col].toFixed(M.DIGITS)}`;
  }
  canvas.addEventListener("pointermove", point);
  canvas.addEventListener("pointerdown", point);
  canvas.addEventListener("pointerleave", () => mark(null));

  function rerender() {
    renderHeads();
    if (state.open !== null) {
      renderFull();
      say(`Now showing ${$("title").textContent}.`);
    }
  }
  layerSel.addEventListener("change", () => {
    state.layer = Number(layerSel.value) - 1;
    rerender();
  });
  box.querySelector(".hd-sentences").addEventListener("change", (e) => {
    if (e.target.name === `${id}-s`) {
      state.sentence = Number(e.target.value);
      rerender();
    }
  });

  // Material switches the palette by an attribute of <body>: redraw the canvases then.
  const palette = new MutationObserver(() => {
    if (!box.isConnected) {
      palette.disconnect();
      return;
    }
    renderHeads();
    if (shown) draw(canvas, shown.matrix, colours());
  });
  palette.observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });

  renderHeads();
  box.dataset.hdDefault = String(first);
}
