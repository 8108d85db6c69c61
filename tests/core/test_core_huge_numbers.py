"""Numbers too large for a float (found by benchmarks/bench_robustness.py --full): the core
answers with a ValueError that says what to fix, never an OverflowError."""

from __future__ import annotations

from fractions import Fraction

import pytest

from perceptron_core.generalisation import test_error_exact_2d
from perceptron_core.relaxation import relaxation_step

HUGE = [10**400, -(10**400), Fraction(10**400, 3)]
SYSTEM = ([[1.0, 0.0], [0.0, 1.0]], [1.0, 1.0])


@pytest.mark.parametrize("huge", HUGE)
@pytest.mark.parametrize("where", ["w", "A", "c"])
def test_relaxation_step_refuses_a_number_too_large_for_a_float(huge, where):
    A, c, w = [row[:] for row in SYSTEM[0]], list(SYSTEM[1]), [0.5, 3.0]
    {"w": w, "A": A[0], "c": c}[where][0] = huge
    with pytest.raises(ValueError, match="numeric"):
        relaxation_step(A, c, w, 1)


@pytest.mark.parametrize("huge", HUGE)
@pytest.mark.parametrize("where", ["beta", "beta_star"])
def test_exact_test_error_refuses_a_number_too_large_for_a_float(huge, where):
    vectors = {"beta": [1.0, 0.5], "beta_star": [0.0, 1.0]}
    vectors[where][0] = huge
    with pytest.raises(ValueError, match="numeric vectors"):
        test_error_exact_2d(vectors["beta"], vectors["beta_star"], 0.1)


def test_a_step_with_ordinary_numbers_still_lands_on_the_line():
    # eta = 1 moves w = (0.5, 3) onto the line of inequality 1 (w_2 <= 1)
    assert relaxation_step(*SYSTEM, [0.5, 3.0], 1).tolist() == [0.5, 1.0]
