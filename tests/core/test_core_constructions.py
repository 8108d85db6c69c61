"""Theorem 1.34 (the adversary), Remark 1.19 and Exercise 1.20 (the aggressive rule)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from perceptron_core import (
    LEARNERS,
    ScriptedLearner,
    adversarial_lower_bound,
    adversary_size,
    aggressive_counterexample,
    aggressive_score,
    always_wrong_sequence,
    counterexample_x,
    max_margin,
    running_average_product,
)

# ---------------------------------------------------------------------------
# Theorem 1.34: the adversary
# ---------------------------------------------------------------------------


def _exact_size(gamma: Fraction, dim: int) -> int:
    return min(math.floor(1 / gamma**2), dim)


def test_adversary_size_floor_guard():
    # 1/0.1**2 is 99.99999999999999 in floating point, yet 100 * (1/10)^2 = 1 exactly
    assert adversary_size(0.1, 1000) == 100


NICE_GAMMAS = [
    "1",
    "0.5",
    "0.3",
    "0.2",
    "0.1",
    "0.05",
    "0.01",
    "0.7",
    "0.25",
    "0.125",
    "0.15",
    "0.45",
    "0.9",
    "0.33",
    "0.02",
]


@pytest.mark.parametrize("text", NICE_GAMMAS)
@pytest.mark.parametrize("dim", [1, 7, 50, 10**5])
def test_adversary_size_decimal_gammas(text, dim):
    assert adversary_size(float(text), dim) == _exact_size(Fraction(text), dim)


@pytest.mark.parametrize("k", range(1, 60))
def test_adversary_size_reciprocal_gammas(k):
    """gamma = 1/k gives n = k^2 when 1/k is the decimal shown; gamma = 1/sqrt(k) rounded
    to a float is read as its shortest decimal, a little above or below 1/sqrt(k): n = k
    exactly when k gamma^2 <= 1, else k - 1 (no tolerance decides it)."""
    reciprocal = 1 / k
    assert adversary_size(reciprocal, 10**6) == _exact_size(Fraction(repr(reciprocal)), 10**6)
    if Fraction(repr(reciprocal)) == Fraction(1, k):
        assert adversary_size(reciprocal, 10**6) == k * k
    root = 1 / math.sqrt(k)
    expected = k if k * Fraction(repr(root)) ** 2 <= 1 else k - 1
    assert adversary_size(root, 10**6) == max(1, expected)


class CountingLearner:
    """A custom learner: predicts the sign of the sum of the entries it has seen,
    records every call, so we can check what the adversary showed it."""

    def __init__(self):
        self.shown, self.told, self.total = [], [], 0.0

    def predict(self, x):
        self.shown.append(np.array(x, copy=True))
        return 1 if self.total >= 0 else -1

    def update(self, x, y):
        self.told.append(int(y))
        self.total += y


def _check_adversary(result, gamma, dim):
    n = _exact_size(Fraction(str(gamma)), dim)
    assert result.n_mistakes == n
    np.testing.assert_array_equal(result.X, np.eye(n, dim))  # rounds show e_1..e_n
    assert set(result.y.tolist()) <= {-1, 1}
    assert np.all(result.predictions != result.y)  # every round a mistake
    assert result.certificate_norm <= 1 + 1e-12
    assert result.certificate_margin >= gamma * (1 - 1e-12)
    # the certificate, checked by hand: ||w*|| <= 1 and y_i <e_i, w*> >= gamma
    w = np.asarray(result.certificate)
    assert np.linalg.norm(w) <= 1 + 1e-12
    assert np.min(result.y * (result.X @ w)) >= gamma * (1 - 1e-12)
    # and independently: the margin of {(e_i, y_i)} through the origin is 1/sqrt(n) >= gamma
    assert 1 / math.sqrt(n) >= gamma * (1 - 1e-12)
    if len(set(result.y.tolist())) == 2 and n <= 30:  # max_margin needs both classes
        margin = max_margin(result.X, result.y, bias=False).margin
        assert margin == pytest.approx(1 / math.sqrt(n), rel=1e-9)
    return n


@pytest.mark.parametrize("learner", list(LEARNERS))
@pytest.mark.parametrize("gamma, dim", [(0.2, 50), (0.1, 1000), (0.5, 3), (1.0, 4), (0.05, 30)])
def test_adversary_forces_n_mistakes_on_builtin_learners(learner, gamma, dim):
    result = adversarial_lower_bound(gamma=gamma, dim=dim, learner=learner)
    n = _check_adversary(result, gamma, dim)
    assert result.predictions.shape == (n,)
    assert result.learner == learner


def test_perceptron_learner_predicts_minus_one_on_fresh_axes():
    """Algorithm 1.16 through the origin: w only has weight on axes it has seen, so
    w·e_i = 0 and sign(0) = -1 (Definition 1.12): it always predicts -1."""
    result = adversarial_lower_bound(gamma=0.2, dim=50, learner="perceptron")
    np.testing.assert_array_equal(result.predictions, -np.ones(25, dtype=int))


def test_adversary_on_a_custom_learner():
    learner = CountingLearner()
    result = adversarial_lower_bound(gamma=0.25, dim=20, learner=learner)
    n = _check_adversary(result, 0.25, 20)
    assert n == 16
    assert len(learner.shown) == len(learner.told) == n
    np.testing.assert_array_equal(np.array(learner.shown), np.eye(n, 20))
    # nature answers the opposite of each prediction
    np.testing.assert_array_equal(learner.told, -result.predictions)
    assert result.learner == "CountingLearner"


def test_adversary_on_a_scripted_learner():
    script = [1, -1, -1, 1, 1, 1, -1, 1, -1]
    result = adversarial_lower_bound(gamma=1 / 3, dim=9, learner=ScriptedLearner(script))
    _check_adversary(result, 1 / 3, 9)
    np.testing.assert_array_equal(result.predictions, script)
    np.testing.assert_array_equal(result.y, -np.array(script))


# ---------------------------------------------------------------------------
# Remark 1.19: the aggressive rule errs at every large power of two
# ---------------------------------------------------------------------------


def _powers_of_two(limit):
    return {2**k for k in range(limit.bit_length() + 1) if 2**k <= limit}


def _simulate(T):
    """Both rules in a plain loop over t, on x_t = -2 (t a power of two) else 1, y_t = +1."""
    powers = _powers_of_two(T)
    w = b = 0.0  # mistake-driven
    W = B = 0.0  # aggressive
    standard, aggressive = [], []
    for t in range(1, T + 1):
        x = -2.0 if t in powers else 1.0
        if x * w + b <= 0:
            standard.append(t)
            w, b = w + x, b + 1.0
        if x * W + B <= 0:
            aggressive.append(t)
        W, B = W + x, B + 1.0
    return standard, aggressive, (w, b)


def test_counterexample_matches_plain_simulation():
    T = 5000
    result = aggressive_counterexample(T)
    standard, aggressive, (w, b) = _simulate(T)
    np.testing.assert_array_equal(result.mistakes_standard, standard)
    np.testing.assert_array_equal(result.mistakes_aggressive, aggressive)
    assert standard == [1, 3]  # by hand: (w, b) = (0, 0) -> (-2, 1) -> (-1, 2), then done
    assert (result.standard_w, result.standard_b) == (w, b)
    assert w * -2.0 + b > 0 and w * 1.0 + b > 0  # it separates both examples
    # x_t of the remark
    t = np.arange(1, 200)
    powers = _powers_of_two(200)
    np.testing.assert_array_equal(counterexample_x(t), [-2.0 if i in powers else 1.0 for i in t])


def test_aggressive_errs_at_every_power_of_two_up_to_ten_million():
    T = 10**7
    result = aggressive_counterexample(T)
    mistakes = set(result.mistakes_aggressive.tolist())
    assert {p for p in _powers_of_two(T) if p >= 32} <= mistakes
    assert max(mistakes) <= T
    assert len(result.mistakes_standard) <= 3
    assert result.cumulative([T], rule="aggressive")[0] == len(mistakes)
    assert result.cumulative([T], rule="standard")[0] == len(result.mistakes_standard)


def test_aggressive_mistakes_vectorised_simulation():
    """Exact integer simulation of the aggressive rule up to 2^21 (no loop over t)."""
    T = 2**21
    t = np.arange(1, T + 1, dtype=np.int64)
    x = np.where((t & (t - 1)) == 0, -2, 1).astype(np.int64)
    before = np.concatenate([[0], np.cumsum(x)[:-1]])  # sum_{i<t} x_i
    scores = x * before + (t - 1)  # <w_{t-1}, (x_t, 1)>
    np.testing.assert_array_equal(aggressive_counterexample(T).mistakes_aggressive, t[scores <= 0])
    sample = np.array([1, 2, 3, 64, 65, 1023, 1024, 1025, 2**20, 2**21])
    np.testing.assert_array_equal(aggressive_score(sample), scores[sample - 1])
    # running average <x̄_t, x_{t+1}> with x̄_t = (1/t) sum_{i<=t} x_i
    averages = np.cumsum(x)[:-1] / t[:-1] * x[1:]
    grid = np.array([1, 5, 31, 63, 2**10 - 1, 2**20 - 1, 2**21 - 1])
    np.testing.assert_allclose(running_average_product(grid), averages[grid - 1], rtol=1e-12)


def test_running_average_tends_to_minus_two_before_powers_of_two():
    result = aggressive_counterexample(10**7)
    grid = np.asarray(result.t_grid)
    values = dict(zip(grid.tolist(), np.asarray(result.average_products).tolist()))
    for k in range(6, 24):
        t = 2**k - 1
        if t <= 10**7:
            assert values[t] <= -1.0  # a mistake at t + 1 = 2^k
    assert values[2**23 - 1] == pytest.approx(-2.0, abs=1e-4)
    # everywhere else the average is close to +1 (no mistake)
    assert values[2**20 + 1] > 0.99


# ---------------------------------------------------------------------------
# Exercise 1.20: mistakes all the time
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("T", [1, 2, 20, 500])
def test_always_wrong_sequence(T):
    seq = always_wrong_sequence(T)
    x, y = np.asarray(seq.x), np.asarray(seq.y)
    assert x.shape == y.shape == (T,)
    assert np.all(y == 1)
    # an independent loop of the aggressive rule (w_0 = 0, b_0 = 0, delta = 0)
    w = b = 0.0
    scores = []
    for xt, yt in zip(x, y):
        score = yt * (w * xt + b)
        scores.append(score)
        assert score <= 0  # a mistake at every single step
        w, b = w + yt * xt, b + yt  # aggressive: update regardless
    np.testing.assert_allclose(seq.scores, scores, rtol=1e-12)
    assert np.all(seq.mistakes)
    # yet the sequence is separable: (w, b) = (0, 1) gives y (w x + b) = 1 > 0
    w_sep, b_sep = seq.separator
    assert (w_sep, b_sep) == (0.0, 1.0)
    assert np.all(y * (w_sep * x + b_sep) > 0)
