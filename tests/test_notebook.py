"""The √d_k notebook: it is a valid notebook that runs, its download is stable, its cache is keyed.

mkdocs-jupyter executes the notebook at every build (``allow_errors: false``); this
test runs it too, in a real kernel through nbclient, so a failure shows up with the
cell that raised, and checks what it prints against the lesson's claims.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import jupytext  # type: ignore[import-untyped]
import nbformat
import pytest
from nbclient import NotebookClient

from site_build import notebook
from site_build.downloads import WHEEL_MARKER
from site_build.experiments import dot_product_spread
from site_build.figures import FIGURES
from site_build.notebook import key_jupyter_cache, to_ipynb

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "docs" / "notebooks" / "sqrt_dk.py"


@pytest.fixture(scope="module")
def executed() -> nbformat.NotebookNode:
    nb: nbformat.NotebookNode = jupytext.read(SOURCE)
    client = NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}
    )
    client.execute()
    return nb


def printed(nb: nbformat.NotebookNode) -> str:
    return "".join(
        out.get("text", "")
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.outputs
        if out.output_type == "stream" and out.name == "stdout"
    )


def test_notebook_runs_without_error_and_draws_its_plots(executed: nbformat.NotebookNode) -> None:
    outputs = [out for cell in executed.cells if cell.cell_type == "code" for out in cell.outputs]
    assert not [out for out in outputs if out.output_type == "error"]
    svgs = [out for out in outputs if "image/svg+xml" in out.get("data", {})]
    assert len(svgs) == 2, "two plots, as SVG (PNG outputs would have no alt text on the page)"


def test_printed_variance_ratios_are_close_to_1(executed: nbformat.NotebookNode) -> None:
    # Table rows: d_k, Var(q·k), Var / d_k, Var scaled; 4096 pairs give a relative
    # standard error of at most sqrt(8 / 4096) ≈ 0.044 (at d_k = 1); allow 5 of them.
    rows = re.findall(r"^\s*(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)$", printed(executed), re.M)
    widths = [int(r[0]) for r in rows[:11]]
    assert widths == [2**i for i in range(11)]
    for d, _, ratio, scaled in rows[:11]:
        assert abs(float(ratio) - 1) < 0.25 and abs(float(scaled) - 1) < 0.25, (d, ratio, scaled)


def test_the_spread_table_is_the_figures_experiment(executed: nbformat.NotebookNode) -> None:
    # One √d_k experiment: the notebook reruns, in the reader's own cells, what the
    # figure draws (site_build/experiments.py), with the figure's parameters.
    (spec,) = [s for s in FIGURES if s.name == "spread"]
    assert spec.compute is dot_product_spread
    data = dot_product_spread(**spec.params)
    rows = re.findall(r"^\s*(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)$", printed(executed), re.M)
    got = [(r[1], r[3]) for r in rows[:11]]
    want = [(f"{u:.2f}", f"{s:.3f}") for u, s in zip(data.unscaled, data.scaled, strict=True)]
    assert got == want


def test_printed_saturation_table_shows_the_collapse(executed: nbformat.NotebookNode) -> None:
    rows = re.findall(
        r"^\s*(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)$", printed(executed), re.M
    )
    assert [int(r[0]) for r in rows] == [2**i for i in range(11)]
    first, last = rows[0], rows[-1]
    assert float(last[1]) > 0.9 > 0.35 > float(last[2]), "largest weight: unscaled vs scaled"
    assert float(last[3]) < 0.5 < 2.0 < float(last[4]), "entropy: unscaled vs scaled"
    assert first[1] == first[2], "at d_k = 1 the scale is 1"


def test_headings_carry_no_math() -> None:
    # Material's table of contents shows headings as plain text: `$` would show up raw.
    nb = jupytext.read(SOURCE)
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                assert not (line.startswith("#") and "$" in line), line


def test_download_is_a_valid_notebook_without_outputs_and_stable() -> None:
    text = to_ipynb(SOURCE.read_text(encoding="utf-8"))
    assert to_ipynb(SOURCE.read_text(encoding="utf-8")) == text
    nb = nbformat.reads(text, as_version=4)  # type: ignore[no-untyped-call]
    nbformat.validate(nb)
    assert nb.metadata.kernelspec.name == "python3"
    assert "jupytext" not in nb.metadata
    assert [cell.id for cell in nb.cells] == [f"cell-{i}" for i in range(len(nb.cells))]
    assert all(not cell.get("outputs") for cell in nb.cells if cell.cell_type == "code")
    code = "\n".join(cell.source for cell in nb.cells if cell.cell_type == "code")
    assert "import attention_ref as ar" in code
    assert '%config InlineBackend.figure_formats = ["svg"]' in code, (
        "magic restored from the comment"
    )


def test_empty_source_is_refused() -> None:
    with pytest.raises(ValueError, match="no cell"):
        to_ipynb("")


def test_the_jupyter_cache_key_follows_bytes_versions_and_epoch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = tmp_path / "attention_ref" / "core.py"
    src.parent.mkdir()
    src.write_text("def softmax(x): ...\n")
    plugin = SimpleNamespace(config={"cache": True, "cache_dir": str(tmp_path / "cache")})
    config = SimpleNamespace(plugins={"mkdocs-jupyter": plugin})

    def entry() -> str:
        key_jupyter_cache(config, tmp_path)
        return Path(plugin.config["cache_dir"]).name

    key = entry()
    assert key == entry()
    monkeypatch.setattr(notebook, "version", lambda name: "0.0.1")  # other library versions
    assert entry() != key
    monkeypatch.undo()
    src.write_text("def softmax(x): return x\n")
    assert entry() != key
    edited = entry()
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1798761600")  # another commit: the plots' dates
    assert entry() != edited


def test_hook_moves_the_jupyter_cache_into_a_keyed_folder(tmp_path: Path) -> None:
    base = tmp_path / "mkdocs-jupyter"
    older = base / f"notebook-{'0' * 20}"  # left by an older attention_ref
    older.mkdir(parents=True)
    plugin = SimpleNamespace(config={"cache": True, "cache_dir": str(base)})
    config = SimpleNamespace(plugins={"mkdocs-jupyter": plugin})
    key_jupyter_cache(config, ROOT)
    keyed = Path(plugin.config["cache_dir"])
    assert keyed.parent == base and re.fullmatch(r"notebook-[0-9a-f]{20}", keyed.name)
    assert keyed.is_dir() and not older.exists()
    key_jupyter_cache(config, ROOT)  # a second call (mkdocs serve rebuild) must not nest folders
    assert Path(plugin.config["cache_dir"]) == keyed


def test_mkdocs_yml_runs_the_notebook_strictly() -> None:
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    block = text.split("- mkdocs-jupyter:", 1)[1].split("\n  - ", 1)[0]
    assert "execute: true" in block and "allow_errors: false" in block
    assert 'ignore: ["*.md"]' in block, "else every page is read by jupytext on each build"
    assert "hooks/build.py" in text
    assert "notebook.key_jupyter_cache(config, ROOT)" in (ROOT / "hooks" / "build.py").read_text()


def test_built_notebook_page_offers_the_ipynb_download() -> None:
    site = ROOT / "site" / "notebooks" / "sqrt_dk"
    if not (site / "index.html").is_file():
        pytest.skip("site/ is not built (`make build` builds it before pytest in `make test`)")
    html = (site / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<a href="sqrt_dk\.ipynb" download[^>]*aria-label="Download', html)
    built = (site / "sqrt_dk.ipynb").read_text(encoding="utf-8")
    wheel = re.search(r'WHEEL = \\"(http[^"\\]+\.whl)\\"', built)  # hooks/build.py
    assert wheel, "the download names no wheel address"
    assert built == to_ipynb(SOURCE.read_text(encoding="utf-8").replace(WHEEL_MARKER, wheel[1]))
    assert "stylesheets/notebook.css" in html
    assert not re.search(r'id="cell-id=(?!cell-\d+")', html), "random cell ids left in the page"
