"""/kernels: when no line separates the data, lift them (feature maps, dual and kernel perceptron).

A pipeline: the settings (every control in the link), the data (generated, uploaded or
drawn), the kernel perceptron once (cached), the player and its offline export; then the
sections of pages/kernels_parts/sections.py. Texts: perceptron_core/viz/kernels.py (after §2 of
notes-perceptron-kernels-columbia.txt).
"""

import numpy as np
import streamlit as st

from pages.common.compute import computed
from pages.common.guard import page_guard
from pages.common.link_cleaning import choice_param, int_param
from pages.common.linked_controls import PageLink
from pages.common.notation import named_results
from pages.common.own_data_drawing import restore_drawn_points
from pages.common.own_data_source import data_source_control, own_data
from pages.common.own_data_spec import OwnDataSpec
from pages.common.page_basics import core_call, page_header
from pages.common.presenter import about_this_page, off_stage, presenting
from pages.common.question_bank import QUESTIONS_BY_PAGE, quiz
from pages.kernels_parts import sections
from pages.kernels_parts.settings import DECLARED, SETTINGS, SIDEBAR
from pages.player import PREDICT_PARAMS, player, player_html, player_start
from perceptron_core import (
    MarginUnfinished,
    ProofUnfinished,
    kernel_margin,
    kernel_perceptron,
    make_blobs,
    make_circles,
    make_xor,
    with_label_noise,
)
from perceptron_core.kernels import kernel_no_separator_proof
from perceptron_core.viz import kernels as viz
from perceptron_core.viz.player import SPEEDS, player_spec, run_id
from perceptron_core.viz.train import axis_limit

MAX_UPDATES = sections.MAX_UPDATES  # a run stops here when no separator is found
MAX_EPOCHS = 500  # ... or here, whichever comes first
#: the margin in feature space and the exact proof that no separator exists: each stopped
#: past this much work (estimated CPU seconds, counted from its steps: the same data stop
#: alike whatever the server's load). Small enough that the heaviest link, every part
#: open, computes within one request's 0.5 CPU-s (a noisy polynomial kernel of degree 8
#: at n = 2 000: 0.49-0.61 CPU-s with 0.1 and 0.15 s here, 0.31-0.45 with these)
MARGIN_SECONDS = 0.06
PROOF_SECONDS = 0.08
OWN = OwnDataSpec(
    prefix="kernels_",
    max_rows=400,
    max_points=400,  # two classes
    share_hint="Links do not carry uploaded files: share the file itself "
    "(drawn points are in the link).",
)
CACHE = dict(max_entries=32, ttl=3600)
cached = st.cache_data(show_spinner=False, **CACHE)


class _Run:
    @property
    def generated(self) -> bool:
        return self.data in viz.GENERATED  # type: ignore[attr-defined]

    @property
    def run(self) -> tuple:
        """What defines a run on given data: (kernel parameters, unused at defaults; order; seed)."""
        poly = self.kernel == "poly"
        return (
            (
                ("kernel", self.kernel),
                ("degree", self.degree if poly else 2),
                ("coef0", self.coef0 if poly else 1.0),
                ("scale", self.scale if self.kernel != "linear" else 1.0),
                ("bias", self.bias),
            ),
            self.order,
            self.order_seed,
        )


#: the sidebar's settings, one value each (the table's first eleven entries)
Settings = SETTINGS.record("Settings", _Run, keys=SIDEBAR)


def read_settings(link: PageLink) -> Settings:
    """Step 0: the sidebar, every control bound to the link."""

    def own(values: dict) -> bool:  # the student's own data: no generator's settings
        return values["data"] not in viz.GENERATED

    def not_poly(values: dict) -> bool:  # a degree and a constant only the polynomial has
        return values["kernel"] != "poly"

    with st.sidebar:
        values = SETTINGS.read(
            link,
            {
                "data": lambda _: data_source_control(
                    link, viz.DATA, "circles", key="data", label="data"
                )
            },
            keys=SIDEBAR,
            disabled={
                "n": own,
                "noise": own,
                "degree": not_poly,
                "coef0": not_poly,
                "scale": lambda values: values["kernel"] == "linear",
            },
        )
    return Settings(**values)


@cached
def make_data(name, n, data_seed, noise):
    """The generated data, and how many labels the noise flipped."""
    data = {"circles": make_circles, "xor": make_xor, "blobs": make_blobs}[name](
        n=n, seed=data_seed
    )
    clean = np.asarray(data.y)
    data = with_label_noise(data, noise, seed=data_seed + 1) if noise > 0 else data
    return np.asarray(data.X), np.asarray(data.y), int(np.count_nonzero(data.y != clean))


def load_data(s: Settings):
    """Step 1: (X, y, what the data are in words), or None while the student's data are
    missing."""
    if s.generated:
        X, y, flipped = make_data(s.data, s.n, s.data_seed, s.noise)
        return X, y, viz.data_label(s.data, s.n, s.data_seed, s.noise, flipped)
    with off_stage() as shown:
        if shown:
            st.subheader("Your data")
    data = own_data(OWN, s.data)
    return None if data is None else (data.X, data.y, data.label)


@st.cache_data(show_spinner="Computing the margin in feature space…", max_entries=64, ttl=3600)
def feature_space(X, y, params: tuple) -> tuple:
    """(kernel_margin or None, the exact proof that no separator exists or None, whether
    that proof's search was stopped), each in a worker process (pages/common/compute.py).

    Both are stopped past a counted amount of work (the page then says so): Wolfe's solver
    past MARGIN_SECONDS (milliseconds on data separated with room, up to minutes on many
    noisy points), the exact proof past PROOF_SECONDS (in the plane: milliseconds up to
    degree 5, about 0.25 s at degree 7 and 0.8 s at degree 8)."""
    try:
        margin = computed(kernel_margin, X, y, **dict(params), max_work=MARGIN_SECONDS)
    except MarginUnfinished:
        return None, None, False
    if margin.separable:
        return margin, None, False
    try:
        return (
            margin,
            computed(
                kernel_no_separator_proof,
                X,
                y,
                **dict(params),
                margin=margin,
                max_work=PROOF_SECONDS,
            ),
            False,
        )
    except ProofUnfinished:
        return margin, None, True


@st.cache_data(show_spinner="Training…", **CACHE)
def train(X, y, params: tuple, order, order_seed):
    """Step 2: the kernel perceptron's run (up to 0.15 s at n = 2 000) and what is known of
    the feature space (:func:`feature_space`), each in a worker process
    (pages/common/compute.py)."""
    trace = computed(
        kernel_perceptron,
        X,
        y,
        **dict(params),
        order=order,
        seed=order_seed,
        max_updates=MAX_UPDATES,
        max_epochs=MAX_EPOCHS,
    )
    return trace, feature_space(X, y, params)


@cached
def payload_for(X, y, run: tuple, start_step, speed, present, link=True):
    """Step 3: the player's payload (in a worker process: up to 75 ms at n = 2 000)."""
    trace, (margin, proof, stopped) = train(X, y, *run)
    spec = player_spec(
        run_id(X, y, *run),
        trace.n_examined,
        trace.update_steps,
        start_step=start_step,
        speed=speed,
        present=present,
        link=link,
    )
    return computed(
        viz.player_payload,
        trace,
        margin,
        limit=axis_limit(X, 1.0),
        player=spec,
        proof=proof,
        proof_stopped=stopped,
    )


def show_player(X, y, label: str, s: Settings, link: PageLink) -> bool:
    """Step 4: the run on the player, and its offline export; False if the core refused."""
    run = core_call(train, X, y, *s.run)
    if run is None:
        return False
    if run[1][0] is None:
        st.info(
            viz.slow_margin_text(
                len(y), MARGIN_SECONDS, s.noise if s.generated else 0.0, s.kernel, s.scale
            ),
            icon=":material/hourglass_disabled:",
        )
    start, speed = player_start("kernels", run_id(X, y, *s.run), link.values, run[0].n_examined)
    with off_stage() as shown:
        if shown:
            st.subheader("The kernel perceptron, one update at a time")
            st.markdown(viz.PLAYER_TEXT)
    st.caption(f"Data: {label}.")
    if (payload := core_call(payload_for, X, y, s.run, start, speed, presenting())) is None:
        return False
    player("kernels", payload, key="kernels_player", link=link)
    title = f"Perceptron Lab: kernel perceptron, {viz.kernel_text(run[0])}; {label}"
    offline = lambda: player_html(
        "kernels",
        payload_for(  # noqa: E731
            X, y, s.run, None, "medium", False, link=False
        ),
        title,
    )
    with st.container(horizontal=True, vertical_alignment="center"):
        st.download_button(
            "Player (HTML, works offline)",
            offline,
            "kernel-perceptron-player.html",
            "text/html",
            key="kernels_download_player",
            icon=":material/movie:",
            on_click="ignore",  # a file made on request, as /train's (see there)
        )
        st.caption(viz.export_caption(MAX_UPDATES, MAX_EPOCHS))
    named_results("Theorem 1.28", "Remark 1.17")  # cited in the player's texts
    about_this_page(viz.SUMMARY)
    return True


page_link = PageLink(  # before any widget reads the URL: the settings drawn only on some
    # runs, the player's position and speed; links written when the kernel's scale was
    # called γ, and the calculator's bits a, b
    renamed={"gamma": "scale", "bits_a": "bits_x", "bits_b": "bits_z"},
    **{key: SETTINGS[key].link_rule for key in DECLARED},
    step=int_param(0, 10**9, 0),
    speed=choice_param(SPEEDS, "medium"),
    **PREDICT_PARAMS,
)
with page_guard("kernels"):
    with off_stage() as shown:
        if shown:
            page_header("Kernels: lift the data, keep the perceptron", viz.SUMMARY)
    settings = read_settings(page_link)
    page_link.report()  # every ignored link value named once, before anything can stop
    restore_drawn_points(OWN, page_link.values)
    data = load_data(settings)
    if data is not None and show_player(*data, settings, page_link):
        sections.show_dual(data[0], data[1], settings.bias, settings.order, settings.order_seed)
        sections.show_lift(data[0], data[1], settings.data, page_link)
    elif data is not None:
        st.info("The previous picture is kept until the data are valid.")
    sections.show_bias_trick(settings.data_seed)
    sections.show_conjunctions(page_link, settings.data_seed)
    quiz(QUESTIONS_BY_PAGE["kernels"])
