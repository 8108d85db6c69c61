"""/aggressive: aggressive updates never stop (Remark 1.19, Exercise 1.20). A pipeline: the
sequence (a table), its mistakes up to a length T from the link (one cached closed form, two
charts), the hyperplane swinging, then Exercise 1.20's sequence of a length from the link."""

import numpy as np
import streamlit as st

from pages.aggressive_parts.settings import SETTINGS, T_CHOICES
from pages.common.guard import page_guard
from pages.common.linked_controls import PageLink
from pages.common.notation import named_results
from pages.common.page_basics import core_call, page_header, show_chart
from pages.common.question_bank import QUESTIONS_BY_PAGE, quiz
from pages.common.static_table import static_table
from perceptron_core import constructions as cx
from perceptron_core.viz import aggressive as viz

TABLE_ROWS, SWING_STEPS = 40, 70  # rows of the first-examples table, steps of the swing


counterexample = st.cache_data(show_spinner=False, max_entries=len(T_CHOICES), ttl=3600)(
    cx.aggressive_counterexample
)
always_wrong = st.cache_data(show_spinner=False, max_entries=64, ttl=3600)(cx.always_wrong_sequence)


@st.cache_data(show_spinner=False, max_entries=4, ttl=3600)
def first_examples(rows: int) -> dict[str, list]:
    """Table of the first examples of Remark 1.19 with both rules' verdicts (column -> values)."""
    k = np.arange(1, rows + 1)
    x, scores = cx.counterexample_x(k), cx.aggressive_score(k)
    standard = set(cx.aggressive_counterexample(rows).mistakes_standard.tolist())
    # four narrow columns: the table fits a 360 px phone without scrolling sideways
    return {
        "example k": k.tolist(),
        "xₖ": ["−2x" if v < 0 else "x" for v in x],
        "aggressive rule: score": [
            str(int(v)).replace("-", "−") + (" mistake" if v <= 0 else "") for v in scores
        ],
        "mistake-driven rule": ["mistake" if v in standard else "" for v in k],
    }


@st.cache_data(show_spinner=False, max_entries=4, ttl=3600)
def swing_figure(steps: int):
    return viz.swing_animation(cx.counterexample_x(np.arange(1, steps + 1)))


def show_mistakes(result: cx.AggressiveCounterexample, T: int) -> None:
    """Both rules' mistakes up to T, then the running average that explains them."""
    show_chart(viz.cumulative_mistakes_figure(result, T), key="aggressive_cumulative")
    cols = st.columns(2)
    cols[0].metric(
        "Mistake-driven rule: mistakes",
        len(result.mistakes_standard),
        help=f"on examples {viz.example_list(result.mistakes_standard)}; "
        "afterwards both examples are correct forever",
    )
    cols[1].metric(
        "Aggressive rule: mistakes",
        len(result.mistakes_aggressive),
        help=f"on examples {viz.example_list(result.mistakes_aggressive)}",
    )
    st.markdown(viz.mistakes_text(result))
    st.header("Why the powers of two: the running average")
    st.markdown(viz.AVERAGE)
    show_chart(
        viz.running_average_figure(result.t_grid, result.average_products),
        key="aggressive_running_average",
    )
    st.caption(
        "Shown at every example number k up to 64, and just before, at and after each power of two."
    )


def show_swing() -> None:
    st.header("Watch the aggressive hyperplane swing")
    st.markdown(
        "Take x = (1, 0) in the plane: the examples are the two points (1, 0) and (−2, 0), both "
        "labelled +1. After k examples the aggressive weights are w = (Sₖ, 0) and b = k, with Sₖ "
        "the sum of the first k examples' first coordinates (each 1 or −2), so the hyperplane "
        "w·x + b = 0 is a vertical line. Press **Play** (or drag the slider). From example 13 "
        "on, each ordinary step pushes the line a little to the right, towards x₁ = −1, and "
        "(−2, 0) falls on the wrong side at example 30. Example 32, a power of two, throws "
        "the line back to the left past −2, so (−2, 0) is right again until example 36; "
        "example 64 throws it back too, but no longer past −2: from example 36 on, (−2, 0) "
        "stays on the wrong side, so every power of two, which shows it, is a mistake."
    )
    show_chart(swing_figure(SWING_STEPS), key="aggressive_swing")
    st.caption(
        "Shaded: the half-plane predicted +1. Black: the line after this step; grey dashed: "
        "before it. Orange ring: the example of this step. Vermillion square: a point the new "
        "line gets wrong (a point on the line counts as wrong, since sign(0) = −1). When w = 0 "
        "there is no line and every point is predicted sign(b)."
    )


def show_always_wrong(sequence: cx.AlwaysWrongSequence, steps: int) -> None:
    show_chart(viz.always_wrong_figure(sequence), key="aggressive_always_wrong")
    w, b = sequence.separator
    st.success(
        f"{int(np.sum(sequence.mistakes))} mistakes in {steps} examples; the separator "
        f"w = {w:g}, b = {b:g} gives every example a score of at least "
        f"{float(np.min(sequence.y * (w * sequence.x + b))):g} > 0.",
        icon=":material/check_circle:",
    )


def main(link: PageLink) -> None:
    page_header(
        ":material/all_inclusive: Aggressive updates never stop",
        "The perceptron only touches its weights when it gets an example wrong. That looks "
        "lazy, but it is exactly what makes it stop: once every example is handled correctly, "
        "nothing moves any more. This page shows what goes wrong with the **aggressive** variant "
        "that adds y·x to the weights after **every** example, right or wrong (Remark 1.19 of "
        "the notes).",
    )
    link_slot = st.container(key="aggressive_link_slot")  # filled once every control is known
    named_results(
        "Remark 1.19",
        "Exercise 1.20",
        "Theorem 1.28",
        "bound (1.4)",
        "Definition 1.12",
        label="The results this page uses, one line each",
    )
    st.info(
        "**If it ain't broke, don't fix it.** Think of a student who rewrites every answer that "
        "was already marked correct. Each rewrite drags the answers towards the most recent "
        "question, so an old question that was fine can become wrong again. The mistake-driven "
        "perceptron never does this: a correct prediction leaves (w, b) alone.",
        icon=":material/lightbulb:",
    )
    st.header("The sequence of Remark 1.19")
    st.markdown(viz.SEQUENCE)
    st.subheader("The first examples")
    st.caption(
        "Computed with x = 1 in one dimension (every quantity only uses inner products with x). "
        "xₖ = −2x exactly when k is a power of two. The aggressive score of example k is its "
        "score under the weights built from examples 1 to k − 1; a score ≤ 0 is a mistake."
    )
    table = core_call(first_examples, TABLE_ROWS)
    if table is not None:
        static_table(
            table,
            tall=True,
            caption=f"Remark 1.19's sequence, examples 1 to {TABLE_ROWS}: both rules' verdicts",
        )  # HTML: no Arrow, no data grid
    st.header("Mistakes along the sequence")
    T = SETTINGS.draw(link, "aggressive_T")
    result = core_call(counterexample, T)
    if result is not None:
        show_mistakes(result, T)
    show_swing()

    st.header("Exercise 1.20: a mistake on every single example")
    st.markdown(viz.EXERCISE)
    steps = SETTINGS.draw(link, "always_wrong_T")
    sequence = core_call(always_wrong, steps)
    if sequence is not None:
        show_always_wrong(sequence, steps)
    with link_slot:
        link.copy_control("aggressive_copy_link")
        link.report()


page_link = PageLink()  # before any widget reads the URL
with page_guard("aggressive"):
    main(page_link)
    quiz(QUESTIONS_BY_PAGE["aggressive"])
