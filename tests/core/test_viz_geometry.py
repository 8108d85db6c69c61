"""The one routine that cuts a view by a half-plane, against checks written here.

Independent checks: a point-in-polygon test by ray casting (a point is
in the region the routine returns exactly when w·p + b > 0), the area against
the share of a fine grid on that side, and the closed-form strip of a vertical line.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron_core.viz.geometry import cut_polygon, halfplane_in_box, polygon_area

coordinate = st.floats(-3, 3, allow_nan=False, allow_infinity=False)
weight = st.floats(-2, 2, allow_nan=False, allow_infinity=False)


def inside_polygon(polygon: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Whether each point is inside the polygon: even-odd rule, a ray cast to the right."""
    inside = np.zeros(len(points), dtype=bool)
    x, y = points[:, 0], points[:, 1]
    for (x1, y1), (x2, y2) in zip(polygon, np.roll(polygon, -1, axis=0)):
        if y1 == y2:
            continue  # a horizontal (or zero-length) edge is never crossed by a horizontal ray
        straddles = (y1 > y) != (y2 > y)
        crossing_x = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
        inside ^= straddles & (x < crossing_x)
    return inside


def region(w, b, x_lim, y_lim, label=1) -> np.ndarray:
    xs, ys = halfplane_in_box(w, b, x_lim, y_lim, label)
    return np.column_stack([xs, ys])


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(
    w1=weight,
    w2=weight,
    b=coordinate,
    x0=coordinate,
    y0=coordinate,
    width=st.floats(0.5, 4),
    height=st.floats(0.5, 4),
    seed=st.integers(0, 2**16),
)
def test_a_point_is_in_the_region_exactly_when_the_classifier_says_plus_one(
    w1, w2, b, x0, y0, width, height, seed
):
    w = np.array([w1, w2])
    x_lim, y_lim = (x0, x0 + width), (y0, y0 + height)
    closed = region(w, b, x_lim, y_lim)
    rng = np.random.default_rng(seed)
    points = np.column_stack([rng.uniform(*x_lim, 400), rng.uniform(*y_lim, 400)])
    score = points @ w + b
    clear = np.abs(score) > 1e-6 * (1 + np.abs(w).sum())  # not on the line itself
    if closed.size == 0:
        assert not np.any(score[clear] > 0)
        return
    assert np.allclose(closed[0], closed[-1])  # closed for fill="toself"
    polygon = closed[:-1]
    # every vertex in the view and on the +1 side (or on the line)
    assert np.all(polygon[:, 0] >= x_lim[0] - 1e-9) and np.all(polygon[:, 0] <= x_lim[1] + 1e-9)
    assert np.all(polygon[:, 1] >= y_lim[0] - 1e-9) and np.all(polygon[:, 1] <= y_lim[1] + 1e-9)
    assert np.all(polygon @ w + b >= -1e-9 * (1 + np.abs(polygon).sum()))
    inside = inside_polygon(polygon, points)
    # a point near an edge of the view can fall either way: only compare clear interior points
    margin = 1e-6 * max(width, height)
    interior = (
        clear
        & (points[:, 0] > x_lim[0] + margin)
        & (points[:, 0] < x_lim[1] - margin)
        & (points[:, 1] > y_lim[0] + margin)
        & (points[:, 1] < y_lim[1] - margin)
    )
    np.testing.assert_array_equal(inside[interior], score[interior] > 0)


@pytest.mark.parametrize(
    "w, b",
    [
        ((1.0, 0.5), 0.2),
        ((-0.3, 2.0), -1.0),
        ((0.0, 1.0), 0.0),
        ((1.0, 1.0), -5.0),
        ((1.0, -1.0), 0.0),
    ],
)
def test_area_is_the_share_of_a_fine_grid_and_the_two_labels_fill_the_view(w, b):
    x_lim, y_lim = (-1.0, 2.0), (-1.5, 1.0)
    ticks = 1200
    gx = np.linspace(*x_lim, ticks, endpoint=False) + 3.0 / ticks / 2  # cell centres
    gy = np.linspace(*y_lim, ticks, endpoint=False) + 2.5 / ticks / 2
    grid_x, grid_y = np.meshgrid(gx, gy)
    share = np.mean(w[0] * grid_x + w[1] * grid_y + b > 0)
    view = 3.0 * 2.5
    plus, minus = region(w, b, x_lim, y_lim, 1), region(w, b, x_lim, y_lim, -1)
    area_plus = polygon_area(plus[:-1]) if plus.size else 0.0
    area_minus = polygon_area(minus[:-1]) if minus.size else 0.0
    assert area_plus == pytest.approx(share * view, abs=0.01)
    assert area_plus + area_minus == pytest.approx(view)


def test_a_vertical_line_gives_the_strip_on_its_positive_side():
    # w = (2, 0), b = -1: the line x1 = 0.5; +1 on the right
    xs, ys = halfplane_in_box((2.0, 0.0), -1.0, (-4.0, 3.0), (-1.5, 1.5))
    assert xs == pytest.approx([0.5, 3.0, 3.0, 0.5, 0.5])
    assert ys == [-1.5, -1.5, 1.5, 1.5, -1.5]
    xs, ys = halfplane_in_box((-2.0, 0.0), -1.0, (-4.0, 3.0), (-1.5, 1.5))  # x1 < -0.5
    assert xs == pytest.approx([-4.0, -0.5, -0.5, -4.0, -4.0])


def test_zero_weights_predict_the_sign_of_the_bias_with_sign_zero_minus_one():
    whole = ([-1.0, 1.0, 1.0, -1.0, -1.0], [-1.0, -1.0, 1.0, 1.0, -1.0])
    assert halfplane_in_box((0.0, 0.0), 0.5, (-1, 1), (-1, 1)) == whole
    assert halfplane_in_box((0.0, 0.0), 0.0, (-1, 1), (-1, 1)) == ([], [])  # sign(0) = -1
    assert halfplane_in_box((0.0, 0.0), 0.0, (-1, 1), (-1, 1), label=-1) == whole


def test_a_line_outside_the_view_or_touching_a_corner_leaves_no_area():
    assert halfplane_in_box((1.0, 0.0), -5.0, (-1, 1), (-1, 1)) == ([], [])
    # x1 + x2 <= -2 meets the square [-1, 1]^2 only in its corner (-1, -1)
    assert halfplane_in_box((1.0, 1.0), 2.0, (-1, 1), (-1, 1), label=-1) == ([], [])
    with pytest.raises(ValueError, match="label"):
        halfplane_in_box((1.0, 0.0), 0.0, (-1, 1), (-1, 1), label=0)


def test_a_line_through_a_corner_gives_each_vertex_once():
    # x1 > x2 on [1, 2] x [0, 1]: everything but the corner (1, 1), which the line touches
    xs, ys = halfplane_in_box((1.0, -1.0), 0.0, (1.0, 2.0), (0.0, 1.0))
    assert list(zip(xs, ys)) == [(1.0, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0, 1.0), (1.0, 0.0)]


def test_cut_polygon_keeps_the_closed_or_the_open_side():
    triangle = [np.array(p, float) for p in ((0, 0), (2, 0), (0, 2))]
    half = cut_polygon(triangle, (1.0, 0.0), -1.0, strict=False)  # x1 >= 1
    assert polygon_area(half) == pytest.approx(0.5)
    assert cut_polygon(triangle, (1.0, 0.0), -2.0, strict=True) == []  # x1 > 2: none
