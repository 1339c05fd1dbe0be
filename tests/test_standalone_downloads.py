"""What a reader downloads runs away from this repository.

* The notebook: the site is built with ``SITE_URL`` on a local server and served; the
  ``.ipynb`` behind the page's download button is fetched into an empty folder and run
  by nbclient in a fresh virtual environment holding only numpy, matplotlib, ipykernel
  and nbclient (and pip), and threadpoolctl, the wheel's other dependency, which a
  reader's pip fetches from PyPI but this closed kernel cannot. Its first cell installs
  ``attention_ref`` from the served wheel. Every other host is unreachable for the
  kernel: its proxy variables point at a closed port, with 127.0.0.1 the only exception.
* The practice files: for every step, the three files the page offers, under the names
  it gives them, in an empty folder, run by Python without site-packages (``-E -S``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path
from urllib.parse import urljoin

import pytest

from site_build.practice import site_files
from testbed.serve import serve
from testbed.site import build_site
from tests.fresh_venv import clean_env, install, make_venv, run
from tests.test_practice import PARTIALS  # each lesson's folder and the partial offering it

ROOT = Path(__file__).resolve().parents[1]
PRACTICE = ROOT / "snippets" / "practice"
# Nothing listens there: a request through this "proxy" fails at once.
DEAD_PROXY = "http://127.0.0.1:9"

RUN_NOTEBOOK = """
import sys, time
import nbformat
from nbclient import NotebookClient

nb = nbformat.read(sys.argv[1], as_version=4)
start = time.perf_counter()
NotebookClient(nb, timeout=600, kernel_name="python3").execute()  # in this folder
print(f"{time.perf_counter() - start:.1f}")
nbformat.write(nb, sys.argv[2])
"""


def _get(url: str) -> bytes:
    """GET from the local server, ignoring any proxy this machine has set."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(url, timeout=60) as response:
        body: bytes = response.read()
        return body


def _offline_env(home: Path, venv: Path) -> dict[str, str]:
    """A new user's environment whose only reachable host is 127.0.0.1."""
    proxies = {name: DEAD_PROXY for name in ("http_proxy", "https_proxy", "all_proxy")}
    proxies |= {name.upper(): value for name, value in proxies.items()}
    env = clean_env(
        HOME=str(home),
        PATH=f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
        PIP_CONFIG_FILE=os.devnull,
        JUPYTER_PLATFORM_DIRS="1",
        no_proxy="127.0.0.1",
        NO_PROXY="127.0.0.1",
        **proxies,
    )
    # This machine's installer settings (indexes, local wheel folders) are not a reader's.
    return {k: v for k, v in env.items() if not k.startswith(("PIP_", "UV_"))} | {
        "PIP_CONFIG_FILE": os.devnull,
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }


@pytest.mark.build
@pytest.mark.venv
def test_downloaded_notebook_runs_in_a_fresh_environment(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    with serve(site) as base:
        build_site(site, env={**os.environ, "SITE_URL": base, "HTMLPROOFER": "false"})
        page_url = urljoin(base, "notebooks/sqrt_dk/")
        page = _get(page_url).decode()
        link = re.search(r'<a href="([^"]+\.ipynb)" download', page)
        assert link, "the notebook page has no download button"
        work = tmp_path / "work"  # an empty folder, as a reader's Downloads
        work.mkdir()
        notebook = work / Path(link[1]).name
        notebook.write_bytes(_get(urljoin(page_url, link[1])))

        python = make_venv(tmp_path / "venv", with_pip=True)
        constraints = ["--constraint", str(ROOT / "requirements.lock")]  # known versions
        # The wheel's dependencies (numpy, threadpoolctl) are here already: its install in
        # the notebook's first cell reaches only the local server.
        install(
            python,
            "numpy",
            "threadpoolctl",
            "matplotlib",
            "ipykernel",
            "nbclient",
            *constraints,
            cwd=tmp_path,
        )
        assert "attention-ref" not in run([str(python), "-m", "pip", "list"], tmp_path)

        home = tmp_path / "home"
        home.mkdir()
        done = subprocess.run(
            [str(python), "-c", RUN_NOTEBOOK, notebook.name, "executed.ipynb"],
            cwd=work,
            env=_offline_env(home, tmp_path / "venv"),
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
    assert done.returncode == 0, f"the notebook failed:\n{done.stdout}\n{done.stderr[-6000:]}"
    seconds = float(done.stdout.split()[-1])
    print(f"downloaded notebook ran in {seconds:.1f} s in a fresh environment")

    executed = json.loads((work / "executed.ipynb").read_text(encoding="utf-8"))
    code = [cell for cell in executed["cells"] if cell["cell_type"] == "code"]
    assert code and all(cell["execution_count"] for cell in code), "a cell did not run"
    outputs = [out for cell in code for out in cell["outputs"]]
    assert not [out for out in outputs if out["output_type"] == "error"]
    assert sum("image/svg+xml" in out.get("data", {}) for out in outputs) == 2

    # attention_ref came from the served wheel, into the fresh environment.
    where = run([str(python), "-c", "import attention_ref; print(attention_ref.__file__)"], work)
    assert Path(where.strip()).is_relative_to(tmp_path / "venv")
    origin = run(
        [
            str(python),
            "-c",
            "import importlib.metadata as m; print(m.distribution("
            "'attention-ref').read_text('direct_url.json'))",
        ],
        work,
    )
    assert json.loads(origin)["url"].startswith(urljoin(base, "downloads/attention_ref-"))


STEPS = sorted(
    (p.parent.name, p.name)
    for p in PRACTICE.glob("[a-z]*/[0-9][0-9]_*")  # lesson/step: no cache folders
    if p.is_dir()
)


def _download_names(lesson: str, step: str) -> dict[str, str]:
    """``{site path: file name}`` of the files the practice page offers for ``step``."""
    text = (ROOT / "docs" / "partials" / PARTIALS[lesson]).read_text(encoding="utf-8")
    links = re.findall(r'\]\((practice/files/[^)]+)\)\{download="([^"]+)"\}', text)
    return {
        path: name
        for path, name in links
        if path.startswith(f"practice/files/{step}/") or path == "practice/files/_harness.py"
    }


@pytest.mark.parametrize(("lesson", "step"), STEPS, ids=[step for _, step in STEPS])
def test_practice_downloads_run_with_plain_python(lesson: str, step: str, tmp_path: Path) -> None:
    files = site_files(PRACTICE, ROOT / "node_modules" / "pyodide")
    for path, name in _download_names(lesson, step).items():
        (tmp_path / name).write_text(files[path], encoding="utf-8")
    names = ["_harness.py", f"{step}_checks.py", f"{step}_starter.py"]
    assert sorted(os.listdir(tmp_path)) == sorted(names), "the page offers other files"
    shutil.copy(PRACTICE / lesson / step / "solution.py", tmp_path / "answer.py")  # a right answer
    plain = [sys.executable, "-E", "-S", f"{step}_checks.py"]  # no site-packages, no PYTHON*
    kwargs = {"cwd": tmp_path, "capture_output": True, "text": True, "timeout": 120}
    started = subprocess.run([*plain, f"{step}_starter.py"], check=False, **kwargs)
    assert started.returncode == 1 and "FAIL" in started.stdout, started.stdout + started.stderr
    solved = subprocess.run([*plain, "answer.py"], check=False, **kwargs)
    assert solved.returncode == 0, solved.stdout + solved.stderr
    assert "FAIL" not in solved.stdout and "checks passed" in solved.stdout
