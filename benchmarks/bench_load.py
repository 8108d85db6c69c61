"""A lecture hall on one link: how many students one server, and N replicas, hold.

Scenario "open this now": S simulated students (benchmarks/load_client.py, Streamlit's
own websocket protocol) open the same link within ``--open-window`` seconds (arrival
times uniform, seed 0); then each changes one setting (``--widget``, the margin) every
``--change-every`` seconds, ``--changes`` times, each change landing at the student's
own arrival offset plus a multiple of the interval. Student i's k-th change picks
value ``VALUES[(i + k) % len(VALUES)]``, so a few values are new to the server's cache
and most are not, as in a class told "try a smaller margin".

Before the students, one warm-up student opens the link (the instructor preparing it),
so the measured students find the caches warm. Every S runs on freshly started servers.

Reported per S: open → page fully sent (the last ``script_finished``; median, p95,
max), change → page sent (median, p95), failed and dropped sessions, server CPU (share
of one core while students open, and over the whole scenario), resident memory at the
end, and memory per session (RSS once all are open minus RSS before, over S).
Server figures come from /proc (every Streamlit replica plus HAProxy when proxied).

Then the largest S with p95 open → page ≤ ``--p95-target`` s and no failure or drop is
searched (doubling from ``--start``, then halving the gap; at most ``--max-runs`` runs),
for one server and for ``--replicas`` replicas behind HAProxy (scripts/serve.py).

Run from the repository root. Full scenario (minutes per S)::

    python benchmarks/bench_load.py
Short run::

    python benchmarks/bench_load.py --open-window 10 --change-every 10 --changes 1
Fixed sizes, no search: ``--students 20,40``; one mode only: ``--modes server``.
Other app checkouts: ``--app-dir DIR`` (a directory holding app.py). Not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "scripts"))
from load_client import Student, StudentError  # noqa: E402
from serve import Deployment, Replica, deployment, find_haproxy, free_port  # noqa: E402

VALUES = [0.05, 0.1, 0.15, 0.2, 0.25]
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


# ---------------------------------------------------------------------------
# server figures from /proc (psutil is not a dependency)
# ---------------------------------------------------------------------------
def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (fields 14 and 15 of /proc/PID/stat)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = text[text.rindex(")") + 2 :].split()  # after "pid (comm) "
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def rss_bytes(pid: int) -> int:
    """Resident set size (VmRSS of /proc/PID/status), 0 if the process is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


class ServerSampler:
    """CPU seconds and RSS of a set of processes, sampled on demand."""

    def __init__(self, pids: list[int]) -> None:
        self.pids = list(pids)

    def cpu(self) -> float:
        return sum(cpu_seconds(pid) for pid in self.pids)

    def rss(self) -> int:
        return sum(rss_bytes(pid) for pid in self.pids)


# ---------------------------------------------------------------------------
# the scenario
# ---------------------------------------------------------------------------
@dataclass
class Scenario:
    path: str = "/train"
    query: str = "n=60&margin=0.1"
    widget: str = "margin"
    open_window: float = 10.0
    change_every: float = 60.0
    changes: int = 3
    timeout: float = 60.0


@dataclass
class Result:
    students: int
    open_times: list[float] = field(default_factory=list)
    change_times: list[float] = field(default_factory=list)
    failed: int = 0
    dropped: int = 0
    errors: list[str] = field(default_factory=list)
    cpu_open: float = 0.0  # share of one core while the students open
    cpu_total: float = 0.0  # share of one core over the whole scenario
    rss_end: int = 0
    rss_per_session: float = 0.0
    client_cpu: float = 0.0  # this load generator's own share of one core
    seconds: float = 0.0

    def ok(self, p95_target: float) -> bool:
        return (
            not self.failed
            and not self.dropped
            and len(self.open_times) == self.students
            and percentile(self.open_times, 95) <= p95_target
        )


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (the value below which q % of the values lie)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


async def one_student(
    index: int,
    base_url: str,
    offset: float,
    scenario: Scenario,
    t0: float,
    result: Result,
    opened: list[int],
) -> None:
    await asyncio.sleep(max(0.0, t0 + offset - time.perf_counter()))
    student = Student(base_url, scenario.path, scenario.query, timeout=scenario.timeout)
    try:
        run = await student.open()
        result.open_times.append(run.seconds)
        opened[0] += 1
        for k in range(scenario.changes):
            due = t0 + offset + (k + 1) * scenario.change_every
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            run = await student.change(scenario.widget, VALUES[(index + k) % len(VALUES)])
            result.change_times.append(run.seconds)
    except StudentError as error:
        closed = "websocket closed" in str(error)
        if closed and student.last_run is not None:
            result.dropped += 1
        else:
            result.failed += 1
        if len(result.errors) < 5:
            result.errors.append(f"student {index}: {error}")
    except (OSError, ValueError) as error:
        result.failed += 1
        if len(result.errors) < 5:
            result.errors.append(f"student {index}: {type(error).__name__}: {error}")
    finally:
        await student.close()


async def run_scenario(
    base_url: str, students: int, scenario: Scenario, sampler: ServerSampler, warm_urls: list[str]
) -> Result:
    result = Result(students)
    for url in warm_urls:  # the instructor's own visit, on every replica: caches warm
        warm = Student(url, scenario.path, scenario.query, timeout=scenario.timeout)
        try:
            await warm.open()
        finally:
            await warm.close()
    await asyncio.sleep(1.0)
    rss_before = sampler.rss()
    rng = random.Random(0)
    offsets = sorted(rng.uniform(0, scenario.open_window) for _ in range(students))
    opened = [0]
    client_cpu0 = sum(os.times()[:2])
    t0 = time.perf_counter()
    cpu0 = sampler.cpu()
    tasks = [
        asyncio.create_task(one_student(i, base_url, offset, scenario, t0, result, opened))
        for i, offset in enumerate(offsets)
    ]
    # wait until every student has opened or given up (bounded by the timeouts)
    open_deadline = t0 + scenario.open_window + scenario.timeout + 5
    rss_open = 0
    while time.perf_counter() < open_deadline:
        if opened[0] + result.failed + result.dropped >= students:
            break
        rss_open = max(rss_open, sampler.rss())
        await asyncio.sleep(0.25)
    t_open = time.perf_counter()
    cpu_open = sampler.cpu()
    rss_open = max(rss_open, sampler.rss())
    end = (
        t0 + scenario.open_window + scenario.changes * scenario.change_every + scenario.timeout + 30
    )
    await asyncio.wait(tasks, timeout=max(1.0, end - time.perf_counter()))
    for task in tasks:
        task.cancel()
    result.seconds = time.perf_counter() - t0
    result.cpu_open = (cpu_open - cpu0) / max(1e-9, t_open - t0)
    result.cpu_total = (sampler.cpu() - cpu0) / max(1e-9, result.seconds)
    result.rss_end = sampler.rss()
    result.rss_per_session = (rss_open - rss_before) / max(1, opened[0])
    result.client_cpu = (sum(os.times()[:2]) - client_cpu0) / max(1e-9, result.seconds)
    return result


# ---------------------------------------------------------------------------
# servers
# ---------------------------------------------------------------------------
def measure_one_server(students: int, scenario: Scenario, app_dir: Path) -> Result:
    """A single Streamlit server (no proxy), started fresh for this S."""
    dep = Deployment(port=0, app_dir=app_dir)
    replica = Replica("r1", free_port())
    dep.replicas = [replica]
    try:
        dep.start_replica(replica)
        dep.wait_healthy(replica)
        sampler = ServerSampler([replica.process.pid])
        return asyncio.run(run_scenario(replica.url, students, scenario, sampler, [replica.url]))
    finally:
        dep.stop()


def measure_replicas(students: int, scenario: Scenario, app_dir: Path, replicas: int) -> Result:
    """``replicas`` Streamlit servers behind HAProxy, started fresh for this S."""
    with deployment(replicas, free_port(), app_dir=app_dir) as dep:
        sampler = ServerSampler(dep.pids())
        return asyncio.run(run_scenario(dep.url, students, scenario, sampler, dep.replica_urls))


# ---------------------------------------------------------------------------
# report
# ---------------------------------------------------------------------------
HEADER = (
    "| S | open → page: median / p95 / max (s) | change → page: median / p95 (s) "
    "| failed / dropped | server CPU opening / overall (cores) | RSS end (MB) "
    "| per session (MB) | load generator CPU (cores) |"
)


def row(result: Result) -> str:
    def f(x: float) -> str:
        return "–" if x != x else f"{x:.2f}"

    o, c = result.open_times, result.change_times
    return (
        f"| {result.students} | {f(statistics.median(o)) if o else '–'} / "
        f"{f(percentile(o, 95))} / {f(max(o)) if o else '–'} "
        f"| {f(statistics.median(c)) if c else '–'} / {f(percentile(c, 95))} "
        f"| {result.failed} / {result.dropped} "
        f"| {result.cpu_open:.2f} / {result.cpu_total:.2f} "
        f"| {result.rss_end / 2**20:.0f} | {result.rss_per_session / 2**20:.2f} "
        f"| {result.client_cpu:.2f} |"
    )


def progress(label: str, result: Result) -> None:
    print(f"  [{label}] {row(result)}", flush=True)
    for error in result.errors[:3]:
        print(f"    {error}", flush=True)


def search(
    measure, start: int, max_students: int, max_runs: int, p95_target: float, label: str
) -> tuple[int | None, list[Result]]:
    """Largest passing S: double from ``start`` until a failure, then halve the gap."""
    results: list[Result] = []
    passed, failed = None, None
    students = start
    for _ in range(max_runs):
        result = measure(students)
        results.append(result)
        progress(label, result)
        if result.ok(p95_target):
            passed = students
        else:
            failed = students
        if failed is None:
            if students >= max_students:
                break
            students = min(max_students, students * 2)
        elif passed is None:
            if students <= 1:
                break
            students = max(1, students // 2)
        else:
            step = failed - passed
            if step <= max(2, passed // 8):  # within about 12 %: close enough
                break
            students = passed + step // 2
    return passed, results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", help="comma-separated S values (no search)")
    parser.add_argument("--start", type=int, default=10, help="first S of the search")
    parser.add_argument("--max-students", type=int, default=400)
    parser.add_argument("--max-runs", type=int, default=6, help="runs per search")
    parser.add_argument("--p95-target", type=float, default=3.0, help="seconds")
    parser.add_argument(
        "--modes",
        default="server,proxy",
        help="server (one Streamlit server), proxy (replicas + HAProxy)",
    )
    parser.add_argument("--replicas", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--path", default=Scenario.path)
    parser.add_argument("--query", default=Scenario.query)
    parser.add_argument("--widget", default=Scenario.widget)
    parser.add_argument("--open-window", type=float, default=Scenario.open_window)
    parser.add_argument("--change-every", type=float, default=Scenario.change_every)
    parser.add_argument("--changes", type=int, default=Scenario.changes)
    parser.add_argument(
        "--timeout",
        type=float,
        default=Scenario.timeout,
        help="seconds a student waits for one page before failing",
    )
    parser.add_argument("--app-dir", type=Path, default=ROOT)
    args = parser.parse_args()
    scenario = Scenario(
        args.path,
        args.query,
        args.widget,
        args.open_window,
        args.change_every,
        args.changes,
        args.timeout,
    )
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if "proxy" in modes and find_haproxy() is None:
        print("haproxy not found (apt-get install -y haproxy): proxy mode skipped")
        modes.remove("proxy")
    print(
        f"Scenario: {scenario.path}?{scenario.query}; S students open within "
        f"{scenario.open_window:g} s, then change '{scenario.widget}' every "
        f"{scenario.change_every:g} s, {scenario.changes} time(s). {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.2f} at start."
    )
    summaries = []
    for mode in modes:
        if mode == "server":
            label = "one server"
            measure = lambda s: measure_one_server(s, scenario, args.app_dir)  # noqa: E731
        else:
            label = f"{args.replicas} replicas + HAProxy"
            measure = lambda s: measure_replicas(
                s,
                scenario,
                args.app_dir,  # noqa: E731
                args.replicas,
            )
        print(f"\n{label}: measuring ...", flush=True)
        if args.students:
            results = []
            for students in args.students.split(","):
                results.append(measure(int(students)))
                progress(label, results[-1])
            passing = [r.students for r in results if r.ok(args.p95_target)]
            largest = max(passing) if passing else None
        else:
            largest, results = search(
                measure, args.start, args.max_students, args.max_runs, args.p95_target, label
            )
        print(f"\n## {label}\n\n{HEADER}\n|---|---|---|---|---|---|---|---|")
        for result in sorted(results, key=lambda r: r.students):
            print(row(result))
        tested = sorted(r.students for r in results)
        summary = (
            f"{label}: largest S with p95 open → page ≤ {args.p95_target:g} s and no "
            f"failures: {largest if largest is not None else f'none (< {min(tested)})'}"
            f" (S tried: {', '.join(map(str, tested))})"
        )
        print("\n" + summary, flush=True)
        summaries.append(summary)
    print("\n" + "\n".join(summaries) + f"\nload average at end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
