"""Benchmark of perceptron_core against scikit-learn and a plain Python loop.

Run from the repository root (one BLAS thread, as the server runs):

    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/bench_core.py

What it measures (time.perf_counter and time.process_time, medians of REPEATS runs after
one warm-up, ours and scikit-learn interleaved so that a burst of load hits both alike):

1. ``run_perceptron(X, y, bias=True, order="cyclic")`` (the trace is always recorded and
   is in the time) against scikit-learn's ``Perceptron(eta0=1, shuffle=False, tol=None,
   max_iter=E)``, E = the epochs run_perceptron needed (it must end at the same w and b),
   on three data sets: make_separable with n = 100 000, d = 50, margin 0.02 (the speed target's),
   margin 0.01 (the README's), and n = 2 000, d = 2 (what the pages run). Also the floor:
   E passes of one ``X @ w`` product over the data, what any run must at least read; and
   the least work of our search (``least_work``): the NumPy calls it cannot do without for
   the same updates, none of its bookkeeping, what run_perceptron could cost at best;
2. a textbook per-example Python loop on the README's data (one ``np.dot`` per example,
   same stopping rule): the same steps, updates, w and b;
3. ``max_margin`` on n = 5000 separable data in d = 2 and d = 20;
4. ``aggressive_counterexample(10**7)``.

The machine's load average is printed before and after: other processes on the cores
slow every wall time down (the CPU-time ratios suffer less). This is a script, not a
test: it asserts nothing. Targets: ours / sklearn <= 0.5 on both large data sets.
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
from timing import load_average, machine_line, median_time  # noqa: E402

from perceptron_core import aggressive_counterexample, make_separable, max_margin, run_perceptron  # noqa: E402

#: (name, n, d, margin, seed): the data sets of the comparison with scikit-learn
DATA_SETS = [
    ("target: n=100000, d=50, margin 0.02", 100_000, 50, 0.02, 0),
    ("README: n=100000, d=50, margin 0.01", 100_000, 50, 0.01, 0),
    ("pages: n=2000, d=2, margin 0.02", 2_000, 2, 0.02, 0),
]
REPEATS = 11  # timed runs after one warm-up
LOOP_REPEATS = 3  # full runs of the Python loop, no warm-up (about 1.5 s each)
LOOP_BUDGET_S = 45.0  # if one loop run is slower than this, stop repeating it
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

        info = [
            f"{p.get('internal_api')} {p.get('version')} threads={p.get('num_threads')}"
            for p in threadpool_info()
            if p.get("user_api") == "blas"
        ]
        return "; ".join(info) or "unknown"
    except Exception:  # threadpoolctl missing or failing: not essential
        return "unknown"


def fmt_s(seconds: float) -> str:
    return f"{seconds * 1e3:9.1f} ms" if seconds < 10 else f"{seconds:9.2f} s "


def least_work(X, y, trace) -> None:
    """The NumPy calls run_perceptron's cyclic search cannot do without, for ``trace``'s
    updates: the float32 copy of the padded rows y (x, 1) and the rows' squares (each
    once), then, from one update to the next, one float32 product over the examples in
    between, its comparison and the first example found, and per update the loop's
    np.dot in float64, w <- w + y x and w's float32 copy. Nothing else: no rounding
    bounds, no candidates rejected, no trace. What ours could cost at best with this
    design (perceptron_core/perceptron.py, ``_run_cyclic``)."""
    n, dim = X.shape
    labels = y.astype(np.float64)
    rows = np.empty((n, dim + 1), dtype=np.float32)
    rows[:, :dim] = X
    rows[:, dim] = 1.0
    rows *= labels[:, None].astype(np.float32)
    np.einsum("ij,ij->i", X, X)
    w, b = np.zeros(dim), 0.0
    weights = np.zeros(dim + 1, dtype=np.float32)
    scores = np.empty(n, dtype=np.float32)
    below = np.empty(n, dtype=bool)
    examined = 0
    ends = [*trace.update_steps.tolist(), trace.n_examined]
    for k, end in enumerate(ends):
        while examined < end:  # the examples up to this update (or the last), per epoch
            start = examined % n
            take = min(n - start, end - examined)
            np.dot(rows[start : start + take], weights, out=scores[:take])
            int(np.less_equal(scores[:take], 0.0, out=below[:take]).argmax())
            examined += take
        if k < trace.n_updates:
            index = int(trace.update_indices[k])
            float(labels[index] * (np.dot(w, X[index]) + b))
            if labels[index] > 0:  # w <- w + y x in place, as the search does it
                np.add(w, X[index], out=w)
            else:
                np.subtract(w, X[index], out=w)
            b += labels[index]
            weights[:dim] = w
            weights[dim] = b


def compare(name: str, n: int, dim: int, margin: float, seed: int) -> dict:
    """ours, scikit-learn and the floor on one data set, interleaved."""
    ds = make_separable(n=n, margin=margin, dim=dim, seed=seed)
    X = np.ascontiguousarray(ds.X, dtype=np.float64)
    y = np.asarray(ds.y)
    trace = run_perceptron(X, y, bias=True, order="cyclic")  # warm-up; its epochs
    epochs = trace.epochs

    def ours():
        return run_perceptron(X, y, bias=True, order="cyclic")

    def theirs():
        return Perceptron(eta0=1, shuffle=False, tol=None, max_iter=epochs).fit(X, y)

    def floor():  # every epoch reads all of X once, at least
        for _ in range(epochs):
            X @ trace.w

    def least():
        least_work(X, y, trace)

    clf = theirs()
    timings = {"ours": [], "sklearn": [], "floor": [], "least": []}
    cpu = {"ours": [], "sklearn": [], "floor": [], "least": []}
    for _ in range(REPEATS):
        for key, function in (
            ("ours", ours),
            ("sklearn", theirs),
            ("floor", floor),
            ("least", least),
        ):
            began_cpu, began = time.process_time(), time.perf_counter()
            result = function()
            timings[key].append(time.perf_counter() - began)
            cpu[key].append(time.process_time() - began_cpu)
            if key == "ours":
                trace = result
            elif key == "sklearn":
                clf = result
    med = {key: statistics.median(values) for key, values in timings.items()}
    med_cpu = {key: statistics.median(values) for key, values in cpu.items()}
    w_sk, b_sk = clf.coef_.ravel(), float(clf.intercept_[0])
    return dict(
        name=name,
        trace=trace,
        epochs=epochs,
        med=med,
        cpu=med_cpu,
        timings=timings,
        dw=float(np.max(np.abs(trace.w - w_sk))),
        db=abs(trace.b - b_sk),
        X=X,
        y=y,
    )


def main() -> None:
    wall = time.perf_counter()
    print("perceptron_core benchmark")
    print(f"  {machine_line()}  scikit-learn {sklearn.__version__}")
    print(f"  BLAS: {blas_info()}")
    print(f"  load average at start (1/5/15 min): {load_average()}")
    print(
        f"  timing: medians of {REPEATS} runs after 1 warm-up (ours, sklearn and the floor "
        "interleaved)"
    )
    print()
    rows = [compare(*data) for data in DATA_SETS]
    for row in rows:
        trace = row["trace"]
        print(
            f"{row['name']}: run_perceptron converged={trace.converged}, "
            f"{trace.n_updates} updates in {row['epochs']} epochs ({trace.n_examined} "
            f"examined); sklearn ends at the same w: max |dw| = {row['dw']:.2e}, "
            f"|db| = {row['db']:.2e}"
        )

    # --------------------------------------------------------- Python loop
    readme = rows[1]
    loop_times, loop_result = [], None
    for _ in range(LOOP_REPEATS):  # no warm-up: seconds per run, nothing to warm
        start = time.perf_counter()
        loop_result = textbook_perceptron(readme["X"], readme["y"])
        loop_times.append(time.perf_counter() - start)
        if loop_times[-1] > LOOP_BUDGET_S:
            break
    med_loop = statistics.median(loop_times)
    w_loop, b_loop, steps_loop, updates_loop = loop_result
    trace = readme["trace"]
    loop_same = (
        steps_loop == trace.n_examined
        and updates_loop == trace.n_updates
        and np.array_equal(w_loop, trace.w)
        and b_loop == trace.b
    )
    print(
        f"python loop on the README's data: {steps_loop} examined, {updates_loop} updates; "
        f"the same steps, updates and w, b (bit for bit) as run_perceptron: {loop_same}"
    )

    # ------------------------------------------------------------ max_margin
    mm_rows = []
    for d in (2, 20):
        mds = make_separable(n=MM_N, margin=MM_MARGIN, dim=d, seed=MM_SEED)
        med, _, res = median_time(lambda: max_margin(mds.X, mds.y), 5)
        mm_rows.append((d, med, res.margin, res.separable, res.support.size))
    med_agg, _, agg = median_time(lambda: aggressive_counterexample(AGGRESSIVE_T), 5)

    # ----------------------------------------------------------------- table
    print()
    print(f"{'benchmark':58s} {'median':>12s}  ratio / note")
    print("-" * 108)
    for row in rows:
        med, cpu = row["med"], row["cpu"]
        print(f"{row['name']}")
        print(
            f"{'  run_perceptron cyclic, bias, trace':58s} {fmt_s(med['ours'])}  "
            f"(CPU {cpu['ours'] * 1e3:.1f} ms)"
        )
        epochs = row["epochs"]
        label = f"  sklearn Perceptron, max_iter={epochs}"
        print(f"{label:58s} {fmt_s(med['sklearn'])}  (CPU {cpu['sklearn'] * 1e3:.1f} ms)")
        label = f"  floor: {epochs} passes of X @ w"
        print(f"{label:58s} {fmt_s(med['floor'])}  (CPU {cpu['floor'] * 1e3:.1f} ms)")
        ratio = med["ours"] / med["sklearn"]
        verdict = "OK" if ratio <= 0.5 else "MISSED"
        print(
            f"{'  ours / sklearn   (target <= 0.5)':58s} {'':12s}  {ratio:6.2f}  {verdict}  "
            f"(CPU-time ratio {cpu['ours'] / cpu['sklearn']:.2f})"
        )
        print(
            f"{'  ours / floor':58s} {'':12s}  {med['ours'] / med['floor']:6.2f}  "
            f"(CPU-time ratio {cpu['ours'] / cpu['floor']:.2f})"
        )
        label = "  least work of this search (least_work), same updates"
        print(f"{label:58s} {fmt_s(med['least'])}  (CPU {cpu['least'] * 1e3:.1f} ms)")
        print(
            f"{'  least work / sklearn':58s} {'':12s}  {med['least'] / med['sklearn']:6.2f}  "
            f"(CPU-time ratio {cpu['least'] / cpu['sklearn']:.2f}; ours can be no faster)"
        )
    label = f"python loop, np.dot per example ({steps_loop} steps, README data)"
    print(f"{label:58s} {fmt_s(med_loop)}  loop / ours = {med_loop / readme['med']['ours']:.1f}")
    for d, med, margin, separable, n_support in mm_rows:
        label = f"max_margin, n={MM_N}, d={d} (planted margin {MM_MARGIN})"
        print(
            f"{label:58s} {fmt_s(med)}  margin {margin:.6f}, separable={separable}, "
            f"{n_support} support"
        )
    print(
        f"{'aggressive_counterexample(10**7)':58s} {fmt_s(med_agg)}  "
        f"{agg.mistakes_standard.size} standard / {agg.mistakes_aggressive.size} "
        "aggressive mistakes"
    )
    print("-" * 108)
    print("all timings (ms), per data set:")
    for row in rows:
        for key in ("ours", "sklearn", "floor", "least"):
            print(
                f"  {row['name'][:22]:22s} {key:8s} "
                f"{' '.join(f'{t * 1e3:.1f}' for t in row['timings'][key])}"
            )
    print(f"load average at end: {load_average()}")
    print(f"total wall time {time.perf_counter() - wall:.1f} s")


if __name__ == "__main__":
    main()
