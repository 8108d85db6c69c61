"""Dataset generators: exact shape, ball, balance, labels, and reproducibility."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron_core import (
    DATASETS,
    Dataset,
    make_blobs,
    make_circles,
    make_separable,
    make_xor,
    with_label_noise,
)

PROPERTY = settings(max_examples=100, deadline=None, derandomize=True, database=None)


@settings(PROPERTY)
@given(
    n=st.integers(2, 300),
    dim=st.integers(1, 6),
    radius=st.sampled_from([0.5, 1.0, 3.0]),
    margin_fraction=st.floats(0.01, 0.9),
    balance=st.floats(0.02, 0.98),
    through_origin=st.booleans(),
    seed=st.integers(0, 2**31),
)
def test_make_separable_shape_ball_labels_and_balance(
    n, dim, radius, margin_fraction, balance, through_origin, seed
):
    margin = margin_fraction * radius
    ds = make_separable(
        n=n,
        margin=margin,
        dim=dim,
        radius=radius,
        seed=seed,
        through_origin=through_origin,
        balance=balance,
    )
    assert isinstance(ds, Dataset)
    assert ds.X.shape == (n, dim) and ds.y.shape == (n,)
    assert ds.n == n and ds.dim == dim and ds.seed == seed and ds.radius == radius
    assert np.all(np.isfinite(ds.X))
    # every point inside the ball of radius R (Novikoff's ||x|| <= R)
    assert np.max(np.linalg.norm(ds.X, axis=1)) <= radius * (1 + 1e-12)
    # labels are +-1, both classes present, share of +1 as asked up to rounding
    assert set(np.unique(ds.y).tolist()) == {-1, 1}
    n_pos = int(np.sum(ds.y == 1))
    assert 1 <= n_pos <= n - 1
    assert abs(n_pos - balance * n) <= 0.5 + 1e-9 or n_pos in (1, n - 1)
    # the planted hyperplane separates with at least the margin
    assert np.min(ds.y * (ds.X @ ds.w_star + ds.b_star)) >= margin * (1 - 1e-12)
    if through_origin:
        assert ds.b_star == 0.0


@pytest.mark.parametrize("balance", [0.5, 0.25, 0.9])
def test_balance_on_large_data(balance):
    ds = make_separable(n=1000, margin=0.05, seed=1, balance=balance)
    assert np.mean(ds.y == 1) == pytest.approx(balance, abs=1e-3)


def test_points_fill_both_sides_up_to_the_ball():
    """Not just the pinned pair: points spread over the ball on both sides."""
    ds = make_separable(n=2000, margin=0.1, dim=2, seed=0)
    norms = np.linalg.norm(ds.X, axis=1)
    assert norms.max() > 0.95
    distances = ds.y * (ds.X @ ds.w_star + ds.b_star)
    assert np.sum(distances < 0.15) > 10  # some points close to the margin


GENERATORS = {
    "separable": lambda seed: make_separable(n=50, margin=0.1, dim=3, seed=seed),
    "separable_origin": lambda seed: make_separable(
        n=50, margin=0.1, seed=seed, through_origin=True
    ),
    "xor": lambda seed: make_xor(n=50, seed=seed),
    "circles": lambda seed: make_circles(n=50, seed=seed),
    "blobs": lambda seed: make_blobs(n=50, seed=seed),
    "blobs3": lambda seed: make_blobs(n=50, seed=seed, k=3),
    "noise": lambda seed: with_label_noise(make_separable(n=50, seed=0), rate=0.3, seed=seed),
}


@pytest.mark.parametrize("name", list(GENERATORS))
def test_same_seed_same_data_other_seed_other_data(name):
    make = GENERATORS[name]
    first, again, other = make(3), make(3), make(4)
    np.testing.assert_array_equal(first.X, again.X)
    np.testing.assert_array_equal(first.y, again.y)
    assert not (np.array_equal(first.X, other.X) and np.array_equal(first.y, other.y))


@pytest.mark.parametrize("name", list(DATASETS))
def test_registry_generators_share_a_signature(name):
    ds = DATASETS[name](40, 5, dim=2, radius=2.0)
    again = DATASETS[name](40, 5, dim=2, radius=2.0)
    assert ds.X.shape == (40, 2) and ds.y.shape == (40,)
    assert ds.radius == 2.0 and ds.seed == 5
    np.testing.assert_array_equal(ds.X, again.X)
    assert set(np.unique(ds.y).tolist()) == {-1, 1}


def test_xor_labels_are_the_sign_of_the_product():
    ds = make_xor(n=300, seed=2, dim=3, gap=0.1)
    np.testing.assert_array_equal(ds.y, np.where(ds.X[:, 0] * ds.X[:, 1] > 0, 1, -1))
    assert np.min(np.abs(ds.X[:, :2])) >= 0.1 - 1e-12
    assert np.max(np.abs(ds.X)) <= 1.0 + 1e-12


def test_circles_inner_positive_outer_negative():
    ds = make_circles(n=400, seed=1, factor=0.4, noise=0.0)
    norms = np.linalg.norm(ds.X, axis=1)
    np.testing.assert_allclose(norms[ds.y == 1], 0.4, atol=1e-12)
    np.testing.assert_allclose(norms[ds.y == -1], 1.0, atol=1e-12)


def test_blobs_with_k_classes_use_class_numbers():
    ds = make_blobs(n=90, seed=0, k=3)
    assert sorted(np.unique(ds.y).tolist()) == [0, 1, 2]
    assert all(np.sum(ds.y == c) == 30 for c in range(3))


def test_label_noise_flips_about_the_rate_and_keeps_x():
    base = make_separable(n=4000, margin=0.05, seed=0)
    noisy = with_label_noise(base, rate=0.2, seed=9)
    np.testing.assert_array_equal(noisy.X, base.X)
    assert np.mean(noisy.y != base.y) == pytest.approx(0.2, abs=0.03)
    assert noisy.margin is None
    clean = with_label_noise(base, rate=0.0, seed=9)
    np.testing.assert_array_equal(clean.y, base.y)
    assert clean.margin == base.margin
