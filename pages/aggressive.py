"""/aggressive: aggressive updates never stop (Remark 1.19, Exercise 1.20). A pipeline: the
sequence (a table), its mistakes up to a length T from the link (one cached closed form, two
charts), the hyperplane swinging, then Exercise 1.20's sequence of a length from the link."""

import numpy as np
import streamlit as st

from pages.common import PageLink, core_call, named_results, page_guard, page_header, show_chart
from pages.common.question_bank import QUESTIONS_BY_PAGE, quiz
from pages.common.static_table import static_table
from perceptron_core import constructions as cx
from perceptron_core.viz import aggressive as viz

T_CHOICES = [10**k for k in range(2, 8)]  # 100 .. 10^7
TABLE_ROWS, SWING_STEPS = 40, 70  # rows of the first-examples table, steps of the swing
SEQUENCE = r"""
Fix one unit vector $\mathbf{x}$ ($\|\mathbf{x}\|_2 = 1$). Every label is $y_t = +1$, the
threshold is $\delta = 0$, the weights start at $\mathbf{w}_0 = \mathbf{0}, b_0 = 0$, and

$$
\mathbf{x}_t = \begin{cases} -2\mathbf{x}, & t \text{ a power of two,}\\ \mathbf{x}, & \text{otherwise}\end{cases}
$$
(the powers of two being $t = 1, 2, 4, 8, \dots$).

The data are separable: $\mathbf{w} = \mathbf{0}, b = 1$ scores $+1$ on every example.
Because every label is $+1$, the aggressive rule simply adds up the padded examples,
$(\mathbf{w}_t, b_t) = \sum_{i \le t} (\mathbf{x}_i, 1)$, so the score of the next example is

$$
\begin{aligned} \langle \mathbf{w}_t, \mathbf{a}_{t+1} \rangle
&= \Big\langle \sum_{i\le t} \mathbf{x}_i,\ \mathbf{x}_{t+1} \Big\rangle + t\\
&= t\,\big(\langle \bar{\mathbf{x}}_t, \mathbf{x}_{t+1}\rangle + 1\big), \end{aligned}
$$
where $\bar{\mathbf{x}}_t = \tfrac1t \sum_{i\le t} \mathbf{x}_i$ is the mean of the first $t$ examples.

It is a mistake (score $\le 0$, since $\operatorname{sign}(0) = -1$) exactly when
$\langle \bar{\mathbf{x}}_t, \mathbf{x}_{t+1}\rangle \le -1$. Here we count $t$ from 1 and treat
$t = 1 = 2^0$ as a power of two.
"""
AVERAGE = r"""
Most examples equal $\mathbf{x}$, so the average $\bar{\mathbf{x}}_t$ creeps towards
$\mathbf{x}$ and $\langle \bar{\mathbf{x}}_t, \mathbf{x}_{t+1}\rangle$ tends to $1$ when
$t+1$ is not a power of two. Just before a power of two, $\mathbf{x}_{t+1} = -2\mathbf{x}$ and the
same product tends to $\langle \mathbf{x}, -2\mathbf{x}\rangle = -2$, which is below the
threshold $-1$. The powers of two never run out, so neither do the mistakes.
"""
EXERCISE = r"""
In one dimension take $y_t = +1$ and $x_t = (-1)^{t-1}(2t-1)$, i.e. $1, -3, 5, -7, \dots$.
The partial sums alternate: $\sum_{i \le t} x_i = (-1)^{t+1}\, t$, and the bias after $t$ steps
is $t$. The next score is therefore
$x_{t+1}\,(-1)^{t+1} t + t = -(2t+1)t + t = -2t^2 < 0$ (and $0$ on the very first example),
so the aggressive rule is wrong **every** time.

* **It is separable anyway.** The constant rule $w = 0, b = 1$ gives
  $y_t(w x_t + b) = 1 > 0$ for every $t$: the labels are all $+1$, the bias alone does the job.
* **The examples have to grow.** When every step is a mistake the aggressive rule **is** the
  perceptron, so the proof of Theorem 1.28 applies to it. With $|x_t| \le B$ the padded
  examples have $\|\mathbf{a}_t\|_2^2 \le B^2 + 1$, and the separator $(0, 1)$ has norm 1 and
  margin 1, so bound (1.4) with $\delta = 0$ and $s = 1$ says: a run that starts at
  $\mathbf{w}_0 = \mathbf{0}, b_0 = 0$ makes at most $B^2 + 1$ mistakes before its first correct
  prediction. (From another start the count is at most $B^2 + 1 + 2\|(\mathbf{w}_0, b_0)\|$,
  the $\|\mathbf{w}_0\|$ term of (1.4); a run of mistakes that begins later in a sequence
  starts from whatever weights it has then.) An endless run of mistakes from the start is
  only possible because $|x_t| = 2t - 1$ is unbounded.
"""


def t_label(value: int) -> str:
    """Label of a sequence length (what the link carries: ``aggressive_T=10^4 = 10,000``)."""
    return f"10^{int(np.log10(value))} = {value:,}"


counterexample = st.cache_data(show_spinner=False, max_entries=len(T_CHOICES),
                               ttl=3600)(cx.aggressive_counterexample)
always_wrong = st.cache_data(show_spinner=False, max_entries=64, ttl=3600)(cx.always_wrong_sequence)


@st.cache_data(show_spinner=False, max_entries=4, ttl=3600)
def first_examples(rows: int) -> dict[str, list]:
    """Table of the first examples of Remark 1.19 with both rules' verdicts (column -> values)."""
    t = np.arange(1, rows + 1)
    x, scores = cx.counterexample_x(t), cx.aggressive_score(t)
    standard = set(cx.aggressive_counterexample(rows).mistakes_standard.tolist())
    return {
        "t": t.tolist(), "x_t": ["−2x" if v < 0 else "x" for v in x],
        "power of two?": ["yes" if v < 0 else "" for v in x],
        "aggressive score ⟨w_(t−1), a_t⟩": scores.astype(int).tolist(),
        "aggressive: mistake?": ["MISTAKE" if s <= 0 else "" for s in scores],
        "mistake-driven: mistake?": ["MISTAKE" if v in standard else "" for v in t]}


@st.cache_data(show_spinner=False, max_entries=4, ttl=3600)
def swing_figure(steps: int):
    return viz.swing_animation(cx.counterexample_x(np.arange(1, steps + 1)))


def show_mistakes(result: cx.AggressiveCounterexample, T: int) -> None:
    """Both rules' mistakes up to T, then the running average that explains them."""
    show_chart(viz.cumulative_mistakes_figure(result, T), key="aggressive_cumulative")
    standard = ", ".join(str(v) for v in result.mistakes_standard)
    first_regular = next((int(v) for v in result.mistakes_aggressive if v > 8), None)
    cols = st.columns(2)
    cols[0].metric("Mistake-driven rule: mistakes", len(result.mistakes_standard),
                   help=f"at t = {standard}; afterwards both examples are correct forever")
    cols[1].metric("Aggressive rule: mistakes", len(result.mistakes_aggressive),
                   help="one more at every power of two from t = 32 on")
    st.markdown(
        f"The mistake-driven rule errs at t = {standard} and then ends with "
        f"w = {result.standard_w:g}·x and b = {result.standard_b:g}, which scores both x and "
        "−2x positively, so it never changes again. The aggressive rule keeps erring: after a "
        f"few early mistakes, every power of two from t = {first_regular} on is a mistake. On "
        "a logarithmic t axis those mistakes are evenly spaced, so the count grows like log₂ T "
        "without end.")
    st.header("Why the powers of two: the running average")
    st.markdown(AVERAGE)
    show_chart(viz.running_average_figure(result.t_grid, result.average_products),
               key="aggressive_running_average")
    st.caption("Shown at every t up to 64 and around each power of two "
               "(t = 2^k − 1, 2^k, 2^k + 1).")


def show_swing() -> None:
    st.header("Watch the aggressive hyperplane swing")
    st.markdown(
        "Take x = (1, 0) in the plane: the examples are the two points (1, 0) and (−2, 0), both "
        "labelled +1. The aggressive weights after t steps are w_t = (x₁ + … + x_t, 0) and "
        "b_t = t, so the hyperplane w_t·x + b_t = 0 is a vertical line. Press **Play** (or drag "
        "the slider): most steps push the line slowly to the right until (−2, 0) falls on the "
        "wrong side, and at the next power of two the update throws it back to the left.")
    show_chart(swing_figure(SWING_STEPS), key="aggressive_swing")
    st.caption(
        "Shaded: the half-plane predicted +1. Black: the line after step t; grey dashed: before "
        "it. Orange ring: the example x_t of this step. Vermillion square: a point the new line "
        "gets wrong (a point on the line counts as wrong, since sign(0) = −1). When w_t = 0 "
        "there is no line and every point is predicted sign(b_t).")


def show_always_wrong(sequence: cx.AlwaysWrongSequence, steps: int) -> None:
    show_chart(viz.always_wrong_figure(sequence), key="aggressive_always_wrong")
    w, b = sequence.separator
    st.success(f"{int(np.sum(sequence.mistakes))} mistakes in {steps} examples; the separator "
               f"w = {w:g}, b = {b:g} scores every example "
               f"{float(np.min(sequence.y * (w * sequence.x + b))):g} > 0.",
               icon=":material/check_circle:")


def main(link: PageLink) -> None:
    page_header(
        ":material/all_inclusive: Aggressive updates never stop",
        "The perceptron only touches its weights when it gets an example wrong. That looks "
        "lazy, but it is exactly what makes it stop: once every example is handled correctly, "
        "nothing moves any more. This page shows what goes wrong with the **aggressive** variant "
        "that adds y·x to the weights after **every** example, right or wrong (Remark 1.19 of "
        "the notes).")
    link_slot = st.container(key="aggressive_link_slot")  # filled once every control is known
    named_results("Remark 1.19", "Exercise 1.20", "Theorem 1.28", "bound (1.4)",
                  "Definition 1.12", label="The results this page uses, one line each")
    st.info(
        "**If it ain't broke, don't fix it.** Think of a student who rewrites every answer that "
        "was already marked correct. Each rewrite drags the answers towards the most recent "
        "question, so an old question that was fine can become wrong again. The mistake-driven "
        "perceptron never does this: a correct prediction leaves (w, b) alone.",
        icon=":material/lightbulb:")
    st.header("The sequence of Remark 1.19")
    st.markdown(SEQUENCE)
    st.subheader("The first examples")
    st.caption(
        "Computed with x = 1 in one dimension (every quantity only uses inner products with x). "
        "The aggressive score is the score of example t under the weights built from examples "
        "1..t−1; a score ≤ 0 is a mistake.")
    table = core_call(first_examples, TABLE_ROWS)
    if table is not None:
        static_table(table, tall=True, caption=f"Remark 1.19's sequence, examples 1 to "
                     f"{TABLE_ROWS}: both rules' verdicts")  # HTML: no Arrow, no data grid
    st.header("Mistakes against t")
    T = link.control(st.select_slider, "Length T of the sequence", options=T_CHOICES,
                     value=10**6, format_func=t_label, key="aggressive_T",
                     help="The aggressive mistakes come from a closed form, so even 10^7 "
                          "examples are instant.")
    result = core_call(counterexample, T)
    if result is not None:
        show_mistakes(result, T)
    show_swing()

    st.header("Exercise 1.20: a mistake on every single example")
    st.markdown(EXERCISE)
    steps = link.control(st.slider, "Number of examples shown", min_value=5, max_value=60,
                         value=20, key="always_wrong_T")
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
