"""Fuzz every public function of the core: any input gives a result or a ValueError.

Issue 8: public functions raise only ``ValueError`` with a message, for any bad input
(huge integers, ``Fraction``, 1e308, strings, NaN, wrong shapes, ...), and the
documented limits keep every call short. Hypothesis draws arguments from a pool of
hostile and ordinary values; each case must return or raise ValueError with a
non-empty message. Seeded (derandomized), a few hundred cases in all; the long
version (>= 10 000 cases) is benchmarks/bench_robustness.py.
"""

from __future__ import annotations

import time
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import perceptron_core as core
from perceptron_core import io as core_io
from perceptron_core import sweeps

#: every case must finish within this (documented limits keep calls within seconds)
SLOW_SECONDS = 10.0

PROPERTY = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)

SCALARS = st.sampled_from(
    [
        0,
        1,
        2,
        3,
        -1,
        7,
        50,
        200,
        10**3,
        2**64,
        10**400,
        -(2**70),
        0.5,
        0.1,
        1e-300,
        1e308,
        -1e308,
        1e-320,
        float("nan"),
        float("inf"),
        -float("inf"),
        Fraction(1, 3),
        Fraction(10**400, 3),
        True,
        None,
        "3",
        "abc",
        "²",
        [1, 2],
        (),
        {},
        b"1",
        np.int64(5),
        np.float32(0.2),
        np.uint64(2**63),
        object(),
        10**6,
        10**8,
        10**9,
    ]
)
SMALL_SEPARABLE = core.make_separable(n=12, margin=0.2, seed=1)
XOR = core.make_xor(n=12, seed=2)
ARRAYS = st.sampled_from(
    [
        SMALL_SEPARABLE.X,
        XOR.X,
        np.zeros((3, 2)),
        np.array([[1e308, 1e308], [-1e308, 1]]),
        np.array([[np.nan, 1.0], [0, 1]]),
        np.ones((2, 0)),
        np.ones(5),
        np.ones((2, 2, 2)),
        [[1, 2], [3, "x"]],
        [[10**400, 1], [1, 1]],
        "text",
        None,
        [[Fraction(1, 2), 1], [0, 1]],
        np.array([[1e-320, 0], [0, -1e-320]]),
        [],
    ]
)
LABELS = st.sampled_from(
    [
        SMALL_SEPARABLE.y,
        XOR.y,
        np.ones(12),
        np.array([1, -1, 1]),
        np.array([2, -2] * 6),
        [1, -1],
        None,
        "ab",
        np.array([np.nan] * 12),
        [10**400, -1],
    ]
)
ANY = st.one_of(SCALARS, ARRAYS, LABELS)


def call(function, *args, **kwargs):
    """Run one fuzz case: a result or a ValueError with a message; nothing else, fast."""
    start = time.perf_counter()
    try:
        with np.errstate(all="ignore"):
            function(*args, **kwargs)
    except ValueError as error:
        assert str(error).strip(), f"{function.__name__}: ValueError without a message"
    elapsed = time.perf_counter() - start
    assert elapsed < SLOW_SECONDS, f"{function.__name__}{args!r:.200} took {elapsed:.1f} s"


def trace_and_data():
    trace = core.run_perceptron(SMALL_SEPARABLE.X, SMALL_SEPARABLE.y, order="permuted", seed=3)
    return trace, SMALL_SEPARABLE.X, SMALL_SEPARABLE.y


TRACE, TRACE_X, TRACE_Y = trace_and_data()
COUNTER = core.aggressive_counterexample(100)

#: name -> (function, number of positional arguments drawn)
FUNCTIONS = {
    "make_separable": (core.make_separable, 5),
    "make_xor": (core.make_xor, 4),
    "make_circles": (core.make_circles, 4),
    "make_blobs": (core.make_blobs, 4),
    "with_label_noise": (lambda rate, seed: core.with_label_noise(SMALL_SEPARABLE, rate, seed), 2),
    "with_label_noise(any)": (core.with_label_noise, 3),
    "run_perceptron": (core.run_perceptron, 2),
    "run_perceptron(options)": (
        lambda *a: core.run_perceptron(SMALL_SEPARABLE.X, SMALL_SEPARABLE.y, *a),
        5,
    ),
    "run_perceptron(limits, xor)": (
        lambda u, e: core.run_perceptron(XOR.X, XOR.y, max_updates=u, max_epochs=e),
        2,
    ),
    "example_order": (core.example_order, 4),
    "max_margin": (core.max_margin, 3),
    "padded_margin": (core.padded_margin, 2),
    "padded_separator": (core.padded_separator, 2),
    "novikoff_bound": (core.novikoff_bound, 2),
    "padded_bound": (core.padded_bound, 2),
    "threshold_bound": (core.threshold_bound, 4),
    "bias_bound": (core.bias_bound, 2),
    "margin_mistake_bound": (core.margin_mistake_bound, 1),
    "bound_summary": (core.bound_summary, 3),
    "proof_quantities": (core.proof_quantities, 3),
    "training_path": (core.training_path, 3),
    "proof_quantities(trace)": (lambda X, y: core.proof_quantities(TRACE, X, y), 2),
    "adversarial_lower_bound": (core.adversarial_lower_bound, 3),
    "adversary_size": (core.adversary_size, 2),
    "aggressive_counterexample": (core.aggressive_counterexample, 1),
    "aggressive_score": (core.aggressive_score, 1),
    "always_wrong_sequence": (core.always_wrong_sequence, 1),
    "counterexample_x": (core.counterexample_x, 1),
    "running_average_product": (core.running_average_product, 1),
    "ScriptedLearner": (lambda p: core.adversarial_lower_bound(0.5, 4, core.ScriptedLearner(p)), 1),
    "Trace.example_at": (lambda s: TRACE.example_at(s, TRACE_X, TRACE_Y), 1),
    "Trace.example_at(data)": (TRACE.example_at, 3),
    "Trace.indices_at_steps": (TRACE.indices_at_steps, 1),
    "Trace.updates_before_step": (TRACE.updates_before_step, 1),
    "AggressiveCounterexample.cumulative": (COUNTER.cumulative, 2),
    "log_grid": (sweeps.log_grid, 3),
    "parse_values": (
        lambda text, low, high: sweeps.parse_values(text, integer=True, low=low, high=high),
        3,
    ),
    "margin_sweep": (lambda m, seeds, n, d: sweeps.margin_sweep(m, seeds, n=n, dim=d), 4),
    "n_sweep": (lambda v, seeds: sweeps.n_sweep(v, seeds), 2),
    "dim_sweep": (lambda v, seeds: sweeps.dim_sweep(v, seeds, n=20), 2),
    "delta_sweep": (lambda v, seeds: sweeps.delta_sweep(v, seeds, n=20), 2),
    "scale_sweep": (lambda v, seeds: sweeps.scale_sweep(v, seeds, n=20), 2),
    "shift_sweep": (lambda v, seeds: sweeps.shift_sweep(v, seeds, n=20), 2),
    "concat_sweeps": (sweeps.concat_sweeps, 1),
    "estimated_run_seconds": (sweeps.estimated_run_seconds, 4),
    "parse_labelled_csv": (core_io.parse_labelled_csv, 1),
    "dataset_to_csv": (core_io.dataset_to_csv, 3),
    "trace_to_csv": (core_io.trace_to_csv, 3),
    "trace_to_json": (core_io.trace_to_json, 4),
    "check_drawable_scale": (core_io.check_drawable_scale, 1),
}

#: numeric-looking texts for parse_values (including the issue's 1e308 and 1e20)
VALUE_TEXTS = st.sampled_from(
    [
        "10, 30",
        "1e308",
        "1e20",
        "2, 1e400",
        "²",
        "nan",
        "-5",
        "1, 2, 3",
        "x" * 5000,
        "5" * 400,
        "",
        "0.5",
    ]
)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
@PROPERTY
@given(data=st.data())
def test_public_function_raises_only_value_error(name, data):
    function, arity = FUNCTIONS[name]
    pool = VALUE_TEXTS if name == "parse_values" else ANY
    args = [data.draw(pool if k == 0 else ANY, label=f"arg{k}") for k in range(arity)]
    call(function, *args)


@pytest.mark.parametrize(
    "case",
    [
        lambda: core._checks.check_number(2**64, "x", high=5000, integer=True),
        lambda: core._checks.check_number(Fraction(1, 3), "x", high=0.2),
        lambda: core._checks.check_number(10**400, "x", integer=False),
        lambda: core.padded_bound(2, 1e-300),
        lambda: core.margin_mistake_bound(1e-300),
        lambda: core.novikoff_bound(1e300, 1e-300),
        lambda: core.make_separable(n=10**8),
        lambda: core.run_perceptron(XOR.X, XOR.y, max_epochs=10**9),
        lambda: core.run_perceptron(XOR.X, XOR.y, max_updates=10**9),
        lambda: core.example_order("cyclic", float("inf"), 0, 0),
        lambda: core.example_order(["cyclic"], 3, 0, 0),
        lambda: TRACE.indices_at_steps(["a"]),
        lambda: TRACE.example_at(10**30, TRACE_X, TRACE_Y),
        lambda: core.counterexample_x("abc"),
        lambda: core.counterexample_x(2**70),
        lambda: core.ScriptedLearner(5),
        lambda: core.ScriptedLearner([1, 0]),
        lambda: core.adversarial_lower_bound(0.01, 10**6),
        lambda: sweeps.parse_values("1e308", integer=True, low=2, high=5000),
        lambda: sweeps.parse_values("1e20", integer=True, low=1, high=1000),
        lambda: sweeps.n_sweep([10**30], 1),
        lambda: sweeps.margin_sweep([0.1], 10**12),
    ],
    ids=lambda case: "",
)
def test_the_issues_cases_raise_value_error(case):
    with pytest.raises(ValueError) as error:
        case()
    assert str(error.value).strip()


def test_numbers_of_the_fixed_functions_are_unchanged():
    # the guarded formulas give the same floats as the plain ones on ordinary inputs
    for R, g in [(1.0, 0.1), (2.5, 0.03), (1.0, 1.0)]:
        assert core.novikoff_bound(R, g) == (R / g) ** 2
        assert core.padded_bound(R * R + 1, g) == (R * R + 1) / g**2
        assert core.threshold_bound(R * R, g, 0.5, 0.2) == (2 * 0.5 + R * R + 2 * g * 0.2) / g**2
        assert core.bias_bound(R, g) == 2 * (R**2 + 1) / g**2
        assert core.margin_mistake_bound(g) == 3.0 / g**2
    assert core._checks.check_number(Fraction(1, 4), "x") == 0.25
    assert core._checks.check_number(2**64, "x", integer=True) == 2**64


def test_drawable_scale_refuses_what_cannot_be_computed():
    for X in ([[1e151, 0], [0, 1]], [[1e-151, 1], [0, 1]], [[1e100, 1], [1e-60, 1]]):
        with pytest.raises(ValueError, match="Rescale"):
            core_io.check_drawable_scale(X)
    np.testing.assert_array_equal(
        core_io.check_drawable_scale([[1e100, 0], [-1.0, 2]]), [[1e100, 0], [-1, 2]]
    )


# ---------------------------------------------------------------------------
# The newer core modules: kernels, generalisation, multiclass, relaxation, and
# the theory helpers the pages call (run_bounds, separability_case)
# ---------------------------------------------------------------------------

import importlib  # noqa: E402

# (the package exports a function named relaxation: import the modules by path)
core_gen = importlib.import_module("perceptron_core.generalisation")
core_kernels = importlib.import_module("perceptron_core.kernels")
core_multi = importlib.import_module("perceptron_core.multiclass")
core_relax = importlib.import_module("perceptron_core.relaxation")
core_theory = importlib.import_module("perceptron_core.theory")

BLOBS = core.make_blobs(n=12, k=3, seed=4)
KTRACE = core_kernels.kernel_perceptron(SMALL_SEPARABLE.X, SMALL_SEPARABLE.y, kernel="rbf")
OVA = core_multi.one_vs_all(BLOBS.X, BLOBS.y)
OVO = core_multi.one_vs_one(BLOBS.X, BLOBS.y)
SYSTEM_A, SYSTEM_C = core_relax.perceptron_system(SMALL_SEPARABLE.X, SMALL_SEPARABLE.y, delta=0.1)
RTRACE = core_relax.relaxation(SYSTEM_A, SYSTEM_C, max_iter=50)
BOUNDS = core.bound_summary(SMALL_SEPARABLE.X, SMALL_SEPARABLE.y)
#: systems: good, parallel contradicting, all-zero column, huge, NaN, wrong shapes
SYSTEMS = st.sampled_from(
    [
        (SYSTEM_A, SYSTEM_C),
        (np.array([[1.0, -1.0], [0, 0]]), np.array([-1.0, -1.0])),
        (np.zeros((2, 3)), np.ones(3)),
        (np.array([[1e308, 1.0], [1.0, 1e-308]]), np.ones(2)),
        (np.array([[np.nan, 1.0], [1.0, 1.0]]), np.ones(2)),
        (np.ones((3, 2)), np.ones(5)),
        (np.ones(3), np.ones(3)),
        ("A", "c"),
        (np.array([[1e200, -1e200], [1e200, 1e200]]), np.array([1e200, -1e200])),
    ]
)

NEW_FUNCTIONS = {
    **{f"kernels.{name}": (function, 2) for name, function in core_kernels.KERNELS.items()},
    "kernels.kernel(options)": (
        lambda name, d, c0, g: core_kernels.KERNELS.get(
            name if isinstance(name, str) else "poly", core_kernels.rbf_kernel
        )(SMALL_SEPARABLE.X, SMALL_SEPARABLE.X, degree=d, coef0=c0, scale=g),
        4,
    ),
    "monotone_conjunction_features": (core_kernels.monotone_conjunction_features, 1),
    "kernel_perceptron": (core_kernels.kernel_perceptron, 3),
    "kernel_perceptron(options)": (
        lambda *a: core_kernels.kernel_perceptron(SMALL_SEPARABLE.X, SMALL_SEPARABLE.y, "poly", *a),
        6,
    ),
    "kernel_perceptron(limits, xor)": (
        lambda u, e, d: core_kernels.kernel_perceptron(
            XOR.X, XOR.y, kernel="linear", max_updates=u, max_epochs=e, delta=d
        ),
        3,
    ),
    "kernel_margin": (core_kernels.kernel_margin, 3),
    "kernel_margin(options)": (
        lambda *a: core_kernels.kernel_margin(SMALL_SEPARABLE.X, SMALL_SEPARABLE.y, "poly", *a),
        4,
    ),
    "KernelTrace.alphas_after": (KTRACE.alphas_after, 1),
    "KernelTrace.decision_function": (KTRACE.decision_function, 2),
    "KernelTrace.decision_path": (KTRACE.decision_path, 2),
    "KernelTrace.updates_before_step": (KTRACE.updates_before_step, 1),
    "KernelTrace.indices_at_steps": (KTRACE.indices_at_steps, 1),
    **{
        f"generalisation.{name}": (getattr(core_gen, name), 1)
        for name in (
            "zero_one_loss",
            "zero_one_subgradient",
            "perceptron_loss",
            "perceptron_subgradient",
            "hinge_loss",
            "hinge_subgradient",
        )
    },
    "margin_perceptron": (core_gen.margin_perceptron, 3),
    "margin_perceptron(limits)": (
        lambda u, e: core_gen.margin_perceptron(
            SMALL_SEPARABLE.X, SMALL_SEPARABLE.y, max_updates=u, max_epochs=e
        ),
        2,
    ),
    "sgd_linear": (core_gen.sgd_linear, 3),
    "sgd_linear(options)": (
        lambda *a: core_gen.sgd_linear(SMALL_SEPARABLE.X, SMALL_SEPARABLE.y, *a),
        6,
    ),
    "make_unit_margin": (core_gen.make_unit_margin, 4),
    "test_error_exact_2d": (core_gen.test_error_exact_2d, 3),
    "test_error_sample": (core_gen.test_error_sample, 5),
    "stability_bound": (core_gen.stability_bound, 2),
    "uniform_bound": (core_gen.uniform_bound, 3),
    "generalisation_curve": (
        lambda n, m, d, r: core_gen.generalisation_curve(
            n_train=n, margin=m, dim=d, repeats=r, n_test=1000
        ),
        4,
    ),
    "generalisation_curve(options)": (
        lambda *a: core_gen.generalisation_curve([5, 10], 0.3, 2, 5, *a),
        4,
    ),
    "check_class_labels": (core_multi.check_class_labels, 2),
    "one_vs_all": (core_multi.one_vs_all, 3),
    "one_vs_all(options)": (lambda *a: core_multi.one_vs_all(BLOBS.X, BLOBS.y, *a), 5),
    "one_vs_one": (core_multi.one_vs_one, 3),
    "one_vs_one(options)": (lambda *a: core_multi.one_vs_one(BLOBS.X, BLOBS.y, *a), 5),
    "OneVsAll.predict": (OVA.predict, 1),
    "OneVsAll.predict_with_ties": (OVA.predict_with_ties, 1),
    "OneVsOne.predict": (OVO.predict, 1),
    "OneVsOne.votes": (OVO.votes, 1),
    "check_system": (core_relax.check_system, 2),
    "project": (core_relax.project, 4),
    "relaxation_step": (core_relax.relaxation_step, 5),
    "relaxation": (core_relax.relaxation, 4),
    "relaxation(options)": (lambda *a: core_relax.relaxation(SYSTEM_A, SYSTEM_C, *a), 7),
    "perceptron_system": (core_relax.perceptron_system, 4),
    "perceptron_eta": (core_relax.perceptron_eta, 4),
    "plane_system": (core_relax.plane_system, 3),
    "separability_case": (core_theory.separability_case, 2),
    "run_bounds": (lambda b, d, w: core_theory.run_bounds(b, bias=True, delta=d, w0_norm=w), 3),
    "run_bounds(summary)": (
        lambda d, w: core_theory.run_bounds(BOUNDS, bias=False, delta=d, w0_norm=w),
        2,
    ),
}
#: the relaxation functions draw their first two arguments as one system
SYSTEM_FIRST = {
    "check_system",
    "project",
    "relaxation_step",
    "relaxation",
    "plane_system",
    "perceptron_eta",
}


@pytest.mark.parametrize("name", sorted(NEW_FUNCTIONS))
@PROPERTY
@given(data=st.data())
def test_newer_public_function_raises_only_value_error(name, data):
    function, arity = NEW_FUNCTIONS[name]
    if name in SYSTEM_FIRST:
        A, c = data.draw(st.one_of(SYSTEMS, st.tuples(ANY, ANY)), label="system")
        args = [A, c] + [data.draw(ANY, label=f"arg{k}") for k in range(2, arity)]
    else:
        args = [data.draw(ANY, label=f"arg{k}") for k in range(arity)]
    call(function, *args)
