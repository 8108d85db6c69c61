"""What moved from /adversary, /generalisation and /relaxation into their viz modules when the
pages became pipelines: the link encodings of a page's own values, the cost check of a
curve, the perceptron run both ways, and the texts that read a result."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron_core import constructions as cx
from perceptron_core import project
from perceptron_core.viz import adversary, generalisation, relaxation

# ------------------------------------------------------------------ /adversary


@given(st.lists(st.sampled_from([1, -1]), min_size=1, max_size=40))
def test_moves_written_in_a_link_read_back(predictions):
    text = adversary.moves_text(predictions)
    assert set(text) <= {"+", "-"} and len(text) == len(predictions)
    assert adversary.parse_moves(text, n=len(predictions)) == predictions
    assert adversary.parse_moves(text, n=len(predictions) - 1) is None  # more than n rounds
    # a '+' typed by hand into a URL arrives as a space
    assert adversary.parse_moves(text.replace("+", " "), n=40) == predictions


@pytest.mark.parametrize("text", ["", "+x-", "1", "++\n"])
def test_text_that_is_no_game_is_refused(text):
    assert adversary.parse_moves(text, n=10) is None


def test_the_rounds_table_and_certificate_text_follow_the_game():
    result = cx.adversarial_lower_bound(0.5, 6, cx.ScriptedLearner([1, -1, -1, 1]))
    table = adversary.rounds_columns(result.predictions, result.y)
    assert table["round i"].tolist() == [1, 2, 3, 4]
    # examples counted from 1 as everywhere: round i shows eᵢ (the caption says so)
    assert list(table) == ["round i", "prediction", "label yᵢ", "mistakes so far"]
    assert adversary.round_prompt(0, 6, 6).startswith("**Round 1 of 6.** The adversary shows e₁:")
    assert table["label yᵢ"].tolist() == [-1, 1, 1, -1]  # the opposite of each prediction
    assert table["mistakes so far"].tolist() == [1, 2, 3, 4]
    text = adversary.certificate_text(result, 0.5, 4, 6)
    assert "(−0.5, +0.5, +0.5, −0.5) and 0 in the other 2 coordinates" in text
    assert "‖w\\*‖² = n·γ² = 4·0.25 = 1, so ‖w\\*‖ = 1." in text
    assert "4 mistakes out of 4" in text


def test_the_forced_mistakes_are_min_of_the_floor_and_d():
    gammas, forced = adversary.forced_mistakes(30, points=9)
    expected = np.minimum(np.floor(1 / gammas**2 + 1e-9), 30)
    np.testing.assert_array_equal(forced, expected)


# ------------------------------------------------------------------ /generalisation


@pytest.mark.parametrize(
    "text, sizes",
    [
        ("2, 5, 10", [2, 5, 10]),
        ("10;2,2", [2, 10]),
        ("1, x", None),
        ("0, 5", None),
        ("", None),
        ("10001", None),
    ],
)
def test_values_of_n_are_read_from_the_text_box(text, sizes):
    assert generalisation.parse_sizes(text) == sizes


def test_a_curve_over_the_request_budget_is_refused_with_what_to_lower():
    # the page's default curve fits the request's 0.5 s
    generalisation.check_curve_cost([2, 5, 10, 20, 50, 100, 200], 0.1, 2, 500, 5_000, 0.5)
    with pytest.raises(
        ValueError,
        match=r"about \d\.\d\d s of computing, more than the "
        r"0\.5 s.*fewer runs per N",
    ):
        generalisation.check_curve_cost([2, 5, 10, 20, 50, 100, 200, 500], 0.1, 2, 1000, 5_000, 0.5)
    with pytest.raises(ValueError, match="too much work"):
        generalisation.check_curve_cost([10_000] * 10, 0.05, 50, 1000, 5_000, 1e9)


# ------------------------------------------------------------------ /relaxation


@given(
    st.lists(
        st.tuples(st.integers(-50, 50), st.integers(1, 50), st.integers(-50, 50)),
        min_size=1,
        max_size=relaxation.MAX_ROWS,
    )
)
def test_own_rows_written_in_a_link_read_back(rows):
    rows = [[float(a), float(b), float(v)] for a, b, v in rows]
    assert relaxation.rows_from_text(relaxation.rows_text(rows)) == rows


@pytest.mark.parametrize(
    "row, why",
    [((0, 0, 1), "a₁ = a₂ = 0"), ((1, 0, np.inf), "infinite"), ((2e6, 0, 1), "above 1e+06")],
)
def test_a_row_that_is_no_inequality_is_refused(row, why):
    assert why in relaxation.row_problem(row)
    assert relaxation.rows_from_text(relaxation.rows_text([row, (1, 1, 1)])) is None


@settings(max_examples=20, deadline=None, derandomize=True, database=None)
@given(st.integers(2, 20), st.integers(0, 50), st.sampled_from([0.05, 0.1, 0.3]))
def test_each_perceptron_update_is_a_relaxation_step_with_its_eta(n, seed, delta):
    perceptron, A, c, relaxed, etas = relaxation.perceptron_both_ways(n, 0.15, seed, delta, 1.0)
    assert etas.shape == (perceptron.n_updates,)
    for k in range(perceptron.n_updates):  # (1 - η) w + η P_i(w) = w + y_i x_i (Exercise 1.22)
        w, i = perceptron.weights[k], perceptron.update_indices[k]
        if np.isfinite(etas[k]):
            step = (1 - etas[k]) * w + etas[k] * project(A, c, w, i)
            np.testing.assert_allclose(step, perceptron.weights[k + 1], atol=1e-9)
    assert relaxed.iterates.shape[1] == 2 and A.shape == (2, n) and c.shape == (n,)


def test_the_sweep_is_refused_above_the_request_budget():
    # all 120 runs are computed together: the cost grows with the iteration limit only
    per_iteration = relaxation.SECONDS_PER_SWEEP_ITERATION
    most = int(0.5 / per_iteration) // 100 * 100
    assert relaxation.sweep_refused_text(most, 0.5) is None
    assert relaxation.sweep_refused_text(most + 200, 0.5) is not None
    text = relaxation.sweep_refused_text(50_000, 0.5)
    assert "120 runs of up to 50,000 iterations" in text
    assert f"Lower the iteration limit to {most:,} or less" in text
    assert f"about {50_000 * per_iteration:.1f} s" in text and "the 0.5 s" in text
    # just over the budget: the estimate keeps the digits that make "more than" true
    near = relaxation.sweep_refused_text(most + 100, 0.5)
    shown = float(re.search(r"about ([\d.]+) s of computing", near).group(1))
    assert shown > 0.5 and abs(shown - (most + 100) * per_iteration) < 0.01
