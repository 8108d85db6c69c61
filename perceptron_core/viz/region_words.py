"""Where a picture's regions lie, in words: which label wins where in the square, in how
many pieces, and whether a piece is enclosed (its boundary a closed curve) or reaches
the square's edge. For a screen reader, a picture of coloured regions says nothing.

The square is cut into a 3 × 3 grid of zones (top left … bottom right); a zone is named
for the label that covers most of it. The twin in the player, ``regionWords`` in
pages/player/scene_plane.js, writes the same words from the same grid (tested).
"""

from __future__ import annotations

from collections import deque

import numpy as np

#: the nine zones of the square, by row from the top and column from the left
ZONES = (
    ("top left", "top", "top right"),
    ("left", "centre", "right"),
    ("bottom left", "bottom", "bottom right"),
)


def _pieces(mask: np.ndarray) -> list[bool]:
    """The pieces of ``mask`` (4-neighbours), each as whether it touches the border."""
    rows, cols = mask.shape
    seen = np.zeros_like(mask, dtype=bool)
    pieces = []
    for start in zip(*np.nonzero(mask), strict=True):
        if seen[start]:
            continue
        seen[start] = True
        queue, border = deque([start]), False
        while queue:
            r, c = queue.popleft()
            border |= r in (0, rows - 1) or c in (0, cols - 1)
            for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= nr < rows and 0 <= nc < cols and mask[nr, nc] and not seen[nr, nc]:
                    seen[nr, nc] = True
                    queue.append((nr, nc))
        pieces.append(border)
    return pieces


def _share(count: int, total: int) -> str:
    """A share of the square in whole percent, never 0% or 100% unless it is."""
    if count in (0, total):
        return "0%" if count == 0 else "100%"
    # half up, as JavaScript's Math.round (the player's twin)
    return f"{min(99, max(1, int(np.floor(100 * count / total + 0.5))))}%"


def _zone_bounds(size: int) -> list[tuple[int, int]]:
    """Row (or column) ranges of the three zones of a grid of ``size`` cells."""
    cuts = [0, size // 3, size - size // 3, size]
    if size < 3:
        cuts = [0, min(1, size), min(2, size), size]
    return [(cuts[i], max(cuts[i] + 1, cuts[i + 1])) for i in range(3)]


def region_words(labels, names: dict) -> str:
    """Which label covers which part of the square, in words.

    Parameters
    ----------
    labels : array of shape (G, G), the label of each grid cell, row 0 at the **top** of
        the square and column 0 at its left (a picture's rows; flip a Plotly heatmap's z)
    names : dict label -> its name in words ("predicted +1", "class 2")

    Returns
    -------
    str: one sentence per label that covers some cell, in the order of ``names``: "class 2
    covers about 31% of the square, most of the top left and the left, in 1 piece reaching the
    edge." A label that covers no zone mostly is said "in none of the nine zones mostly".

    Raises
    ------
    ValueError: when ``labels`` is not a non-empty square grid.
    """
    grid = np.asarray(labels)
    if grid.ndim != 2 or grid.shape[0] != grid.shape[1] or grid.size == 0:
        raise ValueError("region_words needs a square grid of labels, one per cell.")
    size = grid.shape[0]
    bounds = _zone_bounds(size)
    owner = {}
    for i, (r0, r1) in enumerate(bounds):
        for j, (c0, c1) in enumerate(bounds):
            cells = grid[r0:r1, c0:c1].ravel()
            counts = [(int(np.sum(cells == label)), -k) for k, label in enumerate(names)]
            best = max(counts)
            # a zone is a label's when no other label, named or not, covers more of it
            values, others = np.unique(cells, return_counts=True)
            unnamed = max(
                [int(c) for v, c in zip(values, others, strict=True) if v not in names] or [0]
            )
            owner[ZONES[i][j]] = (
                list(names)[-best[1]] if best[0] > 0 and best[0] >= unnamed else None
            )
    sentences = []
    for label, name in names.items():
        mask = grid == label
        count = int(mask.sum())
        if count == 0:
            continue
        zones = [zone for row in ZONES for zone in row if owner[zone] == label]
        where = (
            "most of every zone"
            if len(zones) == 9
            else "most of the " + _join(zones)
            if zones
            else "in none of the nine zones mostly"
        )
        pieces = _pieces(mask)
        enclosed = sum(1 for border in pieces if not border)
        shape = f"in {len(pieces)} piece{'s' * (len(pieces) != 1)}" + (
            f", {enclosed} of them enclosed (a closed boundary round it)"
            if enclosed and len(pieces) > 1
            else ", enclosed (a closed boundary round it)"
            if enclosed
            else ""
        )
        sentences.append(
            f"{name} covers about {_share(count, grid.size)} of the square, {where}, {shape}."
        )
    return " ".join(sentences)


def _join(items: list[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
