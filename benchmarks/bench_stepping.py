"""What one step of the player costs the browser's main thread.

The player is scrolled to the top of the window first, as a student stepping it would have
it. Per key press, from a DevTools trace (``Tracing.start`` over a CDP session, categories
devtools.timeline):

* **work** = the key handler's time (the dispatch of the key event and the microtasks it
  queued: the live region's announcement), measured in the page, plus the main thread's
  busy time from the end of that task up to and including the end of the first frame that
  paints (a task with a Paint or Commit). Only top-level tasks are summed, so nested events
  are never counted twice; the harness's own callbacks in that frame (its
  requestAnimationFrame wait, a function with no script URL) are taken out. Under 16.7 ms,
  a step fits in one frame;
* **key -> painted** as bench_ui's KEY_AND_WAIT_JS measures it: the key event to the next
  animation frame after the step, then a setTimeout 0. It includes the idle wait for the
  browser's next frame (0-16.7 ms), so it can never show a step under one frame;
* the main thread's **CPU time** of that work (the trace's thread clock): what the work costs
  whatever else runs on the machine. DevTools' throttling pauses the main thread, which
  spends no CPU time then, so under 4x throttling the work's wall time is about four times
  its CPU time on a quiet machine;
* the **longest task** on the main thread while stepping (from the trace: the longest
  top-level task between the first and the last key press, its frame included);
* where the work went: script (the handler, and the page's own callbacks in the frame),
  style, layout, pre-paint, paint, layerize, commit (hit tests it runs counted apart), GC,
  other; and the raster threads' time for those frames (off the main thread: not in work).

Importable by bench_pages (``stepping(browser, base, name, link, throttle)`` returns its
old keys ``longest_task``, ``step_median``, ``step_p95`` and the new ones). Run from the
repository root::

    python benchmarks/bench_stepping.py [--pages train,kernels] [--steps 20]
        [--throttle 1,4] [--compare REF] [--rounds 2] [--breakdown]

``--compare REF`` serves REF from a temporary git worktree beside the working tree and
steps both, interleaved page by page and round by round (the worktree is removed after).
Not a test: it prints figures for docs/benchmarks-history.md.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from browser_helpers import launch_chromium, open_url, run_streamlit  # noqa: E402

#: the pages stepped: the view at full speed, and the large view stepped under 4x CPU
#: throttling as well (None: only the first). Both large views have n = 2 000 points
#: (/kernels takes up to 2 000).
STEPPED = {
    "train": ("train", "train?n=2000&margin=0.02&data_seed=3"),
    "kernels": ("kernels", "kernels?dataset=circles&n=2000"),
    "generalisation": ("generalisation", None),
    "relaxation": ("relaxation?system=infeasible", None),
}
STEPS = 20
TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline"]
#: a long task observer installed before any script of the page runs (a cross-check)
LONG_TASKS_JS = (
    "window.__longTasks = []; new PerformanceObserver((list) => { for (const e of "
    "list.getEntries()) window.__longTasks.push([e.startTime, e.duration]); })"
    ".observe({type: 'longtask', buffered: true});"
)
#: one key press: stamps in the trace around the key handler, its time measured in the
#: page (the await lets the microtasks it queued run first), then key -> painted as in
#: bench_ui.KEY_AND_WAIT_JS
STEP_JS = """async ([root, key, index]) => {
  const before = root.dataset.step;
  console.timeStamp('bench-step-start-' + index);
  const start = performance.now();
  document.dispatchEvent(new KeyboardEvent('keydown', {key, bubbles: true}));
  await null;
  const handled = performance.now();
  console.timeStamp('bench-step-handled-' + index);
  while (root.dataset.step === before) {
    await new Promise(r => requestAnimationFrame(r));
    if (performance.now() - start > 20000) return null;
  }
  await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));  // painted
  return {handler: handled - start, painted: performance.now() - start};
}"""
#: trace events of a frame's rendering, by the part of the work they are
PARTS = {
    "UpdateLayoutTree": "style",
    "Layout": "layout",
    "PrePaint": "prepaint",
    "Paint": "paint",
    "Layerize": "layerize",
    "Commit": "commit",
    "UpdateLayer": "commit",
    "FireAnimationFrame": "script",
    "FunctionCall": "script",
    "EvaluateScript": "script",
    "TimerFire": "script",
    "EventDispatch": "script",
    "ResizeObserver": "script",
    "MinorGC": "gc",
    "MajorGC": "gc",
    "HitTest": "hit test",
}
PART_ORDER = (
    "script",
    "style",
    "layout",
    "prepaint",
    "paint",
    "layerize",
    "commit",
    "hit test",
    "gc",
    "other",
)
PAINT_EVENTS = ("Paint", "Commit")
#: Lighthouse's page functions (npm install --prefix benchmarks/lighthouse), for its CPU
#: benchmark: how fast this machine is, throttled and not (the figures' conditions)
PAGE_FUNCTIONS = (
    ROOT
    / "benchmarks"
    / "lighthouse"
    / "node_modules"
    / "lighthouse"
    / "core"
    / "lib"
    / "page-functions.js"
)
#: DevTools' CPU calibration: a mid-tier phone (Pixel 5) scores 1000, a low-tier one
#: (Moto G4 Power 2022) 264 on that benchmark
PHONE_SCORES = {"mid-tier phone": 1000, "low-tier phone": 264}


def _median_p95(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values) or [float("nan")]
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def page_function(source: str, name: str) -> str:
    """The text of ``function name() {...}`` in a script (braces matched; the function holds
    no brace inside a string or a comment, as Lighthouse's computeBenchmarkIndex)."""
    start = source.find(f"function {name}(")
    if start < 0:
        raise ValueError(f"no function {name} in the script")
    depth = 0
    for end in range(source.index("{", start), len(source)):
        depth += {"{": 1, "}": -1}.get(source[end], 0)
        if depth == 0:
            return source[start : end + 1]
    raise ValueError(f"function {name} is not closed")


def benchmark_index(browser, throttle: float) -> float | None:
    """Lighthouse's BenchmarkIndex of this machine's Chromium under ``throttle`` (DevTools'
    CPU throttling), on a blank page; None without Lighthouse installed."""
    if not PAGE_FUNCTIONS.exists():
        return None
    function = page_function(PAGE_FUNCTIONS.read_text(), "computeBenchmarkIndex")
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_content("<p>benchmark</p>")
        cdp = context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
        return page.evaluate(f"() => {{ {function}; return computeBenchmarkIndex(); }}")
    finally:
        context.close()


def record_trace(page, cdp, action) -> list[dict]:
    """The trace events (devtools.timeline) recorded while ``action()`` runs (events arrive
    while Playwright's loop runs: the wait for them goes through ``page``)."""
    events: list[dict] = []
    done: list[bool] = []
    cdp.on("Tracing.dataCollected", lambda params: events.extend(params["value"]))
    cdp.on("Tracing.tracingComplete", lambda params: done.append(True))
    cdp.send(
        "Tracing.start",
        {"traceConfig": {"includedCategories": TRACE_CATEGORIES}, "transferMode": "ReportEvents"},
    )
    try:
        action()
    finally:
        cdp.send("Tracing.end")
        deadline = time.monotonic() + 60
        while not done and time.monotonic() < deadline:
            page.wait_for_timeout(50)
    return events


class MainThread:
    """The renderer main thread's complete events, as a tree of top-level tasks."""

    def __init__(self, events: list[dict]):
        threads = {
            (e["pid"], e["tid"]): e["args"]["name"]
            for e in events
            if e.get("ph") == "M" and e.get("name") == "thread_name"
        }
        stamps = [e for e in events if e.get("name") == "TimeStamp"]
        # the main thread of the page's renderer: the one that wrote the harness's stamps
        main = next(
            (
                (e["pid"], e["tid"])
                for e in stamps
                if str(e["args"]["data"].get("message", "")).startswith("bench-step")
            ),
            None,
        )
        if main is None:
            raise ValueError("no bench-step stamps in the trace: was the page stepped?")
        self.stamps = {
            e["args"]["data"]["message"]: e["ts"] for e in stamps if (e["pid"], e["tid"]) == main
        }
        # the main thread's CPU clock at each stamp (µs), when the trace has it
        self.thread_stamps = {
            e["args"]["data"]["message"]: e["tts"]
            for e in stamps
            if (e["pid"], e["tid"]) == main and "tts" in e
        }
        complete = sorted(
            (e for e in events if (e["pid"], e["tid"]) == main and e.get("ph") == "X"),
            key=lambda e: (e["ts"], -e.get("dur", 0)),
        )
        # nest: each event's children are the events inside it on the same thread
        self.tasks: list[dict] = []
        stack: list[dict] = []
        for event in complete:
            event = {**event, "children": [], "end": event["ts"] + event.get("dur", 0)}
            while stack and event["ts"] >= stack[-1]["end"]:
                stack.pop()
            (stack[-1]["children"] if stack else self.tasks).append(event)
            stack.append(event)
        self.raster = [
            e
            for e in events
            if e.get("name") == "RasterTask"
            and e.get("ph") == "X"
            and threads.get((e["pid"], e["tid"]), "") != threads.get(main)
        ]

    def task_at(self, ts: float) -> dict | None:
        """The top-level task running at trace time ``ts``."""
        return next((t for t in self.tasks if t["ts"] <= ts <= t["end"]), None)


def _contains(event: dict, names: tuple[str, ...]) -> bool:
    return event["name"] in names or any(_contains(c, names) for c in event["children"])


def _harness_calls(event: dict, clock: str = "dur") -> float:
    """Time (µs; ``clock`` "dur" wall, "tdur" the thread's CPU) in the harness's own
    functions (no script URL) inside ``event``."""
    if event["name"] == "FunctionCall" and not event.get("args", {}).get("data", {}).get("url"):
        return event.get(clock, event.get("dur", 0))
    return sum(_harness_calls(c, clock) for c in event["children"])


def _parts(task: dict, into: dict[str, float]) -> None:
    """Add a frame task's time (µs) by part: its direct children by name, nested hit tests
    and GC taken out of their parent, the harness's callbacks left out."""
    accounted = 0.0
    for child in task["children"]:
        duration = child.get("dur", 0) - _harness_calls(child)
        accounted += child.get("dur", 0)
        part = PARTS.get(child["name"], "other")
        for name, nested_part in (("HitTest", "hit test"), ("MinorGC", "gc"), ("MajorGC", "gc")):
            nested = (
                sum(g.get("dur", 0) for g in _find(child, name)) if child["name"] != name else 0
            )
            into[nested_part] = into.get(nested_part, 0) + nested
            duration -= nested
        into[part] = into.get(part, 0) + max(0.0, duration)
    into["other"] = into.get("other", 0) + max(0.0, task.get("dur", 0) - accounted)


def _find(event: dict, name: str) -> list[dict]:
    found = []
    for child in event["children"]:
        if child["name"] == name:
            found.append(child)
        else:
            found.extend(_find(child, name))
    return found


def step_costs(events: list[dict], handlers: list[float]) -> dict:
    """Per key press i (stamps bench-step-*-i): work = handlers[i] (ms) + the main thread's
    busy time from the end of the key's task to the end of the first frame that paints; the
    parts of that work; the raster threads' time for it; the longest top-level task."""
    thread = MainThread(events)
    works, cpu_works, parts_total, raster, frames = [], [], {}, [], 0
    first = last = None
    for index, handler in enumerate(handlers):
        handled = thread.stamps.get(f"bench-step-handled-{index}")
        if handled is None or handler is None:
            continue
        key_task = thread.task_at(handled)
        after = key_task["end"] if key_task else handled
        first = thread.stamps.get(f"bench-step-start-{index}") if first is None else first
        busy, cpu, parts = 0.0, 0.0, {"script": handler * 1000}
        frame_end = None
        for task in thread.tasks:
            if task["ts"] < after or task is key_task:
                continue
            busy += task.get("dur", 0) - _harness_calls(task)
            cpu += task.get("tdur", task.get("dur", 0)) - _harness_calls(task, "tdur")
            _parts(task, parts)
            if _contains(task, PAINT_EVENTS):
                frame_end = task["end"]
                break
        if frame_end is None:
            continue
        last = frame_end
        frames += 1
        works.append(handler + busy / 1000)
        start_cpu = thread.thread_stamps.get(f"bench-step-start-{index}")
        handled_cpu = thread.thread_stamps.get(f"bench-step-handled-{index}")
        if start_cpu is not None and handled_cpu is not None:
            cpu_works.append((handled_cpu - start_cpu + cpu) / 1000)
        for name, value in parts.items():
            parts_total[name] = parts_total.get(name, 0) + value
        raster.append(
            sum(e.get("dur", 0) for e in thread.raster if after <= e["ts"] <= frame_end + 50_000)
        )
    window = [
        t
        for t in thread.tasks
        if first is not None and last is not None and t["end"] >= first and t["ts"] <= last
    ]
    return {
        "work": works,
        "cpu_work": cpu_works,
        "parts": {k: v / 1000 / max(1, frames) for k, v in parts_total.items()},
        "raster": [r / 1000 for r in raster],
        "longest_task_trace": max((t.get("dur", 0) for t in window), default=0) / 1000,
    }


def stepping(
    browser,
    base: str,
    name: str,
    link: str | None,
    throttle: float = 1.0,
    steps: int = STEPS,
    viewport=(1440, 900),
) -> dict:
    """Open the page's player, press → (next mistake) ``steps`` times, ↓ (next example) every
    fifth, under ``throttle`` (DevTools' CPU throttling), tracing the main thread.

    Returns longest_task (ms, the page's long task observer), longest_task_trace (ms, the
    trace's longest top-level task), step_median / step_p95 (key -> painted, ms),
    work_median / work_p95 (the step's work, ms), handler_median (ms), parts (ms per step
    by part), raster_median (ms, off the main thread).
    """
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    page = context.new_page()
    page.add_init_script(LONG_TASKS_JS)
    open_url(page, f"{base}/{link or name}", timeout=180_000)
    root = page.get_by_test_id("perceptron-player")
    root.wait_for(timeout=60_000)
    root = root.element_handle()
    # the player in view, as for a student stepping it (the picture is rastered and painted
    # as it is seen, not culled below the fold)
    root.evaluate("(node) => node.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(1_500)
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    started = page.evaluate("() => performance.now()")
    results: list[dict | None] = []

    def press_keys() -> None:
        for index in range(steps):
            key = "ArrowDown" if index % 5 == 4 else "ArrowRight"
            results.append(page.evaluate(STEP_JS, [root, key, index]))

    events = record_trace(page, cdp, press_keys)
    longest = page.evaluate(
        "(t0) => Math.max(0, ...window.__longTasks.filter(([s]) => s >= t0).map(([, d]) => d))",
        started,
    )
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    context.close()
    handlers = [r["handler"] if r else None for r in results]
    costs = step_costs(events, handlers)
    painted = [r["painted"] for r in results if r]
    step_median, step_p95 = _median_p95(painted)
    work_median, work_p95 = _median_p95(costs["work"])
    return {
        "longest_task": longest,
        "longest_task_trace": costs["longest_task_trace"],
        "step_median": step_median,
        "step_p95": step_p95,
        "work_median": work_median,
        "work_p95": work_p95,
        "work": costs["work"],
        "cpu_work": costs["cpu_work"],
        "cpu_work_median": _median_p95(costs["cpu_work"])[0],
        "cpu_work_p95": _median_p95(costs["cpu_work"])[1],
        "painted": painted,
        "handler_median": statistics.median([h for h in handlers if h is not None] or [0]),
        "parts": costs["parts"],
        "raster_median": _median_p95(costs["raster"])[0],
    }


@contextlib.contextmanager
def served(ref: str | None):
    """A server of the working tree (ref None), or of ``ref`` from a temporary worktree."""
    if ref is None:
        with run_streamlit(startup_timeout=120) as base:
            yield base
        return
    folder = Path(tempfile.mkdtemp(prefix="bench-stepping-"))
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(folder / "tree"), ref],
        check=True,
        capture_output=True,
    )
    try:
        with run_streamlit(folder / "tree" / "app.py", startup_timeout=120) as base:
            yield base
    finally:
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(folder / "tree")],
            check=False,
            capture_output=True,
        )
        with contextlib.suppress(OSError):
            folder.rmdir()


def _line(label: str, result: dict, breakdown: bool) -> str:
    text = (
        f"{label}: work {result['work_median']:5.1f} / {result['work_p95']:5.1f} ms "
        f"(handler {result['handler_median']:4.1f}); key -> painted {result['step_median']:5.1f} / "
        f"{result['step_p95']:5.1f} ms; longest task {result['longest_task']:4.0f} ms "
        f"(trace {result['longest_task_trace']:4.0f}); main thread's CPU time of the work "
        f"{result['cpu_work_median']:4.1f} / {result['cpu_work_p95']:4.1f} ms"
    )
    if breakdown:
        parts = result["parts"]
        text += "\n    per step: " + ", ".join(
            f"{part} {parts[part]:.1f}" for part in PART_ORDER if parts.get(part, 0) >= 0.05
        )
        text += f"; raster (other threads) {result['raster_median']:.1f} ms"
    return text


def _print_speed(browser, throttles: list[float]) -> None:
    """This machine's speed now (before and after the runs: it drifts on a shared machine)."""
    indices = {t: benchmark_index(browser, t) for t in sorted({1.0, *throttles})}
    if None in indices.values():
        print("(Lighthouse is not installed: no BenchmarkIndex)")
        return
    phones = ", ".join(f"{name} {score}" for name, score in PHONE_SCORES.items())
    print(
        "Lighthouse BenchmarkIndex: "
        + ", ".join(f"CPU {t:g}x {v:.0f}" for t, v in indices.items())
        + f" (DevTools' calibration: {phones})",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", default=",".join(STEPPED))
    parser.add_argument("--steps", type=int, default=STEPS)
    parser.add_argument(
        "--throttle", default="1,4", help="CPU slowdowns; above 1 only the large views are stepped"
    )
    parser.add_argument("--compare", default=None, help="a git ref to step beside the working tree")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--breakdown", action="store_true", help="the work per step by part")
    parser.add_argument("--viewport", default="1440x900")
    parser.add_argument(
        "--big",
        action="store_true",
        help="step the large views at every throttle (also at full speed)",
    )
    args = parser.parse_args()
    viewport = tuple(int(v) for v in args.viewport.split("x"))
    throttles = [float(t) for t in args.throttle.split(",")]
    print(
        f"load average {os.getloadavg()[0]:.2f}; {args.steps} key presses per run; "
        "work and key -> painted as median / p95",
        flush=True,
    )
    from playwright.sync_api import sync_playwright

    refs = [None] + ([args.compare] if args.compare else [])
    collected: dict[tuple, list[dict]] = {}
    with contextlib.ExitStack() as stack, sync_playwright() as playwright:
        bases = {ref: stack.enter_context(served(ref)) for ref in refs}
        browser = launch_chromium(playwright)
        _print_speed(browser, throttles)
        for round_number in range(args.rounds):
            for name in args.pages.split(","):
                link, big_link = STEPPED[name]
                for throttle in throttles:
                    view = link if throttle == 1 and not (args.big and big_link) else big_link
                    if view is None:
                        continue
                    for ref in refs if round_number % 2 == 0 else refs[::-1]:
                        result = stepping(
                            browser, bases[ref], name, view, throttle, args.steps, viewport
                        )
                        collected.setdefault((name, view, throttle, ref), []).append(result)
                        print(
                            _line(
                                f"round {round_number + 1} /{view} CPU {throttle:g}x "
                                f"{ref or 'working tree'}",
                                result,
                                args.breakdown,
                            ),
                            flush=True,
                        )
        _print_speed(browser, throttles)
        browser.close()
    if args.rounds > 1:
        print(f"\nall rounds pooled (load average {os.getloadavg()[0]:.2f}):")
        for (_name, view, throttle, ref), runs in collected.items():
            pooled = {
                "work": sum((r["work"] for r in runs), []),
                "cpu_work": sum((r["cpu_work"] for r in runs), []),
                "painted": sum((r["painted"] for r in runs), []),
            }
            work = _median_p95(pooled["work"])
            painted = _median_p95(pooled["painted"])
            print(
                f"/{view} CPU {throttle:g}x {ref or 'working tree'}: work {work[0]:5.1f} / "
                f"{work[1]:5.1f} ms (CPU {_median_p95(pooled['cpu_work'])[0]:4.1f} / "
                f"{_median_p95(pooled['cpu_work'])[1]:4.1f}); key -> painted {painted[0]:5.1f} / {painted[1]:5.1f} ms; "
                f"longest task {max(r['longest_task'] for r in runs):4.0f} ms (trace "
                f"{max(r['longest_task_trace'] for r in runs):4.0f})"
            )


if __name__ == "__main__":
    begun = time.perf_counter()
    main()
    print(f"\n({time.perf_counter() - begun:.0f} s)")
