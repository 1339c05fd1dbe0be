// Run by tests/test_minilm_js.py and bench (not by node --test): load the exported model
// (site_build/minilm_export.py's files, in a folder), run docs/javascripts/lib/minilm-math.js
// on each case's ids and write every attention weight and the time of each forward pass,
// with the SIMD kernel (minilm-simd.js, as in the browser) and without it (plain JS).
// Usage: node run-model.mjs EXPORT_DIR CASES_JSON OUT_JSON   (cases: [{ids: [...]}, ...])
import fs from "node:fs";
import path from "node:path";

import { modelFromGroups, runModel, shardsForIds, wordRows } from "../../../docs/javascripts/lib/minilm-math.js";

const [dir, casesPath, outPath] = process.argv.slice(2);
const read = (rel) => {
  const b = fs.readFileSync(path.join(dir, rel));
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
};
const manifest = JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8"));
const groups = Object.fromEntries(manifest.groups.map((g) => [g.name, read(g.path)]));
const model = modelFromGroups(manifest, groups);
const plain = modelFromGroups(manifest, groups, { simd: false });
const words = manifest.word_embeddings;
const out = [];
for (const { ids } of JSON.parse(fs.readFileSync(casesPath, "utf8"))) {
  const shards = Object.fromEntries(shardsForIds(ids, words.rows_per_shard).map((s) => [s, read(words.shards[s].path)]));
  const rows = wordRows(ids, shards, words.rows_per_shard, words.width);
  runModel(model, rows); // warm the JIT
  const start = performance.now();
  const cpu = process.cpuUsage();
  const { attentions } = runModel(model, rows);
  const used = process.cpuUsage(cpu);
  const ms = performance.now() - start;
  runModel(plain, rows);
  const plainStart = performance.now();
  const { attentions: plainAttentions } = runModel(plain, rows);
  const plainMs = performance.now() - plainStart;
  out.push({
    simd: model.simd,
    ms,
    cpuMs: (used.user + used.system) / 1000,
    plainMs,
    attentions: attentions.map((a) => Array.from(a)),
    plainAttentions: plainAttentions.map((a) => Array.from(a)),
  });
}
fs.writeFileSync(outPath, JSON.stringify(out));
