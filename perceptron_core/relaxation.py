"""The relaxation (projection) method for linear inequalities: Algorithm 1.37 and
Remark 1.38 of notes-perceptron-yu.txt (Agmon 1954; Motzkin and Schoenberg 1954).

The system is A^T w <= c: A has one COLUMN a_i per inequality, a_i·w <= c_i
(i = 0..n-1), w has p unknowns. For t = 1, 2, ...: pick an index I_t by a rule
and move

    w <- (1 - eta) w + eta P_i(w),   P_i(w) = w - (a_i·w - c_i)^+ / ||a_i||^2 a_i,

where P_i(w) is the nearest point of the half-space {v : a_i·v <= c_i}. With
eta = 1 the step projects onto the violated hyperplane, with eta = 2 it reflects
across it; a satisfied inequality ((.)^+ = 0) leaves w where it is.

The perceptron is the special case of Exercise 1.22 (see
:func:`perceptron_system` and :func:`perceptron_eta`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

import numpy as np

from ._checks import check_dataset, check_number, check_seed, frozen
from .perceptron import example_order, rounding_slack

# ---------------------------------------------------------------------------
# Index rules (Remark 1.38). Every rule has the signature
#     rule(sq_norms, seed, tau) -> pick
# and pick(t, residuals) -> index I_t, called once per iteration with
# t = 0, 1, 2, ... and residuals = A^T w - c - tol at the current w (the notes'
# a_i·w - c_i when tol = 0; positive exactly for the violated inequalities).
# ---------------------------------------------------------------------------


def _cyclic(sq_norms: np.ndarray, seed: int, tau: int):
    """Cyclic: I_t = (I_{t-1} + 1) mod n, i.e. 0, 1, ..., n-1, 0, 1, ..."""
    n = sq_norms.shape[0]
    return lambda t, residuals: t % n


def _chaotic(sq_norms: np.ndarray, seed: int, tau: int):
    """Chaotic: seeded random indices such that every window of tau consecutive
    iterations visits every index (tau >= n).

    Each index i has a deadline: it must be visited again within tau iterations
    of its last visit. A uniformly drawn index is kept if the remaining
    deadlines can still all be met one per iteration; otherwise the index with
    the earliest deadline is taken (earliest-deadline-first always succeeds).
    """
    n = sq_norms.shape[0]
    rng = np.random.default_rng([seed, 1])
    deadlines = [tau - 1] * n  # last iteration (0-based) at which index i may be visited

    def meets_deadlines(t: int, others: list) -> bool:
        # the r-th earliest of the other deadlines must leave r iterations after t
        return all(d >= t + r for r, d in enumerate(sorted(others), start=1))

    draws: list[int] = []

    def pick(t, residuals):
        if not draws:
            draws.extend(rng.integers(n, size=1024).tolist()[::-1])  # uniform candidates
        i = draws.pop()
        if not meets_deadlines(t, deadlines[:i] + deadlines[i + 1 :]):
            i = deadlines.index(min(deadlines))  # earliest deadline first
        deadlines[i] = t + tau
        return i

    return pick


def _randomized(sq_norms: np.ndarray, seed: int, tau: int):
    """Randomized: I_t = i with probability p_i = ||a_i||^2 / sum_j ||a_j||^2 (i.i.d.)."""
    p = sq_norms / sq_norms.sum()
    block = 1024
    drawn: dict[int, np.ndarray] = {}

    def pick(t, residuals):
        chunk = t // block  # draws come 1024 at a time, reproducible from (seed, chunk)
        if chunk not in drawn:
            drawn.clear()
            drawn[chunk] = np.random.default_rng([seed, 2, chunk]).choice(p.size, block, p=p)
        return int(drawn[chunk][t % block])

    return pick


def _permuted(sq_norms: np.ndarray, seed: int, tau: int):
    """Permuted: a fresh random permutation of 0..n-1 each epoch, followed in order
    (the same permutations as the perceptron's "permuted" order)."""
    n = sq_norms.shape[0]
    current: dict[int, np.ndarray] = {}

    def pick(t, residuals):
        epoch, position = divmod(t, n)
        if epoch not in current:
            current.clear()
            current[epoch] = example_order("permuted", n, seed, epoch)
        return int(current[epoch][position])

    return pick


def _max_distance(sq_norms: np.ndarray, seed: int, tau: int):
    """Maximal distance: the largest (a_i·w - c_i)^+ / ||a_i||, the farthest
    violated half-space (ties: lowest index)."""
    norms = np.sqrt(sq_norms)
    return lambda t, residuals: int(np.argmax(residuals / norms))


def _max_residual(sq_norms: np.ndarray, seed: int, tau: int):
    """Maximal residual: the largest (a_i·w - c_i)^+ (ties: lowest index)."""
    return lambda t, residuals: int(np.argmax(residuals))


#: rule name -> rule(sq_norms, seed, tau) -> pick(t, residuals) -> index
INDEX_RULES = {
    "cyclic": _cyclic,
    "chaotic": _chaotic,
    "randomized": _randomized,
    "permuted": _permuted,
    "max_distance": _max_distance,
    "max_residual": _max_residual,
}
#: rule name -> what a menu shows: the rule's name in words, a colon, how it picks
INDEX_RULE_LABELS = {
    "cyclic": "cyclic: (1), (2), …, (n), then again",
    "chaotic": "chaotic: every inequality within each τ iterations",
    "randomized": "randomized: (i) with probability ∝ ‖aᵢ‖²",
    "permuted": "permuted: a fresh random order each pass",
    "max_distance": "maximal distance: the farthest violated half-plane",
    "max_residual": "maximal residual: the largest aᵢ·w − cᵢ",
}
#: rule name -> its name in a sentence ("maximal distance")
INDEX_RULE_NAMES = {rule: label.split(":")[0] for rule, label in INDEX_RULE_LABELS.items()}


# ---------------------------------------------------------------------------
# Checks and the single step
# ---------------------------------------------------------------------------


#: largest |entry| of A and c: ||a_i||² and a_i·w stay far from float64 overflow
MAX_SYSTEM_VALUE = 1e150
#: smallest ||a_i||² the projection divides by (far from float64 underflow)
MIN_SQUARED_NORM = 1e-280
#: most iterations of one run (10 to 35 µs each here: a few seconds at most)
MAX_ITERATIONS = 200_000


def check_system(A, c) -> tuple[np.ndarray, np.ndarray]:
    """Check a system A^T w <= c: A of shape (p, n) with nonzero columns, c of shape (n,).

    Returns float64 copies of A and c.
    """
    try:
        A = np.array(A, dtype=np.float64, copy=True)
        c = np.array(c, dtype=np.float64, copy=True)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(
            "A and c must be numeric arrays: A of shape (p unknowns, "
            "n inequalities), c of shape (n,)."
        ) from None
    if A.ndim != 2 or A.shape[0] == 0 or A.shape[1] == 0:
        raise ValueError(
            f"A must be 2-D of shape (p unknowns, n inequalities), one column "
            f"a_i per inequality a_i·w <= c_i; got shape {A.shape}."
        )
    if c.ndim != 1 or c.shape[0] != A.shape[1]:
        raise ValueError(
            f"c must have shape ({A.shape[1]},), one bound per column of A; got shape {c.shape}."
        )
    if not (np.isfinite(A).all() and np.isfinite(c).all()):
        raise ValueError("A and c must be finite (no NaN or infinity).")
    zero = np.flatnonzero(~A.any(axis=0))
    if zero.size:
        raise ValueError(
            f"column {int(zero[0])} of A is zero: the inequality 0 <= c_i has "
            "no half-space to project onto; remove it."
        )
    largest = max(float(np.abs(A).max()), float(np.abs(c).max()))
    if largest > MAX_SYSTEM_VALUE:
        raise ValueError(
            f"A and c hold {largest:.3g}; entries above {MAX_SYSTEM_VALUE:g} in "
            "size cannot be computed with reliably (||a_i||² overflows). Divide "
            "the inequality by a power of ten."
        )
    with np.errstate(under="ignore"):
        squared = np.einsum("ij,ij->j", A, A)
    tiny = np.flatnonzero(squared < MIN_SQUARED_NORM)
    if tiny.size:
        raise ValueError(
            f"column {int(tiny[0])} of A is too small to divide by "
            f"(||a_i||² < {MIN_SQUARED_NORM:g}); multiply that inequality by a "
            "power of ten."
        )
    return A, c


def _check_point(w, p: int, name: str) -> np.ndarray:
    try:
        w = np.array(w, dtype=np.float64, copy=True)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{name} must be a numeric vector of shape ({p},).") from None
    if w.shape != (p,):
        raise ValueError(f"{name} must have shape ({p},), one entry per row of A; got {w.shape}.")
    if not np.isfinite(w).all():
        raise ValueError(f"{name} contains NaN or infinity.")
    return w


def _check_index(i, n: int) -> int:
    return check_number(i, "i (inequality index)", low=0, high=n - 1, integer=True)


def project(A, c, w, i) -> np.ndarray:
    """P_i(w): the nearest point to w of the half-space {v : a_i·v <= c_i}, shape (p,).

    P_i(w) = w - (a_i·w - c_i)^+ / ||a_i||^2 a_i (the bracket of Algorithm 1.37).
    """
    A, c = check_system(A, c)
    w = _check_point(w, A.shape[0], "w")
    a = A[:, _check_index(i, A.shape[1])]
    residual = max(float(a @ w) - c[i], 0.0)
    return w - residual / float(a @ a) * a


def relaxation_step(A, c, w, i, eta=1.0) -> np.ndarray:
    """One step of Algorithm 1.37 on inequality i: (1 - eta) w + eta P_i(w), shape (p,).

    eta = 1 lands on the hyperplane a_i·v = c_i, eta = 2 on w's mirror image across it.
    """
    eta = check_number(eta, "eta (relaxation parameter)", low=0, low_open=True, high=2)
    projected = project(A, c, w, i)  # checks A, c, w and i
    return (1.0 - eta) * _check_point(w, len(projected), "w") + eta * projected


# ---------------------------------------------------------------------------
# The run
# ---------------------------------------------------------------------------


#: a float residual a_i·w - c_i farther than this many ulps of the sizes it sums
#: (sum_k |a_ik| |w_k| + |c_i| + tol) from the tolerance is on the exact residual's side
#: (float64 sums of a few terms err by a few ulps; 64 leaves room); closer, it is redone
#: in fractions
RESIDUAL_ULPS = 64
_EPSILON = float(np.finfo(np.float64).eps)


class ExactSides:
    """Which side of its tolerance line each inequality is on at a stored iterate, exactly.

    The system, the tolerance and eta are read as the decimals they print as
    (:func:`exact_value`: a typed 0.1 is 1/10), the iterate as the float64 vector it is.
    A float residual far from the tolerance (over RESIDUAL_ULPS ulps of its terms) has the
    exact one's side; a closer one is recomputed in integers (row i scaled by the common
    denominator of its decimals, w by a power of two) and replaced by a float on the
    exact side. So "violated" means a_i·w - c_i > tol exactly, and a run with tolerance 0
    is feasible only when every a_i·w <= c_i holds exactly.

    A move is kept on the side of its own inequality's line where exact arithmetic puts
    it: from w with exact residual r > tol, the exact step lands at residual (1 - eta) r,
    so with tolerance 0 and eta < 1 it stays outside, with eta = 1 on the line and with
    eta > 1 strictly inside. When the float step lands on another side (it can, for
    residuals near rounding), the new iterate is moved by single ulps until it is on the
    exact side (:meth:`move`).

    The float work is done for many iterates at once (:meth:`residuals_of`,
    :meth:`moves`: one row per run of a sweep), each row's numbers computed as one
    iterate's alone (sums over the coordinates in order), and the integer work only for
    the entries within rounding of the tolerance; an iterate met again (a run stuck or
    cycling) reuses its integers (a bounded memo).
    """

    def __init__(self, A_rows: np.ndarray, c: np.ndarray, tol: float, eta: float = 1.0):
        self.rows, self.c_float = A_rows, c
        self.tol_float, self.eta_float = float(tol), float(eta)
        tol_exact, eta_exact = exact_value(tol), exact_value(eta)
        self.eta = (eta_exact.numerator, eta_exact.denominator)
        # row i times L_i, the common denominator of its decimals and tol: integers
        self.integers = []
        for row, bound in zip(A_rows, c):
            values = [exact_value(v) for v in row] + [exact_value(bound), tol_exact]
            scale = math.lcm(*(v.denominator for v in values))
            self.integers.append([int(v * scale) for v in values] + [scale])
        self.abs_rows, self.abs_c = np.abs(A_rows), np.abs(c)
        # the room for rounding: RESIDUAL_ULPS ulps of sum_k |a_ik| |w_k| + |c_i| + tol
        self.slack = RESIDUAL_ULPS * _EPSILON
        self.slack_c = self.slack * (self.abs_c + self.tol_float)
        self.exact: dict = {}  # (i, w's bytes) -> (N, T, D) of _residual
        self.moved: dict = {}  # (i, w's bytes, eta) -> the move: a stuck run repeats it
        self.etas = {self.eta_float: self.eta}  # eta -> its decimal as (numerator, denominator)

    def _residual(self, i: int, w: np.ndarray) -> tuple[int, int, int]:
        """(N, T, D): a_i·w - c_i = N / D and tol = T / D exactly, D > 0."""
        key = (i, w.tobytes())
        found = self.exact.get(key)
        if found is not None:
            return found
        *a, c, tol, scale = self.integers[i]
        ratios = [v.as_integer_ratio() for v in w.tolist()]
        power = max(q for _, q in ratios)  # the denominators are powers of two
        total = sum([n * p * (power // q) for n, (p, q) in zip(a, ratios)])
        if len(self.exact) > 4096:
            self.exact.clear()
        found = self.exact[key] = (total - c * power, tol * power, scale * power)
        return found

    def _on_side(self, i: int, w: np.ndarray) -> float:
        """a_i·w - c_i as a float that is above tol_float exactly when the exact residual
        is above the exact tolerance."""
        numerator, tol, denominator = self._residual(i, w)
        value = numerator / denominator  # correctly rounded
        if numerator > tol and not value > self.tol_float:
            return float(np.nextafter(self.tol_float, np.inf))
        if numerator <= tol and value > self.tol_float:
            return self.tol_float
        return value

    def float_residuals(self, W: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(a_i·w - c_i in float64, sum_k |a_ik| |w_k|) for every inequality i (columns) at
        every iterate w (rows of W), summed over the coordinates in order: a row's numbers
        are those of its iterate alone, whatever the other rows."""
        residuals = W[:, :1] * self.rows[:, 0]
        sizes = np.abs(W)
        reach = sizes[:, :1] * self.abs_rows[:, 0]
        for k in range(1, self.rows.shape[1]):
            residuals += W[:, k : k + 1] * self.rows[:, k]
            reach += sizes[:, k : k + 1] * self.abs_rows[:, k]
        residuals -= self.c_float
        return residuals, reach

    def on_sides(self, W: np.ndarray, residuals: np.ndarray, sizes: np.ndarray) -> np.ndarray:
        """``residuals`` (of :meth:`float_residuals`) with every entry within rounding of the
        tolerance replaced by a float on the exact residual's side (in place)."""
        near = np.abs(residuals - self.tol_float) <= sizes * self.slack + self.slack_c
        if near.any():
            for r, i in zip(*np.nonzero(near)):
                residuals[r, i] = self._on_side(int(i), W[r])
        return residuals

    def residuals_of(self, W: np.ndarray) -> np.ndarray:
        """a_i·w - c_i for every inequality i (columns) at every iterate w (rows of W),
        each on its exact side of the tolerance."""
        return self.on_sides(W, *self.float_residuals(W))

    def residuals(self, w: np.ndarray) -> np.ndarray:
        """a_i·w - c_i for every i, each on its exact side of the tolerance."""
        return self.residuals_of(np.asarray(w, dtype=np.float64)[None, :])[0]

    def move(self, i: int, w: np.ndarray, residual: float, sq_norm: float) -> np.ndarray:
        """w - eta (a_i·w - c_i)/||a_i||^2 a_i in float64, on the side of a_i's tolerance
        line where the exact step from w lands (see the class note)."""
        W = w[None, :]
        return self.moves(
            np.array([i]),
            W,
            np.array([residual]),
            np.array([sq_norm]),
            np.array([self.eta_float]),
            self.float_residuals(W)[1],
        )[0][0]

    def moves(
        self,
        index: np.ndarray,
        W: np.ndarray,
        residual: np.ndarray,
        sq_norm: np.ndarray,
        eta: np.ndarray,
        sizes: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`move` for many iterates at once: row r moves W[r] on inequality index[r]
        with residual[r], ||a||^2 sq_norm[r] and relaxation parameter eta[r] (``sizes``:
        :meth:`float_residuals`' sizes at W). Returns the new iterates with their
        residuals on their exact sides and their sizes. The float steps and the test of
        which land within rounding of their line are array operations; only those are
        checked (and, when needed, moved) in integers."""
        new = W - (eta * residual / sq_norm)[:, None] * self.rows[index]
        residuals, reach = self.float_residuals(new)
        rows = np.arange(index.size)
        # the step's rounding: RESIDUAL_ULPS ulps of sum_k |a_ik| (|w_k| + |new_k|) + |c_i|
        bound = (
            RESIDUAL_ULPS
            * _EPSILON
            * (sizes[rows, index] + reach[rows, index] + self.abs_c[index] + self.tol_float)
        )
        for r in np.flatnonzero(np.abs(residuals[rows, index] - self.tol_float) <= bound):
            kept = self._kept_on_side(int(index[r]), W[r], new[r], float(eta[r]))
            if kept.tobytes() != new[r].tobytes():
                new[r] = kept
                residuals[r], reach[r] = (part[0] for part in self.float_residuals(kept[None]))
        return new, self.on_sides(new, residuals, reach), reach

    def _kept_on_side(self, i: int, w: np.ndarray, new: np.ndarray, eta: float) -> np.ndarray:
        """The float step ``new`` from w on inequality i, moved until it is on the side of
        the line where the exact step (eta as typed) lands: by single ulps first, then by
        doubling distances (near 0 an ulp is tiny: a residual of 10⁻¹⁷ is 10¹⁶ ulps of
        w = 10⁻³³ away from its line), so it never goes more than twice as far as needed."""
        key = (i, w.tobytes(), eta)
        found = self.moved.get(key)
        if found is not None:
            return found.copy()
        a = self.rows[i]
        if eta not in self.etas:
            exact_eta = exact_value(eta)
            self.etas[eta] = (exact_eta.numerator, exact_eta.denominator)
        eta_num, eta_den = self.etas[eta]
        # the exact step lands at residual (1 - eta) r, r > tol >= 0 (w was violated): on
        # the line (eta = 1), beyond it (eta > 1: below 0 <= tol) or short of it (eta < 1:
        # above tol = 0; against a tol > 0 it takes the exact r)
        if eta_num == eta_den:
            want = -1 if self.tol_float > 0 else 0
        elif eta_num > eta_den:
            want = -1
        elif self.tol_float == 0:
            want = 1
        else:  # the side of (1 - eta) r - tol, times eta_den D > 0
            numerator, tol, _ = self._residual(i, w)
            target = (eta_den - eta_num) * numerator - eta_den * tol
            want = (target > 0) - (target < 0)
        distance = None  # after 16 single ulps: the last move's distance per coordinate
        for attempt in range(2200):
            numerator, tol, _ = self._residual(i, new)
            side = (numerator > tol) - (numerator < tol)
            if side == want or (want == 0 and side < 0):
                if len(self.moved) > 256:
                    self.moved.clear()
                self.moved[key] = new.copy()
                return new
            up = side < want  # the residual must grow: a step along +a_i, else along -a_i
            toward = np.where(a > 0, 1.0, np.where(a < 0, -1.0, 0.0)) * (1.0 if up else -1.0)
            if attempt < 16:
                new = np.where(toward != 0, np.nextafter(new, toward * np.inf), new)
                continue
            distance = np.abs(np.spacing(new)) if distance is None else 2 * distance
            new = new + toward * distance
        raise ValueError("a move could not be put on its exact side; please report it.")


@dataclass(frozen=True)
class RelaxationTrace:
    """The read-only record of one run of Algorithm 1.37.

    Attributes
    ----------
    iterates : ndarray of shape (n_iter + 1, p)
        w_0 and w after each iteration (a row repeats when the chosen
        inequality was already satisfied).
    indices : ndarray of shape (n_iter,)
        The index I_t chosen at each iteration (0-based column of A).
    residuals : ndarray of shape (n_iter,)
        a_i·w - c_i of the chosen inequality just before the step.
    moved : ndarray of shape (n_iter,) of bool
        Whether the step moved w (residual > tol).
    n_iter : int
        Iterations made (T).
    feasible : bool
        Whether the last iterate satisfies every a_i·w <= c_i + tol.
    stop_reason : str
        A sentence a page can show.
    eta, rule, seed, tol, tau
        The settings of the run (tau is None unless the rule is chaotic: the other
        rules have no window).
    """

    iterates: np.ndarray
    indices: np.ndarray
    residuals: np.ndarray
    moved: np.ndarray
    n_iter: int
    feasible: bool
    stop_reason: str
    eta: float
    rule: str
    seed: int
    tol: float
    tau: int | None

    @property
    def w(self) -> np.ndarray:
        return self.iterates[-1]

    @property
    def n_moves(self) -> int:
        return int(self.moved.sum())


def relaxation(
    A, c, eta=1.0, rule="cyclic", w0=None, seed=None, tol=0.0, max_iter=100_000, tau=None
) -> RelaxationTrace:
    """Solve A^T w <= c by the relaxation method (Algorithm 1.37, index rules Remark 1.38).

    Parameters
    ----------
    A : ndarray of shape (p, n)
        One column a_i per inequality a_i·w <= c_i (the notes' convention A^T w <= c);
        no column may be zero.
    c : ndarray of shape (n,)
    eta : float in (0, 2]
        Relaxation parameter: 1 projects, 2 reflects, below 1 under-relaxes.
    rule : str
        A key of :data:`INDEX_RULES`.
    w0 : ndarray of shape (p,) or None
        Start (None: zeros).
    seed : int or None
        Seed of the chaotic, randomized and permuted rules (None means 0).
    tol : float >= 0
        Inequality i counts as satisfied when a_i·w - c_i <= tol, decided exactly on
        the decimals of A, c and tol and the float iterate (:class:`ExactSides`); the
        run stops as soon as all are. With tol = 0 and eta < 1 a run that starts
        outside never gets in: every move leaves its own inequality violated by
        (1 - eta) times its violation (exact arithmetic; each float move is kept on
        the side exact arithmetic puts it). Reflections (eta = 2) can get in after
        finitely many moves when the solutions have interior points (Motzkin and
        Schoenberg 1954).
    max_iter : int, 1 <= max_iter <= MAX_ITERATIONS (200 000)
        Iterations before giving up (the system may have no solution). On a
        system without solution the iterates stayed bounded for every eta < 2 in
        the tests (as Theorem 1.35 states for the perceptron's steps); with eta = 2
        they can drift away: two contradicting parallel half-spaces reflect w
        across two parallel hyperplanes, and two reflections make a translation.
    tau : int >= n or None
        Window of the chaotic rule (None: 2n). The other rules ignore it (it is not
        checked, and the trace records None): a window below n is wrong only for the
        chaotic rule.

    Returns
    -------
    RelaxationTrace
        Every iteration t: the chosen index, its residual, whether w moved.
    """
    return relaxation_sweep(
        A, c, [eta], rules=[rule], w0=w0, seed=seed, tol=tol, max_iter=max_iter, tau=tau
    )[0]


def relaxation_sweep(
    A, c, etas, rules=("cyclic",), w0=None, seed=None, tol=0.0, max_iter=100_000, tau=None
) -> tuple[RelaxationTrace, ...]:
    """:func:`relaxation` for every rule of ``rules`` and every eta of ``etas``, computed
    together: one trace per (rule, eta), each the run ``relaxation(A, c, eta=eta,
    rule=rule, ...)`` gives, number for number.

    The runs share the system and the start; an iteration moves every run still going
    at once (array operations over the runs), and every number of a run is computed as
    the run alone computes it (elementwise, never mixed with another run's). A stream
    rule (cyclic, chaotic, randomized, permuted) picks the same index for all its runs
    at iteration t; a greedy one picks per run.

    Parameters
    ----------
    etas : sequence of float, each in (0, 2]
    rules : sequence of keys of :data:`INDEX_RULES`
        At most MAX_SWEEP_RUNS (1 000) runs in all (rules x etas).
    A, c, w0, seed, tol, max_iter, tau
        As in :func:`relaxation` (tau is the chaotic rule's window).

    Returns
    -------
    tuple of RelaxationTrace: for each rule in turn, one per eta in the order of ``etas``
    """
    A, c = check_system(A, c)
    p, n = A.shape
    try:
        raw = np.atleast_1d(np.asarray(etas, dtype=object))
    except (TypeError, ValueError):
        raise ValueError("etas must be a list of numbers in (0, 2].") from None
    if isinstance(rules, str):
        rules = [rules]
    rules = list(rules)
    for rule in rules:
        if not isinstance(rule, str) or rule not in INDEX_RULES:
            raise ValueError(f"unknown rule {rule!r}; choose one of: {', '.join(INDEX_RULES)}.")
    if raw.ndim != 1 or not rules or not 1 <= raw.size * len(rules) <= MAX_SWEEP_RUNS:
        raise ValueError(
            f"give at least one rule and one eta, and at most "
            f"{MAX_SWEEP_RUNS} runs (rules x etas) in all."
        )
    eta = np.array(
        [
            check_number(value, "eta (relaxation parameter)", low=0, low_open=True, high=2)
            for value in raw.tolist()
        ]
    )
    w = np.zeros(p) if w0 is None else _check_point(w0, p, "w0")
    seed = check_seed(seed)
    tol = check_number(tol, "tol", low=0)
    max_iter = check_number(max_iter, "max_iter", low=1, high=MAX_ITERATIONS, integer=True)
    if "chaotic" not in rules:
        tau = None  # only the chaotic rule has a window
    elif tau is None:
        tau = 2 * n
    else:
        tau = check_number(tau, f"tau (chaotic window, at least n = {n})", low=n, integer=True)
    sq_norms = np.einsum("ij,ij->j", A, A)  # ||a_i||^2 for each column
    runs = _SweepRuns(A, c, np.tile(eta, len(rules)), w, tol)
    picks = _Picks(rules, eta.size, sq_norms, seed, tau, tol)
    for t in range(max_iter + 1):
        residuals = runs.residuals()  # a_i·w - c_i, every inequality of every run going on
        inside = residuals.max(axis=1) <= tol
        if inside.any():
            runs.stop(inside, residuals, feasible=True)
            residuals = residuals[~inside]
            if not runs.active.size:
                break
        if t == max_iter:
            runs.stop(np.ones(runs.active.size, dtype=bool), residuals, feasible=False)
            break
        runs.step(picks(t, runs.active, residuals), sq_norms, residuals)
    return tuple(
        trace
        for k, rule in enumerate(rules)
        for trace in runs.traces(
            range(k * eta.size, (k + 1) * eta.size), rule, seed, tau if rule == "chaotic" else None
        )
    )


class _Picks:
    """The index I_t of every run going on: a stream rule's index is the same for all its
    runs and does not depend on the residuals (its picks are drawn BLOCK iterations ahead,
    in order of t); a greedy rule's is per run, from the run's residuals (the most
    violated inequality, ties to the lowest index)."""

    BLOCK = 256

    def __init__(self, rules, per_rule, sq_norms, seed, tau, tol):
        self.tol = tol
        self.stream = {
            k: INDEX_RULES[rule](sq_norms, seed, tau)
            for k, rule in enumerate(rules)
            if rule not in _GREEDY_RULES
        }
        self.drawn = np.zeros((len(rules), 0), dtype=np.int64)  # stream picks from t = begin
        self.begin = 0
        self.rule_of = np.repeat(np.arange(len(rules)), per_rule)  # run -> its rule
        self.residual_rule = np.array([rule == "max_residual" for rule in rules])
        self.distance_rule = np.array([rule == "max_distance" for rule in rules])
        self.norms = np.sqrt(sq_norms)
        self.single = len(rules) == 1
        self.runs: tuple = (None,)  # (active, its rules, its greedy masks) of the last call

    def _stream(self, t: int) -> np.ndarray:
        """Every stream rule's index at iteration t (a column over the rules)."""
        if t - self.begin >= self.drawn.shape[1]:
            self.begin = t
            self.drawn = np.zeros((self.residual_rule.size, self.BLOCK), dtype=np.int64)
            for k, pick in self.stream.items():
                self.drawn[k] = [pick(step, None) for step in range(t, t + self.BLOCK)]
        return self.drawn[:, t - self.begin]

    def __call__(self, t, active, residuals):
        if self.single and self.stream:  # one stream rule: one index
            return int(self._stream(t)[0])
        if self.runs[0] is not active:
            rule = self.rule_of[active]
            self.runs = (
                active,
                rule,
                [
                    (greedy[rule], greedy[rule].any())
                    for greedy in (self.residual_rule, self.distance_rule)
                ],
            )
        _, rule, masks = self.runs
        index = self._stream(t)[rule] if self.stream else np.zeros(active.size, np.int64)
        (residual_runs, any_residual), (distance_runs, any_distance) = masks
        # the largest (a_i·w - c_i)^+ (over ||a_i||, for max_distance)
        if any_residual:
            index[residual_runs] = np.argmax(residuals[residual_runs] - self.tol, axis=1)
        if any_distance:
            index[distance_runs] = np.argmax(
                (residuals[distance_runs] - self.tol) / self.norms, axis=1
            )
        return index


_GREEDY_RULES = ("max_distance", "max_residual")


#: most runs of one sweep
MAX_SWEEP_RUNS = 1_000


class _SweepRuns:
    """The runs of :func:`relaxation_sweep`: which are still going, their iterates, and
    what every run recorded at each iteration (w_t after it, the index, its residual,
    whether w moved). A run that has stopped keeps its last w."""

    def __init__(self, A, c, eta, w0, tol):
        self.rows = np.ascontiguousarray(A.T)  # row i is a_i
        self.sides = ExactSides(self.rows, c, tol)  # the sides do not depend on eta
        self.eta, self.tol = eta, tol
        self.active = np.arange(eta.size)  # the runs going on
        self.W = np.tile(w0, (eta.size, 1))  # every run's w
        # every run's a_i·w - c_i, on their exact sides of tol, and sum_k |a_ik| |w_k|
        # (recomputed after a move)
        start, sizes = self.sides.float_residuals(w0[None, :])
        self.R = np.tile(self.sides.on_sides(w0[None, :], start, sizes)[0], (eta.size, 1))
        self.S = np.tile(sizes[0], (eta.size, 1))
        self.history = [self.W.copy()]  # every run's w after each iteration
        self.chosen: list[tuple] = []  # (runs going on, index, residual, moved) each time
        self.ends: dict[int, tuple] = {}  # run -> (feasible, its residuals at the end)
        self.n_iter: dict[int, int] = {}  # run -> its iterations

    def residuals(self) -> np.ndarray:
        """a_i·w - c_i for every inequality i (columns) of every run going on (rows), each
        on its exact side of the tolerance (:class:`ExactSides`); a copy."""
        return self.R[self.active]

    def stop(self, which: np.ndarray, residuals: np.ndarray, feasible: bool) -> None:
        """The runs ``which`` (a mask over those going on) end here, after len(chosen)
        iterations."""
        for run, row in zip(self.active[which].tolist(), residuals[which]):
            self.ends[run] = (feasible, row)
            self.n_iter[run] = len(self.chosen)
        self.active = self.active[~which]

    def step(self, index, sq_norms: np.ndarray, residuals: np.ndarray) -> None:
        """w <- (1 - eta) w + eta P_i(w) = w - eta (a_i·w - c_i) / ||a_i||^2 a_i where
        inequality i (``index``: one for every run, or one per run) is violated beyond
        tol, exactly; elsewhere w stays. Each move is kept on the side of its line where
        the exact move lands (:meth:`ExactSides.moves`)."""
        if isinstance(index, int):
            chosen = residuals[:, index].copy()
            moved = chosen > self.tol
            picked = np.full(int(moved.sum()), index)
        else:
            chosen = residuals[np.arange(index.size), index]
            moved = chosen > self.tol
            picked = index[moved]
        runs = self.active[moved]
        if runs.size:
            before = self.W[runs]
            new, residuals, sizes = self.sides.moves(
                picked, before, chosen[moved], sq_norms[picked], self.eta[runs], self.S[runs]
            )
            self.W[runs] = new
            # a move too small for float64 leaves w (and its residuals) as they were
            changed = np.any(new.view(np.int64) != before.view(np.int64), axis=1)
            self.R[runs[changed]], self.S[runs[changed]] = residuals[changed], sizes[changed]
        self.chosen.append((self.active, index, chosen, moved))
        self.history.append(self.W.copy())

    def _columns(self):
        """The recorded (index, residual, moved) as arrays of shape (iterations, runs),
        built from the stretches of iterations with the same runs going on."""
        steps, count = len(self.chosen), self.eta.size
        columns = (
            np.zeros((steps, count), dtype=np.int64),
            np.zeros((steps, count)),
            np.zeros((steps, count), dtype=bool),
        )
        begin = 0
        while begin < steps:
            runs = self.chosen[begin][0]
            end = begin + 1
            while end < steps and self.chosen[end][0] is runs:
                end += 1
            for k, column in enumerate(columns):
                column[begin:end, runs] = np.array(
                    [np.broadcast_to(entry[k + 1], runs.shape) for entry in self.chosen[begin:end]]
                )
            begin = end
        return columns

    def traces(self, which, rule, seed, tau):
        """The traces of the runs ``which`` (numbers), all of rule ``rule``."""
        if not hasattr(self, "_arrays"):
            self._arrays = (np.stack(self.history), *self._columns())  # (T (+ 1), runs, ..)
        iterates, indices, residuals, moved = self._arrays
        p = self.rows.shape[1]
        for run in which:
            feasible, last = self.ends[run]
            steps = self.n_iter[run]
            yield RelaxationTrace(
                iterates=frozen(iterates[: steps + 1, run].reshape(-1, p)),
                indices=frozen(indices[:steps, run], dtype=np.int64),
                residuals=frozen(residuals[:steps, run], dtype=np.float64),
                moved=frozen(moved[:steps, run], dtype=bool),
                n_iter=steps,
                feasible=feasible,
                stop_reason=_stop_reason(
                    feasible, steps, int(moved[:steps, run].sum()), self.tol, last
                ),
                eta=float(self.eta[run]),
                rule=rule,
                seed=seed,
                tol=self.tol,
                tau=tau,
            )


def _stop_reason(feasible: bool, n_iter: int, moves: int, tol: float, residuals) -> str:
    if feasible:
        return (
            f"feasible after {n_iter} iteration{'s' if n_iter != 1 else ''} "
            f"({moves} move{'s' if moves != 1 else ''}): every aᵢ·w ≤ cᵢ"
            + (f" + {tol:g}" if tol else "")
            + " (checked exactly, in fractions)"
        )
    worst = int(np.argmax(residuals))
    return (
        f"no feasible point after {n_iter} iterations (largest violation "
        f"{float(residuals[worst]):.3g}, at inequality ({worst + 1}) counting from 1)"
    )


# ---------------------------------------------------------------------------
# The perceptron as a relaxation method (Exercise 1.22, Remark 1.17, Theorem 1.35)
# ---------------------------------------------------------------------------


def perceptron_system(X, y, bias=True, delta=0.0) -> tuple[np.ndarray, np.ndarray]:
    """Perceptron data as a system A^T w <= c (Exercise 1.22, padding of Remark 1.17).

    Column i is a_i = -y_i (x_i, 1) (without a bias: -y_i x_i) and c = -delta·1,
    so a_i·(w, b) <= c_i says y_i (w·x_i + b) >= delta. With delta = 0 this is the
    homogeneous system of Exercise 1.22, the non-strict form of (1.3)
    (w = 0 solves it); any delta > 0 asks for a strict separator (Definition 1.24:
    a scaled separator meets any positive threshold).

    Returns
    -------
    A : ndarray of shape (n_features + 1, n_samples) (n_features rows without a bias)
    c : ndarray of shape (n_samples,)

    Notes
    -----
    The perceptron update on example i is a step of the relaxation method along the
    same direction: w_{t+1} = w_t - a_i = (1 - eta_t) w_t + eta_t P_i(w_t) with
    eta_t = ||a_i||^2 / (a_i·w_t - c_i) (see :func:`perceptron_eta`). So the
    perceptron is Algorithm 1.37 with a fixed step length ||a_i|| instead of a fixed
    relaxation parameter: its eta_t exceeds 2 whenever the violation is below
    ||a_i||^2 / 2, and it also moves when a_i·w_t = c_i exactly (a score equal to
    delta is a mistake), where the projection would not move. With delta = 0 it is the
    iteration w_{t+1} = w_t + eta_t a'_i of Theorem 1.35 with a'_i = -a_i and eta_t = 1
    (a bounded step); the relaxation step with a fixed eta is that iteration with
    eta_t = eta (a_i·w_t - c_i) / ||a_i||^2, which no bound fixed in advance caps, so
    Theorem 1.35 does not cover it.
    """
    X, y = check_dataset(X, y)
    delta = check_number(delta, "delta (threshold)", low=0)
    padded = np.hstack([X, np.ones((X.shape[0], 1))]) if bias else X
    A = -(y[:, None] * padded).T  # column i: a_i = -y_i (x_i, 1)
    return A, np.full(X.shape[0], -delta)


def perceptron_eta(A, c, w, i) -> float:
    """The relaxation parameter eta_t that turns the relaxation step on inequality i
    into the perceptron update w - a_i: ||a_i||^2 / (a_i·w - c_i).

    Infinite when a_i·w = c_i (the perceptron still moves there, the projection
    does not); raises ValueError when inequality i holds strictly (no perceptron
    update happens there). As in run_perceptron, a residual within rounding of 0
    (rounding_slack of ||a_i|| ||w|| + |c_i|) counts as 0.
    """
    A, c = check_system(A, c)
    w = _check_point(w, A.shape[0], "w")
    a = A[:, _check_index(i, A.shape[1])]
    residual = float(a @ w) - c[i]
    slack = rounding_slack(float(np.linalg.norm(a) * np.linalg.norm(w)) + abs(float(c[i])))
    if residual < -slack:
        raise ValueError(
            f"inequality {i} holds strictly at w (a_i·w - c_i = {residual:g}); "
            "the perceptron updates only on a mistake, a_i·w >= c_i."
        )
    return float(a @ a) / residual if residual > slack else float("inf")


# ---------------------------------------------------------------------------
# Exact feasibility in two unknowns (what a page may say: "no solution")
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PlaneSystem:
    """Whether A^T w <= c has a solution, decided exactly (rational arithmetic) for p = 2.

    Attributes
    ----------
    feasible : bool
        Some w satisfies every a_i·w <= c_i (+ ``slack``, exactly: no rounding).
    vertices : ndarray of shape (m, 2)
        The corners of the feasible set (crossings of two boundary lines that satisfy
        every inequality, checked in fractions), each once, rounded to float64 for
        drawing; empty when there is none.
    witness : ndarray of shape (2,) or None
        One feasible point (exact in fractions, then rounded to float64 for drawing).
    reason : str
        A sentence a page can show: how it was decided and, for no solution, which
        inequalities (numbered from 1) contradict.
    """

    feasible: bool
    vertices: np.ndarray
    witness: np.ndarray | None
    reason: str


def exact_value(v) -> Fraction:
    """A float as the decimal it prints as, exactly: Fraction(repr(v)).

    The shortest decimal that reads back as the float, so a typed 0.1 is 1/10 (not the
    float's binary value 3602879701896397/2^55) and a typed 1e-10 is 1/10^10."""
    try:
        value = float(v)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{v!r} is not a number; give a finite float.") from None
    if not np.isfinite(value):
        raise ValueError(f"{value} is not finite; give a finite float.")
    return Fraction(repr(value))


def _decimal_text(value: Fraction, other: Fraction) -> str:
    """``value`` with enough significant digits to tell it from ``other`` (up to 17)."""
    for digits in range(4, 18):
        text, text_other = f"{float(value):.{digits}g}", f"{float(other):.{digits}g}"
        if text != text_other:
            return text
    return str(value)


def _labels(rows) -> str:
    """Inequalities by their numbers from 1, as the page names them: "(1), (2) and (4)"."""
    names = [f"({i + 1})" for i in sorted(set(rows))]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _between(low: Fraction | None, high: Fraction | None) -> Fraction:
    """A point of the interval [low, high] (None: unbounded on that side): the midpoint
    of two bounds, the one bound there is, or 0 when there is none."""
    if low is not None and high is not None:
        return (low + high) / 2
    if low is not None:
        return low
    if high is not None:
        return high
    return Fraction(0)


def plane_system(A, c, slack=0.0) -> PlaneSystem:
    """Decide A^T w <= c for w in R^2 exactly, by Fourier–Motzkin elimination in fractions.

    Every entry is read as the decimal it prints as (:func:`exact_value`), so the
    rows are decided as typed, with no tolerance: w_1 <= 0 and w_1 >= 1e-10 has no
    solution, w_1 <= 0 and w_1 >= 0 has one.

    Elimination of w_2: an inequality with a_2 = 0 is a bound on w_1 alone; one with
    a_2 > 0 is an upper bound w_2 <= (c - a_1 w_1)/a_2 and one with a_2 < 0 a lower
    bound. A w_2 exists for a given w_1 iff every lower bound is at most every upper
    bound: for each pair (p with a_2 > 0, q with a_2 < 0) the positive combination
    (-a_2q)·row_p + a_2p·row_q, an inequality in w_1 alone. The system has a solution
    iff the inequalities in w_1 have one (Fourier 1826, Motzkin 1936), which is an
    interval check. The corners are the crossings of two boundary lines that satisfy
    every inequality, each solved and checked in fractions.

    Parameters
    ----------
    A : ndarray of shape (2, n), one column a_i per inequality (A^T w <= c)
    c : ndarray of shape (n,)
    slack : float >= 0, decide A^T w <= c + slack·1 instead (0: the rows as given)
    """
    A, c = check_system(A, c)
    if A.shape[0] != 2:
        raise ValueError(
            f"plane_system decides systems in 2 unknowns; A has {A.shape[0]} "
            "rows. Give A of shape (2, n)."
        )
    slack = exact_value(check_number(slack, "slack", low=0))
    rows = [
        (exact_value(a1), exact_value(a2), exact_value(ci) + slack)
        for a1, a2, ci in zip(A[0], A[1], c)
    ]
    # the inequalities alpha·w_1 <= beta left after eliminating w_2, with their source rows
    ones: list[tuple[Fraction, Fraction, tuple[int, ...]]] = [
        (a1, ci, (i,)) for i, (a1, a2, ci) in enumerate(rows) if a2 == 0
    ]
    upper = [i for i, r in enumerate(rows) if r[1] > 0]
    lower = [i for i, r in enumerate(rows) if r[1] < 0]
    for p in upper:
        for q in lower:
            (a1p, a2p, cp), (a1q, a2q, cq) = rows[p], rows[q]
            # (-a_2q)(a_p·w <= c_p) + a_2p(a_q·w <= c_q): the w_2 terms cancel
            ones.append((-a2q * a1p + a2p * a1q, -a2q * cp + a2p * cq, (p, q)))
    for alpha, beta, source in ones:
        if alpha == 0 and beta < 0:  # 0·w_1 <= beta < 0: a contradiction
            how = (
                "is 0 ≤ " + _decimal_text(beta, Fraction(0))
                if len(source) == 1
                else "add up (with positive weights) to 0 ≤ " + _decimal_text(beta, Fraction(0))
            )
            return PlaneSystem(
                False,
                frozen(np.zeros((0, 2))),
                None,
                f"decided exactly, in fractions: inequalit"
                f"{'y' if len(source) == 1 else 'ies'} {_labels(source)} {how}, "
                "so no w satisfies them",
            )
    lows = [(beta / alpha, source) for alpha, beta, source in ones if alpha < 0]
    highs = [(beta / alpha, source) for alpha, beta, source in ones if alpha > 0]
    low = max(lows, key=lambda item: item[0]) if lows else None
    high = min(highs, key=lambda item: item[0]) if highs else None
    if low is not None and high is not None and low[0] > high[0]:
        return PlaneSystem(
            False,
            frozen(np.zeros((0, 2))),
            None,
            "decided exactly, in fractions: inequalities "
            f"{_labels(low[1] + high[1])} together imply w₁ ≥ "
            f"{_decimal_text(low[0], high[0])} and w₁ ≤ "
            f"{_decimal_text(high[0], low[0])}, so no w satisfies them",
        )
    # a solution: w_1 in [low, high], then w_2 between its bounds at that w_1
    w1 = _between(None if low is None else low[0], None if high is None else high[0])
    w2_low = max(((ci - a1 * w1) / a2 for a1, a2, ci in rows if a2 < 0), default=None)
    w2_high = min(((ci - a1 * w1) / a2 for a1, a2, ci in rows if a2 > 0), default=None)
    w2 = _between(w2_low, w2_high)
    corners = set()
    for i, j in combinations(range(len(rows)), 2):
        (a1i, a2i, ci), (a1j, a2j, cj) = rows[i], rows[j]
        det = a1i * a2j - a2i * a1j
        if det == 0:
            continue  # parallel boundary lines do not cross
        # Cramer's rule for a_i·w = c_i, a_j·w = c_j
        v = ((ci * a2j - a2i * cj) / det, (a1i * cj - ci * a1j) / det)
        if v not in corners and all(a1 * v[0] + a2 * v[1] <= ck for a1, a2, ck in rows):
            corners.add(v)
    vertices = np.array(sorted((float(x), float(y)) for x, y in corners)).reshape(-1, 2)
    shape = (
        f"{len(corners)} corner{'s' if len(corners) != 1 else ''}"
        if corners
        else "no corner (it contains a whole line)"
    )
    return PlaneSystem(
        True,
        frozen(vertices),
        frozen([float(w1), float(w2)]),
        f"decided exactly, in fractions: the solution set has {shape}",
    )


# ---------------------------------------------------------------------------
# Why a run did not get in: read from what its iterates did
# ---------------------------------------------------------------------------


def distance_to_solutions(A, c, points, system: PlaneSystem | None = None) -> np.ndarray:
    """dist(w, F) for each point w, where F = {v : A^T v <= c} in the plane is not empty.

    The nearest point of a nonempty convex polygon (bounded or not, of any dimension
    0, 1 or 2) to w is w itself when w is in F, else it lies on the boundary: in the
    relative interior of an edge, where it is the projection of w onto that edge's
    line a_i·v = c_i, or at a corner. So dist(w, F) is the least ‖w - z‖ over the
    candidates z = w (kept when it satisfies every inequality exactly, in fractions of the
    decimals typed: :class:`ExactSides`), the projections P_i(w) onto every boundary line
    and the corners (kept when they satisfy every inequality up to rounding: 1e-9
    relative to max(1, |c_i|, ‖a_i‖‖z‖)), and never less than max_i (a_i·w - c_i)^+ / ‖a_i‖
    (the distance to the half-plane w violates most, decided exactly): a point outside has
    a distance above 0 even when its nearest boundary point rounds to the point itself.

    Parameters
    ----------
    A : ndarray of shape (2, n); c : ndarray of shape (n,)
    points : ndarray of shape (m, 2)
    system : the :func:`plane_system` of (A, c), if already computed

    Returns
    -------
    ndarray of shape (m,)
    """
    A, c = check_system(A, c)
    system = plane_system(A, c) if system is None else system
    if not isinstance(system, PlaneSystem):
        raise ValueError("system must be plane_system(A, c) or None.")
    if not system.feasible:
        raise ValueError(
            "the system has no solution, so there is no distance to it; "
            "check plane_system(A, c).feasible first."
        )
    try:
        W = np.array(points, dtype=np.float64).reshape(-1, 2)
    except (TypeError, ValueError, OverflowError):
        raise ValueError("points must be a numeric array of shape (m, 2).") from None
    if not np.isfinite(W).all():
        raise ValueError("points must be finite, shape (m, 2).")
    sq = np.einsum("ij,ij->j", A, A)
    # projections onto every line a_i·v = c_i: z = w - (a_i·w - c_i)/‖a_i‖² a_i, (m, n, 2)
    on_lines = W[:, None, :] - ((W @ A - c) / sq)[:, :, None] * A.T[None, :, :]
    corners = np.broadcast_to(system.vertices[None, :, :], (W.shape[0], *system.vertices.shape))
    candidates = np.concatenate([W[:, None, :], on_lines, corners], axis=1)  # (m, K, 2)
    norms = np.linalg.norm(A, axis=0)
    excess = candidates @ A - c  # (m, K, n)
    scale = np.maximum(
        1.0, np.maximum(np.abs(c), norms * np.linalg.norm(candidates, axis=2)[:, :, None])
    )
    inside = np.all(excess <= 1e-9 * scale, axis=2)
    sides = ExactSides(np.ascontiguousarray(A.T), c, 0.0, 1.0)
    inside[:, 0] = [sides.residuals(w).max() <= 0 for w in W]  # w itself: only if truly in
    gaps = np.linalg.norm(candidates - W[:, None, :], axis=2)
    distance = np.where(inside, gaps, np.inf).min(axis=1)
    # a point outside is at least as far as from the half-plane it violates most (a_i·w - c_i
    # on its exact side, over ||a_i||): never 0, even when its projection rounds to itself
    exact = np.array([np.maximum(sides.residuals(w), 0.0) for w in W]).reshape(len(W), -1)
    return np.maximum(distance, (exact / norms).max(axis=1))


@dataclass(frozen=True)
class MissBehaviour:
    """What the iterates of a run that never got in did over its second half.

    Attributes
    ----------
    kind : str
        "never": the system has a solution, the tolerance is 0 and eta < 1, so no move can
        end inside (its own inequality keeps (1 - eta) times its violation, exactly): the
        run cannot get in however long it runs; "rounding": the system has a solution and
        at the end w is within ROUNDING_DISTANCE·max(1, ‖w‖, max|c_i|) of it, closer than
        float64 steps can resolve (with tolerance 0 such a run may never count as in);
        "approaching": the system has a solution and the distance from w to the
        solutions kept falling over the last half of the run (it never rises: for
        0 < η <= 2 every step is at least as close to every solution, the Fejér
        property of Agmon 1954); "circling": the system has a solution and that
        distance did not fall over the last half; "diverging": no solution, and
        ‖w‖ over the last quarter rose above 1.5 times its largest value in the
        first half; "bounded": no solution, ‖w‖ did not grow so.
    before, after : float
        "never", "rounding", "approaching", "circling": the distance at the middle
        iteration and at the end; "diverging"/"bounded": the largest ‖w‖ over the first
        half and over the last quarter.
    period : int or None
        For the deterministic rules (cyclic, maximal distance, maximal residual): the
        least P <= 1000 (a multiple of n for the cyclic rule) with w_T = w_{T-P} =
        w_{T-2P} bit for bit, at least one move in between: the next iterate depends
        only on w (and on t mod n for the cyclic rule), so the iterates repeat every P
        iterations for ever. None otherwise.
    violation : float
        The largest a_i·w - c_i at the end, on its exact side of the tolerance (the run
        is outside: above the tolerance).
    drift : tuple or None
        For a deterministic rule: (P, v) when the last three periods of P iterations each
        moved w by the same vector v != 0 (to 1e-9 of its length), P <= 1000 as above;
        None otherwise.
    """

    kind: str
    before: float
    after: float
    period: int | None
    violation: float = 0.0
    drift: tuple | None = None


#: relative fall of the distance over the last half that counts as still approaching
#: (far above the rounding of a distance, 1e-16 relative)
APPROACH_FALL = 1e-9
#: a distance to the solutions below this times max(1, ‖w‖, max|c_i|) is within the
#: rounding of the steps (float64 keeps about 16 digits; the steps lose a few)
ROUNDING_DISTANCE = 1e-12
#: deterministic rules: the next iterate depends only on w (and t mod n when cyclic)
DETERMINISTIC_RULES = ("cyclic", "max_distance", "max_residual")


def _repeats(trace: RelaxationTrace, n: int) -> tuple[int | None, tuple | None]:
    """(period, drift) of a deterministic rule's run (see MissBehaviour), else (None, None).
    Every candidate P is checked at once: w_T - w_{T-P}, w_{T-P} - w_{T-2P} and
    w_{T-2P} - w_{T-3P} for all P."""
    if trace.rule not in DETERMINISTIC_RULES:
        return None, None
    W, moved = trace.iterates, trace.moved
    T = W.shape[0] - 1
    step = n if trace.rule == "cyclic" else 1
    P = np.arange(step, min(1000, T // 3) + 1, step)
    if not P.size:
        return None, None
    # a move among the last P iterations (the last move's distance from the end)
    last_move = np.flatnonzero(moved)
    recent = P >= (T - last_move[-1]) if last_move.size else np.zeros(P.size, bool)
    last, back1, back2, back3 = W[T], W[T - P], W[T - 2 * P], W[T - 3 * P]
    same = recent & np.all(back1 == last, axis=1) & np.all(back2 == last, axis=1)
    shift = last - back1
    size = np.linalg.norm(shift, axis=1)
    steady = (
        recent
        & (size > 0)
        & (np.linalg.norm(back1 - back2 - shift, axis=1) <= 1e-9 * size)
        & (np.linalg.norm(back2 - back3 - shift, axis=1) <= 1e-9 * size)
    )
    period = int(P[np.argmax(same)]) if same.any() else None
    k = int(np.argmax(steady))
    drift = (int(P[k]), tuple(float(v) for v in shift[k])) if steady.any() else None
    return period, drift


def miss_behaviour(
    A, c, trace: RelaxationTrace, system: PlaneSystem | None = None
) -> MissBehaviour:
    """Classify a run of Algorithm 1.37 in the plane that did not reach feasibility.

    Parameters
    ----------
    A : ndarray of shape (2, n); c : ndarray of shape (n,); the system of the run
    trace : RelaxationTrace of :func:`relaxation` on (A, c), not feasible
    system : the :func:`plane_system` of (A, c), if already computed

    Returns
    -------
    MissBehaviour (see its attributes for the rules)
    """
    A, c = check_system(A, c)
    if not isinstance(trace, RelaxationTrace) or trace.iterates.shape[1] != A.shape[0]:
        raise ValueError("trace must be the RelaxationTrace of relaxation(A, c, ...).")
    if trace.feasible:
        raise ValueError("the run reached feasibility; there is no miss to explain.")
    if system is not None and not isinstance(system, PlaneSystem):
        raise ValueError("system must be plane_system(A, c) or None.")
    W = trace.iterates
    T = W.shape[0] - 1
    period, drift = _repeats(trace, A.shape[1])
    violation = float(
        ExactSides(np.ascontiguousarray(A.T), c, trace.tol, trace.eta).residuals(W[-1]).max()
    )
    system = plane_system(A, c) if system is None else system
    if system.feasible:
        before, after = distance_to_solutions(A, c, W[[T // 2, T]], system)
        if trace.tol == 0 and trace.eta < 1:
            kind = "never"  # every move leaves its own inequality violated, exactly
        elif after <= ROUNDING_DISTANCE * max(
            1.0, float(np.linalg.norm(W[-1])), float(np.abs(c).max())
        ):
            kind = "rounding"  # as close as float64 can tell at this scale
        else:
            kind = "approaching" if after < before * (1 - APPROACH_FALL) else "circling"
        return MissBehaviour(
            kind,
            float(before),
            float(after),
            period if kind in ("circling", "never") else None,
            violation,
            None,
        )
    norms = np.linalg.norm(W, axis=1)
    first, late = float(norms[: T // 2 + 1].max()), float(norms[(3 * T) // 4 :].max())
    return MissBehaviour(
        "diverging" if late > 1.5 * first else "bounded", first, late, period, violation, drift
    )
