"""/train: watch the perceptron learn, one mistake (or one example) at a time."""

import numpy as np
import streamlit as st

from pages.common import core_call, page_header, show_chart
from perceptron_core import (ORDERS, bound_summary, make_separable, proof_quantities,
                             run_perceptron)
from perceptron_core.viz.train import (animation_figure, axis_limit, proof_figure, step_figure,
                                       vector_scale)

SPEEDS = {"slow": 900, "medium": 450, "fast": 150}

page_header("Train, one mistake at a time",
            "Each press examines the data in the chosen order. When an example is on the wrong "
            "side of the line (or too close: $y(\\mathbf w\\cdot\\mathbf x+b)\\le\\delta$), "
            "the perceptron adds $y\\,\\mathbf x$ to $\\mathbf w$ and $y$ to $b$. "
            "Nothing else ever changes $\\mathbf w$.")

with st.sidebar:
    st.header("Data")
    n = st.number_input("points n", 2, 2000, 40, step=10, key="n")
    margin = st.slider("margin γ", 0.01, 0.5, 0.1, 0.01, key="margin")
    data_seed = st.number_input("data seed", 0, 1_000_000, 7, key="data_seed")
    through_origin = st.checkbox("hyperplane through the origin", False, key="through_origin")
    balance = st.slider("share of class +1", 0.1, 0.9, 0.5, 0.05, key="balance")
    show_planted = st.toggle("show the planted separator w* and its margin band", True,
                             key="show_planted")
    st.header("Algorithm")
    bias = st.toggle("learn a bias b", True, key="bias")
    delta = st.number_input("threshold δ", 0.0, 10.0, 0.0, 0.1, key="delta")
    order = st.selectbox("order of examples", list(ORDERS), format_func=ORDERS.get, key="order")
    start = st.radio("initial w", ["zero", "random"], horizontal=True, key="init")
    order_seed = st.number_input("order / init seed", 0, 1_000_000, 0, key="order_seed")


@st.cache_data(show_spinner="Training…", max_entries=64)
def train(n, margin, data_seed, through_origin, balance, bias, delta, order, start, order_seed):
    """Data, the full trace, the bounds and the proof quantities: all pages need."""
    data = make_separable(n=n, margin=margin, dim=2, radius=1.0, seed=data_seed,
                          through_origin=through_origin, balance=balance)
    rng = np.random.default_rng(order_seed)
    w0 = rng.normal(scale=0.5, size=2) if start == "random" else None
    b0 = float(rng.normal(scale=0.5)) if start == "random" and bias else 0.0
    trace = run_perceptron(data.X, data.y, bias=bias, delta=delta, w0=w0, b0=b0, order=order,
                           seed=order_seed, max_updates=5_000, max_epochs=500)
    w0_norm = float(np.hypot(np.linalg.norm(trace.weights[0]), trace.biases[0]))
    bounds = bound_summary(data.X, data.y, bias=bias, delta=delta, w0_norm=w0_norm)
    proof = proof_quantities(trace, data.X, data.y) if bounds.separable else None
    return data, trace, bounds, proof


run = core_call(train, n, margin, data_seed, through_origin, balance, bias, delta, order,
                start, order_seed)
if run is None:
    st.info("The previous picture is kept until the settings above are valid.")
    st.stop()
data, trace, bounds, proof = run
X, y = np.asarray(data.X), np.asarray(data.y)

# one position per student: examined step s (0 = nothing examined yet)
signature = (n, margin, data_seed, through_origin, balance, bias, delta, order, start, order_seed)
if st.session_state.get("train_signature") != signature:
    st.session_state.train_signature = signature
    st.session_state.train_position = 0
    st.session_state.train_history = []
    st.session_state.update_slider = 0

update_steps = np.asarray(trace.update_steps)


def move_to(position):
    """Go to examined step ``position``; remember where we were for 'back'."""
    st.session_state.train_history.append(st.session_state.train_position)
    st.session_state.train_position = int(np.clip(position, 0, trace.n_examined))
    st.session_state.update_slider = trace.updates_before_step(
        st.session_state.train_position + 1)


def next_mistake():
    later = update_steps[update_steps > st.session_state.train_position]
    move_to(later[0] if later.size else trace.n_examined)


def go_back():
    history = st.session_state.train_history
    st.session_state.train_position = history.pop() if history else 0
    st.session_state.update_slider = trace.updates_before_step(
        st.session_state.train_position + 1)


def jump_to_update():
    update = st.session_state.update_slider
    st.session_state.train_history.append(st.session_state.train_position)
    st.session_state.train_position = int(update_steps[update - 1]) if update > 0 else 0


def reset():
    st.session_state.train_position = 0
    st.session_state.train_history = []
    st.session_state.update_slider = 0


def describe(step) -> str:
    """The numbers of this step in words."""
    x = X[step.index]
    score_text = f"y(w·x + b) = {step.score:+.3f}"
    head = (f"**Example {step.index}**, x = ({x[0]:.2f}, {x[1]:.2f}), y = {y[step.index]:+d}: "
            f"{score_text}")
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
    with st.container(horizontal=True, key="step_controls"):
        st.button("Next mistake", key="next_mistake", on_click=next_mistake, type="primary",
                  icon=":material/skip_next:", disabled=position >= trace.n_examined)
        st.button("Next example", key="next_example", icon=":material/arrow_forward:",
                  on_click=lambda: move_to(st.session_state.train_position + 1),
                  disabled=position >= trace.n_examined)
        st.button("Back", key="prev", on_click=go_back, icon=":material/undo:",
                  disabled=position == 0)
        st.button("Reset", key="reset", on_click=reset, icon=":material/restart_alt:")
        st.button("Run to end", key="run_to_end", on_click=lambda: move_to(trace.n_examined),
                  icon=":material/fast_forward:", disabled=position >= trace.n_examined)
    if trace.n_updates > 0:
        st.slider("Jump to update", 0, trace.n_updates, key="update_slider",
                  on_change=jump_to_update)
    updates_done = trace.updates_before_step(position + 1)
    w, b = trace.weights[updates_done], float(trace.biases[updates_done])
    step = trace.example_at(position, X, y) if position > 0 else None
    previous = None
    if step is not None and step.updated:
        previous = (trace.weights[updates_done - 1], float(trace.biases[updates_done - 1]))
    limit = axis_limit(X, data.radius)
    chart, numbers = st.columns([3, 2], gap="medium")
    with chart:
        show_chart(step_figure(X, y, w, b, limit=limit, scale=vector_scale(trace.weights, limit),
                               previous=previous, example=None if step is None else step.index,
                               updated=bool(step and step.updated),
                               planted=(data.w_star, data.b_star, data.margin),
                               show_planted=show_planted), key="train_chart")
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
            bound = bounds.general
            st.progress(min(1.0, updates_done / bound),
                        text=f"{updates_done} updates of at most {bound:,.0f} (bound 1.4)")
    if position >= trace.n_examined:
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
    else:
        st.info("With these settings the data are not separable, so no bound applies "
                "(try turning the bias on, or the hyperplane through the origin).")


stepper()



@st.cache_data(show_spinner=False, max_entries=32)
def animation(settings, planted_shown, frame_ms):
    """The whole run as Plotly frames; built once per settings, played in the browser."""
    data, trace, _, _ = train(*settings)
    X, limit = np.asarray(data.X), axis_limit(data.X, data.radius)
    return animation_figure(X, np.asarray(data.y), trace.weights, trace.biases,
                            trace.update_indices, limit=limit,
                            scale=vector_scale(trace.weights, limit),
                            planted=(data.w_star, data.b_star, data.margin),
                            show_planted=planted_shown, frame_ms=frame_ms)


st.subheader("Play every update")
st.caption("Play runs in your browser: every update is a frame, so nothing waits for the server.")
speed = st.select_slider("animation speed", list(SPEEDS), value="medium", key="speed")
show_chart(animation(signature, show_planted, SPEEDS[speed]), key="animation_chart")
