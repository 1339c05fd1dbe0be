// The "it → animal" heatmap widget: mount(box, M, data) builds it inside its box and
// wires every control. Loaded through ../heatmap.js and lib/lazy-mount.js only when
// the box comes near the screen; M is heatmap-math.js, data the exported
// attention of all-MiniLM-L6-v2 (assets/data/it_attention.json).

const QUERY = "it";
const KEY = "animal";
const DISTRACTOR = "street";
let counter = 0;

const quote = (t) => `“${t}”`;

export function mount(box, M, data) {
  if (!box.isConnected) return;
  const { DIGITS, esc } = M;
  const fmt = (w) => w.toFixed(DIGITS);
  const id = `hm${(counter += 1)}`;
  const L = data.layers;
  const H = data.heads;
  const sentences = data.sentences;
  const first = sentences[0];
  const dflt = M.defaultHead(first.attention, first.tokens, QUERY, KEY);
  const state = {
    sentence: 0,
    layer: dflt.layer,
    head: dflt.head,
    hide: false,
    query: M.tokenIndex(first.tokens, QUERY), // index into the full token list
    view: null,
  };
  let selections = 0;

  const options = (n) =>
    Array.from({ length: n }, (_, i) => `<option value="${i}">${i + 1}</option>`).join("");
  const radios = sentences
    .map(
      (s, i) =>
        `<label class="hm-radio"><input type="radio" name="${id}-s" value="${i}"${
          i === 0 ? " checked" : ""
        }> …too <strong>${esc(s.id)}</strong></label>`,
    )
    .join("");
  const legend = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]
    .map((w) => `<span class="hm-swatch" style="${cellStyle(M, w)}"></span>`)
    .join("");

  box.innerHTML = `
    <div class="hm-controls">
      <fieldset class="hm-sentences"><legend>Sentence</legend>${radios}</fieldset>
      <label class="hm-pick">Layer <select data-hm="layer">${options(L)}</select></label>
      <label class="hm-pick">Head <select data-hm="head">${options(H)}</select></label>
      <label class="hm-check"><input type="checkbox" data-hm="hide"> Hide [CLS] and [SEP]</label>
    </div>
    <p class="hm-sentence" data-hm="sentence"></p>
    <p class="hm-status" data-hm="status"></p>
    <p class="hm-help" id="${id}-help">Rows are queries, columns are keys. Click a row, or
      Tab into the grid and use ↑ ↓ (Home, End) to move between queries and ← → to read
      one weight; Enter repeats the strongest key.</p>
    <div class="hm-body">
      <div class="hm-map">
        <div class="hm-scroll">
          <table role="grid" class="hm-grid" aria-labelledby="${id}-cap" aria-describedby="${id}-help" data-hm="grid">
            <caption id="${id}-cap"></caption>
            <thead></thead><tbody></tbody>
          </table>
        </div>
        <div class="hm-legend" role="img" aria-label="Colour scale: weight 0 is faint, weight 1 is strong; the numbers are in the row panel and the table">
          <span>0</span><span class="hm-ramp">${legend}</span><span>1</span>
        </div>
      </div>
      <div class="hm-row" data-hm="row">
        <h3 class="hm-row-title" id="${id}-row-title"></h3>
        <p class="hm-live" aria-live="polite" aria-atomic="true" data-hm="live"></p>
        <ol class="hm-bars" aria-labelledby="${id}-row-title"></ol>
      </div>
    </div>
    <p class="hm-contrast" data-hm="contrast"></p>
    <details class="hm-table">
      <summary>The same numbers as a table</summary>
      <div class="hm-scroll" tabindex="0" role="region" aria-labelledby="${id}-tcap">
        <table class="hm-data" data-hm="table"><caption id="${id}-tcap"></caption><thead></thead><tbody></tbody></table>
      </div>
    </details>`;

  const $ = (name) => box.querySelector(`[data-hm="${name}"]`);
  const grid = $("grid");
  const layerSel = $("layer");
  const headSel = $("head");
  const hideBox = $("hide");
  layerSel.value = String(state.layer);
  headSel.value = String(state.head);

  // The matrix shown: the stored units of the current sentence, layer and head, in
  // [0, 1], restricted (and renormalised) when special tokens are hidden.
  function viewOf(s) {
    const sent = sentences[s];
    const full = M.fromUnits(sent.attention[state.layer][state.head], data.scale);
    const keep = M.keptIndices(sent.tokens, state.hide);
    const { matrix, removed } = M.restrict(full, keep);
    return { tokens: keep.map((i) => sent.tokens[i]), keep, matrix, removed };
  }

  function cellStyle(math, w) {
    return `--hm-l-light:${math.lightness(w, "light")}%;--hm-l-dark:${math.lightness(w, "dark")}%`;
  }

  function render() {
    const v = viewOf(state.sentence);
    state.view = v;
    const sent = sentences[state.sentence];
    const head = `<tr><th scope="col" class="hm-corner">query → key</th>${v.tokens
      .map((t) => `<th scope="col"><span>${esc(t)}</span></th>`)
      .join("")}</tr>`;
    const rows = v.matrix
      .map(
        (row, r) =>
          `<tr data-row="${r}"><th scope="row" tabindex="-1">${esc(v.tokens[r])}</th>${row
            .map(
              (w) =>
                `<td tabindex="-1" style="${cellStyle(M, w)}"><span class="visually-hidden">${fmt(w)}</span></td>`,
            )
            .join("")}</tr>`,
      )
      .join("");
    grid.tHead.innerHTML = head;
    grid.tBodies[0].innerHTML = rows;
    grid.caption.textContent = `Attention weights, query → key: layer ${state.layer + 1}, head ${
      state.head + 1
    }, “…too ${sent.id}.”`;

    const table = $("table");
    table.caption.textContent = `${grid.caption.textContent}${
      state.hide ? " ([CLS] and [SEP] hidden, rows renormalised)" : ""
    }. Rows are queries, columns are keys; each row sums to 1.`;
    tableHead = head.replace(/ class="hm-corner"/, "");
    fillTable();

    $("sentence").innerHTML = `<span class="hm-label">Sentence as the model saw it:</span> ${sent.tokens
      .map((t) => `<code>${esc(t)}</code>`)
      .join(" ")}`;
    const isDefault = state.layer === dflt.layer && state.head === dflt.head;
    const where = isDefault
      ? `the head where ${quote(QUERY)} gives ${quote(KEY)} the most weight with “…too ${first.id}.” (of all ${L * H} heads)`
      : `the default is layer ${dflt.layer + 1}, head ${dflt.head + 1}, where ${quote(QUERY)} gives ${quote(KEY)} the most weight`;
    const qPos = v.keep.indexOf(M.tokenIndex(sent.tokens, QUERY));
    $("status").textContent = `Layer ${state.layer + 1} of ${L}, head ${state.head + 1} of ${H}: ${where}.${
      state.hide
        ? ` [CLS] and [SEP] are hidden: each row is divided by the weight left on the other tokens, so it sums to 1 again (the ${quote(QUERY)} row had ${fmt(v.removed[qPos])} of its weight on them).`
        : ""
    }`;
    $("contrast").textContent = contrastNote();

    let pos = v.keep.indexOf(state.query);
    if (pos < 0) {
      state.query = M.tokenIndex(sent.tokens, QUERY);
      pos = v.keep.indexOf(state.query);
    }
    select(pos, false);
  }

  // The table alternative holds every number of the shown matrix: it is filled only
  // while its <details> is open (and again when it opens), so a closed one costs no DOM.
  const tableBox = box.querySelector("details.hm-table");
  let tableHead = "";
  function fillTable() {
    const table = $("table");
    if (!tableBox.open) {
      table.tHead.replaceChildren();
      table.tBodies[0].replaceChildren();
      return;
    }
    const v = state.view;
    table.tHead.innerHTML = tableHead;
    table.tBodies[0].innerHTML = v.matrix
      .map(
        (row, r) =>
          `<tr><th scope="row">${esc(v.tokens[r])}</th>${row
            .map((w) => `<td>${fmt(w)}</td>`)
            .join("")}</tr>`,
      )
      .join("");
  }
  tableBox.addEventListener("toggle", fillTable);

  function contrastNote() {
    if (sentences.length < 2) return "";
    const [a, b] = [0, 1].map(viewOf);
    const [sa, sb] = [sentences[0], sentences[1]];
    const at = (v, s, t) => v.matrix[v.keep.indexOf(M.tokenIndex(s.tokens, QUERY))][
      v.keep.indexOf(M.tokenIndex(s.tokens, t))
    ];
    const top = (v, s) => v.tokens[M.strongestKey(v.matrix[v.keep.indexOf(M.tokenIndex(s.tokens, QUERY))])];
    const animalB = at(b, sb, KEY);
    const streetB = at(b, sb, DISTRACTOR);
    const verdict =
      fmt(streetB) === fmt(animalB)
        ? `${quote(KEY)} and ${quote(DISTRACTOR)} are level`
        : streetB > animalB
          ? `${quote(DISTRACTOR)} now gets more than ${quote(KEY)}`
          : `${quote(KEY)} still gets more than ${quote(DISTRACTOR)}`;
    return `What changes from “…too ${sa.id}.” to “…too ${sb.id}.” in this head: ${M.describeChange(
      QUERY, KEY, at(a, sa, KEY), animalB, DIGITS,
    )}; ${M.describeChange(QUERY, DISTRACTOR, at(a, sa, DISTRACTOR), streetB, DIGITS)}; ${verdict}. The strongest key of ${quote(
      QUERY,
    )} is ${quote(top(a, sa))} with “${sa.id}” and ${quote(top(b, sb))} with “${sb.id}”.`;
  }

  // Focus row `pos` of the shown matrix: roving tabindex, numbers and bars, live text.
  function select(pos, moveFocus, cell = -1) {
    const v = state.view;
    state.query = v.keep[pos];
    const rows = grid.tBodies[0].rows;
    for (const tr of rows) {
      const on = Number(tr.dataset.row) === pos;
      tr.classList.toggle("hm-selected", on);
      tr.setAttribute("aria-selected", String(on));
    }
    roving(rows[pos].cells[moveFocus ? cell + 1 : 0]);
    const row = v.matrix[pos];
    const best = M.strongestKey(row);
    const q = v.tokens[pos];
    box.querySelector(`#${id}-row-title`).textContent = `Query ${quote(q)}: its weight on each key`;
    box.querySelector(".hm-bars").innerHTML = row
      .map(
        (w, k) =>
          `<li${k === best ? ' class="hm-best"' : ""}><span class="hm-key">${esc(v.tokens[k])}</span><span class="hm-bar"><span style="width:${(
            w * 100
          ).toFixed(1)}%"></span></span><span class="hm-num">${fmt(w)}</span>${
            k === best ? '<span class="hm-tag">strongest</span>' : ""
          }</li>`,
      )
      .join("");
    $("live").textContent = `${q} → ${v.tokens[best]} ${fmt(row[best])}`;
    selections += 1;
    box.dataset.hmSelections = String(selections);
    if (moveFocus) rows[pos].cells[cell + 1].focus();
  }

  // Exactly one cell of the grid is in the tab order: the one last focused.
  function roving(target) {
    for (const el of grid.tBodies[0].querySelectorAll("[tabindex='0']")) el.tabIndex = -1;
    target.tabIndex = 0;
  }

  function where(el) {
    const cellEl = el.closest("th, td");
    const tr = el.closest("tbody tr");
    if (!cellEl || !tr || !grid.contains(tr)) return null;
    return { pos: Number(tr.dataset.row), cell: cellEl.cellIndex - 1 };
  }

  grid.addEventListener("click", (e) => {
    const at = where(e.target);
    if (at) select(at.pos, true, at.cell);
  });

  grid.addEventListener("focusin", (e) => {
    if (where(e.target)) roving(e.target.closest("th, td"));
  });

  grid.addEventListener("keydown", (e) => {
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
    if (pos !== at.pos || e.key === "Enter" || e.key === " ") select(pos, true, cell);
    else grid.tBodies[0].rows[pos].cells[cell + 1].focus();
  });

  layerSel.addEventListener("change", () => {
    state.layer = Number(layerSel.value);
    render();
  });
  headSel.addEventListener("change", () => {
    state.head = Number(headSel.value);
    render();
  });
  hideBox.addEventListener("change", () => {
    state.hide = hideBox.checked;
    render();
  });
  box.querySelector(".hm-sentences").addEventListener("change", (e) => {
    if (e.target.name === `${id}-s`) {
      state.sentence = Number(e.target.value);
      render();
    }
  });

  render();
  box.dataset.hmDefault = `${dflt.layer},${dflt.head}`;
}
