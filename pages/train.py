"""/train: watch the perceptron learn, one mistake (or one example) at a time.

A pipeline: read the settings, load the data (generated, uploaded or drawn), run
once (cached), build the player's payload, show the player; every step then
happens in the browser.
"""

from dataclasses import dataclass

import numpy as np
import streamlit as st

from pages.common import (named_results, as_code, bool_param, choice_param, clean_query_params, core_call,
                          float_param, int_param, link_step, page_guard, page_header, plain_text, player,
                          player_html, report_link_notices, shown_value, url_snapshot)
from perceptron_core import (ORDERS, bound_summary, make_separable, proof_quantities,
                             run_perceptron, with_label_noise)
from perceptron_core._checks import check_drawable_scale
from perceptron_core.io import (dataset_to_csv, parse_labelled_csv, trace_to_csv,
                                trace_to_json)
from perceptron_core.theory import run_bounds, separability_case
from perceptron_core.viz.player import SPEEDS, player_spec, run_id
from perceptron_core.viz.train import axis_limit, draw_figure, player_payload

SOURCES = ["generated", "upload", "draw"]
#: what each link value may be (checked before any widget reads the URL)
LINK_SPEC = {
    "source": choice_param(SOURCES, "generated"), "n": int_param(2, 2000, 40),
    "margin": float_param(0.01, 0.5, 0.1), "data_seed": int_param(0, 1_000_000, 7),
    "through_origin": bool_param(False), "balance": float_param(0.1, 0.9, 0.5),
    "noise": float_param(0.0, 0.4, 0.0), "show_planted": bool_param(True),
    "bias": bool_param(True), "delta": float_param(0.0, 10.0, 0.0),
    "order": choice_param(list(ORDERS), "cyclic"),
    "init": choice_param(["zero", "random"], "zero"),
    "order_seed": int_param(0, 1_000_000, 0), "speed": choice_param(SPEEDS, "medium"),
    "step": int_param(0, 10**9, 0),
}
URL_KEYS = [key for key in LINK_SPEC if key not in ("speed", "step")]  # the widgets' keys
MAX_POINTS = 2_000  # drawn points a link may carry
CACHE = dict(max_entries=32, ttl=3600)
SUMMARY = ("Each step examines one example in the chosen order. When the example fails the "
           "update test $y(\\mathbf w\\cdot\\mathbf x+b)\\le\\delta$ (on the wrong side of "
           "the line, on it, or with a score of at most $\\delta$), the perceptron adds "
           "$y\\,\\mathbf x$ to $\\mathbf w$ (and $y$ to $b$ when it learns a bias). Nothing "
           "else ever changes $\\mathbf w$. Step with the buttons or the keys: everything runs "
           "in your browser.")


# ---------------------------------------------------------------------------
# step 0: the settings (every one keyed and reflected in the URL)
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Settings:
    source: str
    n: int
    margin: float
    data_seed: int
    through_origin: bool
    balance: float
    noise: float
    show_planted: bool
    bias: bool
    delta: float
    order: str
    start: str
    order_seed: int

    @property
    def algorithm(self) -> tuple:
        """What defines a run on given data: (bias, delta, order, start, order_seed)."""
        return (self.bias, self.delta, self.order, self.start, self.order_seed)


def read_settings() -> Settings:
    with st.sidebar:
        st.header("Data")
        source = st.segmented_control("data source", list(SOURCES), default="generated",
                                      required=True, key="source", bind="query-params",
                                      help="generated: planted separator with margin γ; "
                                           "upload: your CSV; draw: click on the chart")
        off = source != "generated"
        n = st.number_input("points n", 2, 2000, 40, step=10, key="n", bind="query-params",
                            disabled=off)
        margin = st.slider("margin γ", 0.01, 0.5, 0.1, 0.01, key="margin",
                           bind="query-params", disabled=off)
        data_seed = st.number_input("data seed", 0, 1_000_000, 7, key="data_seed",
                                    bind="query-params", disabled=off)
        through_origin = st.checkbox("hyperplane through the origin", False,
                                     key="through_origin", bind="query-params", disabled=off)
        balance = st.slider("share of class +1", 0.1, 0.9, 0.5, 0.05, key="balance",
                            bind="query-params", disabled=off)
        noise = st.slider("label noise (share flipped)", 0.0, 0.4, 0.0, 0.01, key="noise",
                          bind="query-params", disabled=off,
                          help="Flip labels at random: the data stop being separable.")
        show_planted = st.toggle("show the planted separator w* and its margin band", True,
                                 key="show_planted", bind="query-params")
        st.header("Algorithm")
        bias = st.toggle("learn a bias b", True, key="bias", bind="query-params")
        delta = st.number_input("threshold δ", 0.0, 10.0, 0.0, 0.1, key="delta",
                                bind="query-params")
        order = st.selectbox("order of examples", list(ORDERS), key="order",
                             bind="query-params",  # plain names keep links readable
                             help="; ".join(ORDERS.values()))
        start = st.radio("initial w", ["zero", "random"], horizontal=True, key="init",
                         bind="query-params")
        order_seed = st.number_input("order / init seed", 0, 1_000_000, 0, key="order_seed",
                                     bind="query-params")
    return Settings(source, int(n), float(margin), int(data_seed), bool(through_origin),
                    float(balance), float(noise), bool(show_planted), bool(bias),
                    float(delta), order, start, int(order_seed))


# ---------------------------------------------------------------------------
# step 1: the data
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class TrainingData:
    """The examples a run trains on, with what the page says about them."""

    X: np.ndarray
    y: np.ndarray
    label: str
    planted: tuple | None = None  # (w_star, b_star, margin) of generated data
    radius: float | None = None   # the ball generated data lie in


@st.cache_data(show_spinner=False, **CACHE)
def generated_data(n, margin, data_seed, through_origin, balance, noise):
    data = make_separable(n=n, margin=margin, dim=2, radius=1.0, seed=data_seed,
                          through_origin=through_origin, balance=balance)
    return with_label_noise(data, noise, seed=data_seed + 1) if noise > 0 else data


def load_upload():
    """Accept an uploaded CSV whole, or keep the previous data and say what to fix."""
    uploaded = st.session_state.get("upload")
    if uploaded is None:
        return
    try:
        loaded = parse_labelled_csv(uploaded.getvalue())
    except ValueError as error:
        st.session_state.upload_error = (uploaded.name, str(error))
        return
    if loaded.X.shape[1] != 2:  # this page draws the plane: keep the previous data
        st.session_state.upload_error = (
            uploaded.name, f"it has {loaded.X.shape[1]} feature column"
                           f"{'s' * (loaded.X.shape[1] != 1)}; this page draws the plane, so "
                           "it needs exactly 2.")
        return
    st.session_state.upload_error = None
    st.session_state.uploaded = {"X": np.asarray(loaded.X), "y": np.asarray(loaded.y),
                                 "name": uploaded.name, "mapping": loaded.label_mapping}


def points_from_url(text):
    """Drawn points from the link: 'x,y,label;x,y,label' (None if malformed or out of scale)."""
    try:
        rows = [[float(v) for v in item.split(",")] for item in text.split(";") if item]
        if rows and len(rows) <= MAX_POINTS and all(
                len(r) == 3 and r[2] in (-1, 1) and all(map(np.isfinite, r)) for r in rows):
            check_drawable_scale(np.array(rows)[:, :2], "the drawn points")
            return [[r[0], r[1], int(r[2])] for r in rows]
    except ValueError:
        pass
    return None


def restore_drawn_points(link_values) -> None:
    """Drawn points come from the link once per session."""
    if "drawn_points" in st.session_state:
        return
    raw = link_values.get("points", "")
    restored = points_from_url(raw)
    st.session_state.drawn_points = restored or []
    if raw and restored is None:
        st.warning(f"This link's points value could not be read (at most {MAX_POINTS:,} "
                   "points x,y,±1 of a drawable size), so it was ignored: "
                   f"{as_code('points=' + shown_value(raw))}", icon=":material/link_off:")


def uploaded_data() -> TrainingData | None:
    st.file_uploader("CSV with two numeric feature columns and a label column (last)",
                     type=["csv", "txt"], key="upload", on_change=load_upload)
    if st.session_state.get("upload_error"):
        name, message = st.session_state.upload_error
        st.error(f"{as_code(shown_value(name))} could not be used: {plain_text(message)} "
                 "The previous data are kept.", icon=":material/error:")
    uploaded = st.session_state.get("uploaded")
    if uploaded is None:
        st.info("Upload a CSV to train on your own data (at most 5 MB and 20 000 rows). "
                "Links do not carry uploaded files: download the data below to share them. "
                "If you had uploaded a file and it is gone, the server has restarted since "
                "and no longer has it: upload the file again.")
        return None
    mapping = ", ".join(f"{as_code(shown_value(original))} → {label:+d}"
                        for original, label in uploaded["mapping"])
    st.caption(f"{as_code(shown_value(uploaded['name']))}: {len(uploaded['y'])} rows, "
               f"2 features; labels {mapping}")
    return TrainingData(uploaded["X"], uploaded["y"], f"uploaded {uploaded['name']}")


def add_or_remove_point():
    """A click on the drawing board: add a point there, or remove the one clicked."""
    selected = st.session_state.draw_chart.selection.points
    if not selected:
        return
    point = selected[0]
    if point.get("curve_number", 0) == 0:  # the invisible grid: add a point there
        if len(st.session_state.drawn_points) < MAX_POINTS:
            st.session_state.drawn_points.append(
                [round(point["x"], 3), round(point["y"], 3), st.session_state.draw_class])
    else:  # an existing example: remove it
        st.session_state.drawn_points = [
            p for p in st.session_state.drawn_points
            if not (abs(p[0] - point["x"]) < 1e-9 and abs(p[1] - point["y"]) < 1e-9)]


def drawn_data() -> TrainingData | None:
    points = np.array(st.session_state.drawn_points, dtype=float).reshape(-1, 3)
    X, y = points[:, :2], points[:, 2].astype(int)
    with st.container(horizontal=True, key="draw_controls"):
        st.segmented_control("class of new points", [1, -1], format_func=lambda v: f"{v:+d}",
                             default=1, required=True, key="draw_class")
        st.button("Undo last point", key="draw_undo", icon=":material/undo:",
                  on_click=lambda: st.session_state.drawn_points.pop()
                  if st.session_state.drawn_points else None)
        st.button("Clear", key="draw_clear", icon=":material/delete:",
                  on_click=lambda: st.session_state.update(drawn_points=[]))
    st.caption(f"{len(y)} point{'s' * (len(y) != 1)} drawn. Click an empty spot to add a "
               "point of the chosen class; click a point to remove it.")
    st.plotly_chart(draw_figure(X, y, limit=axis_limit(X, 1.0), height=520), key="draw_chart",
                    on_select=add_or_remove_point, selection_mode="points", theme=None,
                    config={"displaylogo": False})
    encoded = ";".join(f"{a:g},{b:g},{c:d}" for a, b, c in st.session_state.drawn_points)
    if st.query_params.get("points") != (encoded or None):  # drawn points live in the link
        if encoded:
            st.query_params["points"] = encoded
        else:
            st.query_params.pop("points", None)
    if len(y) == 0:
        st.info("Click on the chart to add a point. One point is enough to train (the "
                "slides' first quiz); add points of both classes to see a separating line.")
        return None
    return TrainingData(X, y, f"{len(y)} drawn points")


def load_data(settings: Settings) -> TrainingData | None:
    if settings.source == "generated":
        data = core_call(generated_data, settings.n, settings.margin, settings.data_seed,
                         settings.through_origin, settings.balance, settings.noise)
        if data is None:
            return None
        return TrainingData(np.asarray(data.X), np.asarray(data.y),
                            f"generated, n = {settings.n}, γ = {settings.margin:g}, "
                            f"seed {settings.data_seed}",
                            planted=(data.w_star, data.b_star, settings.margin),
                            radius=data.radius)
    return uploaded_data() if settings.source == "upload" else drawn_data()


# ---------------------------------------------------------------------------
# step 2: the run, once per data and settings (cached); step 3: the payload
# ---------------------------------------------------------------------------
@st.cache_data(show_spinner="Training…", **CACHE)
def train(X, y, bias, delta, order, start, order_seed):
    """The run and everything the player shows that does not depend on the step."""
    rng = np.random.default_rng(order_seed)
    w0 = rng.normal(scale=0.5, size=2) if start == "random" else None
    b0 = float(rng.normal(scale=0.5)) if start == "random" and bias else 0.0
    trace = run_perceptron(X, y, bias=bias, delta=delta, w0=w0, b0=b0, order=order,
                           seed=order_seed, max_updates=5_000, max_epochs=500)
    w0_norm = float(np.hypot(np.linalg.norm(trace.weights[0]), trace.biases[0]))
    bounds = bound_summary(X, y, bias=bias, delta=delta, w0_norm=w0_norm)
    statements = run_bounds(bounds, bias=bias, delta=delta, w0_norm=w0_norm)
    proof = proof_quantities(trace, X, y, bounds) if bounds.separable else None
    return trace, bounds, statements, separability_case(X, y), proof, w0_norm


@st.cache_data(show_spinner=False, **CACHE)
def payload_for(data: TrainingData, algorithm: tuple, show_planted: bool, start_step,
                speed: str, present: bool, link: bool = True) -> dict:
    trace, bounds, statements, case, proof, w0_norm = train(data.X, data.y, *algorithm)
    spec = player_spec(run_id(data.X, data.y, algorithm), trace.n_examined,
                       trace.update_steps, start_step=start_step, speed=speed,
                       present=present, link=link)
    return player_payload(data.X, data.y, trace, bounds, statements=statements, case=case,
                          proof=proof, w0_norm=w0_norm, planted=data.planted,
                          show_planted=show_planted, limit=axis_limit(data.X, data.radius),
                          player=spec)


# ---------------------------------------------------------------------------
# step 4: the page
# ---------------------------------------------------------------------------
def show_exports(data: TrainingData, settings: Settings, trace) -> None:
    export_settings = {"data": data.label, "bias": settings.bias, "delta": settings.delta,
                       "order": settings.order, "initial_w": settings.start,
                       "order_seed": settings.order_seed}
    if settings.source == "generated":
        export_settings |= {"n": settings.n, "margin": settings.margin,
                            "data_seed": settings.data_seed,
                            "through_origin": settings.through_origin,
                            "balance": settings.balance, "label_noise": settings.noise}
    with st.expander("Export: data, trace, player", icon=":material/download:"):
        with st.container(horizontal=True):
            st.download_button("Data (CSV)", lambda: dataset_to_csv(data.X, data.y),
                               "perceptron-data.csv", "text/csv", key="download_data",
                               icon=":material/table:")
            st.download_button("Trace (CSV)", lambda: trace_to_csv(trace, data.X, data.y),
                               "perceptron-trace.csv", "text/csv", key="download_trace_csv",
                               icon=":material/list:")
            st.download_button("Trace with settings (JSON)",
                               lambda: trace_to_json(trace, data.X, data.y, export_settings),
                               "perceptron-trace.json", "application/json",
                               key="download_trace_json", icon=":material/data_object:")
            st.download_button("Player (HTML, works offline)",
                               lambda: player_html("train", payload_for(
                                   data, settings.algorithm, settings.show_planted, None,
                                   "medium", False, False), f"Perceptron Lab: {data.label}"),
                               "perceptron-player.html", "text/html", key="download_animation",
                               icon=":material/movie:")
        st.caption("The HTML file holds the whole run and the player (buttons, keys, Play): "
                   "open it in any browser, no server or internet needed.")


QUIZ = [
    ("quiz_single_point",
     "The data are one point (x, +1) with x ≠ 0, w starts at 0 and δ = 0 (update when "
     "y(w·x + b) ≤ 0). How many mistakes can the perceptron make on it?",
     ["exactly one", "as many as the order allows", "none"], "exactly one",
     "Starting at 0, the first look is a mistake (score 0 ≤ 0). After it w = x (and b = 1), "
     "so the score is ‖x‖² (+1) > 0 forever: one mistake. With a random start it can take "
     "several: each update adds ‖x‖² (‖x‖² + 1 with a bias) to the score, so it errs until "
     "w₀·x + b₀ + k(‖x‖² + 1) > 0; with δ > 0 it errs until the score exceeds δ. Try it: "
     "choose the source \u201cdraw\u201d and click once on the chart."),
    ("quiz_order",
     "On separable data, where every example is examined again and again, can a bad order "
     "of the examples stop the perceptron from converging?",
     ["yes, some orders cycle forever", "no, only the number of updates can change"],
     "no, only the number of updates can change",
     "Theorem 1.28 counts updates, whichever example caused them: every update raises "
     "⟨w, w*⟩ by at least γ₂ and ‖w‖² by at most max‖aᵢ‖² (γ and R² without a bias; the "
     "vectors include b with one), for any order. The order changes which updates happen, "
     "never the bound."),
    ("quiz_delta",
     "What does a threshold δ > 0 change?",
     ["nothing at all", "it asks for a margin, and the bound grows by 2δ/γ₂²",
      "it makes the perceptron converge faster"],
     "it asks for a margin, and the bound grows by 2δ/γ₂²",
     "With δ > 0 an example that is correct but scores at most δ still triggers an update, so "
     "the run ends with every y(w·x + b) > δ. The proof's ‖w‖² may now grow by max‖aᵢ‖² + 2δ "
     "per update, which is the 2δ in bound (1.4) (γ₂ and aᵢ = yᵢ(xᵢ, 1) with a bias; γ and "
     "yᵢxᵢ without)."),
]


def show_quiz() -> None:
    st.subheader("Check your understanding")
    for key, question, options, answer, explanation in QUIZ:
        choice = st.radio(question, options, index=None, key=key)
        if choice is not None:
            (st.success if choice == answer else st.info)(
                ("Right. " if choice == answer else "Not quite. ") + explanation)


def main(notices: list[str], link_values: dict[str, str]) -> None:
    present = bool(st.session_state.get("present"))
    if not present:  # on the presenter stage the player comes first; the prose waits below
        page_header("Train, one mistake at a time", SUMMARY)
    settings = read_settings()
    restore_drawn_points(link_values)
    data = load_data(settings)
    report_link_notices(notices, link_values, URL_KEYS)
    if data is None:
        st.stop()
    run = core_call(train, data.X, data.y, *settings.algorithm)
    if run is None:
        st.info("The previous picture is kept until the settings are valid.")
        st.stop()
    trace = run[0]
    identity = run_id(data.X, data.y, settings.algorithm)
    if st.session_state.get("train_run") != identity:  # a new run: open at the link's step or 0
        st.session_state.train_run = identity
        st.session_state.train_start = link_step("train", link_values, trace.n_examined)
        st.session_state.train_speed = (st.session_state.get("train_speed")
                                        or link_values.get("speed", "medium"))
    player("train", payload_for(data, settings.algorithm, settings.show_planted,
                                st.session_state.train_start, st.session_state.train_speed,
                                present), key="train_player")
    if present:
        with st.expander("About this page"):
            st.markdown(SUMMARY)
    named_results("Algorithm 1.16", "Remark 1.17", "Theorem 1.28", "bound (1.4)", "eq. 1.5",
                  "Theorem 1.35")
    show_exports(data, settings, trace)
    show_quiz()


link_notices = clean_query_params(LINK_SPEC)  # before any widget reads the URL
with page_guard("train"):
    main(link_notices, url_snapshot())
