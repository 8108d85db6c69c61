"""Kernels and the kernel (dual) perceptron, after §2 of notes-perceptron-kernels-columbia.txt.

The perceptron's weight vector is always a sum of the examples it erred on:
after mistakes on i_1, ..., i_k, w = sum_j y_{i_j} x_{i_j} (eq. 1). Writing
alpha_i for the number of updates example i caused, w = sum_i alpha_i y_i x_i,
so every score w·x is a combination of inner products x_i·x. Replacing each
inner product by a kernel K(x_i, x) = Phi(x_i)·Phi(x) runs the same perceptron
in the feature space of Phi without ever writing Phi down (eq. 2):

    f(x) = sum_i alpha_i y_i K(x_i, x) (+ b),   b = sum_i alpha_i y_i.

The bias is the padded constant of Remark 1.17 (notes-perceptron-yu.txt): the
feature vector is (Phi(x), 1), so the kernel becomes K + 1 and b grows by y at
every update, exactly as ``run_perceptron(..., bias=True)`` does.

Kernels share the signature ``kernel(A, B, *, degree, coef0, scale) -> (m, k)``
(unused parameters are ignored) and sit in :data:`KERNELS`. The monotone-
conjunction kernel K(x, z) = 2^|Ones(x, z)| is Claim 2.1: the inner product of
the 2^d-dimensional vectors of all monotone conjunctions of the d bits.

Speed: a run precomputes the padded Gram matrix once (n <= MAX_KERNEL_SAMPLES)
and keeps the scores f(x_j) of all examples up to date; an update adds one Gram
row, O(n).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ._checks import check_dataset, check_features, check_number, frozen
from .margin import min_norm_point, nearest_point_of_rows, work_limit
from .perceptron import GREEDY_ORDERS, ExampleScan, RunRecord, ScoreRounding, check_run_settings

#: largest number of examples a kernel run or margin accepts (the n x n Gram
#: matrix is stored: 5 000 examples take 200 MB)
MAX_KERNEL_SAMPLES = 5_000
#: largest number of bits d monotone_conjunction_features writes out (2^16 columns)
MAX_CONJUNCTION_BITS = 16
#: largest number of entries (rows x 2^d) monotone_conjunction_features returns (128 MB)
MAX_CONJUNCTION_ENTRIES = 1 << 24
#: largest number of bits for the kernel itself: 2^1023 is the largest power of
#: two a float64 holds
MAX_KERNEL_BITS = 1023
#: largest polynomial degree accepted
MAX_DEGREE = 20


# ---------------------------------------------------------------------------
# Input checks
# ---------------------------------------------------------------------------


def _check_pair(A, B):
    """Two feature matrices with the same number of columns (float64)."""
    A = check_features(A, name="A")
    B = check_features(B, name="B")
    if A.shape[1] != B.shape[1]:
        raise ValueError(
            f"A has {A.shape[1]} features but B has {B.shape[1]}; a kernel "
            "compares vectors of the same length."
        )
    return A, B


def _check_bits(A, name: str):
    """0/1 entries only (the monotone-conjunction kernel works on bit vectors)."""
    wrong = (A != 0) & (A != 1)
    if wrong.any():
        row, col = np.argwhere(wrong)[0]
        raise ValueError(
            f"{name} must hold bits 0 or 1; {name}[{row}, {col}] = "
            f"{A[row, col]:g}. Encode every feature as 0/1 first."
        )
    return A


def _check_degree(degree) -> int:
    return check_number(
        degree, "degree (of the polynomial kernel)", low=1, high=MAX_DEGREE, integer=True
    )


def _check_coef0(coef0) -> float:
    # c >= 0 keeps (kappa x·z + c)^degree an inner product of real features
    return check_number(coef0, "coef0 (constant c of the polynomial kernel)", low=0)


def _check_scale(scale) -> float:
    return check_number(
        scale,
        "scale (κ of the polynomial or RBF kernel; kernel width σ = 1/√(2κ))",
        low=0,
        low_open=True,
    )


def _finite_gram(K: np.ndarray, kernel: str) -> np.ndarray:
    if not np.isfinite(K).all():
        raise ValueError(
            f"the {kernel} kernel overflowed (a value is infinite); scale the "
            "features down or lower the degree or the scale κ."
        )
    return K


# ---------------------------------------------------------------------------
# Kernels: kernel(A, B, *, degree, coef0, scale) -> Gram matrix (m, k)
# ---------------------------------------------------------------------------


def linear_kernel(A, B, *, degree=2, coef0=1.0, scale=1.0) -> np.ndarray:
    """K(x, z) = x·z: the perceptron in the original space (Phi = identity).

    Parameters
    ----------
    A : ndarray of shape (m, d)
    B : ndarray of shape (k, d)
    degree, coef0, scale : ignored (shared signature)

    Returns
    -------
    ndarray of shape (m, k)
    """
    A, B = _check_pair(A, B)
    return _finite_gram(A @ B.T, "linear")


def polynomial_kernel(A, B, *, degree=2, coef0=1.0, scale=1.0) -> np.ndarray:
    """K(x, z) = (kappa x·z + coef0)^degree: all monomials up to ``degree``.

    For degree 2, kappa = 1 and c = coef0 it is Phi(x)·Phi(z) with
    Phi(x) = (x_i^2, sqrt(2) x_i x_j (i < j), sqrt(2c) x_i, c).

    Parameters
    ----------
    A : ndarray of shape (m, d)
    B : ndarray of shape (k, d)
    degree : int in 1..MAX_DEGREE
    coef0 : float >= 0
    scale : float > 0, kappa (called gamma in scikit-learn; this app keeps gamma for margins)
    """
    A, B = _check_pair(A, B)
    degree, coef0, scale = _check_degree(degree), _check_coef0(coef0), _check_scale(scale)
    # (kappa (A B^T) + c)^degree, each step in place: one or two (m, k) arrays, not four
    # (at n = 2 000 each is 32 MB, and a fresh one costs its page faults)
    with np.errstate(over="ignore", invalid="ignore"):
        K = A @ B.T
        np.multiply(K, scale, out=K)
        np.add(K, coef0, out=K)
        K = _power_in_place(K, degree)
    return _finite_gram(K, "poly")


def _power_in_place(K: np.ndarray, degree: int) -> np.ndarray:
    """K ** degree for a whole ``degree`` >= 1 by squaring and multiplying (K is changed):
    at most three squarings and two products for degree <= 8, each a few milliseconds on
    an (n, n) array at n = 2 000, where the elementwise ``pow`` took 55-75 ms. Each step
    rounds once, so the result is within about 2 degree units of rounding of the exact
    power, the error :func:`_gram_rounding` allows for (degree 1 and 2 are as ``**`` gives
    them, bit for bit)."""
    result = None
    while True:
        if degree & 1:
            if result is None:
                if degree == 1:
                    return K
                result = K.copy()
            else:
                np.multiply(result, K, out=result)
            if degree == 1:
                return result
        degree >>= 1
        np.multiply(K, K, out=K)


def rbf_kernel(A, B, *, degree=2, coef0=1.0, scale=1.0) -> np.ndarray:
    """K(x, z) = exp(-kappa ||x - z||^2): an infinite-dimensional Phi; K(x, x) = 1.

    kappa = 1 / (2 sigma^2) for the Gaussian of width sigma, exp(-||x - z||^2 / (2 sigma^2)):
    a larger kappa is a narrower bump.

    Parameters
    ----------
    A : ndarray of shape (m, d)
    B : ndarray of shape (k, d)
    scale : float > 0
    degree, coef0 : ignored (shared signature)
    """
    A, B = _check_pair(A, B)
    scale = _check_scale(scale)
    # ||x - z||^2 = (||x||^2 + ||z||^2) - 2 x·z, clipped at 0 against rounding; each step
    # in place: two (m, k) arrays, not seven (32 MB each at n = 2 000)
    squared = np.einsum("ij,ij->i", A, A)[:, None] + np.einsum("ij,ij->i", B, B)[None, :]
    products = A @ B.T
    np.multiply(products, 2.0, out=products)
    np.subtract(squared, products, out=squared)
    del products
    np.maximum(squared, 0.0, out=squared)
    np.multiply(squared, -scale, out=squared)
    return _finite_gram(np.exp(squared, out=squared), "rbf")


def monotone_conjunction_kernel(A, B, *, degree=2, coef0=1.0, scale=1.0) -> np.ndarray:
    """K(x, z) = 2^|Ones(x, z)| (Claim 2.1), computed in O(d) per pair of d bits.

    |Ones(x, z)| = x·z counts the positions where both bits are 1; every subset
    of those positions is a monotone conjunction true on x and on z, and no
    other conjunction is, so K(x, z) = Phi(x)·Phi(z) over all 2^d conjunctions
    (see :func:`monotone_conjunction_features`).

    Parameters
    ----------
    A : ndarray of shape (m, d), entries 0 or 1
    B : ndarray of shape (k, d), entries 0 or 1
    degree, coef0, scale : ignored (shared signature)

    Returns
    -------
    ndarray of shape (m, k)
    """
    A, B = _check_pair(A, B)
    _check_bits(A, "A")
    _check_bits(B, "B")
    if A.shape[1] > MAX_KERNEL_BITS:
        raise ValueError(
            f"at most {MAX_KERNEL_BITS} bits are allowed (2^|Ones| must fit a "
            f"float64), got {A.shape[1]}."
        )
    return np.exp2(A @ B.T)


def monotone_conjunction_features(A) -> np.ndarray:
    """Phi(x): the values of all 2^d monotone conjunctions of the d bits of x.

    Column s (0 <= s < 2^d) is the conjunction of the bits j with (s >> j) & 1,
    so column 0 is the empty conjunction (always 1) and column 2^d - 1 is
    x_1 AND ... AND x_d. For d = 3 the columns are
    (1, x1, x2, x1x2, x3, x1x3, x2x3, x1x2x3): the notes' list in binary order.

    Parameters
    ----------
    A : ndarray of shape (m, d), entries 0 or 1, d <= MAX_CONJUNCTION_BITS

    Returns
    -------
    ndarray of shape (m, 2**d), float64 0/1
    """
    A = _check_bits(check_features(A, name="A"), "A")
    m, d = A.shape
    if d > MAX_CONJUNCTION_BITS:
        raise ValueError(
            f"writing out all 2^d conjunctions is limited to d <= "
            f"{MAX_CONJUNCTION_BITS} bits (2^{MAX_CONJUNCTION_BITS} columns), got "
            f"d = {d}; use monotone_conjunction_kernel instead."
        )
    if m * (1 << d) > MAX_CONJUNCTION_ENTRIES:
        raise ValueError(
            f"{m} rows x 2^{d} columns is too large; at most "
            f"{MAX_CONJUNCTION_ENTRIES // (1 << d)} rows are allowed with d = {d} "
            "bits."
        )
    features = np.ones((m, 1))
    for j in range(d):
        # subsets with bit j = subsets without it, each AND-ed with x_j
        features = np.hstack([features, features * A[:, j : j + 1]])
    return features


#: kernel name -> kernel(A, B, *, degree, coef0, scale) -> Gram matrix (m, k)
KERNELS = {
    "linear": linear_kernel,
    "poly": polynomial_kernel,
    "rbf": rbf_kernel,
    "monotone_conjunction": monotone_conjunction_kernel,
}
#: kernel name -> the parameters it uses (the controls a page shows)
KERNEL_PARAMETERS = {
    "linear": (),
    "poly": ("degree", "coef0", "scale"),
    "rbf": ("scale",),
    "monotone_conjunction": (),
}
#: kernel name -> its formula (for menus)
KERNEL_FORMULAS = {
    "linear": "K(x, z) = x·z",
    "poly": "K(x, z) = (κ x·z + c)^degree",
    "rbf": "K(x, z) = exp(−κ ‖x − z‖²)",
    "monotone_conjunction": "K(x, z) = 2^|Ones(x, z)|",
}


def _check_kernel(kernel, degree, coef0, scale) -> dict:
    """The kernel name and the parameters it uses, checked."""
    if not isinstance(kernel, str) or kernel not in KERNELS:
        raise ValueError(f"unknown kernel {kernel!r}; choose one of: {', '.join(KERNELS)}.")
    checks = {
        "degree": (_check_degree, degree),
        "coef0": (_check_coef0, coef0),
        "scale": (_check_scale, scale),
    }
    params = {"degree": 2, "coef0": 1.0, "scale": 1.0}  # placeholders for unused ones
    for name in KERNEL_PARAMETERS[kernel]:
        check, value = checks[name]
        params[name] = check(value)
    return params


def _check_size(n: int) -> None:
    if n > MAX_KERNEL_SAMPLES:
        raise ValueError(
            f"kernel methods store the n x n Gram matrix: at most "
            f"{MAX_KERNEL_SAMPLES} examples are allowed, got n = {n}; "
            "use a subsample."
        )


def _padded_gram(X, kernel, params, bias) -> np.ndarray:
    """K(x_i, x_j) (+ 1 with a bias: the padded constant feature), shape (n, n)."""
    gram = KERNELS[kernel](X, X, **params)  # a new array: changed in place
    if bias:
        np.add(gram, 1.0, out=gram)
    return gram


# ---------------------------------------------------------------------------
# The kernel perceptron
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class KernelTrace(RunRecord):
    """The complete, read-only record of one kernel perceptron run.

    Attributes
    ----------
    update_indices : ndarray of shape (n_updates,)
        Which example caused each update (the mistakes i_1, i_2, ... of eq. 1).
    update_steps : ndarray of shape (n_updates,)
        How many examples had been examined when it happened (1-based step t).
    update_scores : ndarray of shape (n_updates,)
        y f(x) just before the update.
    alphas : ndarray of shape (n_samples,)
        Final dual coefficients: how many updates each example caused.
    biases : ndarray of shape (n_updates + 1,)
        b = sum_i alpha_i y_i before any update and after each one (zeros with
        ``bias=False``).
    n_examined, epochs, converged, stop_reason, order, seed, delta, bias,
    n_samples, greedy_indices
        As in :class:`perceptron_core.perceptron.Trace`.
    kernel : str
        Key of :data:`KERNELS`; ``degree``, ``coef0``, ``scale`` its parameters.
    X : ndarray of shape (n_samples, n_features)
        The training examples (read-only copy: f needs them).
    y : ndarray of shape (n_samples,)
        Their labels.
    """

    alphas: np.ndarray
    kernel: str
    degree: int
    coef0: float
    scale: float
    X: np.ndarray
    y: np.ndarray

    def _params(self) -> dict:
        return {"degree": self.degree, "coef0": self.coef0, "scale": self.scale}

    def _check_upto(self, upto) -> int:
        if upto is None:
            return self.n_updates
        return check_number(
            upto, "upto (number of updates)", low=0, high=self.n_updates, integer=True
        )

    def alphas_after(self, upto=None) -> np.ndarray:
        """alpha_i after the first ``upto`` updates (None: all), shape (n_samples,)."""
        upto = self._check_upto(upto)
        return np.bincount(self.update_indices[:upto], minlength=self.n_samples)

    def _kernel_to_training(self, X_new) -> np.ndarray:
        """K(x, x_i) for every new x and training x_i, shape (m, n)."""
        X_new = check_features(X_new, name="X_new")
        if X_new.shape[1] != self.X.shape[1]:
            raise ValueError(
                f"X_new has {X_new.shape[1]} features but the run was trained on {self.X.shape[1]}."
            )
        return KERNELS[self.kernel](X_new, self.X, **self._params())

    def decision_function(self, X_new, upto=None) -> np.ndarray:
        """f(x) = sum_i alpha_i y_i K(x_i, x) + b after ``upto`` updates (eq. 2).

        Parameters
        ----------
        X_new : ndarray of shape (m, n_features)
        upto : int in 0..n_updates or None (None: the final f)

        Returns
        -------
        ndarray of shape (m,); the prediction is +1 where f > 0, else -1.
        """
        upto = self._check_upto(upto)
        coefficients = self.alphas_after(upto) * self.y  # alpha_i y_i
        return self._kernel_to_training(X_new) @ coefficients + self.biases[upto]

    def decision_path(self, X_new, updates=None) -> np.ndarray:
        """f on ``X_new`` after each number of updates in ``updates`` (eq. 2).

        Each update on example i adds y_i K(x_i, x) (+ y_i) to f(x), so the values
        after 0, 1, ..., M updates are a cumulative sum over the update columns:
        O(M m) after one kernel evaluation of the (m, n) block. Meant for a page
        that draws f on a grid for every step of the run.

        Parameters
        ----------
        X_new : ndarray of shape (m, n_features)
        updates : sequence of int in 0..n_updates, or None (all of 0..n_updates)

        Returns
        -------
        ndarray of shape (len(updates), m)
        """
        K = self._kernel_to_training(X_new)
        m = K.shape[0]
        if updates is None:
            counts = np.arange(self.n_updates + 1)
        else:
            counts = np.asarray(updates)
            if counts.size == 0:
                counts = counts.reshape(0).astype(np.int64)
            if counts.ndim != 1 or not np.issubdtype(counts.dtype, np.integer):
                raise ValueError(
                    "updates must be a 1-D sequence of whole numbers "
                    f"(numbers of updates in 0..{self.n_updates})."
                )
            if counts.size and (counts.min() < 0 or counts.max() > self.n_updates):
                raise ValueError(
                    f"updates must lie in 0..{self.n_updates} (the run made "
                    f"{self.n_updates} updates)."
                )
        out = np.zeros((counts.size, m))
        if counts.size == 0:
            return out
        wanted = np.unique(counts)
        rows_of = {int(c): np.flatnonzero(counts == c) for c in wanted}
        running = np.zeros(m)  # f - b after `done` updates
        done = 0
        chunk = max(1, (1 << 22) // max(m, 1))  # about 32 MB of cumulative values at once
        last = int(wanted[-1])
        while done < last:
            stop = min(done + chunk, last)
            ids = self.update_indices[done:stop]
            # f_t - b_t = f_{t-1} - b_{t-1} + y_{i_t} K(x_{i_t}, x): one column per update
            cumulative = running[:, None] + np.cumsum(K[:, ids] * self.y[ids], axis=1)
            for c in wanted[(wanted > done) & (wanted <= stop)]:
                out[rows_of[int(c)]] = cumulative[:, int(c) - done - 1] + self.biases[int(c)]
            running = cumulative[:, -1].copy()
            done = stop
        return out


def _kernel_stop_reason(converged, n_updates, epochs, delta, limit_hit, kernel):
    if converged:
        return (
            f"converged: every example has y f(x) > {delta:g} after "
            f"{n_updates} updates in {epochs} epoch{'s' if epochs != 1 else ''}"
        )
    return (
        f"no separator found after {n_updates} updates ({limit_hit}): "
        f"the data may not be separable in the feature space of the {kernel} kernel"
    )


def kernel_perceptron(
    X,
    y,
    kernel="poly",
    degree=2,
    coef0=1.0,
    scale=1.0,
    bias=True,
    order="cyclic",
    seed=None,
    max_updates=100_000,
    max_epochs=1_000,
    delta=0.0,
) -> KernelTrace:
    """Run the perceptron in the feature space of a kernel (the kernelized dual perceptron, §2.3).

    For t = 1, 2, ...: examine example I_t; if y f(x) <= delta, with
    f(x) = sum_i alpha_i y_i K(x_i, x) + b (eq. 2), add 1 to alpha_{I_t} (and
    y to b with a bias). This is Algorithm 1.16 run on Phi(x): the same
    orders, limits, stopping rule and sign(0) = -1 convention as
    :func:`perceptron_core.perceptron.run_perceptron`. With the linear kernel
    it makes exactly the updates run_perceptron makes.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), n_samples <= MAX_KERNEL_SAMPLES
    y : ndarray of shape (n_samples,), values in {-1, +1}
    kernel : str
        A key of :data:`KERNELS`.
    degree, coef0, scale
        Kernel parameters (see :data:`KERNEL_PARAMETERS`).
    bias : bool
        Learn b = sum_i alpha_i y_i as well (the padded constant feature).
    order : str
        A key of :data:`perceptron_core.perceptron.ORDERS`; the greedy orders
        pick the smallest y f(x) (max_residual) or the smallest
        (y f(x) - delta) / ||(Phi(x), 1)|| (max_distance), as run_perceptron does
        in the original space.
    seed : int or None
        Seed of the permuted and random orders (None means 0).
    max_updates, max_epochs : int
        Limits; the run stops there with ``converged=False``. The same upper limits
        as run_perceptron (max_updates <= 10^6, max_epochs <= 10^7,
        max_epochs x n <= 10^10).
    delta : float >= 0
        Threshold: a mistake is y f(x) <= delta.

    Returns
    -------
    KernelTrace
    """
    X, y = check_dataset(X, y)
    n = X.shape[0]
    _check_size(n)
    params = _check_kernel(kernel, degree, coef0, scale)
    if not isinstance(bias, (bool, np.bool_)):
        raise ValueError(f"bias must be True or False, got {bias!r}.")
    # the same settings and limits as run_perceptron
    delta, seed, max_updates, max_epochs = check_run_settings(
        n, delta=delta, order=order, seed=seed, max_updates=max_updates, max_epochs=max_epochs
    )
    labels = y.astype(np.float64)
    state = _DualState(KERNELS[kernel](X, X, **params), labels, bool(bias), delta)
    step_limit = max_epochs * n
    record: list[tuple[int, int, float]] = []  # (index, step, y f(x) before the update)
    args = (state, step_limit, max_updates, record)
    if order in GREEDY_ORDERS:
        step, converged, limit_hit, greedy = _run_greedy(*args, rule=GREEDY_ORDERS[order])
    else:
        step, converged, limit_hit = _run_stream(*args, order=order, seed=seed)
        greedy = None
    epochs = int(-(-step // n))
    indices = np.array([r[0] for r in record], dtype=np.int64)
    # b after each update: the running sum of y over the updates (0 without a bias)
    increments = labels[indices] if bias else np.zeros(indices.size)
    return KernelTrace(
        update_indices=frozen(indices),
        update_steps=frozen([r[1] for r in record], dtype=np.int64),
        update_scores=frozen([r[2] for r in record], dtype=np.float64),
        alphas=frozen(np.bincount(indices, minlength=n), dtype=np.int64),
        biases=frozen(np.concatenate([[0.0], np.cumsum(increments)])),
        n_examined=int(step),
        epochs=epochs,
        converged=bool(converged),
        stop_reason=_kernel_stop_reason(converged, len(record), epochs, delta, limit_hit, kernel),
        order=order,
        seed=seed,
        delta=delta,
        bias=bool(bias),
        n_samples=n,
        kernel=kernel,
        degree=int(params["degree"]),
        coef0=float(params["coef0"]),
        scale=float(params["scale"]),
        X=frozen(X),
        y=frozen(y),
        greedy_indices=None if greedy is None else frozen(greedy, dtype=np.int64),
    )


class _DualState:
    """f(x_j) = s_j + b for every training example j, kept current.

    s_j = sum_i alpha_i y_i K(x_i, x_j) and b = sum_i alpha_i y_i (a whole
    number, exact) are stored apart, as run_perceptron stores w and b apart:
    then a tie that is exact in the primal (for example two examples with the
    same y x) stays exact here.
    """

    def __init__(self, gram: np.ndarray, labels: np.ndarray, bias: bool, delta: float):
        self.gram, self.labels, self.bias, self.delta = gram, labels, bias, delta
        self.kernel_part = np.zeros(gram.shape[0])
        self.b = 0.0
        # sqrt K(x_j, x_j) = ||Phi(x_j)||: the sizes run_perceptron's rounding uses (||x_j||)
        self.rounding = ScoreRounding(np.sqrt(np.abs(np.diag(gram))))

    def margins(self, ids=slice(None)) -> np.ndarray:
        """y f(x) = y (s + b) for the examples ``ids``."""
        return (self.kernel_part[ids] + self.b) * self.labels[ids]

    def slack(self) -> float:
        """The rounding error allowed in a margin (:class:`ScoreRounding`, as in
        run_perceptron): a margin within it of delta is delta, a mistake."""
        return self.rounding.slack(self.b)

    def snap(self, margin: float) -> float:
        """A margin within rounding of delta as delta (what the trace records)."""
        return self.rounding.snap(margin, self.b, self.delta)

    def update(self, index: int) -> None:
        # mistake on x_index: alpha_index += 1, so every f(x_j) gains y_index K(x_index, x_j)
        # (and b gains y_index with a bias); one Gram row, O(n)
        self.kernel_part += self.labels[index] * self.gram[index]
        self.rounding.add(index)
        if self.bias:
            self.b += self.labels[index]

    def all_correct(self) -> bool:
        """Every example has y f(x) > delta (beyond rounding)."""
        return bool(np.all(self.margins() > self.delta + self.slack()))


def _run_stream(state, step_limit, max_updates, record, *, order, seed):
    """Stream orders, with run_perceptron's stopping rule: n examined in a row correct."""
    n = state.gram.shape[0]
    scan = ExampleScan(order, n, seed, step_limit)
    while not scan.at_limit():
        rows = scan.coming()
        margins = state.margins(rows)  # y f(x) for the coming examples
        # mistake: y f(x) <= delta, up to the rounding of f
        hit = scan.advance(rows, margins <= state.delta + state.slack())
        if hit is not None:
            offset, index = hit
            margin = state.snap(float(margins[offset]))
            state.update(index)
            record.append((index, scan.step, margin))
            if len(record) >= max_updates:
                return scan.step, state.all_correct(), f"limit of {max_updates} updates"
        if scan.pass_clean():
            # n examples in a row were correct: check every example at once
            if scan.cyclic or state.all_correct():
                return scan.step, True, None
    return scan.step, state.all_correct(), f"limit of {step_limit // n} epochs"


def _run_greedy(state, step_limit, max_updates, record, *, rule):
    """Greedy orders (Remark 1.38) in feature space: ||a_i|| = sqrt(K(x_i, x_i) (+ 1))."""
    n = state.gram.shape[0]
    norms = np.sqrt(np.maximum(np.diag(state.gram), 0.0) + (1.0 if state.bias else 0.0))
    norms[norms == 0] = 1.0
    examined: list[int] = []
    step = 0
    while True:
        if step >= step_limit:
            return step, state.all_correct(), f"limit of {step_limit // n} epochs", examined
        margins = state.margins()  # y f(x) for every example
        slack = state.slack()
        index = rule(margins, norms, state.delta, slack)
        step += 1
        examined.append(index)
        if margins[index] > state.delta + slack:
            return step, True, None, examined  # the most violated one is fine: all are
        margin = state.snap(float(margins[index]))
        state.update(index)
        record.append((index, step, margin))
        if len(record) >= max_updates:
            return step, state.all_correct(), f"limit of {max_updates} updates", examined


# ---------------------------------------------------------------------------
# The margin in feature space
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class KernelMarginResult:
    """Radius and margin of the data in the feature space of a kernel, computed in floating
    point with its rounding error allowed for.

    a_i = y_i (Phi(x_i), 1) with a bias, y_i Phi(x_i) without. The best margin gamma_Phi
    = max over unit v of min_i <a_i, v> (eq. 1.5 in feature space) is the distance from
    the origin to conv{a_i} when that is positive; the solver finds a point p of the hull
    near the origin, u = p / ||p||.

    Attributes
    ----------
    radius : float
        R_Phi = max_i ||a_i|| = max_i sqrt(K(x_i, x_i) + 1) with a bias,
        max_i sqrt(K(x_i, x_i)) without.
    margin : float
        A lower bound on the margin min_i <a_i, u> of the direction found, after
        subtracting the rounding error of its computation; 0.0 when that is not positive.
        Every such margin is at most gamma_Phi, so Theorem 1.28 holds with it.
    separable : bool
        Whether ``margin`` > 0: u separates the lifted examples, whatever the rounding.
        False says only that no separator was found here (see ``hull_distance``, and
        :func:`no_separator_proof` for a proof that none exists).
    bound : float
        (R_Phi / margin)^2, raised by its rounding error: the mistake bound of the kernel
        perceptron with delta = 0 and w_0 = 0 (Theorem 1.28, eq. 1.4, in feature space);
        inf if not separable.
    best : bool
        Whether the solver's duality gap certified p as the nearest point to a relative
        MARGIN_GAP, so ``margin`` is the best margin gamma_Phi to that accuracy, not only a
        lower bound.
    hull_distance : float
        An upper bound on the distance from the origin to conv{a_i} (||p|| plus its
        rounding error): gamma_Phi <= hull_distance. When no separator was found, any
        separator that exists has a margin below this.
    support : ndarray of int
        Examples whose a_i carry p (also when not separable: the combination nearest to
        the origin the solver found).
    support_weights : ndarray of float, same shape
        Their convex weights: p = sum_k weights_k a_{support_k}.
    """

    radius: float
    margin: float
    separable: bool
    bound: float
    support: np.ndarray
    support_weights: np.ndarray
    best: bool = False
    hull_distance: float = 0.0


#: relative duality gap at which Wolfe's solver stops (margin.min_norm_point's tolerance)
MARGIN_GAP = 1e-10
#: unit roundoff of float64
_EPS = float(np.finfo(np.float64).eps)

_INITIAL_AXES = 256  # coordinate length Wolfe's solver starts with (kernel_margin)


class _AxesExhausted(Exception):
    """More independent vertices than the coordinate vectors have room for."""


class _GramCoordinates:
    """Coordinates, built on demand, for the points a_i whose inner products are a Gram matrix.

    Wolfe's algorithm only ever touches the vertices its linear oracle returns.
    Each new one is written in an orthonormal basis of the vertices met so far
    (one Cholesky step: its part along the basis, then the length of the rest as
    a new axis if that is above ``tolerance``), so the cost follows the number
    of vertices visited, not the rank of the whole Gram matrix. Every vector has
    length ``axes``; unused axes are zero.
    """

    def __init__(self, signed_gram: np.ndarray, axes: int, tolerance: float = 1e-13):
        self.gram = signed_gram
        self.axes = axes
        self.tolerance = tolerance
        self.pivots: list[int] = []  # vertices that opened an axis
        self.inverse = np.zeros((axes, axes))  # inverse of the triangular factor
        self.columns = np.zeros((signed_gram.shape[0], axes))  # <a_i, a_pivot_k>

    def coordinates(self, index: int) -> np.ndarray:
        rank = len(self.pivots)
        out = np.zeros(self.axes)
        inverse = self.inverse[:rank, :rank]
        # part along the basis: solve L c = <a_pivots, a_index> (L lower triangular)
        along = inverse @ self.columns[index, :rank]
        rest = float(self.gram[index, index] - along @ along)
        out[:rank] = along
        if rest > self.tolerance:
            # a_index leaves the span: a new axis carries the rest
            if rank == self.axes:
                raise _AxesExhausted
            root = np.sqrt(rest)
            self.pivots.append(index)
            self.columns[:, rank] = self.gram[:, index]
            # [[L, 0], [c^T, r]]^{-1} = [[L^{-1}, 0], [-c^T L^{-1} / r, 1 / r]]
            self.inverse[rank, :rank] = -(along @ inverse) / root
            self.inverse[rank, rank] = 1.0 / root
            out[rank] = root
        return out

    def products(self, direction: np.ndarray) -> np.ndarray:
        """<a_i, d> for every i, d given by its coordinates."""
        rank = len(self.pivots)
        # the axes are Q = L^{-1} a_pivots, so d = Q^T d_Q = a_pivots^T (L^{-T} d_Q)
        weights = self.inverse[:rank, :rank].T @ direction[:rank]
        return self.columns[:, :rank] @ weights


def _nearest_point_weights(signed: np.ndarray, max_work: float = math.inf):
    """Wolfe's min-norm point of conv{a_i} given <a_i, a_j>: (support indices, convex
    weights, whether the duality gap reached its tolerance).

    Starts with room for _INITIAL_AXES axes and doubles it (up to n) if the
    vertices it visits span more. Raises :class:`MarginUnfinished` past ``max_work``
    (:func:`perceptron_core.margin.min_norm_point`).
    """
    n = signed.shape[0]
    axes = min(n, _INITIAL_AXES)
    while True:
        embedding = _GramCoordinates(signed, axes)

        def oracle(direction, embedding=embedding):
            index = int(np.argmin(embedding.products(direction)))  # lowest vertex along p
            return embedding.coordinates(index), index

        start = int(np.argmin(np.diag(signed)))
        try:
            _, support, weights, gap_ok = min_norm_point(
                oracle,
                (embedding.coordinates(start), start),
                scale=1.0,
                max_work=max_work,
                oracle_numbers=n * axes,
            )
        except _AxesExhausted:
            axes = min(n, 2 * axes)
            continue
        return (
            np.asarray(support, dtype=np.int64),
            np.asarray(weights, dtype=np.float64),
            bool(gap_ok),
        )


def _gram_rounding(X: np.ndarray, kernel: str, params: dict) -> float:
    """A bound on the rounding error of one entry of the padded Gram matrix, divided by
    R_Phi^2 (the units kernel_margin works in), in units of the float64 roundoff.

    Linear: a·z in d products, |a·z| <= R^2. Polynomial: u = kappa a·z + c is off by
    (d + 2) eps u_max, so u^degree by degree (d + 2) eps u_max^degree, u_max^degree <=
    max K(x, x), plus the power's own roundings (:func:`_power_in_place`). RBF:
    ||a - z||^2 from three inner products, off by 2 (d + 2) eps (||a||^2 + ||z||^2),
    which kappa scales into the exponent. Conjunctions: whole
    numbers and powers of two, exact below 2^53.
    """
    dim = X.shape[1]
    if kernel == "linear":
        return dim + 3.0
    if kernel == "poly":
        # and the power itself, by squarings and products: about 2 degree roundings more
        return params["degree"] * (dim + 4.0) + 3.0
    if kernel == "rbf":
        largest = float(np.max(np.einsum("ij,ij->i", X, X))) if X.size else 0.0
        return 4.0 * params["scale"] * (dim + 2.0) * 2.0 * largest + 3.0
    return 3.0


def kernel_margin(
    X, y, kernel="poly", degree=2, coef0=1.0, scale=1.0, bias=True, max_work=None
) -> KernelMarginResult:
    """R_Phi, the margin gamma_Phi in feature space, and the bound (R_Phi / gamma_Phi)^2.

    gamma_Phi is the distance from the origin to conv{a_i}, a_i = y_i (Phi(x_i), 1)
    (without the 1 when ``bias=False``), when positive. It is found by Wolfe's
    minimum-norm-point algorithm (:func:`perceptron_core.margin.min_norm_point`)
    on coordinates that reproduce the signed Gram matrix y_i y_j (K(x_i, x_j) + 1)
    for the vertices it visits (built on demand, one Cholesky step per new
    vertex), and then evaluated from the Gram matrix alone:
    with the nearest point p = sum_k lambda_k a_k,
    gamma_Phi = min_i <a_i, p> / ||p||, ||p||^2 = lambda^T G lambda.
    Both are rounded the safe way (see :class:`KernelMarginResult`): the margin down,
    the bound and the distance to the hull up.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), n_samples <= MAX_KERNEL_SAMPLES
    y : ndarray of shape (n_samples,), values in {-1, +1}
    kernel, degree, coef0, scale, bias
        As in :func:`kernel_perceptron`.
    max_work : float > 0 or None
        The work Wolfe's algorithm may do, in estimated CPU seconds
        (:func:`perceptron_core.margin.min_norm_point`); past it, :class:`MarginUnfinished`
        (a ValueError) instead of a result. It takes a few steps on data separated with
        room, and up to minutes on many points with a tiny margin or none (label noise, a
        large RBF κ).

    Returns
    -------
    KernelMarginResult
    """
    max_work = work_limit(max_work)
    X, y = check_dataset(X, y)
    _check_size(X.shape[0])
    params = _check_kernel(kernel, degree, coef0, scale)
    labels = y.astype(np.float64)
    if kernel == "linear":
        # Phi is the identity: the a_i are the (padded) points themselves, and the solver
        # works on them directly, O(n d) a step, without the n x n Gram matrix (at
        # n = 2 000: 32 MB and about 25 ms, against about 3 ms)
        points = np.hstack([X, np.ones((X.shape[0], 1))]) if bias else X
        lengths = np.einsum("ij,ij->i", points, points)  # ||a_i||^2
    else:
        gram = _padded_gram(X, kernel, params, bias)
        lengths = np.diag(gram)
    radius = float(np.sqrt(max(float(np.max(lengths)), 0.0)))
    if radius == 0:  # every a_i = 0: the origin is in the hull exactly (a_1 alone)
        return KernelMarginResult(
            radius=0.0,
            margin=0.0,
            separable=False,
            bound=np.inf,
            support=frozen([0], dtype=np.int64),
            support_weights=frozen([1.0], dtype=np.float64),
            best=True,
        )
    # <a_i, a_j> = y_i y_j K~(x_i, x_j), in units where the longest a_i has length 1
    if kernel == "linear":
        unit = (labels[:, None] * points) / radius  # a_i / R_Phi, each of length <= 1
        _, support, weights, best = nearest_point_of_rows(unit, max_work=max_work)
        support, weights = np.asarray(support, dtype=np.int64), np.asarray(weights, float)
        best = bool(best)
        # <a_i, p> with p = sum_k lambda_k a_k formed first: p is off by at most |S| eps in
        # length (weights >= 0 summing to 1, ||a_k|| <= 1), each product by (d + 1) eps more
        products = unit @ (weights @ unit[support])
    else:
        # (y_i y_j G_ij) / R^2 in place: y_i y_j = ±1, so multiplying by y_i, then by y_j,
        # flips signs only, as the product y_i y_j G_ij does
        signed = gram
        np.multiply(signed, labels[:, None], out=signed)
        np.multiply(signed, labels[None, :], out=signed)
        np.divide(signed, radius**2, out=signed)
        support, weights, best = _nearest_point_weights(signed, max_work)
        # <a_i, p> = (G_:S lambda)_i from the Gram matrix: an entry's error (|G_ij| <= 1
        # here) plus the sum over the support (weights >= 0 summing to 1 up to |S| eps)
        products = signed[:, support] @ weights
    # ||p||^2 = lambda^T (products on S); each of these is off by at most `allowance`
    norm_sq = max(float(weights @ products[support]), 0.0)
    allowance = 4.0 * (_gram_rounding(X, kernel, params) + support.size + 2.0) * _EPS
    hull_distance = float(np.sqrt(norm_sq + allowance)) * radius
    lowest = float(np.min(products)) - allowance  # min_i <a_i, p>, rounded down
    separable = lowest > 0
    margin = lowest / float(np.sqrt(norm_sq + allowance)) * radius if separable else 0.0
    bound = (radius / margin) ** 2 * (1.0 + 64.0 * _EPS) if separable else np.inf
    return KernelMarginResult(
        radius=radius,
        margin=margin,
        separable=separable,
        bound=bound,
        support=frozen(support),
        support_weights=frozen(weights),
        best=best and separable,
        hull_distance=hull_distance,
    )


# ---------------------------------------------------------------------------
# Exact arithmetic: a proof that no separator exists, a check that one separates
# ---------------------------------------------------------------------------
#
# The examples are floats, so rational numbers: Fraction(x) is x exactly, and sums and
# products of Fractions are exact. Separability in feature space is decided there, not in
# floating point, when a proof can be found: a convex combination of the lifted examples
# a_i that is exactly 0 shows that the origin lies in their hull, so no w has <a_i, w> > 0
# for every i (it would give 0 = sum lambda_i <a_i, w> > 0).

#: most explicit features an exact proof is attempted with (a polynomial of degree 8 in
#: the plane has 45, the linear kernel d)
MAX_EXACT_FEATURES = 64


def polynomial_features(
    kernel: str, degree: int = 2, coef0: float = 1.0, dim: int = 2
) -> tuple[dict, ...]:
    """The coordinates of Phi for the linear and polynomial kernels, each up to a positive
    factor, as polynomials {exponents: coefficient}.

    (kappa x·z + c)^degree = sum_m coef_m x^m z^m over the monomials x^m of degree
    |m| <= degree (only |m| = degree when c = 0), with every coef_m > 0 (binomial and
    multinomial factors, kappa^|m| c^(degree - |m|)). So Phi(x) = (sqrt(coef_m) x^m)_m,
    and a combination of Phi's is 0 exactly when it is 0 on every monomial: kappa and c
    do not matter beyond c > 0. The linear kernel's features are the coordinates.
    """
    if kernel == "linear":
        return tuple({tuple(int(i == j) for i in range(dim)): 1} for j in range(dim))
    if kernel != "poly":
        raise ValueError(
            f"only the linear and polynomial kernels have finitely many "
            f"polynomial features; got {kernel!r}."
        )
    lowest = 0 if coef0 > 0 else degree
    monomials = [
        m for m in itertools.product(range(degree + 1), repeat=dim) if lowest <= sum(m) <= degree
    ]
    return tuple({m: 1} for m in sorted(monomials, key=lambda m: (sum(m), m)))


def _exact_values(X, features, bias: bool) -> list[list[Fraction]]:
    """[feature_1(x), ..., feature_F(x) (, 1 with a bias)] for every example, exactly."""
    rows = []
    for x in np.asarray(X, dtype=float):
        point = [Fraction(float(v)) for v in x]
        values = []
        for polynomial in features:
            total = Fraction(0)
            for exponents, coefficient in polynomial.items():
                term = Fraction(coefficient)
                for value, power in zip(point, exponents):
                    if power:
                        term *= value**power
                total += term
            values.append(total)
        if bias:
            values.append(Fraction(1))
        rows.append(values)
    return rows


def opposite_copies(X, y) -> tuple[int, int] | None:
    """The first pair (i, j), i < j, of examples at the same point with opposite labels,
    or None. Such a pair lifts to a_j = -a_i for every kernel (Phi(x_i) = Phi(x_j)), so
    (a_i + a_j) / 2 = 0: no separator exists, in any feature space."""
    X, y = check_dataset(X, y, both_classes=False)
    _, inverse = np.unique(X, axis=0, return_inverse=True)
    first: dict[tuple[int, int], int] = {}  # (point, label) -> its first example
    for j, (point, label) in enumerate(zip(np.ravel(inverse).tolist(), y.tolist())):
        if (point, -label) in first:
            return first[(point, -label)], j
        first.setdefault((point, label), j)
    return None


@dataclass(frozen=True)
class NoSeparatorProof:
    """Convex weights that make the lifted examples sum to exactly 0.

    sum_k weights_k a_{examples_k} = 0 with a_i = y_i (Phi(x_i), 1) (y_i Phi(x_i) without
    a bias), weights > 0 summing to 1, in exact rational arithmetic on the examples'
    stored values: the origin is in the hull of the a_i, so no hyperplane through the
    origin of feature space has every a_i strictly on its positive side, and the
    perceptron never finds a separator.

    Attributes
    ----------
    examples : ndarray of int, the examples combined (0-based)
    weights : tuple of Fraction, their weights
    same_point : bool, whether the proof is two copies of one point with opposite labels
    """

    examples: np.ndarray
    weights: tuple
    same_point: bool


class ProofUnfinished(ValueError):
    """An exact proof was not finished within the work a call was allowed (``max_work``)."""


#: the exact proof's elimination, counted in estimated CPU seconds of this 2-core machine
#: per unit: one entry of a row update, times (the pivot's length in 64-bit words)^1.585
#: (Python multiplies long numbers by Karatsuba's method); an upper figure measured under
#: load on 2-D data, degrees 3 to 8, 2026-11-27
SECONDS_PER_PROOF_UNIT = 4e-8


def _convex_zero_combination(
    rows: list[list[int]], hint, max_work: float = math.inf
) -> tuple[list[int], int] | None:
    """Weights lambda >= 0 with sum 1 and sum_s lambda_s v_s = 0, where rows[r][s] is
    coordinate r of the whole-number vector v_s, as whole numbers over one denominator:
    (N, D) with lambda_s = N[s] / D, D > 0; None if the solve below finds none.

    Fraction-free Gaussian elimination (Bareiss: every entry stays a whole number, a
    minor of the system) on [rows; 1...1 | 0...0, 1], pivoting on the columns with the
    largest hint weights first; the columns left free keep their hint weights, the
    pivots are solved for exactly. Near a floating-point solution (the hint) this finds
    an exact one whenever the hint's support is affinely independent. The back
    substitution stays in whole numbers too: with the free weights h = H / 2^E and det the
    last pivot (the determinant of the pivots' system), Cramer's rule makes every
    det 2^E lambda_pivot a whole number, so each division below is exact (no fractions,
    whose reductions cost more than the elimination).

    The elimination's work is counted (SECONDS_PER_PROOF_UNIT, from the sizes of the
    numbers it multiplies: a count, not a clock); past ``max_work``, ProofUnfinished.
    """
    k = len(hint)
    table = [list(row) + [0] for row in rows] + [[1] * k + [1]]
    m = len(table)
    pivots: list[int] = []
    previous, r, work = 1, 0, 0.0
    for c in sorted(range(k), key=lambda j: -float(hint[j])):
        found = next((i for i in range(r, m) if table[i][c]), None)
        if found is None:
            continue
        table[r], table[found] = table[found], table[r]
        top, pivot = table[r], table[r][c]
        words = max(1.0, max(abs(value) for value in top).bit_length() / 64)
        work += (m - r - 1) * (k + 1) * words**1.585 * SECONDS_PER_PROOF_UNIT
        if work > max_work:
            raise ProofUnfinished("the exact proof was not finished within the work allowed")
        for i in range(r + 1, m):
            row, factor = table[i], table[i][c]
            table[i] = [(a * pivot - factor * t) // previous for a, t in zip(row, top)]
        previous = pivot
        pivots.append(c)
        r += 1
        if r == m:
            break
    if any(table[i][k] for i in range(r, m)) or not pivots:
        return None  # no combination of these vectors with weights summing to 1 is 0
    free = sorted(set(range(k)) - set(pivots))
    # the free weights h_j = H_j / 2^E (dyadic: floats), E common to all
    ratios = {j: max(float(hint[j]), 0.0).as_integer_ratio() for j in free}
    shift = max((q.bit_length() - 1 for _, q in ratios.values()), default=0)
    det = table[r - 1][pivots[-1]]
    scaled = det << shift  # D = det 2^E; lambda_j = N_j / D
    numerators = [0] * k
    for j in free:
        p, q = ratios[j]
        numerators[j] = p * (1 << (shift - (q.bit_length() - 1))) * det
    for i in reversed(range(r)):
        c, row = pivots[i], table[i]
        total = row[k] * scaled - sum(
            row[j] * numerators[j] for j in range(k) if j != c and row[j] and numerators[j]
        )
        value, rest = divmod(total, row[c])
        if rest:
            return None  # cannot happen (Cramer's rule); refuse rather than be wrong
        numerators[c] = value
    if scaled < 0:
        numerators, scaled = [-v for v in numerators], -scaled
    if any(v < 0 for v in numerators):
        return None
    return numerators, scaled


def no_separator_proof(
    X, y, features, bias: bool, support, weights, max_work=None
) -> NoSeparatorProof | None:
    """A proof in exact arithmetic that no separator exists in the explicit feature space
    ``features`` (polynomials, as :func:`polynomial_features` gives them), near the
    floating-point combination (``support``, ``weights``) a solver found; or None.

    Parameters
    ----------
    X : ndarray of shape (n, d); y : ndarray of shape (n,), values in {-1, +1}
    features : tuple of dict {exponents (d ints): int coefficient}, at most MAX_EXACT_FEATURES
    bias : bool, whether a_i has the constant coordinate 1
    support : ndarray of int; weights : ndarray of float >= 0, the solver's convex weights
        (KernelMarginResult.support and support_weights)
    max_work : float > 0 or None
        The work the exact elimination may do, in estimated CPU seconds counted from the
        sizes of the numbers it multiplies (SECONDS_PER_PROOF_UNIT): past it,
        :class:`ProofUnfinished` (a ValueError). It grows fast with the number of
        features: in the plane, milliseconds at degree 5, about 0.25 s at degree 7 and
        0.8 s at degree 8 (46 support vectors).

    Returns
    -------
    NoSeparatorProof, or None when no exact combination was found near the hint (the
    data may be separable, or the hint too far from one).
    """
    max_work = work_limit(max_work)
    X, y = check_dataset(X, y, both_classes=False)
    if len(features) > MAX_EXACT_FEATURES:
        return None
    support = np.asarray(support, dtype=np.int64)
    weights = np.asarray(weights, dtype=float)
    if support.size == 0 or support.size != weights.size:
        return None
    values = _exact_values(X[support], features, bias)
    # coordinate r of a_s = y_s value_r(x_s); each coordinate scaled to whole numbers by a
    # positive factor (the lcm of its denominators), which keeps every zero a zero
    rows = []
    for r in range(len(values[0])):
        column = [int(y[s]) * values[j][r] for j, s in enumerate(support)]
        scale = math.lcm(*(v.denominator for v in column))
        rows.append([int(v * scale) for v in column])
    solved = _convex_zero_combination(rows, weights, max_work)
    if solved is None:
        return None
    numerators, denominator = solved
    # the proof checked as stated, in whole numbers (lambda = N / D, D > 0): weights >= 0
    # summing to 1, the combination exactly 0
    if (
        min(numerators) < 0
        or sum(numerators) != denominator
        or any(sum(n * v for n, v in zip(numerators, row) if n) != 0 for row in rows)
    ):
        return None
    keep = [j for j, n in enumerate(numerators) if n > 0]
    return NoSeparatorProof(
        examples=frozen(support[keep], dtype=np.int64),
        weights=tuple(Fraction(numerators[j], denominator) for j in keep),
        same_point=False,
    )


def kernel_no_separator_proof(
    X,
    y,
    kernel="poly",
    degree=2,
    coef0=1.0,
    scale=1.0,
    bias=True,
    margin: KernelMarginResult | None = None,
    max_work=None,
) -> NoSeparatorProof | None:
    """A proof in exact arithmetic that the kernel perceptron can never separate these
    data, or None.

    Two copies of a point with opposite labels prove it for every kernel. Otherwise, for
    the linear and polynomial kernels (finitely many features,
    :func:`polynomial_features`), the combination nearest to the origin that
    :func:`kernel_margin` found (``margin``, computed if None) is solved for exactly.
    The RBF kernel has none to find: on distinct points its Gram matrix is positive
    definite, so some f has y_i f(x_i) = 1 for all i (the data are always separable).

    Parameters
    ----------
    X, y, kernel, degree, coef0, scale, bias : as in :func:`kernel_margin`
    margin : KernelMarginResult of kernel_margin for the same arguments, or None
    max_work : float > 0 or None
        The work the exact solve may do (:func:`no_separator_proof`; a margin computed
        here gets as much); past it, :class:`ProofUnfinished` or :class:`MarginUnfinished`
        (ValueErrors).

    Returns
    -------
    NoSeparatorProof or None
    """
    work_limit(max_work)  # checked before any work
    X, y = check_dataset(X, y)
    params = _check_kernel(kernel, degree, coef0, scale)
    copies = opposite_copies(X, y)
    if copies is not None:
        return NoSeparatorProof(
            examples=frozen(copies, dtype=np.int64),
            weights=(Fraction(1, 2), Fraction(1, 2)),
            same_point=True,
        )
    if kernel not in ("linear", "poly"):
        return None
    features = polynomial_features(kernel, params["degree"], params["coef0"], X.shape[1])
    if len(features) > MAX_EXACT_FEATURES:
        return None
    if margin is None:
        margin = kernel_margin(
            X,
            y,
            kernel=kernel,
            degree=degree,
            coef0=coef0,
            scale=scale,
            bias=bias,
            max_work=max_work,
        )
    if margin.separable:
        return None
    # with c > 0 the constant monomial is already the bias's coordinate (a positive
    # multiple of it): one coordinate, not two
    constant = tuple([0] * X.shape[1])
    padded = bias and not any(constant in polynomial for polynomial in features)
    return no_separator_proof(
        X, y, features, padded, margin.support, margin.support_weights, max_work=max_work
    )


def separates_exactly(X, y, features, w, b: float = 0.0) -> bool:
    """Whether y_i (sum_r w_r feature_r(x_i) + b) > 0 for every example, in exact rational
    arithmetic on the stored values (features: polynomials as :func:`polynomial_features`
    gives them; w: ndarray of shape (len(features),))."""
    X, y = check_dataset(X, y, both_classes=False)
    w = [Fraction(float(v)) for v in np.asarray(w, dtype=float)]
    if len(w) != len(features):
        raise ValueError(f"w has {len(w)} entries but there are {len(features)} features.")
    offset = Fraction(float(b))
    for label, values in zip(y.tolist(), _exact_values(X, features, False)):
        if label * (sum(a * v for a, v in zip(w, values)) + offset) <= 0:
            return False
    return True
