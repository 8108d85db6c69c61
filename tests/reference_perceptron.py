"""A plain, slow, textbook loop of Algorithm 1.16 (notes-perceptron-yu.txt).

Written independently of ``perceptron_core.perceptron`` so the tests can
compare the fast engine against it. Only the *stream* of examined indices for
the permuted/random orders is borrowed (``example_order``): the order is an
input of the algorithm, not part of it.

    for t = 1, 2, ...: take I_t; if y (w·x + b) <= delta: w += y x; b += y (with bias)

A computed score within rounding of delta counts as delta (the engine's convention, so that
the primal and the kernel run decide alike): within 16 ulps of (Σ over the updates so far of
||x_i|| + ||w0||) · max_j ||x_j|| + |b|; the most violated example is the first of those
within twice that (over the smallest norm, for max_distance) of the
smallest. (The aggressive rule, which updates on every example,
counts its mistakes with the plain test.)

Stopping (``check``):
  "streak": after n consecutive examined examples without an update, check all
            examples and stop if every y (w·x + b) > delta (otherwise keep going
            and wait for the next n in a row) -- the rule the engine uses;
  "epoch":  check all examples at the end of every epoch (the notes' "full cycle").
The aggressive rule (Remark 1.19) updates on every examined example and checks
all examples at each epoch boundary. Greedy orders (Remark 1.38) examine the most
violated example; the run stops when even that one is correct.

``random_labels`` draws the data, usually not separable, that the comparisons with this
loop (and the kernel perceptron's with the primal one) also run on.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from perceptron_core import example_order


def reference_perceptron(
    X,
    y,
    bias=True,
    delta=0.0,
    w0=None,
    b0=0.0,
    order="cyclic",
    seed=0,
    max_updates=100_000,
    max_epochs=1_000,
    aggressive=False,
    check="streak",
):
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    n, d = X.shape
    st = SimpleNamespace(
        w=np.zeros(d) if w0 is None else np.array(w0, dtype=float),
        b=float(b0),
        steps=0,
        examined=[],
        update_indices=[],
        update_steps=[],
        update_scores=[],
    )
    st.weights, st.biases = [st.w.copy()], [st.b]

    sizes = [float(np.linalg.norm(X[i])) for i in range(n)]
    st.size = float(np.linalg.norm(st.w))  # Σ ||x_i|| over the updates, + ||w0||

    def slack():
        return 16 * np.finfo(float).eps * (st.size * max(sizes) + abs(st.b))

    def raw_score(i):
        return y[i] * (np.dot(st.w, X[i]) + st.b)

    def score(i):  # within rounding of delta: delta (not in the aggressive rule's count)
        s = raw_score(i)
        return delta if not aggressive and abs(s - delta) <= slack() else s

    def all_correct():
        return all(score(i) > delta for i in range(n))

    def update(i):  # lines 4-5 of Algorithm 1.16
        st.update_scores.append(score(i))
        st.size += sizes[i]
        st.w = st.w + y[i] * X[i]
        if bias:
            st.b = st.b + y[i]
        st.weights.append(st.w.copy())
        st.biases.append(st.b)
        st.update_indices.append(i)
        st.update_steps.append(st.steps)
        return len(st.update_indices) >= max_updates

    def done(converged):
        st.converged = bool(converged)
        st.n_examined = st.steps
        st.weights, st.biases = np.array(st.weights), np.array(st.biases)
        st.update_indices = np.array(st.update_indices, dtype=int)
        st.update_steps = np.array(st.update_steps, dtype=int)
        st.update_scores = np.array(st.update_scores, dtype=float)
        return st

    if order in ("max_residual", "max_distance"):
        norms = [np.sqrt(X[i] @ X[i] + (1.0 if bias else 0.0)) or 1.0 for i in range(n)]
        for _ in range(max_epochs * n):
            scores = [score(i) for i in range(n)]
            if order == "max_residual":
                keys = scores
            else:
                keys = [(scores[i] - delta) / norms[i] for i in range(n)]
            tie = 2 * slack() / (1.0 if order == "max_residual" else min(norms))
            i = int(np.argmax(np.array(keys) <= min(keys) + tie))  # first index among ties
            st.steps += 1
            st.examined.append(i)
            if scores[i] > delta:  # the most violated example is fine: all are
                return done(True)
            if update(i):
                return done(all_correct())
        return done(all_correct())

    clean = 0  # examined examples since the last update
    for epoch in range(max_epochs):
        if aggressive and st.steps > 0 and all_correct():
            return done(True)
        for i in example_order(order, n, seed, epoch):
            i = int(i)
            st.steps += 1
            st.examined.append(i)
            if aggressive or score(i) <= delta:
                clean = 0
                if update(i):
                    return done(all_correct())
            else:
                clean += 1
                if check == "streak" and clean == n:
                    if all_correct():
                        return done(True)
                    clean = 0
        if check == "epoch" and not aggressive and all_correct():
            return done(True)
    return done(all_correct())


def random_labels(rng: np.random.Generator, max_dim: int, max_n: int):
    """(X, y): n points in d dimensions (1 <= d < max_dim, 4 <= n < max_n), standard normal
    around a centre drawn from [-1, 1]^d, with labels +-1 drawn at random (the first two
    are +1 and -1, so both classes are there): usually not separable."""
    dim = int(rng.integers(1, max_dim))
    n = int(rng.integers(4, max_n))
    X = rng.standard_normal((n, dim)) + rng.uniform(-1, 1, dim)
    y = np.where(rng.random(n) < 0.5, 1, -1)
    y[:2] = (1, -1)
    return X, y
