"""/train: watch the perceptron learn, one mistake (or one example) at a time."""

import numpy as np
import streamlit as st

from pages.common import (HIDDEN_CSS, copy_link_control, core_call, page_header,
                          report_ignored_url_values, show_chart, url_snapshot)
from perceptron_core import (ORDERS, bound_summary, make_separable, proof_quantities,
                             run_perceptron, training_path, with_label_noise)
from perceptron_core.io import (dataset_to_csv, parse_labelled_csv, trace_to_csv,
                                trace_to_json)
from perceptron_core.viz.train import (animation_figure, axis_limit, boundedness_figure,
                                       draw_figure, proof_figure, step_figure, vector_scale)

SPEEDS = {"slow": 900, "medium": 450, "fast": 150}
SOURCES = ["generated", "upload", "draw"]
URL_KEYS = ["source", "n", "margin", "data_seed", "through_origin", "balance", "noise",
            "show_planted", "bias", "delta", "order", "init", "order_seed", "speed"]
present = bool(st.session_state.get("present"))
link_values = url_snapshot()

page_header("Train, one mistake at a time",
            "Each press examines the data in the chosen order. When an example is on the wrong "
            "side of the line (or too close: $y(\\mathbf w\\cdot\\mathbf x+b)\\le\\delta$), "
            "the perceptron adds $y\\,\\mathbf x$ to $\\mathbf w$ and $y$ to $b$. "
            "Nothing else ever changes $\\mathbf w$.")

# ---------------------------------------------------------------------------
# widgets: data and algorithm (every one keyed and reflected in the URL)
# ---------------------------------------------------------------------------
with st.sidebar:
    st.header("Data")
    source = st.segmented_control("data source", list(SOURCES), default="generated",
                                  required=True, key="source", bind="query-params",
                                  help="generated: planted separator with margin γ; "
                                       "upload: your CSV; draw: click on the chart")
    n = st.number_input("points n", 2, 2000, 40, step=10, key="n", bind="query-params",
                        disabled=source != "generated")
    margin = st.slider("margin γ", 0.01, 0.5, 0.1, 0.01, key="margin", bind="query-params",
                       disabled=source != "generated")
    data_seed = st.number_input("data seed", 0, 1_000_000, 7, key="data_seed",
                                bind="query-params", disabled=source != "generated")
    through_origin = st.checkbox("hyperplane through the origin", False, key="through_origin",
                                 bind="query-params", disabled=source != "generated")
    balance = st.slider("share of class +1", 0.1, 0.9, 0.5, 0.05, key="balance",
                        bind="query-params", disabled=source != "generated")
    noise = st.slider("label noise (share flipped)", 0.0, 0.4, 0.0, 0.01, key="noise",
                      bind="query-params", disabled=source != "generated",
                      help="Flip labels at random: the data stop being separable.")
    show_planted = st.toggle("show the planted separator w* and its margin band", True,
                             key="show_planted", bind="query-params")
    st.header("Algorithm")
    bias = st.toggle("learn a bias b", True, key="bias", bind="query-params")
    delta = st.number_input("threshold δ", 0.0, 10.0, 0.0, 0.1, key="delta",
                            bind="query-params")
    order = st.selectbox("order of examples", list(ORDERS), key="order", bind="query-params",
                         help="; ".join(ORDERS.values()))  # plain names keep links readable
    start = st.radio("initial w", ["zero", "random"], horizontal=True, key="init",
                     bind="query-params")
    order_seed = st.number_input("order / init seed", 0, 1_000_000, 0, key="order_seed",
                                 bind="query-params")


# ---------------------------------------------------------------------------
# one cached call into the core per data set and settings
# ---------------------------------------------------------------------------
@st.cache_data(show_spinner=False, max_entries=64)
def generated_data(n, margin, data_seed, through_origin, balance, noise):
    data = make_separable(n=n, margin=margin, dim=2, radius=1.0, seed=data_seed,
                          through_origin=through_origin, balance=balance)
    return with_label_noise(data, noise, seed=data_seed + 1) if noise > 0 else data


@st.cache_data(show_spinner="Training…", max_entries=64)
def train(X, y, bias, delta, order, start, order_seed):
    """The full trace, the bounds and the proof quantities for one data set."""
    rng = np.random.default_rng(order_seed)
    w0 = rng.normal(scale=0.5, size=2) if start == "random" else None
    b0 = float(rng.normal(scale=0.5)) if start == "random" and bias else 0.0
    trace = run_perceptron(X, y, bias=bias, delta=delta, w0=w0, b0=b0, order=order,
                           seed=order_seed, max_updates=5_000, max_epochs=500)
    w0_norm = float(np.hypot(np.linalg.norm(trace.weights[0]), trace.biases[0]))
    bounds = bound_summary(X, y, bias=bias, delta=delta, w0_norm=w0_norm)
    proof = proof_quantities(trace, X, y) if bounds.separable else None
    path = None if trace.converged else training_path(trace, X, y)
    return trace, bounds, proof, path


def load_upload():
    """Accept an uploaded CSV whole, or keep the previous data and say what to fix."""
    uploaded = st.session_state.get("upload")
    if uploaded is None:
        return
    try:
        loaded = parse_labelled_csv(uploaded.getvalue())
    except ValueError as error:
        st.session_state.upload_error = f"{uploaded.name}: {error}"
        return
    st.session_state.upload_error = None
    st.session_state.uploaded = {"X": np.asarray(loaded.X), "y": np.asarray(loaded.y),
                                 "name": uploaded.name, "mapping": loaded.label_mapping}


def points_from_url(text):
    """Drawn points from the link: 'x,y,label;x,y,label' (None if malformed)."""
    try:
        rows = [[float(v) for v in item.split(",")] for item in text.split(";") if item]
        if rows and all(len(r) == 3 and r[2] in (-1, 1) and all(map(np.isfinite, r))
                        for r in rows):
            return [[r[0], r[1], int(r[2])] for r in rows]
    except ValueError:
        pass
    return None


if "drawn_points" not in st.session_state:
    restored = points_from_url(link_values.get("points", ""))
    st.session_state.drawn_points = restored or []
    if link_values.get("points") and restored is None:
        st.warning(f"This link's points value could not be read, so it was ignored: "
                   f"points={link_values['points'][:40]}", icon=":material/link_off:")

limit = 1.15
planted = None
if source == "generated":
    data = core_call(generated_data, n, margin, data_seed, through_origin, balance, noise)
    if data is None:
        st.stop()
    X, y = np.asarray(data.X), np.asarray(data.y)
    planted = (data.w_star, data.b_star, margin)  # with label noise: the line labels were flipped around
    data_label = f"generated, n = {n}, γ = {margin:g}, seed {data_seed}"
elif source == "upload":
    st.file_uploader("CSV with numeric feature columns and a label column (last); "
                     "2 features are drawn", type=["csv", "txt"], key="upload",
                     on_change=load_upload)
    if st.session_state.get("upload_error"):
        st.error(st.session_state.upload_error + " The previous data are kept.",
                 icon=":material/error:")
    uploaded = st.session_state.get("uploaded")
    if uploaded is None:
        st.info("Upload a CSV to train on your own data (at most 5 MB and 20 000 rows). "
                "Links do not carry uploaded files: download the data below to share them.")
        st.stop()
    X, y = uploaded["X"], uploaded["y"]
    mapping = ", ".join(f"{original} → {label:+d}" for original, label in uploaded["mapping"])
    st.caption(f"**{uploaded['name']}**: {len(y)} rows, {X.shape[1]} features; labels {mapping}")
    if X.shape[1] != 2:
        st.error(f"The file has {X.shape[1]} features; this page draws the plane, so it needs "
                 "exactly 2 feature columns.", icon=":material/error:")
        st.stop()
    data_label = f"uploaded {uploaded['name']}"
else:
    points = np.array(st.session_state.drawn_points, dtype=float).reshape(-1, 3)
    X, y = points[:, :2], points[:, 2].astype(int)
    data_label = f"{len(y)} drawn points"

    def add_or_remove_point():
        selected = st.session_state.draw_chart.selection.points
        if not selected:
            return
        point = selected[0]
        if point.get("curve_number", 0) == 0:  # the invisible grid: add a point there
            st.session_state.drawn_points.append(
                [round(point["x"], 3), round(point["y"], 3), st.session_state.draw_class])
        else:  # an existing example: remove it
            st.session_state.drawn_points = [
                p for p in st.session_state.drawn_points
                if not (abs(p[0] - point["x"]) < 1e-9 and abs(p[1] - point["y"]) < 1e-9)]

    with st.container(horizontal=True, key="draw_controls"):
        st.segmented_control("class of new points", [1, -1], format_func=lambda v: f"{v:+d}",
                             default=1, required=True, key="draw_class")
        st.button("Remove last", key="draw_undo", icon=":material/undo:",
                  on_click=lambda: st.session_state.drawn_points.pop()
                  if st.session_state.drawn_points else None)
        st.button("Clear", key="draw_clear", icon=":material/delete:",
                  on_click=lambda: st.session_state.update(drawn_points=[]))
    st.caption(f"{len(y)} points drawn. Click an empty spot to add a point of the chosen class; "
               "click a point to remove it.")
    st.plotly_chart(draw_figure(X, y, limit=limit, height=520), key="draw_chart",
                    on_select=add_or_remove_point, selection_mode="points", theme=None,
                    config={"displaylogo": False})
    if len(y) < 2 or np.unique(y).size < 2:
        st.info("Add at least one point of each class to train.")
        st.stop()

run = core_call(train, X, y, bias, delta, order, start, order_seed)
if run is None:
    st.info("The previous picture is kept until the settings are valid.")
    st.stop()
trace, bounds, proof, path = run
if source == "generated":
    limit = axis_limit(X, data.radius)
else:
    limit = axis_limit(X)

update_steps = np.asarray(trace.update_steps)


def show_step(position):
    """Put the page at examined step ``position``; the update slider follows."""
    st.session_state.train_position = int(position)
    st.session_state.update_slider = trace.updates_before_step(int(position) + 1)


def move_to(position):
    """Go to examined step ``position``; remember where we were for 'back'."""
    st.session_state.train_history.append(st.session_state.train_position)
    show_step(np.clip(position, 0, trace.n_examined))


def next_mistake():
    later = update_steps[update_steps > st.session_state.train_position]
    move_to(later[0] if later.size else trace.n_examined)


def go_back():
    history = st.session_state.train_history
    show_step(history.pop() if history else 0)


def jump_to_update():
    update = st.session_state.update_slider
    move_to(update_steps[update - 1] if update > 0 else 0)


def reset():
    st.session_state.train_history = []
    show_step(0)


# one position per student: examined step s (0 = nothing examined yet)
signature = (data_label, X.tobytes(), y.tobytes(), bias, delta, order, start, order_seed)
if st.session_state.get("train_signature") != signature:
    st.session_state.train_signature = signature
    reset()
    if not st.session_state.get("train_link_used"):  # a link may ask for a step
        st.session_state.train_link_used = True
        raw_step = link_values.get("step")
        if raw_step is not None:
            if raw_step.isdigit() and int(raw_step) <= trace.n_examined:
                show_step(int(raw_step))
            else:
                st.warning(f"This link's step={raw_step} is not a step of this run "
                           f"(0 to {trace.n_examined}), so it starts at 0.",
                           icon=":material/link_off:")
report_ignored_url_values(link_values, URL_KEYS)
st.html(HIDDEN_CSS.format(key="hidden_shortcuts"))  # once per page run, not per step


def describe(step) -> str:
    """The numbers of this step in words."""
    x = X[step.index]
    head = (f"**Example {step.index}**, x = ({x[0]:.2f}, {x[1]:.2f}), y = {y[step.index]:+d}: "
            f"y(w·x + b) = {step.score:+.3f}")
    if not step.updated:
        return head + f" > δ = {trace.delta:g}: **correct, no update**."
    w_new = trace.weights[step.updates_before + 1]
    b_new = float(trace.biases[step.updates_before + 1])
    rule = f"w ← w + y x = ({w_new[0]:.2f}, {w_new[1]:.2f})"
    if trace.bias:
        rule += f", b ← b + y = {b_new:.2f}"
    return head + f" ≤ δ = {trace.delta:g}: **a mistake**; {rule}."


@st.fragment
def stepper():
    position = st.session_state.train_position
    at_end = position >= trace.n_examined
    with st.container(horizontal=True, key="step_controls"):
        st.button("Next mistake", key="next_mistake", on_click=next_mistake, type="primary",
                  icon=":material/skip_next:", disabled=at_end, shortcut="Right")
        st.button("Next example", key="next_example", icon=":material/arrow_forward:",
                  on_click=lambda: move_to(st.session_state.train_position + 1),
                  disabled=at_end, shortcut="Down")
        st.button("Back", key="prev", on_click=go_back, icon=":material/undo:",
                  disabled=position == 0, shortcut="Left")
        st.button("Reset", key="reset", on_click=reset, icon=":material/restart_alt:",
                  shortcut="Home")
        st.button("Run to end", key="run_to_end", on_click=lambda: move_to(trace.n_examined),
                  icon=":material/fast_forward:", disabled=at_end, shortcut="End")
        copy_link_control("train_copy_link", URL_KEYS, {"step": position} | (
            {"points": ";".join(f"{a:g},{b:g},{c:d}" for a, b, c in
                                st.session_state.drawn_points)} if source == "draw" else {}))
    with st.container(key="hidden_shortcuts"):  # a clicker's PageDown / PageUp (hidden by CSS)
        st.button("Next mistake (PageDown)", key="next_mistake_pagedown", on_click=next_mistake,
                  disabled=at_end, shortcut="PageDown")
        st.button("Back (PageUp)", key="prev_pageup", on_click=go_back, disabled=position == 0,
                  shortcut="PageUp")
    st.caption("Keys: → or PageDown next mistake · ↓ next example · ← or PageUp back · "
               "Home reset · End run to end")
    if st.query_params.get("step") != (str(position) if position > 0 else None):
        if position > 0:  # the step is part of the link; only send a change
            st.query_params["step"] = str(position)
        else:
            st.query_params.pop("step", None)
    if trace.n_updates > 0:
        st.slider("Jump to update", 0, trace.n_updates, key="update_slider",
                  on_change=jump_to_update)
    updates_done = trace.updates_before_step(position + 1)
    w, b = trace.weights[updates_done], float(trace.biases[updates_done])
    step = trace.example_at(position, X, y) if position > 0 else None
    previous = None
    if step is not None and step.updated:
        previous = (trace.weights[updates_done - 1], float(trace.biases[updates_done - 1]))
    chart, numbers = st.columns([3, 2], gap="medium")
    figure = step_figure(X, y, w, b, limit=limit, scale=vector_scale(trace.weights, limit),
                         previous=previous, example=None if step is None else step.index,
                         updated=bool(step and step.updated), planted=planted,
                         show_planted=show_planted, height=900 if present else 760)
    if present:  # lecture hall: larger markers and type
        figure.update_traces(marker_size=16, selector=dict(name="class +1"))
        figure.update_traces(marker_size=15, selector=dict(name="class -1"))
        figure.update_layout(font_size=22, legend_font_size=18)
    with chart:
        show_chart(figure, key="train_chart")
    with numbers, st.container(key="status", border=True):
        if step is None:
            st.markdown("**Nothing examined yet.** Press *Next mistake* or *Next example*.")
        else:
            st.markdown(f"Step {position}: " + describe(step))
        st.markdown(f"Now **w = ({w[0]:.3f}, {w[1]:.3f})**, **b = {b:.3f}**")
        accuracy = float(np.mean(y * (X @ w + b) > 0))
        left, right = st.columns(2)
        left.metric("updates", f"{updates_done} / {trace.n_updates}")
        right.metric("examples examined", f"{position} / {trace.n_examined}")
        left.metric("epoch", f"{max(1, -(-position // len(y)))}")
        right.metric("training accuracy", f"{accuracy:.1%}")
        if bounds.separable:
            st.markdown(f"Data: R = max‖x‖ = {bounds.radius:.3f}, margin of the best separator "
                        f"γ = {bounds.margin:.4f}" + (f", padded γ₂ = {bounds.margin_2:.4f}"
                                                      if trace.bias else ""))
            bound = bounds.general
            st.progress(min(1.0, updates_done / bound),
                        text=f"{updates_done} updates of at most {bound:,.0f} (bound 1.4)")
        else:
            st.markdown("**Not linearly separable**: no bound applies, and the perceptron "
                        "will not converge.")
    if at_end:
        if trace.converged:
            comparison = (f" That is {trace.n_updates} against the bounds T(A) = "
                          f"{bounds.padded:,.0f} and (R/γ)² = {bounds.novikoff:,.0f}."
                          if bounds.separable else "")
            st.success(f"Converged after {trace.n_updates} updates in {trace.epochs} "
                       f"epoch{'s' * (trace.epochs != 1)}.{comparison}",
                       icon=":material/check_circle:")
        else:
            st.warning(f"Stopped without converging: {trace.stop_reason}.",
                       icon=":material/warning:")
    if proof is not None:
        st.subheader("The proof, as it happens")
        named = {"T(A)": bounds.padded, "(R/γ)²": bounds.novikoff, "bound (1.4)": bounds.general}
        show_chart(proof_figure(proof.alignment, proof.alignment_lower, proof.norm_sq,
                                proof.norm_sq_upper, current=updates_done, margin=proof.margin,
                                radius_sq=proof.radius_sq + 2 * trace.delta, bounds=named,
                                padded=trace.bias), key="proof_chart")
        st.caption("Theorem 1.28: after t updates ⟨w_t, w*⟩ ≥ t·γ while ‖w_t‖² ≤ t·R² "
                   "(R² = max‖a_i‖² + 2δ; with a bias, a_i = y_i(x_i, 1) and w_t includes b). "
                   "Cauchy–Schwarz, t·γ ≤ ‖w_t‖ ≤ √(t R²), forces t ≤ R²/γ².")
    elif path is not None:
        st.subheader("Not separable: bounded weights, restless accuracy")
        show_chart(boundedness_figure(path[0], path[1], current=updates_done, padded=trace.bias),
                   key="bounded_chart")
        st.caption("No line separates these data, so some example is always misclassified and "
                   "the updates never stop; the run ends at its update limit. Still the weights "
                   "stay bounded (Theorem 1.35, the boundedness theorem): ‖w_t‖ levels off "
                   "while the training accuracy keeps jumping up and down.")
    else:
        st.info("These data are separable but the run stopped at its limit; try another "
                "order or a smaller threshold δ.")


stepper()


@st.cache_data(show_spinner=False, max_entries=16)
def animation(X, y, planted, bias, delta, order, start, order_seed, planted_shown, frame_ms,
              limit):
    """The whole run as Plotly frames; built once per settings, played in the browser."""
    trace = train(X, y, bias, delta, order, start, order_seed)[0]
    return animation_figure(X, y, trace.weights, trace.biases, trace.update_indices,
                            limit=limit, scale=vector_scale(trace.weights, limit),
                            planted=planted, show_planted=planted_shown, frame_ms=frame_ms)


st.subheader("Play every update")
st.caption("Play runs in your browser: every update is a frame, so nothing waits for the server.")
speed = st.select_slider("animation speed", list(SPEEDS), value="medium", key="speed",
                         bind="query-params")
movie = animation(X, y, planted, bias, delta, order, start, order_seed, show_planted,
                  SPEEDS[speed], limit)
show_chart(movie, key="animation_chart")

settings = {"data": data_label, "bias": bias, "delta": delta, "order": order,
            "initial_w": start, "order_seed": order_seed}
if source == "generated":
    settings |= {"n": n, "margin": margin, "data_seed": data_seed,
                 "through_origin": through_origin, "balance": balance, "label_noise": noise}
with st.expander("Export: data, trace, animation", icon=":material/download:"):
    with st.container(horizontal=True):
        st.download_button("Data (CSV)", lambda: dataset_to_csv(X, y), "perceptron-data.csv",
                           "text/csv", key="download_data", icon=":material/table:")
        st.download_button("Trace (CSV)", lambda: trace_to_csv(trace, X, y),
                           "perceptron-trace.csv", "text/csv", key="download_trace_csv",
                           icon=":material/list:")
        st.download_button("Trace with settings (JSON)",
                           lambda: trace_to_json(trace, X, y, settings), "perceptron-trace.json",
                           "application/json", key="download_trace_json",
                           icon=":material/data_object:")
        st.download_button("Animation (HTML, works offline)",
                           lambda: movie.to_html(include_plotlyjs=True, full_html=True,
                                                 config={"displaylogo": False}),
                           "perceptron-animation.html", "text/html", key="download_animation",
                           icon=":material/movie:")
    st.caption("The HTML file holds Plotly and every frame: open it in any browser, no server "
               "needed, and put it in slides or a course page.")

st.subheader("Check your understanding")
QUIZ = [
    ("quiz_single_point",
     "The data are one point (x, +1) with x ≠ 0, and w starts at 0. How many mistakes can the "
     "perceptron make on it?",
     ["exactly one", "as many as the order allows", "none"], "exactly one",
     "Starting at 0, the first look is a mistake (score 0 ≤ 0). After it w = x (and b = 1), "
     "so the score is ‖x‖² (+1) > 0 forever: one mistake. With a random start it can take "
     "several: each update adds ‖x‖² to the score, so it errs until w₀·x + k‖x‖² > 0."),
    ("quiz_order",
     "On separable data, can a bad order of the examples stop the perceptron from converging?",
     ["yes, some orders cycle forever", "no, only the number of updates can change"],
     "no, only the number of updates can change",
     "Theorem 1.28 counts updates, whichever example caused them: every update raises "
     "⟨w, w*⟩ by at least γ and ‖w‖² by at most R², for any order. The order changes which "
     "updates happen, never the bound."),
    ("quiz_delta",
     "What does a threshold δ > 0 change?",
     ["nothing at all", "it asks for a margin, and the bound grows by 2δ/γ²",
      "it makes the perceptron converge faster"],
     "it asks for a margin, and the bound grows by 2δ/γ²",
     "With δ > 0 an example that is correct but closer than δ still triggers an update, so "
     "the run ends with every y(w·x + b) > δ. The proof's ‖w‖² may now grow by R² + 2δ per "
     "update, which is the 2δ in bound (1.4)."),
]
for key, question, options, answer, explanation in QUIZ:
    choice = st.radio(question, options, index=None, key=key)
    if choice is not None:
        (st.success if choice == answer else st.info)(
            ("Right. " if choice == answer else "Not quite. ") + explanation)
