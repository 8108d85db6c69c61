"""The two constructions that show the perceptron's limits and its optimality.

* Remark 1.19 (notes-perceptron-yu.txt): with y_t = +1 and x_t = -2x when t is
  a power of two, x otherwise (||x|| = 1), the mistake-driven perceptron stops
  after two mistakes, while the aggressive rule (update on every example) errs
  again at every power of two, forever. Convention: t starts at 1, and t = 1 =
  2^0 counts as a power of two, so x_1 = -2x. The computations use x = 1 in
  one dimension: every quantity the remark uses is an inner product with x.
* Exercise 1.20: a separable sequence on which the aggressive rule errs on
  every single example.
* Theorem 1.34: an adversary that forces any deterministic learner to err n =
  min(floor(1/gamma^2), d) times on e_1, ..., e_n, with margin gamma.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

import numpy as np

from ._checks import check_number, frozen

#: most time indices t accepted at once by the Remark 1.19 functions, and largest t
MAX_TIMES = 10_000_000
MAX_T = 10**15
#: largest dimension of the adversary's game (the examples e_1..e_n fill an n x d matrix)
MAX_ADVERSARY_DIM = 1_000
#: most predictions a ScriptedLearner holds (a game has at most d rounds)
MAX_SCRIPT = MAX_ADVERSARY_DIM


def _check_times(t, name: str = "t", low: int = 1) -> np.ndarray:
    """Whole numbers in [low, 10^15], at most 10^7 of them, as an int64 array."""
    try:
        values = np.asarray(t)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{name} must be whole numbers >= {low}.") from None
    if values.size > MAX_TIMES:
        raise ValueError(f"{values.size} values of {name} is too many; give at most {MAX_TIMES}.")
    if values.dtype == object or values.dtype.kind not in "iuf" or values.dtype.kind == "b":
        flat = values.ravel().tolist()
        for item in flat:
            check_number(item, name, low=low, high=MAX_T, integer=True)
        return np.array(flat, dtype=np.int64).reshape(values.shape)
    if values.dtype.kind == "f":
        if not np.all(np.isfinite(values)) or not np.all(values == np.round(values)):
            raise ValueError(f"{name} must be whole numbers, got non-integer or non-finite values.")
    if values.size and (values.min() < low or values.max() > MAX_T):
        raise ValueError(f"{name} must lie in {low}..{MAX_T}.")
    return values.astype(np.int64)


# ---------------------------------------------------------------------------
# Remark 1.19: aggressive updates never stop
# ---------------------------------------------------------------------------


def _is_power_of_two(t: np.ndarray) -> np.ndarray:
    t = np.asarray(t, dtype=np.int64)
    return (t > 0) & ((t & (t - 1)) == 0)


def _powers_up_to(t: np.ndarray) -> np.ndarray:
    """P(t): how many powers of two lie in 1..t (floor(log2 t) + 1 for t >= 1)."""
    t = np.asarray(t, dtype=np.int64)
    out = np.zeros_like(t)
    positive = t >= 1
    out[positive] = _bit_length(t[positive])  # exact integer log2 + 1
    return out


def _bit_length(t: np.ndarray) -> np.ndarray:
    length = np.zeros_like(t)
    remaining = t.copy()
    while np.any(remaining > 0):
        length += remaining > 0
        remaining >>= 1
    return length


def counterexample_x(t) -> np.ndarray:
    """x_t of Remark 1.19 in one dimension: -2 if t is a power of two, else 1.

    ``t``: whole number(s) in 1..10^15 (at most 10^7 of them).
    """
    return np.where(_is_power_of_two(_check_times(t)), -2.0, 1.0)


def aggressive_sum(t) -> np.ndarray:
    """sum_{i <= t} x_i = t - 3 P(t) in closed form (each power of two swaps 1 for -2)."""
    t = _check_times(t, low=0)
    return (t - 3 * _powers_up_to(t)).astype(np.float64)


def aggressive_score(t) -> np.ndarray:
    """<w_{t-1}, a_t> for the aggressive rule: x_t · sum_{i<t} x_i + (t - 1).

    The aggressive weight after t - 1 steps is sum_{i<t} (x_i, 1) (w_0 = 0), and
    a_t = (x_t, 1) since y_t = +1. A mistake is a score <= 0 (delta = 0).
    """
    t = _check_times(t)
    return counterexample_x(t) * aggressive_sum(t - 1) + (t - 1)


def running_average_product(t) -> np.ndarray:
    """<x̄_t, x_{t+1}> with x̄_t = (1/t) sum_{i<=t} x_i; the aggressive rule errs at t+1
    exactly when this is <= -1 (Remark 1.19)."""
    t = _check_times(t)
    return aggressive_sum(t) / t * counterexample_x(t + 1)


@dataclass(frozen=True)
class AggressiveCounterexample:
    """Mistake times (1-based t) of both rules on the sequence of Remark 1.19.

    Attributes
    ----------
    T : int, length of the sequence
    mistakes_standard : ndarray of int, the t at which the mistake-driven rule erred
    mistakes_aggressive : ndarray of int, the t at which the aggressive rule erred
    t_grid : ndarray of int, every t <= min(T, 64) and every power of two and its
        neighbours up to T: where the running average is reported
    average_products : ndarray, <x̄_t, x_{t+1}> on t_grid
    standard_w, standard_b : final weight and bias of the mistake-driven rule (x = 1 in 1-D)
    """

    T: int
    mistakes_standard: np.ndarray
    mistakes_aggressive: np.ndarray
    t_grid: np.ndarray
    average_products: np.ndarray
    standard_w: float
    standard_b: float

    def cumulative(self, t, rule: str = "aggressive") -> np.ndarray:
        """Mistakes made up to and including each t in ``t``."""
        if rule not in ("aggressive", "standard"):
            raise ValueError(f"rule must be 'aggressive' or 'standard', got {rule!r:.40}.")
        times = self.mistakes_aggressive if rule == "aggressive" else self.mistakes_standard
        return np.searchsorted(times, _check_times(t, low=0), side="right")


def aggressive_counterexample(T: int = 4096) -> AggressiveCounterexample:
    """Both rules on x_t = -2x (t a power of two) else x, y_t = +1, w_0 = 0, delta = 0.

    Parameters
    ----------
    T : int, 1 <= T <= 10^9

    Returns
    -------
    AggressiveCounterexample
        Mistake-driven rule: simulated until both distinct examples are
        classified correctly (after that it never changes). Aggressive rule:
        from the closed form sum_{i<=t} x_i = t - 3 P(t), so no loop over t.
    """
    T = check_number(T, "T (length of the sequence)", low=1, high=10**9, integer=True)
    # mistake-driven rule on a_t = (x_t, 1): only two distinct examples occur
    w, b, t, mistakes = 0.0, 0.0, 1, []
    while t <= T:
        x = -2.0 if t & (t - 1) == 0 else 1.0
        if x * w + b <= 0:  # mistake: y (w·x + b) <= 0, move (w, b) toward (x, 1)
            w, b = w + x, b + 1.0
            mistakes.append(t)
        if -2.0 * w + b > 0 and w + b > 0:
            break  # both examples correct: no update will ever happen again
        t += 1
    # aggressive rule: a mistake at t iff aggressive_score(t) <= 0. Away from
    # the powers of two the score is 2(t-1) - 3P(t-1) > 0 once t > 8, so only
    # small t and the powers of two need checking.
    small = np.arange(1, min(T, 64) + 1)
    powers = 2 ** np.arange(int(T).bit_length())
    powers = powers[powers <= T]
    candidates = np.union1d(small, powers)
    aggressive = candidates[aggressive_score(candidates) <= 0]
    grid = np.union1d(small, np.concatenate([powers - 1, powers, powers + 1]))
    grid = grid[(grid >= 1) & (grid <= T)]
    return AggressiveCounterexample(
        T=T,
        mistakes_standard=frozen(mistakes, dtype=np.int64),
        mistakes_aggressive=frozen(aggressive, dtype=np.int64),
        t_grid=frozen(grid),
        average_products=frozen(running_average_product(grid)),
        standard_w=w,
        standard_b=b,
    )


@dataclass(frozen=True)
class AlwaysWrongSequence:
    """Exercise 1.20: x_t = (-1)^(t-1) (2t - 1) in 1-D, y_t = +1.

    The aggressive weight after t steps is sum_{i<=t} x_i = (-1)^(t+1) t with bias
    t, so the score of example t+1 is x_{t+1} (-1)^(t+1) t + t = -2t^2 < 0 (and 0
    at t = 1): a mistake every time. Still separable: w = 0, b = 1 gives
    y (w x + b) = 1 for every example. The x_t are unbounded, and must be:
    with |x_t| <= B, the argument of Theorem 1.28 (every step is a mistake,
    so the aggressive rule is the perceptron) caps the run of mistakes at
    B^2 + 1 steps.
    """

    x: np.ndarray
    y: np.ndarray
    scores: np.ndarray
    mistakes: np.ndarray
    separator: tuple[float, float]


def always_wrong_sequence(T: int = 20) -> AlwaysWrongSequence:
    """The first T examples of the Exercise 1.20 sequence, with the aggressive scores."""
    T = check_number(T, "T (length of the sequence)", low=1, high=10**6, integer=True)
    t = np.arange(1, T + 1)
    x = np.where(t % 2 == 1, 1.0, -1.0) * (2 * t - 1)
    y = np.ones(T)
    sums_before = np.concatenate([[0.0], np.cumsum(x)[:-1]])
    scores = x * sums_before + (t - 1)  # <(sum_{i<t} x_i, t-1), (x_t, 1)>
    return AlwaysWrongSequence(
        x=frozen(x),
        y=frozen(y),
        scores=frozen(scores),
        mistakes=frozen(scores <= 0),
        separator=(0.0, 1.0),
    )


# ---------------------------------------------------------------------------
# Theorem 1.34: the adversarial lower bound
# ---------------------------------------------------------------------------


class Learner(Protocol):
    """Anything that predicts ±1 for x and learns from (x, y)."""

    def predict(self, x: np.ndarray) -> int: ...

    def update(self, x: np.ndarray, y: int) -> None: ...


def _sign(score: float) -> int:
    """sign with sign(0) = -1 (Definition 1.12)."""
    return 1 if score > 0 else -1


class PerceptronLearner:
    """Algorithm 1.16 through the origin: predict sign(w·x), update w += y x on a mistake."""

    def __init__(self, dim: int, aggressive: bool = False):
        self.w = np.zeros(dim)
        self.aggressive = aggressive

    def predict(self, x):
        return _sign(float(self.w @ x))

    def update(self, x, y):
        if self.aggressive or y * float(self.w @ x) <= 0:
            self.w = self.w + y * x


class AlwaysPositive:
    """Predicts +1 whatever it sees."""

    def __init__(self, dim: int):
        pass

    def predict(self, x):
        return 1

    def update(self, x, y):
        pass


class Majority:
    """Predicts the label seen most often so far (+1 on a tie)."""

    def __init__(self, dim: int):
        self.total = 0

    def predict(self, x):
        return 1 if self.total >= 0 else -1

    def update(self, x, y):
        self.total += y


class NearestNeighbour:
    """Predicts the label of the closest example seen so far (earliest on a tie; +1 first)."""

    def __init__(self, dim: int):
        self.seen = np.empty((16, dim))  # rows 0..count-1 hold the examples seen so far
        self.labels: list[int] = []

    def predict(self, x):
        count = len(self.labels)
        if not count:
            return 1
        # squared distance to every example seen; argmin keeps the earliest on a tie
        distances = np.sum((x - self.seen[:count]) ** 2, axis=1)
        return self.labels[int(np.argmin(distances))]

    def update(self, x, y):
        count = len(self.labels)
        if count == self.seen.shape[0]:
            self.seen = np.vstack([self.seen, np.empty_like(self.seen)])
        self.seen[count] = x
        self.labels.append(int(y))


class ScriptedLearner:
    """Replays fixed predictions: lets a page make the student the learner."""

    def __init__(self, predictions):
        if isinstance(predictions, (str, bytes)) or not hasattr(predictions, "__len__"):
            raise ValueError("predictions must be a list of -1 / +1, one per round.")
        if len(predictions) > MAX_SCRIPT:
            raise ValueError(
                f"{len(predictions)} predictions is too many; a game has at most "
                f"{MAX_SCRIPT} rounds."
            )
        checked = []
        for k, p in enumerate(predictions):
            if (
                isinstance(p, (bool, np.bool_))
                or not isinstance(p, (int, np.integer, float, np.floating))
                or p not in (-1, 1)
            ):
                raise ValueError(
                    f"the script predicted {p!r:.40} in round {k + 1}; predictions "
                    "must be -1 or +1."
                )
            checked.append(int(p))
        self.predictions = checked
        self.round = 0

    def predict(self, x):
        if self.round >= len(self.predictions):
            raise ValueError("the scripted learner has no prediction left for this round.")
        return self.predictions[self.round]

    def update(self, x, y):
        self.round += 1


#: learner name -> factory taking the dimension
LEARNERS: dict[str, Callable[[int], Learner]] = {
    "perceptron": lambda dim: PerceptronLearner(dim),
    "aggressive": lambda dim: PerceptronLearner(dim, aggressive=True),
    "always_positive": AlwaysPositive,
    "majority": Majority,
    "nearest_neighbor": NearestNeighbour,
}


def typed_decimal(value: float) -> Fraction:
    """The decimal a float stands for: the shortest decimal that rounds to it (Python's repr),
    as an exact fraction. 0.1 is read as 1/10, the number a student types, not as the
    binary float 0.1000000000000000055...; every float is its own shortest decimal's
    nearest float, so nothing is lost."""
    return Fraction(repr(float(value)))


def adversary_size(gamma: float, dim: int) -> int:
    """n = min(floor(1/gamma^2), d): the largest n with n gamma^2 <= 1, capped at d.

    Decided in exact rational arithmetic on the decimal gamma was typed as
    (:func:`typed_decimal`): gamma = 0.1 gives n = 100 because 100 · (1/10)^2 = 1
    exactly (in floating point 1/0.1^2 evaluates to 99.999...).
    """
    gamma = check_number(gamma, "gamma (margin)", low=0, high=1, low_open=True)
    dim = check_number(dim, "d (dimension)", low=1, integer=True)
    exact = typed_decimal(gamma)
    rounds = exact.denominator**2 // exact.numerator**2  # floor(1 / gamma^2), exactly
    return max(1, min(rounds, dim))


@dataclass(frozen=True)
class AdversaryResult:
    """The dataset the adversary built and what the learner did on it.

    X : ndarray of shape (n, d), rows e_1..e_n; y : labels, each the opposite
    of the prediction; predictions : the learner's predictions; n_mistakes : n;
    certificate : w* = gamma·y padded with zeros to d; certificate_norm :
    ||w*|| = gamma sqrt(n) <= 1 (float); certificate_margin : min_i y_i <e_i, w*> = gamma;
    norm_squared : ||w*||^2 = n gamma^2 <= 1 exactly, gamma read as typed
    (:func:`typed_decimal`).
    """

    X: np.ndarray
    y: np.ndarray
    predictions: np.ndarray
    n_mistakes: int
    certificate: np.ndarray
    certificate_norm: float
    certificate_margin: float
    gamma: float
    learner: str
    norm_squared: Fraction = Fraction(0)


def adversarial_lower_bound(
    gamma: float = 0.2, dim: int = 50, learner="perceptron"
) -> AdversaryResult:
    """Theorem 1.34: force n = min(floor(1/gamma^2), d) mistakes with margin gamma.

    Parameters
    ----------
    gamma : float in (0, 1]
    dim : int, 1 <= dim <= 1000 (MAX_ADVERSARY_DIM: the game fills an n x d matrix and
        the nearest-neighbour learner compares every pair of rounds)
    learner : str (a key of :data:`LEARNERS`) or object with predict(x) -> ±1
        and update(x, y)

    Returns
    -------
    AdversaryResult
        Round i shows e_i; the label is -prediction, so every round is a mistake.
        The certificate w* = gamma·y has norm gamma·sqrt(n) <= 1 and margin
        exactly gamma on every example.
    """
    n = adversary_size(gamma, dim)
    gamma = check_number(gamma, "gamma (margin)", low=0, high=1, low_open=True)
    dim = check_number(dim, "d (dimension)", low=1, high=MAX_ADVERSARY_DIM, integer=True)
    if isinstance(learner, str):
        if learner not in LEARNERS:
            raise ValueError(
                f"unknown learner {learner!r}; choose one of: {', '.join(LEARNERS)}, "
                "or pass an object with predict(x) and update(x, y)."
            )
        name, model = learner, LEARNERS[learner](dim)
    elif callable(getattr(learner, "predict", None)) and callable(getattr(learner, "update", None)):
        name, model = type(learner).__name__, learner
    else:
        raise ValueError("learner must be a name or an object with predict(x) and update(x, y).")
    X = np.eye(n, dim)
    predictions = np.zeros(n, dtype=np.int64)
    for i in range(n):
        guess = model.predict(X[i].copy())
        if guess not in (-1, 1):
            raise ValueError(
                f"the learner predicted {guess!r} in round {i + 1}; predictions must be -1 or +1."
            )
        predictions[i] = guess
        model.update(X[i].copy(), -int(guess))  # nature answers the opposite label
    y = -predictions
    certificate = np.zeros(dim)
    certificate[:n] = gamma * y
    norm = float(np.linalg.norm(certificate))
    margin = float(np.min(y * (X @ certificate)))  # each y_i · gamma y_i = gamma, exactly
    norm_squared = n * typed_decimal(gamma) ** 2  # ||w*||^2 = n gamma^2, exactly
    if norm_squared > 1 or margin != gamma:
        raise AssertionError("certificate check failed")  # cannot happen: n gamma^2 <= 1
    return AdversaryResult(
        X=frozen(X),
        y=frozen(y),
        predictions=frozen(predictions),
        n_mistakes=int(np.sum(predictions != y)),
        certificate=frozen(certificate),
        certificate_norm=norm,
        certificate_margin=margin,
        gamma=float(gamma),
        learner=name,
        norm_squared=norm_squared,
    )
