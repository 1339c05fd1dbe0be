"""The browser's tokenizer (@huggingface/tokenizers on the shipped tokenizer.json) gives the
same tokens and ids as the Python one (``MiniLM.tokenize``, Hugging Face's Rust
``tokenizers``) on a varied corpus: accents, punctuation, numbers, emoji, long words,
whitespace runs, other scripts. The oracle is the Python tokenizer; node runs the JS one
(``tests/js/minilm/compare-tokenizer.mjs``) on the Python results written to a JSON file.
"""

from __future__ import annotations

import itertools
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from attention_ref.minilm import load_minilm
from site_build import minilm_export as ex

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tests" / "js" / "minilm" / "compare-tokenizer.mjs"

LISTED = [
    "The animal didn't cross the street because it was too tired.",
    "The animal didn't cross the street because it was too wide.",
    "Attention, executable!",
    "Crème brûlée, façade, naïve, coöperate, Ångström, Øresund.",
    "São Paulo é a maior cidade do Brasil.",
    "Straße, Mädchen, Übermut, Köln, Zürich.",
    "¿Dónde está la biblioteca? ¡Aquí!",
    "El niño comió jalapeños en Año Nuevo.",
    "Ça va? Très bien, merci.",
    "I ❤️ transformers 🤖🚀 and 😀😀😀.",
    "Flags: 🇫🇷 🇯🇵 and a family 👨‍👩‍👧.",
    "3.14159 is pi; 2.71828 is e; 1,000,000 is a million.",
    "Call 555-0199 or +44 20 7946 0958 before 10:30am.",
    "The year 1984, the 21st century, 7th of March, 2026-12-01.",
    "$19.99, €5, £3.50, ¥100 and 50% off!!!",
    "Pneumonoultramicroscopicsilicovolcanoconiosis is a long word.",
    "Antidisestablishmentarianism and supercalifragilisticexpialidocious.",
    "Hippopotomonstrosesquippedaliophobia",
    "a" * 120,
    "Tabs\tand\t\tnewlines\n\nand   many    spaces.",
    "   leading and trailing whitespace   ",
    "\u00a0non-breaking\u00a0spaces\u2003em\u2003space\u200bzero-width",
    "'single' \"double\" «guillemets» „low-high“ ‘curly’ “quotes”",
    "Dashes – en — em ‐ hyphen - minus −.",
    "Ellipsis… and three dots... and ?!?!",
    "<script>alert('x')</script> & <b>bold</b>",
    "email@example.com, https://example.org/path?q=1#frag",
    "C++, C#, F#, .NET, node.js, Python3.11",
    "camelCaseWords and snake_case_words and kebab-case-words",
    "ALL CAPS SHOUTING IS STILL LOWERCASED",
    "中文字符被逐字分开。",
    "日本語のテキストとカタカナ、ひらがな。",
    "한국어 문장도 있습니다.",
    "Русский текст с буквой ё.",
    "Ελληνικά: αλφα, βητα, γαμμα.",
    "עברית וערבית: مرحبا بالعالم",
    "हिन्दी में एक वाक्य।",
    "ไทยไม่มีช่องว่าง",
    "Math: x² + y² = z², ∑ᵢ aᵢ, √2 ≈ 1.414, ∞.",
    "Ligatures: ﬁne ﬂower, full-width ＡＢＣ１２３.",
    "Combining: e\u0301 a\u0308 n\u0303 (decomposed accents).",
    "The end.",
    "?",
    "x",
    "It's, isn't, won't, y'all'd've.",
    "#hashtag @mention $TICKER %percent ^caret ~tilde `backtick`",
    "(parentheses) [brackets] {braces} <angles>",
    "1/2 + 3/4 = 5/4; 10^6; 0xFF; 1e-12.",
    # longer than the widget's 64 tokens: the tokenizer must not truncate either
    "A paragraph that runs on: the model reads every token of it, the widget refuses it, "
    "and neither tokenizer may cut it short, whatever the file's own truncation said, "
    "so here are more words, numbers like 12,345.67, accents like déjà vu, emoji like 🎉, "
    "and punctuation (lots of it!) until it is well past sixty-four tokens in all.",
]

WORDS = [
    "attention", "café", "naïve", "über", "résumé", "tokenizer", "transformer", "42",
    "3.5", "😀", "🤖", "—", "...", "don't", "Zürich", "東京", "Москва", "supercalifragilistic",
    "THE", "a", ",", "!",
]  # fmt: skip
SEPARATORS = [" ", "  ", "\t", " \n ", ", ", "   "]


def generated(count: int) -> list[str]:
    """``count`` sentences mixing the words and separators above, in a fixed order."""
    out = []
    cycle = itertools.cycle(SEPARATORS)
    for i in range(count):
        words = [WORDS[(i * 7 + j * 5) % len(WORDS)] for j in range(3 + i % 9)]
        text = ""
        for w in words:
            text += w + next(cycle)
        out.append(text.strip() if i % 3 else text)
    return out


CORPUS = LISTED + generated(120)


def test_the_corpus_is_varied() -> None:
    assert len(CORPUS) >= 100
    assert len(set(CORPUS)) == len(CORPUS)
    joined = "".join(CORPUS)
    for what, probe in [("accents", "é"), ("emoji", "😀"), ("digits", "7"), ("tab", "\t")]:
        assert probe in joined, what


def compare_in_node(
    tmp_path: Path, cases: list[dict[str, Any]], timeout: float
) -> subprocess.CompletedProcess[str]:
    """Run the JS tokenizer on the shipped tokenizer.json against ``cases`` (node script)."""
    node = shutil.which("node")
    assert node is not None, "node is needed (make install sets up the npm packages)"
    tokenizer = tmp_path / "tokenizer.json"
    tokenizer_source = (load_minilm().path / "tokenizer.json").read_bytes()
    tokenizer.write_bytes(ex.browser_tokenizer_json(tokenizer_source))
    cases_file = tmp_path / "cases.json"
    cases_file.write_text(json.dumps(cases, ensure_ascii=False), encoding="utf-8")
    command = [node, str(SCRIPT), str(tokenizer), str(cases_file)]
    return subprocess.run(
        command, capture_output=True, text=True, cwd=ROOT, timeout=timeout, check=False
    )


def test_js_tokenizer_equals_python_on_the_corpus(tmp_path: Path) -> None:
    model = load_minilm()
    cases: list[dict[str, Any]] = []
    for text in CORPUS:
        tokens, ids = model.tokenize(text)
        cases.append({"text": text, "tokens": tokens, "ids": ids.tolist()})
    assert any("[UNK]" in c["tokens"] for c in cases), "the corpus reaches [UNK]"
    assert any(len(c["tokens"]) > 64 for c in cases), "the corpus passes the widget's limit"
    result = compare_in_node(tmp_path, cases, timeout=120)
    print(result.stdout.splitlines()[-1] if result.stdout else result.stderr)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert f"compared {len(CORPUS)} sentences: {len(CORPUS)} equal, 0 differ" in result.stdout


def test_the_comparison_can_fail(tmp_path: Path) -> None:
    """A wrong expectation makes the node script fail and name the sentence."""
    cases: list[dict[str, Any]] = [
        {"text": "café", "tokens": ["[CLS]", "café", "[SEP]"], "ids": [101, 0, 102]}
    ]
    result = compare_in_node(tmp_path, cases, timeout=60)
    assert result.returncode == 1
    assert '"js":["[CLS]","cafe","[SEP]"]' in result.stdout


@pytest.mark.parametrize("text", ["", "   ", "\t\n"])
def test_python_refuses_empty_text_as_the_widget_does(text: str) -> None:
    with pytest.raises(ValueError, match="empty or only whitespace"):
        load_minilm().tokenize(text)
