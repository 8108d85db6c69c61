"""Plane geometry the pictures share: cut a view (a rectangle) by a half-plane.

One routine, :func:`cut_polygon` (a step of Sutherland–Hodgman clipping), keeps
the part of a convex polygon on one side of a line; :func:`halfplane_in_box`
uses it for the region a linear classifier predicts inside the view. NumPy only;
the figure modules turn the vertices into Plotly traces.
"""

from __future__ import annotations

import numpy as np


def box_corners(x_lim: tuple[float, float], y_lim: tuple[float, float]) -> list[np.ndarray]:
    """The four corners of [x0, x1] x [y0, y1], counter-clockwise from the bottom left."""
    (x0, x1), (y0, y1) = x_lim, y_lim
    return [np.array(corner, dtype=float) for corner in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]


def cut_polygon(polygon, normal, offset: float, *, strict: bool) -> list[np.ndarray]:
    """The part of a convex polygon where normal·p + offset > 0 (strict) or >= 0.

    Sutherland–Hodgman, one line: walk the edges p -> q; keep p when it is on the
    kept side, and where the edge crosses the line add the crossing
    p + s (q - p), s = v(p) / (v(p) - v(q)) with v(p) = normal·p + offset.

    Parameters
    ----------
    polygon : sequence of ndarray of shape (2,)
        Vertices of a convex polygon in order (not repeated at the end).
    normal : ndarray of shape (2,)
    offset : float
    strict : bool
        Keep the open side (> 0) or the closed one (>= 0).

    Returns
    -------
    list of ndarray of shape (2,)
        The vertices of the cut polygon in the same order; an empty list when
        nothing of the polygon with positive area lies on that side.
    """
    normal = np.asarray(normal, dtype=float)
    values = [float(normal @ p + offset) for p in polygon]
    kept_side = [(v > 0) if strict else (v >= 0) for v in values]
    cut = []
    for k, p in enumerate(polygon):
        following = (k + 1) % len(polygon)
        if kept_side[k]:
            cut.append(p)
        if kept_side[k] != kept_side[following]:
            # the edge p -> q crosses the line normal·x + offset = 0 at this point
            q, vp, vq = polygon[following], values[k], values[following]
            cut.append(p + vp / (vp - vq) * (q - p))
    # a line through a vertex adds that vertex twice: keep one of each run of equal points
    cut = [p for k, p in enumerate(cut) if not np.array_equal(p, cut[k - 1])] or cut[:1]
    return cut if len(cut) >= 3 and polygon_area(cut) > 0 else []


def polygon_area(polygon) -> float:
    """Area of a simple polygon (shoelace formula: half of |sum of x_k y_(k+1) - x_(k+1) y_k|)."""
    points = np.asarray(polygon, dtype=float).reshape(-1, 2)
    following = np.roll(points, -1, axis=0)
    return 0.5 * abs(float(np.sum(points[:, 0] * following[:, 1] - following[:, 0] * points[:, 1])))


def halfplane_in_box(
    w, b: float, x_lim: tuple[float, float], y_lim: tuple[float, float], label: int = 1
) -> tuple[list[float], list[float]]:
    """The part of the view that the classifier sign(w·x + b) predicts as ``label``.

    With sign(0) = -1 (Definition 1.12), label +1 is the open half-plane
    w·x + b > 0 and label -1 the closed one w·x + b <= 0. When w = 0 the region
    is the whole view or nothing, by the sign of b.

    Parameters
    ----------
    w : ndarray of shape (2,)
    b : float
    x_lim, y_lim : (float, float)
        The view [x0, x1] x [y0, y1].
    label : {+1, -1}

    Returns
    -------
    (xs, ys) : two lists of float
        The closed polygon (first vertex repeated at the end), ready for a
        Plotly ``fill="toself"`` trace; two empty lists when the region has no
        area in the view.
    """
    if label not in (1, -1):
        raise ValueError(f"label must be +1 or -1, got {label!r}.")
    sign = 1.0 if label == 1 else -1.0
    polygon = cut_polygon(
        box_corners(x_lim, y_lim),
        sign * np.asarray(w, dtype=float),
        sign * float(b),
        strict=label == 1,
    )
    if not polygon:
        return [], []
    closed = [*polygon, polygon[0]]
    return [float(p[0]) for p in closed], [float(p[1]) for p in closed]
