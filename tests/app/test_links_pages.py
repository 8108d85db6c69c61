"""Links that reproduce a view on /bound, /aggressive and /adversary (AppTest, no browser).

Every control on these pages is bound to the URL (``bind="query-params"``, the widget
key is the parameter). A link opens the page with those values; a malformed or
out-of-range value falls back to the default, is dropped from the URL by Streamlit,
and the page names it in a warning.
"""

from __future__ import annotations

import pytest
from app_helpers import copied_link, link_warning, open_page, warning_texts
from streamlit.testing.v1 import AppTest


def widget_values(
    at: AppTest,
    kinds=("toggle", "selectbox", "number_input", "text_input", "slider", "select_slider"),
) -> dict:
    return {w.key: w.value for kind in kinds for w in at.get(kind)}


# ---------------------------------------------------------------------------
# /adversary
# ---------------------------------------------------------------------------

ADVERSARY = "pages/adversary.py"


def test_adversary_link_sets_gamma_d_learner_and_the_forced_mistakes():
    at = open_page(
        ADVERSARY,
        {
            "adv_gamma": "0.1",
            "adv_dim": "200",
            "adv_learner": "Perceptron (Algorithm 1.16, through the origin)",
        },
    )
    assert at.number_input(key="adv_gamma").value == pytest.approx(0.1)
    assert at.number_input(key="adv_dim").value == 200
    assert at.selectbox(key="adv_learner").value == "perceptron"
    assert at.metric[0].value == "100"  # n = min(floor(1/0.1^2), 200)
    assert any("100 of 100 rounds" in m.value for m in at.metric)
    assert not warning_texts(at)
    assert at.query_params["adv_gamma"] == "0.1" and at.query_params["adv_dim"] == "200"


def test_adversary_link_restores_the_students_moves():
    at = open_page(ADVERSARY, {"adv_gamma": "0.1", "adv_dim": "200", "adv_moves": "+-+"})
    assert at.session_state["adv_predictions"] == [1, -1, 1]
    assert any(m.value == "3 of 3 rounds" for m in at.metric)
    assert any("Round 4 of 100" in m.value for m in at.markdown)
    # the next move goes into the URL and into the copied link
    at.button(key="predict_minus").click().run()
    assert at.query_params["adv_moves"] == "+-+-"
    assert copied_link(at)["adv_moves"] == "+-+-"


def test_adversary_moves_typed_with_a_plain_plus_sign_count_as_plus_one():
    # "?adv_moves=+-" typed by hand arrives as " -": '+' means a space in a query string
    at = open_page(ADVERSARY, {"adv_moves": " -"})
    assert at.session_state["adv_predictions"] == [1, -1]
    assert at.query_params["adv_moves"] == "+-"


def test_adversary_malformed_link_falls_back_and_names_every_ignored_value():
    at = open_page(ADVERSARY, {"adv_gamma": "-3", "adv_dim": "abc", "adv_moves": "+x-"})
    assert at.number_input(key="adv_gamma").value == pytest.approx(0.2)
    assert at.number_input(key="adv_dim").value == 50
    assert at.metric[0].value == "25"
    text = link_warning(at)
    assert "adv_gamma=-3" in text and "adv_dim=abc" in text
    assert any("adv_moves=+x-" in w for w in warning_texts(at))
    assert at.session_state["adv_predictions"] == []
    # Streamlit drops the refused values from the URL; our page drops the moves
    assert dict(at.query_params) == {}


def test_adversary_too_many_moves_for_the_game_are_ignored():
    at = open_page(ADVERSARY, {"adv_gamma": "0.5", "adv_moves": "+++++"})  # n = 4
    assert at.metric[0].value == "4"
    assert any("adv_moves=+++++" in w and "n = 4" in w for w in warning_texts(at))
    assert at.session_state["adv_predictions"] == []


def test_adversary_learner_in_the_link_is_its_label_not_its_code_name():
    # a bound selectbox stores the option's label in the URL; the code name is refused
    at = open_page(ADVERSARY, {"adv_learner": "perceptron"})
    assert at.selectbox(key="adv_learner").value == "you"
    assert "adv_learner=perceptron" in link_warning(at)
    # the default learner named by its label is fine (Streamlit just drops it)
    at = open_page(ADVERSARY, {"adv_learner": "You: be the learner"})
    assert not warning_texts(at)


def test_adversary_copied_link_reopens_the_same_view():
    # (In AppTest the URL does not follow a widget change: the browser's frontend
    # writes it. tests/browser/test_browser_links_pages.py checks the address bar.)
    at = open_page(ADVERSARY, {})
    at.number_input(key="adv_gamma").set_value(0.5).run()
    at.selectbox(key="adv_learner").set_value("majority").run()
    link = copied_link(at)
    assert link["adv_gamma"] == "0.5" and link["adv_learner"] == "Majority label seen so far"
    again = open_page(ADVERSARY, link)
    assert not warning_texts(again)
    assert again.number_input(key="adv_gamma").value == pytest.approx(0.5)
    assert again.selectbox(key="adv_learner").value == "majority"
    assert [m.value for m in again.metric] == [m.value for m in at.metric]


# ---------------------------------------------------------------------------
# /aggressive
# ---------------------------------------------------------------------------

AGGRESSIVE = "pages/aggressive.py"


def test_aggressive_link_sets_both_lengths_and_their_results():
    at = open_page(AGGRESSIVE, {"aggressive_T": "10^4 = 10,000", "always_wrong_T": "33"})
    assert at.select_slider(key="aggressive_T").value == 10_000
    assert at.slider(key="always_wrong_T").value == 33
    counts = {m.label: m.value for m in at.metric}
    # powers of two up to 10^4 that the aggressive rule gets wrong
    assert counts["Aggressive rule: mistakes"] == "12"
    assert any(s.value.startswith("33 mistakes in 33 examples") for s in at.success)
    assert not warning_texts(at)


def test_aggressive_malformed_link_falls_back_with_a_warning():
    at = open_page(AGGRESSIVE, {"aggressive_T": "10000", "always_wrong_T": "99"})
    assert at.select_slider(key="aggressive_T").value == 10**6
    assert at.slider(key="always_wrong_T").value == 20
    text = link_warning(at)
    assert "aggressive_T=10000" in text and "always_wrong_T=99" in text
    assert any(s.value.startswith("20 mistakes in 20 examples") for s in at.success)
    assert dict(at.query_params) == {}
    at = open_page(AGGRESSIVE, {"always_wrong_T": "abc"})
    assert "always_wrong_T=abc" in link_warning(at)


def test_aggressive_copied_link_reopens_the_same_view():
    at = open_page(AGGRESSIVE, {})
    at.select_slider(key="aggressive_T").set_value(10**3).run()
    at.slider(key="always_wrong_T").set_value(12).run()
    link = copied_link(at)
    assert link == {"aggressive_T": "10^3 = 1,000", "always_wrong_T": "12"}
    again = open_page(AGGRESSIVE, link)
    assert not warning_texts(again)
    assert widget_values(again) == widget_values(at) == {"aggressive_T": 1000, "always_wrong_T": 12}
    assert [m.value for m in again.metric] == [m.value for m in at.metric]


# ---------------------------------------------------------------------------
# /bound
# ---------------------------------------------------------------------------

BOUND = "pages/bound.py"
DELTA_TAB = ":material/tune: Threshold δ"


def test_bound_link_sets_the_shared_settings_and_the_margin_sweep():
    at = open_page(
        BOUND,
        {
            "bound_bias": "false",
            "bound_n": "100",
            "bound_margin_count": "3",
            "bound_margin_seeds": "2",
            "bound_order": "random (i.i.d. uniform)",
        },
    )
    assert at.toggle(key="bound_bias").value is False
    assert at.number_input(key="bound_n").value == 100
    assert at.number_input(key="bound_margin_count").value == 3
    assert at.selectbox(key="bound_order").value == "random"
    assert any(
        "**6 runs** (3 margins × 2 seeds, n = 100, d = 2)" in m.value and "(R/γ)²" in m.value
        for m in at.markdown
    )
    assert any("All 6 runs converged within (R/γ)²" in s.value for s in at.success)
    assert not warning_texts(at)


def test_bound_link_opens_the_tab_it_names():
    at = open_page(
        BOUND, {"bound_tab": DELTA_TAB, "bound_delta_values": "0, 1", "bound_delta_seeds": "2"}
    )
    assert at.session_state["bound_tab"] == DELTA_TAB
    assert at.text_input(key="bound_delta_values").value == "0, 1"
    assert at.number_input(key="bound_delta_seeds").value == 2
    assert any("All 4 runs converged within bound (1.4)" in s.value for s in at.success)
    assert not at.get("download_button") or [d.key for d in at.get("download_button")] == [
        "bound_delta_csv"
    ]


def test_bound_malformed_link_falls_back_and_names_every_ignored_value():
    at = open_page(
        BOUND,
        {
            "bound_n": "abc",
            "bound_dim": "5000",
            "bound_tab": "nonsense",
            "bound_margin_low": "-1",
            "bound_order": "random",
        },
    )
    values = widget_values(at)
    assert values["bound_n"] == 200 and values["bound_dim"] == 2
    assert values["bound_margin_low"] == pytest.approx(0.02)
    assert values["bound_order"] == "cyclic"
    assert at.session_state["bound_tab"].endswith("Margin sweep")
    text = link_warning(at)
    for part in (
        "bound_n=abc",
        "bound_dim=5000",
        "bound_tab=nonsense",
        "bound_margin_low=-1",
        "bound_order=random",
    ):
        assert part in text
    assert any("All 40 runs" in s.value for s in at.success)
    assert dict(at.query_params) == {}


def test_bound_copied_link_reopens_the_same_view():
    at = open_page(BOUND, {})
    at.toggle(key="bound_bias").set_value(False)
    at.number_input(key="bound_margin_seeds").set_value(2)
    at.run()
    link = copied_link(at)
    assert link["bound_bias"] == "false" and link["bound_margin_seeds"] == "2"
    again = open_page(BOUND, link)
    assert not warning_texts(again)
    assert widget_values(again) == widget_values(at)
    runs = [m.value for m in at.markdown if "runs**" in m.value]
    assert runs and runs == [m.value for m in again.markdown if "runs**" in m.value]


def test_bound_quiz_explains_after_an_answer():
    at = open_page(BOUND, {})
    quiz = ["bound_quiz_scale", "bound_quiz_margin", "bound_quiz_size"]
    for key in quiz:
        assert at.radio(key=key).value is None  # nothing chosen, no feedback yet
    assert not [s for s in at.success if "**Right" in s.value]
    assert not [i for i in at.info if "Not quite" in i.value]

    at.radio(key="bound_quiz_scale").set_value("It does not change")
    at.button(key="bound_quiz_scale_check").click().run()  # an answer counts once checked
    right = [s.value for s in at.success if "**Right" in s.value]
    assert len(right) == 1 and "(R/γ)² is the same" in right[0] and "padded" in right[0]

    at.radio(key="bound_quiz_margin").set_value("It halves")
    at.button(key="bound_quiz_margin_check").click().run()  # an answer counts once checked
    wrong = [i.value for i in at.info if "Not quite" in i.value]
    assert len(wrong) == 1 and "it is divided by 4" in wrong[0] and "(R/γ)²/4" in wrong[0]

    at.radio(key="bound_quiz_size").set_value("With neither")
    at.button(key="bound_quiz_size_check").click().run()  # an answer counts once checked
    right = [s.value for s in at.success if "**Right" in s.value]
    assert len(right) == 2 and any("Only R and the margin appear" in s for s in right)
    assert not at.exception
    # quiz answers are not controls of the view: they stay out of the URL
    assert not any(key in at.query_params for key in quiz)
