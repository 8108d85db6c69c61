"""Where one-vs-all and one-vs-one give each class in a square, exactly (Remark 1.36).

Both rules compare affine functions of x, so they are constant on the pieces that a
few lines cut from the square (:mod:`.arrangement`):

* one-vs-one's pair (j, j′) votes j where w_{j,j′}·x + b_{j,j′} > 0 and j′ where it is
  ≤ 0: its line is w_{j,j′}·x + b_{j,j′} = 0;
* one-vs-all's scores sⱼ = wⱼ·x + bⱼ change order only on the lines sᵢ = sⱼ, i.e.
  (wᵢ − wⱼ)·x + (bᵢ − bⱼ) = 0 (taken exactly: the difference of the stored floats is
  not rounded).

On every open cell, open edge and corner of that cut, the signs of all these lines fix
both predictions; so each set below (a class's region, the tied points, the points
where the two schemes disagree) is a union of cells (its area, exact), edges and
corners. A tie or a disagreement on a line has area 0 and is returned as segments, not
as cells: nothing here is counted on a grid. Ties go to the class listed first, as in
:meth:`OneVsAll.predict_with_ties` and :meth:`OneVsOne.predict_with_ties`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

import numpy as np

from .arrangement import Pieces, cut_square, exact, point_signs
from .multiclass import OneVsAll, OneVsOne


@dataclass(frozen=True)
class PlaneSet:
    """A set of points of the square, as the cut gives it: areas, lines and points.

    Attributes
    ----------
    share : Fraction
        Its area over the square's area, exactly.
    polygons : tuple of ndarray of shape (m, 2)
        The cells with area that it holds (corners anticlockwise, as floats).
    segments : ndarray of shape (s, 2, 2)
        The edges it holds that bound none of its cells: lines with no area beside them.
    points : ndarray of shape (p, 2)
        The corners it holds that touch none of its edges or cells.
    """

    share: Fraction
    polygons: tuple
    segments: np.ndarray
    points: np.ndarray

    @property
    def has_area(self) -> bool:
        """Whether it has a positive area."""
        return self.share > 0

    @property
    def has_lines(self) -> bool:
        """Whether it holds segments with no area beside them."""
        return self.segments.shape[0] > 0

    @property
    def has_points(self) -> bool:
        """Whether it holds isolated points."""
        return self.points.shape[0] > 0

    @property
    def empty(self) -> bool:
        """Whether it holds no point of the square at all."""
        return not (self.polygons or self.has_lines or self.has_points)


def _check_models(ova, ovo) -> None:
    if not isinstance(ova, OneVsAll) or not isinstance(ovo, OneVsOne):
        raise ValueError("give a OneVsAll and a OneVsOne (from one_vs_all and one_vs_one).")
    if not np.array_equal(ova.classes, ovo.classes):
        raise ValueError(
            "the two schemes were trained on different classes; train both on the same labels."
        )
    if ova.weights.shape[1] != 2 or ovo.weights.shape[1] != 2:
        raise ValueError(
            f"the plane's regions need points with 2 features; these have {ova.weights.shape[1]}."
        )


def _exact_row(weights, bias) -> list[Fraction]:
    return [exact(weights[0]), exact(weights[1]), exact(bias)]


def scheme_lines(ova: OneVsAll, ovo: OneVsOne) -> tuple[list, list]:
    """The lines both rules change on: one-vs-one's pair lines (in ``ovo.pairs`` order),
    then sᵢ − sⱼ = 0 for every pair i < j of one-vs-all's classes (positions), exactly.

    Returns
    -------
    lines : list of rows (a₁, a₂, c) of Fractions, k(k−1)/2 + k(k−1)/2 of them
    score_pairs : list of (i, j), the classes of each sᵢ − sⱼ line
    """
    _check_models(ova, ovo)
    lines = [_exact_row(w, b) for w, b in zip(ovo.weights, ovo.biases)]
    pairs = list(combinations(range(ova.classes.shape[0]), 2))
    scores = [_exact_row(w, b) for w, b in zip(ova.weights, ova.biases)]
    lines += [[a - z for a, z in zip(scores[i], scores[j])] for i, j in pairs]
    return lines, pairs


def _decide(signs: np.ndarray, ovo: OneVsOne, score_pairs, k: int) -> dict:
    """Both predictions from the exact signs (rows: places; columns: scheme_lines)."""
    m, n_pairs = signs.shape[0], ovo.pair_codes.shape[0]
    pair_signs, score_signs = signs[:, :n_pairs], signs[:, n_pairs:]
    # one-vs-all: class i is at the top where no sⱼ is above sᵢ
    above = np.zeros((m, k, k), dtype=bool)  # above[:, j, i]: sⱼ > sᵢ
    for column, (i, j) in enumerate(score_pairs):
        above[:, j, i] = score_signs[:, column] < 0
        above[:, i, j] = score_signs[:, column] > 0
    top = ~above.any(axis=1)
    # one-vs-one: pair (j, j′) votes j where its score is > 0, j′ where it is ≤ 0
    votes = np.zeros((m, k), dtype=np.int64)
    for column, (j, j_other) in enumerate(ovo.pair_codes):
        votes[:, j] += pair_signs[:, column] > 0
        votes[:, j_other] += pair_signs[:, column] <= 0
    most = votes == votes.max(axis=1, keepdims=True) if m else votes.astype(bool)
    return {
        "ova": np.argmax(top, axis=1),
        "ova_tie": top.sum(axis=1) > 1,
        "ovo": np.argmax(most, axis=1),
        "ovo_tie": most.sum(axis=1) > 1,
    }


def _plane_set(pieces: Pieces, in_cell, in_edge, in_corner) -> PlaneSet:
    cells = np.flatnonzero(in_cell)
    area = sum((pieces.cell_areas[c] for c in cells), Fraction(0))
    lonely_edges = [
        e for e in np.flatnonzero(in_edge) if not any(in_cell[c] for c in pieces.edge_cells[e])
    ]
    lonely_corners = [
        c
        for c in np.flatnonzero(in_corner)
        if not any(in_edge[e] for e in pieces.corner_edges[c])
        and not any(in_cell[cell] for cell in pieces.corner_cells[c])
    ]
    return PlaneSet(
        share=area / pieces.square_area,
        polygons=tuple(pieces.cells[cell] for cell in cells),
        segments=pieces.edges[np.array(lonely_edges, dtype=np.int64)].reshape(-1, 2, 2),
        points=pieces.corners[np.array(lonely_corners, dtype=np.int64)].reshape(-1, 2),
    )


def plane(ova: OneVsAll, ovo: OneVsOne, limit: float) -> dict:
    """Both schemes over the square [−limit, limit]², exactly.

    Returns
    -------
    dict of :class:`PlaneSet`
        ``ova`` and ``ovo``: a list of k sets, where each scheme predicts each class
        (position in ``classes``); ``ova_tie``: where one-vs-all's top score is shared;
        ``ovo_tie``: where one-vs-one's top vote count is shared; ``disagree``: where the
        two schemes predict different classes. Also ``limit``.
    """
    lines, score_pairs = scheme_lines(ova, ovo)
    pieces = cut_square(lines, limit)
    k = ova.classes.shape[0]
    parts = [
        _decide(signs, ovo, score_pairs, k)
        for signs in (pieces.cell_signs, pieces.edge_signs, pieces.corner_signs)
    ]

    def where(test) -> PlaneSet:
        return _plane_set(pieces, *(test(part) for part in parts))

    return {
        "limit": float(limit),
        "ova": [where(lambda p, j=j: p["ova"] == j) for j in range(k)],
        "ovo": [where(lambda p, j=j: p["ovo"] == j) for j in range(k)],
        "ova_tie": where(lambda p: p["ova_tie"]),
        "ovo_tie": where(lambda p: p["ovo_tie"]),
        "disagree": where(lambda p: p["ova"] != p["ovo"]),
    }


def predict_exactly(ova: OneVsAll, ovo: OneVsOne, X) -> dict:
    """Both schemes' predictions at the points X (n, 2), decided in exact arithmetic.

    Returns
    -------
    dict of ndarray of shape (n,)
        ``ova``, ``ovo``: the predicted class positions (ties to the first class);
        ``ova_tie``, ``ovo_tie``: whether the top score / top vote count is shared.
    """
    lines, score_pairs = scheme_lines(ova, ovo)
    return _decide(point_signs(X, lines), ovo, score_pairs, ova.classes.shape[0])
