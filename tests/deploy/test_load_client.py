"""The simulated student (benchmarks/load_client.py) against the real app and a browser.

The comparison with Chromium is made on the protocol itself: the test records the
websocket frames Chromium receives (Playwright's ``framereceived``) and rebuilds the
page from them with the same :class:`PageRecorder` that rebuilds a simulated
student's page. Both pages are the sorted list of (position in the page, element kind,
widget key) of the last full script run, which does not depend on timing or rendering,
yet changes if the student sent a different query string, page or widget value (other
data, other steps, other messages and charts). Independently of the protocol, every
widget key the student received must be an element of Chromium's DOM
(``.st-key-<key>``), so the student's page is what the browser shows.
"""

from __future__ import annotations

import asyncio
import json
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "benchmarks"))

import bench_load  # noqa: E402
from browser_helpers import resolve_app_path, wait_for_app  # noqa: E402
from load_client import PageRecorder, Student, StudentError, widget_key, widget_state  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402

LINK_PATH, LINK_QUERY = "/train", "n=60&margin=0.2&data_seed=3"


def in_thread(function, *args):
    """Run ``function`` in a worker thread (Playwright's sync API holds this thread's loop)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(function, *args).result(timeout=600)


def last_full_run(frames: list[bytes]):
    """The last complete script run among websocket frames (None if there is none)."""
    recorder, last = PageRecorder(), None
    for frame in frames:
        if isinstance(frame, bytes):
            run = recorder.feed(frame)
            if run is not None and run.finished:
                last = run
    return last


def texts(run) -> list[str]:
    """Every markdown text of a page, in page order."""
    return [
        entry.message.delta.new_element.markdown.body
        for _, entry in sorted(run.entries.items())
        if entry.kind == "markdown"
    ]


def player_data(run) -> list[str]:
    """The data every player on the page received (its JSON), in page order (the page's
    other components, such as the reconnect watcher, which takes no data, left out)."""
    found = [
        entry.message.delta.new_element.bidi_component.json
        for _, entry in sorted(run.entries.items())
        if entry.kind == "bidi_component"
    ]
    found = [json.loads(data) for data in found if data]  # a player's payload: a JSON string
    return [data for data in found if isinstance(data, str) and '"player"' in data]


def student_run(base_url: str, change: tuple[str, float] | None = None):
    async def go():
        student = Student(base_url, LINK_PATH, LINK_QUERY, timeout=60)
        try:
            run = await student.open()
            if change is not None:
                run = await student.change(*change)
            return run
        finally:
            await student.close()

    return in_thread(asyncio.run, go())


# ---------------------------------------------------------------------------
# the recorder on hand-made messages (no server)
# ---------------------------------------------------------------------------
def _delta(path, kind="markdown", *, body="x", cacheable=False, msg_hash=""):
    msg = ForwardMsg()
    getattr(msg.delta.new_element, kind).body = body
    msg.metadata.delta_path.extend(path)
    msg.metadata.cacheable = cacheable
    msg.hash = msg_hash
    return msg


def test_recorder_resolves_cached_references_to_their_new_position():
    first = [
        ForwardMsg(new_session={}),
        _delta([0, 0], body="big chart", cacheable=True, msg_hash="h1"),
        ForwardMsg(script_finished=ForwardMsg.FINISHED_SUCCESSFULLY),
    ]
    reference = ForwardMsg(ref_hash="h1")
    reference.metadata.delta_path.extend([0, 3])
    second = [
        ForwardMsg(new_session={}),
        reference,
        ForwardMsg(script_finished=ForwardMsg.FINISHED_SUCCESSFULLY),
    ]
    recorder = PageRecorder()
    runs = [recorder.feed(m.SerializeToString()) for m in first + second]
    page = runs[-1]
    assert [r is not None for r in runs] == [False, False, True, False, False, True]
    assert list(page.entries) == [(0, 3)]
    assert page.entries[(0, 3)].message.delta.new_element.markdown.body == "big chart"
    assert recorder.unresolved_refs == 0
    unknown = ForwardMsg(ref_hash="never-sent")
    recorder.feed(unknown.SerializeToString())
    assert recorder.unresolved_refs == 1


def test_a_run_interrupted_for_a_rerun_is_not_a_page():
    recorder = PageRecorder()
    early = ForwardMsg(script_finished=ForwardMsg.FINISHED_EARLY_FOR_RERUN)
    assert recorder.feed(early.SerializeToString()) is None


def test_widget_keys_come_from_keyed_ids_only():
    assert widget_key("$$ID-0123456789abcdef0123456789abcdef-margin") == "margin"
    assert widget_key("$$ID-0123456789abcdef0123456789abcdef-a-b") == "a-b"
    assert widget_key("$$ID-0123456789abcdef0123456789abcdef") is None
    assert widget_key("something-else") is None


def test_students_refuse_addresses_off_this_machine():
    with pytest.raises(ValueError, match="loopback"):
        Student("http://192.0.2.1:8501", "/train")
    Student("http://127.0.0.1:8501", "/train")  # loopback is fine


# ---------------------------------------------------------------------------
# against the app: the same page as Chromium's
# ---------------------------------------------------------------------------
def test_a_simulated_student_receives_the_page_chromium_receives(browser, streamlit_server):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        frames: list[bytes] = []
        page.on("websocket", lambda ws: ws.on("framereceived", lambda p: frames.append(p)))
        page.goto(f"{streamlit_server}{LINK_PATH}?{LINK_QUERY}")
        wait_for_app(page, timeout=60_000)
        in_browser = last_full_run(frames)
        assert in_browser is not None, "Chromium received no complete script run"
        student = student_run(streamlit_server)
        assert student.layout() == in_browser.layout()
        assert len(student.widgets()) >= 5, "the page should hold the settings' widgets"
        assert "margin" in student.widgets()
        missing = [key for key in student.widgets() if page.locator(f".st-key-{key}").count() == 0]
        # a popover's or closed dialog's content is mounted only when opened
        assert len(missing) <= 2, f"keys the student got but Chromium does not show: {missing}"

        # the same widget change: Chromium's slider one step right, the student's message
        slider = page.locator(".st-key-margin input[type='range']")
        start_value = float(slider.input_value())
        # frames are kept: an element the browser already holds comes again as a reference
        # to its hash (Streamlit's message cache), resolved against the first load's frames
        before = len(frames)
        slider.focus()
        slider.press("ArrowRight")
        wait_for_app(page, timeout=60_000)
        new_value = float(slider.input_value())
        assert new_value > start_value
        changed_in_browser = last_full_run(frames)
        assert changed_in_browser is not None and len(frames) > before
        changed = student_run(streamlit_server, change=("margin", new_value))
        assert changed.layout() == changed_in_browser.layout()
        # the player's data carry the run (R, γ, w, ...): same change, same page
        assert texts(changed) == texts(changed_in_browser)
        assert player_data(changed) == player_data(changed_in_browser) != player_data(in_browser)
        assert player_data(changed) and player_data(changed)[0]
    finally:
        context.close()


def test_a_keyed_expander_that_reruns_is_a_widget_a_plain_block_is_not():
    expander = ForwardMsg()
    expander.delta.add_block.expandable.id = "$$ID-0123456789abcdef-show_part_sweep"
    expander.delta.add_block.expandable.label = "Show the sweep"
    expander.metadata.delta_path.extend([0, 4])
    plain = ForwardMsg()
    plain.delta.add_block.expandable.label = "a closed expander the server never hears of"
    plain.metadata.delta_path.extend([0, 5])
    recorder = PageRecorder()
    for msg in (
        ForwardMsg(new_session={}),
        expander,
        plain,
        ForwardMsg(script_finished=ForwardMsg.FINISHED_SUCCESSFULLY),
    ):
        run = recorder.feed(msg.SerializeToString())
    assert set(run.widgets()) == {"show_part_sweep"}
    entry = run.widgets()["show_part_sweep"]
    assert entry.kind == "block:expandable"
    opened = widget_state(entry, True)
    assert opened.id == expander.delta.add_block.expandable.id
    assert opened.WhichOneof("value") == "bool_value" and opened.bool_value
    assert not widget_state(entry, False).bool_value


def test_a_student_opens_a_deferred_part_and_gets_its_computation(streamlit_server):
    """/relaxation's sweep sits in a closed part (pages/common/deferred.py): the link alone
    sends no sweep chart; opening the part, as a click does, runs the sweep and sends it,
    with the rest of the page as before."""

    async def go():
        student = Student(
            streamlit_server, "/relaxation", "system=thin+sliver&max_iter=300&seed=4", timeout=120
        )
        try:
            first = await student.open()
            opened = await student.open_part("show_part_sweep")
            with pytest.raises(StudentError, match="no expander"):
                await student.open_part("margin_no_such_part")
            with pytest.raises(StudentError, match="no expander"):
                await student.open_part("eta")  # a widget, but not an expander
            return first, opened
        finally:
            await student.close()

    first, opened = in_thread(asyncio.run, go())
    assert "show_part_sweep" in first.widgets() and "sweep_chart" not in first.widgets()
    assert "sweep_chart" in opened.widgets()
    assert set(first.widgets()) <= set(opened.widgets())


def test_a_change_to_a_missing_widget_is_refused(streamlit_server):
    async def go():
        student = Student(streamlit_server, LINK_PATH, LINK_QUERY, timeout=60)
        try:
            await student.open()
            with pytest.raises(StudentError, match="no widget"):
                await student.change("no_such_widget", 1)
        finally:
            await student.close()

    in_thread(asyncio.run, go())


# ---------------------------------------------------------------------------
# the load generator on one server with a small S
# ---------------------------------------------------------------------------
def test_load_generator_with_three_students_on_one_server():
    scenario = bench_load.Scenario(
        LINK_PATH, LINK_QUERY, "margin", open_window=2.0, change_every=2.0, changes=2, timeout=60.0
    )
    result = in_thread(bench_load.measure_one_server, 3, scenario, resolve_app_path().parent)
    assert result.errors == []
    assert (result.failed, result.dropped) == (0, 0)
    assert len(result.open_times) == 3 and len(result.change_times) == 6
    assert all(0 < t < 60 for t in result.open_times + result.change_times)
    assert result.cpu_total > 0 and result.rss_end > 0
    assert result.seconds >= scenario.open_window + scenario.changes * scenario.change_every - 2
    assert "| 3 |" in bench_load.row(result)


def test_search_finds_the_largest_passing_size_in_few_runs():
    def measure(students):  # a server that holds at most 37 students
        return bench_load.Result(students, open_times=[1.0 if students <= 37 else 9.0] * students)

    largest, results = bench_load.search(
        measure, start=10, max_students=400, max_runs=8, p95_target=3.0, label="fake"
    )
    assert 33 <= largest <= 37
    assert len(results) <= 8
    none, results = bench_load.search(
        lambda s: bench_load.Result(s, failed=1),
        start=10,
        max_students=400,
        max_runs=3,
        p95_target=3.0,
        label="fake",
    )
    assert none is None and [r.students for r in results] == [10, 5, 2]


def test_percentile_is_nearest_rank():
    values = list(range(1, 101))
    assert bench_load.percentile(values, 95) == 95
    assert bench_load.percentile([2.0], 95) == 2.0
    assert bench_load.percentile([1, 2, 3, 4], 50) == 2
