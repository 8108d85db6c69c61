"""More than two classes with binary perceptrons: Remark 1.36 of notes-perceptron-yu.txt.

Exercise 1.5 identifies a rule h : R^d -> {1, ..., k} with the k sets
{x : h(x) = j}, which cover R^d without overlapping. The two reductions below
build such a rule from binary perceptrons (each one a :func:`run_perceptron`):

* one-vs-all: perceptron j learns "class j" (+1) against every other class (-1),
  and x goes to the winner argmax_j w_j·x + b_j. Each binary problem is
  imbalanced: the share of negatives is 1 - n_j / n (about (k-1)/k).
* one-vs-one: perceptron (j, j') learns class j (+1) against class j' (-1) on
  the examples of those two classes only, k(k-1)/2 of them; x goes to the class
  with the most votes, a vote for j when w_{j,j'}·x + b_{j,j'} > 0 and for j'
  when it is <= 0 (the sign(0) = -1 convention).

Ties: the notes break them "arbitrarily"; here the class listed first in
``classes`` (sorted labels) wins, and ``predict_with_ties`` reports where a
tie happened so a page can colour those points apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

from ._checks import check_features, check_one_per_row, frozen
from .perceptron import Trace
from .stacked import run_perceptrons


def check_class_labels(
    labels, n_samples: int, name: str = "labels"
) -> tuple[np.ndarray, np.ndarray]:
    """Check multiclass labels: shape (n_samples,), no NaN, at least two classes.

    Labels may be any sortable values (numbers or strings). Returns
    ``(classes, codes)``: the sorted distinct labels (k,) and each example's
    position in ``classes`` (n_samples,).
    """
    arr = np.asarray(labels)
    check_one_per_row(arr, n_samples, name, "entries")
    if arr.dtype.kind == "f" and not np.isfinite(arr).all():
        first = int(np.flatnonzero(~np.isfinite(arr))[0])
        raise ValueError(f"{name}[{first}] is NaN or infinite; give every row a class label.")
    try:
        classes, codes = np.unique(arr, return_inverse=True)
    except TypeError:
        raise ValueError(
            f"{name} mix types that cannot be sorted; use numbers or strings for every label."
        ) from None
    if classes.size < 2:
        raise ValueError(
            f"{name} hold only one class ({classes[0]!r}); a classifier needs at least two classes."
        )
    return classes, codes.reshape(-1).astype(np.int64)


def _check_new_features(X_new, n_features: int) -> np.ndarray:
    X_new = check_features(X_new, name="X_new")
    if X_new.shape[1] != n_features:
        raise ValueError(
            f"X_new has {X_new.shape[1]} features but the model was trained on "
            f"{n_features}; give points of shape (m, {n_features})."
        )
    return X_new


def _winner_and_ties(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Column of the row maximum (first column among equals) and whether it was shared."""
    best = table.max(axis=1, keepdims=True)
    at_best = table == best
    return np.argmax(at_best, axis=1), at_best.sum(axis=1) > 1


class _BinaryRuns:
    """What one-vs-all and one-vs-one share: one binary perceptron per row of ``weights``."""

    # declared for the type checker only: a plain class's annotations are not dataclass
    # fields, so the subclasses' fields and their order are unchanged
    weights: np.ndarray
    n_updates: np.ndarray

    @property
    def n_perceptrons(self) -> int:
        """Number of binary perceptrons: k (one-vs-all) or k(k-1)/2 (one-vs-one)."""
        return int(self.weights.shape[0])

    @property
    def total_updates(self) -> int:
        """Updates made by all the binary perceptrons together."""
        return int(self.n_updates.sum())


@dataclass(frozen=True)
class OneVsAll(_BinaryRuns):
    """k perceptrons, class j (+1) against the rest (-1); Remark 1.36.

    Attributes
    ----------
    classes : ndarray of shape (k,)
        The distinct labels, sorted; row j of every array belongs to classes[j].
    weights : ndarray of shape (k, n_features)
        Final w_j of each binary perceptron.
    biases : ndarray of shape (k,)
        Final b_j.
    n_updates : ndarray of shape (k,)
        Updates each binary perceptron made.
    converged : ndarray of shape (k,) of bool
        Whether binary problem j was separated (else it stopped at a limit).
    imbalance : ndarray of shape (k,)
        Share of negatives in binary problem j, 1 - n_j / n (the notes' warning).
    traces : tuple of k :class:`Trace`
        The full record of each binary run (indices refer to rows of X).
    """

    classes: np.ndarray
    weights: np.ndarray
    biases: np.ndarray
    n_updates: np.ndarray
    converged: np.ndarray
    imbalance: np.ndarray
    traces: tuple[Trace, ...]

    def scores(self, X_new) -> np.ndarray:
        """w_j·x + b_j for every point and class, shape (m, k) (region colouring)."""
        X_new = _check_new_features(X_new, self.weights.shape[1])
        return X_new @ self.weights.T + self.biases

    def predict_with_ties(self, X_new) -> tuple[np.ndarray, np.ndarray]:
        """Labels argmax_j w_j·x + b_j (m,) and a mask (m,) of points where the maximum is shared.

        A shared maximum goes to the class listed first in ``classes``.
        """
        winner, tie = _winner_and_ties(self.scores(X_new))
        return self.classes[winner], tie

    def predict(self, X_new) -> np.ndarray:
        """The winner's label for each row of X_new, shape (m,) (Remark 1.36)."""
        return self.predict_with_ties(X_new)[0]


@dataclass(frozen=True)
class OneVsOne(_BinaryRuns):
    """k(k-1)/2 perceptrons, class j (+1) against class j' (-1); Remark 1.36.

    Attributes
    ----------
    classes : ndarray of shape (k,)
        The distinct labels, sorted.
    pairs : ndarray of shape (k(k-1)/2, 2)
        (j, j') labels of each binary problem, j before j' in ``classes``; j is +1.
    pair_codes : ndarray of shape (k(k-1)/2, 2)
        The same pairs as positions in ``classes``.
    weights : ndarray of shape (k(k-1)/2, n_features)
    biases : ndarray of shape (k(k-1)/2,)
    n_updates : ndarray of shape (k(k-1)/2,)
    converged : ndarray of shape (k(k-1)/2,) of bool
    imbalance : ndarray of shape (k(k-1)/2,)
        Share of negatives (class j') among the pair's examples.
    subsets : tuple of ndarray
        Rows of X each binary problem trained on (its trace indexes into these).
    traces : tuple of :class:`Trace`
    """

    classes: np.ndarray
    pairs: np.ndarray
    pair_codes: np.ndarray
    weights: np.ndarray
    biases: np.ndarray
    n_updates: np.ndarray
    converged: np.ndarray
    imbalance: np.ndarray
    subsets: tuple[np.ndarray, ...]
    traces: tuple[Trace, ...]

    def votes(self, X_new) -> np.ndarray:
        """Votes of each class at each point, shape (m, k), summing to k(k-1)/2 per row.

        Pair (j, j') votes j when w_{j,j'}·x + b_{j,j'} > 0 and j' when it is <= 0.
        """
        X_new = _check_new_features(X_new, self.weights.shape[1])
        positive = (X_new @ self.weights.T + self.biases) > 0  # (m, pairs)
        counts = np.zeros((X_new.shape[0], self.classes.shape[0]), dtype=np.int64)
        for column, (j, j_other) in enumerate(self.pair_codes):
            counts[:, j] += positive[:, column]
            counts[:, j_other] += ~positive[:, column]
        return counts

    def predict_with_ties(self, X_new) -> tuple[np.ndarray, np.ndarray]:
        """Labels with the most votes (m,) and a mask (m,) of points where the top count is shared.

        A shared top count goes to the class listed first in ``classes`` (the
        notes leave the choice open).
        """
        winner, tie = _winner_and_ties(self.votes(X_new))
        return self.classes[winner], tie

    def predict(self, X_new) -> np.ndarray:
        """The label with the most votes for each row of X_new, shape (m,)."""
        return self.predict_with_ties(X_new)[0]


def _binary_runs(X, problems, bias, order, seed, max_updates, max_epochs):
    """Run one perceptron per (rows, ±1 labels) problem, all at once (each the run
    ``run_perceptron(X[rows], y, ...)`` makes: :func:`~perceptron_core.stacked.run_perceptrons`);
    stack the final w, b."""
    traces = run_perceptrons(
        X,
        problems,
        bias=bias,
        order=order,
        seed=seed,
        max_updates=max_updates,
        max_epochs=max_epochs,
    )
    return (
        traces,
        frozen(np.array([t.w for t in traces])),
        frozen(np.array([t.b for t in traces], dtype=np.float64)),
        frozen(np.array([t.n_updates for t in traces], dtype=np.int64)),
        frozen(np.array([t.converged for t in traces], dtype=bool)),
    )


def one_vs_all(
    X, labels, bias=True, order="cyclic", seed=None, max_updates=100_000, max_epochs=1_000
) -> OneVsAll:
    """One-vs-all reduction (Remark 1.36): one perceptron per class against the rest.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    labels : array of shape (n_samples,)
        Any sortable class labels (at least two distinct values).
    bias, order, seed, max_updates, max_epochs
        Passed to every binary :func:`run_perceptron` (the same seed for each;
        the limits apply to each binary problem).

    Returns
    -------
    OneVsAll
        Predicts argmax_j w_j·x + b_j.
    """
    X = check_features(X)
    classes, codes = check_class_labels(labels, X.shape[0])
    everyone = np.arange(X.shape[0])
    # binary problem j: class j is +1, all others -1
    problems = [(everyone, np.where(codes == j, 1, -1)) for j in range(classes.size)]
    traces, weights, biases, n_updates, converged = _binary_runs(
        X, problems, bias, order, seed, max_updates, max_epochs
    )
    negatives = np.array([np.mean(codes != j) for j in range(classes.size)])
    return OneVsAll(
        classes=frozen(classes),
        weights=weights,
        biases=biases,
        n_updates=n_updates,
        converged=converged,
        imbalance=frozen(negatives),
        traces=traces,
    )


def one_vs_one(
    X, labels, bias=True, order="cyclic", seed=None, max_updates=100_000, max_epochs=1_000
) -> OneVsOne:
    """One-vs-one reduction (Remark 1.36): a perceptron for every pair of classes.

    Parameters
    ----------
    X, labels, bias, order, seed, max_updates, max_epochs
        As in :func:`one_vs_all`. Pair (j, j') trains on the rows of classes j
        and j' in their order in X, class j as +1.

    Returns
    -------
    OneVsOne
        Predicts the class with the most votes (ties: first in ``classes``).
    """
    X = check_features(X)
    classes, codes = check_class_labels(labels, X.shape[0])
    pair_codes = np.array(list(combinations(range(classes.size), 2)), dtype=np.int64)
    subsets, problems = [], []
    for j, j_other in pair_codes:
        rows = np.flatnonzero((codes == j) | (codes == j_other))
        subsets.append(frozen(rows))
        # binary problem (j, j'): class j is +1, class j' is -1
        problems.append((rows, np.where(codes[rows] == j, 1, -1)))
    traces, weights, biases, n_updates, converged = _binary_runs(
        X, problems, bias, order, seed, max_updates, max_epochs
    )
    negatives = np.array(
        [np.mean(codes[rows] == j_other) for rows, (_, j_other) in zip(subsets, pair_codes)]
    )
    return OneVsOne(
        classes=frozen(classes),
        pairs=frozen(classes[pair_codes]),
        pair_codes=frozen(pair_codes),
        weights=weights,
        biases=biases,
        n_updates=n_updates,
        converged=converged,
        imbalance=frozen(negatives),
        subsets=tuple(subsets),
        traces=traces,
    )
