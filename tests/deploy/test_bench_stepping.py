"""benchmarks/bench_stepping.py reads a DevTools trace the way its docstring says: a step's
work is the key handler plus the main thread's top-level tasks up to the first frame that
paints, nested events counted once, the harness's own callbacks and other threads left out.

The traces here are built by hand (random layouts over many seeds), so the expected sums are
computed independently of the parser's tree."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import bench_stepping as bs  # noqa: E402

PID, MAIN, RASTER = 1, 10, 20


def meta(tid, name):
    return {"ph": "M", "name": "thread_name", "pid": PID, "tid": tid, "args": {"name": name}}


def event(name, ts, dur, tid=MAIN, url=None, tdur=None):
    data = {"url": url} if url is not None else {}
    return {
        "ph": "X",
        "name": name,
        "pid": PID,
        "tid": tid,
        "ts": ts,
        "dur": dur,
        "tdur": dur if tdur is None else tdur,
        "args": {"data": data},
    }


def stamp(message, ts, tts):
    return {
        "ph": "I",
        "name": "TimeStamp",
        "pid": PID,
        "tid": MAIN,
        "ts": ts,
        "tts": tts,
        "args": {"data": {"message": message}},
    }


def synthetic_trace(rng: random.Random, steps: int):
    """Events of ``steps`` key presses and, per press, the expected work (ms) and longest task."""
    events = [meta(MAIN, "CrRendererMain"), meta(RASTER, "CompositorTileWorker1")]
    expected, longest, handlers = [], 0.0, []
    t = 1_000.0
    for index in range(steps):
        key_task = rng.uniform(200, 3_000)
        events.append(event("RunTask", t, key_task))
        events.append(event("EventDispatch", t + 10, key_task - 20))
        events.append(stamp(f"bench-step-start-{index}", t + 5, t + 5))
        events.append(stamp(f"bench-step-handled-{index}", t + key_task - 5, t + key_task - 5))
        handler = rng.uniform(0.1, 3.0)
        handlers.append(handler)
        longest = max(longest, key_task)
        t += key_task + rng.uniform(10, 500)
        busy = 0.0
        # tasks that do not paint (a timer of the page), then the frame that paints
        for _ in range(rng.randint(0, 3)):
            length = rng.uniform(50, 2_000)
            events.append(event("RunTask", t, length))
            events.append(event("TimerFire", t + 1, length - 2, url="page.js"))
            busy += length
            longest = max(longest, length)
            t += length + rng.uniform(10, 300)
        frame = rng.uniform(500, 20_000)
        harness = rng.uniform(5, 100)
        events.append(event("RunTask", t, frame))
        events.append(event("FireAnimationFrame", t + 1, harness + 2))
        events.append(event("FunctionCall", t + 2, harness, url=""))  # the harness's callback
        layout = rng.uniform(10, frame / 3)
        events.append(event("Layout", t + harness + 10, layout))
        # nested Layout inside Layout must not count twice
        events.append(event("Layout", t + harness + 11, layout / 2))
        events.append(event("Paint", t + harness + layout + 20, rng.uniform(1, frame / 4)))
        events.append(event("RasterTask", t + frame / 2, rng.uniform(100, 5_000), tid=RASTER))
        busy += frame - harness
        longest = max(longest, frame)
        expected.append(handler + busy / 1000)
        t += frame + rng.uniform(10, 16_000)
        # after the frame: the harness's setTimeout and the page idle (not in the step's work)
        events.append(event("RunTask", t, 300))
        events.append(event("TimerFire", t + 1, 298, url=""))
        t += 5_000
    rng.shuffle(events)  # the trace's order is not the time order
    return events, handlers, expected, longest / 1000


@pytest.mark.parametrize("seed", range(25))
def test_work_is_handler_plus_top_level_tasks_to_the_painting_frame(seed):
    rng = random.Random(seed)
    events, handlers, expected, longest = synthetic_trace(rng, rng.randint(1, 8))
    costs = bs.step_costs(events, handlers)
    assert costs["work"] == pytest.approx(expected, rel=1e-9, abs=1e-9)
    assert costs["longest_task_trace"] == pytest.approx(longest)
    # the thread clock equals the wall clock in these traces: the same work in CPU time
    # (minus the harness's 10 µs between its stamps and the handler's own measure)
    assert len(costs["cpu_work"]) == len(expected)
    assert all(cpu > 0 for cpu in costs["cpu_work"])
    # parts never exceed the work they split
    assert sum(costs["parts"].values()) <= sum(expected) / len(expected) + 1e-6


def test_a_trace_without_the_harness_stamps_is_refused():
    with pytest.raises(ValueError, match="stamps"):
        bs.MainThread([meta(MAIN, "CrRendererMain"), event("RunTask", 0, 10)])


def test_page_function_is_cut_at_its_own_closing_brace():
    """The benchmark's function is taken whole from Lighthouse's script: nested blocks
    included, the next function left out; a missing function is a ValueError."""
    source = (
        "function before() { return 1; }\n"
        "function computeBenchmarkIndex() {\n  function inner() { if (x) { y(); } }\n"
        "  return {a: inner()};\n}\nfunction after() { return 2; }\n"
    )
    text = bs.page_function(source, "computeBenchmarkIndex")
    assert text.startswith("function computeBenchmarkIndex() {") and text.endswith(
        "return {a: inner()};\n}"
    )
    assert "after" not in text and "before" not in text
    with pytest.raises(ValueError):
        bs.page_function(source, "missing")
    with pytest.raises(ValueError):
        bs.page_function("function open() { {", "open")


@pytest.mark.skipif(not bs.PAGE_FUNCTIONS.exists(), reason="Lighthouse is not installed")
def test_lighthouse_benchmark_function_is_found():
    """The installed Lighthouse still has the benchmark behind docs/benchmarks-history.md."""
    text = bs.page_function(bs.PAGE_FUNCTIONS.read_text(), "computeBenchmarkIndex")
    assert "benchmarkIndexGC" in text and text.rstrip().endswith("}")
