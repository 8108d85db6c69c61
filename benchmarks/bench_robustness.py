"""Robustness benchmarks for issue 8 (not CI): long fuzz runs, a soak and a latency check.

    python benchmarks/bench_robustness.py            # shortened run (about 10 minutes)
    python benchmarks/bench_robustness.py --full     # the long run (>= 10 000 cases each,
                                                     # 1 000 links per page: hours)
    python benchmarks/bench_robustness.py --only core,csv,links,soak,heavy,estimate

Parts (each prints its figures; nothing is asserted):

* core     random calls of every fuzzed public core function (the pools and the table
           of tests/test_fuzz_core.py): results, ValueErrors, anything else, calls > 5 s.
* csv      generated CSV files (valid files spoilt at random: cells, delimiters, a typo
           on row 1, UTF-16, NUL, huge or tiny values, ragged rows): loaded, refused with
           a message naming a row and a column, refused otherwise, anything else.
* links    generated links of /bound, /adversary, /aggressive and / through AppTest
           (the pools of tests/test_fuzz_links.py): exceptions, "could not be drawn"
           fallbacks, ignored values not named in the warning.
* soak     distinct links on every page except /train, in one process (AppTest runs
           the pages in this process, with the app's caches): RSS before and after.
* heavy    a real server: the time another session needs to open /aggressive while the
           heaviest allowed /bound request runs, against at rest; the CPU seconds the
           heavy request used on the server.
* estimate estimated against measured CPU seconds of single sweep runs (/bound's budget).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def header(title: str) -> None:
    print(f"\n=== {title} ===", flush=True)


# ---------------------------------------------------------------------------
# core
# ---------------------------------------------------------------------------

def bench_core(cases: int, seed: int = 0) -> None:
    import test_fuzz_core as fuzz

    header(f"core: {cases} random calls of {len(fuzz.FUNCTIONS)} public functions")
    rng = random.Random(seed)
    pools = {"any": list(fuzz.ANY.wrapped_strategy.original_strategies)
             if hasattr(fuzz.ANY, "wrapped_strategy") else None}
    scalars = list(fuzz.SCALARS.elements)
    arrays = list(fuzz.ARRAYS.elements)
    labels = list(fuzz.LABELS.elements)
    texts = list(fuzz.VALUE_TEXTS.elements)
    everything = scalars + arrays + labels
    outcome = {"result": 0, "ValueError": 0, "other": 0, "slow": 0}
    others: dict[str, int] = {}
    slowest = (0.0, "")
    names = sorted(fuzz.FUNCTIONS)
    start = time.perf_counter()
    for k in range(cases):
        name = names[k % len(names)]
        function, arity = fuzz.FUNCTIONS[name]
        args = [rng.choice(texts if (name == "parse_values" and i == 0) else everything)
                for i in range(arity)]
        began = time.perf_counter()
        try:
            with np.errstate(all="ignore"):
                function(*args)
            outcome["result"] += 1
        except ValueError:
            outcome["ValueError"] += 1
        except Exception as error:  # noqa: BLE001 - counted, that is the point
            outcome["other"] += 1
            key = f"{name}: {type(error).__name__}"
            others[key] = others.get(key, 0) + 1
        took = time.perf_counter() - began
        if took > 2:
            print(f"  slow ({took:.1f} s): {name}{tuple(str(a)[:30] for a in args)}",
                  flush=True)
        if took > 5:
            outcome["slow"] += 1
        if took > slowest[0]:
            slowest = (took, f"{name}{tuple(str(a)[:30] for a in args)}")
    del pools
    print(f"{cases} calls in {time.perf_counter() - start:.1f} s: {outcome}")
    print(f"slowest call {slowest[0]:.2f} s: {slowest[1]}")
    for key, count in sorted(others.items()):
        print(f"  not ValueError: {key} x{count}")


# ---------------------------------------------------------------------------
# csv
# ---------------------------------------------------------------------------

def random_csv(rng: random.Random) -> bytes | str:
    n, d = rng.randint(1, 12), rng.randint(1, 4)
    delimiter = rng.choice([",", ";", "\t"])
    labels = rng.choice([("-1", "1"), ("0", "1"), ("cat", "dog"), ("2", "7")])
    rows = [[repr(round(rng.gauss(0, 1) * 10 ** rng.randint(-3, 3), 4)) for _ in range(d)]
            + [rng.choice(labels)] for _ in range(n)]
    if rng.random() < 0.5:
        rows.insert(0, [f"x{k}" for k in range(d)] + ["label"])
    for _ in range(rng.choice([0, 0, 1, 2, 3])):
        i, j = rng.randrange(len(rows)), rng.randrange(d + 1)
        rows[i][j] = rng.choice(["", "nan", "inf", "1e309", "1e308", "1e-320", "1e151",
                                 "0.5x", "abc", "**b**", "1,5", "²", '"', "1e100", "1e-60",
                                 "9" * 400, " "])
    if rng.random() < 0.1:
        rows[rng.randrange(len(rows))].append("extra")
    text = "\n".join(delimiter.join(row) for row in rows) + rng.choice(["\n", "", "\r\n"])
    kind = rng.random()
    if kind < 0.05:
        return text.encode("utf-16")
    if kind < 0.08:
        return text.encode("utf-16-le")
    if kind < 0.1:
        return text.encode("utf-8").replace(b",", b"\x00", 1)
    if kind < 0.15:
        return "\ufeff" + text
    return text.encode("utf-8") if kind < 0.6 else text


def bench_csv(cases: int, seed: int = 1) -> None:
    import re

    from perceptron_core.io import parse_labelled_csv

    header(f"csv: {cases} generated files")
    rng = random.Random(seed)
    counts = {"loaded": 0, "refused naming row and column": 0, "refused otherwise": 0,
              "other exception": 0}
    utf16 = 0
    start = time.perf_counter()
    for _ in range(cases):
        data = random_csv(rng)
        try:
            parse_labelled_csv(data)
            counts["loaded"] += 1
        except ValueError as error:
            message = str(error)
            utf16 += "UTF-16" in message
            if re.search(r"row \d+", message) and re.search(r"column \d+", message):
                counts["refused naming row and column"] += 1
            else:
                counts["refused otherwise"] += 1
        except Exception:  # noqa: BLE001
            counts["other exception"] += 1
    refused = counts["refused naming row and column"] + counts["refused otherwise"]
    print(f"{cases} files in {time.perf_counter() - start:.1f} s: {counts}")
    print(f"messages naming row and column: "
          f"{100 * counts['refused naming row and column'] / max(refused, 1):.0f} % of refusals; "
          f"{utf16} said UTF-16")


# ---------------------------------------------------------------------------
# links and soak (AppTest, in this process)
# ---------------------------------------------------------------------------

def open_link(page: str, params: dict):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.query_params.update(params)
    at.run()
    if page != "pages/home.py":
        at.switch_page(page).run()
    return at


def random_link(rng: random.Random, page: str) -> dict:
    import test_fuzz_links as fuzz

    spec = fuzz.PAGES.get(page, {})
    keys = rng.sample(sorted(spec), k=min(len(spec), rng.randint(1, 4))) if spec else []
    return {key: rng.choice(spec[key][0] + fuzz.HOSTILE) for key in keys}


def bench_links(cases: int, seed: int = 2) -> None:
    import test_fuzz_links as fuzz

    header(f"links: {cases} generated links through AppTest")
    rng = random.Random(seed)
    pages = sorted(fuzz.PAGES) + ["pages/home.py"]
    counts = {"fine": 0, "exception": 0, "fallback message": 0, "ignored value not named": 0,
              "accepted value named": 0}
    start = time.perf_counter()
    for k in range(cases):
        page = pages[k % len(pages)]
        params = random_link(rng, page)
        at = open_link(page, params)
        if at.exception:
            counts["exception"] += 1
            continue
        if any(fuzz.GUARD in e.value for e in at.error):
            counts["fallback message"] += 1
            continue
        text = " ".join(w.value for w in at.warning if fuzz.IGNORED in w.value)
        wrong = False
        for key, value in params.items():
            named = f"{key}={value[:20]}" in text
            if fuzz.ignored(page, key, value) and not named:
                counts["ignored value not named"] += 1
                wrong = True
            elif not fuzz.ignored(page, key, value) and named:
                counts["accepted value named"] += 1
                wrong = True
        counts["fine"] += not wrong
    took = time.perf_counter() - start
    print(f"{cases} links in {took:.0f} s ({1000 * took / max(cases, 1):.0f} ms each): {counts}")


def distinct_link(page: str, k: int) -> dict:
    """The k-th distinct valid link of a page (new cache keys every time where possible)."""
    if page == "pages/bound.py":
        return {"bound_n": str(20 + k % 300), "bound_margin_count": "2",
                "bound_margin_seeds": "1", "bound_margin_low": f"{0.05 + (k // 300) * 0.01:.2f}"}
    if page == "pages/adversary.py":
        return {"adv_gamma": f"{0.01 + (k % 990) / 1000:.3f}", "adv_dim": "1000",
                "adv_learner": "Perceptron (Algorithm 1.16, through the origin)"}
    if page == "pages/aggressive.py":
        return {"always_wrong_T": str(5 + k % 56),
                "aggressive_T": f"10^{2 + k % 6} = {10 ** (2 + k % 6):,}"}
    return {"present": "1" if k % 2 else "0"}


def bench_soak(per_page: int) -> None:
    import gc

    pages = ["pages/home.py", "pages/bound.py", "pages/adversary.py", "pages/aggressive.py"]
    header(f"soak: {per_page} distinct links on each of {len(pages)} pages (AppTest, "
           "this process)")
    open_link("pages/home.py", {})  # imports and first-run costs out of the figure
    gc.collect()
    before = rss_mb()
    start = time.perf_counter()
    samples = []
    for k in range(per_page):
        for page in pages:
            at = open_link(page, distinct_link(page, k))
            if at.exception:
                print(f"exception on {page} {distinct_link(page, k)}")
        if (k + 1) % max(1, per_page // 5) == 0:
            gc.collect()
            samples.append((4 * (k + 1), rss_mb()))
            print(f"  after {4 * (k + 1)} links: RSS {samples[-1][1]:.0f} MB", flush=True)
    gc.collect()
    after = rss_mb()
    print(f"{4 * per_page} links in {time.perf_counter() - start:.0f} s: RSS {before:.0f} MB "
          f"-> {after:.0f} MB, growth {after - before:+.0f} MB")


# ---------------------------------------------------------------------------
# heavy request latency (real server, Chromium)
# ---------------------------------------------------------------------------

def server_pid(port: int) -> int | None:
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
            if b"streamlit" in b" ".join(cmdline) and str(port).encode() in cmdline:
                return int(entry.name)
    return None


def cpu_seconds(pid: int) -> float:
    """CPU seconds of the server process and of its children (the sweep worker)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(entry.name) == pid or int(fields[1]) == pid:
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def bench_heavy(repeats: int) -> None:
    from browser_helpers import launch_chromium, run_streamlit, wait_for_app
    from playwright.sync_api import sync_playwright

    header(f"heavy: the home page opened by another session, at rest and while the heaviest "
           f"allowed /bound request runs ({repeats} times each)")

    def open_time(context, url: str) -> float:
        page = context.new_page()
        began = time.perf_counter()
        page.goto(url)
        wait_for_app(page, timeout=300_000, settle_ms=100)
        page.get_by_text("Where to go").first.wait_for(timeout=300_000)
        took = time.perf_counter() - began
        page.close()
        return took

    with run_streamlit() as base, sync_playwright() as pw:
        port = int(base.rsplit(":", 1)[1])
        pid = server_pid(port)
        browser = launch_chromium(pw)
        student, heavy = browser.new_context(), browser.new_context()
        open_time(student, f"{base}/")  # warm the caches and the imports
        rest = [open_time(student, f"{base}/") for _ in range(repeats)]
        loaded, heavy_cpu = [], []
        for k in range(repeats):
            # the heaviest allowed: n = 5000, d = 100 (one run about 1 s), 40 runs, so
            # every request computes up to the 4 s budget, then offers Continue
            url = (f"{base}/bound?bound_n={5000 - k}&bound_dim=100&bound_margin_low=0.02"
                   f"&bound_margin_seeds=5")
            page = heavy.new_page()
            cpu_before = cpu_seconds(pid) if pid else float("nan")
            page.goto(url)
            time.sleep(1.0)  # the heavy run has started
            loaded.append(open_time(student, f"{base}/"))
            wait_for_app(page, timeout=300_000)
            heavy_cpu.append((cpu_seconds(pid) if pid else float("nan")) - cpu_before)
            page.close()
        browser.close()
    at_rest, under_load = statistics.median(rest), statistics.median(loaded)
    print(f"open / at rest:           median {1000 * at_rest:.0f} ms "
          f"({', '.join(f'{1000 * t:.0f}' for t in rest)})")
    print(f"while /bound runs:        median {1000 * under_load:.0f} ms "
          f"({', '.join(f'{1000 * t:.0f}' for t in loaded)})")
    print(f"ratio loaded / rest: {under_load / at_rest:.2f} (target <= 1.3)")
    print(f"server + worker CPU per heavy request (incl. the other page open): "
          f"{', '.join(f'{c:.1f}' for c in heavy_cpu)} s (target <= 5 s)")


# ---------------------------------------------------------------------------
# estimate
# ---------------------------------------------------------------------------

def bench_estimate() -> None:
    from perceptron_core.sweeps import _run_one, estimated_run_seconds

    header("estimate: estimated / measured CPU seconds of one sweep run")
    cases = [(200, 2, 0.02, True, 0.0), (5000, 2, 0.005, True, 0.0), (200, 2, 0.005, False, 1.0),
             (200, 1000, 0.1, True, 0.0), (1000, 1000, 0.1, True, 0.0),
             (2000, 300, 0.1, True, 0.0), (5000, 100, 0.02, True, 0.0),
             (5000, 1000, 0.005, False, 0.0), (2000, 50, 0.005, True, 0.0)]
    ratios = []
    for n, d, margin, bias, delta in cases:
        began = time.thread_time()
        _run_one(margin=margin, seed=0, n=n, dim=d, bias=bias, delta=delta, order="cyclic",
                 radius=1.0, scale=1.0, shift=0.0)  # one run, without the sweep's limit
        measured = time.thread_time() - began
        estimate = estimated_run_seconds(n, d, margin, bias, delta)
        ratios.append(estimate / measured)
        print(f"n={n:5d} d={d:4d} margin={margin:<6g} bias={bias!s:5} delta={delta:g}: "
              f"measured {measured:6.3f} s, estimate {estimate:6.3f} s, ratio "
              f"{estimate / measured:.2f}", flush=True)
    print(f"estimate / measured: min {min(ratios):.2f}, median {statistics.median(ratios):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--full", action="store_true", help="the long run (hours)")
    parser.add_argument("--only", default="core,csv,links,soak,heavy,estimate")
    args = parser.parse_args()
    parts = set(args.only.split(","))
    full = args.full
    if "core" in parts:
        bench_core(10_000 if full else 10_000)
    if "csv" in parts:
        bench_csv(10_000 if full else 10_000)
    if "links" in parts:
        bench_links(10_000 if full else 200)
    if "soak" in parts:
        bench_soak(1_000 if full else 60)
    if "estimate" in parts:
        bench_estimate()
    if "heavy" in parts:
        bench_heavy(10 if full else 6)


if __name__ == "__main__":
    main()
