"""AppTest of /train's Python side: the player receives the core's run for the settings shown.

AppTest runs no JavaScript, so these tests read what the page sends to the
browser (the player component's JSON data) and the widgets around it; the
stepping itself is tested in Chromium (test_browser_player.py).
"""

from __future__ import annotations

import numpy as np
from app_helpers import open_page, player_payload
from browser_helpers import train_page_run

PAGE = "pages/train.py"


def test_the_player_gets_the_whole_run_once():
    data, trace = train_page_run()
    at = open_page(PAGE)
    sent = player_payload(at, "train")
    np.testing.assert_array_equal(sent["X"], data.X)
    np.testing.assert_array_equal(sent["updates"]["weights"], trace.weights)
    assert sent["updates"]["steps"] == trace.update_steps.tolist()
    assert sent["player"]["n_examined"] == trace.n_examined
    assert sent["player"]["start_step"] is None and sent["player"]["speed"] == "medium"
    assert sent["examined"] == {"encoding": "cyclic"}
    assert sent["bound"]["name"].startswith("T(A)") and sent["converged"]
    # a rerun that changes nothing sends the same data (the browser keeps its position)
    at.radio(key="quiz_delta").set_value("nothing at all").run()
    assert player_payload(at, "train") == sent


def test_changing_data_sends_a_new_run():
    at = open_page(PAGE)
    first = player_payload(at, "train")
    at.number_input(key="n").set_value(60).run()
    assert not at.exception
    sent = player_payload(at, "train")
    data, trace = train_page_run(n=60)
    assert sent["player"]["run_id"] != first["player"]["run_id"]
    assert sent["updates"]["indices"] == trace.update_indices.tolist()
    assert len(sent["y"]) == 60


def test_a_display_option_keeps_the_run():
    at = open_page(PAGE)
    first = player_payload(at, "train")
    at.toggle(key="show_planted").set_value(False).run()
    sent = player_payload(at, "train")
    assert sent["player"]["run_id"] == first["player"]["run_id"]
    assert sent["show_planted"] is False and first["show_planted"] is True


def test_bias_off_on_data_that_need_one_says_what_is_true():
    at = open_page(PAGE)
    at.toggle(key="bias").set_value(False).run()
    assert not at.exception
    sent = player_payload(at, "train")
    assert "No line through the origin separates these data" in sent["facts"]
    assert "Not linearly separable" not in sent["facts"]
    assert "Stopped without converging" in sent["end_text"]


def test_presenter_mode_sends_the_stage_and_keeps_the_run():
    at = open_page(PAGE)
    first = player_payload(at, "train")
    at.session_state["present"] = True  # what app.py's toggle sets (AppTest runs the page alone)
    at.run()
    sent = player_payload(at, "train")
    assert sent["player"]["present"] is True
    assert sent["player"]["run_id"] == first["player"]["run_id"]
    assert not at.title  # the page title gives the stage its room
