"""How long the default generalisation curve of /generalisation takes to compute.

Run from the repository root:

    .venv/bin/python benchmarks/bench_generalisation.py

Times ``generalisation_curve()`` with its defaults (N = 10, 30, 100, 300, 1000;
margin 0.1; d = 2, exact test errors; 200 runs per N) with time.perf_counter:
the median of 3 runs after one warm-up, next to the target (under 5 s, so a
student is not left waiting). For comparison it also times the same curve in
d = 5, where each run's test error is estimated on 10 000 fresh points. The
machine load average is printed: other processes on the 2 cores slow it down.

A script, not a test: it asserts nothing and exits 0 unless something crashes.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from timing import load_average, machine_line, median_time  # noqa: E402

from perceptron_core import generalisation_curve  # noqa: E402

REPEATS = 3
TARGET_S = 5.0


def main() -> None:
    print(f"{machine_line()}  load average (1/5/15 min): {load_average()}")
    for label, kwargs in [
        ("default curve (d = 2, exact errors)", {}),
        ("same curve in d = 5 (10 000 test points a run)", {"dim": 5}),
    ]:
        seconds, timings, curve = median_time(lambda: generalisation_curve(**kwargs), REPEATS)
        runs = curve.repeats * len(curve.n_train)
        print(f"\n{label}: {runs} runs")
        print(
            f"  median {seconds * 1e3:.0f} ms  (runs: "
            f"{', '.join(f'{t * 1e3:.0f}' for t in timings)} ms)  target < {TARGET_S:.0f} s: "
            f"{'met' if seconds < TARGET_S else 'MISSED'}"
        )
        print(
            f"  {'N':>6} {'mean error':>11} {'stderr':>9} {'3/((N+1)g^2)':>13} "
            f"{'uniform':>8} {'max mistakes':>13}"
        )
        for k, n in enumerate(curve.n_train):
            print(
                f"  {n:>6} {curve.mean_error[k]:>11.5f} {curve.stderr[k]:>9.5f} "
                f"{curve.stability_bound[k]:>13.4f} {curve.uniform_bound[k]:>8.3f} "
                f"{curve.margin_mistakes[k].max():>13d}"
            )
        print(
            f"  margin mistakes never above 3/g^2 = {curve.mistake_bound:.0f}: "
            f"{bool(np.all(curve.margin_mistakes <= curve.mistake_bound))}"
        )
    print(f"\nload average after: {load_average()}")


if __name__ == "__main__":
    main()
