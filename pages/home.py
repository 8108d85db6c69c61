"""/ : what the perceptron is, the algorithm, and where each page leads."""

import streamlit as st

from pages.common.guard import page_guard
from pages.common.notation import named_result
from pages.common.page_table import COURSE_ORDER, PAGE_TABLE, page_path
from pages.common.question_bank import QUESTIONS_BY_PAGE
from pages.common.study_path import learn_in_order

with page_guard("home"):
    st.title("Perceptron Lab")
    # Plain text with Unicode, not KaTeX: this paragraph is the largest thing a first view
    # paints, and a Markdown element with math waits for KaTeX's 265 kB script.
    # Vectors in bold upright as in the notes; the whole page is plain text now (no KaTeX).
    st.markdown(
        "**Binary classification**: we are given examples (**x**ᵢ, yᵢ) with feature vectors "
        "**x**ᵢ ∈ ℝᵈ and labels yᵢ ∈ {−1, +1}, and want a rule that labels new points. The "
        "**perceptron** (Rosenblatt, 1958) looks for a hyperplane **w** · **x** + b = 0 with "
        "every +1 example on one side and every −1 example on the other, and predicts "
        "ŷ = sign(**w** · **x** + b). It learns online: it looks at one example at a time and "
        "changes (**w**, b) only when that example fails its test: on the wrong side of the "
        "hyperplane or on it (with a threshold δ > 0, also when yᵢ(**w** · **x**ᵢ + b) is at "
        "most δ)."
    )

    with st.container(border=True, key="algorithm_box"):
        st.markdown(
            "**Algorithm 1.16 (perceptron).** Input: examples (**x**ᵢ, yᵢ), "
            "a start (**w**, b) (usually **0**, 0), a threshold δ ≥ 0."
        )
        # one step per item; the update's two assignments nested under its test
        st.markdown(
            "1. Pick the next example (**x**ᵢ, yᵢ): in order, in a fresh shuffle each pass, at "
            "random, or the most violated one.\n"
            "2. If yᵢ(**w** · **x**ᵢ + b) ≤ δ (a mistake, in the notes' word), update both:\n"
            "    - **w** ← **w** + yᵢ **x**ᵢ\n"
            "    - b ← b + yᵢ\n"
            "3. Otherwise leave (**w**, b) alone. Stop once every example passes the test, "
            "yᵢ(**w** · **x**ᵢ + b) > δ for all i."
        )
        st.markdown(
            "**The bias by padding** (Remark 1.17): with **a**ᵢ = yᵢ(**x**ᵢ, 1) and "
            "the padded weight (**w**, b), the test reads ⟨**a**ᵢ, (**w**, b)⟩ ≤ δ and the "
            "update adds **a**ᵢ: the bias is just one more weight on a constant feature 1."
        )
        st.markdown(
            "**Convention for sign(0)** (Definition 1.12): this app uses "
            "sign(0) = −1, so a point exactly on the hyperplane is **predicted** "
            "−1: right for a −1 point, wrong for a +1 point. The **update test** is a "
            "different thing: it updates when y(**w** · **x** + b) ≤ δ, and "
            "a point on the hyperplane has y(**w** · **x** + b) = 0 ≤ δ, so it "
            "triggers an update whatever its label, even a −1 point the prediction gets right.",
            help=named_result("Definition 1.12"),
        )

    st.markdown(
        "**Why it stops** (Theorem 1.28): suppose the padded examples are separable, and let "
        "**w**\\* be the unit vector with the best margin γ₂: ⟨**a**ᵢ, **w**\\*⟩ ≥ γ₂ > 0 "
        "for every i. "
        "Start at **w**₀ = **0**, b₀ = 0 with threshold δ = 0: then the "
        "perceptron makes at most T(A) = maxᵢ ‖**a**ᵢ‖²/γ₂² updates "
        "(eq. 1.5), in whatever order it looks at the examples (without a bias, "
        "**a**ᵢ = yᵢ**x**ᵢ and this is (R/γ)²). If every example is "
        "examined again and again, the run therefore ends with every example strictly on its "
        "side; every order in this app checks all examples before it declares a run finished. "
        "With another start **w**₀ or a threshold δ > 0 the count is bounded by "
        "(1.4) instead, a larger number.",
        help=named_result("Theorem 1.28")
        + "  \n"
        + named_result("eq. 1.5")
        + "  \n"
        + named_result("bound (1.4)"),
    )
    st.markdown(
        "**In high dimension no learner does better** (Theorem 1.34): for any "
        "**deterministic** learner and margin γ there are min(⌊1/γ²⌋, d) unit examples "
        "with margin at least γ (through the origin) on which it errs on every one. On unit "
        "examples (no bias, **w**₀ = **0**, δ = 0) the perceptron's bound is 1/γ², so when "
        "d ≥ 1/γ² no deterministic learner can promise fewer than ⌊1/γ²⌋ mistakes, the "
        "perceptron's bound rounded down; with fewer dimensions the theorem forces only d.",
        help=named_result("Theorem 1.34"),
    )

    learn_in_order({name: len(questions) for name, questions in QUESTIONS_BY_PAGE.items()})

    st.subheader("Where to go")
    pages = {entry.name: entry for entry in PAGE_TABLE}
    for entry in (pages[name] for name in COURSE_ORDER):
        st.page_link(page_path(entry), label=entry.where_to_go, icon=f":material/{entry.icon}:")

    st.caption(
        "Teaching with it: each lesson page keeps its settings in its link (**Copy link to "
        "this view**; an uploaded file is not in a link: download it to share it), "
        "**Presenter mode** at the top enlarges everything and lets a clicker step through "
        "a run (PageDown, PageUp), and /train exports the run as an offline HTML "
        "animation."
    )
