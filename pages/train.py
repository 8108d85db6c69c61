"""/train: watch the perceptron learn, one mistake (or one example) at a time.

A pipeline: the settings (every control in the link), the data (generated, uploaded or
drawn), one run (cached, pages/train_parts/runs.py), the player's payload (texts in
viz/train.py), the player.
"""

from dataclasses import dataclass

import numpy as np
import streamlit as st

from pages.common.guard import page_guard
from pages.common.link_cleaning import choice_param, int_param
from pages.common.linked_controls import PageLink
from pages.common.notation import named_results
from pages.common.own_data_drawing import restore_drawn_points
from pages.common.own_data_source import data_source_control, own_data
from pages.common.page_basics import core_call, page_header
from pages.common.presenter import about_this_page, off_stage, presenting
from pages.common.question_bank import QUESTIONS_BY_PAGE
from pages.common.quizzes import quiz
from pages.player import PREDICT_PARAMS, player, player_html, player_start
from pages.train_parts.runs import (
    CACHE,
    LIMITS,
    LINK_RULES,
    OWN,
    SETTINGS,
    SOURCES,
    flipped_labels,
    generated_data,
    train,
)
from perceptron_core.io import dataset_to_csv, trace_to_csv, trace_to_json
from perceptron_core.viz import train as viz
from perceptron_core.viz.player import SPEEDS, player_spec, run_id


class _Algorithm:
    @property
    def algorithm(self) -> tuple:
        """What defines a run on given data: (bias, delta, order, start, order_seed)."""
        return (self.bias, self.delta, self.order, self.init, self.order_seed)  # type: ignore[attr-defined]


#: one value per entry of /train's settings table (pages/train_parts/runs.py)
Settings = SETTINGS.record("Settings", _Algorithm)


def read_settings(link: PageLink):
    """Step 0: the sidebar, every setting of the table bound to the link; returns the
    settings and the place under the noise slider for what the noise did (written once
    the data exist)."""
    places = {}

    def noise(values: dict) -> float:  # the slider, then the place for what it did
        value = SETTINGS.draw(link, "noise", disabled=values["source"] != "generated")
        places["noise"] = st.empty()
        return value

    with st.sidebar:
        values = SETTINGS.read(
            link,
            {
                "source": lambda _: data_source_control(link, SOURCES, "generated", key="source"),
                "noise": noise,
            },
            generator="generated",
        )
    return Settings(**values), places["noise"]


@dataclass(frozen=True)
class TrainingData:
    """The examples a run trains on, with what the page says about them."""

    X: np.ndarray
    y: np.ndarray
    label: str
    planted: tuple | None = None  # (w_star, b_star, margin) of generated data
    radius: float | None = None  # the ball generated data lie in


def load_data(s: Settings) -> TrainingData | None:
    """Step 1: the data (generated, or the student's own), or None while there are none."""
    if s.source != "generated":
        mine = own_data(OWN, s.source)
        return None if mine is None else TrainingData(mine.X, mine.y, mine.label)
    data = core_call(
        generated_data, s.n, s.margin, s.data_seed, s.through_origin, s.balance, s.noise
    )
    return (
        None
        if data is None
        else TrainingData(
            np.asarray(data.X),
            np.asarray(data.y),
            viz.data_label(s.n, s.margin, s.data_seed),
            planted=(data.w_star, data.b_star, s.margin),
            radius=data.radius,
        )
    )


@st.cache_data(show_spinner=False, **CACHE)
def payload_for(
    data: TrainingData,
    algorithm: tuple,
    show_planted: bool,
    start_step,
    speed: str,
    present: bool,
    link: bool = True,
) -> dict:
    """Step 3: the player's payload (the run, the texts, where it opens)."""
    trace, bounds, statements, case, proof, w0_norm = train(data.X, data.y, *algorithm)
    spec = player_spec(
        run_id(data.X, data.y, algorithm),
        trace.n_examined,
        trace.update_steps,
        start_step=start_step,
        speed=speed,
        present=present,
        link=link,
    )
    return viz.player_payload(
        data.X,
        data.y,
        trace,
        bounds,
        statements=statements,
        case=case,
        proof=proof,
        w0_norm=w0_norm,
        planted=data.planted,
        show_planted=show_planted,
        limit=viz.axis_limit(data.X, data.radius),
        player=spec,
        limits=LIMITS,
    )


def show_exports(data: TrainingData, s: Settings, trace) -> None:
    """Data, trace and an offline player to download."""
    generated = dict(
        n=s.n,
        margin=s.margin,
        data_seed=s.data_seed,
        through_origin=s.through_origin,
        balance=s.balance,
        label_noise=s.noise,
    )
    settings = viz.export_settings(
        data.label,
        dict(bias=s.bias, delta=s.delta, order=s.order, initial_w=s.init, order_seed=s.order_seed),
        generated if s.source == "generated" else None,
    )
    offline = lambda: player_html(
        "train",
        payload_for(  # noqa: E731
            data, s.algorithm, s.show_planted, None, "medium", False, False
        ),
        f"Perceptron Lab: {data.label}",
    )
    with st.expander("Export: data, trace, player", icon=":material/download:"):
        with st.container(horizontal=True):
            for label, content, name, mime, key, icon in (
                (
                    "Data (CSV)",
                    lambda: dataset_to_csv(data.X, data.y),
                    "perceptron-data.csv",
                    "text/csv",
                    "download_data",
                    "table",
                ),
                (
                    "Trace (CSV)",
                    lambda: trace_to_csv(trace, data.X, data.y),
                    "perceptron-trace.csv",
                    "text/csv",
                    "download_trace_csv",
                    "list",
                ),
                (
                    "Trace with settings (JSON)",
                    lambda: trace_to_json(trace, data.X, data.y, settings),
                    "perceptron-trace.json",
                    "application/json",
                    "download_trace_json",
                    "data_object",
                ),
                (
                    "Player (HTML, works offline)",
                    offline,
                    "perceptron-player.html",
                    "text/html",
                    "download_animation",
                    "movie",
                ),
            ):
                # on_click="ignore": a download reruns no page. With a rerun, the run the
                # click starts registers the button's file again and can drop the one the
                # browser is about to ask for (a callable's file is made on request), and
                # nothing downloads
                st.download_button(
                    label,
                    content,
                    name,
                    mime,
                    key=key,
                    icon=f":material/{icon}:",
                    on_click="ignore",
                )
        st.caption(viz.EXPORT_CAPTION)


page_link = PageLink(  # before any widget reads the URL; the player's position and speed,
    # and the order (a plain name in the link, words in the menu)
    step=int_param(0, 10**9, 0),
    speed=choice_param(SPEEDS, "medium"),
    order=LINK_RULES["order"],
    **PREDICT_PARAMS,
)  # predict=1 and the question the player waits on
with page_guard("train"):
    with off_stage() as shown:  # on the presenter stage the player comes first; the prose waits
        if shown:
            page_header("Train, one mistake at a time", viz.SUMMARY)
    settings, noise_note = read_settings(page_link)
    restore_drawn_points(OWN, page_link.values)  # drawn points: from the link, once a session
    data = load_data(settings)
    if data is None:
        page_link.stop()
    page_link.report()
    if settings.source == "generated" and settings.noise > 0:  # what the noise did
        flips = flipped_labels(
            settings.n,
            settings.margin,
            settings.data_seed,
            settings.through_origin,
            settings.balance,
            settings.noise,
        )
        noise_note.caption(viz.noise_note(flips, settings.n))
    run = core_call(train, data.X, data.y, *settings.algorithm)
    if run is None:
        st.info("The previous picture is kept until the settings are valid.")
        st.stop()
    start, speed = player_start(
        "train", run_id(data.X, data.y, settings.algorithm), page_link.values, run[0].n_examined
    )
    player(
        "train",
        payload_for(data, settings.algorithm, settings.show_planted, start, speed, presenting()),
        key="train_player",
        link=page_link,
    )
    about_this_page(viz.SUMMARY)
    named_results(
        "Algorithm 1.16", "Remark 1.17", "Theorem 1.28", "bound (1.4)", "eq. 1.5", "Theorem 1.35"
    )
    show_exports(data, settings, run[0])
    quiz(QUESTIONS_BY_PAGE["train"])
