"""What a person waits for on /train, against the floor of this stack, in one run.

Prints:
  * key press -> step drawn on /train's player at n = 1000 and n = 2000 (median, p95);
  * the floor: a minimal one-button Streamlit app with one Plotly chart of 1000 points,
    click -> chart redrawn (median, p95), and the ratio player / floor (target <= 0.25);
  * websocket messages sent per step while stepping (target 0);
  * open /train -> player ready (median of 3, caches warm);
  * a settings change (the margin slider) -> new picture on /train, against the floor
    (target <= 1.3);
  * a settings change on another page's Plotly chart (/aggressive, Exercise 1.20's slider), and,
    with ``--before PATH`` (a checkout of an older commit), the same on that checkout.

Run from the repository root: ``python benchmarks/bench_ui.py [--before PATH]``. Not a test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from browser_helpers import launch_chromium, open_url, run_streamlit, wait_for_app  # noqa: E402

STEPS = 40
CLICKS = 30
MINIMAL_APP = textwrap.dedent("""
    import numpy as np
    import plotly.graph_objects as go
    import streamlit as st

    if "clicks" not in st.session_state:
        st.session_state.clicks = 0
    st.button("Next mistake", key="next_mistake",
              on_click=lambda: st.session_state.update(clicks=st.session_state.clicks + 1))
    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 1, size=(1000, 2))
    angle = 0.1 * st.session_state.clicks
    fig = go.Figure([go.Scatter(x=X[:, 0], y=X[:, 1], mode="markers"),
                     go.Scatter(x=[-np.cos(angle), np.cos(angle)],
                                y=[-np.sin(angle), np.sin(angle)], mode="lines",
                                name="hyperplane w·x + b = 0")])
    fig.update_layout(height=640)
    st.plotly_chart(fig, key="chart")
""")

# Click in the minimal app and time until Plotly's div holds a different hyperplane.
CLICK_AND_WAIT_JS = """async () => {
  const line = () => {
    const gd = document.querySelector('.js-plotly-plot');
    const t = gd && gd.data && gd.data.find(t => t.name === 'hyperplane w·x + b = 0');
    return t ? JSON.stringify([t.x, t.y]) : 'none';
  };
  const before = line();
  const button = document.querySelector('.st-key-next_mistake button');
  const start = performance.now();
  button.click();
  while (line() === before) {
    await new Promise(r => requestAnimationFrame(r));
    if (performance.now() - start > 20000) return -1;
  }
  await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));  // painted
  return performance.now() - start;
}"""

# Press a key for the player and time until its root reports the new step, painted.
KEY_AND_WAIT_JS = """async ([root, key]) => {
  const before = root.dataset.step;
  const start = performance.now();
  document.dispatchEvent(new KeyboardEvent('keydown', {key, bubbles: true}));
  while (root.dataset.step === before) {
    await new Promise(r => requestAnimationFrame(r));
    if (performance.now() - start > 20000) return -1;
  }
  await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));  // painted
  return performance.now() - start;
}"""

# Time from a widget change to a Plotly chart (by its key) holding new data, painted.
MARK_CHART_JS = """(key) => { const gd = document.querySelector('.st-key-' + key + ' .js-plotly-plot');
  gd.__before = gd.data; window.__chartStart = performance.now(); }"""
WAIT_CHART_JS = """async (key) => {
  const gd = () => document.querySelector('.st-key-' + key + ' .js-plotly-plot');
  while (!gd() || gd().data === gd().__before) {
    await new Promise(r => requestAnimationFrame(r));
    if (performance.now() - window.__chartStart > 30000) return -1;
  }
  await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
  return performance.now() - window.__chartStart;
}"""


def summary(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def player_root(page):
    root = page.get_by_test_id("perceptron-player")
    root.wait_for(timeout=60_000)
    return root.element_handle()


def measure_player_steps(page, base, n) -> tuple[list[float], float]:
    """Key press -> step drawn, and websocket frames sent per step."""
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: frames.append(payload)))
    open_url(page, f"{base}/train?n={n}&margin=0.02&data_seed=3", timeout=120_000)
    root = player_root(page)
    page.wait_for_timeout(500)
    frames.clear()
    times = []
    for index in range(STEPS):
        key = ["ArrowRight", "ArrowRight", "ArrowDown", "ArrowLeft"][index % 4]
        elapsed = page.evaluate(KEY_AND_WAIT_JS, [root, key])
        if elapsed < 0:
            page.evaluate(KEY_AND_WAIT_JS, [root, "Home"])
            continue
        times.append(elapsed)
    page.wait_for_timeout(1_000)  # the address bar is written after a pause: still no message
    return times, len(frames) / STEPS


def measure_open(page, base) -> list[float]:
    opened = []
    for _ in range(3):
        start = time.perf_counter()
        page.goto(f"{base}/train")
        page.get_by_test_id("perceptron-player").wait_for(timeout=60_000)
        page.wait_for_function("() => true")
        opened.append((time.perf_counter() - start) * 1000)
        wait_for_app(page)
    return opened


def slider_change_times(page, slider, before_press, after_press, changes: int = 8) -> list[float]:
    """Press → and ← in turn on ``slider`` (a locator), ``changes`` times: ``before_press()``
    marks the picture shown, ``after_press(mark, started)`` waits for the new one and returns
    the milliseconds it took (<= 0: not measured). Waits for the script run after each."""
    times = []
    for index in range(changes):
        mark = before_press()
        slider.focus(timeout=60_000)
        started = time.perf_counter()
        page.keyboard.press("ArrowRight" if index % 2 == 0 else "ArrowLeft")
        elapsed = after_press(mark, started)
        if elapsed > 0:
            times.append(elapsed)
        wait_for_app(page)
    return times


def measure_margin_change(page, base) -> list[float]:
    """Margin slider -> the player holds the new run, drawn."""
    open_url(page, f"{base}/train?n=1000", timeout=120_000)

    def new_run_drawn(run, started):
        page.wait_for_function(
            "(run) => { const host = [...document.querySelectorAll('[data-testid=stBidiComponentIsolated]')]"
            ".map(h => h.shadowRoot && h.shadowRoot.querySelector('[data-testid=perceptron-player]'))"
            ".find(Boolean); return host && host.dataset.run !== run; }",
            arg=run,
            timeout=60_000,
        )
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)))")
        return (time.perf_counter() - started) * 1000

    return slider_change_times(
        page,
        page.get_by_role("slider", name="margin γ"),
        lambda: page.evaluate("(el) => el.dataset.run", player_root(page)),
        new_run_drawn,
    )


def measure_plotly_setting(page, base) -> list[float]:
    """/aggressive: Exercise 1.20's slider -> its chart of the always-wrong sequence redrawn."""
    open_url(page, f"{base}/aggressive", timeout=120_000)
    page.locator(".st-key-aggressive_always_wrong .js-plotly-plot").wait_for(timeout=60_000)
    return slider_change_times(
        page,
        page.locator(".st-key-always_wrong_T input[type=range]"),
        lambda: page.evaluate(MARK_CHART_JS, "aggressive_always_wrong"),
        lambda _, started: page.evaluate(WAIT_CHART_JS, "aggressive_always_wrong"),
    )


def measure_floor(page, base) -> list[float]:
    open_url(page, base)
    times = []
    for _ in range(CLICKS):
        elapsed = page.evaluate(CLICK_AND_WAIT_JS)
        if elapsed > 0:
            times.append(elapsed)
        wait_for_app(page, settle_ms=100)
    return times


def optional(measure, page, base):
    """A measure that may not apply to every checkout: its times, or the reason it failed."""
    try:
        return measure(page, base)
    except Exception as error:  # noqa: BLE001 - reported, not fatal
        return f"not measured: {type(error).__name__}: {str(error).splitlines()[0][:120]}"


def line(name: str, times) -> str:
    if isinstance(times, str) or not times:
        return f"  {name:<44} {times or 'no runs'}"
    median, p95 = summary(times)
    return f"  {name:<44} median {median:8.1f} ms   p95 {p95:8.1f} ms   ({len(times)} runs)"


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", help="a checkout of an older commit, for the Plotly setting")
    args = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        minimal_path = Path(folder) / "minimal_app.py"
        minimal_path.write_text(MINIMAL_APP)
        browser = launch_chromium(playwright)
        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        with run_streamlit("app.py") as base:
            open_url(page, f"{base}/train", timeout=120_000)  # warm the server's caches
            results["open"] = measure_open(page, base)
            for n in (1000, 2000):
                times, per_step = measure_player_steps(page, base, n)
                results[f"step{n}"], results[f"ws{n}"] = times, per_step
            results["margin"] = measure_margin_change(page, base)
            results["plotly"] = optional(measure_plotly_setting, page, base)
        if args.before:
            with run_streamlit(str(Path(args.before) / "app.py")) as base:
                results["plotly_before"] = optional(measure_plotly_setting, page, base)
        with run_streamlit(str(minimal_path)) as base:
            results["floor"] = measure_floor(page, base)
        browser.close()
    floor = summary(results["floor"])[0]
    print("key press -> step drawn on /train's player (browser only)")
    print(line("/train, n = 1000", results["step1000"]))
    print(line("/train, n = 2000", results["step2000"]))
    print(line("floor: one-button app click -> chart", results["floor"]))
    for n in (1000, 2000):
        print(
            f"  ratio player n = {n} / floor (median): "
            f"{summary(results[f'step{n}'])[0] / floor:.3f}  (target <= 0.25, stretch 0.1)"
        )
        print(f"  websocket messages sent per step, n = {n}: {results[f'ws{n}']:.2f}  (target 0)")
    print(line("open /train -> player ready", results["open"]))
    print(line("margin slider -> new picture (n = 1000)", results["margin"]))
    print(
        f"  ratio settings change / floor (median): "
        f"{summary(results['margin'])[0] / floor:.2f}  (target <= 1.3)"
    )
    print(line("/aggressive Exercise 1.20 slider -> chart", results["plotly"]))
    if "plotly_before" in results:
        print(line("  the same, --before checkout", results["plotly_before"]))


if __name__ == "__main__":
    main()
