"""Many perceptron runs at once: the binary problems of a reduction, stacked.

:func:`run_perceptrons` takes data X and binary problems (rows of X, labels ±1) and
returns, for each problem, the :class:`~perceptron_core.perceptron.Trace` that
``run_perceptron(X[rows], labels, ...)`` returns: the same updates at the same steps,
the same (w, b) after each, bit for bit, the same stop. Only the scores the traces
record are this engine's own sums (within rounding of the loop's, 1e-12 relative).

How: each loop turn brings every run still going to its next update. It scores every
example of every problem with the current (w, b) of its problem, one array operation per
coordinate over all problems at once (elementwise, so a problem's numbers never depend
on the others'), then

* greedy orders (Remark 1.38): each run takes its most violated example, ties within
  rounding going to the lowest index (:func:`perceptron.run_perceptron` runs these
  orders through this engine, so the two agree by construction);
* stream orders: each run takes the first mistake of its epoch's stream after its
  position. A mistake is decided as the plain loop decides it (one np.dot, the loop's
  score): a score this engine computes further than its rounding from the threshold
  decides alike, and the rare example closer than that is scored again with np.dot.

So a run costs one turn per update of its longest-running problem, each a few array
operations over all the problems' examples, instead of one Python step per example.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ._checks import check_dataset, check_features, frozen
from .perceptron import (
    _EPSILON,
    GREEDY_ORDERS,
    MAX_TRACE_VALUES,
    ROUNDING_ULPS,
    Trace,
    _stop_reason,
    check_run_settings,
    check_start,
    example_order,
    vector_size,
)

#: how far this engine's score can be from the loop's, in units of rounding of the score's
#: size (the sum of the sizes of its terms), per coordinate: both add the same d + 1
#: products in different orders (Higham, eq. 3.5), with room
_ENGINE_ROUNDING = 4 * _EPSILON


def run_perceptrons(
    X,
    problems: Sequence,
    bias=True,
    delta=0.0,
    w0=None,
    b0=0.0,
    order="cyclic",
    seed=None,
    max_updates=100_000,
    max_epochs=1_000,
) -> tuple[Trace, ...]:
    """Run one perceptron (Algorithm 1.16) per binary problem, all at once.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    problems : sequence of (rows, labels)
        ``rows``: indices into X (its examples, in this order; ``slice(None)`` for all of
        them), ``labels``: one of -1 / +1 per row.
    bias, delta, w0, b0, order, seed, max_updates, max_epochs
        As in :func:`~perceptron_core.perceptron.run_perceptron`, for every problem (every
        run starts at (w0, b0); the limits apply to each run; the permuted and random
        orders draw each problem's stream from ``seed`` as run_perceptron does).

    Returns
    -------
    tuple of Trace, one per problem: ``run_perceptron(X[rows], labels, ...)``'s updates,
    steps, weights, biases and stop; indices refer to the problem's own rows.
    """
    X = check_features(X, copy=False)
    problems = [_check_problem(X, problem) for problem in problems]
    if not problems:
        raise ValueError("give at least one problem (rows of X and their labels).")
    n_max = max(labels.size for _, labels in problems)
    delta, seed, max_updates, max_epochs = check_run_settings(
        n_max, delta=delta, order=order, seed=seed, max_updates=max_updates, max_epochs=max_epochs
    )
    dim = X.shape[1]
    max_updates = min(max_updates, MAX_TRACE_VALUES // (dim + 1) - 1)
    if max_updates < 1:
        raise ValueError(f"d = {dim} features is too many to record a run; use fewer features.")
    w, b = check_start(w0, b0, dim, bias)
    runs = _Runs(X, problems, bias, delta, order, seed, max_updates, max_epochs, w, b)
    runs.run()
    return runs.traces()


def _check_problem(X, problem):
    try:
        rows, labels = problem
    except (TypeError, ValueError):
        raise ValueError("each problem must be a pair (rows of X, labels -1/+1).") from None
    index = np.arange(X.shape[0])[rows] if isinstance(rows, slice) else np.asarray(rows)
    if (
        index.ndim != 1
        or index.dtype.kind not in "iu"
        or (index.size and (index.min() < 0 or index.max() >= X.shape[0]))
    ):
        raise ValueError(f"a problem's rows must be indices into X (0 to {X.shape[0] - 1}).")
    if index.size == 0:
        raise ValueError("a problem needs at least one example.")
    _, labels = check_dataset(X[index], labels, both_classes=False, copy=False)
    return index.astype(np.int64), labels.astype(np.float64)


class _Runs:
    """The state of every run: (w, b), steps, updates, its position in its stream, and
    what it recorded. Arrays over the problems (P) and their examples (padded to n_max)."""

    def __init__(self, X, problems, bias, delta, order, seed, max_updates, max_epochs, w0, b0):
        count, dim = len(problems), X.shape[1]
        self.X, self.bias, self.delta, self.order = X, bias, delta, order
        self.seed, self.max_updates = seed, max_updates
        self.rows = [rows for rows, _ in problems]
        self.labels = [labels for _, labels in problems]
        self.sizes = np.array([labels.size for labels in self.labels])
        n_max = int(self.sizes.max())
        self.valid = np.arange(n_max) < self.sizes[:, None]  # (P, n_max): a real example
        coordinates = dim + 1 if bias else dim
        # a_j = y_j (x_j, 1), coordinate-major: signed[k] is coordinate k of every example
        self.signed = np.zeros((coordinates, count, n_max))
        for p, (rows, labels) in enumerate(problems):
            self.signed[:dim, p, : rows.size] = (labels[:, None] * X[rows]).T
            if bias:
                self.signed[dim, p, : rows.size] = labels
        self.padding = np.where(self.valid, 0.0, np.inf)  # makes padded scores +inf
        self.weights = np.zeros((count, coordinates))  # (w, b) of every run
        self.weights[:, :dim] = w0
        if bias:
            self.weights[:, dim] = b0
        self.start = (w0, b0)
        # the rounding of the scores (ScoreRounding, as run_perceptron measures it)
        row_size = np.zeros(X.shape[0])
        used = np.unique(np.concatenate(self.rows))
        row_size[used] = [vector_size(X[j]) for j in used.tolist()]
        self.row_size = np.zeros((count, n_max))
        for p, rows in enumerate(self.rows):
            self.row_size[p, : rows.size] = row_size[rows]
        self.largest = self.row_size.max(axis=1)
        self.overflow = not np.isfinite(self.largest).all()  # sizes beyond a float
        self.total = np.full(count, vector_size(w0))  # ||w0|| + Σ over updates ||x_i||
        self.step_limit = max_epochs * self.sizes
        self.steps = np.zeros(count, dtype=np.int64)
        self.updates = np.zeros(count, dtype=np.int64)
        self.going = np.ones(count, dtype=bool)
        self.converged = np.zeros(count, dtype=bool)
        self.limit_hit: list[str | None] = [None] * count
        self.live = None  # the runs going on (gather_live)
        self.log: list[tuple] = []  # (runs, indices, steps, scores) of each turn's updates
        self.choices: list[tuple] = []  # (runs, indices) each turn: the greedy orders' picks
        if order not in GREEDY_ORDERS:
            self.stream = _Streams(order, seed, self.sizes, n_max)
            self.clean = np.zeros(count, dtype=np.int64)

    # --- scores and rounding ------------------------------------------------------------

    def scores(self, which: np.ndarray) -> np.ndarray:
        """y (w·x + b) of every example of the problems ``which``, shape (len, n_max):
        a_j·(w, b) summed over the coordinates in order (+inf on padding)."""
        if which is self.live:  # the runs going on: their examples gathered once
            signed, padding = self.live_signed, self.live_padding
        else:
            signed, padding = self.signed[:, which], self.padding[which]
        weights = self.weights[which]
        total = signed[0] * weights[:, :1]
        for k in range(1, signed.shape[0]):
            total += signed[k] * weights[:, k : k + 1]
        total += padding
        return total

    def gather_live(self) -> np.ndarray:
        """The runs going on (the same array until one stops), their examples gathered."""
        if self.live is None or self.live.size != int(self.going.sum()):
            self.live = np.flatnonzero(self.going)
            self.live_signed = self.signed[:, self.live]
            self.live_padding = self.padding[self.live]
        return self.live

    def size(self, which: np.ndarray) -> np.ndarray:
        """ScoreRounding.size of each run: Σ ||x_i|| max ||x_j|| + |b| (the product is 0
        while the sum is, even for an infinite max ||x_j||)."""
        total = self.total[which]
        product = total * self.largest[which]
        if self.overflow:
            product = np.where(total != 0, product, 0.0)
        return product + np.abs(self.weights[which, -1]) if self.bias else product

    def slack(self, which: np.ndarray, size: np.ndarray | None = None) -> np.ndarray:
        """ScoreRounding.slack of each run (0 where the sizes overflowed)."""
        slack = ROUNDING_ULPS * _EPSILON * (self.size(which) if size is None else size)
        return (
            slack
            if not self.overflow and slack.max() < math.inf
            else np.where(slack < math.inf, slack, 0.0)
        )

    # --- the loop -----------------------------------------------------------------------

    def run(self) -> None:
        turn = self.greedy_turn if self.order in GREEDY_ORDERS else self.stream_turn
        while self.going.any():
            turn(self.gather_live())

    def finish(self, runs, converged, limit: str | None) -> None:
        for p, done in zip(
            np.atleast_1d(runs).tolist(),
            np.broadcast_to(converged, np.atleast_1d(runs).shape).tolist(),
        ):
            self.going[p] = False
            self.converged[p] = done
            self.limit_hit[p] = (
                limit
                if limit is None
                else limit.format(epochs=int(self.step_limit[p] // self.sizes[p]))
            )

    def update(
        self, runs: np.ndarray, index: np.ndarray, scores: np.ndarray, slack: np.ndarray
    ) -> None:
        """The runs ``runs`` update on their examples ``index``: (w, b) <- (w, b) + a, that
        is w + y x and b + y, the loop's sums; the trace records the scores (delta for
        one within rounding of it)."""
        recorded = np.where(np.abs(scores - self.delta) <= slack, self.delta, scores)
        self.log.append((runs, index, self.steps[runs], recorded))
        self.weights[runs] += self.signed[:, runs, index].T
        self.total[runs] += self.row_size[runs, index]
        self.updates[runs] += 1
        if self.updates[runs].max(initial=0) >= self.max_updates:
            for p in runs[self.updates[runs] >= self.max_updates].tolist():
                self.finish(p, self.all_correct(p), f"limit of {self.max_updates} updates")

    def greedy_turn(self, which: np.ndarray) -> None:
        # the runs going on have all made as many steps as there were turns
        if self.steps[which[0]] >= self.step_limit[which].min():
            at_limit = self.steps[which] >= self.step_limit[which]
            for p in which[at_limit].tolist():
                self.finish(p, self.all_correct(p), "limit of {epochs} epochs")
            return
        scores = self.scores(which)
        slack = self.slack(which)
        if self.order == "max_residual":  # the smallest score; within 2 slack: a tie
            keys, tie = scores, 2 * slack
        else:  # max_distance: (score - delta) / ||a_j||, ties within 2 slack / min ||a_j||
            norms = self.norms(which)
            keys = (scores - self.delta) / norms
            tie = 2 * slack / np.where(self.valid[which], norms, np.inf).min(axis=1)
        low = keys.min(axis=1)
        index = (keys <= (low + tie)[:, None]).argmax(axis=1)
        chosen = np.take_along_axis(scores, index[:, None], axis=1)[:, 0]
        self.steps[which] += 1
        self.choices.append((which, index))
        fine = chosen > self.delta + slack  # the most violated one is fine: all are
        if fine.any():
            self.finish(which[fine], True, None)
            move = ~fine
            which, index, chosen, slack = which[move], index[move], chosen[move], slack[move]
        self.update(which, index, chosen, slack)

    def all_correct(self, p: int) -> bool:
        """Every example of run p has y (w·x + b) > delta beyond rounding: for the greedy
        orders this engine's scores (their own test), for the stream orders each decided
        as the loop decides it (np.dot for the few within this engine's rounding)."""
        which = np.array([p])
        scores = self.scores(which)[0][: self.sizes[p]]
        slack = float(self.slack(which)[0])
        if self.order in GREEDY_ORDERS:
            return bool(np.all(scores > self.delta + slack))
        band = float(self.band(which)[0])
        threshold = self.delta + slack
        if np.any(scores <= threshold - band):
            return False
        for index in np.flatnonzero(scores <= threshold + band).tolist():
            score = self.loop_score(p, index)
            if score <= self.delta or abs(score - self.delta) <= slack:
                return False
        return True

    def band(self, which: np.ndarray) -> np.ndarray:
        """How far this engine's score of each run can be from the loop's: the rounding
        of d + 1 products and their sum, twice, of the size ||x|| ||w|| + |b| (largest
        ||x|| of the run), with room; never 0."""
        dim = self.X.shape[1]
        w = self.weights[which, :dim]
        norm_w = np.sqrt(np.einsum("pk,pk->p", w, w))
        b = np.abs(self.weights[which, dim]) if self.bias else 0.0
        return (
            _ENGINE_ROUNDING
            * (self.signed.shape[0] + 2)
            * (self.largest[which] * norm_w * (1 + 1e-9) + b)
            + 1e-300
        )

    def norms(self, which: np.ndarray) -> np.ndarray:
        """||a_j|| = sqrt(||x_j||^2 + 1) (without the 1 when there is no bias), as the
        greedy rule measures it (1 for a zero example and on padding)."""
        if not hasattr(self, "_norms"):
            squares = self.signed[0] * self.signed[0]
            for k in range(1, self.signed.shape[0]):
                squares += self.signed[k] * self.signed[k]
            norms = np.sqrt(squares)
            self._norms = np.where((norms == 0) | ~self.valid, 1.0, norms)
        return self._norms[which]

    def stream_turn(self, which: np.ndarray) -> None:
        """Every run going on examines its stream from its position to its next update,
        the end of its epoch, n clean examples in a row or its step limit."""
        streams = self.stream
        scores = self.scores(which)
        size = self.size(which)
        slack = self.slack(which, size)
        # how far this engine's score can be from the loop's (|b| + ||x|| ||w|| <= size)
        band = _ENGINE_ROUNDING * (self.signed.shape[0] + 2) * size * (1 + 1e-9) + 1e-300
        threshold = self.delta + slack
        maybe = scores <= (threshold + band)[:, None]  # could be a mistake for the loop
        position = streams.position[which]
        if self.order == "cyclic":  # the stream is the examples in their order
            order = None
            ahead = maybe & (streams.grid >= position[:, None])
        else:
            order = streams.rows[which]  # (len, n_max): each run's stream of examples
            ahead = (
                np.take_along_axis(maybe, order, axis=1)
                & (streams.grid >= position[:, None])
                & self.valid[which]
            )
        first = ahead.argmax(axis=1)
        found = np.take_along_axis(ahead, first[:, None], axis=1)[:, 0]
        sizes = self.sizes[which]
        reach = np.where(found, first, sizes) - position  # clean examples before it
        to_clean = sizes - self.clean[which]
        to_limit = self.step_limit[which] - self.steps[which]
        stop = np.minimum(to_clean, to_limit) <= reach
        for k in np.flatnonzero(stop).tolist():  # a clean pass or the step limit first
            self.stop_or_go_on(int(which[k]), int(to_clean[k]), int(to_limit[k]))
        # no candidate in the rest of the epoch: it was clean; the next epoch begins
        done = ~stop & ~found
        if done.any():
            self.steps[which[done]] += reach[done]
            self.clean[which[done]] += reach[done]
            streams.advance(which[done], reach[done])
        near = ~stop & found
        if near.any():
            self.stream_candidates(
                which[near],
                first[near],
                position[near],
                slack[near],
                threshold[near],
                band[near],
                scores[near],
                None if order is None else order[near],
            )

    def stream_candidates(
        self, which, first, position, slack, threshold, band, scores, order
    ) -> None:
        """The runs ``which`` examine their streams up to their candidates (slots
        ``first``): a mistake unless it is within this engine's rounding of the threshold
        and the loop's own score says otherwise."""
        streams = self.stream
        index = first if order is None else order[np.arange(which.size), first]
        chosen = scores[np.arange(which.size), index]
        mistake = chosen <= threshold - band
        if not mistake.all():
            for k in np.flatnonzero(~mistake).tolist():
                score = self.loop_score(int(which[k]), int(index[k]))
                mistake[k] = score <= self.delta or abs(score - self.delta) <= slack[k]
        examined = first - position + 1
        self.steps[which] += examined
        self.clean[which] = np.where(mistake, 0, self.clean[which] + examined)
        streams.advance(which, examined)
        if mistake.all():
            self.update(which, index, chosen, slack)
        else:
            self.update(which[mistake], index[mistake], chosen[mistake], slack[mistake])

    def stop_or_go_on(self, p: int, to_clean: int, to_limit: int) -> None:
        """Run p meets n clean examples in a row, or its step limit, before its next
        candidate: as the loop, it stops there (in a non-cyclic order a clean pass stops
        it only if every example is correct; else the count starts again)."""
        examined = min(to_clean, to_limit)
        self.steps[p] += examined
        self.clean[p] += examined
        self.stream.advance(np.array([p]), np.array([examined]))
        if to_clean <= to_limit:
            if self.order == "cyclic" or self.all_correct(p):
                self.finish(p, True, None)
                return
            self.clean[p] = 0
        if to_limit <= to_clean or self.steps[p] >= self.step_limit[p]:
            self.finish(p, self.all_correct(p), "limit of {epochs} epochs")

    def loop_score(self, p: int, index: int) -> float:
        """y (w·x + b) of run p's example ``index`` as the plain loop computes it."""
        dim = self.X.shape[1]
        w = self.weights[p, :dim]
        b = float(self.weights[p, dim]) if self.bias else 0.0
        label = self.labels[p][index]
        return float(label * (np.dot(w, self.X[self.rows[p][index]]) + b))

    # --- the traces ---------------------------------------------------------------------

    def traces(self) -> tuple[Trace, ...]:
        count, dim = len(self.rows), self.X.shape[1]
        log = (
            [np.concatenate(column) if self.log else np.zeros(0) for column in zip(*self.log)]
            if self.log
            else [np.zeros(0, dtype=np.int64)] * 4
        )
        runs, index, steps, scores = log
        grouped = np.argsort(runs, kind="stable")  # each run's updates, in their order
        bounds = np.searchsorted(runs[grouped], np.arange(count + 1))
        if self.choices:
            chooser = np.concatenate([which for which, _ in self.choices])
            choice = np.concatenate([index for _, index in self.choices])
            by_run = np.argsort(chooser, kind="stable")
            choice_bounds = np.searchsorted(chooser[by_run], np.arange(count + 1))
        out = []
        for p, rows in enumerate(self.rows):
            mine = grouped[bounds[p] : bounds[p + 1]]
            updated = index[mine].astype(np.int64)
            # w_k = w0 + y_1 x_1 + ... + y_k x_k: the sums the loop makes, in its order
            addends = np.empty((updated.size + 1, dim))
            addends[0] = self.start[0]
            addends[1:] = self.signed[:dim, p, updated].T
            weights = np.cumsum(addends, axis=0)
            biases = (
                np.cumsum(np.concatenate([[self.start[1]], self.labels[p][updated]]))
                if self.bias
                else np.zeros(updated.size + 1)
            )
            n, n_examined = rows.size, int(self.steps[p])
            epochs = int(-(-n_examined // n))
            greedy = None
            if self.order in GREEDY_ORDERS:
                greedy = (
                    choice[by_run[choice_bounds[p] : choice_bounds[p + 1]]]
                    if self.choices
                    else np.zeros(0, dtype=np.int64)
                )
            out.append(
                Trace(
                    weights=frozen(weights),
                    biases=frozen(biases),
                    update_indices=frozen(updated),
                    update_steps=frozen(steps[mine], dtype=np.int64),
                    update_scores=frozen(scores[mine], dtype=np.float64),
                    update_mistakes=frozen(np.ones(updated.size, dtype=bool)),
                    n_examined=n_examined,
                    epochs=epochs,
                    converged=bool(self.converged[p]),
                    stop_reason=_stop_reason(
                        bool(self.converged[p]),
                        updated.size,
                        epochs,
                        self.delta,
                        self.limit_hit[p],
                        False,
                    ),
                    order=self.order,
                    seed=self.seed,
                    delta=self.delta,
                    bias=bool(self.bias),
                    aggressive=False,
                    n_samples=n,
                    greedy_indices=None if greedy is None else frozen(greedy, dtype=np.int64),
                )
            )
        return tuple(out)


class _Streams:
    """Each run's stream of examples in its current epoch (rows of ``rows``, padded to
    n_max) and its position in it."""

    def __init__(self, order, seed, sizes, n_max):
        self.order, self.seed, self.sizes = order, seed, sizes
        self.epoch = np.zeros(sizes.size, dtype=np.int64)
        self.position = np.zeros(sizes.size, dtype=np.int64)
        self.grid = np.arange(n_max)
        self.rows = np.zeros((sizes.size, n_max), dtype=np.int64)
        for p in range(sizes.size):
            self.rows[p, : sizes[p]] = example_order(order, int(sizes[p]), seed, 0)

    def advance(self, runs: np.ndarray, counts: np.ndarray) -> None:
        """Move the runs ``runs`` on by ``counts`` examples; a finished epoch starts the
        next one's stream."""
        self.position[runs] += counts
        ended = runs[self.position[runs] >= self.sizes[runs]]
        if not ended.size:
            return
        for p in ended.tolist():
            self.position[p] = 0
            self.epoch[p] += 1
            if self.order != "cyclic":
                n = int(self.sizes[p])
                self.rows[p, :n] = example_order(self.order, n, self.seed, int(self.epoch[p]))


__all__ = ["run_perceptrons"]
