"""Speed and memory of ``attention_ref.scaled_dot_product_attention`` (forward only).

For batch 1 x 4 heads x n x d_k=64, n in 128, 512, 2048, float32 and float64:

- ``attention_ref``: the reference module, as a reader would call it (it shares its
  blocks of queries out over as many threads as numpy's BLAS has, see ``attention_ref.core``);
- ``floor``: the two matrix products alone with numpy (``q @ k^T`` then ``w @ v`` into
  preallocated arrays): any exact attention must at least do these;
- ``oracle``: the plain-loop implementation the tests check against (``testbed.oracle``,
  small n only);
- ``torch``: ``torch.nn.functional.scaled_dot_product_attention`` on the CPU with the same
  number of threads as numpy's BLAS, where torch is installed (``make model-deps``);
- ``tiled``: ``attention_ref.tiled_attention`` with its default tiles of 64 x 64, the
  FlashAttention forward written as lesson 5 teaches it (one tile of scores per head at a
  time, in Python loops over the tiles, on the calling thread), with its peak extra memory:
  the figures that decide whether it could serve as ``attention_ref``'s fast path.

Peak extra memory is measured with ``tracemalloc`` (numpy reports its array buffers to it):
the peak during one call, minus what was allocated before it, minus the returned output,
compared with the size of one weights matrix for all heads (batch x heads x n x n x itemsize).

The measurement runs in a subprocess (``python -m bench.kernel``) whose environment has
``OPENBLAS_CORETYPE`` and ``OPENBLAS_L2_SIZE`` removed: some machines set them to work
around old OpenBLAS builds, and they slow a current numpy down. Which BLAS kernel then
runs is recorded from threadpoolctl.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from bench.stats import Summary, ratio, time_call

ROOT = Path(__file__).resolve().parents[1]
SIZES = (128, 512, 2048)
DTYPES = ("float32", "float64")
BATCH, HEADS, D_K = 1, 4, 64
ORACLE_MAX_N = 128
BLAS_ENV = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")


def make_inputs(n: int, dtype: str, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Seeded q, k, v of shape (BATCH, HEADS, n, D_K) with unit-variance entries."""
    rng = np.random.default_rng(seed)
    shape = (BATCH, HEADS, n, D_K)
    q, k, v = (rng.standard_normal(shape).astype(dtype) for _ in range(3))
    return q, k, v


def weights_bytes(n_q: int, n_k: int, itemsize: int, heads: int = HEADS, batch: int = BATCH) -> int:
    """Bytes of one weights matrix for every head: batch x heads x n_q x n_k x itemsize.

    Examples
    --------
    >>> weights_bytes(2048, 2048, 4)
    67108864
    """
    return batch * heads * n_q * n_k * itemsize


def peak_extra_bytes(fn: Callable[[], np.ndarray]) -> int:
    """Peak bytes allocated during ``fn()`` beyond what existed before it and its result."""
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        out = fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return max(0, peak - before - int(out.nbytes))


def floor_fn(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> Callable[[], np.ndarray]:
    """The two matrix products alone, into preallocated arrays (same dtypes)."""
    k_t = np.swapaxes(k, -1, -2)  # (..., d_k, n_k)
    s = np.empty((*q.shape[:-1], k.shape[-2]), dtype=q.dtype)  # (..., n_q, n_k)
    out = np.empty((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)  # (..., n_q, d_v)

    def floor() -> np.ndarray:
        np.matmul(q, k_t, out=s)
        np.matmul(s, v, out=out)
        return out

    return floor


def _bind(fn: Callable[..., Any], *args: Any) -> Callable[[], Any]:
    """``fn`` with its arguments fixed now (a loop's variables, not their last values).

    Examples
    --------
    >>> calls = [_bind(lambda x: x * 2, n) for n in (1, 2)]
    >>> [c() for c in calls]
    [2, 4]
    """
    return lambda: fn(*args)


def load_oracle() -> Callable[..., Any]:
    """The plain-loop oracle the tests trust (:mod:`testbed.oracle`)."""
    from testbed.oracle import scaled_dot_product_attention

    return scaled_dot_product_attention


def blas_info() -> dict[str, Any]:
    """Which BLAS numpy runs (threadpoolctl if installed, else numpy's build config)."""
    try:
        from threadpoolctl import threadpool_info  # type: ignore[import-untyped]
    except ImportError:
        config: Any = np.show_config(mode="dicts")
        blas = config.get("Build Dependencies", {}).get("blas", {})
        return {
            "source": "numpy.show_config",
            "name": blas.get("name"),
            "version": blas.get("version"),
            "num_threads": os.cpu_count(),
        }
    pools: list[dict[str, Any]] = [
        {key: info.get(key) for key in ("user_api", "internal_api", "version", "architecture")}
        | {"num_threads": info.get("num_threads"), "threading_layer": info.get("threading_layer")}
        for info in threadpool_info()
    ]
    blas_pools = [p for p in pools if p["user_api"] == "blas"]
    threads = blas_pools[0]["num_threads"] if blas_pools else os.cpu_count()
    return {"source": "threadpoolctl", "pools": pools, "num_threads": threads}


def measure_numpy(sizes: tuple[int, ...], repeat: int) -> dict[str, Any]:
    """attention_ref, the floor, the oracle (small n) and memory, for every size and dtype."""
    import attention_ref
    from attention_ref import scaled_dot_product_attention

    tiled = getattr(attention_ref, "tiled_attention", None)
    oracle = load_oracle()
    rows = []
    for dtype in DTYPES:
        for n in sizes:
            q, k, v = make_inputs(n, dtype)
            row: dict[str, Any] = {"dtype": dtype, "n": n}
            row["attention_ref"] = time_call(
                _bind(scaled_dot_product_attention, q, k, v), repeat=repeat
            )
            row["floor"] = time_call(floor_fn(q, k, v), repeat=repeat)
            if n <= ORACLE_MAX_N:
                row["oracle"] = time_call(_bind(oracle, q, k, v), repeat=3, warmup=0, min_sample=0)
            itemsize = np.dtype(dtype).itemsize
            row["weights_bytes"] = weights_bytes(n, n, itemsize)
            row["peak_extra_bytes"] = peak_extra_bytes(_bind(scaled_dot_product_attention, q, k, v))
            if tiled is not None:  # an attention_ref older than lesson 5 has none
                row["tiled"] = time_call(_bind(tiled, q, k, v), repeat=max(3, repeat // 2))
                row["tiled_peak_extra_bytes"] = peak_extra_bytes(_bind(tiled, q, k, v))
            rows.append(row)
            print(f"  kernel {dtype} n={n}: done", file=sys.stderr, flush=True)
    where = Path(attention_ref.__file__).resolve()
    installed = ROOT not in where.parents  # from a venv's site-packages, not this checkout
    source = {"version": attention_ref.__version__, "installed": installed}
    return {"rows": rows, "blas": blas_info(), "attention_ref": source}


def measure_torch(sizes: tuple[int, ...], repeat: int, threads: int) -> dict[str, Any]:
    """torch's fused CPU kernel on the same inputs, with ``threads`` intra-op threads."""
    try:
        import torch
        import torch.nn.functional as F
    except ImportError as err:
        return {"available": False, "reason": f"torch is not installed ({err}); `make model-deps`"}
    torch.set_num_threads(threads)
    rows = []
    with torch.no_grad():
        for dtype in DTYPES:
            for n in sizes:
                q, k, v = (torch.from_numpy(a) for a in make_inputs(n, dtype))
                timing = time_call(_bind(F.scaled_dot_product_attention, q, k, v), repeat=repeat)
                rows.append({"dtype": dtype, "n": n, "torch": timing})
    return {
        "available": True,
        "version": torch.__version__,
        "threads": torch.get_num_threads(),
        "rows": rows,
    }


def merge(numpy_part: dict[str, Any], torch_part: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per (dtype, n) with every timing and the ratios to the floor and to torch."""
    by_key = {(r["dtype"], r["n"]): r["torch"] for r in torch_part.get("rows", [])}
    rows = []
    for row in numpy_part["rows"]:
        row = dict(row)
        torch_time: Summary | None = by_key.get((row["dtype"], row["n"]))
        if torch_time is not None:
            row["torch"] = torch_time
        row["ratio_to_floor"] = ratio(row["attention_ref"], row["floor"])
        row["ratio_to_torch"] = ratio(row["attention_ref"], torch_time)
        row["floor_to_torch"] = ratio(row["floor"], torch_time)
        row["peak_extra_in_weights"] = row["peak_extra_bytes"] / row["weights_bytes"]
        if "tiled" in row:
            row["tiled_to_attention_ref"] = ratio(row["tiled"], row["attention_ref"])
        rows.append(row)
    return rows


# For another interpreter (the installed wheel's venv): the checkout goes at the END of
# sys.path, so that bench.kernel comes from it but attention_ref from that venv's
# site-packages; run from a folder outside the checkout (`-c` puts the working folder first).
_DRIVER = "import sys; sys.path.append(sys.argv.pop(1)); from bench.kernel import main; main()"


def _subprocess(args: list[str], env: dict[str, str], python: Path | None = None) -> dict[str, Any]:
    if python is None:
        command, cwd = [sys.executable, "-m", "bench.kernel", *args], ROOT
    else:
        command, cwd = [str(python), "-c", _DRIVER, str(ROOT), *args], python.parent
    proc = subprocess.run(command, cwd=cwd, env=env, check=True, stdout=subprocess.PIPE, text=True)
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


def run(
    repeat: int = 7,
    sizes: tuple[int, ...] = SIZES,
    threads: int | None = None,
    python: Path | None = None,
) -> dict[str, Any]:
    """Measure in clean subprocesses (numpy first, then torch, never in one interpreter).

    ``threads`` caps numpy's BLAS threads (``OPENBLAS_NUM_THREADS``), and so the threads
    attention_ref uses; torch then gets the same number. By default BLAS uses what it
    would use anyway (one per core). ``python``: measure attention_ref as installed in
    that interpreter's environment (torch still runs in this one).
    """
    env = dict(os.environ)
    parent_env = {name: env.pop(name, None) for name in BLAS_ENV}
    if threads is not None:
        env["OPENBLAS_NUM_THREADS"] = str(threads)
    size_args = ["--sizes", ",".join(map(str, sizes)), "--repeat", str(repeat)]
    numpy_part = _subprocess(["--part", "numpy", *size_args], env, python)
    threads = int(numpy_part["blas"]["num_threads"] or 1)
    torch_part = _subprocess(["--part", "torch", "--threads", str(threads), *size_args], env)
    return {
        "what": f"forward, batch {BATCH} × {HEADS} heads × n × d_k = {D_K}, time per call, "
        f"{threads} thread{'s' if threads > 1 else ''} for BLAS and torch",
        "environment": {
            "unset_for_the_bench": list(BLAS_ENV),
            "values_in_the_calling_environment": parent_env,
            "OPENBLAS_NUM_THREADS": env.get("OPENBLAS_NUM_THREADS"),
        },
        "blas": numpy_part["blas"],
        "attention_ref": numpy_part.get("attention_ref", {}),
        "torch": {k: v for k, v in torch_part.items() if k != "rows"},
        "rows": merge(numpy_part, torch_part),
    }


def run_from_wheel(repeat: int = 7, threads: int = 2) -> dict[str, Any]:
    """The n = 2048 case with attention_ref's wheel installed alone in a fresh venv.

    What a pip user gets: the wheel built as ``make dist`` builds it, installed with its
    declared dependencies only (numpy, threadpoolctl), nothing of the dev venv.
    """
    from site_build.downloads import build_wheel, uv_command

    with tempfile.TemporaryDirectory(prefix="attention-ref-wheel-") as tmp:
        folder = Path(tmp)
        wheel = build_wheel(ROOT, folder / "cache")
        venv = folder / "venv"
        subprocess.run([uv_command(), "venv", "--quiet", "--python", sys.executable, str(venv)],
                       check=True)  # fmt: skip
        python = venv / "bin" / "python"
        subprocess.run([uv_command(), "pip", "install", "--quiet", "--python", str(python),
                        str(wheel)], check=True)  # fmt: skip
        result = run(repeat=repeat, sizes=(2048,), threads=threads, python=python)
    result["what"] = "from the installed wheel alone (numpy, threadpoolctl), " + result["what"]
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=["numpy", "torch"], required=True)
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    sizes = tuple(int(s) for s in args.sizes.split(","))
    if args.part == "numpy":
        result = measure_numpy(sizes, args.repeat)
    else:
        result = measure_torch(sizes, args.repeat, args.threads)
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
