"""Benchmark of perceptron_core against scikit-learn and a plain Python loop.

Run from the repository root:

    .venv/bin/python benchmarks/bench_core.py

What it measures (time.perf_counter, median of REPEATS runs after one warm-up):

1. ``run_perceptron(X, y, bias=True, order="cyclic")`` on n = 100 000, d = 50
   separable data (the trace is always recorded and is included in the time);
2. scikit-learn's ``Perceptron(eta0=1, shuffle=False, tol=None, max_iter=E)``
   with E = the epochs run_perceptron needed; it must end at the same (w, b);
3. a textbook per-example Python loop (Algorithm 1.16, one ``np.dot`` per
   example, same stopping rule: n examples in a row without a mistake);
4. ``max_margin`` on n = 5000 separable data in d = 2 and d = 20;
5. ``aggressive_counterexample(10**7)``.

ours and scikit-learn are timed interleaved (ours, sklearn, ours, sklearn, ...)
so that a burst of load from other processes hits both alike. The machine load
average and the process CPU time (time.process_time, all threads) are printed
as well: with other work running, wall times (and especially the
multi-threaded BLAS calls that run_perceptron makes) get noisy. To pin BLAS to
one thread, run with OPENBLAS_NUM_THREADS=1.

This is a script, not a test: it asserts nothing and exits 0 unless something
crashes. Targets: ours / sklearn <= 1.0, loop / ours >= 30.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import sklearn  # noqa: E402
from sklearn.linear_model import Perceptron  # noqa: E402

from perceptron_core import (aggressive_counterexample, make_separable, max_margin,  # noqa: E402
                             run_perceptron)
from timing import load_average, machine_line, median_time  # noqa: E402

N, DIM = 100_000, 50
MARGIN, SEED = 0.01, 0        # needs 14 epochs and 2556 updates (see the output)
REPEATS = 5                   # timed runs after one warm-up
LOOP_REPEATS = 5              # full runs, no warm-up (about 1.5 s each)
LOOP_BUDGET_S = 45.0          # if one loop run is slower than this, stop repeating it
MM_N, MM_MARGIN, MM_SEED = 5_000, 0.05, 0
AGGRESSIVE_T = 10**7


def textbook_perceptron(X, y, max_epochs=1_000):
    """Algorithm 1.16, cyclic order, one example at a time.

    Stops after n consecutive examples without a mistake (the same rule as
    run_perceptron). Returns (w, b, examined steps, updates).
    """
    n, d = X.shape
    labels = [float(v) for v in y]
    w = np.zeros(d)
    b = 0.0
    t = clean = updates = 0
    limit = max_epochs * n
    while clean < n and t < limit:
        i = t % n
        x_i, y_i = X[i], labels[i]
        if y_i * (np.dot(w, x_i) + b) <= 0.0:  # mistake: y (w·x + b) <= 0
            w += y_i * x_i
            b += y_i
            updates += 1
            clean = 0
        else:
            clean += 1
        t += 1
    return w, b, t, updates


def blas_info() -> str:
    try:
        from threadpoolctl import threadpool_info
        info = [f"{p.get('internal_api')} {p.get('version')} threads={p.get('num_threads')}"
                for p in threadpool_info() if p.get("user_api") == "blas"]
        return "; ".join(info) or "unknown"
    except Exception:  # threadpoolctl missing or failing: not essential
        return "unknown"


def fmt_s(seconds: float) -> str:
    return f"{seconds * 1e3:9.1f} ms" if seconds < 10 else f"{seconds:9.2f} s "


def main() -> None:
    wall = time.perf_counter()
    print("perceptron_core benchmark")
    print(f"  {machine_line()}  scikit-learn {sklearn.__version__}")
    print(f"  BLAS: {blas_info()}")
    print(f"  load average at start (1/5/15 min): {load_average()}")
    print(f"  timing: time.perf_counter, median of {REPEATS} runs after 1 warm-up "
          "(ours and sklearn interleaved)")
    print()

    # ---------------------------------------------------------------- data
    ds = make_separable(n=N, margin=MARGIN, dim=DIM, seed=SEED)
    X = np.ascontiguousarray(ds.X, dtype=np.float64)
    y = np.asarray(ds.y)
    print(f"data: make_separable(n={N}, margin={MARGIN}, dim={DIM}, seed={SEED}), "
          f"radius {ds.radius:g}")

    # ---------------------------------------------- ours vs sklearn (interleaved)
    def ours():
        return run_perceptron(X, y, bias=True, order="cyclic")

    trace = ours()  # warm-up; also tells how many epochs sklearn needs
    epochs = trace.epochs

    def theirs():
        return Perceptron(eta0=1, shuffle=False, tol=None, max_iter=epochs).fit(X, y)

    clf = theirs()  # warm-up
    t_ours, t_sk, cpu_ours, cpu_sk = [], [], [], []
    for _ in range(REPEATS):
        cpu, start = time.process_time(), time.perf_counter()
        trace = ours()
        t_ours.append(time.perf_counter() - start)
        cpu_ours.append(time.process_time() - cpu)
        cpu, start = time.process_time(), time.perf_counter()
        clf = theirs()
        t_sk.append(time.perf_counter() - start)
        cpu_sk.append(time.process_time() - cpu)
    med_ours, med_sk = statistics.median(t_ours), statistics.median(t_sk)
    cpu_ours_med, cpu_sk_med = statistics.median(cpu_ours), statistics.median(cpu_sk)
    w_sk, b_sk = clf.coef_.ravel(), float(clf.intercept_[0])
    same_w = np.allclose(trace.w, w_sk)
    same_b = np.allclose(trace.b, b_sk)
    print(f"run_perceptron: converged={trace.converged}, n_updates={trace.n_updates}, "
          f"epochs={trace.epochs}, n_examined={trace.n_examined}")
    print(f"sklearn Perceptron(max_iter={epochs}): n_iter_={clf.n_iter_}, "
          f"t_={int(clf.t_)}; same w: {same_w}, same b: {same_b} "
          f"(max |dw| = {np.max(np.abs(trace.w - w_sk)):.2e}, |db| = {abs(trace.b - b_sk):.2e})")

    # --------------------------------------------------------- Python loop
    loop_times = []
    loop_result = None
    for _ in range(LOOP_REPEATS):  # no warm-up: seconds per run, nothing to warm
        start = time.perf_counter()
        loop_result = textbook_perceptron(X, y)
        loop_times.append(time.perf_counter() - start)
        if loop_times[-1] > LOOP_BUDGET_S:
            break
    med_loop = statistics.median(loop_times)
    w_loop, b_loop, steps_loop, updates_loop = loop_result
    loop_same = (steps_loop == trace.n_examined and updates_loop == trace.n_updates
                 and np.allclose(w_loop, trace.w) and np.isclose(b_loop, trace.b))
    per_example_ns = med_loop / steps_loop * 1e9
    print(f"python loop: full run on the same data (no subset), {len(loop_times)} timed "
          "run(s) without warm-up, "
          f"{steps_loop} examined, {updates_loop} updates; same steps/updates/w/b as "
          f"run_perceptron: {loop_same}; {per_example_ns:.0f} ns per examined example")

    # ------------------------------------------------------------ max_margin
    mm_rows = []
    for d in (2, 20):
        mds = make_separable(n=MM_N, margin=MM_MARGIN, dim=d, seed=MM_SEED)
        med, _, res = median_time(lambda: max_margin(mds.X, mds.y), REPEATS)
        mm_rows.append((d, med, res.margin, res.separable, res.support.size))

    # ---------------------------------------------- aggressive counterexample
    med_agg, _, agg = median_time(lambda: aggressive_counterexample(AGGRESSIVE_T), REPEATS)

    # ----------------------------------------------------------------- table
    print()
    print(f"{'benchmark':62s} {'median':>12s}  ratio / note")
    print("-" * 100)
    print(f"{'run_perceptron cyclic, bias, trace (n=100k, d=50)':62s} {fmt_s(med_ours)}  "
          f"(CPU {cpu_ours_med * 1e3:.1f} ms)")
    print(f"{f'sklearn Perceptron, max_iter={epochs} (same data)':62s} {fmt_s(med_sk)}  "
          f"(CPU {cpu_sk_med * 1e3:.1f} ms)")
    verdict = "OK" if med_ours / med_sk <= 1.0 else "MISSED"
    print(f"{'  ours / sklearn   (target <= 1.0)':62s} {'':12s}  "
          f"{med_ours / med_sk:6.2f}  {verdict}  (CPU-time ratio {cpu_ours_med / cpu_sk_med:.2f})")
    print(f"{f'python loop, np.dot per example, full run ({steps_loop} steps)':62s} "
          f"{fmt_s(med_loop)}  ({per_example_ns:.0f} ns/example, "
          f"median of {len(loop_times)})")
    verdict = "OK" if med_loop / med_ours >= 30 else "MISSED"
    print(f"{'  loop / ours      (target >= 30)':62s} {'':12s}  "
          f"{med_loop / med_ours:6.1f}  {verdict}")
    for d, med, margin, separable, n_support in mm_rows:
        label = f"max_margin, n={MM_N}, d={d} (planted margin {MM_MARGIN})"
        print(f"{label:62s} {fmt_s(med)}  = {med:.4f} s; margin {margin:.6f}, "
              f"separable={separable}, {n_support} support")
    print(f"{'aggressive_counterexample(10**7)':62s} {fmt_s(med_agg)}  = {med_agg:.6f} s; "
          f"{agg.mistakes_standard.size} standard / {agg.mistakes_aggressive.size} "
          "aggressive mistakes")
    print("-" * 100)
    print("all timings (s):")
    print(f"  ours    {' '.join(f'{t:.4f}' for t in t_ours)}   "
          f"CPU {' '.join(f'{t:.4f}' for t in cpu_ours)}")
    print(f"  sklearn {' '.join(f'{t:.4f}' for t in t_sk)}   "
          f"CPU {' '.join(f'{t:.4f}' for t in cpu_sk)}")
    print(f"  loop    {' '.join(f'{t:.3f}' for t in loop_times)}")
    print(f"load average at end: {load_average()}")
    print(f"total wall time {time.perf_counter() - wall:.1f} s")


if __name__ == "__main__":
    main()
