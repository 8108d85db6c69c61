"""The /adversary page through streamlit.testing (no browser)."""

from __future__ import annotations

import pytest
from app_helpers import (
    assert_every_widget_has_a_key,
    open_page,
    plotly_array,
    plotly_specs,
    static_tables,
    trace_named,
)
from streamlit.testing.v1 import AppTest

from perceptron_core import constructions as cx

PAGE = "pages/adversary.py"


def _click(at: AppTest, key: str, times: int = 1) -> AppTest:
    for _ in range(times):
        at.button(key=key).click().run()
        assert not at.exception, [e.message for e in at.exception]
    return at


def _rounds(at: AppTest, *, numbers: bool = True):
    """The table of rounds: one static HTML table (no dataframe: Arrow and the data grid cost
    a first visit 1.2 MB), its integer columns read back as ints unless ``numbers`` is off."""
    assert not at.dataframe
    tables = static_tables(at, numbers=numbers)
    assert len(tables) == 1
    return tables[0]


def _certificate(at: AppTest) -> str | None:
    texts = [s.value for s in at.success if "Certificate checked" in s.value]
    return texts[0] if texts else None


def test_page_renders_in_you_mode_with_n_shown():
    at = open_page(PAGE)
    assert at.selectbox(key="adv_learner").value == "you"
    assert at.metric[0].value == "25"  # gamma = 0.2, d = 50: n = min(25, 50)
    assert any("Round 1 of 25" in m.value for m in at.markdown)
    assert not static_tables(at) and _certificate(at) is None


def test_every_widget_has_a_key():
    at = open_page(PAGE)
    _click(at, "predict_plus")
    assert_every_widget_has_a_key(at, at_least=7)


@pytest.mark.parametrize("k", [1, 3, 5])
def test_predict_plus_k_times_gives_k_mistakes_labelled_minus_one(k):
    at = _click(open_page(PAGE), "predict_plus", k)
    table = _rounds(at)
    assert len(table) == k
    assert (table["prediction"] == 1).all() and (table["label yᵢ"] == -1).all()
    assert table["mistakes so far"].tolist() == list(range(1, k + 1))
    assert at.session_state["adv_predictions"] == [1] * k
    assert any(f"Round {k + 1} of 25" in m.value for m in at.markdown)


def test_predict_minus_gets_label_plus_one():
    at = _click(_click(open_page(PAGE), "predict_plus"), "predict_minus")
    table = _rounds(at)
    assert table["label yᵢ"].tolist() == [-1, 1]
    assert table["mistakes so far"].iloc[-1] == 2
    text = _rounds(at, numbers=False)  # signed as the grid's "%+d" showed them
    assert text["prediction"].tolist() == ["+1", "-1"] and text["label yᵢ"].tolist() == ["-1", "+1"]
    assert text["round i"].tolist() == ["1", "2"]
    assert list(text.columns) == ["round i", "prediction", "label yᵢ", "mistakes so far"]
    assert "in round i the adversary shows eᵢ" in text.attrs["caption"]


def test_all_rounds_by_hand_then_certificate():
    at = open_page(PAGE)
    at.number_input(key="adv_gamma").set_value(0.5).run()  # n = 4
    assert at.metric[0].value == "4"
    _click(at, "predict_plus", 2)
    _click(at, "predict_minus", 2)
    assert at.button(key="predict_plus").disabled
    table = _rounds(at)
    assert table["label yᵢ"].tolist() == [-1, -1, 1, 1]
    text = _certificate(at)
    assert text is not None
    assert "‖w\\*‖² = n·γ² = 4·0.25 = 1, so ‖w\\*‖ = 1." in text
    assert "= γ = 0.5." in text
    assert "4 mistakes out of 4" in text


def test_changing_gamma_or_d_and_reset_start_again():
    at = _click(open_page(PAGE), "predict_plus", 2)
    at.number_input(key="adv_dim").set_value(10).run()
    assert at.session_state["adv_predictions"] == []
    _click(at, "predict_minus", 3)
    assert len(_rounds(at)) == 3
    _click(at, "adv_reset")
    assert at.session_state["adv_predictions"] == [] and not static_tables(at)


def test_let_the_perceptron_finish_a_large_game():
    at = open_page(PAGE)
    at.number_input(key="adv_gamma").set_value(0.03).run()
    at.number_input(key="adv_dim").set_value(1000).run()
    assert at.metric[0].value == "1000"  # floor(1/0.03^2) = 1111, capped by d
    _click(at, "predict_plus", 3)
    assert len(_rounds(at)) == 3
    _click(at, "adv_finish")
    predictions = at.session_state["adv_predictions"]
    assert len(predictions) == 1000 and predictions[:3] == [1, 1, 1]
    table = _rounds(at)
    assert len(table) <= 10 and table["mistakes so far"].iloc[-1] == 1000  # compact tail
    assert "1000 mistakes out of 1000" in _certificate(at)


@pytest.mark.parametrize("learner", sorted(cx.LEARNERS))
def test_built_in_learners_make_n_mistakes(learner):
    at = open_page(PAGE)
    at.selectbox(key="adv_learner").set_value(learner).run()
    assert not at.exception, [e.message for e in at.exception]
    table = _rounds(at)
    assert len(table) == 25 and table["mistakes so far"].iloc[-1] == 25
    assert (table["label yᵢ"] == -table["prediction"]).all()
    assert any(m.value == "25 of 25 rounds" for m in at.metric)
    text = _certificate(at)
    assert "‖w\\*‖² = n·γ² = 25·0.04 = 1, so ‖w\\*‖ = 1." in text
    assert "= γ = 0.2." in text


def test_learner_menu_is_built_from_the_core_table():
    menu = open_page(PAGE).selectbox(key="adv_learner")
    assert menu.options[0] == "You: be the learner"
    assert len(menu.options) == 1 + len(cx.LEARNERS)


def test_forced_mistakes_chart_meets_the_bound():
    at = open_page(PAGE)
    spec = [
        s
        for s in plotly_specs(at)
        if any((t.get("name") or "").startswith("perceptron upper bound") for t in s["data"])
    ][0]
    assert spec["layout"]["xaxis"]["type"] == "log" and spec["layout"]["yaxis"]["type"] == "log"
    bound = trace_named(spec, "perceptron upper bound 1/γ²")
    forced = trace_named(spec, "mistakes forced")
    for x, y_bound, y_forced in zip(
        plotly_array(bound["x"]), plotly_array(bound["y"]), plotly_array(forced["y"])
    ):
        assert y_forced <= y_bound + 1e-9
        if x <= 50:
            assert y_forced == int(x)  # meet (up to the floor) while 1/gamma^2 <= d
        else:
            assert y_forced == 50


def test_invalid_gamma_never_crashes():
    at = open_page(PAGE)
    at.number_input(key="adv_gamma").set_value(1.0).run()  # n = 1
    assert not at.exception and at.metric[0].value == "1"
