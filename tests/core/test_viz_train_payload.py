"""The /train player's payload: every number the browser shows, checked without a browser.

The payload is built the way pages/train.py builds it (run, bounds, statements,
proof) and compared with the core's trace, with the textbook loop of
tests/reference_perceptron.py (which examples each step looked at), and with
quantities recomputed here by plain loops.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from reference_perceptron import reference_perceptron

from perceptron_core import (
    bound_summary,
    make_separable,
    proof_quantities,
    run_perceptron,
    with_label_noise,
)
from perceptron_core.io import parse_labelled_csv
from perceptron_core.theory import run_bounds, separability_case
from perceptron_core.viz.player import decode_indices, player_spec, run_id
from perceptron_core.viz.train import axis_limit, draw_figure, player_payload

LIMITS = dict(max_updates=5_000, max_epochs=500)


def build(
    X,
    y,
    *,
    bias=True,
    delta=0.0,
    order="cyclic",
    seed=0,
    w0=None,
    b0=0.0,
    planted=None,
    start_step=None,
):
    """The page's pipeline, step by step: run, bounds, statements, proof, payload."""
    trace = run_perceptron(
        X, y, bias=bias, delta=delta, w0=w0, b0=b0, order=order, seed=seed, **LIMITS
    )
    w0_norm = float(np.hypot(np.linalg.norm(trace.weights[0]), trace.biases[0]))
    bounds = bound_summary(X, y, bias=bias, delta=delta, w0_norm=w0_norm)
    statements = run_bounds(bounds, bias=bias, delta=delta, w0_norm=w0_norm)
    proof = proof_quantities(trace, X, y) if bounds.separable else None
    spec = player_spec(
        run_id(X, y, (bias, delta, order, seed)),
        trace.n_examined,
        trace.update_steps,
        start_step=start_step,
    )
    payload = player_payload(
        X,
        y,
        trace,
        bounds,
        statements=statements,
        case=separability_case(X, y),
        proof=proof,
        w0_norm=w0_norm,
        planted=planted,
        limit=axis_limit(X),
        player=spec,
    )
    return trace, payload


def accuracy_by_loop(X, y, w, b) -> float:
    """Share predicted right, predicting sign(w·x + b) with sign(0) = -1."""
    right = 0
    for x, label in zip(X, y):
        score = w[0] * x[0] + w[1] * x[1] + b
        right += (1 if score > 0 else -1) == label
    return right / len(y)


def data(seed=7, n=40, margin=0.1, **kwargs):
    ds = make_separable(n=n, margin=margin, dim=2, radius=1.0, seed=seed, **kwargs)
    return np.asarray(ds.X), np.asarray(ds.y), ds


CASES = [
    dict(order=order, bias=bias)
    for order in ("cyclic", "permuted", "random", "max_residual", "max_distance")
    for bias in (True, False)
] + [dict(delta=0.5), dict(delta=2.0, order="permuted")]


@pytest.mark.parametrize(
    "settings", CASES, ids=lambda s: "-".join(f"{k}={v}" for k, v in s.items())
)
def test_payload_is_the_trace_and_the_reference_loop(settings):
    X, y, _ = data(through_origin=not settings.get("bias", True))
    trace, payload = build(X, y, seed=3, **settings)
    updates = payload["updates"]
    np.testing.assert_array_equal(np.array(updates["weights"]), trace.weights)
    np.testing.assert_array_equal(updates["biases"], trace.biases)
    assert updates["indices"] == trace.update_indices.tolist()
    assert updates["steps"] == trace.update_steps.tolist()
    assert updates["scores"] == trace.update_scores.tolist()
    assert payload["player"]["update_steps"] == trace.update_steps.tolist()
    assert payload["player"]["n_examined"] == trace.n_examined
    # the example examined at every step: the engine's replay and an independent loop agree
    examined = decode_indices(payload["examined"], trace.n_examined, len(y))
    reference = reference_perceptron(
        X,
        y,
        bias=settings.get("bias", True),
        delta=settings.get("delta", 0.0),
        order=settings.get("order", "cyclic"),
        seed=3,
        **LIMITS,
    )
    assert examined.tolist() == list(reference.examined)
    assert reference.update_indices.tolist() == updates["indices"]
    json.dumps(payload, allow_nan=False)  # what the browser receives is plain JSON


def test_accuracy_counts_points_on_the_line_as_predicted_minus_one():
    X, y, _ = data()
    trace, payload = build(X, y)
    for k in range(trace.n_updates + 1):
        w, b = trace.weights[k], trace.biases[k]
        assert payload["updates"]["accuracy"][k] == pytest.approx(accuracy_by_loop(X, y, w, b))
    # at w = 0 every point is predicted -1: exactly the class -1 share is right
    assert payload["updates"]["accuracy"][0] == pytest.approx(np.mean(y == -1))


@pytest.mark.parametrize("seed", range(12))
def test_the_bound_named_as_holding_is_never_exceeded(seed):
    rng = np.random.default_rng(seed)
    bias = bool(rng.integers(2))
    delta = float(rng.choice([0.0, 0.0, 0.3, 2.0]))
    X, y, _ = data(
        seed=seed,
        n=int(rng.integers(5, 60)),
        margin=float(rng.uniform(0.02, 0.4)),
        through_origin=not bias,
    )
    start = rng.normal(scale=0.5, size=2) if seed % 3 == 0 else None
    trace, payload = build(
        X,
        y,
        bias=bias,
        delta=delta,
        w0=start,
        b0=0.4 if start is not None and bias else 0.0,
        order=str(rng.choice(["cyclic", "permuted", "random"])),
        seed=seed,
    )
    bound = payload["bound"]
    assert bound is not None and trace.converged
    assert trace.n_updates <= bound["value"]
    plain = delta == 0 and start is None
    assert bound["name"].startswith(
        "T(A)" if plain and bias else "(R/γ)²" if plain else "bound (1.4)"
    )
    assert bound["name"] in payload["end_text"] and bound["value_text"] in payload["end_text"]
    if not plain:  # T(A) may be shown only as not applying
        assert "T(A) =" in payload["facts"] and "does not apply" in payload["facts"]


def test_a_bias_free_run_on_data_that_need_a_bias_says_so():
    X, y, _ = data()  # the planted line has an offset
    assert separability_case(X, y) == "with_bias"
    trace, payload = build(X, y, bias=False)
    assert payload["bound"] is None and payload["proof"] is None
    # the margin solver's finding, said as its finding (with its allowance)
    assert "No line through the origin separates these data" in payload["facts"]
    assert "decided in exact arithmetic" in payload["facts"] and "learn a bias" in payload["facts"]
    assert "No line through the origin separates these data" in payload["end_text"]
    assert not trace.converged


def test_non_separable_data_get_the_boundedness_path():
    X, y, ds = data()
    noisy = with_label_noise(ds, 0.2, seed=8)
    X, y = np.asarray(noisy.X), np.asarray(noisy.y)
    trace, payload = build(X, y)
    assert separability_case(X, y) == "none" and payload["bound"] is None
    path = payload["path"]
    assert len(path["norms"]) == trace.n_updates + 1
    np.testing.assert_allclose(
        path["norms"], np.hypot(np.linalg.norm(trace.weights, axis=1), trace.biases)
    )
    assert "Stopped without converging" in payload["end_text"]
    assert "No line separates these data" in payload["facts"]


def test_proof_quantities_are_the_core_ones_and_named_for_the_settings():
    X, y, _ = data()
    trace, payload = build(X, y, delta=0.5)
    proof = proof_quantities(trace, X, y)
    assert payload["proof"]["alignment"] == proof.alignment.tolist()
    assert payload["proof"]["norm_sq_upper"] == proof.norm_sq_upper.tolist()
    assert "2δ" in payload["proof"]["norm_sq_upper_name"]
    assert "γ₂" in payload["proof"]["alignment_lower_name"]  # with a bias: padded margin
    trace, payload = build(X, y, w0=np.array([0.3, -0.2]), b0=0.1)
    assert payload["proof"]["alignment_lower_name"].startswith("⟨(w₀, b₀), w*⟩")


def test_drawn_and_uploaded_data_and_the_start_step():
    X = np.array([[0.5, 0.5], [0.6, 0.4], [-0.5, -0.4], [-0.3, -0.6]])
    y = np.array([1, 1, -1, -1])
    trace, payload = build(X, y, start_step=2)
    assert payload["X"] == X.tolist() and payload["planted"] is None
    assert payload["player"]["start_step"] == 2 and payload["converged"]
    loaded = parse_labelled_csv(b"a,b,label\n1,2,yes\n-1,-2,no\n2,1.5,yes\n-2,-1,no\n")
    trace, payload = build(np.asarray(loaded.X), np.asarray(loaded.y), order="permuted")
    assert payload["y"] == np.asarray(loaded.y).tolist()
    assert payload["updates"]["indices"] == trace.update_indices.tolist()


def test_run_id_changes_with_data_and_settings_only():
    X, y, _ = data()
    assert run_id(X, y, (True, 0.0)) == run_id(X.copy(), y.copy(), (True, 0.0))
    assert run_id(X, y, (True, 0.0)) != run_id(X, y, (True, 0.5))
    assert run_id(X, y, (True, 0.0)) != run_id(X[::-1], y[::-1], (True, 0.0))


@pytest.mark.parametrize("seed", range(8))
def test_the_drawing_numbers_its_examples_from_one(seed):
    """Hovering a drawn point names it example i + 1 (x_1 .. x_n, issue 22): each class
    trace's numbers, minus 1, are the rows of X at exactly the points it draws."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 30))
    X, y = rng.uniform(-1, 1, size=(n, 2)), rng.choice([-1, 1], size=n)
    fig = draw_figure(X, y, limit=1.2)
    numbers = []
    for trace in fig.data[1:]:
        shown = np.asarray(trace.customdata, dtype=int)
        assert "example %{customdata}" in trace.hovertemplate
        np.testing.assert_array_equal(X[shown - 1], np.column_stack([trace.x, trace.y]))
        numbers += shown.tolist()
    assert sorted(numbers) == list(range(1, n + 1))
