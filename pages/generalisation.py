"""/generalisation: margin mistakes, why the perceptron errs about 1/N of the time, its loss.

Four sections, each widgets (in the link) -> a cached core call -> a payload or figure: the
margin perceptron in the player, test error against N, the stability argument (hold a point
out, retrain), SGD on a loss with the student's η. Sources (../shared/seeds/):
notes-perceptron-margin-generalization.txt, notebook-perceptron-sgd-d2l.txt."""

import streamlit as st

from pages.common.deferred import deferred
from pages.common.guard import page_guard
from pages.common.link_cleaning import choice_param, int_param
from pages.common.linked_controls import PageLink
from pages.common.page_basics import core_call, page_header, show_chart
from pages.common.presenter import off_stage, presenting, prose
from pages.common.question_bank import QUESTIONS_BY_PAGE, quiz
from pages.common.static_table import static_table
from pages.generalisation_parts.runs import (
    LIMIT,
    N_TEST,
    curve,
    curve_chart,
    figure_from,
    loss_chart,
    margin_payload,
    margin_run,
    sgd_check,
    stability,
    unit_data,
)
from pages.generalisation_parts.settings import SETTINGS
from pages.player import PREDICT_PARAMS, player, player_start
from perceptron_core.viz import generalisation as viz
from perceptron_core.viz.player import SPEEDS, run_id


def margin_section(link: PageLink, notice_slot) -> tuple:
    """1. The margin perceptron, stepped in the browser. Returns (n, γ, data seed, order seed)."""
    st.header("1. The margin perceptron")
    prose(viz.MARGIN_TEXT)
    with st.container(horizontal=True, key="margin_controls"):
        n, margin, data_seed, order_seed = (
            SETTINGS.draw(link, key) for key in ("n", "margin", "data_seed", "order_seed")
        )
    trace = core_call(margin_run, n, margin, data_seed, order_seed)
    if trace is None:
        link.stop(notice_slot)  # name the ignored link values before the page stops
    start, speed = player_start(
        "generalisation",
        run_id("generalisation", n, margin, data_seed, order_seed),
        link.values,
        trace.n_examined,
    )
    player(
        "generalisation",
        margin_payload(n, margin, data_seed, order_seed, start, speed, presenting()),
        key="generalisation_player",
        link=link,
    )
    return n, margin, data_seed, order_seed


def curve_section(link: PageLink) -> None:
    """2. Mean test error against N, beside the two bounds of the notes; CSV download."""
    st.header("2. Test error against the number of training points N")
    prose(viz.CURVE_TEXT)
    with st.container(horizontal=True, key="curve_controls"):
        sizes_text, margin, dim, repeats, seed = (
            SETTINGS.draw(link, key)
            for key in ("curve_n", "curve_margin", "curve_dim", "repeats", "curve_seed")
        )
    sizes = viz.parse_sizes(sizes_text)
    if sizes is None:
        st.error(
            "Values of N: write whole numbers from 1 to 10 000 separated by commas, "
            "e.g. 2, 5, 10, 20.",
            icon=":material/error:",
        )
        return
    with deferred("curve", "Show the curve: train and test for every N") as shown:
        result = core_call(curve, tuple(sizes), margin, dim, repeats, seed) if shown else None
        if result is None:
            return
        show_chart(
            figure_from(curve_chart(tuple(sizes), margin, dim, repeats, seed)), key="curve_chart"
        )
        static_table(
            viz.curve_table(result),
            row_headers=True,
            caption=f"The curve at every N typed (γ = {margin:g}, d = {dim}, {repeats} runs per N)",
        )
        for text in viz.curve_findings(result, N_TEST):
            st.markdown(text)
        st.download_button(
            "Curve (CSV)",
            viz.curve_csv(result),
            "generalisation-curve.csv",
            "text/csv",
            key="download_curve",
            icon=":material/table:",
            on_click="ignore",
        )


def stability_section(link: PageLink, margin: float, data_seed: int) -> None:
    """3. Hold one point out and retrain (the data of section 1): the same ŵ if it caused
    no margin mistake."""
    st.header("3. Why 1/N: remove a point that caused no margin mistake")
    prose(viz.STABILITY_TEXT)
    with st.container(horizontal=True, key="stability_controls"):
        n_points = SETTINGS.draw(link, "stab_n")
        heldout = SETTINGS.draw(link, "heldout")
    if heldout > n_points:
        st.info(
            f"Point {heldout} does not exist: there are {n_points} points, 1 to "
            f"{n_points}. Showing point {n_points}."
        )
        heldout = n_points
    row = heldout - 1  # the points are numbered from 1, the rows of X from 0
    with deferred("stability", "Show both runs: with and without the point") as shown:
        result = core_call(stability, n_points, margin, data_seed, row) if shown else None
        if result is None:
            return
        summary, heldout_margin = result
        X, y, _ = unit_data(n_points, margin, data_seed)
        chart, words = st.columns([3, 2])
        with chart:
            show_chart(viz.stability_figure(X, y, summary, row, limit=LIMIT), key="stability_chart")
        with words:
            for text in viz.stability_texts(
                summary, row, n_points, margin, data_seed, heldout_margin
            ):
                st.markdown(text)
            if not summary["caused"] and not summary["same"]:
                st.error(
                    "The hyperplane changed although the point caused no margin "
                    "mistake: this contradicts the argument; please report it."
                )


def loss_section(link: PageLink, n: int, margin: float, data_seed: int, order_seed: int):
    """4. The losses and their slopes; SGD with the student's η on the data of section 1."""
    st.header("4. The same algorithms as gradient descent on a loss")
    prose(viz.LOSS_TEXT)
    with st.columns([1, 3])[0]:
        eta = SETTINGS.draw(link, "eta")
    with deferred("loss", "Show the losses and SGD with this η") as shown:
        check = core_call(sgd_check, n, margin, data_seed, order_seed, eta) if shown else None
        if check is None:
            return
        losses, slopes = st.columns(2)
        with losses:
            show_chart(figure_from(loss_chart("loss")), key="loss_chart")
        with slopes:
            show_chart(figure_from(loss_chart("slope")), key="slope_chart")
        st.markdown(
            f"On the data of section 1 (N = {n}, γ = {margin:g}), random order with "
            f"order seed {order_seed}, from w = 0:"
        )
        st.table(viz.eta_table(check))
        scaled, verdict = viz.scaling_verdict(check)
        if scaled:
            st.success(verdict, icon=":material/check_circle:")
        else:
            st.error(verdict, icon=":material/error:")
        st.markdown(viz.hinge_text(check, margin))


page_link = PageLink(  # before any widget reads the URL; the player's position and speed:
    step=int_param(0, 10**9, 0), speed=choice_param(SPEEDS, "medium"), **PREDICT_PARAMS
)
with page_guard("generalisation"):
    with off_stage() as shown:
        if shown:
            page_header("Margin mistakes and generalisation", viz.SUMMARY)
    notice_slot = st.container()  # link warnings and the link, filled once every widget exists
    n, margin, data_seed, order_seed = margin_section(page_link, notice_slot)
    curve_section(page_link)
    stability_section(page_link, margin, data_seed)
    loss_section(page_link, n, margin, data_seed, order_seed)
    with notice_slot:  # the player's "Copy link to this view" is the page's one copy link
        page_link.report()
    quiz(QUESTIONS_BY_PAGE["generalisation"])
