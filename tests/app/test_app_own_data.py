"""AppTest of the student's own data on /kernels and /multiclass (issues 11 and 13), and of
the shared "own data" section of pages/common.py behind them (upload, drawing, link).

Uploads go through AppTest's file uploader; a click on the drawing board is sent as the
Plotly selection the browser would send (``click_chart``). What the page shows is
checked against the core run on the same data.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from app_helpers import (
    open_page,
    player_payload,
    plotly_chart,
    plotly_spec,
    static_tables,
    table_with_column,
)
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import ElementTree

from perceptron_core import kernel_perceptron, one_vs_all, one_vs_one

KERNELS, MULTICLASS, TRAIN = "pages/kernels.py", "pages/multiclass.py", "pages/train.py"

GOOD = b"x1,x2,label\n0.5,0.5,cat\n0.6,0.3,cat\n-0.5,-0.4,dog\n-0.3,-0.6,dog\n0.2,-0.7,dog\n"
GOOD_X = [[0.5, 0.5], [0.6, 0.3], [-0.5, -0.4], [-0.3, -0.6], [0.2, -0.7]]
GOOD_Y = [-1, -1, 1, 1, 1]  # cat -> -1, dog -> +1 (sorted order)
IRIS_LIKE = (
    b"petal,sepal,species\n0.9,0.1,setosa\n0.8,0.2,setosa\n-0.1,0.9,versicolor\n"
    b"0.1,0.8,versicolor\n-0.8,-0.5,virginica\n-0.7,-0.6,virginica\n"
)


def upload(at: AppTest, key: str, name: str, content: bytes) -> AppTest:
    at.file_uploader(key=key).set_value((name, content, "text/csv")).run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def kernel_payload(at: AppTest) -> dict | None:
    """What /kernels' player received; None when the page has no data to run on."""
    return player_payload(at, "kernels", required=False)


def click_chart(at: AppTest, key: str, x: float, y: float, curve: int = 0) -> AppTest:
    """Rerun as after a click on the chart ``key`` at (x, y) on trace ``curve`` (0: the
    clickable grid): the Plotly selection the browser sends with the next run."""
    chart_id = plotly_chart(at, key).proto.id
    selection = json.dumps(
        {
            "selection": {
                "points": [
                    {"curve_number": curve, "point_number": 0, "point_index": 0, "x": x, "y": y}
                ],
                "point_indices": [0],
                "box": [],
                "lasso": [],
            }
        }
    )
    original = ElementTree.get_widget_states

    def with_click(tree):
        states = original(tree)
        state = states.widgets.add()
        state.id = chart_id
        state.string_value = selection
        return states

    ElementTree.get_widget_states = with_click
    try:
        at.run()
    finally:
        ElementTree.get_widget_states = original
    assert not at.exception, [e.message for e in at.exception]
    return at


def shown_text(at: AppTest) -> str:
    return " ".join(
        e.value
        for kind in ("caption", "info", "warning", "error", "markdown")
        for e in getattr(at, kind)
    )


# ---------------------------------------------------------------------------
# /kernels: upload
# ---------------------------------------------------------------------------


def test_kernels_trains_on_an_uploaded_file_and_shows_its_name_and_labels_as_text():
    at = open_page(KERNELS, {"data": "upload"})
    assert kernel_payload(at) is None  # no file yet: no player
    assert any("Upload a CSV" in i.value and "400 rows" in i.value for i in at.info)
    upload(at, "kernels_upload", "**x**.csv", GOOD)
    sent = kernel_payload(at)
    assert sent["X"] == GOOD_X and sent["y"] == GOOD_Y
    trace = kernel_perceptron(
        np.array(GOOD_X),
        np.array(GOOD_Y),
        kernel="rbf",
        scale=2.0,
        bias=True,
        max_updates=2_000,
        max_epochs=500,
    )
    assert sent["updates"]["indices"] == trace.update_indices.tolist()
    caption = next(c.value for c in at.caption if "5 rows" in c.value)
    # the file name is inside code (shown as written, not bold); the mapping is shown
    assert caption.startswith("`**x**.csv`: 5 rows, 2 features")
    assert "`cat` → -1" in caption and "`dog` → +1" in caption
    # what the page says about the data is computed for these data: a line separates them
    assert any("separable by a line" in i.value for i in at.info)
    assert not any("No line separates" in w.value for w in at.warning)


def test_kernels_bad_files_keep_the_previous_data_and_say_what_to_fix():
    at = upload(open_page(KERNELS, {"data": "upload"}), "kernels_upload", "good.csv", GOOD)
    before = kernel_payload(at)
    for name, content, message in [
        ("one.csv", b"x1,label\n0.5,1\n-0.5,-1\n", "it has 1 feature column"),
        ("three.csv", b"a,b,c,l\n1,2,3,1\n4,5,6,-1\n", "it has 3 feature columns"),
        (
            "letters.csv",
            b"x1,x2,label\n0.1,0.2,1\n0.3,abc,-1\n",
            "row 3, column 2 ('x2') holds 'abc'",
        ),
        ("labels.csv", b"1,2,a\n3,4,b\n5,6,c\n", "3 distinct labels"),
        (
            "big.csv",
            b"".join(b"%d,%d,%d\n" % (k, k, k % 2) for k in range(401)),
            "over the limit of 400",
        ),
    ]:
        upload(at, "kernels_upload", name, content)
        error = next(e.value for e in at.error if name in e.value)
        assert message in error.replace("\\", ""), error
        assert "The previous data are kept." in error
        assert kernel_payload(at)["X"] == before["X"]  # still training on good.csv
        assert any(c.value.startswith("`good.csv`: 5 rows") for c in at.caption)


def test_a_bad_first_file_loads_nothing_and_says_so():
    at = upload(
        open_page(KERNELS, {"data": "upload"}),
        "kernels_upload",
        "one.csv",
        b"x1,label\n0.5,1\n-0.5,-1\n",
    )
    error = next(e.value for e in at.error if "one.csv" in e.value)
    assert "Nothing was loaded." in error and kernel_payload(at) is None
    at.file_uploader(key="kernels_upload").set_value(None).run()  # the file taken out
    assert not [e.value for e in at.error if "one.csv" in e.value]


def test_a_bad_file_error_goes_when_the_student_leaves_and_comes_back_but_the_data_stay():
    at = upload(open_page(KERNELS, {"data": "upload"}), "kernels_upload", "good.csv", GOOD)
    upload(at, "kernels_upload", "one.csv", b"x1,label\n0.5,1\n-0.5,-1\n")
    assert [e.value for e in at.error if "one.csv" in e.value]
    at.switch_page("pages/home.py").run()
    at.switch_page(KERNELS).run()
    assert at.file_uploader(key="kernels_upload").value is None  # a fresh, empty uploader
    assert not [e.value for e in at.error if "one.csv" in e.value]
    assert any(c.value.startswith("`good.csv`: 5 rows") for c in at.caption)  # still used


# ---------------------------------------------------------------------------
# /kernels: drawing, the class picker and the link
# ---------------------------------------------------------------------------


def test_kernels_drawing_adds_and_removes_points_and_keeps_them_in_the_link():
    at = open_page(KERNELS, {"data": "draw"})
    assert "0 points drawn" in shown_text(at)
    assert any("points of both classes" in i.value for i in at.info)
    click_chart(at, "kernels_draw_chart", 0.5, 0.25)
    assert at.session_state["kernels_drawn_points"] == [[0.5, 0.25, 1]]
    assert any("Every point is of class +1" in i.value for i in at.info)  # one class: no run
    assert kernel_payload(at) is None
    at.segmented_control(key="kernels_draw_class").set_value(-1).run()
    click_chart(at, "kernels_draw_chart", -0.4, -0.35)
    click_chart(at, "kernels_draw_chart", -0.5, 0.45)
    assert at.session_state["kernels_drawn_points"] == [
        [0.5, 0.25, 1],
        [-0.4, -0.35, -1],
        [-0.5, 0.45, -1],
    ]
    sent = kernel_payload(at)
    assert sent["X"] == [[0.5, 0.25], [-0.4, -0.35], [-0.5, 0.45]] and sent["y"] == [1, -1, -1]
    spec = plotly_spec(at, "kernels_draw_chart")
    assert [t.get("name") for t in spec["data"]][1:] == ["class +1", "class -1"]
    click_chart(at, "kernels_draw_chart", -0.5, 0.45, curve=2)  # click on a point: removed
    assert at.session_state["kernels_drawn_points"] == [[0.5, 0.25, 1], [-0.4, -0.35, -1]]
    # Plotly may report the grid point under a drawn point: that click removes it too
    click_chart(at, "kernels_draw_chart", 0.5, 0.25)
    assert at.session_state["kernels_drawn_points"] == [[-0.4, -0.35, -1]]
    at.segmented_control(key="kernels_draw_class").set_value(1).run()
    click_chart(at, "kernels_draw_chart", 0.5, 0.25)
    click_chart(at, "kernels_draw_chart", 2.1, 0.0)  # off the board (beyond ±2): ignored
    assert at.session_state["kernels_drawn_points"] == [[-0.4, -0.35, -1], [0.5, 0.25, 1]]
    at.session_state["kernels_drawn_points"] = [[0.5, 0.25, 1], [-0.4, -0.35, -1]]
    at.run()
    link = at.query_params["points"]
    assert link in ("0.5,0.25,1;-0.4,-0.35,-1", ["0.5,0.25,1;-0.4,-0.35,-1"])
    # the link opens the same data and run in a new session
    again = open_page(KERNELS, {"data": "draw", "points": "0.5,0.25,1;-0.4,-0.35,-1"})
    assert kernel_payload(again)["updates"] == kernel_payload(at)["updates"]
    at.button(key="kernels_draw_undo").click().run()
    assert at.session_state["kernels_drawn_points"] == [[0.5, 0.25, 1]]
    at.button(key="kernels_draw_clear").click().run()
    assert at.session_state["kernels_drawn_points"] == [] and "points" not in at.query_params


def test_a_bad_points_link_is_ignored_and_named():
    # 1000,0 would have drawn a clickable grid of two billion points: off the board
    for points in (
        "1e100,0,1;0,1e-60,-1",
        "0.1,0.1,3",
        "0.1,0.2",
        "1000,0,1;-1000,5,-1",
        "2.01,0,1",
        ";".join(["0.1,0.1,1"] * 401),
    ):
        at = open_page(KERNELS, {"data": "draw", "points": points})
        assert at.session_state["kernels_drawn_points"] == []
        assert any(
            "points value could not be read" in w.value
            and "400" in w.value
            and "between -2 and 2" in w.value
            for w in at.warning
        )
    assert open_page(KERNELS, {"data": "draw", "points": "2,-2,1;-2,2,-1"}).session_state[
        "kernels_drawn_points"
    ] == [[2, -2, 1], [-2, 2, -1]]


# ---------------------------------------------------------------------------
# /kernels: the offline export of the player
# ---------------------------------------------------------------------------


def test_kernels_export_is_one_offline_html_file_with_the_run(monkeypatch):
    deferred = {}
    register = MediaFileManager.add_deferred

    def keep(self, data_callable, mimetype, coordinates, file_name=None, **kwargs):
        deferred[file_name] = data_callable
        return register(self, data_callable, mimetype, coordinates, file_name, **kwargs)

    monkeypatch.setattr(MediaFileManager, "add_deferred", keep)
    at = open_page(KERNELS, {"data": "draw", "points": "0.5,0.25,1;-0.4,-0.35,-1;0.1,0.9,1"})
    sent = kernel_payload(at)
    assert any(b.label == "Player (HTML, works offline)" for b in at.get("download_button"))
    html = deferred["kernel-perceptron-player.html"]()
    # mountPlayer(host, payload, kernelsScene, kernelsQuestions): the questions of Predict first
    match = re.search(
        r'mountPlayer\(document.getElementById\("player"\), (\{.*\}), '
        r"kernelsScene, kernelsQuestions\)",
        html,
    )
    exported = json.loads(match.group(1).replace("<\\/", "</"))
    assert exported["updates"] == sent["updates"] and exported["X"] == sent["X"]
    assert exported["player"]["link"] is False and exported["player"]["start_step"] is None
    assert exported["player"]["predict"]  # Predict first works offline too
    assert "3 drawn points" in html and "<title>Perceptron Lab: kernel perceptron" in html
    # nothing is fetched: the only http(s) text is the SVG namespace, an identifier
    urls = set(re.findall(r"https?://[^\s\"'<>)]+", html))
    assert urls <= {"http://www.w3.org/2000/svg"}, urls
    assert "<script src" not in html and "<link" not in html


# ---------------------------------------------------------------------------
# /multiclass: k labels from a file, and drawing with the class picker
# ---------------------------------------------------------------------------


def core_table(X, labels):
    settings = dict(bias=True, order="cyclic", seed=0, max_updates=20_000, max_epochs=100)
    return one_vs_all(X, labels, **settings), one_vs_one(X, labels, **settings)


def test_multiclass_trains_on_a_file_with_k_text_labels():
    at = upload(
        open_page(MULTICLASS, {"source": "upload"}), "multiclass_upload", "iris.csv", IRIS_LIKE
    )
    caption = next(c.value for c in at.caption if "6 rows" in c.value)
    assert "`setosa` → class 0, `versicolor` → class 1, `virginica` → class 2" in caption
    X = np.array([[0.9, 0.1], [0.8, 0.2], [-0.1, 0.9], [0.1, 0.8], [-0.8, -0.5], [-0.7, -0.6]])
    ova, ovo = core_table(X, np.array([0, 0, 1, 1, 2, 2]))
    table = table_with_column(at, "one-vs-all")
    assert table["one-vs-all"][1] == "3" and table["one-vs-one"][1] == "3"
    assert table["one-vs-all"][2] == str(ova.total_updates)
    assert table["one-vs-one"][2] == str(ovo.total_updates)
    right = int(np.sum(ova.predict(X) == [0, 0, 1, 1, 2, 2]))
    assert table["one-vs-all"][0] == f"{right / 6:.1%} ({right} of 6)"


def test_multiclass_keeps_whole_number_labels_and_refuses_too_many_classes():
    content = b"1,1,1\n1.1,0.9,1\n-1,1,3\n-0.9,1.1,3\n0,-1,5\n0.1,-1.1,5\n"
    at = upload(
        open_page(MULTICLASS, {"source": "upload"}), "multiclass_upload", "numbers.csv", content
    )
    assert "`1` → class 1, `3` → class 3, `5` → class 5" in " ".join(c.value for c in at.caption)
    assert any("line 3 vs rest" == t.get("name") for t in plotly_spec(at, "ova_chart")["data"])
    seven = b"".join(b"%d,%d,c%d\n" % (k, -k, k) for k in range(7))
    upload(at, "multiclass_upload", "seven.csv", seven)
    error = next(e.value for e in at.error if "seven.csv" in e.value).replace("\\", "")
    assert "7 distinct labels" in error and "at most 6 classes" in error
    assert "previous data are kept" in error
    table = table_with_column(at, "one-vs-all")
    assert table["one-vs-all"][1] == "3"  # still the numbers.csv classes


def test_multiclass_drawing_uses_the_class_picker_and_the_link():
    at = open_page(MULTICLASS, {"source": "draw"})
    picker = at.segmented_control(key="multiclass_draw_class")
    assert picker.options == ["0 ●", "1 ■", "2 ◆", "3 ▲", "4 ✚", "5 ★"]
    points = [(0.6, 0.5, 0), (0.7, 0.4, 0), (-0.6, 0.5, 3), (-0.5, 0.6, 3), (0.0, -0.7, 5)]
    for x, y, label in points:
        at.segmented_control(key="multiclass_draw_class").set_value(label).run()
        click_chart(at, "multiclass_draw_chart", x, y)
        if label == 0 and len(at.session_state["multiclass_drawn_points"]) == 1:
            assert any("Every point is of class 0 ●" in i.value for i in at.info)
    assert at.session_state["multiclass_drawn_points"] == [list(p) for p in points]

    def markers(spec):
        return {
            t["name"]: (t["marker"]["color"], t["marker"]["symbol"])
            for t in spec["data"]
            if t.get("name", "").startswith("class ")
        }

    board, result = plotly_spec(at, "multiclass_draw_chart"), plotly_spec(at, "ova_chart")
    # each class looks the same on the board and on the results, with the picker's shape
    assert list(markers(board)) == ["class 0", "class 3", "class 5"]
    assert markers(board) == markers(result)
    assert [symbol for _, symbol in markers(board).values()] == ["circle", "triangle-up", "star"]
    X = np.array([p[:2] for p in points])
    labels = np.array([p[2] for p in points])
    ova, _ = core_table(X, labels)
    table = table_with_column(at, "one-vs-all")
    assert table["one-vs-all"][2] == str(ova.total_updates)
    link = at.query_params["points"]
    link = link[0] if isinstance(link, list) else link
    assert link == "0.6,0.5,0;0.7,0.4,0;-0.6,0.5,3;-0.5,0.6,3;0,-0.7,5"
    again = open_page(MULTICLASS, {"source": "draw", "points": link})
    assert table_with_column(again, "one-vs-all").equals(table)


@pytest.mark.parametrize(
    "query, text",
    [
        ({"source": "draw"}, "points of at least 2 classes"),
        ({"source": "draw", "points": "0.1,0.1,2;0.3,0.2,2"}, "Every point is of class 2 ◆"),
        ({"source": "upload"}, "Upload a CSV"),
    ],
)
def test_multiclass_without_enough_own_data_says_what_to_do(query, text):
    at = open_page(MULTICLASS, query)
    assert any(text in i.value for i in at.info)
    assert not any(
        "one-vs-all" in t.columns for t in [d.value for d in at.dataframe] + static_tables(at)
    )


# ---------------------------------------------------------------------------
# /train on the same section: one class allowed, links carry drawn points as before
# ---------------------------------------------------------------------------


def train_payload(at: AppTest) -> dict | None:
    """What /train's player received; None when the page has no data to run on."""
    return player_payload(at, "train", required=False)


def test_train_takes_a_file_of_one_class_and_refuses_points_off_the_board():
    at = upload(
        open_page(TRAIN, {"source": "upload"}),
        "upload",
        "one class.csv",
        b"x1,x2,label\n0.5,0.3,1\n0.2,0.6,1.0\n",
    )
    assert any(
        c.value.startswith("`one class.csv`: 2 rows") and "`1` → +1" in c.value for c in at.caption
    )
    sent = train_payload(at)
    assert sent["X"] == [[0.5, 0.3], [0.2, 0.6]] and sent["y"] == [1, 1]
    # a link whose points lie far off the board once built a grid of 2e9 clickable points
    at = open_page(TRAIN, {"source": "draw", "points": "1000,0,1;-1000,5,-1"})
    assert at.session_state["drawn_points"] == [] and train_payload(at) is None
    assert any("points value could not be read" in w.value for w in at.warning)


@pytest.mark.parametrize(
    "page, key, generated",
    [(TRAIN, "source", "generated"), (KERNELS, "data", "circles"), (MULTICLASS, "source", "blobs")],
)
def test_own_data_say_why_the_generator_settings_are_greyed_out(page, key, generated):
    for source, said in [(generated, False), ("upload", True), ("draw", True)]:
        at = open_page(page, {key: source})
        greyed = [w for w in at.sidebar.number_input if w.label == "points n"]
        assert len(greyed) == 1 and greyed[0].disabled == said
        note = [c.value for c in at.sidebar.caption if "greyed out" in c.value]
        assert bool(note) == said, (page, source, note)
