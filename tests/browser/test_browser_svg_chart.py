"""The SVG charts (pages/chart/) in Chromium: what the figure holds is what is drawn, a
point's hover text shows on hover and on keyboard focus, nothing pans sideways on a phone,
the chart is laid out again when the window changes width, and /bound never asks for
Plotly's chart bundle (issue 21).

The expected counts come from the figure the page sends (read through AppTest with the
same settings: the data are seeded), not from the renderer.
"""

from __future__ import annotations

import math
import re

import pytest
from app_helpers import open_page, plotly_array, plotly_spec
from browser_helpers import new_page, open_url

SHADOW_CHARTS_JS = """() => {
  const out = [];
  const walk = (root) => {
    for (const chart of root.querySelectorAll('svg.svg-chart')) out.push(chart);
    for (const item of root.querySelectorAll('*')) if (item.shadowRoot) walk(item.shadowRoot);
  };
  walk(document);
  return out.map((svg) => ({
    points: svg.querySelectorAll('.point').length,
    lines: svg.querySelectorAll('path.line').length,
    titles: svg.querySelectorAll('.point > title').length,
    width: svg.getBoundingClientRect().width,
    right: svg.getBoundingClientRect().right,
    viewBox: svg.getAttribute('viewBox'),
    label: svg.getAttribute('aria-label'), role: svg.getAttribute('role'),
  }));
}"""


def d3_g(value: float, digits: int) -> str:
    """d3-format's ".{digits}g" (what Plotly's %{x:.3g} writes): zeros kept, true minus."""
    text = f"{value:#.{digits}g}".rstrip(".")
    return text.replace("-", "−")


def drawn_counts(figure: dict) -> tuple[int, int, int]:
    """(markers, line paths, markers with hover text) the figure asks for."""
    markers = lines = hovered = 0
    for trace in figure["data"]:
        x, y = plotly_array(trace.get("x", [])), plotly_array(trace.get("y", []))
        finite = int(sum(1 for a, b in zip(x, y) if math.isfinite(a) and math.isfinite(b)))
        mode = trace.get("mode", "")
        if "markers" in mode:
            markers += finite
            hovered += finite if trace.get("hoverinfo") != "skip" else 0
        if "lines" in mode and (trace.get("line") or {}).get("width", 2) != 0 and finite > 1:
            lines += 1
    return markers, lines, hovered


@pytest.fixture(scope="module")
def bound_figure() -> dict:
    return plotly_spec(open_page("pages/bound.py", parts_open=False), "bound_sweep_chart")


def test_bound_draws_its_figure_in_svg_without_asking_for_plotly(
    browser, streamlit_server, bound_figure
):
    with new_page(browser, 1440, 900) as page:
        requests: list[str] = []
        page.on("request", lambda request: requests.append(request.url))
        open_url(page, f"{streamlit_server}/bound")
        page.locator("svg.svg-chart").first.wait_for(timeout=60_000)
        page.wait_for_timeout(1500)
        charts = page.evaluate(SHADOW_CHARTS_JS)
        assert [url for url in requests if "PlotlyChart" in url or "plotly" in url.lower()] == []
        assert page.locator(".js-plotly-plot").count() == 0
        markers, lines, hovered = drawn_counts(bound_figure)
        assert markers > 20 and lines >= 4  # the sweep: a dot per run, the median, the bounds
        first = charts[0]
        assert (first["points"], first["lines"], first["titles"]) == (markers, lines, hovered)
        assert first["role"] == "img" and first["label"].startswith("Chart")


def test_a_point_tells_its_values_on_focus_and_on_hover(browser, streamlit_server, bound_figure):
    runs = bound_figure["data"][0]
    x, y = plotly_array(runs["x"]), plotly_array(runs["y"])
    expected = f"γ = {d3_g(float(x[0]), 3)}updates = {int(y[0])}"  # <br> is a line break
    with new_page(browser, 1440, 900) as page:
        open_url(page, f"{streamlit_server}/bound")
        chart = page.locator("svg.svg-chart").first
        chart.wait_for(timeout=60_000)
        tip = page.locator(".svg-chart-tip").first
        chart.focus()  # the keyboard: the first point's text, then the next one's on →
        tip.wait_for(state="visible")
        assert tip.inner_text().replace("\n", "") == expected
        chart.press("ArrowRight")
        second = f"γ = {d3_g(float(x[1]), 3)}updates = {int(y[1])}"
        page.wait_for_function(
            "([el, text]) => el.innerText.replace(/\\n/g, '') === text",
            arg=[tip.element_handle(), second],
        )
        chart.press("Escape")
        tip.wait_for(state="hidden")
        point = chart.locator(".point").nth(3).bounding_box()  # the pointer, over a dot
        page.mouse.move(point["x"] + point["width"] / 2, point["y"] + point["height"] / 2)
        tip.wait_for(state="visible")
        assert re.match(r"γ = [0-9.]+updates = \d+$", tip.inner_text().replace("\n", ""))


def test_on_a_phone_nothing_pans_sideways_and_a_wider_window_lays_the_chart_out_again(
    browser, streamlit_server
):
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        user_agent=("Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile"),
    )
    try:
        page = context.new_page()
        open_url(page, f"{streamlit_server}/bound")
        page.locator("svg.svg-chart").first.wait_for(timeout=60_000)
        page.wait_for_timeout(1000)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert (
            page.evaluate(
                "(() => { const m = document.querySelector('[data-testid=stMain]');"
                " return m.scrollWidth - m.clientWidth; })()"
            )
            <= 0
        )
        narrow = page.evaluate(SHADOW_CHARTS_JS)
        assert narrow and all(chart["right"] <= 390 for chart in narrow)
        page.set_viewport_size({"width": 1000, "height": 844})
        page.wait_for_function(
            f"(old) => ({SHADOW_CHARTS_JS})()[0].viewBox !== old",
            arg=narrow[0]["viewBox"],
            timeout=10_000,
        )
        wide = page.evaluate(SHADOW_CHARTS_JS)
        assert wide[0]["width"] > narrow[0]["width"] + 200
    finally:
        context.close()


def test_the_swing_plays_its_frames_with_a_slider_and_a_button(browser, streamlit_server):
    figure = plotly_spec(open_page("pages/aggressive.py", parts_open=False), "aggressive_swing")
    titles = [frame["layout"]["title"]["text"] for frame in figure["frames"]]
    with new_page(browser, 1440, 900) as page:
        open_url(page, f"{streamlit_server}/aggressive")
        slider = page.get_by_role("slider", name=re.compile("which frame"))
        slider.wait_for(timeout=60_000)
        assert slider.get_attribute("max") == str(len(figure["frames"]) - 1)
        chart = page.locator(".svg-chart-box", has=page.locator("input[type=range]"))
        assert titles[0].split(":")[0] in chart.locator("text.title").text_content()
        slider.focus()
        slider.press("ArrowRight")
        slider.press("ArrowRight")
        page.wait_for_function(
            "([el, t]) => el.textContent.startsWith(t)",
            arg=[chart.locator("text.title").element_handle(), titles[2].split(":")[0]],
        )
        play = chart.get_by_role("button", name="Play")
        play.click()
        page.wait_for_timeout(1200)  # frames advance every 350 ms
        assert int(slider.input_value()) >= 4
        chart.get_by_role("button", name="Pause").click()
        stopped = slider.input_value()
        page.wait_for_timeout(800)
        assert slider.input_value() == stopped


def test_the_png_button_downloads_the_chart_at_twice_its_size(browser, streamlit_server):
    with new_page(browser, 1440, 900) as page:
        open_url(page, f"{streamlit_server}/adversary")
        chart = page.locator("svg.svg-chart").first
        chart.wait_for(timeout=60_000)
        width = float(chart.get_attribute("width"))
        height = float(chart.get_attribute("height"))
        chart.hover()
        with page.expect_download() as download_info:
            page.get_by_role("button", name="Download this chart as a PNG").first.click()
        download = download_info.value
        assert download.suggested_filename.endswith(".png")
        data = open(download.path(), "rb").read()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        # the PNG's size (IHDR: width, height as big-endian 32-bit integers at bytes 16-24)
        assert (int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")) == (
            2 * width,
            2 * height,
        )
