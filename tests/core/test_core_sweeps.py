"""perceptron_core.sweeps: many runs against their bounds (NumPy only, no UI)."""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_core.sweeps import (
    SweepResult,
    concat_sweeps,
    delta_sweep,
    dim_sweep,
    log_grid,
    margin_sweep,
    n_sweep,
    parse_values,
    scale_sweep,
    shift_sweep,
)

MARGINS = log_grid(0.03, 0.4, 5, "margin")


@pytest.fixture(scope="module", params=[True, False], ids=["bias", "origin"])
def sweep(request) -> SweepResult:
    return margin_sweep(MARGINS, 4, n=150, dim=2, bias=request.param)


def test_every_run_converges_within_its_bound(sweep):
    assert sweep.n_runs == MARGINS.size * 4
    assert sweep.converged.all()
    assert np.all(sweep.ratio <= 1.0)
    assert sweep.within_bound
    # delta = 0: bound (1.4) is T(A)
    np.testing.assert_allclose(sweep.bound, sweep.padded)


def test_bound_quantities_follow_the_hypotheses(sweep):
    if sweep.bias:
        np.testing.assert_allclose(sweep.max_norm_sq, sweep.radius**2 + 1)
        assert np.all(sweep.gamma_2 <= sweep.gamma + 1e-12)  # the padded margin is smaller
        np.testing.assert_allclose(sweep.gamma, sweep.margin)  # exact by construction
    else:
        np.testing.assert_allclose(sweep.max_norm_sq, sweep.radius**2)
        np.testing.assert_allclose(sweep.gamma, sweep.margin, rtol=1e-6)
        # through the origin T(A) is Novikoff's (R/gamma)^2
        np.testing.assert_allclose(sweep.padded, sweep.novikoff)
    np.testing.assert_allclose(sweep.padded, sweep.max_norm_sq / sweep.gamma_2**2)
    assert np.all(sweep.radius <= 1.0 + 1e-12)


def test_median_updates_decrease_as_the_margin_grows(sweep):
    medians = sweep.per_value("updates")
    assert medians.shape == (MARGINS.size,)
    assert medians[0] > medians[-1]
    bounds = sweep.per_value("bound", "max")
    assert np.all(np.diff(bounds) < 0)


def test_same_seed_same_result():
    first = margin_sweep([0.05, 0.2], [3, 7], n=80, dim=3, bias=True, order="permuted")
    second = margin_sweep([0.05, 0.2], [3, 7], n=80, dim=3, bias=True, order="permuted")
    for name, column in first.columns().items():
        np.testing.assert_array_equal(column, second.columns()[name], err_msg=name)
    np.testing.assert_array_equal(first.seed, [3, 7, 3, 7])
    np.testing.assert_array_equal(first.value, [0.05, 0.05, 0.2, 0.2])


def test_threshold_bound_grows_with_delta_and_holds():
    result = delta_sweep([0.0, 1.0, 3.0], 3, margin=0.1, n=100, bias=True)
    assert result.within_bound
    bound = result.per_value("bound", "max")
    assert bound[0] < bound[1] < bound[2]
    expected = (2 * result.delta + result.max_norm_sq) / result.gamma_2**2
    np.testing.assert_allclose(result.bound, expected)


def test_margin_perceptron_stays_under_three_over_gamma_squared():
    result = margin_sweep([0.05, 0.1, 0.3], 4, n=150, dim=2, bias=False, delta=1.0)
    assert result.converged.all()
    assert np.all(result.updates <= result.margin_mistakes)
    np.testing.assert_allclose(result.margin_mistakes, 3 / result.gamma**2)
    assert np.all(result.bound <= result.margin_mistakes + 1e-9)  # (2 + R^2) <= 3


def test_n_and_d_do_not_enter_the_bound():
    by_n = n_sweep([10, 100, 1000], 2, margin=0.1, bias=False)
    by_d = dim_sweep([1, 5, 50], 2, margin=0.1, n=100, bias=False)
    for result in (by_n, by_d):
        assert result.within_bound
        # through the origin: bound = (R/gamma)^2 with gamma exact and R <= 1
        assert np.all(result.bound <= 1 / 0.1**2 + 1e-6)
    np.testing.assert_array_equal(by_n.values(), [10, 100, 1000])
    np.testing.assert_array_equal(by_d.dim, np.repeat([1, 5, 50], 2))


def test_scaling_leaves_the_origin_run_unchanged():
    result = scale_sweep([0.125, 1.0, 8.0, 0.3, 3.7], 3, margin=0.1, n=120, bias=False)
    assert result.updates_constant_per_seed()
    np.testing.assert_allclose(result.per_value("novikoff"), result.per_value("novikoff")[0])
    np.testing.assert_allclose(result.gamma, 0.1 * result.scale, rtol=1e-6)


def test_scaling_with_a_bias_changes_the_padded_bound():
    result = scale_sweep([0.1, 1.0, 10.0], 2, margin=0.1, n=120, bias=True)
    assert result.within_bound
    padded = result.per_value("padded")
    assert not np.allclose(padded, padded[0])


def test_translation_keeps_gamma_but_shrinks_gamma_2():
    result = shift_sweep([0.0, 1.0, 3.0], 2, margin=0.1, n=100)
    assert result.bias and result.within_bound
    np.testing.assert_allclose(result.gamma, 0.1)
    gamma_2 = result.per_value("gamma_2")
    assert gamma_2[0] > gamma_2[1] > gamma_2[2]
    assert np.all(np.diff(result.per_value("radius")) > 0)


def test_concat_joins_one_value_sweeps():
    parts = [margin_sweep([m], 2, n=50) for m in (0.1, 0.2)]
    joined = concat_sweeps(parts)
    whole = margin_sweep([0.1, 0.2], 2, n=50)
    np.testing.assert_array_equal(joined.updates, whole.updates)
    with pytest.raises(ValueError):
        concat_sweeps([parts[0], margin_sweep([0.1], 2, n=50, bias=False)])
    with pytest.raises(ValueError):
        concat_sweeps([])


def test_summary_and_columns_have_one_row_per_value_and_run(sweep):
    summary = sweep.summary()
    assert all(len(column) == MARGINS.size for column in summary.values())
    columns = sweep.columns()
    assert all(len(column) == sweep.n_runs for column in columns.values())
    assert {"updates", "ratio", "padded", "novikoff", "bound", "gamma_2"} <= set(columns)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: margin_sweep([0.1, 1.5], 2), "margin must be smaller than radius"),
        (lambda: margin_sweep([0.1], 0), "seeds per value"),
        (lambda: margin_sweep([-0.1], 2), "margin"),
        (lambda: margin_sweep([0.1], 2, order="sideways"), "unknown order"),
        (lambda: n_sweep([1], 2), "n (number of points)"),
        (lambda: dim_sweep([2.5], 2), "whole number"),
        (lambda: delta_sweep([-1.0], 2), "delta"),
        (lambda: scale_sweep([0.0], 2), "lambda"),
        (lambda: log_grid(0.5, 0.1, 4, "margin"), "smallest margin"),
        (lambda: parse_values("10, abc", "n", integer=True), "'abc' is not a number"),
        (lambda: parse_values("", "n"), "at least one"),
        (lambda: parse_values("1, 20000", "d", integer=True, high=1000), "d must be <= 1000"),
        (lambda: parse_values(", ".join(map(str, range(40))), "n"), "too many"),
    ],
)
def test_bad_input_raises_value_error_with_a_message(call, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call()


def test_parse_values_sorts_and_drops_duplicates():
    np.testing.assert_array_equal(parse_values("100; 10 10,1000", integer=True), [10, 100, 1000])
    np.testing.assert_allclose(parse_values("0.5, 0"), [0.0, 0.5])


def test_results_are_read_only(sweep):
    with pytest.raises(ValueError):
        sweep.updates[0] = 0
