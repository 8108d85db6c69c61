"""AppTest of /train: the page shows exactly the core's state after k updates."""

from __future__ import annotations

import json

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from perceptron_core import make_separable, run_perceptron

DEFAULTS = dict(n=40, margin=0.1, seed=7)


def open_train() -> AppTest:
    at = AppTest.from_file("../app.py", default_timeout=90).run()
    at.switch_page("pages/train.py").run()
    assert not at.exception, at.exception
    return at


def reference_trace(**changes):
    settings = {**DEFAULTS, **changes}
    data = make_separable(n=settings["n"], margin=settings["margin"], dim=2, radius=1.0,
                          seed=settings["seed"])
    return data, run_perceptron(data.X, data.y, bias=True, delta=0.0, order="cyclic", seed=0,
                                max_updates=5_000, max_epochs=500)


def status_text(at: AppTest) -> str:
    return " ".join(element.value for element in at.markdown)


def chart_spec(at: AppTest, key: str) -> dict:
    for chart in at.get("plotly_chart"):
        spec = json.loads(chart.proto.spec)
        if chart.proto.id and key in chart.proto.id:
            return spec
    # fall back on order: the step chart comes first
    return json.loads(at.get("plotly_chart")[0].proto.spec)


def hyperplane_of(spec: dict) -> dict:
    return next(trace for trace in spec["data"] if trace.get("name") == "hyperplane w·x + b = 0")


@pytest.mark.parametrize("clicks", [1, 3, 5])
def test_next_mistake_k_times_shows_core_state_after_k_updates(clicks):
    data, trace = reference_trace()
    assert trace.n_updates >= clicks
    at = open_train()
    for _ in range(clicks):
        at.button(key="next_mistake").click().run()
    assert not at.exception
    assert at.session_state.train_position == trace.update_steps[clicks - 1]
    w, b = trace.weights[clicks], trace.biases[clicks]
    text = status_text(at)
    assert f"w = ({w[0]:.3f}, {w[1]:.3f})" in text
    assert f"b = {b:.3f}" in text
    index = int(trace.update_indices[clicks - 1])
    assert f"Example {index}" in text and "a mistake" in text
    # the chart's hyperplane is the line w·x + b = 0 of update k
    line = hyperplane_of(chart_spec(at, "train_chart"))
    xs, ys = np.asarray(line["x"], float), np.asarray(line["y"], float)
    np.testing.assert_allclose(w[0] * xs + w[1] * ys + b, 0.0, atol=1e-9)
    assert at.slider(key="update_slider").value == clicks


def test_next_example_walks_through_correct_examples_too():
    data, trace = reference_trace()
    at = open_train()
    first_update = int(trace.update_steps[0])
    at.button(key="next_mistake").click().run()
    # the first correct example after the first update says so
    correct_steps = [t for t in range(first_update + 1, trace.n_examined + 1)
                     if t not in set(trace.update_steps.tolist())]
    target = correct_steps[0]
    for _ in range(target - first_update):
        at.button(key="next_example").click().run()
    assert at.session_state.train_position == target
    assert "correct, no update" in status_text(at)


def test_prev_reset_and_run_to_end():
    data, trace = reference_trace()
    at = open_train()
    at.button(key="next_mistake").click().run()
    at.button(key="next_mistake").click().run()
    at.button(key="prev").click().run()
    assert at.session_state.train_position == trace.update_steps[0]
    at.button(key="run_to_end").click().run()
    assert at.session_state.train_position == trace.n_examined
    assert any(f"Converged after {trace.n_updates} updates" in s.value for s in at.success)
    at.button(key="reset").click().run()
    assert at.session_state.train_position == 0
    assert "Nothing examined yet" in status_text(at)


def test_slider_jumps_to_an_update():
    data, trace = reference_trace()
    at = open_train()
    at.slider(key="update_slider").set_value(4).run()
    assert at.session_state.train_position == trace.update_steps[3]
    w = trace.weights[4]
    assert f"w = ({w[0]:.3f}, {w[1]:.3f})" in status_text(at)


def test_changing_data_resets_the_position_and_retrains():
    at = open_train()
    at.button(key="next_mistake").click().run()
    at.number_input(key="n").set_value(60).run()
    assert not at.exception
    assert at.session_state.train_position == 0
    data, trace = reference_trace(n=60)
    at.button(key="run_to_end").click().run()
    assert at.session_state.train_position == trace.n_examined


def test_animation_has_one_frame_per_update():
    data, trace = reference_trace()
    at = open_train()
    specs = [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]
    animated = [spec for spec in specs if spec.get("frames")]
    assert len(animated) == 1
    frames = animated[0]["frames"]
    assert [frame["name"] for frame in frames] == [str(k) for k in range(trace.n_updates + 1)]
    buttons = animated[0]["layout"]["updatemenus"][0]["buttons"]
    assert [button["label"] for button in buttons] == ["Play", "Pause"]
    at.select_slider(key="speed").set_value("fast").run()
    specs = [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]
    play = next(s for s in specs if s.get("frames"))["layout"]["updatemenus"][0]["buttons"][0]
    assert play["args"][1]["frame"]["duration"] == 150


def test_not_separable_settings_say_so_and_stop():
    # through the origin off + bias off: the planted separator has an offset, so a
    # line through 0 usually cannot separate; the page must say it stopped
    at = open_train()
    at.toggle(key="bias").set_value(False).run()
    assert not at.exception
    at.button(key="run_to_end").click().run()
    texts = [w.value for w in at.warning] + [i.value for i in at.info] + \
            [s.value for s in at.success]
    assert texts, "the page must explain the outcome"
