"""Browser tests of /train's lecture-hall features: links, presenter mode, uploads, drawing."""

from __future__ import annotations

from browser_helpers import (
    alert,
    assert_no_exception,
    new_page,
    open_link_with_step,
    open_player,
    open_url,
    upload_csv,
    wait_for_app,
    wait_for_player,
)
from playwright.sync_api import expect

GOOD_CSV = b"x1,x2,label\n0.5,0.5,cat\n0.6,0.3,cat\n-0.5,-0.4,dog\n-0.3,-0.6,dog\n-0.2,-0.7,dog\n"
BAD_FILES = {
    "letters.csv": (b"x1,x2,label\n0.1,0.2,1\n0.3,abc,-1\n", "row 3"),
    "empty.csv": (b"", "empty"),
    "picture.csv": (bytes(range(256)) * 4, "not a text CSV"),
    "three.csv": (b"1,2,a\n3,4,b\n5,6,c\n", "3 distinct labels"),
}


def test_settings_and_step_round_trip_in_a_fresh_browser(browser, streamlit_server):
    with new_page(browser) as page, new_page(browser) as fresh:
        player = open_player(page, f"{streamlit_server}/train")
        field = page.get_by_label("points n")
        field.fill("70")
        field.press("Enter")
        wait_for_app(page)
        page.locator("h1").first.click()  # leave the field: the keys go to the player again
        wait_for_player(player, updates=0)
        for _ in range(2):
            page.keyboard.press("ArrowRight")
        step, _ = wait_for_player(player, updates=2)
        shown = player.locator(".info").inner_text()
        link, other = open_link_with_step(page, fresh, step)
        assert "n=70" in link
        expect(fresh.get_by_label("points n")).to_have_value("70")
        wait_for_player(other, step, 2)
        assert other.locator(".info").inner_text() == shown
        assert_no_exception(fresh)


def test_presenter_mode_hides_the_sidebar_and_shows_the_keys(page, streamlit_server):
    open_url(page, f"{streamlit_server}/train?present=1")
    assert not page.locator('section[data-testid="stSidebar"]').is_visible()
    keys = page.get_by_test_id("perceptron-player").get_by_text("PageDown next mistake")
    keys.wait_for()
    assert keys.is_visible()
    toggle = page.locator(".st-key-presenter_bar")
    assert toggle.is_visible() and toggle.bounding_box()["y"] >= 0


def test_bad_uploads_say_what_to_fix_and_keep_the_previous_data(page, streamlit_server):
    open_url(page, f"{streamlit_server}/train?source=upload")
    upload_csv(page, "good.csv", GOOD_CSV)
    page.get_by_text("good.csv: 5 rows").wait_for()
    assert "cat → -1" in page.get_by_text("good.csv: 5 rows").inner_text()
    for name, (content, message) in BAD_FILES.items():
        upload_csv(page, name, content)
        error = alert(page, name)
        error.wait_for()
        assert message in error.inner_text(), error.inner_text()
        assert "previous data are kept" in error.inner_text()
        assert page.get_by_text("good.csv: 5 rows").is_visible()  # still training on it
        assert page.get_by_test_id("perceptron-player").is_visible()
    assert_no_exception(page)


def test_clicking_the_chart_adds_and_removes_points(page, streamlit_server):
    open_url(page, f"{streamlit_server}/train?source=draw")
    page.get_by_text("0 points drawn").wait_for()
    plot = page.locator(".js-plotly-plot").first
    box = page.locator(".js-plotly-plot .nsewdrag").first.bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.7, box["y"] + box["height"] * 0.3)
    wait_for_app(page)
    page.get_by_text("1 point drawn").wait_for()
    page.get_by_role("radio", name="-1").click() if page.get_by_role(
        "radio", name="-1"
    ).count() else page.get_by_text("-1", exact=True).first.click()
    wait_for_app(page)
    page.mouse.click(box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.7)
    wait_for_app(page)
    page.get_by_text("2 points drawn").wait_for()
    page.get_by_test_id("perceptron-player").wait_for()  # it mounts after the rerun
    assert page.get_by_test_id("perceptron-player").is_visible()  # both classes: it trains
    assert plot.is_visible()
    assert_no_exception(page)


def test_crash_links_show_a_message_and_the_player_works(page, streamlit_server):
    for query in ("n=inf&data_seed=-1e309", "order_seed=inf&step=%C2%B2", "n=" + "9" * 400):
        open_url(page, f"{streamlit_server}/train?{query}")
        assert_no_exception(page)
        warning = alert(page, "ignored")
        warning.first.wait_for()
        player = page.get_by_test_id("perceptron-player")
        player.wait_for()
        page.keyboard.press("ArrowRight")
        wait_for_player(player, updates=1)
    assert page.locator('[data-testid="stException"]').count() == 0


def test_a_one_feature_file_keeps_the_data_and_names_are_shown_as_written(page, streamlit_server):
    open_url(page, f"{streamlit_server}/train?source=upload")
    upload_csv(page, "**x**.csv", GOOD_CSV)
    caption = page.get_by_text("**x**.csv", exact=False).first
    caption.wait_for()
    assert "**x**.csv" in caption.inner_text()  # not turned into bold
    player = page.get_by_test_id("perceptron-player")
    player.wait_for()
    upload_csv(page, "one.csv", b"x1,label\n0.5,1\n-0.5,-1\n0.7,1\n")
    error = alert(page, "one.csv")
    error.wait_for()
    assert "1 feature column" in error.inner_text()
    assert "previous data are kept" in error.inner_text()
    assert page.get_by_text("**x**.csv", exact=False).first.is_visible()
    assert player.is_visible()
