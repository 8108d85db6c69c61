"""Benchmark of the kernel perceptron (perceptron_core/kernels.py).

Run from the repository root:

    .venv/bin/python benchmarks/bench_kernels.py

What it measures (time.perf_counter, median of REPEATS runs after one warm-up; every
run includes the Gram matrix and the frozen trace):

1. ``kernel_perceptron(X, y, kernel="rbf", scale=2)`` on make_circles, n = 500; then the
   same with 10 % of the labels flipped and max_updates = 10 000 (many updates: the cost
   per update, one Gram row);
2. ``kernel_perceptron(X, y, kernel="poly", degree=2)`` on the same data against its peer,
   ``run_perceptron`` on the explicit degree-2 features (x_i x_j for all i, j,
   sqrt(2c) x_i, c), which makes the same updates: the ratio kernel / primal;
3. ``decision_path`` on a 100 x 100 grid for every update of run 1 (what a page precomputes);
4. ``kernel_margin`` for run 1's data and kernel.

This is a script, not a test: it asserts nothing and exits 0 unless something crashes.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from timing import load_average, machine_line, median_time  # noqa: E402

from perceptron_core import (  # noqa: E402
    kernel_margin,
    kernel_perceptron,
    make_circles,
    run_perceptron,
    with_label_noise,
)
from perceptron_core.viz.kernels import QUICK_RBF_SCALE  # noqa: E402

N, SEED = 500, 0
GAMMA = 2.0
NOISE, NOISY_UPDATES = 0.1, 10_000
DEGREE, COEF0 = 2, 1.0
GRID = 100
REPEATS = 7


def explicit_degree2_features(X, coef0):
    """Phi with Phi(a)·Phi(b) = (a·b + c)^2: (x_i x_j for all i, j; sqrt(2c) x; c)."""
    outer = np.einsum("ni,nj->nij", X, X).reshape(X.shape[0], -1)
    return np.hstack([outer, np.sqrt(2 * coef0) * X, np.full((X.shape[0], 1), coef0)])


def fmt_ms(seconds: float) -> str:
    return f"{seconds * 1e3:8.2f} ms"


def main() -> None:
    print("kernel perceptron benchmark")
    print(f"  {machine_line()}")
    print(f"  load average at start (1/5/15 min): {load_average()}")
    print(f"  timing: median of {REPEATS} runs after 1 warm-up, trace included")
    ds = make_circles(n=N, seed=SEED)
    print(f"data: make_circles(n={N}, seed={SEED})")
    print()

    rbf_time, _, rbf = median_time(
        lambda: kernel_perceptron(ds.X, ds.y, kernel="rbf", scale=GAMMA), REPEATS
    )
    print(
        f"1. kernel_perceptron rbf (scale={GAMMA:g}), n = {N}: {fmt_ms(rbf_time)}  "
        f"({rbf.n_updates} updates, {rbf.epochs} epochs, converged={rbf.converged})"
    )

    noisy = with_label_noise(ds, NOISE, seed=SEED)
    noisy_time, _, noisy_run = median_time(
        lambda: kernel_perceptron(
            noisy.X, noisy.y, kernel="rbf", scale=GAMMA, max_updates=NOISY_UPDATES
        ),
        repeats=3,
    )
    print(
        f"   with {NOISE:.0%} labels flipped: {fmt_ms(noisy_time)}  ({noisy_run.n_updates} "
        f"updates, {noisy_run.n_examined} examined, converged={noisy_run.converged}; "
        f"{noisy_time / max(noisy_run.n_updates, 1) * 1e6:.1f} µs per update)"
    )

    features = explicit_degree2_features(ds.X, COEF0)
    poly_time, _, poly = median_time(
        lambda: kernel_perceptron(ds.X, ds.y, kernel="poly", degree=DEGREE, coef0=COEF0), REPEATS
    )
    primal_time, _, primal = median_time(lambda: run_perceptron(features, ds.y), REPEATS)
    same = np.array_equal(poly.update_indices, primal.update_indices)
    print(
        f"2. kernel_perceptron poly (degree {DEGREE}, c={COEF0:g}):    {fmt_ms(poly_time)}  "
        f"({poly.n_updates} updates)"
    )
    print(
        f"   run_perceptron on explicit features ({features.shape[1]} columns): "
        f"{fmt_ms(primal_time)}  ({primal.n_updates} updates, same updates: {same})"
    )
    print(f"   ratio kernel / primal = {poly_time / primal_time:.2f}")

    axis = np.linspace(-1.5, 1.5, GRID)
    grid = np.column_stack([g.ravel() for g in np.meshgrid(axis, axis)])
    path_time, _, path = median_time(lambda: rbf.decision_path(grid), repeats=3)
    print(
        f"3. decision_path, {GRID}x{GRID} grid, every update of run 1 -> {path.shape}: "
        f"{fmt_ms(path_time)} ({path.nbytes / 2**20:.1f} MB)"
    )

    margin_time, _, margin = median_time(
        lambda: kernel_margin(ds.X, ds.y, kernel="rbf", scale=GAMMA), repeats=3
    )
    print(
        f"4. kernel_margin rbf: {fmt_ms(margin_time)}  (R = {margin.radius:.4f}, "
        f"gamma = {margin.margin:.4f}, bound (R/gamma)^2 = {margin.bound:.1f} >= "
        f"{rbf.n_updates} updates)"
    )

    # /kernels' hint when the margin takes too long: a small κ is quicker for RBF
    noisy_X, noisy_y = np.asarray(noisy.X), np.asarray(noisy.y)
    small_time, _, _ = median_time(
        lambda: kernel_margin(noisy_X, noisy_y, kernel="rbf", scale=QUICK_RBF_SCALE), repeats=3
    )
    large_time, _, _ = median_time(
        lambda: kernel_margin(noisy_X, noisy_y, kernel="rbf", scale=10 * QUICK_RBF_SCALE), repeats=3
    )
    print(
        f"5. kernel_margin rbf with {NOISE:.0%} labels flipped: κ = {QUICK_RBF_SCALE:g} "
        f"{fmt_ms(small_time)}, κ = {10 * QUICK_RBF_SCALE:g} {fmt_ms(large_time)}: ratio "
        f"{large_time / small_time:.1f} (the page's hint says the small κ is quicker: > 1)"
    )


if __name__ == "__main__":
    main()
