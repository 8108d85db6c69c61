"""What a screen reader is given in words instead of a picture, checked against independent
recomputations: both sides of a shown inequality (inequality_texts, true as written), where a
picture's regions lie (region_words), a sweep as a table (sweep_tables), the kernel lift and
its curve in words, the multiclass pictures in words, and a 3-D chart's summary. The twins
in the player's JavaScript are checked against these in tests/browser/test_browser_screen_reader.py.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron_core.shown_numbers import fixed_text, inequality_texts
from perceptron_core.viz.describe import figure_summary
from perceptron_core.viz.region_words import region_words

RELATIONS = {
    "≤": lambda a, b: a <= b,
    "≥": lambda a, b: a >= b,
    "<": lambda a, b: a < b,
    ">": lambda a, b: a > b,
    "=": lambda a, b: a == b,
}


def exact(text: str) -> Fraction:
    return Fraction(Decimal(text.replace("−", "-").replace(",", "")))


# ---- both sides of an inequality -------------------------------------------------------

finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)


@settings(max_examples=400, deadline=None)
@given(finite, finite, st.sampled_from(["≤", "≥"]))
def test_both_sides_hold_as_written_whenever_the_floats_do(a, b, relation):
    left, right = inequality_texts(a, relation, b)
    if RELATIONS[relation](a, b):
        assert RELATIONS[relation](exact(left), exact(right)), (a, b, left, right)
    for value, text in ((a, left), (b, right)):
        assert (exact(text) == 0) == (value == 0), (value, text)  # nonzero never reads 0


@pytest.mark.parametrize(
    "a, b, relation, expected",
    [
        (0.5201, 0.4853, "≥", ("0.52", "0.49")),  # two decimals suffice
        (0.00097, 0.0012, "≤", ("0.00097", "0.00120")),  # two significant digits of the smaller
        (0.0, 0.0, "≥", ("0", "0")),  # t = 0: both zero
        (0.4999999999, 0.5, "≥", ("0.50", "0.50")),  # floats just off: true as written
        (6.1, 9.95, "≤", ("6.10", "9.95")),
    ],
)
def test_both_sides_get_the_fewest_decimals_that_keep_the_inequality(a, b, relation, expected):
    assert inequality_texts(a, relation, b) == expected


def test_a_tie_rounds_away_from_zero_as_javascript_does():
    # 0.125 and -0.125 are exact binary halves: toFixed(2) gives 0.13 and -0.13
    assert fixed_text(0.125, 2) == "0.13" and fixed_text(-0.125, 2) == "−0.13"
    assert fixed_text(2.675, 2) == "2.67"  # 2.675 is 2.67499999… in binary


def test_an_unknown_relation_is_a_value_error():
    with pytest.raises(ValueError, match="relation must be one of"):
        inequality_texts(1.0, "≈", 2.0)


# ---- where a picture's regions lie ----------------------------------------------------


def grid(size=45):
    axis = np.linspace(-1, 1, size)
    return np.meshgrid(axis, axis[::-1])  # row 0 at the top


def test_a_disc_in_the_middle_is_one_enclosed_piece_in_the_centre():
    x, y = grid()
    words = region_words(np.where(x**2 + y**2 < 0.3, 1, -1), {1: "inside", -1: "outside"})
    inside, outside = words.split(". ")[:2]
    assert "most of the centre," in inside and "enclosed" in inside and "1 piece" in inside
    share = np.mean(x**2 + y**2 < 0.3)
    assert f"about {round(100 * share)}%" in inside
    for zone in ("top left", "top right", "bottom left", "bottom right"):
        assert zone in outside and zone not in inside
    assert "enclosed" not in outside  # the outside reaches the square's edge


def test_xor_is_two_pieces_each_in_opposite_corners():
    x, y = grid(44)  # no cell on an axis, where x·y = 0 would join the minus pieces
    words = region_words(np.where(x * y > 0, 1, -1), {1: "plus", -1: "minus"})
    plus, minus = words.split(". ")[:2]
    assert "2 pieces" in plus and "2 pieces" in minus
    assert "top right" in plus and "bottom left" in plus
    assert "top left" in minus and "bottom right" in minus


def test_a_label_named_alone_owns_only_the_zones_it_covers_most_of():
    x, y = grid()
    words = region_words(np.where(x > 0.6, 1, 0), {1: "a strip"})  # the unnamed rest is larger
    assert "in none of the nine zones mostly" in words or "right" in words
    assert "top left" not in words and "centre" not in words
    everywhere = region_words(np.ones((9, 9)), {1: "all"})
    assert "about 100%" in everywhere and "most of every zone" in everywhere


def test_region_words_refuses_a_grid_that_is_not_square():
    with pytest.raises(ValueError, match="square grid"):
        region_words(np.ones((3, 4)), {1: "x"})


# ---- a sweep as a table -----------------------------------------------------------------


def test_the_bound_table_holds_each_margins_median_and_largest_bound():
    from perceptron_core.sweeps import margin_sweep
    from perceptron_core.viz.sweep_tables import bound_sweep_table

    result = margin_sweep([0.05, 0.1, 0.3], 4, n=60, dim=2, bias=True)
    ratio = result.updates / result.bound
    columns, caption = bound_sweep_table(
        result.parameter, result.values(), result.value, result.updates, result.bound, ratio, "T(A)"
    )
    assert list(columns)[0] == "γ" and "T(A)" in caption
    for row, value in enumerate(result.values()):
        mine = result.value == value
        assert columns["runs"][row] == str(mine.sum())
        assert exact(columns["median updates"][row]) == Fraction(np.median(result.updates[mine]))
        largest = columns["largest T(A) over the seeds"][row]
        assert abs(float(exact(largest)) - result.bound[mine].max()) <= 0.005 + 1e-9
        assert float(columns["largest updates / bound"][row]) <= 1.0


def test_the_eta_table_has_one_row_per_eta_and_one_column_per_rule():
    from perceptron_core.relaxation import INDEX_RULE_LABELS
    from perceptron_core.viz.relaxation import eta_sweep
    from perceptron_core.viz.sweep_tables import eta_sweep_table

    # columns a_i: w₁ ≤ 1, w₂ ≤ 1, w₁ + w₂ ≥ 0.5
    A = np.array([[1.0, 0.0, -1.0], [0.0, 1.0, -1.0]])
    c = np.array([1.0, 1.0, -0.5])
    rows = eta_sweep(
        A, c, etas=(0.5, 1.0, 2.0), rules=("cyclic", "max_residual"), w0=[3, 3], max_iter=50
    )
    columns, _ = eta_sweep_table(rows, 50)
    assert columns["η"] == ["0.5", "1", "2"] and len(columns) == 3
    for row in rows:
        shown = columns[INDEX_RULE_LABELS[row["rule"]]][[0.5, 1.0, 2.0].index(row["eta"])]
        if row["iterations"] is None:
            assert shown.startswith("not within 50")
        else:
            assert shown == f"{row['iterations']:,}"


# ---- the kernel lift and the multiclass pictures in words --------------------------------


def circles(seed=0, n=80):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, (n, 2))
    return X, np.where((X**2).sum(axis=1) < 0.5, 1, -1)


def test_the_lift_says_its_plane_and_the_side_of_each_class():
    from perceptron_core.viz import kernels

    X, y = circles()
    w, b = np.array([0.0, 0.0, -1.0]), 0.5  # z = x₁² + x₂² < 0.5 is +1: below the plane
    words = kernels.lift_words(kernels.lift(X, "squared_norm"), y, "squared_norm", w, b)
    assert "z = 0.5" in words and "+1 below it (smaller z)" in words
    assert "every point is on its class's side" in words
    summary = figure_summary(kernels.lift_figure(X, y, "squared_norm", w, b, limit=1.1))
    assert "a line from" not in summary and "a surface in 3-D" in summary
    assert summary.startswith("Chart: a 3-D view over x₁, x₂ and z = x₁² + x₂².")
    w2 = np.array([0.3, 0.0, -1.0])  # a tilted plane puts some points on the wrong side
    wrong = int(np.sum(y * (kernels.lift(X, "squared_norm") @ w2 + b) <= 0))
    assert wrong > 0 and f"{wrong} of the 80 points are on the wrong side" in kernels.lift_words(
        kernels.lift(X, "squared_norm"), y, "squared_norm", w2, b
    )


def test_the_curve_in_the_plane_is_said_as_an_enclosed_region():
    from perceptron_core.viz import kernels

    X, y = circles()
    words = kernels.preimage_words(X, y, "squared_norm", np.array([0.0, 0.0, -1.0]), 0.5, 1.1)
    assert words.startswith("w·Φ(x) + b > 0 (predicted +1) covers about")
    assert "most of the centre, in 1 piece, enclosed" in words


def test_each_multiclass_picture_says_where_each_class_wins_and_the_points_it_gets_wrong():
    from perceptron_core.viz import multiclass as viz
    from perceptron_core.viz.describe import figure_words

    rng = np.random.default_rng(1)
    centres = np.array([[-0.6, 0.6], [0.6, 0.6], [0.0, -0.6]])
    labels = np.repeat([0, 1, 2], 20)
    X = centres[labels] + rng.normal(0, 0.12, (60, 2))
    ova, ovo, limit, region, _ = viz.fit_both(X, labels, "cyclic", 0, 100)
    words = figure_words(viz.ova_figure(X, labels, ova, region, limit).to_plotly_json())
    assert "Class 0 covers about" in words and "top left" in words.split("Class 1")[0]
    assert "bottom" in words.split("Class 2")[1]
    wrong = int(np.sum(ova.predict(X) != labels))
    assert (f"for {wrong} of the 60" in words) if wrong else "every training point" in words
    disagree = figure_words(
        viz.disagreement_figure(X, labels, ova.classes, region, limit).to_plotly_json()
    )
    assert disagree.startswith(("Where the two schemes disagree", "The two schemes disagree"))
