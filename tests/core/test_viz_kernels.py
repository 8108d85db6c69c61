"""The /kernels payload and figures against the core: every number the browser shows.

The player draws f on a grid itself (pages/player/kernels_scene.js, checked against
decision_path in test_browser_kernels.py); everything else it shows comes from
player_payload, checked here against independent computations.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from perceptron_core import (
    kernel_margin,
    kernel_perceptron,
    make_circles,
    make_xor,
    with_label_noise,
)
from perceptron_core.kernels import KERNELS, kernel_no_separator_proof
from perceptron_core.viz.kernels import (
    LIFTS,
    Separation,
    bias_trick_data,
    bias_trick_text,
    lift,
    lift_figure,
    lift_texts,
    player_payload,
    preimage_figure,
    timing_figure,
)
from perceptron_core.viz.player import decode_indices, player_spec

CASES = [
    ("circles", dict(kernel="rbf", scale=2.0, bias=True, order="cyclic")),
    ("xor", dict(kernel="poly", degree=2, coef0=1.0, scale=1.0, bias=True, order="permuted")),
    ("xor", dict(kernel="poly", degree=2, coef0=0.5, scale=1.0, bias=False, order="random")),
    ("noisy", dict(kernel="rbf", scale=5.0, bias=True, order="max_residual")),
    ("xor", dict(kernel="linear", bias=True, order="cyclic")),  # not separable: stops at its limit
]


def data(name, seed):
    if name == "circles":
        ds = make_circles(n=60, seed=seed)
    elif name == "xor":
        ds = make_xor(n=60, seed=seed)
    else:
        ds = with_label_noise(make_circles(n=60, seed=seed), 0.1, seed=seed + 1)
    return np.asarray(ds.X), np.asarray(ds.y)


def build(name, settings, seed=0):
    X, y = data(name, seed)
    trace = kernel_perceptron(X, y, **settings, seed=seed, max_updates=300, max_epochs=200)
    params = {k: v for k, v in settings.items() if k != "order"}
    margin = kernel_margin(X, y, **params)
    proof = None if margin.separable else kernel_no_separator_proof(X, y, **params, margin=margin)
    spec = player_spec("id", trace.n_examined, trace.update_steps)
    return X, y, trace, margin, player_payload(trace, margin, limit=1.5, player=spec, proof=proof)


def padded_gram(X, trace):
    gram = KERNELS[trace.kernel](X, X, degree=trace.degree, coef0=trace.coef0, scale=trace.scale)
    return gram + 1.0 if trace.bias else gram


@pytest.mark.parametrize("name, settings", CASES)
@pytest.mark.parametrize("seed", [0, 3])
def test_payload_numbers_match_independent_computations(name, settings, seed):
    X, y, trace, margin, payload = build(name, settings, seed)
    json.dumps(payload, allow_nan=False)  # JSON-ready, no NaN or infinity
    up = payload["updates"]
    assert up["indices"] == trace.update_indices.tolist()
    assert up["steps"] == trace.update_steps.tolist() == payload["player"]["update_steps"]
    np.testing.assert_array_equal(up["scores"], trace.update_scores)
    np.testing.assert_array_equal(up["biases"], trace.biases)
    G = padded_gram(X, trace)
    M = trace.n_updates
    for k in range(M + 1):
        # f after k updates from scratch: alpha counts of the first k updates (eq. 2)
        alpha = np.bincount(trace.update_indices[:k], minlength=len(y))
        f = G @ (alpha * y)  # K~ = K + 1 with a bias, so this includes b
        correct = np.where(f > 0, 1, -1) == y
        assert up["accuracy"][k] == pytest.approx(correct.mean())
        assert up["wrong_side"][k] == int(np.sum(y * f <= 1e-9 * (1 + np.abs(f)))) or up[
            "wrong_side"
        ][k] == int(np.sum(y * f <= 0))
        # ‖w_k‖² = Σ α_i α_j y_i y_j K~(x_i, x_j)
        ay = alpha * y
        assert up["norm_sq"][k] == pytest.approx(ay @ G @ ay, rel=1e-9, abs=1e-9)
    examined = decode_indices(payload["examined"], trace.n_examined, len(y))
    np.testing.assert_array_equal(
        examined, trace.indices_at_steps(np.arange(1, trace.n_examined + 1))
    )
    assert payload["kernel"]["name"] == trace.kernel
    assert payload["bias"] is trace.bias
    assert payload["converged"] is trace.converged
    if margin.separable:
        assert payload["bound"]["value"] == margin.bound
        assert payload["bound"]["radius"] == margin.radius
        assert payload["bound"]["margin"] == margin.margin
        assert M <= margin.bound  # Theorem 1.28 in feature space
        steps = np.diff(up["alignment"])
        # every update raises <w, u> by at least gamma_Phi; <w, u> <= ‖w‖ (u is a unit vector)
        assert np.all(steps >= margin.margin * (1 - 1e-7))
        assert np.all(np.asarray(up["alignment"]) <= np.sqrt(up["norm_sq"]) * (1 + 1e-9) + 1e-9)
        assert "(R_Φ/γ_Φ)²" in payload["facts"]
        assert ("Converged" if trace.converged else "allows up to") in payload["end_text"]
    else:
        assert payload["bound"] is None and up["alignment"] is None
        assert "no mistake bound" in payload["facts"] and "never stops" in payload["facts"]
        assert "Stopped" in payload["end_text"] and not trace.converged


def explicit_degree2(X, coef0):
    """Φ with Φ(x)·Φ(z) = (x·z + c)²: x_i x_j for all i, j; √(2c) x; c."""
    outer = np.einsum("ni,nj->nij", X, X).reshape(len(X), -1)
    return np.hstack([outer, np.sqrt(2 * coef0) * X, np.full((len(X), 1), coef0)])


def test_alignment_is_the_projection_on_the_explicit_max_margin_direction():
    X, y, trace, margin, payload = build("xor", CASES[1][1], seed=1)
    A = y[:, None] * np.hstack([explicit_degree2(X, 1.0), np.ones((len(y), 1))])  # a_i = y (Φ, 1)
    p = margin.support_weights @ A[margin.support]
    u = p / np.linalg.norm(p)
    assert np.min(A @ u) == pytest.approx(margin.margin, rel=1e-6)
    for k in range(trace.n_updates + 1):
        w = np.bincount(trace.update_indices[:k], minlength=len(y)) @ A
        assert payload["updates"]["alignment"][k] == pytest.approx(w @ u, rel=1e-7, abs=1e-9)
        assert payload["updates"]["norm_sq"][k] == pytest.approx(w @ w, rel=1e-9, abs=1e-9)


def test_texts_name_the_kernel_and_its_parameters():
    *_, payload = build("circles", CASES[0][1])
    assert payload["kernel"]["text"] == "K(x, z) = exp(−κ ‖x − z‖²) with κ = 2 (width σ = 0.5)"
    *_, payload = build("xor", CASES[1][1])
    assert "degree 2, c = 1" in payload["kernel"]["text"]


@pytest.mark.parametrize("name", list(LIFTS))
def test_lift_and_the_preimage_curve(name):
    X, y = data("circles", 0)
    Z = lift(X, name)
    np.testing.assert_array_equal(Z[:, :2], X)
    third = {
        "squared_norm": X[:, 0] ** 2 + X[:, 1] ** 2,
        "product": X[:, 0] * X[:, 1],
        "constant": np.ones(len(X)),
    }[name]
    np.testing.assert_allclose(Z[:, 2], third)
    w, b = np.array([0.3, -0.2, -1.0]), 0.25
    fig = preimage_figure(X, y, name, w, b, limit=1.3)
    fill = fig.data[0]
    gx, gy = np.meshgrid(fill.x, fill.y)
    g = w[0] * gx + w[1] * gy + w[2] * LIFTS[name][0](gx, gy) + b
    np.testing.assert_array_equal(np.asarray(fill.z), (g > 0).astype(float))  # predicted side
    lifted = lift_figure(X, y, name, w, b, limit=1.3)
    surface = [t for t in lifted.data if t.type == "surface"][0]
    sx, sy, sz = (np.asarray(v, dtype=float) for v in (surface.x, surface.y, surface.z))
    shown = np.isfinite(sz)
    assert shown.any()
    np.testing.assert_allclose((w[0] * sx + w[1] * sy + w[2] * sz + b)[shown], 0, atol=1e-12)
    assert lifted.layout.margin.autoexpand is False


def test_no_plane_is_drawn_without_a_separator():
    X, y = data("xor", 0)
    assert [t.type for t in lift_figure(X, y, "product", None, 0.0, limit=1.2).data] == [
        "scatter3d",
        "scatter3d",
    ]
    assert [t.type for t in preimage_figure(X, y, "product", None, 0.0, limit=1.2).data] == [
        "scatter",
        "scatter",
    ]


def test_timing_chart_is_in_milliseconds_on_a_log_axis():
    fig = timing_figure([2, 3, 4], [1e-4, 2e-4, np.nan], [1e-5, 1e-5, 1e-5])
    assert fig.layout.yaxis.type == "log"
    np.testing.assert_allclose(fig.data[0].y[:2], [0.1, 0.2])
    np.testing.assert_allclose(fig.data[1].y, [0.01, 0.01, 0.01])


def test_a_no_separator_claim_without_its_proof_is_refused_with_a_value_error():
    # Separation(False) promises a proof; one built without it gets a message, not an
    # AttributeError from deep in the text
    X, y, through_origin, free, trace = bias_trick_data(0, 200)
    assert through_origin.separable is False and through_origin.proof is not None
    # with its proof the sentence names the balancing points
    assert "no line through the origin" in bias_trick_text(through_origin, free, trace)
    with pytest.raises(ValueError, match="must carry its proof"):
        bias_trick_text(Separation(False), free, trace)
    flat = Separation(False)
    lifted = Separation(None, hull_distance=0.5)
    with pytest.raises(ValueError, match="must carry its proof"):
        lift_texts(flat, lifted, trace, "product")
