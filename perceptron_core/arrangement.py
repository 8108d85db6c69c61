"""Lines cutting a square, in exact arithmetic: the cells, edges and corners they make.

A rule that compares affine scores in the plane (one-vs-all's argmax, one-vs-one's votes,
Remark 1.36) is constant on each piece of the square that a set of lines cuts out: on
each open cell (a convex polygon), on each open edge between two corners, and at each
corner. Deciding where two scores are *equal* (a tie, or a point on a perceptron's line)
cannot be left to floating point: on a grid, or with rounded corners, a line of width 0
shows up as a strip of cells or vanishes. Here every line is given by float
coefficients and taken at their exact binary value; corners are rational points kept as
integer homogeneous coordinates (X, Y, Z), Z > 0, for the point (X/Z, Y/Z), so every
sign below is exact and areas are exact fractions.

Plain data in and out: :func:`cut_square` takes the lines as rows (a₁, a₂, c) of
a₁x₁ + a₂x₂ + c = 0 and returns a :class:`Pieces` with, for every cell, edge and corner,
the sign of a₁x₁ + a₂x₂ + c on it for every line (+1, −1, or 0 on the line);
:func:`point_signs` gives the same signs at given points, :func:`line_meets_square`
whether one line crosses the square, and :func:`strictly_separable` whether a line
separates two sets of points, all decided exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import gcd, lcm

import numpy as np

from ._checks import check_features

#: a corner as integer homogeneous coordinates (X, Y, Z), Z > 0, gcd 1
Corner = tuple[int, int, int]
#: a line as integers (A, B, C): A x₁ + B x₂ + C = 0, gcd 1
IntLine = tuple[int, int, int]


def _reduced(values) -> tuple[int, ...]:
    """Integers divided by their greatest common divisor (all zeros stay zeros)."""
    divisor = 0
    for value in values:
        divisor = gcd(divisor, value)
    return tuple(values) if divisor in (0, 1) else tuple(v // divisor for v in values)


def exact(value) -> Fraction:
    """A float (its exact binary value), an integer or a fraction, as a Fraction.

    Raises ValueError for anything else, and for NaN or infinity.
    """
    if isinstance(value, (Fraction, int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return Fraction(int(value) if isinstance(value, np.integer) else value)
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"expected a number, got {value!r}.") from None
    if not np.isfinite(number):
        raise ValueError(f"expected a finite number, got {value!r}.")
    return Fraction(number)


def integer_line(row) -> IntLine:
    """The line a₁x₁ + a₂x₂ + c = 0 of three numbers (floats at their exact binary value,
    or fractions), as integers with the same zero set and the same sign on each side
    (times a positive integer, then divided by their gcd)."""
    try:
        values = [exact(v) for v in row]
    except TypeError:
        raise ValueError(f"a line is three numbers (a₁, a₂, c), got {row!r}.") from None
    if len(values) != 3:
        raise ValueError(f"a line is three numbers (a₁, a₂, c), got {len(values)}.")
    scale = lcm(*(v.denominator for v in values))
    return _reduced([int(v * scale) for v in values])  # type: ignore[return-value]


def _point(x1, x2) -> Corner:
    """The point (x₁, x₂), exactly, as homogeneous integers (X, Y, Z)."""
    a, b = exact(x1), exact(x2)
    z = lcm(a.denominator, b.denominator)
    return _reduced([int(a * z), int(b * z), z])  # type: ignore[return-value]


def _side(line: IntLine, corner: Corner) -> int:
    """The sign (+1, 0, −1) of A x₁ + B x₂ + C at the corner, exactly."""
    value = line[0] * corner[0] + line[1] * corner[1] + line[2] * corner[2]
    return (value > 0) - (value < 0)


def _meet(first: IntLine, second: IntLine) -> Corner:
    """The crossing of two lines that are not parallel (their cross product)."""
    a1, b1, c1 = first
    a2, b2, c2 = second
    x, y, z = b1 * c2 - c1 * b2, c1 * a2 - a1 * c2, a1 * b2 - b1 * a2
    if z < 0:
        x, y, z = -x, -y, -z
    return _reduced([x, y, z])  # type: ignore[return-value]


def _xy(corner: Corner) -> tuple[float, float]:
    """The corner as two floats (each the float nearest the exact value)."""
    x, y, z = corner
    return x / z, y / z


def _area(corners) -> Fraction:
    """The area of a polygon whose corners go round anticlockwise (shoelace, exact)."""
    total = Fraction(0)
    for k, (x1, y1, z1) in enumerate(corners):
        x2, y2, z2 = corners[(k + 1) % len(corners)]
        total += Fraction(x1 * y2 - x2 * y1, z1 * z2)
    return total / 2


def _split(corners, edges, line: IntLine, index: int, lines):
    """Cut one convex cell by a line: its part on each side, or None when the line does
    not pass through its inside. ``edges[k]`` is the line the edge from corner k to
    corner k + 1 lies on; a new corner is the crossing of that edge's line and this one,
    and the new edge lies on line ``index``."""
    signs = [_side(line, c) for c in corners]
    if min(signs) >= 0 or max(signs) <= 0:
        return None
    above, above_edges, below, below_edges = [], [], [], []
    count = len(corners)
    for k in range(count):
        here, there = signs[k], signs[(k + 1) % count]
        if here == 0:  # on the line: a corner of both parts
            above.append(corners[k])
            above_edges.append(edges[k] if there > 0 else index)
            below.append(corners[k])
            below_edges.append(edges[k] if there < 0 else index)
            continue
        (above if here > 0 else below).append(corners[k])
        (above_edges if here > 0 else below_edges).append(edges[k])
        if here * there < 0:  # the line crosses this edge inside it
            crossing = _meet(line, lines[edges[k]])
            above.append(crossing)
            below.append(crossing)
            above_edges.append(edges[k] if there > 0 else index)
            below_edges.append(edges[k] if there < 0 else index)
    return (above, above_edges), (below, below_edges)


@dataclass(frozen=True)
class Pieces:
    """The square cut by lines: open cells, open edges and corners, each with its signs.

    Attributes
    ----------
    cells : list of ndarray of shape (m, 2)
        Each cell's corners, anticlockwise (a convex polygon with area), as floats.
    cell_areas : list of Fraction
        Each cell's area, exactly.
    cell_signs : ndarray of shape (n_cells, n_lines) of int8
        The sign of each line's a₁x₁ + a₂x₂ + c inside the cell (0 only for a row of
        zeros, which is no line).
    edges : ndarray of shape (n_edges, 2, 2)
        Each edge between two corners once, as floats; its open inside has constant
        signs.
    edge_signs : ndarray of shape (n_edges, n_lines) of int8
        0 for the lines the edge lies on.
    edge_cells : list of tuple of int
        The one or two cells each edge bounds.
    corners : ndarray of shape (n_corners, 2)
        As floats.
    corner_signs : ndarray of shape (n_corners, n_lines) of int8
    corner_edges, corner_cells : list of tuple of int
        The edges and the cells each corner belongs to.
    square_area : Fraction
        (2 limit)², the area of the square.
    """

    cells: list
    cell_areas: list
    cell_signs: np.ndarray
    edges: np.ndarray
    edge_signs: np.ndarray
    edge_cells: list
    corners: np.ndarray
    corner_signs: np.ndarray
    corner_edges: list
    corner_cells: list
    square_area: Fraction


def _check_limit(limit) -> Fraction:
    value = exact(limit)
    if value <= 0:
        raise ValueError(f"limit (half the square's side) must be positive, got {limit!r}.")
    return value


def _lines(lines) -> list[IntLine]:
    if isinstance(lines, (str, bytes)) or not hasattr(lines, "__iter__"):
        raise ValueError(f"lines must be rows (a₁, a₂, c), got {lines!r}.")
    return [integer_line(row) for row in lines]


def _sides(limit: Fraction) -> list[IntLine]:
    """The square's sides as lines: x₂ = −l, x₁ = l, x₂ = l, x₁ = −l."""
    half = integer_line([1, 0, -limit])  # x₁ = limit: A x₁ + C = 0, A > 0 > C
    a, c = half[0], half[2]
    return [(0, a, -c), (a, 0, c), (0, a, c), (a, 0, -c)]


def cut_square(lines, limit) -> Pieces:
    """The square [−limit, limit]² cut by every line that crosses its inside.

    Parameters
    ----------
    lines : sequence of m rows (a₁, a₂, c)
        Row (a₁, a₂, c) is the line a₁x₁ + a₂x₂ + c = 0; floats are taken at their exact
        binary value, fractions as they are. A row with a₁ = a₂ = 0 is no line: its sign
        is the sign of c everywhere (0 everywhere for a row of zeros).
    limit : float or Fraction > 0
        Half the side of the square.

    Returns
    -------
    Pieces
        Signs against the m lines (in their order), exact.
    """
    given = _lines(lines)
    side_lines = _sides(_check_limit(limit))
    # edges refer to lines by their position in this list: the four sides, then the lines
    everything = side_lines + given
    start = [
        _meet(side_lines[3], side_lines[0]),
        _meet(side_lines[0], side_lines[1]),
        _meet(side_lines[1], side_lines[2]),
        _meet(side_lines[2], side_lines[3]),
    ]
    cells = [(start, [0, 1, 2, 3])]  # anticlockwise from (−l, −l)
    for index, line in enumerate(given, start=len(side_lines)):
        if line[0] == 0 and line[1] == 0:
            continue  # a constant: no line
        cut: list = []
        for corners, edges in cells:
            parts = _split(corners, edges, line, index, everything)
            cut.extend([(corners, edges)] if parts is None else parts)
        cells = cut
    return _pieces([corners for corners, _ in cells], given, (2 * exact(limit)) ** 2)


def _signs_of(points, lines) -> np.ndarray:
    out = np.zeros((len(points), len(lines)), dtype=np.int8)
    for row, point in enumerate(points):
        for column, line in enumerate(lines):
            out[row, column] = _side(line, point)
    return out


def _pieces(cells, lines, square_area) -> Pieces:
    """Edges and corners of the cells, and every sign."""
    corners: dict[Corner, int] = {}
    for cell in cells:
        for corner in cell:
            corners.setdefault(corner, len(corners))
    corner_list = list(corners)
    corner_signs = _signs_of(corner_list, lines)
    edges: dict[tuple[int, int], int] = {}
    edge_cells: list[list[int]] = []
    corner_cells: list[set[int]] = [set() for _ in corner_list]
    for number, cell in enumerate(cells):
        ids = [corners[c] for c in cell]
        for k, first in enumerate(ids):
            corner_cells[first].add(number)
            second = ids[(k + 1) % len(ids)]
            key = (min(first, second), max(first, second))
            if key not in edges:
                edges[key] = len(edges)
                edge_cells.append([])
            edge_cells[edges[key]].append(number)
    edge_list = list(edges)
    corner_edges: list[list[int]] = [[] for _ in corner_list]
    for number, (first, second) in enumerate(edge_list):
        corner_edges[first].append(number)
        corner_edges[second].append(number)
    # an open edge: the sign at either end that is not 0 (both 0: it lies on the line)
    ends = corner_signs[np.array(edge_list, dtype=np.int64).reshape(-1, 2)]
    edge_signs = np.where(ends[:, 0] != 0, ends[:, 0], ends[:, 1]).astype(np.int8)
    # an open cell: its corners are on one side of each line, some strictly
    cell_signs = np.zeros((len(cells), len(lines)), dtype=np.int8)
    for number, cell in enumerate(cells):
        signs = corner_signs[[corners[c] for c in cell]]
        cell_signs[number] = signs.max(axis=0) + signs.min(axis=0)
    xy = np.array([_xy(c) for c in corner_list], dtype=float).reshape(-1, 2)
    return Pieces(
        cells=[xy[[corners[c] for c in cell]] for cell in cells],
        cell_areas=[_area(cell) for cell in cells],
        cell_signs=cell_signs,
        edges=xy[np.array(edge_list, dtype=np.int64).reshape(-1, 2)].reshape(-1, 2, 2),
        edge_signs=edge_signs.reshape(len(edge_list), len(lines)),
        edge_cells=[tuple(c) for c in edge_cells],
        corners=xy,
        corner_signs=corner_signs,
        corner_edges=[tuple(e) for e in corner_edges],
        corner_cells=[tuple(sorted(c)) for c in corner_cells],
        square_area=square_area,
    )


def point_signs(X, lines) -> np.ndarray:
    """The exact sign of every line's a₁x₁ + a₂x₂ + c at every point, shape (n, m).

    Parameters
    ----------
    X : array of shape (n, 2)
    lines : sequence of m rows (a₁, a₂, c), as in :func:`cut_square`
    """
    X = check_features(X)
    if X.shape[1] != 2:
        raise ValueError(f"X must have 2 columns (points of the plane), got {X.shape[1]}.")
    return _signs_of([_point(*p) for p in X.tolist()], _lines(lines))


def line_meets_square(row, limit) -> bool:
    """Whether the line a₁x₁ + a₂x₂ + c = 0 passes through the square [−limit, limit]²
    (touching it counts), decided exactly at the square's corners; False when a₁ = a₂ = 0
    (no line)."""
    line = integer_line(row)
    if line[0] == 0 and line[1] == 0:
        return False
    size = _check_limit(limit)
    signs = {_side(line, _point(sx * size, sy * size)) for sx in (-1, 1) for sy in (-1, 1)}
    return not (signs == {1} or signs == {-1})


def _hull(points: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Corners of the convex hull of integer points, anticlockwise, none on an edge
    (Andrew's monotone chain, exact); one or two corners when the points are one or
    collinear."""
    unique = sorted(set(points))
    if len(unique) <= 2:
        return unique

    def turn(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    chains = []
    for sequence in (unique, unique[::-1]):
        chain: list = []
        for p in sequence:
            while len(chain) >= 2 and turn(chain[-2], chain[-1], p) <= 0:
                chain.pop()
            chain.append(p)
        chains.append(chain[:-1])
    return chains[0] + chains[1]


def strictly_separable(P, N) -> bool:
    """Whether a line w·x + b = 0 has every point of P strictly on one side and every
    point of N strictly on the other, decided exactly (the coordinates' binary values).

    That holds exactly when the convex hulls of P and N do not meet. Their difference
    conv P − conv N is a convex polygon (or a segment, or a point) whose edges are
    parallel to edges of the two hulls, and it misses 0 exactly when some edge's normal
    (for a segment, also its direction; for two single points, their difference) puts
    P's projections strictly below N's or above them: the candidates are tried with
    integer arithmetic.

    Parameters
    ----------
    P, N : arrays of shape (p, 2) and (q, 2)
        Either may be empty (then a line trivially separates them).
    """
    try:
        P = np.asarray(P, dtype=float).reshape(-1, 2)
        N = np.asarray(N, dtype=float).reshape(-1, 2)
    except (TypeError, ValueError):
        raise ValueError("P and N must be arrays of points (x₁, x₂).") from None
    if not len(P) or not len(N):
        return True
    if not (np.isfinite(P).all() and np.isfinite(N).all()):
        raise ValueError("points must have finite coordinates.")
    values = [Fraction(v) for v in np.concatenate([P, N]).ravel().tolist()]
    scale = lcm(*(v.denominator for v in values))
    whole = [int(v * scale) for v in values]
    points = list(zip(whole[0::2], whole[1::2]))
    first, second = _hull(points[: len(P)]), _hull(points[len(P) :])
    axes = set()
    for hull in (first, second):
        for k, a in enumerate(hull):
            b = hull[(k + 1) % len(hull)]
            if a != b:
                dx, dy = b[0] - a[0], b[1] - a[1]
                axes.update({(-dy, dx), (dx, dy)})
    if len(first) == 1 and len(second) == 1:
        axes.add((second[0][0] - first[0][0], second[0][1] - first[0][1]))
    for u in axes:
        low = [u[0] * x + u[1] * y for x, y in first]
        high = [u[0] * x + u[1] * y for x, y in second]
        if max(low) < min(high) or max(high) < min(low):
            return True
    return False
