"""The adversarial lower bound (Theorem 1.34 of the notes): the perceptron is optimal."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import streamlit as st

from pages.common import (as_code, choice_param, clean_query_params, copy_link_control,
                          core_call, float_param, int_param, named_result, named_results,
                          page_guard, page_header,
                          report_link_notices, show_chart, shown_value, url_snapshot)
from perceptron_core import constructions as cx
from perceptron_core.viz import adversary as viz

YOU = "you"
LEARNER_LABELS = {
    YOU: "You: be the learner",
    "perceptron": "Perceptron (Algorithm 1.16, through the origin)",
    "aggressive": "Aggressive perceptron (updates every round)",
    "always_positive": "Always predicts +1",
    "majority": "Majority label seen so far",
    "nearest_neighbor": "Nearest neighbour",
}
TABLE_TAIL = 10        # rows of the compact table in "You" mode
FIGURE_MAX_ROUNDS = 100
SWEEP_POINTS = 41      # values of 1/gamma^2 in the sweep, log-spaced in [1, 10^4]

#: widgets bound to the URL (their key is the query parameter)
KEYS = ["adv_gamma", "adv_dim", "adv_learner"]
#: the student's predictions in "You" mode, e.g. ?adv_moves=+-++- (not a widget)
MOVES_PARAM = "adv_moves"
MOVE_TEXT = {1: "+", -1: "-"}


def learner_label(key: str) -> str:
    return LEARNER_LABELS.get(key, key.replace("_", " "))


def moves_text(predictions) -> str:
    """The predictions as a compact text: +1 -> '+', -1 -> '-'."""
    return "".join(MOVE_TEXT[int(p)] for p in predictions)


def parse_moves(text: str, n: int) -> list[int] | None:
    """The predictions written in a link, or None if the text is not a valid game.

    A '+' typed into a URL by hand arrives as a space (form encoding), so a space
    also counts as +1. At most n moves: the game has n rounds.
    """
    signs = {"+": 1, " ": 1, "-": -1}
    if not text or len(text) > min(n, MAX_MOVES_CHARS) or any(c not in signs for c in text):
        return None
    return [signs[c] for c in text]


#: what a link may carry for each control (checked before any widget reads the URL)
LINK_SPEC = {"adv_gamma": float_param(0.01, 1.0, 0.2), "adv_dim": int_param(1, 1000, 50),
             "adv_learner": choice_param([LEARNER_LABELS.get(k, k.replace("_", " "))
                                          for k in [YOU, *cx.LEARNERS]], LEARNER_LABELS[YOU])}
#: longest adv_moves text read (a game has at most d <= 1000 rounds)
MAX_MOVES_CHARS = 1000


def without_examples(result: cx.AdversaryResult) -> cx.AdversaryResult:
    """The result without its n x d matrix of examples (the page never shows it): a
    cached result then costs kilobytes, not up to 8 MB."""
    return dataclasses.replace(result, X=np.zeros((0, result.X.shape[1])))


@st.cache_data(show_spinner=False, max_entries=64, ttl=3600)
def built_in(gamma: float, dim: int, learner: str) -> cx.AdversaryResult:
    return without_examples(cx.adversarial_lower_bound(gamma, dim, learner))


@st.cache_data(show_spinner=False, max_entries=64, ttl=3600)
def scripted(gamma: float, dim: int, predictions: tuple[int, ...]) -> cx.AdversaryResult:
    """Run the adversary against the student's predictions (one per round, in order)."""
    return without_examples(cx.adversarial_lower_bound(gamma, dim,
                                                       cx.ScriptedLearner(predictions)))


@st.cache_data(show_spinner=False, max_entries=64, ttl=3600)
def sweep(dim: int) -> tuple[np.ndarray, np.ndarray]:
    """Mistakes the adversary forces on the perceptron, for 1/gamma^2 from 1 to 10^4."""
    gammas = 1.0 / np.sqrt(np.geomspace(1.0, 1e4, SWEEP_POINTS))
    forced = np.array([cx.adversarial_lower_bound(g, dim, "perceptron").n_mistakes
                       for g in gammas])
    return gammas, forced


class StudentThenPerceptron:
    """The student's predictions first, then the perceptron (fed the same history)."""

    def __init__(self, predictions, dim: int):
        self.student = cx.ScriptedLearner(predictions)
        self.perceptron = cx.LEARNERS["perceptron"](dim)
        self.count = len(self.student.predictions)

    def predict(self, x):
        if self.student.round < self.count:
            return self.student.predict(x)
        return self.perceptron.predict(x)

    def update(self, x, y):
        self.student.update(x, y)
        self.perceptron.update(x, y)


# --- callbacks: they run before the script, so the page always shows the new state ---

def predict(value: int, n: int) -> None:
    if len(st.session_state.adv_predictions) < n:
        st.session_state.adv_predictions.append(value)


def finish_with_perceptron(gamma: float, dim: int) -> None:
    learner = StudentThenPerceptron(st.session_state.adv_predictions, dim)
    try:
        result = cx.adversarial_lower_bound(gamma, dim, learner)
    except ValueError as error:
        st.session_state.adv_error = str(error)
        return
    st.session_state.adv_predictions = [int(p) for p in result.predictions]


def reset() -> None:
    st.session_state.adv_predictions = []


def rounds_table(result: cx.AdversaryResult) -> pd.DataFrame:
    rounds = np.arange(1, result.predictions.size + 1)
    wrong = result.predictions != result.y
    return pd.DataFrame({
        "round i": rounds,
        "example": [f"e_{i}" for i in rounds],
        "prediction": result.predictions.astype(int),
        "label y_i": result.y.astype(int),
        "mistake?": np.where(wrong, "yes", "no"),
        "mistakes so far": np.cumsum(wrong),
    })


SIGNED = st.column_config.NumberColumn(format="%+d")


def show_rounds(result: cx.AdversaryResult, tail: int | None) -> None:
    table = rounds_table(result)
    if tail is not None and len(table) > tail:
        st.caption(f"The last {tail} of {len(table)} rounds.")
        table = table.tail(tail)
    st.dataframe(table, hide_index=True, width="stretch", height=min(38 * (len(table) + 1) + 4, 420),
                 column_config={"prediction": SIGNED, "label y_i": SIGNED}, key="adv_rounds")


def show_certificate(result: cx.AdversaryResult, gamma: float, n: int, dim: int) -> None:
    shown = ", ".join(f"{v:+.3g}" for v in result.certificate[:min(n, 6)])
    more = ", …" if n > 6 else ""
    rest = f" and 0 in the other {dim - n} coordinates" if dim > n else ""
    st.success(
        f"**Certificate checked.** w\\* = γ·y = ({shown}{more}){rest}.  \n"
        f"Norm: ‖w\\*‖ = γ·√n = {gamma:g}·√{n} = {result.certificate_norm:.4f} ≤ 1.  \n"
        f"Margin: min_i y_i⟨e_i, w\\*⟩ = {result.certificate_margin:.4f} = γ.  \n"
        f"So these {n} labelled examples have margin at least γ = {gamma:g}, and the learner "
        f"still made {result.n_mistakes} mistakes out of {n}.",
        icon=":material/verified:",
    )


notices = clean_query_params(LINK_SPEC)  # before any widget reads the URL
snapshot = url_snapshot()  # the link after cleaning, before the widgets check it

with page_guard("adversary"):
    page_header(
        ":material/swords: The adversarial lower bound",
        "Started at w = 0 with threshold δ = 0, the perceptron with no bias makes at most 1/γ² "
        "mistakes on unit-length data that a hyperplane through the origin separates with "
        "margin γ. Could a cleverer learner do better? Theorem 1.34 says no: an adversary can "
        "force **every** deterministic learner to make ⌊1/γ²⌋ mistakes, as long as the "
        "dimension d is at least that (otherwise d of them). Play the learner yourself, or "
        "watch a built-in one lose.",
    )
    link_slot = st.container(key="adv_link_slot")  # filled once every control is known
    notice_slot = st.container()  # what the link carried that the page had to ignore
    named_results("Theorem 1.34", "eq. 1.5", "Theorem 1.28", "Algorithm 1.16",
                  label="The results this page uses, one line each")

    st.markdown(
        r"""
**The game** (Theorem 1.34, labels through the origin, no bias). Fix a margin
$\gamma \in (0, 1]$ and a dimension $d$, and let
$n = \min(\lfloor 1/\gamma^2 \rfloor, d)$. In round $i = 1, \dots, n$ the adversary shows the
standard basis vector $\mathbf{e}_i$, the learner predicts $\pm 1$, and only then the adversary
announces the label $y_i = -(\text{prediction})$. Every round is a mistake, for any
deterministic learner. The labels are still consistent with a margin-$\gamma$ separator:
$w^*_i = \gamma\, y_i$ has $\|\mathbf{w}^*\|_2 = \gamma\sqrt{n} \le 1$ (because $n \le 1/\gamma^2$)
and $y_i \langle \mathbf{e}_i, \mathbf{w}^* \rangle = \gamma$ for every $i$.
"""
    )

    left, right, third = st.columns(3)
    gamma = left.number_input("Margin γ", min_value=0.01, max_value=1.0, value=0.2, step=0.01,
                              format="%.3f", key="adv_gamma", bind="query-params")
    dim = int(right.number_input("Dimension d", min_value=1, max_value=1000, value=50, step=1,
                                 key="adv_dim", bind="query-params"))
    n = core_call(cx.adversary_size, gamma, dim)
    if n is None:
        st.stop()
    third.metric("Forced mistakes n = min(⌊1/γ²⌋, d)", n,
                 help=f"1/γ² = {1 / gamma**2:.4g}, d = {dim}.  \n" + named_result("Theorem 1.34"))

    learner = st.selectbox("Learner", options=[YOU, *cx.LEARNERS], format_func=learner_label,
                           key="adv_learner", bind="query-params")

    # A bound selectbox keeps the *label* in the URL, so a link that names the default
    # learner by its label is not an ignored value (it is only dropped as the default).
    with notice_slot:
        report_link_notices(notices, {k: v for k, v in snapshot.items()
                                      if not (k == "adv_learner" and v == learner_label(learner))},
                            KEYS)

    # The student's moves from the link, read once when the page first opens in this session
    if not st.session_state.get("adv_moves_read"):
        st.session_state.adv_moves_read = True
        raw_moves = snapshot.get(MOVES_PARAM)
        if raw_moves is not None:
            restored = parse_moves(raw_moves, n)
            if restored is None:
                notice_slot.warning(
                    f"This link had moves that do not fit this game, so the page ignored them: "
                    f"{as_code(f'{MOVES_PARAM}={shown_value(raw_moves)}')}. Moves are a string "
                    f"of + and − signs, one per "
                    f"round, at most n = {n} of them.", icon=":material/link_off:")
            else:
                st.session_state.adv_predictions = restored
                st.session_state.adv_config = (gamma, dim)

    # the student's game restarts whenever the game itself (gamma, d) changes
    if "adv_predictions" not in st.session_state or st.session_state.get("adv_config") != (gamma, dim):
        st.session_state.adv_predictions = []
        st.session_state.adv_config = (gamma, dim)

    # the student's moves go into the link (only in "You" mode, where they are shown)
    moves = moves_text(st.session_state.adv_predictions) if learner == YOU else ""
    if moves:
        if st.query_params.get(MOVES_PARAM) != moves:
            st.query_params[MOVES_PARAM] = moves
    elif MOVES_PARAM in st.query_params:
        del st.query_params[MOVES_PARAM]

    with link_slot:
        # a bound selectbox's URL value is its label: put the label in the link
        extra = {"adv_learner": learner_label(learner)}
        if moves:
            extra[MOVES_PARAM] = moves
        copy_link_control("adv_copy_link", ["adv_gamma", "adv_dim"], extra)

    st.header("The rounds")
    result = None
    if learner == YOU:
        predictions = list(st.session_state.adv_predictions)
        played = len(predictions)
        if "adv_error" in st.session_state:
            st.error(st.session_state.pop("adv_error"), icon=":material/error:")
        if played < n:
            shown = f"e_{played + 1}"
            st.markdown(
                f"**Round {played + 1} of {n}.** The adversary shows {shown}: a 1 in coordinate "
                f"{played + 1} and 0 in the other {dim - 1} coordinates. It is orthogonal to every "
                "example so far, so nothing you have seen tells you its label. Your prediction?"
            )
        else:
            st.markdown(f"**All {n} rounds played.**")
        buttons = st.columns(4)
        buttons[0].button("Predict +1", key="predict_plus", icon=":material/add_circle:",
                          on_click=predict, args=(1, n), disabled=played >= n, width="stretch")
        buttons[1].button("Predict −1", key="predict_minus", icon=":material/do_not_disturb_on:",
                          on_click=predict, args=(-1, n), disabled=played >= n, width="stretch")
        buttons[2].button("Let the perceptron finish", key="adv_finish",
                          icon=":material/fast_forward:", on_click=finish_with_perceptron,
                          args=(gamma, dim), disabled=played >= n, width="stretch",
                          help="The perceptron plays the remaining rounds, after learning from yours.")
        buttons[3].button("Start again", key="adv_reset", icon=":material/restart_alt:",
                          on_click=reset, disabled=played == 0, width="stretch")
        if played:
            # rounds 1..played depend only on the predictions, so the core can build them
            # with d = played (then n = played); the full game uses the chosen d
            result = core_call(scripted, gamma, dim if played >= n else played, tuple(predictions))
            if result is not None:
                st.metric("Your mistakes so far", f"{result.n_mistakes} of {played} rounds")
                show_rounds(result, tail=TABLE_TAIL)
        if result is not None and played >= n:
            show_certificate(result, gamma, n, dim)
        elif played < n:
            st.caption("The certificate w* appears once all n rounds are played.")
    else:
        with st.spinner("The adversary is playing..."):
            result = core_call(built_in, gamma, dim, learner)
        if result is not None:
            st.metric(f"Mistakes of {LEARNER_LABELS.get(learner, learner)}",
                      f"{result.n_mistakes} of {n} rounds")
            show_rounds(result, tail=None)
            show_certificate(result, gamma, n, dim)

    if result is not None and 0 < result.predictions.size <= FIGURE_MAX_ROUNDS:
        show_chart(viz.rounds_figure(result.predictions, result.y), key="adv_rounds_chart")

    st.header("Forced mistakes against the perceptron's bound")
    st.markdown(
        r"""
For unit-length examples through the origin ($\|\mathbf{a}_i\|_2 = 1$, $\mathbf{w}_0 = \mathbf{0}$,
$\delta = 0$), eq. (1.5) bounds the perceptron's mistakes by $1/\gamma_2^2$, where $\gamma_2$ is the
data's margin; with margin at least $\gamma$ that is at most $1/\gamma^2$. The adversary's data
are exactly of this kind, and it forces $\min(\lfloor 1/\gamma^2 \rfloor, d)$ mistakes. Below,
the perceptron faces the adversary for a sweep of margins.
"""
    )
    swept = core_call(sweep, dim)
    if swept is not None:
        gammas, forced = swept
        show_chart(viz.forced_mistakes_figure(gammas, forced, dim, current=(gamma, n)),
                   key="adv_forced_chart")
        st.markdown(
            f"While $d \\ge 1/\\gamma^2$ the two curves coincide (up to rounding $1/\\gamma^2$ down to "
            f"a whole number of rounds): no learner can promise fewer mistakes than the perceptron "
            f"already guarantees, so in high dimension its bound is the best possible. Once "
            f"$1/\\gamma^2 > d = {dim}$ the adversary runs out of orthogonal directions and its "
            f"curve levels off at $d$, while the bound keeps rising: in low dimension the "
            f"perceptron's bound may be loose."
        )
