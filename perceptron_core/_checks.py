"""Input checks shared by the public functions.

Every public function of :mod:`perceptron_core` validates its input here and
raises ``ValueError`` with a message that says what to fix. Inputs are never
modified: the checked arrays returned are fresh float64 / int64 copies.
"""

from __future__ import annotations

import math
import numbers
from typing import Literal, overload

import numpy as np

# ---------------------------------------------------------------------------
# Documented upper limits. They keep every public call within seconds and a few
# hundred MB on a classroom server (2 cores); each message says what to lower.
# ---------------------------------------------------------------------------

#: most examples a generator draws or a function accepts
MAX_SAMPLES = 1_000_000
#: most features (dimension d)
MAX_FEATURES = 10_000
#: most numbers in one feature matrix (n x d): 10^7 float64 values = 80 MB
MAX_VALUES = 10_000_000
#: largest seed (results store seeds as int64)
MAX_SEED = 2**63 - 1
#: data scale the computations represent safely: |x| <= MAX_ABS_VALUE, every nonzero
#: |x| >= MIN_ABS_VALUE, and largest / smallest nonzero |x| <= MAX_DYNAMIC_RANGE.
#: Squares and sums of up to 10^6 updates then stay far from float64 overflow
#: (1.8e308) and underflow (2.2e-308), and a coordinate is not lost entirely next to
#: the largest one in the same data.
MAX_ABS_VALUE = 1e150
MIN_ABS_VALUE = 1e-150
MAX_DYNAMIC_RANGE = 1e150


class RowsOfX:
    """``n`` and ``dim`` of a frozen dataclass whose ``X`` has shape (n, dim)."""

    # declared for the type checker only: a plain class's annotation is not a
    # dataclass field, so the subclasses' fields and their order are unchanged
    X: np.ndarray

    @property
    def n(self) -> int:
        """Number of examples: the rows of X."""
        return int(self.X.shape[0])

    @property
    def dim(self) -> int:
        """Number of features: the columns of X."""
        return int(self.X.shape[1])


def frozen(array, dtype=None) -> np.ndarray:
    """Return a read-only copy of ``array`` (results hand these out)."""
    out = np.array(array, dtype=dtype, copy=True)
    out.flags.writeable = False
    return out


def check_features(X, name: str = "X", copy: bool = True, finite: bool = True) -> np.ndarray:
    """Check a feature matrix: 2-D, at least one row and column, finite numbers.

    With ``copy=False`` a float64 array is passed through without copying (for
    read-only use on large data); the caller must not modify it. With ``finite=False``
    the entries are not checked here: the caller checks them with
    :func:`finite_row_squares`, in the pass over X it needs anyway.
    """
    try:
        arr = np.array(X, dtype=np.float64, copy=True) if copy else np.asarray(X, np.float64)
    except (TypeError, ValueError, OverflowError) as exc:
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
    if arr.size > MAX_VALUES:
        raise ValueError(
            f"{name} has {arr.shape[0]} x {arr.shape[1]} = {arr.size} values, over the limit "
            f"of {MAX_VALUES}; use fewer examples or fewer features."
        )
    if not finite:
        return arr
    # fast path: a finite sum means every entry is finite (one pass, no mask)
    with np.errstate(over="ignore", invalid="ignore"):
        total = arr.sum()
    if not np.isfinite(total):
        _refuse_non_finite(arr, name)
    return arr


def _refuse_non_finite(arr: np.ndarray, name: str) -> None:
    """Raise the message naming the first NaN or infinity of ``arr``, if it has one."""
    bad = ~np.isfinite(arr)
    if bad.any():
        row, col = np.argwhere(bad)[0]
        raise ValueError(
            f"{name} contains NaN or infinity (first at row {row}, column {col}); "
            "remove or replace those values."
        )


def finite_row_squares(X: np.ndarray, name: str = "X") -> np.ndarray:
    """x_j·x_j of every row of a checked float64 X, shape (n,), in one pass; raises
    :func:`check_features`' message if X holds NaN or infinity (a finite square means a
    finite row; a row of huge finite numbers may have an infinite square)."""
    squares = np.einsum("ij,ij->i", X, X)
    if not np.isfinite(squares).all():
        _refuse_non_finite(X, name)
    return squares


def check_one_per_row(arr: np.ndarray, n_samples: int, name: str, entries: str) -> None:
    """A 1-D array with one entry per row of X (``entries`` names them in the message)."""
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D of shape (n_samples,), got shape {arr.shape}.")
    if arr.shape[0] != n_samples:
        raise ValueError(
            f"{name} has {arr.shape[0]} {entries} but X has {n_samples} rows; "
            "give exactly one label per row."
        )


def check_labels(y, n_samples: int, name: str = "y", both_classes: bool = True) -> np.ndarray:
    """Check labels: shape (n_samples,), values in {-1, +1}, both classes present."""
    try:
        arr = np.array(y, dtype=np.float64, copy=True)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{name} must hold the numbers -1 and +1.") from None
    check_one_per_row(arr, n_samples, name, "labels")
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
            f"{name} has only one class ({int(arr[0]):+d}); this computation needs "
            "examples of both -1 and +1."
        )
    return arr.astype(np.int64)


def check_dataset(
    X, y, both_classes: bool = True, copy: bool = True, finite: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """Check a labelled dataset and return float64 ``X`` and int64 ``y`` (copies unless
    ``copy=False``, for read-only use; ``finite`` as in :func:`check_features`)."""
    X_checked = check_features(X, copy=copy, finite=finite)
    y_checked = check_labels(y, X_checked.shape[0], both_classes=both_classes)
    return X_checked, y_checked


def _shown(value) -> str:
    """repr of a value for a message, cut to about 40 characters."""
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a broken __repr__ must not hide the real message
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 40 else text[:37] + "..."


@overload
def check_number(
    value,
    name: str,
    *,
    low=None,
    high=None,
    low_open: bool = False,
    high_open: bool = False,
    integer: Literal[True],
) -> int: ...
@overload
def check_number(
    value,
    name: str,
    *,
    low=None,
    high=None,
    low_open: bool = False,
    high_open: bool = False,
    integer: Literal[False] = False,
) -> float: ...
@overload
def check_number(
    value,
    name: str,
    *,
    low=None,
    high=None,
    low_open: bool = False,
    high_open: bool = False,
    integer: bool = False,
) -> float | int: ...
def check_number(
    value, name: str, *, low=None, high=None, low_open=False, high_open=False, integer=False
) -> float | int:
    """Check a scalar lies in [low, high] (open ends where asked).

    Accepts any real number (int of any size, float, numpy scalar, Fraction);
    returns a Python ``int`` when ``integer`` else a ``float``. Anything else,
    including an integer too large to become a float, raises ``ValueError``.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a number, got {_shown(value)}.")
    exact: float  # an int until it is read as a float (int is a float to the checker)
    if isinstance(value, numbers.Integral):
        exact = int(value)  # Python ints compare exactly, whatever their size
    else:
        try:
            exact = float(value)
        except (OverflowError, ValueError, TypeError, ZeroDivisionError):
            raise ValueError(
                f"{name} must be a finite number of moderate size, got {_shown(value)}."
            ) from None
        if not math.isfinite(exact):
            raise ValueError(f"{name} must be finite, got {_shown(value)}.")
        if integer:
            if not exact.is_integer():
                raise ValueError(f"{name} must be a whole number, got {_shown(value)}.")
            exact = int(exact)
    if low is not None and (exact <= low if low_open else exact < low):
        relation = ">" if low_open else ">="
        raise ValueError(f"{name} must be {relation} {low}, got {_shown(value)}.")
    if high is not None and (exact >= high if high_open else exact > high):
        relation = "<" if high_open else "<="
        raise ValueError(f"{name} must be {relation} {high}, got {_shown(value)}.")
    if integer:
        return int(exact)
    try:
        result = float(exact)
    except OverflowError:
        raise ValueError(f"{name} is too large to compute with, got {_shown(value)}.") from None
    return result


def check_seed(seed) -> int:
    """Seeds are non-negative whole numbers; ``None`` means seed 0 (reproducible)."""
    if seed is None:
        return 0
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or int(seed) < 0:
        raise ValueError(f"seed must be a non-negative whole number, got {_shown(seed)}.")
    if int(seed) > MAX_SEED:
        raise ValueError(f"seed must be at most 2**63 - 1, got {_shown(seed)}.")
    return int(seed)


def check_count(value, name: str, *, low: int = 1, high: int) -> int:
    """A whole number in [low, high]; the message names the documented limit."""
    return check_number(value, name, low=low, high=high, integer=True)


def check_drawable_scale(X, name: str = "the data") -> np.ndarray:
    """Refuse feature values whose scale the computations cannot represent.

    Every |x| must be at most ``MAX_ABS_VALUE`` (1e150), every nonzero |x| at
    least ``MIN_ABS_VALUE`` (1e-150), and the largest nonzero |x| at most
    ``MAX_DYNAMIC_RANGE`` (1e150) times the smallest. Beyond that, squared norms,
    margins and the perceptron's scores overflow or lose the small values
    entirely, and a page would report contradictory results. Returns the checked
    float64 array (as :func:`check_features`).
    """
    arr = check_features(X, name=name)
    magnitude = np.abs(arr)
    largest = float(magnitude.max())
    nonzero = magnitude[magnitude > 0]
    if largest > MAX_ABS_VALUE:
        row, col = np.argwhere(magnitude > MAX_ABS_VALUE)[0]
        raise ValueError(
            f"{name} hold {arr[row, col]:.3g} (row {row + 1}, column {col + 1}); values "
            f"above {MAX_ABS_VALUE:g} in size cannot be computed with reliably. Rescale the "
            "features (e.g. divide them by a power of ten)."
        )
    if nonzero.size:
        smallest = float(nonzero.min())
        if smallest < MIN_ABS_VALUE:
            row, col = np.argwhere((magnitude > 0) & (magnitude < MIN_ABS_VALUE))[0]
            raise ValueError(
                f"{name} hold {arr[row, col]:.3g} (row {row + 1}, column {col + 1}); nonzero "
                f"values below {MIN_ABS_VALUE:g} in size cannot be computed with reliably. "
                "Rescale the features, or write such values as 0."
            )
        if largest > MAX_DYNAMIC_RANGE * smallest:
            raise ValueError(
                f"{name} range from {smallest:.3g} to {largest:.3g} in size, a factor over "
                f"{MAX_DYNAMIC_RANGE:g}: the small values would be lost next to the large "
                "ones. Rescale the features so that they are of similar size."
            )
    return arr
