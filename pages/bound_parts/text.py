"""What /bound says: the opening, the bound of each bias setting, each tab's prose (what a
finished sweep says is in pages/bound_parts/views.py; the quiz is in
pages/common/question_bank.py). Not a page itself."""

from __future__ import annotations

import streamlit as st

from pages.common.notation import named_result
from perceptron_core.viz import bound as viz


def opening(bias: bool) -> str:
    """The first paragraph: the theorem, and the bound of the current bias setting."""
    return (
        "The convergence theorem (Theorem 1.28) bounds the number of updates the perceptron "
        "makes on separable data, whatever the number of points or their dimension. "
        # plain text, no KaTeX: this paragraph is the page's largest first paint
        + (
            "With **Learn a bias** on, as now, the runs of the margin, n and d, and scaling "
            "tabs start at (w, b) = 0 with threshold δ = 0 and are measured against "
            "T(A) = (R² + 1)/γ₂² (eq. 1.5), with γ₂ the margin of the padded examples."
            if bias
            else "With **Learn a bias** off, as now, the runs of the margin, n and d, and "
            "scaling tabs start at w = 0 with threshold δ = 0 and are measured against "
            "(R/γ)², with γ the margin through the origin."
        )
        + " The threshold and margin-mistake tabs name their own settings and bound. Every "
        "run draws fresh data with a known margin, and every update count is put next to "
        "the bound that holds for that run."
    )


def formula(*lines: str) -> None:
    """A displayed formula in plain text with Unicode (no KaTeX): one relation per
    line in a bordered box, short enough for a 390 px phone without sideways scrolling."""
    with st.container(border=True):
        st.markdown("  \n".join(lines))


def the_valid_bound(bias: bool) -> None:
    """The bound every ratio of the margin, n and d, and scaling tabs is against."""
    if bias:
        st.markdown(
            "**Bias on.** Each example becomes the padded vector aᵢ = yᵢ (xᵢ, 1) "
            "(the bias is the last weight). Started at (w, b) = 0 with threshold "
            "δ = 0, the run stops after at most (eq. 1.5)"
        )
        formula(
            "**Eq. 1.5**",
            "T(A) = maxᵢ ‖aᵢ‖₂² / γ₂(A)²",
            "T(A) = (R² + 1) / γ₂(A)²   (as ‖aᵢ‖₂² = ‖xᵢ‖₂² + 1)",
            "γ₂(A) = max over ‖w‖₂ ≤ 1 of minᵢ ⟨aᵢ, w⟩",
        )
        st.markdown(
            "updates, where R = maxᵢ ‖xᵢ‖₂. The margin, n and d, and scaling tabs "
            "measure every ratio against it (the δ tab against (1.4), the margin-mistakes tab "
            "against 3/γ²). The padded margin γ₂ counts the bias in the norm, "
            "so it is never larger than the geometric margin γ. Novikoff's "
            "(R/γ)² with the geometric margin γ is **not** a theorem for a "
            "learnt bias: it is drawn dashed, as a reference only."
        )
    else:
        st.markdown(
            "**Bias off.** The data are drawn with a separator through the origin and the "
            "perceptron keeps b = 0. If ‖xᵢ‖₂ ≤ R for all i and some unit w\\* "
            "has yᵢ ⟨w\\*, xᵢ⟩ ≥ γ > 0, then, started at w = 0 "
            "with threshold δ = 0, the number of updates is at most"
        )
        formula("**Novikoff**", "(R/γ)²", "(also T(A) of eq. 1.5 with aᵢ = yᵢ xᵢ)")
        st.markdown(
            "The margin, n and d, and scaling tabs measure every ratio against it "
            "(the δ tab against (1.4), the margin-mistakes tab against 3/γ²), "
            "with γ the largest margin through the origin, computed for each data "
            "set from its stored coordinates in exact rational arithmetic (a run "
            "where that would take too long says so, and uses a certified lower "
            "bound of γ, which can only make its bound larger)."
        )


# ---------------------------------------------------------------------------
# n and d; threshold δ; margin mistakes
# ---------------------------------------------------------------------------


def size_note(shared) -> None:
    st.markdown(
        "Neither n nor d appears in the bound: it only sees the radius and the margin. "
        f"The sweep over n keeps d = {shared.dim}; the sweep over d keeps n = {shared.n}. "
        "The blue line is the largest bound among all runs, drawn flat across the range."
    )


def delta_prose(shared) -> None:
    st.markdown(
        "With a threshold δ ≥ 0 the perceptron also updates on examples it "
        "classifies correctly but by too little: ⟨aᵢ, w⟩ ≤ δ, that is yᵢ(w·xᵢ + b) ≤ δ. "
        "Theorem 1.28 bounds the number of updates t for any w\\* and s > 0 with "
        "⟨aᵢ, w\\*⟩ ≥ s for all i:"
    )
    formula(
        "**Bound (1.4)**",
        # the numerator on two lines, so that a phone does not break it anywhere
        "t ≤ [(2δ + ‖A‖₂,∞²) ‖w\\*‖₂²",
        "\u2003\u2003+ 2s ‖w\\*‖₂ ‖w₀‖₂] / s²",
        "‖A‖₂,∞ = maxᵢ ‖aᵢ‖₂",
    )
    margin_used = "s = γ₂(A), padded" if shared.bias else "s = γ, through the origin"
    st.markdown(
        "Here w₀ = 0 and w\\* is the unit vector achieving the margin "
        f"({margin_used}), so the bound is (2δ + maxᵢ ‖aᵢ‖₂²)/s²: it "
        "grows linearly in δ, and for δ = 0 it is the bound of the first tab."
    )


def mistakes_prose(shared) -> None:
    st.markdown(
        "The **margin perceptron** keeps no bias, starts at w = 0 (the notes write "
        "β for w) and adds yᵢ xᵢ whenever yᵢ xᵢ·w < 1, a **margin mistake**. If every "
        "‖xᵢ‖₂ ≤ 1 and a unit w\\* separates the data with yᵢ xᵢ·w\\* ≥ γ > 0, it makes "
        "at most"
    )
    formula("3/γ² margin mistakes.")
    st.markdown(
        "This is the perceptron through the origin with threshold δ = 1: the "
        "norm of w grows by at most 2·1 + 1 = 3 (squared) per update while "
        "its component along w\\* grows by at least γ. Indeed (1.4) with "
        "δ = 1 gives (2 + R²)/γ² ≤ 3/γ². One difference from the notes: the runs here "
        "update when y x·w ≤ 1 and stop once every example has y x·w > 1, while the notes "
        "update when y x·w < 1. The two rules differ only on a score of exactly 1, and "
        "the 3/γ² argument covers both (it only uses score ≤ 1 at an update). Likewise "
        "the notes ask for a strict yᵢ xᵢ·w\\* > γ, which no data set meets with its own "
        "largest margin γ (its nearest points sit exactly at γ); the proof only uses ≥. "
        "This tab ignores the bias toggle: the data lie in "
        "the unit ball and are separable through the origin, and γ is their largest margin "
        "through the origin, computed from the stored coordinates."
    )


# ---------------------------------------------------------------------------
# Scaling and translation (Exercise 1.29)
# ---------------------------------------------------------------------------


def scale_prose(shared) -> None:
    st.markdown(
        "Exercise 1.29 asks, for every xᵢ replaced by λxᵢ "
        "(λ > 0), and then for every xᵢ moved by the same vector: are the data still "
        "linearly separable, does the perceptron converge faster or slower, and how does "
        "the bound (1.4) change? The runs below answer for the data on screen, started at "
        "w₀ = 0 with δ = 0, where (1.4) is T(A).",
        help=named_result("Exercise 1.29"),
    )
    st.subheader("Scaling: xᵢ → λxᵢ")
    st.info(
        viz.scaling_setting(shared.bias),
        icon=":material/" + ("add_circle" if shared.bias else "adjust") + ":",
    )
    st.markdown(
        "Scaling multiplies R and the geometric margin γ by λ, so "
        "(R/γ)² does not move. Through the origin with w₀ = 0 and "
        "δ = 0 the run itself does not move either: every iterate is λ "
        "times the original one, every score λ² times, and the signs that decide "
        "the updates are the same. With a bias the padded coordinate 1 is **not** scaled, "
        "so γ₂, T(A) and the update counts can change with λ."
    )


def shift_prose(shared) -> None:
    st.subheader("Translation: xᵢ → xᵢ + u e₁")
    st.markdown(
        "Every example moves by u along the first coordinate (e₁ = (1, 0, …, 0)). "
        "**Still separable?** With a bias, yes: the separating hyperplane moved by the "
        "same vector separates the moved data with the same geometric margin "
        "γ (only its bias changes). Through the origin, not necessarily, so "
        "this sweep always learns a bias, whatever the toggle says. **The bound:** with "
        "w₀ = 0 and δ = 0, (1.4) is T(A) = (R² + 1)/γ₂²; a shift can change R, "
        "and it changes the bias a separator needs, which counts in the norm behind "
        "γ₂. **Faster or slower?** That is for the runs to say; the counts "
        "below are taken from the runs on screen. The notes hint that a start w₀ "
        "other than 0 can make up for a shift; here every run starts at 0."
    )
