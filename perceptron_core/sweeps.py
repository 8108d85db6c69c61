"""Sweeps: many perceptron runs on fresh separable data, next to their bounds.

Each sweep varies one quantity (the margin, n, d, the threshold delta, a
scaling factor lambda or a shift u) and, for every value and every
seed, draws data with :func:`make_separable`, runs :func:`run_perceptron`
from w = 0 (and b = 0) and records the number of updates together with the
bounds that apply to that run. One row per run; every array of a
:class:`SweepResult` has shape (n_runs,).

Which bound holds for which run (notes-perceptron-yu.txt, Theorem 1.28):

* ``bias=False``: the data are drawn with a separator through the origin and
  the perceptron keeps b = 0. With a_i = y_i x_i, R = max ||x_i|| and gamma
  the margin through the origin, bound (1.4) with ||w*|| = 1, w_0 = 0 is
  (2 delta + R^2) / gamma^2; for delta = 0 it is Novikoff's (R / gamma)^2,
  which is also T(A) of eq. (1.5).
* ``bias=True``: the perceptron learns b (padding, Remark 1.17). The valid
  bound uses a_i = y_i (x_i, 1) and the padded margin gamma_2(A):
  T(A) = (R^2 + 1) / gamma_2^2, and (2 delta + R^2 + 1) / gamma_2^2 for
  delta > 0. (R / gamma)^2 with the geometric margin gamma is then only a
  reference, not a theorem.

Runs are capped at floor(bound) + 1 updates: a run that needed more than its
bound stops there, unconverged, with ratio > 1, so a violation is visible
instead of running forever.

NumPy and the standard library only.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from ._checks import MAX_FEATURES, MAX_SAMPLES, check_number, check_seed, frozen
from .data import make_separable
from .margin import MarginUnfinished, max_margin, padded_max_margin, separator_margin
from .perceptron import MAX_EPOCHS_LIMIT, MAX_STEPS_LIMIT, ORDERS, run_perceptron
from .theory import margin_mistake_bound, novikoff_bound, padded_bound, threshold_bound

#: Hard cap on the updates of one run, whatever the bound says (keeps a page responsive).
MAX_UPDATES_PER_RUN = 200_000
#: Hard cap on the runs of one sweep.
MAX_RUNS = 2_000
#: Largest estimated CPU time of one sweep call in seconds (see estimated_run_seconds);
#: a page runs a larger sweep one run per call.
MAX_SWEEP_SECONDS = 4.0
#: Longest text parse_values reads.
MAX_TEXT = 2_000
#: Most seeds per value.
MAX_SEEDS = MAX_RUNS


@dataclass(frozen=True)
class SweepResult:
    """All runs of one sweep, one entry per run (arrays of shape (n_runs,)).

    Attributes
    ----------
    parameter : str
        The swept quantity: "margin", "n", "dim", "delta", "scale" or "shift".
    value : ndarray of float
        Its value in each run.
    margin : ndarray of float
        Planted geometric margin of the data before any scaling or shift.
    seed, n, dim : ndarray of int
        Seed (of the data and of the example order), sample size, dimension.
    delta, scale, shift : ndarray of float
        Threshold, scaling factor lambda (X -> lambda X) and shift u of the
        translation X -> X + u e_1 of each run.
    updates, epochs : ndarray of int
        Updates made and epochs used.
    converged : ndarray of bool
    radius : ndarray of float
        R = max_i ||x_i|| of the data the run saw.
    gamma : ndarray of float
        Geometric margin of the data the run saw. Through the origin (``bias``
        False): the best margin, computed by :func:`max_margin` (in exact arithmetic;
        rounded to float64). With a bias: the margin of the planted separator moved
        with the data, a certified lower bound computed from the stored coordinates;
        it is the best affine margin up to the rounding of the two pinned points
        (planted margin times lambda, about 1e-16 of R apart; a translation changes
        neither in exact arithmetic).
    gamma_2 : ndarray of float
        The margin of the bound: gamma_2(A) of eq. (1.5) with a_i = y_i (x_i, 1)
        when ``bias``, else the margin through the origin.
    max_norm_sq : ndarray of float
        max_i ||a_i||^2: R^2 + 1 with a bias, R^2 without.
    novikoff : ndarray of float
        (R / gamma)^2 (a theorem only when ``bias`` is False).
    padded : ndarray of float
        T(A) = max_i ||a_i||^2 / gamma_2^2, eq. (1.5) (valid for delta = 0).
    bound : ndarray of float
        Bound (1.4) with ||w*|| = 1, w_0 = 0 and s = gamma_2:
        (2 delta + max_i ||a_i||^2) / gamma_2^2. Equals ``padded`` when delta = 0.
        This is the bound each run is checked against.
    margin_mistakes : ndarray of float
        3 / gamma^2 (notes-perceptron-margin-generalization.txt); a theorem only
        for bias False, delta = 1 and ||x|| <= 1.
    exact : ndarray of bool
        The bound's margin gamma_2 was computed in exact rational arithmetic (then it is
        the exact value rounded to float64); otherwise it is a certified lower bound
        (``MarginResult.exact``), so the bound is never too small.
    bias : bool
    order : str
    """

    parameter: str
    value: np.ndarray
    margin: np.ndarray
    seed: np.ndarray
    n: np.ndarray
    dim: np.ndarray
    delta: np.ndarray
    scale: np.ndarray
    shift: np.ndarray
    updates: np.ndarray
    epochs: np.ndarray
    converged: np.ndarray
    radius: np.ndarray
    gamma: np.ndarray
    gamma_2: np.ndarray
    max_norm_sq: np.ndarray
    novikoff: np.ndarray
    padded: np.ndarray
    bound: np.ndarray
    margin_mistakes: np.ndarray
    exact: np.ndarray
    bias: bool
    order: str

    @property
    def n_runs(self) -> int:
        return int(self.updates.shape[0])

    @property
    def ratio(self) -> np.ndarray:
        """updates / bound (1.4) per run: a theorem says this is at most 1."""
        return self.updates / self.bound

    @property
    def within_bound(self) -> bool:
        """Every run converged within its bound."""
        return bool(np.all(self.converged) and np.all(self.updates <= self.bound))

    def values(self) -> np.ndarray:
        """The distinct swept values, in increasing order."""
        return np.unique(self.value)

    def per_value(self, column: str, statistic: str = "median") -> np.ndarray:
        """``statistic`` ("median", "max" or "min") of one column for each swept value.

        Returns
        -------
        ndarray of shape (n_values,), aligned with :meth:`values`.
        """
        reducers: dict[str, Callable[..., Any]] = {
            "median": np.median,
            "max": np.max,
            "min": np.min,
        }
        if statistic not in reducers:
            raise ValueError(f"statistic must be one of {sorted(reducers)}, got {statistic!r}.")
        data = self.ratio if column == "ratio" else np.asarray(getattr(self, column), float)
        return np.array([reducers[statistic](data[self.value == v]) for v in self.values()])

    def updates_constant_per_seed(self) -> bool:
        """For every seed, the same number of updates at every swept value."""
        return all(np.unique(self.updates[self.seed == s]).size == 1 for s in np.unique(self.seed))

    def columns(self) -> dict[str, np.ndarray]:
        """Every per-run column plus the ratio, for a table or a CSV file."""
        out = {
            f.name: np.asarray(getattr(self, f.name))
            for f in fields(self)
            if f.name not in ("parameter", "bias", "order")
        }
        out["ratio"] = self.ratio
        out["bias"] = np.full(self.n_runs, self.bias)
        out["order"] = np.full(self.n_runs, self.order)
        return out

    def summary(self) -> dict[str, np.ndarray]:
        """Per swept value: medians of updates, R, gamma, gamma_2, bounds; largest ratio."""
        table = {self.parameter: self.values()}
        for column in ("updates", "radius", "gamma", "gamma_2", "novikoff", "padded", "bound"):
            table[f"median {column}"] = self.per_value(column)
        table["largest ratio"] = self.per_value("ratio", "max")
        return table


def log_grid(low, high, count, name: str = "value") -> np.ndarray:
    """``count`` log-spaced values from ``low`` to ``high`` (both included).

    Raises ValueError unless 0 < low < high and count >= 2 (count = 1 gives [low]).
    """
    low = check_number(low, f"smallest {name}", low=0, low_open=True)
    high = check_number(high, f"largest {name}", low=0, low_open=True)
    count = check_number(count, f"number of {name} values", low=1, integer=True)
    if count > 1 and not low < high:
        raise ValueError(f"the smallest {name} ({low:g}) must be below the largest ({high:g}).")
    return np.geomspace(low, high, count) if count > 1 else np.array([low])


def parse_values(
    text: str,
    name: str = "value",
    *,
    integer: bool = False,
    low=None,
    high=None,
    max_count: int = 30,
) -> np.ndarray:
    """Read a comma- or space-separated list of numbers, e.g. "10, 50, 200".

    Raises ValueError naming the first entry that is not a number or lies
    outside [low, high], or when more than ``max_count`` distinct values are
    given; duplicates are dropped and the values sorted.
    """
    for bound_name, bound in (("low", low), ("high", high)):
        if bound is not None:
            check_number(bound, f"{bound_name} (limit of the {name} values)")
    max_count = check_number(max_count, "max_count", low=1, high=MAX_RUNS, integer=True)
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f'give at least one {name}, e.g. "1, 2, 5".')
    if len(text) > MAX_TEXT:
        raise ValueError(
            f"the list of {name} values is {len(text)} characters long; give at "
            f"most {max_count} values (at most {MAX_TEXT} characters)."
        )
    values = []
    for token in re.split(r"[,;\s]+", text.strip()):
        if not token:
            continue
        try:
            number = float(token)
        except ValueError:
            shown = token if len(token) <= 40 else token[:37] + "..."
            raise ValueError(
                f"{shown!r} is not a number; list the {name} values as numbers separated by commas."
            ) from None
        values.append(
            check_number(
                int(number) if integer and number.is_integer() else number,
                name,
                low=low,
                high=high,
                integer=integer,
            )
        )
    try:
        distinct = np.unique(np.array(values, dtype=np.int64 if integer else np.float64))
    except OverflowError:
        raise ValueError(f"a value of {name} is too large; give values below 2**63.") from None
    if distinct.size > max_count:
        raise ValueError(f"{distinct.size} values of {name} is too many; give at most {max_count}.")
    return distinct


def concat_sweeps(parts) -> SweepResult:
    """Join sweeps of the same kind (e.g. run one value at a time) into one result.

    Raises ValueError when the parts differ in swept parameter, bias or order.
    """
    if isinstance(parts, (str, bytes)) or not hasattr(parts, "__iter__"):
        raise ValueError("concat_sweeps needs a list of SweepResult.")
    parts = list(parts)
    if not parts or not all(isinstance(part, SweepResult) for part in parts):
        raise ValueError("concat_sweeps needs at least one SweepResult.")
    first = parts[0]
    for part in parts[1:]:
        if (part.parameter, part.bias, part.order) != (first.parameter, first.bias, first.order):
            raise ValueError(
                "cannot join sweeps of different kinds (parameter, bias or order differ)."
            )
    columns = {
        f.name: frozen(np.concatenate([getattr(part, f.name) for part in parts]))
        for f in fields(SweepResult)
        if f.name not in ("parameter", "bias", "order")
    }
    return SweepResult(parameter=first.parameter, bias=first.bias, order=first.order, **columns)


def _run_one(margin, seed, n, dim, bias, delta, order, radius, scale, shift, max_work=None):
    """One run: data, bounds, perceptron. Returns a dict of its row. Raises
    MarginUnfinished when the data's margin takes more than ``max_work``."""
    data = make_separable(n, margin, dim, radius, seed, through_origin=not bias)
    X = np.array(data.X) * scale
    X[:, 0] += shift
    y = data.y
    R = float(np.sqrt(np.max(np.einsum("ij,ij->i", X, X))))
    try:
        if bias:
            # the planted separator moved with the data: x -> scale x + shift e_1 keeps w*
            # and takes b* to scale b* - shift w*_1; its margin on the stored coordinates is
            # at most the best one, and it is certified from below (the rounding of the
            # coordinates moves it from margin * scale by about 1e-16 of R)
            w_star, b_star = data.w_star, data.b_star
            if w_star is None or b_star is None:  # make_separable always plants one
                raise ValueError("the generated data came without its planted separator.")
            offset = b_star * scale - shift * float(w_star[0])
            gamma = separator_margin(X, y, w_star, offset)
            solved = padded_max_margin(X, y, max_work=max_work)
            gamma_2 = solved.margin
            max_norm_sq = R**2 + 1.0
        else:
            solved = max_margin(X, y, bias=False, max_work=max_work)
            gamma = gamma_2 = solved.margin
            max_norm_sq = R**2
    except MarginUnfinished:
        raise MarginUnfinished(
            f"the margin of the data at n = {n}, d = {dim} (seed {seed}) was not reached "
            "within the work allowed; use a smaller n or d."
        ) from None
    if gamma_2 <= 0:
        raise ValueError(
            f"the data (margin {margin:g}, seed {seed}, shift {shift:g}) are not separable "
            "through the origin; turn the bias on or remove the shift."
        )
    bound = threshold_bound(max_norm_sq, gamma_2, delta)
    cap = int(min(math.floor(bound) + 1, MAX_UPDATES_PER_RUN))
    trace = run_perceptron(
        X,
        y,
        bias=bias,
        delta=delta,
        order=order,
        seed=seed,
        max_updates=cap,
        max_epochs=min(10 * cap + 100, MAX_EPOCHS_LIMIT, MAX_STEPS_LIMIT // n),
    )
    return dict(
        margin=margin,
        seed=seed,
        n=n,
        dim=dim,
        delta=delta,
        scale=scale,
        shift=shift,
        updates=trace.n_updates,
        epochs=trace.epochs,
        converged=trace.converged,
        radius=R,
        gamma=gamma,
        gamma_2=gamma_2,
        max_norm_sq=max_norm_sq,
        novikoff=novikoff_bound(R, gamma),
        padded=padded_bound(max_norm_sq, gamma_2),
        bound=bound,
        margin_mistakes=margin_mistake_bound(gamma),
        exact=solved.exact,
    )


# ---------------------------------------------------------------------------
# Cost estimate: what a page checks before starting a sweep
# ---------------------------------------------------------------------------

#: CPU seconds per unit of each part of a run, fitted on the project machine (2 cores,
#: one BLAS thread; benchmarks/bench_robustness.py prints estimate / measured):
#: the padded margin (Wolfe's algorithm, corral up to min(n, d) + 1 points) costs
#: about n d min(n, 2d) operations; the margin through the origin about n d; each
#: perceptron update a Python loop turn plus a block product of 256 x d; drawing the
#: data and passing over it, a share per point and per coordinate (dominant for large
#: n and small d: n = 10^6, d = 2 takes 0.8 s).
_SECONDS_PER_PADDED_UNIT = 1e-8
_SECONDS_PER_HOMOGENEOUS_UNIT = 8e-8
_SECONDS_PER_UPDATE = 3e-5
_SECONDS_PER_UPDATE_FEATURE = 1.5e-7
_SECONDS_PER_POINT = 5e-7
_SECONDS_PER_COORDINATE = 7e-8
_SECONDS_PER_RUN = 3e-3


def estimated_run_seconds(n, dim, margin, bias=True, delta=0.0, radius=1.0) -> float:
    """A rough upper estimate of the CPU seconds of one sweep run (data, margin, perceptron).

    Used by the pages to refuse, before starting, a sweep that would hold the
    server too long. The update count is estimated from the margin relative to
    the radius, as observed on random data (far below the worst-case bound):
    about 20 R / gamma + delta R^2 / gamma^2, capped at ``MAX_UPDATES_PER_RUN``.
    """
    n = check_number(n, "n (number of points)", low=1, high=MAX_SAMPLES, integer=True)
    dim = check_number(dim, "d (number of features)", low=1, high=MAX_FEATURES, integer=True)
    margin = check_number(margin, "margin", low=0, low_open=True)
    radius = check_number(radius, "radius", low=0, low_open=True, high=1e150)
    delta = check_number(delta, "delta", low=0)
    relative = min(radius / margin, 1e9)
    updates = min(MAX_UPDATES_PER_RUN, 20 * relative + min(delta, 1e9) * relative**2)
    margin_part = (
        _SECONDS_PER_PADDED_UNIT * n * dim * min(n, 2 * dim)
        if bias
        else _SECONDS_PER_HOMOGENEOUS_UNIT * n * dim
    )
    return float(
        _SECONDS_PER_RUN
        + margin_part
        + updates * (_SECONDS_PER_UPDATE + _SECONDS_PER_UPDATE_FEATURE * dim)
        + n * (_SECONDS_PER_POINT + _SECONDS_PER_COORDINATE * dim)
    )


_INTEGER_COLUMNS = ("seed", "n", "dim", "updates", "epochs")


def _sweep(parameter, values, seeds, *, bias, order, radius, max_work=None, **fixed) -> SweepResult:
    """Run every (value, seed) pair: ``parameter`` takes each of ``values``, the other
    settings of :func:`_run_one` are ``fixed`` (by default no threshold, scaling or shift).
    A run's margin stops with MarginUnfinished past ``max_work``."""
    settings = [
        (value, {"delta": 0.0, "scale": 1.0, "shift": 0.0, **fixed, parameter: value})
        for value in values
    ]
    if not isinstance(order, str) or order not in ORDERS:
        raise ValueError(f"unknown order {order!r:.40}; choose one of: {', '.join(ORDERS)}.")
    seeds = _check_seeds(seeds)
    radius = check_number(radius, "radius", low=0, low_open=True)
    total = len(settings) * len(seeds)
    if total == 0:
        raise ValueError(f"nothing to sweep: give at least one {parameter} value.")
    if total > MAX_RUNS:
        raise ValueError(
            f"{total} runs is too many for one sweep (at most {MAX_RUNS}); "
            "use fewer values or fewer seeds."
        )
    estimate = sum(
        estimated_run_seconds(
            setting["n"],
            setting["dim"],
            setting["margin"],
            bias=bool(bias),
            delta=setting["delta"],
            radius=radius + abs(setting["shift"]),
        )
        for _, setting in settings
    ) * len(seeds)
    if estimate > MAX_SWEEP_SECONDS:
        raise ValueError(
            f"this sweep would take about {estimate:.0f} s of computing (at most "
            f"{MAX_SWEEP_SECONDS:.0f} s per call); use fewer values or seeds, a "
            "smaller n, d or delta, or run it one value at a time."
        )
    rows, values = [], []
    for value, setting in settings:
        for seed in seeds:
            rows.append(
                _run_one(
                    seed=seed,
                    bias=bool(bias),
                    order=order,
                    radius=radius,
                    max_work=max_work,
                    **setting,
                )
            )
            values.append(value)
    columns = {}
    for name in rows[0]:
        dtype = (
            np.int64
            if name in _INTEGER_COLUMNS
            else bool
            if name in ("converged", "exact")
            else np.float64
        )
        columns[name] = frozen([row[name] for row in rows], dtype=dtype)
    return SweepResult(
        parameter=parameter,
        value=frozen(values, dtype=np.float64),
        bias=bool(bias),
        order=order,
        **columns,
    )


def _check_seeds(seeds) -> list[int]:
    if isinstance(seeds, (int, np.integer)) and not isinstance(seeds, bool):
        count = check_number(int(seeds), "seeds per value", low=1, high=MAX_SEEDS, integer=True)
        return list(range(count))
    if isinstance(seeds, (str, bytes)) or not hasattr(seeds, "__len__"):
        raise ValueError("seeds must be a count or a list of non-negative whole numbers.")
    if len(seeds) > MAX_SEEDS:
        raise ValueError(f"{len(seeds)} seeds is too many; give at most {MAX_SEEDS}.")
    try:
        listed = list(seeds)
    except TypeError:
        raise ValueError("seeds must be a count or a list of non-negative whole numbers.") from None
    if not listed:
        raise ValueError("give at least one seed.")
    return [check_seed(int(s) if isinstance(s, np.integer) else s) for s in listed]


def _check_values(values, name, **limits) -> list:
    try:
        array = np.atleast_1d(np.asarray(values))
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"the {name} values must be a list of numbers.") from None
    if array.size == 0:
        raise ValueError(f"give at least one {name} value.")
    if array.size > MAX_RUNS:
        raise ValueError(f"{array.size} values of {name} is too many; give at most {MAX_RUNS}.")
    return [check_number(v.item() if hasattr(v, "item") else v, name, **limits) for v in array]


def margin_sweep(
    margins, seeds, n=200, dim=2, bias=True, delta=0.0, order="cyclic", radius=1.0, max_work=None
) -> SweepResult:
    """Updates to convergence for each margin gamma and seed.

    Parameters
    ----------
    margins : array-like of float, shape (n_margins,)
        Planted geometric margins, each in (0, radius).
    seeds : int or sequence of int
        A count k (seeds 0..k-1) or the seeds themselves.
    n, dim : int
    bias : bool
        Learn b; False draws data separable through the origin and keeps b = 0.
    delta : float >= 0
        Threshold of the update rule y (w·x + b) <= delta.
    order : str, a key of ``ORDERS``
    radius : float
        Points lie in the ball ||x|| <= radius.
    max_work : float > 0 or None
        The work each run's margin may take (margin.min_norm_point; every sweep takes
        it); past it, MarginUnfinished (a ValueError) says which run.

    Returns
    -------
    SweepResult with ``parameter == "margin"``.
    """
    margins = _check_values(margins, "margin", low=0, low_open=True)
    delta = check_number(delta, "delta (threshold)", low=0)
    return _sweep(
        "margin",
        margins,
        seeds,
        bias=bias,
        order=order,
        radius=radius,
        n=n,
        dim=dim,
        delta=delta,
        max_work=max_work,
    )


def n_sweep(
    sizes, seeds, margin=0.1, dim=2, bias=True, delta=0.0, order="cyclic", radius=1.0, max_work=None
) -> SweepResult:
    """Updates for each sample size n at a fixed margin (the bound does not involve n)."""
    sizes = _check_values(sizes, "n (number of points)", low=2, integer=True)
    return _sweep(
        "n",
        sizes,
        seeds,
        bias=bias,
        order=order,
        radius=radius,
        margin=margin,
        dim=dim,
        delta=delta,
        max_work=max_work,
    )


def dim_sweep(
    dims, seeds, margin=0.1, n=200, bias=True, delta=0.0, order="cyclic", radius=1.0, max_work=None
) -> SweepResult:
    """Updates for each dimension d at a fixed margin (the bound does not involve d)."""
    dims = _check_values(dims, "d (number of features)", low=1, integer=True)
    return _sweep(
        "dim",
        dims,
        seeds,
        bias=bias,
        order=order,
        radius=radius,
        margin=margin,
        n=n,
        delta=delta,
        max_work=max_work,
    )


def delta_sweep(
    deltas, seeds, margin=0.1, n=200, dim=2, bias=True, order="cyclic", radius=1.0, max_work=None
) -> SweepResult:
    """Updates for each threshold delta: bound (1.4) grows linearly in delta."""
    deltas = _check_values(deltas, "delta (threshold)", low=0)
    return _sweep(
        "delta",
        deltas,
        seeds,
        bias=bias,
        order=order,
        radius=radius,
        margin=margin,
        n=n,
        dim=dim,
        max_work=max_work,
    )


def scale_sweep(
    scales, seeds, margin=0.1, n=200, dim=2, bias=True, order="cyclic", radius=1.0, max_work=None
) -> SweepResult:
    """Exercise 1.29, scaling: X -> lambda X for each lambda, same data per seed.

    Through the origin (bias False, delta = 0, w_0 = 0) the iterates are
    lambda times those on the original data and every score is lambda^2 times
    the original, so the runs make exactly the same updates.
    """
    scales = _check_values(scales, "scaling factor lambda", low=0, low_open=True)
    return _sweep(
        "scale",
        scales,
        seeds,
        bias=bias,
        order=order,
        radius=radius,
        margin=margin,
        n=n,
        dim=dim,
        max_work=max_work,
    )


def shift_sweep(
    shifts, seeds, margin=0.1, n=200, dim=2, order="cyclic", radius=1.0, max_work=None
) -> SweepResult:
    """Exercise 1.29, translation: X -> X + u e_1 for each shift u, with a bias.

    A translation keeps the data separable by an affine hyperplane (same
    geometric margin) but changes R and the padded margin gamma_2, hence T(A).
    Through the origin it can destroy separability, so this sweep always
    learns a bias.
    """
    shifts = _check_values(shifts, "shift u")
    return _sweep(
        "shift",
        shifts,
        seeds,
        bias=True,
        order=order,
        radius=radius,
        margin=margin,
        n=n,
        dim=dim,
        max_work=max_work,
    )
