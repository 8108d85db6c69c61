"""The student's own data in real Chromium (issues 11, 13 and 8): upload and draw on
/kernels and /multiclass, stepping the kernel player on drawn points, the offline export
of the kernel player, and an upload lost to a server restart.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import numpy as np
from browser_helpers import (
    assert_no_exception,
    assert_the_lost_upload_is_named,
    free_port,
    new_page,
    open_player,
    open_url,
    run_streamlit,
    upload_csv,
    upload_then_lose_the_server,
    wait_for_app,
    wait_for_player,
)
from test_browser_kernels import browser_field, grid_points

from perceptron_core import kernel_perceptron
from perceptron_core.viz.train import axis_limit

GOOD_CSV = b"x1,x2,label\n0.5,0.5,cat\n0.6,0.3,cat\n-0.5,-0.4,dog\n-0.3,-0.6,dog\n0.2,-0.7,dog\n"
IRIS_LIKE = (
    b"petal,sepal,species\n0.9,0.1,setosa\n0.8,0.2,setosa\n-0.1,0.9,versicolor\n"
    b"0.1,0.8,versicolor\n-0.8,-0.5,virginica\n-0.7,-0.6,virginica\n"
)


def click_board(page, chart_key, fx, fy):
    """Click the drawing board at a fraction (fx, fy) of its plot area (0, 0: top left)."""
    board = page.locator(f".st-key-{chart_key} .nsewdrag").first
    board.wait_for(timeout=60_000)
    board.scroll_into_view_if_needed()
    box = board.bounding_box()
    page.mouse.click(box["x"] + box["width"] * fx, box["y"] + box["height"] * fy)
    wait_for_app(page)


def pick_class(page, picker_key, name):
    page.locator(f".st-key-{picker_key} button", has_text=name).first.click()
    wait_for_app(page)


def link_points(page) -> list[list[float]]:
    raw = parse_qs(urlparse(page.url).query).get("points", [""])[0]
    return [[float(v) for v in item.split(",")] for item in raw.split(";") if item]


def test_kernels_drawn_points_train_and_the_player_steps_them(page, streamlit_server):
    open_url(page, f"{streamlit_server}/kernels?data=draw&kernel=poly&degree=2")
    page.get_by_text("0 points drawn").wait_for()
    click_board(page, "kernels_draw_chart", 0.75, 0.25)
    page.get_by_text("1 point drawn").wait_for()
    page.get_by_text("Every point is of class +1").wait_for()  # one class: nothing to run
    assert page.get_by_test_id("perceptron-player").count() == 0
    pick_class(page, "kernels_draw_class", "-1")
    for fx, fy in ((0.25, 0.75), (0.3, 0.3), (0.7, 0.7)):
        click_board(page, "kernels_draw_chart", fx, fy)
    page.get_by_text("4 points drawn").wait_for()
    points = np.array(link_points(page))
    assert points.shape == (4, 3) and points[:, 2].tolist() == [1, -1, -1, -1]
    X, y = points[:, :2], points[:, 2].astype(int)
    trace = kernel_perceptron(
        X,
        y,
        kernel="poly",
        degree=2,
        coef0=1.0,
        scale=2.0,
        bias=True,
        max_updates=2_000,
        max_epochs=500,
    )
    player = page.get_by_test_id("perceptron-player")
    player.wait_for()
    player.scroll_into_view_if_needed()
    page.locator("h1").first.click()  # the keys go to the player, not a widget
    for k in (1, 2):
        page.keyboard.press("ArrowRight")
        wait_for_player(player, int(trace.update_steps[k - 1]), k)
    k, f_grid, f_points = browser_field(player)
    np.testing.assert_allclose(
        f_grid, trace.decision_function(grid_points(axis_limit(X, 1.0)), upto=2), atol=1e-9
    )
    np.testing.assert_allclose(f_points, trace.decision_function(X, upto=2), atol=1e-9)
    page.keyboard.press("End")
    wait_for_player(player, trace.n_examined, trace.n_updates)
    # a click on a drawn point removes it, and the link follows
    click_board(page, "kernels_draw_chart", 0.7, 0.7)
    page.get_by_text("3 points drawn").wait_for()
    assert len(link_points(page)) == 3
    assert_no_exception(page)


def test_kernels_upload_shows_the_name_as_written_and_keeps_data_on_a_bad_file(
    page, streamlit_server
):
    open_url(page, f"{streamlit_server}/kernels?data=upload")
    upload_csv(page, "**x**.csv", GOOD_CSV)
    caption = page.locator('[data-testid="stCaptionContainer"]', has_text="5 rows")
    caption.wait_for()
    assert "**x**.csv: 5 rows" in caption.inner_text().replace("\n", "")  # not made bold
    player = page.get_by_test_id("perceptron-player")
    player.wait_for()
    wait_for_player(player, updates=0)
    upload_csv(page, "one.csv", b"x1,label\n0.5,1\n-0.5,-1\n0.7,1\n")
    error = page.locator('[data-testid="stAlert"]', has_text="one.csv")
    error.wait_for()
    assert "1 feature column" in error.inner_text()
    assert "previous data are kept" in error.inner_text()
    assert caption.is_visible()
    page.locator("h1").first.click()
    page.keyboard.press("ArrowRight")
    wait_for_player(player, updates=1)  # still stepping the good file's run
    assert_no_exception(page)


def test_the_exported_kernel_player_steps_from_a_file_with_no_network(
    page, streamlit_server, tmp_path
):
    query = "data=draw&kernel=rbf&points=0.5,0.5,1;0.6,-0.4,-1;-0.5,-0.5,1;-0.4,0.6,-1"
    open_player(page, f"{streamlit_server}/kernels?{query}")
    with page.expect_download() as download_info:
        page.get_by_role("button", name="Player (HTML, works offline)").click()
    html_file = tmp_path / "kernels.html"
    download_info.value.save_as(html_file)
    points = np.array(link_points(page))
    trace = kernel_perceptron(
        points[:, :2],
        points[:, 2].astype(int),
        kernel="rbf",
        scale=2.0,
        bias=True,
        max_updates=2_000,
        max_epochs=500,
    )
    offline = page.context.browser.new_context()
    try:
        viewer = offline.new_page()
        requests = []
        viewer.on("request", lambda request: requests.append(request.url))
        viewer.route("http*://**", lambda route: route.abort())  # no server, no network
        viewer.goto(html_file.as_uri())
        player = viewer.get_by_test_id("perceptron-player")
        player.wait_for()
        assert wait_for_player(player) == (0, 0) and player.get_attribute("data-playing") == "false"
        viewer.keyboard.press("ArrowRight")
        wait_for_player(player, int(trace.update_steps[0]), 1)
        viewer.keyboard.press("End")
        wait_for_player(player, trace.n_examined, trace.n_updates)
        assert [url for url in requests if url.startswith("http")] == []
    finally:
        offline.close()


def test_multiclass_takes_a_file_with_k_labels_and_drawn_classes(page, streamlit_server):
    open_url(page, f"{streamlit_server}/multiclass?source=upload")
    upload_csv(page, "iris.csv", IRIS_LIKE)
    caption = page.locator('[data-testid="stCaptionContainer"]', has_text="6 rows")
    caption.wait_for()
    caption = caption.inner_text()
    assert "setosa → class 0" in caption and "virginica → class 2" in caption
    page.get_by_text("of the 6 training points").wait_for()
    open_url(page, f"{streamlit_server}/multiclass?source=draw")
    page.get_by_text("points of at least 2 classes").wait_for()
    for name, (fx, fy) in (("0 ●", (0.75, 0.25)), ("3 ▲", (0.25, 0.25)), ("5 ★", (0.5, 0.8))):
        pick_class(page, "multiclass_draw_class", name)
        click_board(page, "multiclass_draw_chart", fx, fy)
    page.get_by_text("3 points drawn").wait_for()
    assert [p[2] for p in link_points(page)] == [0, 3, 5]
    page.get_by_text("of the 3 training points").wait_for()  # both schemes ran on them
    # the link reopens the same points in a new session
    with new_page(page.context.browser, 1280, 900) as other:
        open_url(other, page.url)
        other.get_by_text("3 points drawn").wait_for()
        other.get_by_text("of the 3 training points").wait_for()
        assert link_points(other) == link_points(page)
    assert_no_exception(page)


def test_an_upload_lost_to_a_server_restart_is_named_and_the_uploader_is_fresh(browser):
    port = free_port()
    with new_page(browser, 1280, 900) as page:
        upload_then_lose_the_server(page, port, "/kernels?data=upload", "good.csv", GOOD_CSV)
        # the server is gone; the page still shows the uploader listing good.csv
        assert "good.csv" in page.locator('[data-testid="stFileUploader"]').inner_text()
        with run_streamlit(port=port):
            # no click needed: the page reruns once reconnected (pages/common/reconnect.py)
            assert_the_lost_upload_is_named(page, "good.csv")
            upload_csv(page, "good.csv", GOOD_CSV)  # uploading again works
            page.get_by_test_id("perceptron-player").wait_for()
            assert page.locator('[data-testid="stAlert"]', has_text="server restarted").count() == 0
            assert_no_exception(page)
