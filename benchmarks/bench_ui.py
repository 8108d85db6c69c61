"""Click-to-chart latency of /train against the floor of this stack.

Prints, in one run: the median and p95 time from clicking ``next_mistake`` to
the chart showing the new hyperplane on /train with n = 1000, the same measure
on a minimal one-button Streamlit app with one Plotly chart of the same size,
their ratio, and the time from opening /train to the first chart.

Run from the repository root: ``python benchmarks/bench_ui.py``. Not a test.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from browser_helpers import launch_chromium, run_streamlit, wait_for_app  # noqa: E402

CLICKS = 30
MINIMAL_APP = textwrap.dedent('''
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
''')

# Click in the page and time until Plotly's div holds a different hyperplane.
CLICK_AND_WAIT_JS = """async () => {
  const line = () => {
    const gd = document.querySelector('.js-plotly-plot');
    const t = gd && gd.data && gd.data.find(t => t.name === 'hyperplane w·x + b = 0');
    return t ? JSON.stringify([t.x, t.y]) : 'none';
  };
  const before = line();
  const button = document.querySelector('.st-key-next_mistake button');
  if (button.disabled) return -2;
  const start = performance.now();
  button.click();
  while (line() === before) {
    await new Promise(r => requestAnimationFrame(r));
    if (performance.now() - start > 20000) return -1;
  }
  return performance.now() - start;
}"""


def measure_clicks(page, reset) -> list[float]:
    times = []
    for _ in range(CLICKS):
        elapsed = page.evaluate(CLICK_AND_WAIT_JS)
        if elapsed < 0:  # at the end of the run (-2) or no change seen (-1): start over
            reset()
            continue
        times.append(elapsed)
        wait_for_app(page, settle_ms=100)
    return times


def summary(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def main() -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        minimal_path = Path(folder) / "minimal_app.py"
        minimal_path.write_text(MINIMAL_APP)
        browser = launch_chromium(playwright)
        page = browser.new_page(viewport={"width": 1600, "height": 1200})
        with run_streamlit("app.py") as base:
            page.goto(f"{base}/train")
            wait_for_app(page)  # warm the server's caches
            opened = []
            for _ in range(3):
                start = time.perf_counter()
                page.goto(f"{base}/train")
                page.wait_for_function(
                    "() => { const gd = document.querySelector('.js-plotly-plot');"
                    " return gd && gd.data && gd.data.length > 0; }", timeout=60_000)
                opened.append((time.perf_counter() - start) * 1000)
                wait_for_app(page)
            field = page.get_by_label("points n")
            field.fill("1000")
            field.press("Enter")
            wait_for_app(page, timeout=60_000)

            def reset_train():
                page.locator(".st-key-reset button").click()
                wait_for_app(page)

            train_times = measure_clicks(page, reset_train)
        with run_streamlit(str(minimal_path)) as base:
            page.goto(base)
            wait_for_app(page)
            minimal_times = measure_clicks(page, lambda: None)
        browser.close()
    train_median, train_p95 = summary(train_times)
    minimal_median, minimal_p95 = summary(minimal_times)
    print(f"click next_mistake -> new hyperplane drawn ({len(train_times)} clicks, n = 1000)")
    print(f"  /train            median {train_median:7.1f} ms   p95 {train_p95:7.1f} ms")
    print(f"  minimal app       median {minimal_median:7.1f} ms   p95 {minimal_p95:7.1f} ms")
    print(f"  ratio /train / minimal (median): {train_median / minimal_median:.2f}  "
          "(target <= 1.3; median target < 250 ms)")
    print(f"open /train -> first chart: median {statistics.median(opened):.0f} ms "
          f"(of {len(opened)} loads, caches warm)")


if __name__ == "__main__":
    main()
