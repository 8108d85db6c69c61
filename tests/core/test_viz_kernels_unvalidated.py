"""/kernels' figures, built as plain dicts without Plotly's validation, are the figures the
validated code built: their JSON as sent to the browser matches the golden file
``tests/golden/kernels_figures.json``, for many data sets, separators and options.

The golden file was written from the validated implementations (go.Figure with graph
objects, ``base_layout``, ``update_layout``/``update_xaxes``) before they were replaced. It
holds each figure's JSON with every typed array replaced by its dtype, shape and the SHA-256
of its bytes (the numbers compared bit for bit, the file small) and the shared template by
its hash. One difference is intended: the preimage's predicted-class grid (0 or 1 in every
cell) is sent as uint8 instead of float64; the golden file holds the uint8 form of the
validated grid, which was checked to hold only 0 and 1.

A golden file is rewritten only on purpose, when a figure is meant to change:
``python tests/core/test_viz_kernels_unvalidated.py`` writes it from the current code.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import pytest
from app_helpers import figure_sent as sent
from app_helpers import plotly_array

from perceptron_core import make_blobs, make_circles, make_xor, with_label_noise
from perceptron_core.viz import kernels as viz
from perceptron_core.viz import style
from perceptron_core.viz.narrow import narrow_figure
from perceptron_core.viz.train import axis_limit

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "kernels_figures.json"


def _digest(array: np.ndarray) -> dict:
    array = np.ascontiguousarray(array)
    return {
        "dtype": array.dtype.str,
        "shape": list(array.shape),
        "sha256": hashlib.sha256(array.tobytes()).hexdigest(),
    }


def fingerprint(value, *, heatmap_z: bool = False):
    """A figure's JSON with every typed array as :func:`_digest` and the template hashed.
    ``heatmap_z``: the value is a heatmap's z of 0s and 1s, taken as uint8 (see above)."""
    if isinstance(value, dict) and "bdata" in value:
        array = plotly_array(value)
        if heatmap_z:
            assert set(np.unique(array)) <= {0, 1}, "a fill grid holds only 0 and 1"
            array = array.astype(np.uint8)
        return _digest(array)
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key == "template":
                text = json.dumps(item, sort_keys=True)
                out[key] = {"sha256": hashlib.sha256(text.encode()).hexdigest()}
            else:
                z = heatmap_z or (key == "z" and value.get("type") == "heatmap")
                out[key] = fingerprint(item, heatmap_z=z and key == "z")
        return out
    if isinstance(value, list):
        return [fingerprint(item) for item in value]
    return value


def data_set(kind: str, n: int, seed: int, noise: float):
    make = {"circles": make_circles, "xor": make_xor, "blobs": make_blobs}[kind]
    ds = make(n=n, seed=seed)
    if noise:
        ds = with_label_noise(ds, noise, seed=seed + 1)
    return np.asarray(ds.X), np.asarray(ds.y)


#: the data sets and lifts of the lift cases, each with three planes (the run's, one always
#: drawn, a vertical one that draws no surface)
LIFT_CASES = [
    (kind, n, seed, noise, lift_name)
    for seed, (kind, n, noise) in enumerate(
        (("circles", 100, 0.0), ("circles", 400, 0.3), ("xor", 60, 0.0), ("blobs", 80, 0.1))
    )
    for lift_name in ("squared_norm", "product")
]
BIAS_TRICK_SEEDS = (0, 1, 2)


def figure_cases(lift_figure, preimage_figure, timing_figure) -> dict:
    """Case name -> a function that builds the figure with the implementations given (the
    validated ones wrote the golden file, the page's own are tested against it)."""
    cases = {}
    for kind, n, seed, noise, lift_name in LIFT_CASES:
        X, y = data_set(kind, n, seed, noise)
        flat, lifted, trace, other = viz.lifted_run(X, y, lift_name, 2_000)
        said = viz.lift_texts(flat, lifted, trace, lift_name, other)
        limit = axis_limit(X, 1.0)
        planes = {
            "run": (said["w"], said["b"]),  # None when no plane separates
            "fixed": (np.array([0.4, -0.3, -1.1 + 0.1 * seed]), 0.2 * seed - 0.3),
            "vertical": (np.array([0.5, 0.5, 0.0]), 0.1),
        }
        for plane, (w, b) in planes.items():
            name = f"{kind}-{n}-{seed}-{noise}-{lift_name}-{plane}"
            cases[f"lift {name}"] = lambda X=X, y=y, ln=lift_name, w=w, b=b, lim=limit: lift_figure(
                X, y, ln, w, b, limit=lim
            )
            cases[f"preimage {name}"] = lambda X=X, y=y, ln=lift_name, w=w, b=b, lim=limit: (
                preimage_figure(X, y, ln, w, b, limit=lim)
            )
    for seed in BIAS_TRICK_SEEDS:
        X, y, _, _, trace = viz.bias_trick_data(seed, 2_000)
        w = np.array([*trace.weights[-1], trace.biases[-1]]) if trace.converged else None
        for label, plane in (("run", w), ("none", None)):
            cases[f"bias trick lift {seed}-{label}"] = lambda X=X, y=y, p=plane: lift_figure(
                X, y, "constant", p, 0.0, limit=1.1, through_origin=True
            )
            cases[f"bias trick preimage {seed}-{label}"] = lambda X=X, y=y, p=plane: (
                preimage_figure(X, y, "constant", p, 0.0, limit=1.1)
            )
    X, y = data_set("circles", 50, 7, 0.0)
    w, b = np.array([0.1, 0.2, -1.0]), 0.4
    cases["lift height 300"] = lambda: lift_figure(
        X, y, "squared_norm", w, b, limit=1.5, height=300
    )
    cases["preimage height 333, grid 40"] = lambda: preimage_figure(
        X, y, "product", w, b, limit=0.9, height=333, grid=40
    )
    rng = np.random.default_rng(3)
    bits = list(range(2, 21))
    explicit = [float(v) if k < 12 else np.nan for k, v in enumerate(rng.uniform(1e-5, 1, 19))]
    kernel = rng.uniform(1e-6, 1e-4, 19).tolist()
    cases["timing"] = lambda: timing_figure(bits, explicit, kernel)
    # a phone's layout (narrow_figure copies and changes the figure)
    Xn, yn = data_set("circles", 60, 2, 0.0)
    wn, bn = np.array([0.0, 0.0, -1.0]), 0.5
    cases["narrow lift"] = lambda: narrow_figure(
        lift_figure(Xn, yn, "squared_norm", wn, bn, limit=1.3)
    )
    cases["narrow timing"] = lambda: narrow_figure(
        timing_figure([2, 3], [1e-3, 2e-3], [1e-4, 1e-4])
    )
    return cases


BASE_LAYOUT_KWARGS = {
    "default": dict(),
    "title, height 400": dict(title="A title", height=400),
    "font 12, height 300": dict(font_size=12, height=300),
    "title t": dict(title="t"),
}


def base_layout_cases(base_layout) -> dict:
    """Every page's figures go through base_layout: a scatter and an empty figure."""
    X, y = data_set("xor", 30, 1, 0.0)
    cases = {}
    for name, kwargs in BASE_LAYOUT_KWARGS.items():
        cases[f"base layout scatter {name}"] = lambda kw=kwargs: base_layout(
            go.Figure([go.Scatter(x=X[:, 0], y=X[:, 1], mode="markers")]), **kw
        )
        cases[f"base layout empty {name}"] = lambda kw=kwargs: base_layout(go.Figure(), **kw)
    return cases


def current_cases() -> dict:
    return figure_cases(viz.lift_figure, viz.preimage_figure, viz.timing_figure) | (
        base_layout_cases(style.base_layout)
    )


@pytest.fixture(scope="module")
def golden() -> dict:
    return json.loads(GOLDEN.read_text())


@pytest.fixture(scope="module")
def cases() -> dict:
    return current_cases()


def test_every_golden_case_is_built(golden, cases):
    assert sorted(golden) == sorted(cases)


@pytest.mark.parametrize("kind", ["lift", "preimage", "bias trick", "other", "base layout"])
def test_the_figures_are_the_golden_ones(golden, cases, kind):
    def of_kind(name: str) -> bool:
        first = name.split(" ")[0]
        if kind == "other":
            return first not in ("lift", "preimage", "bias", "base") or "height" in name
        return name.startswith(kind) and "height" not in name

    names = [name for name in cases if of_kind(name)]
    assert names
    for name in names:
        got = fingerprint(sent(cases[name]()))
        want = golden[name]
        assert got["layout"] == want["layout"], name
        assert got["data"] == want["data"], name


@pytest.mark.parametrize("kwargs", list(BASE_LAYOUT_KWARGS.values()))
def test_the_base_layouts_spec_is_what_it_applies(kwargs):
    """The dict a figure without validation starts from gives the layout base_layout
    applies."""
    X, _ = data_set("xor", 30, 1, 0.0)
    for traces in ([dict(type="scatter", x=X[:, 0], y=X[:, 1], mode="markers")], []):
        made = go.Figure(
            [go.Scatter(**{k: v for k, v in t.items() if k != "type"}) for t in traces]
        )
        spec_figure = style.figure_without_validation(traces, style.base_layout_spec(**kwargs))
        assert sent(spec_figure) == sent(style.base_layout(made, **kwargs))


def test_narrow_figure_leaves_the_original_alone():
    X, y = data_set("circles", 60, 2, 0.0)
    figure = viz.lift_figure(X, y, "squared_norm", np.array([0.0, 0.0, -1.0]), 0.5, limit=1.3)
    before = sent(figure)
    narrow_figure(figure)
    assert sent(figure) == before


def test_the_preimage_fill_is_one_byte_a_cell():
    """The predicted-class grid is sent as uint8: 161 x 161 bytes, where float64 took eight
    times as many."""
    X, y = data_set("circles", 400, 0, 0.0)
    figure = sent(
        viz.preimage_figure(X, y, "squared_norm", np.array([0.0, 0.0, -1.0]), 0.5, limit=1.3)
    )
    fill = next(trace for trace in figure["data"] if trace["type"] == "heatmap")["z"]
    assert fill["dtype"] == "u1" and plotly_array(fill).shape == (161, 161)
    assert set(np.unique(plotly_array(fill))) == {0, 1}


# --- the player's accuracy counts without the (M + 1, n) table --------------------------


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


if __name__ == "__main__":  # rewrite the golden file from the current code
    GOLDEN.write_text(
        json.dumps(
            {name: fingerprint(sent(build())) for name, build in current_cases().items()},
            indent=1,
            sort_keys=True,
        )
        + "\n"
    )
    print("wrote", GOLDEN, file=sys.stderr)
