"""The registry of linked controls (pages/common.py, "Linked controls"): one declaration per
control makes it cleaned when a link carries a value it cannot take, named in the page's
one warning when ignored, and written into the copied link (a select widget by its label).
Also the quiz helper every page can use.

The rules are checked against the widget calls they come from; the page behaviour through
a small script run by streamlit.testing (AppTest), so nothing here depends on a real page.
"""

from __future__ import annotations

import pytest
import streamlit as st
from app_helpers import copied_link, link_warning, link_warnings
from streamlit.testing.v1 import AppTest

from pages.common.link_cleaning import (
    LinkParam,
    bool_param,
    choice_param,
    float_param,
    int_param,
    text_param,
)
from pages.common.linked_controls import LINK_TEXT_CHARS, link_rule

# ---------------------------------------------------------------------------
# The rule a widget call implies
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "widget, args, kwargs, rule",
    [
        (st.number_input, ("n", 2, 300, 40), {"step": 10}, int_param(2, 300, 40)),
        (
            st.number_input,
            ("γ",),
            {"min_value": 0.05, "max_value": 0.9, "value": 0.1},
            float_param(0.05, 0.9, 0.1),
        ),
        (st.number_input, ("seed", 0, 100), {}, int_param(0, 100, 0)),  # value="min"
        (st.number_input, ("x", 0, 10, 1, 0.5), {}, float_param(0, 10, 1)),  # a float step
        (st.slider, ("η", 0.05, 2.0, 1.0, 0.05), {}, float_param(0.05, 2.0, 1.0)),
        (st.slider, ("T",), {"min_value": 5, "max_value": 60}, int_param(5, 60, 5)),
        (st.toggle, ("on", True), {}, bool_param(True)),
        (st.checkbox, ("off",), {}, bool_param(False)),
        (st.text_input, ("list", "1, 2"), {}, text_param(LINK_TEXT_CHARS, "1, 2")),
        (st.text_input, ("bits",), {"max_chars": 3}, text_param(3, "")),
    ],
)
def test_a_widget_call_gives_its_link_rule(widget, args, kwargs, rule):
    assert link_rule(widget, args, kwargs) == rule


def test_a_select_widget_is_linked_by_its_labels():
    labels = {"a": "Apple", "b": "Banana", "c": "Cherry"}
    rule = link_rule(st.selectbox, ("fruit", list(labels)), {"index": 1, "format_func": labels.get})
    assert rule == choice_param(["Apple", "Banana", "Cherry"], "Banana")
    rule = link_rule(
        st.select_slider,
        ("T",),
        {"options": [100, 1000, 10_000], "value": 1000, "format_func": "{:,}".format},
    )
    assert rule == choice_param(["100", "1,000", "10,000"], "1,000")
    assert link_rule(st.radio, ("r", ["x", "y"]), {}) == choice_param(["x", "y"], "x")


def test_a_widget_with_no_rule_must_be_given_one():
    with pytest.raises(ValueError, match="pass rule="):
        link_rule(st.color_picker, ("colour",), {})
    assert isinstance(int_param(0, 1, 0), LinkParam)


# ---------------------------------------------------------------------------
# A page that declares one control per line
# ---------------------------------------------------------------------------


def linked_page():
    import streamlit as st

    from pages.common.link_cleaning import int_param
    from pages.common.linked_controls import PageLink
    from pages.player import link_step

    labels = {"cyc": "cyclic order", "rnd": "random order"}
    link = PageLink(step=int_param(0, 10**9, 0))  # a value that is not a widget
    slot = st.container()
    n = link.control(st.number_input, "points", 2, 300, 40, key="n")
    ratio = link.control(st.slider, "ratio", 0.0, 1.0, 0.5, 0.05, key="ratio")
    order = link.control(st.selectbox, "order", list(labels), format_func=labels.get, key="order")
    flag = link.control(st.toggle, "flag", True, key="flag")
    words = link.control(st.text_input, "words", "hello", key="words")
    link.write("drawn", "1,2" if flag else "")  # a value of the page's own, in the link
    link_step("linked", link.values, 10, notices=link)  # a bad step= joins the one warning
    st.markdown(f"values: {n} {ratio} {order} {flag} {words}")
    link.copy_control(
        "copy", {"drawn": st.query_params["drawn"]} if "drawn" in st.query_params else None
    )
    link.report(slot)


def open_linked(params: dict[str, str]) -> AppTest:
    at = AppTest.from_function(linked_page, default_timeout=60)
    at.query_params.update(params)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def values(at: AppTest) -> str:
    return next(m.value for m in at.markdown if m.value.startswith("values:"))


def test_values_a_control_cannot_take_are_cleaned_and_named_in_one_warning():
    at = open_linked(
        {
            "n": "60.7",
            "ratio": "7",
            "order": "rnd",
            "flag": "maybe",
            "words": "x" * (LINK_TEXT_CHARS + 1),
            "step": "²",
        }
    )
    assert values(at) == "values: 40 0.5 cyc True hello"  # every control at its default
    text = link_warning(at)
    for part in (
        "n=60.7 (not a whole number; used the default 40)",
        "ratio=7 (outside 0 to 1; used the default 0.5)",
        "order=rnd (not one of the choices; used the default cyclic order)",
        "flag=maybe (not true or false",
        "words=xxx",
        "step=²",
    ):
        assert part in text, (part, text)
    assert "x" * 50 not in text  # a long value is cut
    assert set(at.query_params) == {"drawn"}  # the ignored values left the URL


def test_accepted_values_open_the_view_and_are_not_named():
    at = open_linked(
        {
            "n": "60",
            "ratio": "0.25",
            "order": "random order",
            "flag": "false",
            "words": "bye",
            "step": "3",
        }
    )
    assert values(at) == "values: 60 0.25 rnd False bye"
    assert not link_warnings(at)
    # a select widget's default named by its label is no ignored value either
    assert not link_warnings(open_linked({"order": "cyclic order", "n": "40"}))


def test_every_control_is_in_the_copied_link_and_it_reopens_the_same_view():
    at = open_linked({})
    at.number_input(key="n").set_value(75)
    at.selectbox(key="order").set_value("rnd")
    at.text_input(key="words").set_value("again").run()
    link = copied_link(at)
    assert link == {
        "n": "75",
        "ratio": "0.5",
        "order": "random order",
        "flag": "true",
        "words": "again",
        "drawn": "1,2",
    }
    again = open_linked(link)
    assert values(again) == values(at) == "values: 75 0.5 rnd True again"
    assert not link_warnings(again)
    at.toggle(key="flag").set_value(False).run()
    assert copied_link(at)["flag"] == "false" and "drawn" not in copied_link(at)


# ---------------------------------------------------------------------------
# The quiz helper
# ---------------------------------------------------------------------------


def quiz_page():
    from pages.common.quizzes import QuizQuestion, quiz

    quiz(
        [
            QuizQuestion(
                "q_scale",
                "Scale every x by 10: the updates?",
                ("It is multiplied by 100", "It does not change"),
                "It does not change",
                "Every score is multiplied by 100, which keeps its sign.",
            ),
            QuizQuestion(
                "q_margin",
                "The margin doubles: the bound?",
                ("It halves", "It is divided by 4"),
                "It is divided by 4",
                "γ enters squared.",
            ),
        ]
    )


def test_the_quiz_explains_right_and_wrong_answers_and_stays_out_of_the_link():
    at = AppTest.from_function(quiz_page, default_timeout=60).run()
    assert [r.value for r in at.radio] == [None, None] and not at.success and not at.info
    assert at.radio(key="q_scale").label.startswith("1. Scale")
    at.radio(key="q_scale").set_value("It does not change")
    at.button(key="q_scale_check").click().run()  # the form's Check answers
    at.radio(key="q_margin").set_value("It halves")
    at.button(key="q_margin_check").click().run()
    assert [s.value for s in at.success] == [
        "**Right: it does not change.** Every score is multiplied by 100, which keeps its sign."
    ]
    assert [i.value for i in at.info] == [
        "**Not quite: you chose it halves; the answer is it is divided by 4.** γ enters squared."
    ]
    assert not dict(at.query_params)
