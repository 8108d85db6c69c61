"""AppTest of /train's lecture-hall features: links, bad link values, noise, drawn points, quiz."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

from streamlit.testing.v1 import AppTest

from perceptron_core import make_separable, run_perceptron, with_label_noise


def open_train(query: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file("../app.py", default_timeout=90)
    for name, value in (query or {}).items():
        at.query_params[name] = value
    at.switch_page("pages/train.py").run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def status(at: AppTest) -> str:
    return " ".join(m.value for m in at.markdown)


def copied_link(at: AppTest) -> dict[str, str]:
    link = next(code.value for code in at.code if "://" in code.value)
    return dict(parse_qsl(urlsplit(link).query))


def test_a_link_restores_data_algorithm_and_step():
    at = open_train({"n": "60", "margin": "0.2", "order": "permuted", "order_seed": "3",
                     "bias": "false", "through_origin": "true", "step": "7"})
    assert at.number_input(key="n").value == 60
    assert at.slider(key="margin").value == 0.2
    assert at.selectbox(key="order").value == "permuted"
    assert at.toggle(key="bias").value is False
    assert at.session_state.train_position == 7
    data = make_separable(n=60, margin=0.2, dim=2, radius=1.0, seed=7, through_origin=True)
    trace = run_perceptron(data.X, data.y, bias=False, order="permuted", seed=3,
                           max_updates=5_000, max_epochs=500)
    k = trace.updates_before_step(8)
    w = trace.weights[k]
    assert f"w = ({w[0]:.3f}, {w[1]:.3f})" in status(at)


def test_copy_link_round_trip_in_a_fresh_session():
    at = open_train({"n": "80", "delta": "0.5", "order": "max_residual"})
    for _ in range(3):
        at.button(key="next_mistake").click().run()
    query = copied_link(at)
    assert query["n"] == "80" and query["order"] == "max_residual"
    assert query["step"] == str(at.session_state.train_position)
    fresh = open_train(query)
    assert fresh.session_state.train_position == at.session_state.train_position
    assert fresh.number_input(key="delta").value == 0.5
    shown = [line for line in status(at).split("Now ")[1:]]
    assert shown and shown == [line for line in status(fresh).split("Now ")[1:]]


def test_bad_link_values_fall_back_and_are_named():
    at = open_train({"n": "99999", "margin": "abc", "order": "zigzag", "step": "-4"})
    assert at.number_input(key="n").value == 40
    assert at.slider(key="margin").value == 0.1
    assert at.selectbox(key="order").value == "cyclic"
    warnings = " ".join(w.value for w in at.warning)
    for shown in ("n=99999", "margin=abc", "order=zigzag", "step=-4"):
        assert shown in warnings
    assert at.session_state.train_position == 0


def test_label_noise_never_converges_and_shows_bounded_weights():
    at = open_train({"noise": "0.2"})
    at.button(key="run_to_end").click().run()
    assert any("Stopped without converging" in w.value for w in at.warning)
    assert "Not linearly separable" in status(at)
    keys = [chart.proto.id for chart in at.get("plotly_chart")]
    assert any("bounded_chart" in key for key in keys)
    data = with_label_noise(make_separable(n=40, margin=0.1, dim=2, radius=1.0, seed=7), 0.2,
                            seed=8)
    trace = run_perceptron(data.X, data.y, max_updates=5_000, max_epochs=500)
    assert not trace.converged
    assert at.session_state.train_position == trace.n_examined


def test_drawn_points_come_back_from_a_link_and_train():
    points = "0.5,0.5,1;0.6,0.4,1;-0.5,-0.4,-1;-0.3,-0.6,-1"
    at = open_train({"source": "draw", "points": points})
    assert len(at.session_state.drawn_points) == 4
    at.button(key="run_to_end").click().run()
    assert any("Converged" in s.value for s in at.success)
    assert copied_link(at)["points"].count(";") == 3
    at.button(key="draw_undo").click().run()
    assert len(at.session_state.drawn_points) == 3
    at.button(key="draw_clear").click().run()
    assert at.session_state.drawn_points == []
    assert any("each class" in i.value for i in at.info)


def test_quiz_feedback_explains():
    at = open_train()
    at.radio(key="quiz_single_point").set_value("none").run()
    feedback = " ".join(i.value for i in at.info)
    assert "Not quite" in feedback and "‖x‖²" in feedback
    at.radio(key="quiz_single_point").set_value("exactly one").run()
    assert any("Right" in s.value and "score 0" in s.value for s in at.success)


def test_drawn_data_get_their_margin_and_bound():
    from perceptron_core import bound_summary
    import numpy as np

    points = [[0.5, 0.5, 1], [0.6, 0.4, 1], [-0.5, -0.4, -1], [-0.3, -0.6, -1]]
    at = open_train({"source": "draw", "points": ";".join(f"{a},{b},{c}" for a, b, c in points)})
    array = np.array(points, dtype=float)
    summary = bound_summary(array[:, :2], array[:, 2].astype(int), bias=True)
    text = status(at)
    assert f"R = max‖x‖ = {summary.radius:.3f}" in text
    assert f"γ = {summary.margin:.4f}" in text
    assert f"at most {summary.general:,.0f}" in " ".join(p.proto.text for p in at.get("progress"))
