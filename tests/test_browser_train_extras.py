"""Browser tests of /train's lecture-hall features: keys, links, uploads, drawing, exports."""

from __future__ import annotations

from pathlib import Path

from browser_helpers import assert_no_exception, wait_for_app

GOOD_CSV = b"x1,x2,label\n0.5,0.5,cat\n0.6,0.3,cat\n-0.5,-0.4,dog\n-0.3,-0.6,dog\n-0.2,-0.7,dog\n"
BAD_FILES = {
    "letters.csv": (b"x1,x2,label\n0.1,0.2,1\n0.3,abc,-1\n", "row 3"),
    "empty.csv": (b"", "empty"),
    "picture.csv": (bytes(range(256)) * 4, "not a text CSV"),
    "three.csv": (b"1,2,a\n3,4,b\n5,6,c\n", "3 distinct labels"),
}


def goto(page, base, path):
    page.goto(f"{base}/{path}")
    wait_for_app(page, timeout=60_000)


def status_text(page) -> str:
    return page.locator(".st-key-status").inner_text()


def press(page, key):
    page.bring_to_front()
    page.locator("h1").first.click()  # the document has focus, no input does
    page.keyboard.press(key)
    wait_for_app(page)


def status_shows(page, text: str) -> None:
    page.wait_for_function(
        "(text) => document.querySelector('.st-key-status') && "
        "document.querySelector('.st-key-status').innerText.includes(text)", arg=text)
    wait_for_app(page, settle_ms=500)  # let the buttons (and their key listeners) mount


def test_right_arrow_three_times_is_three_updates(page, streamlit_server):
    goto(page, streamlit_server, "train")
    status_shows(page, "Nothing examined yet")
    for updates in (1, 2, 3):  # one key press at a time, as a presenter would
        press(page, "ArrowRight")
        status_shows(page, f"{updates} / ")
    assert "3 / " in status_text(page)
    press(page, "PageDown")  # a presentation clicker
    status_shows(page, "4 / ")
    press(page, "PageUp")
    status_shows(page, "3 / ")
    press(page, "Home")
    status_shows(page, "Nothing examined yet")


def test_url_round_trip_in_a_fresh_browser(browser, streamlit_server):
    first = browser.new_context(viewport={"width": 1400, "height": 1000})
    second = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = first.new_page()
        goto(page, streamlit_server, "train")
        field = page.get_by_label("points n")
        field.fill("70")
        field.press("Enter")
        wait_for_app(page)
        for _ in range(2):
            page.get_by_role("button", name="Next mistake").first.click()
            wait_for_app(page)
        page.wait_for_function("() => location.search.includes('n=70') && "
                               "location.search.includes('step=')")
        full = ("() => document.querySelector('.st-key-status') && document.querySelector("
                "'.st-key-status').innerText.includes('(bound 1.4)')")
        page.wait_for_function(full)
        shown = status_text(page)
        other = second.new_page()
        other.goto(page.url)
        wait_for_app(other, timeout=60_000)
        other.wait_for_function(full)
        assert other.get_by_label("points n").input_value() == "70"
        assert status_text(other) == shown
        assert_no_exception(other)
    finally:
        first.close()
        second.close()


def test_presenter_mode_hides_the_sidebar_and_shows_the_keys(page, streamlit_server):
    goto(page, streamlit_server, "train?present=1")
    assert not page.locator('section[data-testid="stSidebar"]').is_visible()
    assert page.get_by_text("PageDown next mistake").is_visible()
    toggle = page.locator('.st-key-presenter_bar')
    assert toggle.is_visible()
    header = page.locator('[data-testid="stHeader"]').bounding_box()
    assert toggle.bounding_box()["y"] >= header["y"] + header["height"] - 1  # not under the header


def upload(page, name, content):
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        files=[{"name": name, "mimeType": "text/csv", "buffer": content}])
    wait_for_app(page, timeout=60_000)


def test_bad_uploads_say_what_to_fix_and_keep_the_previous_data(page, streamlit_server):
    goto(page, streamlit_server, "train?source=upload")
    upload(page, "good.csv", GOOD_CSV)
    page.get_by_text("good.csv: 5 rows").wait_for()
    assert "cat → -1" in page.get_by_text("good.csv: 5 rows").inner_text()
    for name, (content, message) in BAD_FILES.items():
        upload(page, name, content)
        error = page.locator('[data-testid="stAlert"]', has_text=name)
        error.wait_for()
        assert message in error.inner_text(), error.inner_text()
        assert "previous data are kept" in error.inner_text()
        assert page.get_by_text("good.csv: 5 rows").is_visible()  # still training on it
        assert page.locator(".st-key-status").is_visible()
    assert_no_exception(page)


def test_clicking_the_chart_adds_and_removes_points(page, streamlit_server):
    goto(page, streamlit_server, "train?source=draw")
    page.get_by_text("0 points drawn").wait_for()
    plot = page.locator(".js-plotly-plot").first
    box = page.locator(".js-plotly-plot .nsewdrag").first.bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.7, box["y"] + box["height"] * 0.3)
    wait_for_app(page)
    page.get_by_text("1 points drawn").wait_for()
    page.get_by_role("radio", name="-1").click() if page.get_by_role(
        "radio", name="-1").count() else page.get_by_text("-1", exact=True).first.click()
    wait_for_app(page)
    page.mouse.click(box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.7)
    wait_for_app(page)
    page.get_by_text("2 points drawn").wait_for()
    assert page.locator(".st-key-status").is_visible()  # both classes: it trains
    assert plot.is_visible()
    assert_no_exception(page)


def test_exported_animation_plays_without_a_server(page, streamlit_server, tmp_path: Path):
    goto(page, streamlit_server, "train")
    page.get_by_text("Export: data, trace, animation").click()
    with page.expect_download() as download_info:
        page.get_by_role("button", name="Animation (HTML, works offline)").click()
    html_file = tmp_path / "animation.html"
    download_info.value.save_as(html_file)
    text = html_file.read_text()
    assert "frames" in text and len(text) > 1_000_000  # plotly.js is inside the file
    offline = page.context.browser.new_context()
    try:
        viewer = offline.new_page()
        viewer.route("http*://**", lambda route: route.abort())  # no server, no network
        viewer.goto(html_file.as_uri())
        viewer.wait_for_function("() => document.querySelector('.js-plotly-plot') && "
                                 "document.querySelector('.js-plotly-plot')._fullLayout")
        active = "() => document.querySelector('.js-plotly-plot')._fullLayout.sliders[0].active"
        assert viewer.evaluate(active) == 0
        viewer.locator(".updatemenu-button", has_text="Play").first.click()
        viewer.wait_for_function(f"() => ({active})() >= 2", timeout=20_000)
    finally:
        offline.close()
