"""What /bound says: the opening, the bound of each bias setting, each tab's prose (what a
finished sweep says is in pages/bound_parts/views.py; the quiz is in
pages/common/question_bank.py). Not a page itself."""

from __future__ import annotations

import streamlit as st

from pages.common import named_result
from perceptron_core.viz import bound as viz


def opening(bias: bool) -> str:
    """The first paragraph: the theorem, and the bound of the current bias setting."""
    return (
        "The convergence theorem (Theorem 1.28) bounds the number of updates the perceptron "
        "makes on separable data, whatever the number of points or their dimension. "
        # plain text, no KaTeX: this paragraph is the page's largest first paint (issue 21)
        + ("With **Learn a bias** on, as now, the runs start at (w, b) = 0 with threshold "
           "δ = 0 and the bound they are measured against is T(A) = (R² + 1)/γ₂² (eq. 1.5), "
           "with γ₂ the margin of the padded examples." if bias else
           "With **Learn a bias** off, as now, the runs start at w = 0 with threshold δ = 0 "
           "and the bound they are measured against is (R/γ)², with γ the margin through "
           "the origin.")
        + " Here we run it many times on fresh data with a known margin and put every update "
        "count next to the bound that holds for that run.")


def the_valid_bound(bias: bool) -> None:
    """The bound every ratio of the margin, n and d, and scaling tabs is against."""
    if bias:
        st.markdown(
            "**Bias on.** Each example becomes the padded vector $a_i = y_i\\,(x_i, 1)$ "
            "(the bias is the last weight). Started at $(w, b) = 0$ with threshold "
            "$\\delta = 0$, the run stops after at most (eq. 1.5)")
        # short lines, so that the formula fits a phone's width (no sideways scrolling)
        st.latex(r"\begin{aligned} T(A) &= \frac{\max_i \|a_i\|_2^2}{\gamma_2(A)^2} \\ "
                 r"&= \frac{R^2 + 1}{\gamma_2(A)^2}, \\ "
                 r"\gamma_2(A) &= \max_{\|w\|_2 \le 1}\ \min_i \langle a_i, w\rangle"
                 r"\end{aligned}")
        st.markdown(
            "updates, where $R = \\max_i\\|x_i\\|_2$. The margin, n and d, and scaling tabs "
            "measure every ratio against it (the δ tab against (1.4), the margin-mistakes tab "
            "against $3/\\gamma^2$). The padded margin $\\gamma_2$ counts the bias in the norm, "
            "so it is never larger than the geometric margin $\\gamma$. Novikoff's "
            "$(R/\\gamma)^2$ with the geometric margin $\\gamma$ is **not** a theorem for a "
            "learnt bias: it is drawn dashed, as a reference only.")
    else:
        st.markdown(
            "**Bias off.** The data are drawn with a separator through the origin and the "
            "perceptron keeps $b = 0$. If $\\|x_i\\|_2 \\le R$ for all $i$ and some unit $w^*$ "
            "has $y_i \\langle w^*, x_i\\rangle \\ge \\gamma > 0$, then, started at $w = 0$ "
            "with threshold $\\delta = 0$, the number of updates is at most")
        st.latex(r"\left(\frac{R}{\gamma}\right)^2 \qquad\text{(Novikoff; also } T(A) "
                 r"\text{ of eq. 1.5 with } a_i = y_i x_i\text{)}")
        st.markdown("The margin, n and d, and scaling tabs measure every ratio against it "
                    "(the δ tab against (1.4), the margin-mistakes tab against $3/\\gamma^2$), "
                    "with $\\gamma$ the largest margin through the origin, computed exactly for "
                    "each dataset.")


# ---------------------------------------------------------------------------
# n and d; threshold δ; margin mistakes
# ---------------------------------------------------------------------------

def size_note(shared) -> None:
    st.markdown(
        "Neither $n$ nor $d$ appears in the bound: it only sees the radius and the margin. "
        f"The sweep over $n$ keeps d = {shared.dim}; the sweep over $d$ keeps n = {shared.n}. "
        "The blue line is the largest bound among all runs, drawn flat across the range.")


def delta_prose(shared) -> None:
    st.markdown(
        "With a threshold $\\delta \\ge 0$ the perceptron also updates on examples it "
        "classifies correctly but by too little, $y\\,\\langle a, w\\rangle \\le \\delta$. "
        "Theorem 1.28 bounds the number of updates $t$ for any $w^*$ and $s > 0$ with "
        "$\\langle a_i, w^*\\rangle \\ge s$ for all $i$:")
    st.latex(r"t \le \frac{(2\delta + \|A\|_{2,\infty}^2)\,\|w^*\|_2^2 "
             r"+ 2s\,\|w^*\|_2\,\|w_0\|_2}{s^2},\qquad "
             r"\|A\|_{2,\infty} = \max_i \|a_i\|_2 \qquad\text{(1.4)}")
    margin_used = (r"$s = \gamma_2(A)$, padded" if shared.bias
                   else r"$s = \gamma$, through the origin")
    st.markdown(
        "Here $w_0 = 0$ and $w^*$ is the unit vector achieving the margin "
        f"({margin_used}), so the bound is $(2\\delta + \\max_i\\|a_i\\|_2^2)/s^2$: it "
        "grows linearly in $\\delta$, and for $\\delta = 0$ it is the bound of the first tab.")


def mistakes_prose(shared) -> None:
    st.markdown(
        "The *margin perceptron* keeps no bias, starts at $w = 0$ (the notes write "
        "$\\beta$ for $w$) and adds "
        "$y_n x_n$ whenever $y_n\\, x_n^\\top w < 1$, a *margin mistake*. If every "
        "$\\|x_n\\|_2 \\le 1$ and a unit $w^*$ separates the data with "
        "$y_n\\, x_n^\\top w^* \\ge \\gamma > 0$, it makes at most")
    st.latex(r"\frac{3}{\gamma^2}\ \text{margin mistakes.}")
    st.markdown(
        "This is the perceptron through the origin with threshold $\\delta = 1$: the "
        "norm of $w$ grows by at most $2\\cdot 1 + 1 = 3$ (squared) per update while "
        "its component along $w^*$ grows by at least $\\gamma$. Indeed (1.4) with "
        "$\\delta = 1$ gives $(2 + R^2)/\\gamma^2 \\le 3/\\gamma^2$. One honest "
        "difference: the runs here update when $y\\,x^\\top w \\le 1$ and stop once "
        "every example has $y\\,x^\\top w > 1$, while the notes use the strict "
        "$< 1$. The two rules only part ways on a score of exactly 1, which random data "
        "essentially never produce, and the $3/\\gamma^2$ argument covers both (it only "
        "uses score $\\le 1$ at an update). Likewise the notes ask for a strict "
        "$y_n\\, x_n^\\top w^* > \\gamma$; our data have two points exactly at "
        "the margin, which the proof allows. This tab ignores the bias toggle: the data "
        "lie in the unit ball and are separable through the origin. Since $R$ is close "
        "to 1, the dashed line (1.4) almost covers the blue one.")


# ---------------------------------------------------------------------------
# Scaling and translation (Exercise 1.29)
# ---------------------------------------------------------------------------

def scale_prose(shared) -> None:
    st.markdown(
        "Exercise 1.29 asks, for every $x_i$ replaced by $\\lambda x_i$ "
        "($\\lambda > 0$) and then by $x_i + \\bar x$: are the data still linearly "
        "separable, does the perceptron converge faster or slower, and how does the "
        "bound (1.4) change? The runs below answer for the data on screen, started at "
        "$w_0 = 0$ with $\\delta = 0$, where (1.4) is $T(A)$.",
        help=named_result("Exercise 1.29"))
    st.subheader("Scaling: $x_i \\to \\lambda x_i$")
    st.info(viz.scaling_setting(shared.bias), icon=":material/"
            + ("add_circle" if shared.bias else "adjust") + ":")
    st.markdown(
        "Scaling multiplies $R$ and the geometric margin $\\gamma$ by $\\lambda$, so "
        "$(R/\\gamma)^2$ does not move. Through the origin with $w_0 = 0$ and "
        "$\\delta = 0$ the run itself does not move either: every iterate is $\\lambda$ "
        "times the original one, every score $\\lambda^2$ times, and the signs that decide "
        "the updates are the same. With a bias the padded coordinate 1 is *not* scaled, "
        "so $\\gamma_2$, $T(A)$ and the update counts can change with $\\lambda$.")


def shift_prose(shared) -> None:
    st.subheader("Translation: $x_i \\to x_i + s\\,e_1$")
    st.markdown(
        "**Still separable?** With a bias, yes: the separating hyperplane moved by the "
        "same vector separates the moved data with the same geometric margin "
        "$\\gamma$ (only its bias changes). Through the origin, not necessarily, so "
        "this sweep always learns a bias. **The bound:** with $w_0 = 0$ and "
        "$\\delta = 0$, (1.4) is $T(A) = (R^2 + 1)/\\gamma_2^2$; a shift changes $R$, "
        "and it changes the bias a separator needs, which counts in the norm behind "
        "$\\gamma_2$. **Faster or slower?** That is for the runs to say; the counts "
        "below are taken from the runs on screen. The notes hint that a start $w_0$ "
        "other than 0 can make up for a shift; here every run starts at 0.")
