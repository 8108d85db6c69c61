"""/kernels' figures built as plain dicts without Plotly's validation (issue #23) are the
figures the validated code built: the same traces, data and layout in the JSON sent to
the browser, for many data sets, separators and options.

The references below are the validated implementations as they were before the change
(go.Figure with graph objects, ``base_layout``, ``update_layout``/``update_xaxes``),
kept here verbatim as the independent "before". One difference is intended: the
preimage's predicted-class grid (0 or 1 in every cell) is sent as uint8 instead of
float64; its values are compared cell by cell.
"""

from __future__ import annotations

import json
import time

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest
from app_helpers import plotly_array

from perceptron_core import make_blobs, make_circles, make_xor, with_label_noise
from perceptron_core.viz import kernels as viz
from perceptron_core.viz import style
from perceptron_core.viz.narrow import narrow_figure
from perceptron_core.viz.train import axis_limit

# --- the validated implementations before the change (the reference) -------------------


def reference_base_layout(fig, *, title=None, height=560, font_size=style.FONT_SIZE):
    fig.update_layout(
        template=style.TEMPLATE,
        font=dict(size=font_size),
        title=dict(text=title) if title else None,
        height=height,
        margin=dict(l=90, r=20, t=90 if title else 60, b=75, autoexpand=False),
        legend=dict(
            orientation="v",
            yanchor="top",
            y=0.99,
            xanchor="left",
            x=0.01,
            bgcolor="rgba(255, 255, 255, 0.85)",
            bordercolor="#dddddd",
            borderwidth=1,
        ),
        hoverlabel=dict(font_size=font_size - 2),
    )
    return fig


def reference_lift_figure(X, y, name, w, b, *, limit, height=520, through_origin=False):
    y = np.asarray(y)
    Z = viz.lift(X, name)
    traces = []
    for label, label_name in ((1, "class +1"), (-1, "class −1")):
        members = y == label
        marker = style.class_marker(label)
        traces.append(
            go.Scatter3d(
                x=Z[members, 0],
                y=Z[members, 1],
                z=Z[members, 2],
                mode="markers",
                name=label_name,
                marker=dict(
                    color=marker["color"], size=4, symbol="circle" if label > 0 else "square"
                ),
            )
        )
    fig = go.Figure(traces)
    if w is not None and abs(w[2]) > 1e-12:
        axis = np.linspace(-limit, limit, 25)
        gx, gy = np.meshgrid(axis, axis)
        gz = -(w[0] * gx + w[1] * gy + b) / w[2]
        span = (float(Z[:, 2].min()), float(Z[:, 2].max()))
        if through_origin:
            span = (min(span[0], 0.0), max(span[1], 0.0))
        pad = 0.3 * max(span[1] - span[0], 0.5)
        gz = np.where((gz >= span[0] - pad) & (gz <= span[1] + pad), gz, np.nan)
        fig.add_trace(
            go.Surface(
                x=gx,
                y=gy,
                z=gz,
                showscale=False,
                opacity=0.45,
                colorscale=[[0, style.WEIGHT], [1, style.WEIGHT]],
                name="separating plane",
                showlegend=True,
                hoverinfo="skip",
            )
        )
    if through_origin:
        fig.add_trace(
            go.Scatter3d(
                x=[0],
                y=[0],
                z=[0],
                mode="markers",
                name="origin",
                marker=dict(color=style.HYPERPLANE, size=6, symbol="diamond"),
            )
        )
    reference_base_layout(fig, height=height)
    fig.update_layout(
        margin=dict(l=0, r=0, t=10, b=0, autoexpand=False),
        scene=dict(
            xaxis=dict(title=dict(text="x₁", font_size=14), tickfont_size=11),
            yaxis=dict(title=dict(text="x₂", font_size=14), tickfont_size=11),
            zaxis=dict(
                title=dict(text="z = " + viz.LIFTS[name][1], font_size=14), tickfont_size=11
            ),
            aspectmode="cube",
            camera=dict(eye=dict(x=1.5, y=-1.6, z=0.9)),
        ),
        uirevision=name,
        legend=dict(font=dict(size=14)),
        meta={"words": viz.lift_words(viz.lift(X, name), y, name, w, b)},
    )
    return fig


def reference_preimage_figure(X, y, name, w, b, *, limit, height=520, grid=161):
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    traces = []
    if w is not None:
        axis = np.linspace(-limit, limit, grid)
        gx, gy = np.meshgrid(axis, axis)
        third, _ = viz.LIFTS[name]
        values = w[0] * gx + w[1] * gy + w[2] * third(gx, gy) + b
        traces.append(
            go.Heatmap(
                x=axis,
                y=axis,
                z=(values > 0).astype(float),
                zmin=0,
                zmax=1,
                showscale=False,
                colorscale=[[0, style.NEGATIVE_FILL], [1, style.POSITIVE_FILL]],
                hoverinfo="skip",
                showlegend=False,
            )
        )
        traces.append(
            go.Contour(
                x=axis,
                y=axis,
                z=values,
                showscale=False,
                hoverinfo="skip",
                contours=dict(start=0, end=0, size=1, coloring="none"),
                line=dict(color=style.HYPERPLANE, width=3),
                name="where the plane cuts: w·Φ(x) + b = 0",
                showlegend=True,
            )
        )
    for label, label_name in ((1, "class +1"), (-1, "class −1")):
        members = y == label
        traces.append(
            go.Scatter(
                x=X[members, 0],
                y=X[members, 1],
                mode="markers",
                name=label_name,
                marker=style.class_marker(label),
            )
        )
    fig = go.Figure(traces)
    reference_base_layout(fig, height=height)
    fig.update_xaxes(range=[-limit, limit], title_text="x₁", constrain="domain")
    fig.update_yaxes(
        range=[-limit, limit], title_text="x₂", scaleanchor="x", scaleratio=1, constrain="domain"
    )
    fig.update_layout(
        margin=dict(l=70, r=10, t=10, b=60, autoexpand=False),
        legend=dict(font=dict(size=14)),
        meta={"words": viz.preimage_words(X, y, name, w, b, limit)},
    )
    return fig


def reference_timing_figure(bits, explicit_seconds, kernel_seconds, *, height=420):
    bits = np.asarray(bits)
    explicit = np.asarray(explicit_seconds, dtype=float) * 1e3
    kernel = np.asarray(kernel_seconds, dtype=float) * 1e3
    fig = go.Figure(
        [
            go.Scatter(
                x=bits,
                y=explicit,
                mode="lines+markers",
                name="written out: Φ(x)·Φ(z)",
                line=dict(color=style.NEGATIVE, width=3),
                marker=dict(symbol="square", size=9),
            ),
            go.Scatter(
                x=bits,
                y=kernel,
                mode="lines+markers",
                name="kernel: 2^|Ones(x, z)|",
                line=dict(color=style.POSITIVE, width=3),
                marker=dict(size=9),
            ),
        ]
    )
    reference_base_layout(fig, height=height)
    fig.update_xaxes(title_text="bits d")
    fig.update_yaxes(title_text="milliseconds (log scale)", type="log", dtick=1)
    return fig


# --- comparing what is sent -------------------------------------------------------------


def sent(fig) -> dict:
    """The figure's JSON as the page sends it (pages/chart.figure_data and st.plotly_chart
    both serialise with pio.to_json)."""
    return json.loads(pio.to_json(fig, validate=False))


def decoded(value):
    """A JSON value with every typed array decoded (values, not encodings)."""
    if isinstance(value, dict) and "bdata" in value:
        return plotly_array(value)
    if isinstance(value, dict):
        return {key: decoded(item) for key, item in value.items()}
    if isinstance(value, list):
        return [decoded(item) for item in value]
    return value


def assert_same_figure(new, reference, *, uint8_fill: bool = False) -> None:
    """The same JSON; with ``uint8_fill``, the heatmap's z may differ only in its dtype
    (uint8 instead of float64), holding the same 0 and 1 in every cell."""
    got, want = sent(new), sent(reference)
    assert got["layout"] == want["layout"]
    assert [t["type"] for t in got["data"]] == [t["type"] for t in want["data"]]
    for mine, theirs in zip(got["data"], want["data"]):
        if uint8_fill and mine["type"] == "heatmap":
            assert mine["z"]["dtype"] == "u1" and theirs["z"]["dtype"] == "f8"
            z_mine, z_theirs = plotly_array(mine.pop("z")), plotly_array(theirs.pop("z"))
            assert z_mine.shape == z_theirs.shape
            np.testing.assert_array_equal(z_mine.astype(float), z_theirs)
            assert set(np.unique(z_theirs)) <= {0.0, 1.0}
        assert mine == theirs


def data_set(kind: str, n: int, seed: int, noise: float):
    make = {"circles": make_circles, "xor": make_xor, "blobs": make_blobs}[kind]
    ds = make(n=n, seed=seed)
    if noise:
        ds = with_label_noise(ds, noise, seed=seed + 1)
    return np.asarray(ds.X), np.asarray(ds.y)


LIFT_CASES = [
    (kind, n, seed, noise, lift_name)
    for seed in range(4)
    for kind, n, noise in (
        ("circles", 100, 0.0),
        ("circles", 400, 0.3),
        ("xor", 60, 0.0),
        ("blobs", 80, 0.1),
    )
    for lift_name in ("squared_norm", "product")
]


@pytest.mark.parametrize("kind, n, seed, noise, lift_name", LIFT_CASES)
def test_the_lift_and_its_curve_are_the_validated_figures(kind, n, seed, noise, lift_name):
    X, y = data_set(kind, n, seed, noise)
    flat, lifted, trace, other = viz.lifted_run(X, y, lift_name, 2_000)
    said = viz.lift_texts(flat, lifted, trace, lift_name, other)
    limit = axis_limit(X, 1.0)
    planes = [
        (said["w"], said["b"]),  # the run's plane, or None when none separates
        (np.array([0.4, -0.3, -1.1 + 0.1 * seed]), 0.2 * seed - 0.3),  # a plane always
        (np.array([0.5, 0.5, 0.0]), 0.1),
    ]  # a vertical plane: no surface drawn
    for w, b in planes:
        assert_same_figure(
            viz.lift_figure(X, y, lift_name, w, b, limit=limit),
            reference_lift_figure(X, y, lift_name, w, b, limit=limit),
        )
        assert_same_figure(
            viz.preimage_figure(X, y, lift_name, w, b, limit=limit),
            reference_preimage_figure(X, y, lift_name, w, b, limit=limit),
            uint8_fill=w is not None,
        )


@pytest.mark.parametrize("seed", range(6))
def test_the_bias_trick_figures_are_the_validated_figures(seed):
    X, y, _, _, trace = viz.bias_trick_data(seed, 2_000)
    w = np.array([*trace.weights[-1], trace.biases[-1]]) if trace.converged else None
    for plane in (w, None):
        assert_same_figure(
            viz.lift_figure(X, y, "constant", plane, 0.0, limit=1.1, through_origin=True),
            reference_lift_figure(X, y, "constant", plane, 0.0, limit=1.1, through_origin=True),
        )
        assert_same_figure(
            viz.preimage_figure(X, y, "constant", plane, 0.0, limit=1.1),
            reference_preimage_figure(X, y, "constant", plane, 0.0, limit=1.1),
            uint8_fill=plane is not None,
        )


def test_other_heights_and_grids_match_too():
    X, y = data_set("circles", 50, 7, 0.0)
    w, b = np.array([0.1, 0.2, -1.0]), 0.4
    assert_same_figure(
        viz.lift_figure(X, y, "squared_norm", w, b, limit=1.5, height=300),
        reference_lift_figure(X, y, "squared_norm", w, b, limit=1.5, height=300),
    )
    assert_same_figure(
        viz.preimage_figure(X, y, "product", w, b, limit=0.9, height=333, grid=40),
        reference_preimage_figure(X, y, "product", w, b, limit=0.9, height=333, grid=40),
        uint8_fill=True,
    )


def test_the_timing_chart_is_the_validated_figure():
    rng = np.random.default_rng(3)
    bits = list(range(2, 21))
    explicit = [float(v) if k < 12 else np.nan for k, v in enumerate(rng.uniform(1e-5, 1, 19))]
    kernel = rng.uniform(1e-6, 1e-4, 19).tolist()
    assert_same_figure(
        viz.timing_figure(bits, explicit, kernel), reference_timing_figure(bits, explicit, kernel)
    )


@pytest.mark.parametrize(
    "kwargs",
    [dict(), dict(title="A title", height=400), dict(font_size=12, height=300), dict(title="t")],
)
def test_base_layout_is_unchanged_and_its_spec_is_what_it_applies(kwargs):
    """Every page's figures go through base_layout: its result is the old one's, and the
    dict a figure without validation starts from gives the same layout."""
    X, y = data_set("xor", 30, 1, 0.0)
    for make in (
        lambda: go.Figure([go.Scatter(x=X[:, 0], y=X[:, 1], mode="markers")]),
        lambda: go.Figure(),
    ):
        want = sent(reference_base_layout(make(), **kwargs))
        assert sent(style.base_layout(make(), **kwargs)) == want
        bare = sent(make())
        spec_figure = style.figure_without_validation(
            bare["data"] and [dict(type="scatter", x=X[:, 0], y=X[:, 1], mode="markers")],
            style.base_layout_spec(**kwargs),
        )
        assert sent(spec_figure) == want


def test_a_phone_gets_the_same_narrow_figure():
    """narrow_figure (a phone's layout) copies and changes the figure: the same result from
    the unvalidated figure as from the validated one, and the original is left alone."""
    X, y = data_set("circles", 60, 2, 0.0)
    w, b = np.array([0.0, 0.0, -1.0]), 0.5
    for new, reference in (
        (
            viz.lift_figure(X, y, "squared_norm", w, b, limit=1.3),
            reference_lift_figure(X, y, "squared_norm", w, b, limit=1.3),
        ),
        (
            viz.timing_figure([2, 3], [1e-3, 2e-3], [1e-4, 1e-4]),
            reference_timing_figure([2, 3], [1e-3, 2e-3], [1e-4, 1e-4]),
        ),
    ):
        before = sent(new)
        assert_same_figure(narrow_figure(new), narrow_figure(reference))
        assert sent(new) == before


def test_the_preimage_fill_is_an_eighth_of_the_bytes():
    X, y = data_set("circles", 400, 0, 0.0)
    w, b = np.array([0.0, 0.0, -1.0]), 0.5
    new = len(pio.to_json(viz.preimage_figure(X, y, "squared_norm", w, b, limit=1.3)))
    old = len(
        pio.to_json(
            reference_preimage_figure(X, y, "squared_norm", w, b, limit=1.3), validate=False
        )
    )
    fill = 161 * 161 * 7 * 4 / 3  # the float64 bytes of the grid saved, in base64
    assert old - new > 0.95 * fill


def test_building_without_validation_is_much_cheaper():
    """CPU time of the four figures of the lift and the bias trick, new against the
    validated reference, interleaved in this process (medians of 7): at most half."""
    X, y = data_set("circles", 400, 5, 0.0)
    Xb, yb, _, _, trace = viz.bias_trick_data(5, 2_000)
    wb = np.array([*trace.weights[-1], trace.biases[-1]])
    w, b = np.array([0.1, 0.0, -1.0]), 0.5

    def four(lift_figure, preimage_figure):
        def build():
            lift_figure(X, y, "squared_norm", w, b, limit=1.3)
            preimage_figure(X, y, "squared_norm", w, b, limit=1.3)
            lift_figure(Xb, yb, "constant", wb, 0.0, limit=1.1, through_origin=True)
            preimage_figure(Xb, yb, "constant", wb, 0.0, limit=1.1)

        return build

    new, old = (
        four(viz.lift_figure, viz.preimage_figure),
        four(reference_lift_figure, reference_preimage_figure),
    )
    times = {new: [], old: []}
    for _ in range(7):
        for build in (new, old):
            began = time.process_time()
            build()
            times[build].append(time.process_time() - began)
    assert np.median(times[new]) <= 0.5 * np.median(times[old]), times


# --- the player's accuracy counts without the (M + 1, n) table (issue #23) ----------------


def reference_training_accuracy(trace):
    """The counts as computed before: from the core's decision_path on the training set."""
    values = trace.decision_path(trace.X)
    predictions = np.where(values > 0, 1, -1)
    return (
        np.mean(predictions == trace.y[None, :], axis=1),
        np.sum(trace.y[None, :] * values <= 0, axis=1),
    )


@pytest.mark.parametrize("seed", range(8))
def test_training_accuracy_is_decision_paths_bit_for_bit(seed):
    """Every kernel, with and without a bias, separable or not; n = 2 100 runs over two of
    decision_path's blocks of updates (1 997 updates each). Small integer grids make exact
    zeros of f, where sign(0) = -1 and y f(x) = 0 both count."""
    from perceptron_core import kernel_perceptron

    rng = np.random.default_rng(seed)
    cases = [
        (data_set("circles", 300, seed, 0.3), dict(kernel="rbf", scale=2.0)),
        (data_set("xor", 200, seed, 0.0), dict(kernel="poly", degree=2, coef0=1.0)),
        (data_set("blobs", 150, seed, 0.1), dict(kernel="linear")),
        (
            (rng.integers(-2, 3, (40, 2)).astype(float), np.where(rng.random(40) < 0.5, -1, 1)),
            dict(kernel="linear"),
        ),
    ]
    if seed < 2:
        cases.append((data_set("circles", 2_100, seed, 0.3), dict(kernel="rbf", scale=2.0)))
    for (X, y), kernel in cases:
        trace = kernel_perceptron(
            X,
            y,
            bias=seed % 2 == 0,
            order="cyclic",
            seed=seed,
            max_updates=2_000,
            max_epochs=500,
            **kernel,
        )
        accuracy, wrong_side = viz.training_accuracy(trace)
        want_accuracy, want_wrong = reference_training_accuracy(trace)
        np.testing.assert_array_equal(accuracy, want_accuracy)
        np.testing.assert_array_equal(wrong_side, want_wrong)
        every = viz.GramColumns(trace, np.arange(len(y)))  # all n columns: the same counts
        np.testing.assert_array_equal(every.values, viz.gram_matrix(trace))
        shared = viz.training_accuracy(trace, every)
        np.testing.assert_array_equal(shared[0], want_accuracy)
        np.testing.assert_array_equal(shared[1], want_wrong)
        # the same sums over Gram columns computed in blocks of other widths: BLAS may
        # round a product differently with the block, so equal to the last bits
        np.testing.assert_allclose(
            viz.feature_norms_sq(trace, every), viz.feature_norms_sq(trace), rtol=1e-14, atol=0
        )
        if trace.converged:  # a separator: the last step counts every example right
            assert accuracy[-1] == 1.0 and wrong_side[-1] == 0


@pytest.mark.parametrize("seed", range(4))
def test_the_payloads_feature_space_numbers_match_the_whole_gram_matrix(seed):
    """‖w‖², ⟨w, u⟩ and the counts from the Gram matrix's needed columns (GramColumns) are
    those from the whole (n, n) matrix, as computed before; and a run with no update."""
    from perceptron_core import kernel_margin, kernel_perceptron

    X, y = data_set("circles", 120, seed, 0.0)
    for kernel in (dict(kernel="rbf", scale=2.0), dict(kernel="poly", degree=2, coef0=1.0)):
        trace = kernel_perceptron(
            X,
            y,
            bias=True,
            order="permuted",
            seed=seed,
            max_updates=2_000,
            max_epochs=500,
            **kernel,
        )
        margin = kernel_margin(X, y, bias=True, **kernel)
        assert margin.separable
        gram = viz.gram_matrix(trace)
        ids = trace.update_indices
        want_norms = np.concatenate(
            [[0.0], np.cumsum(2.0 * trace.update_scores + np.diag(gram)[ids] + 1.0)]
        )
        np.testing.assert_allclose(viz.feature_norms_sq(trace), want_norms, rtol=1e-12)
        support, weights = margin.support, margin.support_weights
        yf = y.astype(float)
        products = yf * ((gram[:, support] + 1.0) @ (weights * yf[support]))
        along = products / np.sqrt(weights @ products[support])
        want_alignment = np.concatenate([[0.0], np.cumsum(along[ids])])
        payload = viz.player_payload(trace, margin, limit=1.3, player={})
        np.testing.assert_allclose(payload["updates"]["norm_sq"], want_norms, rtol=1e-12)
        np.testing.assert_allclose(
            payload["updates"]["alignment"], want_alignment, rtol=1e-12, atol=1e-12
        )
        want_accuracy, want_wrong = reference_training_accuracy(trace)
        assert payload["updates"]["accuracy"] == want_accuracy.tolist()
        assert payload["updates"]["wrong_side"] == want_wrong.tolist()
    # no example asked for: no kernel evaluated, n rows and no column
    assert viz.GramColumns(trace, []).values.shape == (len(y), 0)
