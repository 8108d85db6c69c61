"""Datasets: linearly separable data with an exact margin, and harder shapes.

Every generator takes a ``seed`` and draws through one
``numpy.random.Generator``: the same arguments give the same data on any
machine. Generators share the signature ``(n, seed, dim=2, radius=1.0, **options)``
and sit in :data:`DATASETS`, so a page can build its menu from the keys.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._checks import (
    MAX_FEATURES,
    MAX_SAMPLES,
    MAX_VALUES,
    RowsOfX,
    check_number,
    check_seed,
    frozen,
)


@dataclass(frozen=True)
class Dataset(RowsOfX):
    """A labelled dataset.

    Attributes
    ----------
    X : ndarray of shape (n_samples, n_features)
        Feature vectors, read-only.
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1} (``make_blobs`` with k > 2: class numbers 0..k-1).
    w_star : ndarray of shape (n_features,) or None
        Unit normal of the planted separator (None if there is none).
    b_star : float or None
        Offset of the planted separator: it is {x : w_star·x + b_star = 0}.
    margin : float or None
        Geometric margin of the best affine separator (exact for make_separable).
    radius : float
        Radius of the ball the points were drawn in.
    seed : int
        Seed that reproduces the data.
    name : str
        Which generator made it.
    """

    X: np.ndarray
    y: np.ndarray
    w_star: np.ndarray | None
    b_star: float | None
    margin: float | None
    radius: float
    seed: int
    name: str = "separable"


def _check_common(n, dim, radius, seed, n_min=2):
    """Limits (perceptron_core._checks): n <= 10^6, dim <= 10^4, n * dim <= 10^7,
    0 < radius <= 1e150, so that every generator returns within about a second."""
    n = check_number(n, "n (number of points)", low=n_min, high=MAX_SAMPLES, integer=True)
    dim = check_number(dim, "dim (number of features)", low=1, high=MAX_FEATURES, integer=True)
    if n * dim > MAX_VALUES:
        raise ValueError(
            f"n x dim = {n} x {dim} = {n * dim} values is over the limit of "
            f"{MAX_VALUES}; lower n or dim."
        )
    radius = check_number(radius, "radius", low=0, low_open=True, high=1e150)
    return n, dim, radius, check_seed(seed)


def _unit_vector(rng: np.random.Generator, dim: int) -> np.ndarray:
    direction = rng.standard_normal(dim)
    while np.linalg.norm(direction) < 1e-12:  # probability zero; bounded in practice
        direction = rng.standard_normal(dim)
    return direction / np.linalg.norm(direction)


def _sample_along_axis(rng, count, low, high, radius, dim):
    """Coordinate t = w*·x of points uniform in the ball, restricted to [low, high].

    For a point uniform in the d-ball of radius R, t has density proportional to
    (R^2 - t^2)^((d-1)/2); we invert its distribution function on a fine grid
    (no rejection loop, so it always terminates).
    """
    grid = np.linspace(low, high, 4097)
    log_density = 0.5 * (dim - 1) * np.log(np.clip(radius**2 - grid**2, 1e-300, None))
    density = np.exp(log_density - log_density.max())
    cumulative = np.concatenate(([0.0], np.cumsum(0.5 * (density[1:] + density[:-1]))))
    cumulative /= cumulative[-1]
    return np.clip(np.interp(rng.random(count), cumulative, grid), low, high)


def _sample_orthogonal(rng, t, w_star, radius):
    """Add a component orthogonal to w*, uniform in the (d-1)-ball of radius sqrt(R^2 - t^2)."""
    count, dim = t.shape[0], w_star.shape[0]
    points = np.outer(t, w_star)
    if dim == 1:
        return points
    directions = rng.standard_normal((count, dim))
    directions -= np.outer(directions @ w_star, w_star)  # project out w*
    norms = np.linalg.norm(directions, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    room = np.sqrt(np.clip(radius**2 - t**2, 0.0, None))
    lengths = room * rng.random(count) ** (1.0 / (dim - 1))
    return points + directions / norms * lengths[:, None]


def make_separable(
    n=200, margin=0.1, dim=2, radius=1.0, seed=0, *, through_origin=False, balance=0.5
) -> Dataset:
    """Linearly separable data whose best separator has exactly the asked margin.

    A unit normal ``w_star`` and offset ``b_star`` are drawn; every point lies in
    the ball ||x|| <= radius with y (w_star·x + b_star) >= margin. One pair of
    opposite points, c ± margin·w_star with c on the hyperplane, is always
    included: they are 2·margin apart, so no separator can have a larger margin,
    and the planted one has exactly ``margin``.

    Parameters
    ----------
    n : int, at least 2
        Number of points.
    margin : float, 0 < margin < radius
        Geometric margin gamma of the best affine separator (and of the best one
        through the origin when ``through_origin``).
    dim : int, at least 1
    radius : float > 0
        R: the points lie in the ball of this radius (Novikoff's ||x|| <= R).
    seed : int
    through_origin : bool
        Put the planted hyperplane through 0 (b_star = 0).
    balance : float in (0, 1)
        Share of +1 labels (at least one point of each class is kept).

    Returns
    -------
    Dataset
    """
    n, dim, radius, seed = _check_common(n, dim, radius, seed)
    margin = check_number(margin, "margin", low=0, low_open=True)
    if margin >= radius:
        raise ValueError(
            f"margin must be smaller than radius: margin = {margin:g} >= radius = {radius:g} "
            "leaves no room for points on either side. Lower the margin or raise the radius."
        )
    balance = check_number(
        balance, "balance (share of +1 labels)", low=0, high=1, low_open=True, high_open=True
    )
    rng = np.random.default_rng(seed)
    w_star = _unit_vector(rng, dim)
    # offset: keep room for both classes, |b*| + margin < R
    b_star = 0.0 if through_origin else float(rng.uniform(-0.5, 0.5) * (radius - margin))
    n_pos = int(np.clip(round(balance * n), 1, n - 1))
    n_neg = n - n_pos
    # positive side: t = w*·x >= margin - b*;  negative side: t <= -margin - b*
    t_pos = _sample_along_axis(rng, n_pos - 1, margin - b_star, radius, radius, dim)
    t_neg = _sample_along_axis(rng, n_neg - 1, -radius, -margin - b_star, radius, dim)
    X_pos = _sample_orthogonal(rng, t_pos, w_star, radius)
    X_neg = _sample_orthogonal(rng, t_neg, w_star, radius)
    # the pinned pair: c = -b* w* is on the hyperplane, c ± margin w* are 2·margin apart
    pinned_pos = (margin - b_star) * w_star
    pinned_neg = (-margin - b_star) * w_star
    X = np.vstack([pinned_pos, X_pos, pinned_neg, X_neg])
    y = np.concatenate([np.ones(n_pos, dtype=np.int64), -np.ones(n_neg, dtype=np.int64)])
    shuffle = rng.permutation(n)
    return Dataset(
        X=frozen(X[shuffle]),
        y=frozen(y[shuffle]),
        w_star=frozen(w_star),
        b_star=b_star,
        margin=margin,
        radius=radius,
        seed=seed,
        name="separable",
    )


def make_xor(n=200, seed=0, dim=2, radius=1.0, *, gap=0.1) -> Dataset:
    """XOR: y = sign(x1·x2) on the square [-radius, radius]^2; not linearly separable.

    Points with min(|x1|, |x2|) < gap are pushed out so the four blobs are clear.
    Extra dimensions (dim > 2) are uniform noise.
    """
    n, dim, radius, seed = _check_common(n, dim, radius, seed, n_min=4)
    if dim < 2:
        raise ValueError("make_xor needs dim >= 2: XOR lives in the first two features.")
    gap = check_number(gap, "gap", low=0, high=radius, high_open=True)
    rng = np.random.default_rng(seed)
    X = rng.uniform(-radius, radius, size=(n, dim))
    first_two = X[:, :2]
    first_two[:] = np.sign(first_two) * (gap + np.abs(first_two) * (radius - gap) / radius)
    first_two[first_two == 0] = gap
    y = np.where(first_two[:, 0] * first_two[:, 1] > 0, 1, -1).astype(np.int64)
    # keep both classes: corners are drawn i.i.d., so force one of each if needed
    if np.unique(y).size < 2:
        first_two[0, 1] = -first_two[0, 1]
        y[0] = -y[0]
    return Dataset(
        X=frozen(X),
        y=frozen(y),
        w_star=None,
        b_star=None,
        margin=None,
        radius=radius,
        seed=seed,
        name="xor",
    )


def make_circles(n=200, seed=0, dim=2, radius=1.0, *, factor=0.5, noise=0.05) -> Dataset:
    """Two concentric circles: inner circle +1, outer ring -1; not linearly separable."""
    n, dim, radius, seed = _check_common(n, dim, radius, seed, n_min=2)
    if dim != 2:
        raise ValueError("make_circles draws in the plane: use dim = 2.")
    factor = check_number(
        factor, "factor (inner/outer radius)", low=0, high=1, low_open=True, high_open=True
    )
    noise = check_number(noise, "noise", low=0)
    rng = np.random.default_rng(seed)
    n_inner = n // 2
    angles = rng.uniform(0, 2 * np.pi, n)
    radii = np.where(np.arange(n) < n_inner, factor * radius, radius)
    X = np.column_stack([np.cos(angles), np.sin(angles)]) * radii[:, None]
    X += noise * radius * rng.standard_normal((n, 2))
    y = np.where(np.arange(n) < n_inner, 1, -1).astype(np.int64)
    shuffle = rng.permutation(n)
    return Dataset(
        X=frozen(X[shuffle]),
        y=frozen(y[shuffle]),
        w_star=None,
        b_star=None,
        margin=None,
        radius=radius,
        seed=seed,
        name="circles",
    )


def make_blobs(n=200, seed=0, dim=2, radius=1.0, *, k=2, spread=0.15) -> Dataset:
    """k Gaussian blobs with centres on a circle of radius 0.6·radius.

    With k = 2 the labels are -1 / +1; with k > 2 they are the class numbers
    0..k-1 (for the multiclass reductions of Remark 1.36).
    """
    n, dim, radius, seed = _check_common(n, dim, radius, seed, n_min=2)
    k = check_number(k, "k (number of blobs)", low=2, high=n, integer=True)
    spread = check_number(spread, "spread", low=0)
    rng = np.random.default_rng(seed)
    angles = 2 * np.pi * np.arange(k) / k + rng.uniform(0, 2 * np.pi)
    centres = np.zeros((k, dim))
    centres[:, 0] = 0.6 * radius * np.cos(angles)
    if dim > 1:
        centres[:, 1] = 0.6 * radius * np.sin(angles)
    classes = np.arange(n) % k
    X = centres[classes] + spread * radius * rng.standard_normal((n, dim))
    y = np.where(classes == 0, -1, 1) if k == 2 else classes
    shuffle = rng.permutation(n)
    return Dataset(
        X=frozen(X[shuffle]),
        y=frozen(np.asarray(y, dtype=np.int64)[shuffle]),
        w_star=None,
        b_star=None,
        margin=None,
        radius=radius,
        seed=seed,
        name=f"blobs{k}",
    )


def with_label_noise(ds: Dataset, rate: float, seed: int = 0) -> Dataset:
    """Flip the label of each point independently with probability ``rate``.

    The result is usually not linearly separable; its ``margin`` is set to None
    (compute it with :func:`perceptron_core.max_margin`). Both classes are kept.
    """
    if not isinstance(ds, Dataset):
        raise ValueError("with_label_noise expects a Dataset (from make_separable and friends).")
    rate = check_number(rate, "rate (share of flipped labels)", low=0, high=0.5)
    seed = check_seed(seed)
    rng = np.random.default_rng(seed)
    flip = rng.random(ds.n) < rate
    y = np.where(flip, -ds.y, ds.y)
    if np.unique(y).size < 2:  # never hand back a one-class dataset
        y[0] = -y[0]
    margin = ds.margin if not flip.any() else None
    return Dataset(
        X=ds.X,
        y=frozen(y),
        w_star=ds.w_star,
        b_star=ds.b_star,
        margin=margin,
        radius=ds.radius,
        seed=ds.seed,
        name=f"{ds.name}+noise",
    )


#: name -> generator; all take (n, seed, dim, radius, **options)
DATASETS = {
    "separable": lambda n, seed, dim=2, radius=1.0, **options: make_separable(
        n=n, seed=seed, dim=dim, radius=radius, **options
    ),
    "xor": make_xor,
    "circles": make_circles,
    "blobs": make_blobs,
}
