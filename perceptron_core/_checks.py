"""Input checks shared by the public functions.

Every public function of :mod:`perceptron_core` validates its input here and
raises ``ValueError`` with a message that says what to fix. Inputs are never
modified: the checked arrays returned are fresh float64 / int64 copies.
"""

from __future__ import annotations

import numbers

import numpy as np


def frozen(array, dtype=None) -> np.ndarray:
    """Return a read-only copy of ``array`` (results hand these out)."""
    out = np.array(array, dtype=dtype, copy=True)
    out.flags.writeable = False
    return out


def check_features(X, name: str = "X", copy: bool = True) -> np.ndarray:
    """Check a feature matrix: 2-D, at least one row and column, finite numbers.

    With ``copy=False`` a float64 array is passed through without copying (for
    read-only use on large data); the caller must not modify it.
    """
    try:
        arr = np.array(X, dtype=np.float64, copy=True) if copy else np.asarray(X, np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"{name} must be a numeric array of shape (n_samples, n_features); "
            f"could not read it as numbers ({exc})."
        ) from None
    if arr.ndim == 1:
        raise ValueError(
            f"{name} is 1-D with shape {arr.shape}; it must be 2-D of shape "
            "(n_samples, n_features). For one feature use X.reshape(-1, 1)."
        )
    if arr.ndim != 2:
        raise ValueError(
            f"{name} must be 2-D of shape (n_samples, n_features), got {arr.ndim}-D "
            f"with shape {arr.shape}."
        )
    if arr.shape[0] == 0:
        raise ValueError(f"{name} has no rows (n = 0): give at least two examples.")
    if arr.shape[1] == 0:
        raise ValueError(f"{name} has no columns: give at least one feature.")
    # fast path: a finite sum means every entry is finite (one pass, no mask)
    with np.errstate(over="ignore", invalid="ignore"):
        total = arr.sum()
    if np.isfinite(total):
        return arr
    bad = ~np.isfinite(arr)
    if bad.any():
        row, col = np.argwhere(bad)[0]
        raise ValueError(
            f"{name} contains NaN or infinity (first at row {row}, column {col}); "
            "remove or replace those values."
        )
    return arr


def check_labels(y, n_samples: int, name: str = "y", both_classes: bool = True) -> np.ndarray:
    """Check labels: shape (n_samples,), values in {-1, +1}, both classes present."""
    try:
        arr = np.array(y, dtype=np.float64, copy=True)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must hold the numbers -1 and +1.") from None
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D of shape (n_samples,), got shape {arr.shape}.")
    if arr.shape[0] != n_samples:
        raise ValueError(
            f"{name} has {arr.shape[0]} labels but X has {n_samples} rows; "
            "give exactly one label per row."
        )
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} contains NaN or infinity; labels must be -1 or +1.")
    wrong = ~np.isin(arr, (-1.0, 1.0))
    if wrong.any():
        first = int(np.flatnonzero(wrong)[0])
        raise ValueError(
            f"labels must be -1 or +1; {name}[{first}] = {arr[first]:g}. "
            "Map your two classes to -1 and +1 first."
        )
    if both_classes and np.unique(arr).size < 2:
        raise ValueError(
            f"{name} has only one class ({int(arr[0]):+d}); the perceptron needs "
            "examples of both -1 and +1."
        )
    return arr.astype(np.int64)


def check_dataset(X, y, both_classes: bool = True, copy: bool = True
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Check a labelled dataset and return float64 ``X`` and int64 ``y`` (copies unless
    ``copy=False``, for read-only use)."""
    X_checked = check_features(X, copy=copy)
    y_checked = check_labels(y, X_checked.shape[0], both_classes=both_classes)
    return X_checked, y_checked


def check_number(value, name: str, *, low=None, high=None, low_open=False,
                 high_open=False, integer=False) -> float | int:
    """Check a scalar lies in [low, high] (open ends where asked)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a number, got {value!r}.")
    if integer and not float(value).is_integer():
        raise ValueError(f"{name} must be a whole number, got {value!r}.")
    if not np.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value!r}.")
    if low is not None and (value <= low if low_open else value < low):
        relation = ">" if low_open else ">="
        raise ValueError(f"{name} must be {relation} {low}, got {value!r}.")
    if high is not None and (value >= high if high_open else value > high):
        relation = "<" if high_open else "<="
        raise ValueError(f"{name} must be {relation} {high}, got {value!r}.")
    return int(value) if integer else float(value)


def check_seed(seed) -> int:
    """Seeds are non-negative whole numbers; ``None`` means seed 0 (reproducible)."""
    if seed is None:
        return 0
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(f"seed must be a non-negative whole number, got {seed!r}.")
    return int(seed)
