"""AppTest of /train's lecture-hall features: links, bad link values, noise, drawn points, quiz."""

from __future__ import annotations

import numpy as np
from app_helpers import open_page, player_payload, plotly_array, plotly_specs

from perceptron_core import make_separable, run_perceptron, with_label_noise

PAGE = "pages/train.py"


def test_a_link_restores_data_algorithm_and_step():
    at = open_page(
        PAGE,
        {
            "n": "60",
            "margin": "0.2",
            "order": "permuted",
            "order_seed": "3",
            "bias": "false",
            "through_origin": "true",
            "step": "7",
            "speed": "fast",
        },
    )
    assert at.number_input(key="n").value == 60
    assert at.slider(key="margin").value == 0.2
    assert at.selectbox(key="order").value == "permuted"
    assert at.toggle(key="bias").value is False
    sent = player_payload(at, "train")
    assert sent["player"]["start_step"] == 7 and sent["player"]["speed"] == "fast"
    data = make_separable(n=60, margin=0.2, dim=2, radius=1.0, seed=7, through_origin=True)
    trace = run_perceptron(
        data.X, data.y, bias=False, order="permuted", seed=3, max_updates=5_000, max_epochs=500
    )
    assert sent["updates"]["indices"] == trace.update_indices.tolist()
    assert sent["bias"] is False
    assert not at.warning


def test_the_link_step_applies_to_the_first_run_only():
    at = open_page(PAGE, {"step": "5"})
    assert player_payload(at, "train")["player"]["start_step"] == 5
    at.number_input(key="n").set_value(50).run()  # a new run starts at 0
    assert player_payload(at, "train")["player"]["start_step"] is None


def test_bad_link_values_fall_back_and_are_named():
    at = open_page(
        PAGE, {"n": "99999", "margin": "abc", "order": "zigzag", "step": "-4", "speed": "warp"}
    )
    assert at.number_input(key="n").value == 40
    assert at.slider(key="margin").value == 0.1
    assert at.selectbox(key="order").value == "cyclic"
    warnings = " ".join(w.value for w in at.warning)
    for shown in ("n=99999", "margin=abc", "order=zigzag", "step=-4", "speed=warp"):
        assert shown in warnings
    sent = player_payload(at, "train")
    assert sent["player"]["start_step"] is None and sent["player"]["speed"] == "medium"


def test_a_step_beyond_the_run_or_in_other_digits_is_refused():
    for raw in ("100000", "²", "①", "7.5"):
        at = open_page(PAGE, {"step": raw})
        assert player_payload(at, "train")["player"]["start_step"] is None
        assert any(f"step={raw}" in w.value for w in at.warning)


def test_label_noise_never_converges_and_sends_bounded_weights():
    at = open_page(PAGE, {"noise": "0.2"})
    sent = player_payload(at, "train")
    assert "Stopped without converging" in sent["end_text"]
    assert "No line separates these data" in sent["facts"]
    assert sent["proof"] is None and sent["path"] is not None
    data = with_label_noise(
        make_separable(n=40, margin=0.1, dim=2, radius=1.0, seed=7), 0.2, seed=8
    )
    trace = run_perceptron(data.X, data.y, max_updates=5_000, max_epochs=500)
    assert not trace.converged
    assert sent["player"]["n_examined"] == trace.n_examined
    assert len(sent["path"]["norms"]) == trace.n_updates + 1


def test_drawn_points_come_back_from_a_link_and_train():
    points = "0.5,0.5,1;0.6,0.4,1;-0.5,-0.4,-1;-0.3,-0.6,-1"
    at = open_page(PAGE, {"source": "draw", "points": points})
    assert len(at.session_state.drawn_points) == 4
    sent = player_payload(at, "train")
    assert sent["converged"] and "Converged" in sent["end_text"]
    assert sent["X"] == [[0.5, 0.5], [0.6, 0.4], [-0.5, -0.4], [-0.3, -0.6]]
    assert at.query_params["points"] == points  # the link keeps the drawn points
    at.button(key="draw_undo").click().run()
    assert len(at.session_state.drawn_points) == 3
    assert at.query_params["points"].count(";") == 2
    at.button(key="draw_clear").click().run()
    assert at.session_state.drawn_points == []
    assert any("One point is enough to train" in i.value for i in at.info)
    assert not at.get("bidi_component")  # no points: no player


def test_quiz_feedback_explains():
    at = open_page(PAGE)
    at.radio(key="quiz_single_point").set_value("none")
    at.button(key="quiz_single_point_check").click().run()  # the form's Check answers
    feedback = " ".join(i.value for i in at.info)
    assert "Not quite: you chose none" in feedback and "‖x‖²" in feedback
    at.radio(key="quiz_single_point").set_value("exactly one")
    at.button(key="quiz_single_point_check").click().run()
    assert any("Right" in s.value and "score 0" in s.value for s in at.success)


def test_drawn_data_get_their_margin_and_bound():
    from perceptron_core import bound_summary

    points = [[0.5, 0.5, 1], [0.6, 0.4, 1], [-0.5, -0.4, -1], [-0.3, -0.6, -1]]
    at = open_page(
        PAGE, {"source": "draw", "points": ";".join(f"{a},{b},{c}" for a, b, c in points)}
    )
    array = np.array(points, dtype=float)
    summary = bound_summary(array[:, :2], array[:, 2].astype(int), bias=True)
    sent = player_payload(at, "train")
    assert f"R = max‖x‖ = {summary.radius:.3f}" in sent["facts"]
    assert f"γ = {summary.margin:.4f}" in sent["facts"]
    assert sent["bound"]["value"] == summary.bound


def test_the_order_menu_is_in_words_and_the_link_keeps_the_plain_name():
    from perceptron_core.perceptron import GREEDY_ORDERS, ORDERS, STREAM_ORDERS

    at = open_page(PAGE, {"order": "max_distance"})  # a link written before the menu had words
    menu = at.selectbox(key="order")
    assert menu.value == "max_distance" and not at.warning
    # every order the core can run is offered, each shown in words (not its plain name)
    assert set(ORDERS) == set(STREAM_ORDERS) | set(GREEDY_ORDERS)
    assert menu.options == [ORDERS[name] for name in ORDERS]
    assert all(" " in shown for shown in menu.options)
    menu.set_value("permuted").run()
    assert at.query_params["order"] in ("permuted", ["permuted"])  # the plain name, as before
    trace = player_payload(at, "train")["updates"]["indices"]
    data = make_separable(n=40, margin=0.1, dim=2, radius=1.0, seed=7)
    expected = run_perceptron(
        data.X, data.y, bias=True, order="permuted", seed=0, max_updates=5_000, max_epochs=500
    )
    assert trace == expected.update_indices.tolist()
    at.selectbox(key="order").set_value("cyclic").run()  # the default leaves the link
    assert "order" not in at.query_params


def test_the_drawing_names_each_point_as_the_player_numbers_it():
    """Hovering a drawn point says "example i": the number the player's step sentence
    uses for that point (its row in the payload's X, plus 1; issue 22, x_1 .. x_n)."""
    points = "0.5,0.5,1;-0.5,-0.4,-1;0.6,0.4,1;-0.3,-0.6,-1;0.1,0.7,1"
    at = open_page(PAGE, {"source": "draw", "points": points})
    X = np.asarray(player_payload(at, "train")["X"])
    numbered = {}
    for spec in plotly_specs(at):
        for trace in spec["data"]:
            if "example %{customdata}" in (trace.get("hovertemplate") or ""):
                shown = plotly_array(trace["customdata"]).astype(int)
                xy = np.column_stack([plotly_array(trace["x"]), plotly_array(trace["y"])])
                numbered.update(zip(shown.tolist(), xy.tolist()))
    assert sorted(numbered) == list(range(1, len(X) + 1))
    for number, xy in numbered.items():
        np.testing.assert_array_equal(xy, X[number - 1])
