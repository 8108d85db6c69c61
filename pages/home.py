"""/ : what the perceptron is, the algorithm, and where each page leads."""

import streamlit as st

import pages.common  # noqa: F401  (deep links on a fresh server: pages/common/routing.py)
from pages.common import COURSE_ORDER, PAGE_TABLE, named_result, page_guard, page_path

with page_guard("home"):
    st.title("Perceptron Lab")
    # Plain text with Unicode, not KaTeX: this paragraph is the largest thing a first view
    # paints, and a Markdown element with math waits for KaTeX's 265 kB script (issue 21).
    # Vectors in bold upright as in the notes (and as KaTeX's \mathbf draws them below).
    st.markdown(
        "**Binary classification**: we are given examples (**x**ᵢ, yᵢ) with feature vectors "
        "**x**ᵢ ∈ ℝᵈ and labels yᵢ ∈ {−1, +1}, and want a rule that labels new points. The "
        "**perceptron** (Rosenblatt, 1958) looks for a hyperplane **w** · **x** + b = 0 with "
        "every +1 example on one side and every −1 example on the other, and predicts "
        "ŷ = sign(**w** · **x** + b). It learns online: it looks at one example at a time and "
        "changes (**w**, b) only when that example is on the wrong side.")

    with st.container(border=True, key="algorithm_box"):
        st.markdown("**Algorithm 1.16 (perceptron).** Input: examples $(\\mathbf x_i, y_i)$, "
                    "a start $(\\mathbf w, b)$ (usually $\\mathbf 0, 0$), a threshold $\\delta\\ge 0$.")
        st.markdown(
            "1. For $t = 1, 2, \\dots$ pick an example index $I_t$ (in order, shuffled, or the most "
            "violated one).\n"
            "2. If $y_{I_t}(\\mathbf w\\cdot\\mathbf x_{I_t} + b) \\le \\delta$ — a mistake:\n"
            "3. $\\quad\\mathbf w \\leftarrow \\mathbf w + y_{I_t}\\,\\mathbf x_{I_t}$\n"
            "4. $\\quad b \\leftarrow b + y_{I_t}$\n"
            "5. Otherwise leave $(\\mathbf w, b)$ alone. Stop once a full pass makes no mistake.")
        st.markdown(
            "**The bias by padding** (Remark 1.17): with $\\mathbf a_i = y_i(\\mathbf x_i, 1)$ and "
            "the padded weight $(\\mathbf w, b)$, the test reads $\\langle\\mathbf a_i,(\\mathbf w,b)"
            "\\rangle\\le\\delta$ and the update adds $\\mathbf a_i$: the bias is just one more "
            "weight on a constant feature 1.")
        st.markdown(
            "**Convention for sign(0)** (Definition 1.12): this app uses "
            "$\\operatorname{sign}(0) = -1$, so a point exactly on the hyperplane is **predicted** "
            "$-1$: right for a $-1$ point, wrong for a $+1$ point. The **update test** is a "
            "different thing: it updates when $y(\\mathbf w\\cdot\\mathbf x+b)\\le\\delta$, and "
            "a point on the hyperplane has $y(\\mathbf w\\cdot\\mathbf x+b) = 0\\le\\delta$, so it "
            "triggers an update whatever its label, even a $-1$ point the prediction gets right.",
            help=named_result("Definition 1.12"))

    st.markdown(
        "**Why it stops** (Theorem 1.28): suppose some unit vector $\\mathbf w^*$ has "
        "$\\langle\\mathbf a_i,\\mathbf w^*\\rangle\\ge\\gamma_2>0$ for every padded example. "
        "Start at $\\mathbf w_0 = \\mathbf 0, b_0 = 0$ with threshold $\\delta = 0$: then the "
        "perceptron makes at most $T(A)=\\max_i\\|\\mathbf a_i\\|^2/\\gamma_2^2$ updates "
        "(eq. 1.5), in whatever order it looks at the examples (without a bias, "
        "$\\mathbf a_i = y_i\\mathbf x_i$ and this is $(R/\\gamma)^2$). If every example is "
        "examined again and again, the run therefore ends with every example strictly on its "
        "side; every order in this app checks all examples before it declares a run finished. "
        "With another start $\\mathbf w_0$ or a threshold $\\delta>0$ the count is bounded by "
        "(1.4) instead, a larger number.",
        help=named_result("Theorem 1.28") + "  \n" + named_result("eq. 1.5") + "  \n"
        + named_result("bound (1.4)"))
    st.markdown(
        "**No learner does much better** (Theorem 1.34): for any **deterministic** learner and "
        "margin $\\gamma$ there are $\\min(\\lfloor 1/\\gamma^2\\rfloor, d)$ unit examples "
        "with margin at least $\\gamma$ (through the origin) on which it errs every time, "
        "while on unit examples (no bias, $\\mathbf w_0 = \\mathbf 0$, $\\delta = 0$) the "
        "perceptron's bound is $1/\\gamma^2$.",
        help=named_result("Theorem 1.34"))

    st.subheader("Where to go")
    pages = {entry.name: entry for entry in PAGE_TABLE}
    for entry in (pages[name] for name in COURSE_ORDER):
        st.page_link(page_path(entry), label=entry.where_to_go, icon=f":material/{entry.icon}:")

    st.caption("Teaching with it: every page's settings live in its link (**Copy link to this view**), "
               "**Presenter mode** at the top enlarges everything and lets a clicker step through "
               "/train (PageDown, PageUp), and /train exports the run as an offline HTML animation.")
