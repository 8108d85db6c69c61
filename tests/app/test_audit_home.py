"""The re-audit of Home (docs/audit/home.md): each statement of the page against runs of the
core and independent recomputation, and the settings that made the old statements false.

Kinds (AUDIT.md): 4 a fixed sentence false for some settings, 6 a theorem beyond its
hypotheses, 8 one symbol with two meanings. The margins are computed by brute force over
the hulls (tests/app/test_audit_train.py), the runs checked with the plain loop.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from app_helpers import markdown_text, open_page
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference_perceptron import reference_perceptron
from test_audit_train import min_norm

from perceptron_core import ORDERS, adversarial_lower_bound, run_perceptron
from perceptron_core.theory import NOTATION, page_notation, threshold_bound


@pytest.fixture(scope="module")
def home():
    return open_page("pages/home.py")


def paragraph(home, start: str) -> str:
    return next(m.value for m in home.markdown if m.value.startswith(start))


def test_the_algorithm_is_not_indexed_by_t(home):
    """Kind 8: t counts updates (Notation panel, Theorem 1.28); the algorithm indexed the
    examples it looks at by t ("For t = 1, 2, … pick i = Iₜ")."""
    text = markdown_text(home)
    assert "For t =" not in text and "Iₜ" not in text
    assert NOTATION["t"].startswith("the number of updates")
    assert "ŷ" in text and "ŷ" in page_notation("home")


def test_the_first_paragraph_names_every_update_the_test_makes(home):
    """Kind 4: "changes (w, b) only when that example is on the wrong side" is false for a
    −1 point on the hyperplane (predicted right, updated) and for a score in (0, δ]."""
    on_the_line = run_perceptron(np.array([[0.5, 0.5]]), np.array([-1]))
    assert on_the_line.update_indices.tolist() == [0]  # predicted −1 = its label, updated
    within_delta = run_perceptron(
        np.array([[1.0, 0.0], [0.1, 0.0]]), np.array([1, 1]), bias=False, delta=0.2
    )
    assert 1 in within_delta.update_indices.tolist()  # score 0.1 > 0, at most δ
    first = paragraph(home, "**Binary classification**")
    assert "only when that example is on the wrong side." not in first
    assert "or on it" in first and "at most δ" in first


def test_theorem_1_34_is_stated_with_its_dimension(home):
    """Kind 6: "no learner does much better" holds when d ≥ 1/γ²; in d dimensions the
    theorem forces only min(⌊1/γ²⌋, d) mistakes."""
    lower = paragraph(home, "**In high dimension no learner does better**")
    assert "d ≥ 1/γ²" in lower and "only d" in lower
    for gamma, dim in ((0.25, 40), (0.25, 5), (0.3, 100)):
        game = adversarial_lower_bound(gamma, dim, learner="perceptron")
        n = min(math.floor(1 / gamma**2 + 1e-12), dim)
        assert game.n_mistakes == n == len(game.y)
        # margin through the origin of the unit examples e_i with their labels, brute force
        assert min_norm(game.y[:, None] * game.X) >= gamma - 1e-12
        if dim >= 1 / gamma**2:  # the perceptron's bound 1/γ², rounded down, is n
            assert math.floor(1 / gamma**2 + 1e-12) == n


def test_the_links_caption_claims_only_what_every_lesson_page_does(home):
    caption = " ".join(c.value for c in home.caption)
    assert "every page's settings live in its link" not in caption
    assert "uploaded file is not in a link" in caption


def test_the_stop_rule_is_every_example_passing(home):
    box = paragraph(home, "1. Pick the next example")
    assert "Stop once every example passes the test" in box
    assert "in order, in a fresh shuffle each pass, at random, or the most violated one" in box
    assert set(ORDERS) == {"cyclic", "permuted", "random", "max_residual", "max_distance"}


separable_data = st.tuples(
    st.lists(st.tuples(st.floats(-1, 1), st.floats(-1, 1)), min_size=2, max_size=6),
    st.floats(-np.pi, np.pi),
    st.floats(-0.5, 0.5),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(separable_data, st.sampled_from(sorted(ORDERS)), st.integers(0, 20))
def test_why_it_stops_holds_for_every_order(data, order, seed):
    """Home's Theorem 1.28 paragraph: from w₀ = 0, b₀ = 0 with δ = 0, at most
    T(A) = max‖aᵢ‖²/γ₂² updates in any order, ending with every example strictly on its side;
    another start or δ > 0 is bounded by (1.4), a larger number."""
    points, angle, offset = data
    X = np.array(points)
    w = np.array([np.cos(angle), np.sin(angle)])
    y = np.where(X @ w + offset > 0, 1, -1)
    if len(set(y.tolist())) < 2 or np.min(np.abs(X @ w + offset)) < 0.05:
        return
    A = y[:, None] * np.hstack([X, np.ones((len(y), 1))])
    gamma_2 = min_norm(A)
    bound = float(np.max(np.einsum("ij,ij->i", A, A))) / gamma_2**2
    run = run_perceptron(X, y, order=order, seed=seed, max_updates=100_000, max_epochs=100_000)
    ref = reference_perceptron(
        X, y, order=order, seed=seed, max_updates=100_000, max_epochs=100_000
    )
    assert run.update_indices.tolist() == ref.update_indices.tolist()
    assert run.converged and run.n_updates <= bound * (1 + 1e-9)
    assert np.all(y * (X @ run.weights[-1] + run.biases[-1]) > 0)
    max_sq = float(np.max(np.einsum("ij,ij->i", A, A)))
    assert threshold_bound(max_sq, gamma_2, 0.1, 0.0) > bound
    assert threshold_bound(max_sq, gamma_2, 0.0, 0.3) > bound
