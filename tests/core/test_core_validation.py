"""Every ValueError path says what is wrong; inputs are never modified; results are read-only."""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_core import (
    ScriptedLearner,
    adversarial_lower_bound,
    adversary_size,
    aggressive_counterexample,
    always_wrong_sequence,
    bound_summary,
    example_order,
    make_blobs,
    make_circles,
    make_separable,
    make_xor,
    max_margin,
    padded_margin,
    padded_separator,
    proof_quantities,
    run_perceptron,
    with_label_noise,
)

X_OK = np.array([[0.0, 1.0], [1.0, 0.0], [-1.0, 0.5], [0.3, -2.0]])
Y_OK = np.array([1, 1, -1, -1])

# (X, y, pattern the message must match)
BAD_DATA = {
    "1-D X": (np.array([1.0, 2.0, 3.0]), np.array([1, -1, 1]), r"X is 1-D.*reshape"),
    "3-D X": (np.zeros((4, 2, 2)), Y_OK, r"X must be 2-D.*3-D"),
    "no columns": (np.zeros((4, 0)), Y_OK, r"X has no columns"),
    "n = 0": (np.zeros((0, 2)), np.array([], dtype=int), r"X has no rows"),
    "text X": ([["a", "b"], ["c", "d"]], np.array([1, -1]), r"X must be a numeric array"),
    "NaN in X": (np.where(np.eye(4, 2) == 1, np.nan, X_OK), Y_OK, r"X contains NaN or infinity"),
    "inf in X": (np.where(np.eye(4, 2) == 1, np.inf, X_OK), Y_OK, r"X contains NaN or infinity"),
    "-inf in X": (np.where(np.eye(4, 2) == 1, -np.inf, X_OK), Y_OK, r"X contains NaN or infinity"),
    "y too short": (X_OK, Y_OK[:3], r"y has 3 labels but X has 4 rows"),
    "y too long": (X_OK, np.array([1, -1, 1, -1, 1]), r"y has 5 labels but X has 4 rows"),
    "2-D y": (X_OK, Y_OK[:, None], r"y must be 1-D"),
    "labels 0/1": (X_OK, np.array([1, 1, 0, 0]), r"labels must be -1 or \+1; y\[2\] = 0"),
    "labels 1/2": (X_OK, np.array([1, 2, 1, 2]), r"labels must be -1 or \+1; y\[1\] = 2"),
    "NaN label": (X_OK, np.array([1.0, np.nan, -1.0, 1.0]), r"y contains NaN"),
}
# data of one class (and one row) are accepted: tests/core/test_core_one_class.py

DATA_FUNCTIONS = {
    "run_perceptron": run_perceptron,
    "max_margin": max_margin,
    "max_margin_no_bias": lambda X, y: max_margin(X, y, bias=False),
    "padded_margin": padded_margin,
    "padded_separator": padded_separator,
    "bound_summary": bound_summary,
}


@pytest.mark.parametrize("case", list(BAD_DATA))
@pytest.mark.parametrize("function", list(DATA_FUNCTIONS))
def test_bad_data_is_rejected_with_a_helpful_message(function, case):
    X, y, pattern = BAD_DATA[case]
    with pytest.raises(ValueError, match=pattern):
        DATA_FUNCTIONS[function](X, y)


# (keyword arguments for run_perceptron, pattern)
BAD_RUN_OPTIONS = {
    "negative delta": (dict(delta=-0.1), r"delta"),
    "NaN delta": (dict(delta=float("nan")), r"delta"),
    "text delta": (dict(delta="0"), r"delta"),
    "unknown order": (dict(order="sorted"), r"unknown order 'sorted'"),
    "max_updates 0": (dict(max_updates=0), r"max_updates must be >= 1"),
    "max_updates -5": (dict(max_updates=-5), r"max_updates"),
    "max_updates 1.5": (dict(max_updates=1.5), r"max_updates must be a whole number"),
    "max_updates bool": (dict(max_updates=True), r"max_updates must be a number"),
    "max_epochs 0": (dict(max_epochs=0), r"max_epochs must be >= 1"),
    "w0 too short": (dict(w0=np.zeros(1)), r"w0 must have shape \(2,\)"),
    "w0 too long": (dict(w0=np.zeros(3)), r"w0 must have shape \(2,\)"),
    "w0 2-D": (dict(w0=np.zeros((1, 2))), r"w0 must have shape"),
    "w0 NaN": (dict(w0=np.array([0.0, np.nan])), r"w0 contains NaN"),
    "b0 without bias": (dict(b0=0.5, bias=False), r"b0 must be 0 when bias=False"),
    "b0 NaN": (dict(b0=float("nan")), r"b0"),
    "negative seed": (dict(seed=-1, order="permuted"), r"seed"),
    "float seed": (dict(seed=1.5, order="random"), r"seed"),
    "aggressive greedy max_residual": (
        dict(aggressive=True, order="max_residual"),
        r"aggressive rule.*stream order",
    ),
    "aggressive greedy max_distance": (
        dict(aggressive=True, order="max_distance"),
        r"aggressive rule.*stream order",
    ),
}


@pytest.mark.parametrize("case", list(BAD_RUN_OPTIONS))
def test_bad_run_options_are_rejected(case):
    kwargs, pattern = BAD_RUN_OPTIONS[case]
    with pytest.raises(ValueError, match=pattern):
        run_perceptron(X_OK, Y_OK, **kwargs)


def test_zero_b0_is_fine_without_bias():
    trace = run_perceptron(X_OK, Y_OK, bias=False, b0=0.0)
    assert trace.b == 0.0


def test_example_order_rejects_greedy_orders():
    with pytest.raises(ValueError, match=r"order 'max_residual' has no fixed stream"):
        example_order("max_residual", 5, 0, 0)


# (generator call, pattern)
BAD_GENERATOR_CALLS = {
    "margin = radius": (lambda: make_separable(margin=1.0, radius=1.0), r"margin must be smaller"),
    "margin > radius": (lambda: make_separable(margin=2.0, radius=1.5), r"margin.*radius"),
    "margin 0": (lambda: make_separable(margin=0.0), r"margin must be > 0"),
    "margin negative": (lambda: make_separable(margin=-0.1), r"margin"),
    "n = 1": (lambda: make_separable(n=1), r"n \(number of points\) must be >= 2"),
    "n = 0": (lambda: make_separable(n=0), r"n \(number of points\)"),
    "n = 2.5": (lambda: make_separable(n=2.5), r"n \(number of points\) must be a whole"),
    "balance 0": (lambda: make_separable(balance=0), r"balance"),
    "balance 1": (lambda: make_separable(balance=1), r"balance"),
    "balance -0.1": (lambda: make_separable(balance=-0.1), r"balance"),
    "balance 1.5": (lambda: make_separable(balance=1.5), r"balance"),
    "dim 0": (lambda: make_separable(dim=0), r"dim \(number of features\) must be >= 1"),
    "dim -1": (lambda: make_separable(dim=-1), r"dim"),
    "radius 0": (lambda: make_separable(radius=0.0), r"radius must be > 0"),
    "seed negative": (lambda: make_separable(seed=-3), r"seed"),
    "xor dim 1": (lambda: make_xor(dim=1), r"dim >= 2"),
    "xor n 3": (lambda: make_xor(n=3), r"n \(number of points\) must be >= 4"),
    "xor gap": (lambda: make_xor(gap=1.0), r"gap"),
    "circles dim": (lambda: make_circles(dim=3), r"dim = 2"),
    "circles factor": (lambda: make_circles(factor=1.0), r"factor"),
    "circles noise": (lambda: make_circles(noise=-1.0), r"noise"),
    "blobs k": (lambda: make_blobs(n=5, k=6), r"k \(number of blobs\)"),
    "blobs spread": (lambda: make_blobs(spread=-0.1), r"spread"),
    "noise rate": (lambda: with_label_noise(make_separable(), rate=0.7), r"rate"),
    "noise not a dataset": (lambda: with_label_noise((X_OK, Y_OK), rate=0.1), r"Dataset"),
}


@pytest.mark.parametrize("case", list(BAD_GENERATOR_CALLS))
def test_bad_generator_arguments_are_rejected(case):
    call, pattern = BAD_GENERATOR_CALLS[case]
    with pytest.raises(ValueError, match=pattern):
        call()


class PredictsZero:
    def predict(self, x):
        return 0

    def update(self, x, y):
        pass


BAD_CONSTRUCTION_CALLS = {
    "gamma 0": (lambda: adversarial_lower_bound(gamma=0.0), r"gamma"),
    "gamma negative": (lambda: adversarial_lower_bound(gamma=-0.2), r"gamma"),
    "gamma > 1": (lambda: adversarial_lower_bound(gamma=1.5), r"gamma \(margin\) must be <= 1"),
    "size gamma 0": (lambda: adversary_size(0.0, 10), r"gamma"),
    "size gamma > 1": (lambda: adversary_size(1.01, 10), r"gamma"),
    "size dim 0": (lambda: adversary_size(0.5, 0), r"d \(dimension\)"),
    "unknown learner": (
        lambda: adversarial_lower_bound(learner="oracle"),
        r"unknown learner 'oracle'",
    ),
    "not a learner": (lambda: adversarial_lower_bound(learner=42), r"learner must be"),
    "learner predicts 0": (
        lambda: adversarial_lower_bound(learner=PredictsZero()),
        r"predicted 0 in round 1.*-1 or \+1",
    ),
    "script too short": (
        lambda: adversarial_lower_bound(gamma=0.5, dim=4, learner=ScriptedLearner([1, -1])),
        r"no prediction left",
    ),
    "script predicts 0": (
        lambda: adversarial_lower_bound(gamma=0.5, dim=4, learner=ScriptedLearner([1, 0, 1, 1])),
        r"predicted 0 in round 2",
    ),
    "counterexample T 0": (lambda: aggressive_counterexample(0), r"T \(length"),
    "always wrong T 0": (lambda: always_wrong_sequence(0), r"T \(length"),
}


@pytest.mark.parametrize("case", list(BAD_CONSTRUCTION_CALLS))
def test_bad_construction_arguments_are_rejected(case):
    call, pattern = BAD_CONSTRUCTION_CALLS[case]
    with pytest.raises(ValueError, match=pattern):
        call()


def test_proof_quantities_checks_its_inputs():
    trace = run_perceptron(X_OK, Y_OK)
    with pytest.raises(ValueError, match="Trace"):
        proof_quantities("not a trace", X_OK, Y_OK)
    with pytest.raises(ValueError, match="number of features"):
        proof_quantities(trace, np.hstack([X_OK, X_OK]), Y_OK)


# ---------------------------------------------------------------------------
# inputs never modified, results read-only
# ---------------------------------------------------------------------------


def _writable_copy(a):
    out = np.array(a, copy=True)
    out.flags.writeable = True
    return out


def test_inputs_are_never_modified():
    ds = make_separable(n=30, margin=0.1, dim=3, seed=1)
    X, y = _writable_copy(ds.X), _writable_copy(ds.y)
    w0 = np.array([0.5, -0.25, 1.0])
    X_saved, y_saved, w0_saved = X.copy(), y.copy(), w0.copy()
    for order in ("cyclic", "random", "max_distance"):
        trace = run_perceptron(X, y, w0=w0, b0=0.5, order=order)
    trace_aggr = run_perceptron(X, y, w0=w0, aggressive=True, max_epochs=3)
    max_margin(X, y)
    max_margin(X, y, bias=False)
    padded_margin(X, y)
    padded_separator(X, y)
    bound_summary(X, y)
    proof_quantities(trace, X, y)
    trace.example_at(1, X, y)
    np.testing.assert_array_equal(X, X_saved)
    np.testing.assert_array_equal(y, y_saved)
    np.testing.assert_array_equal(w0, w0_saved)
    # the result does not share memory with the inputs either
    assert not np.shares_memory(trace.weights, w0)
    assert not np.shares_memory(trace_aggr.weights, w0)
    np.testing.assert_array_equal(trace.weights[0], w0_saved)
    # a list of lists works the same and is left alone
    X_list = X_saved.tolist()
    run_perceptron(X_list, y_saved.tolist())
    assert X_list == X_saved.tolist()


def test_label_noise_leaves_the_source_dataset_alone():
    base = make_separable(n=50, seed=2)
    y_before = np.array(base.y, copy=True)
    with_label_noise(base, rate=0.4, seed=1)
    np.testing.assert_array_equal(base.y, y_before)


def _assert_read_only(array):
    array = np.asarray(array)
    assert not array.flags.writeable
    with pytest.raises(ValueError):
        array[(0,) * array.ndim] = 1


def test_results_are_read_only():
    ds = make_separable(n=30, margin=0.1, seed=1)
    for field in (ds.X, ds.y, ds.w_star):
        _assert_read_only(field)
    for ds_other in (
        make_xor(n=20),
        make_circles(n=20),
        make_blobs(n=20),
        with_label_noise(ds, rate=0.3),
    ):
        _assert_read_only(ds_other.X)
        _assert_read_only(ds_other.y)
    for order in ("permuted", "max_residual"):
        trace = run_perceptron(ds.X, ds.y, order=order)
        for field in (
            trace.weights,
            trace.biases,
            trace.update_indices,
            trace.update_steps,
            trace.update_scores,
            trace.update_mistakes,
            trace.w,
        ):
            _assert_read_only(field)
        _assert_read_only(trace.example_at(1, ds.X, ds.y).w)
        q = proof_quantities(trace, ds.X, ds.y)
        for field in (q.alignment, q.norm_sq, q.alignment_lower, q.norm_sq_upper, q.reference):
            _assert_read_only(field)
    _assert_read_only(run_perceptron(ds.X, ds.y, order="max_residual").greedy_indices)
    result = max_margin(ds.X, ds.y)
    _assert_read_only(result.w)
    _assert_read_only(result.support)
    _assert_read_only(padded_separator(ds.X, ds.y)[1])
    adversary = adversarial_lower_bound(0.3, 5)
    for field in (adversary.X, adversary.y, adversary.predictions, adversary.certificate):
        _assert_read_only(field)
    counter = aggressive_counterexample(100)
    for field in (
        counter.mistakes_standard,
        counter.mistakes_aggressive,
        counter.t_grid,
        counter.average_products,
    ):
        _assert_read_only(field)
    seq = always_wrong_sequence(5)
    for field in (seq.x, seq.y, seq.scores, seq.mistakes):
        _assert_read_only(field)


def test_result_objects_are_frozen():
    trace = run_perceptron(X_OK, Y_OK)
    with pytest.raises(AttributeError):
        trace.converged = False
    with pytest.raises(AttributeError):
        max_margin(X_OK, Y_OK).margin = 1.0
