// Run by tests/test_minilm_tokenizer.py (not by node --test): encode every case of a JSON
// file with the browser's tokenizer and print one JSON line per case that differs from
// the Python tokens and ids given in the file. Exit 1 if any differs.
// Usage: node compare-tokenizer.mjs TOKENIZER_JSON CASES_JSON
import fs from "node:fs";
import { Tokenizer } from "@huggingface/tokenizers";

import { makeTokenizer } from "../../../docs/javascripts/lib/minilm-tokenize.js";

const [tokenizerPath, casesPath] = process.argv.slice(2);
const tokenizer = makeTokenizer(Tokenizer, JSON.parse(fs.readFileSync(tokenizerPath, "utf8")));
const cases = JSON.parse(fs.readFileSync(casesPath, "utf8"));
let bad = 0;
for (const { text, tokens, ids } of cases) {
  const got = tokenizer.encode(text);
  const same =
    JSON.stringify([...got.tokens]) === JSON.stringify(tokens) &&
    JSON.stringify([...got.ids]) === JSON.stringify(ids);
  if (!same) {
    bad += 1;
    console.log(JSON.stringify({ text, python: tokens, js: [...got.tokens], pythonIds: ids, jsIds: [...got.ids] }));
  }
}
console.log(`compared ${cases.length} sentences: ${cases.length - bad} equal, ${bad} differ`);
process.exit(bad ? 1 : 0);
