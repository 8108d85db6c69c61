"""The re-audit of /kernels: every sentence true for the settings on screen.

Each test below picks settings that made the page's old sentence false (the kind of error
in its name, numbered as in the audit: 1 "exact" that is a tolerance, 3 a rounded number
inside a shown (in)equality, 4 a fixed sentence false for some settings, 5 a cause
guessed, 6 a theorem beyond its hypotheses, 7 a quiz key against the page, 8 one symbol
with two meanings), and the property tests check the facts the page states against
recomputations of their own: fractions.Fraction for exact arithmetic, scipy's linear
programming for separability, plain Python for bit counts. Browser tests (Chromium) check
what only the browser shows: the player's words, the phone's width, the JavaScript's
number formats.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest
from app_helpers import open_page, player_payload, static_tables, widget
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from perceptron_core import kernel_margin, kernel_perceptron, make_circles, make_xor
from perceptron_core.kernels import (
    kernel_no_separator_proof,
    polynomial_features,
    separates_exactly,
)
from perceptron_core.viz import kernels as viz

PAGE = "pages/kernels.py"


# ---------------------------------------------------------------------------
# Independent references
# ---------------------------------------------------------------------------


def exact_kernel(kernel: str, x, z, degree=2, coef0=1.0, scale=1.0) -> Fraction:
    """K(x, z) for the linear and polynomial kernels in rational arithmetic."""
    dot = sum(Fraction(float(a)) * Fraction(float(b)) for a, b in zip(x, z))
    if kernel == "linear":
        return dot
    return (Fraction(float(scale)) * dot + Fraction(float(coef0))) ** int(degree)


def combination_is_zero(X, y, kernel, examples, weights, bias, **params) -> bool:
    """‖Σ λ_k a_k‖² = Σ λ_j λ_k y_j y_k (K(x_j, x_k) + bias) = 0, from the Gram matrix in
    rational arithmetic (not from the features the proof was solved on)."""
    total = Fraction(0)
    for j, wj in zip(examples, weights):
        for k, wk in zip(examples, weights):
            gram = exact_kernel(kernel, X[j], X[k], **params) + (1 if bias else 0)
            total += wj * wk * int(y[j]) * int(y[k]) * gram
    return total == 0


def lp_separable(features: np.ndarray, y: np.ndarray, bias: bool) -> bool | None:
    """Whether some w has y_i ⟨w, (φ_i, 1)⟩ ≥ 1 for all i (scipy's linear program on the
    explicit features), or None when the solver is unsure."""
    from scipy.optimize import linprog

    A = y[:, None] * (np.hstack([features, np.ones((len(y), 1))]) if bias else features)
    result = linprog(
        np.zeros(A.shape[1]),
        A_ub=-A,
        b_ub=-np.ones(len(y)),
        bounds=[(None, None)] * A.shape[1],
        method="highs",
    )
    if result.status == 0:
        return True
    if result.status == 2:
        return False
    return None


def monomials(X, degree, coef0) -> np.ndarray:
    """The polynomial kernel's features (up to positive factors): x^m, |m| <= degree."""
    lowest = 0 if coef0 > 0 else degree
    powers = [
        (p, q) for p in range(degree + 1) for q in range(degree + 1) if lowest <= p + q <= degree
    ]
    return np.column_stack([X[:, 0] ** p * X[:, 1] ** q for p, q in powers])


def page_text(at) -> str:
    """Everything a student reads on the page: markdown, captions, alerts, metrics, the
    player's texts and every label and help of its widgets."""
    parts = [
        e.value
        for kind in (
            "markdown",
            "caption",
            "error",
            "warning",
            "info",
            "success",
            "subheader",
            "title",
            "header",
        )
        for e in getattr(at, kind)
    ]
    parts += [f"{m.label} {m.value}" for m in at.metric]
    payload = player_payload(at, "kernels", required=False)
    if payload:
        parts += [payload["facts"], payload["end_text"], payload["kernel"]["text"]]
    from app_helpers import widgets

    for w in widgets(at):
        parts += [str(getattr(w, "label", "") or ""), str(getattr(w, "help", "") or "")]
    for table in static_tables(at, numbers=False):
        parts += [table.attrs["caption"], " ".join(map(str, table.columns))]
    return "\n".join(parts)


# ---------------------------------------------------------------------------
# The calculator takes the bits typed (item 2)
# ---------------------------------------------------------------------------


def test_the_calculator_takes_four_bits_and_says_two_to_the_two():
    """x = 1101, z = 1011 share positions 1 and 4: K = 2² = 4 (the old page kept three bits
    and said 2¹ = 2)."""
    at = open_page(PAGE, {"bits_x": "1101", "bits_z": "1011"})
    text = "\n".join(m.value for m in at.markdown)
    assert "positions 1 and 4 have a 1 in both" in text and "K(x, z) = 2² = 4." in text
    assert "2¹ = 2" not in text
    table = next(t for t in static_tables(at) if "conjunction" in t.columns)
    assert len(table) == 16 and table["both"].sum() == 4


@pytest.mark.parametrize(
    "x_text, z_text",
    [
        ("11111111", "11111111"),
        ("10110111", "11010101"),
        ("1011011101", "1110001011"),
        ("1", "1"),
        ("0", "1"),
    ],
)
def test_the_calculator_takes_up_to_ten_bits(x_text, z_text):
    at = open_page(PAGE, {"bits_x": x_text, "bits_z": z_text})
    ones = sum(a == b == "1" for a, b in zip(x_text, z_text))
    text = "\n".join(m.value for m in at.markdown)
    assert f"|Ones(x, z)| = {ones} and K(x, z) = 2" in text and f"= {2**ones:,}." in text
    assert not at.error
    table = next(t for t in static_tables(at) if "conjunction" in t.columns)
    assert len(table) == 2 ** len(x_text) and table["both"].sum() == 2**ones


def test_bits_of_two_lengths_are_named_and_the_last_valid_pair_is_kept():
    at = open_page(PAGE, {"bits_x": "1101", "bits_z": "1011"})
    at.text_input(key="bits_z").set_value("101").run()
    errors = [e.value for e in at.error]
    assert any("x has 4 bits and z has 3" in e and "same number of bits" in e for e in errors)
    text = "\n".join(m.value for m in at.markdown)
    assert "K(x, z) = 2² = 4." in text  # the previous state, kept
    assert any("last valid pair, x = 1101 and z = 1011" in c.value for c in at.caption)
    at.text_input(key="bits_z").set_value("10a1").run()
    assert any("holds 'a', which is not a bit" in e.value for e in at.error)
    at.text_input(key="bits_z").set_value("1111").run()
    assert not at.error and "K(x, z) = 2³ = 8." in "\n".join(m.value for m in at.markdown)


def test_an_old_link_with_bits_a_and_b_still_opens():
    at = open_page(PAGE, {"bits_a": "101", "bits_b": "111"})
    assert at.session_state["bits_x"] == "101" and at.session_state["bits_z"] == "111"
    assert "K(x, z) = 2² = 4." in "\n".join(m.value for m in at.markdown)


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(
    st.integers(1, viz.MAX_CALCULATOR_BITS).flatmap(
        lambda d: st.tuples(
            st.text("01", min_size=d, max_size=d), st.text("01", min_size=d, max_size=d)
        )
    )
)
def test_the_calculators_sentence_is_two_to_the_shared_ones(pair):
    x_text, z_text = pair
    x, z, problem = viz.read_bits(x_text, z_text)
    assert problem is None
    shared = bin(int(x_text, 2) & int(z_text, 2)).count("1")
    sentence = viz.conjunction_sentence(x, z)
    assert f"|Ones(x, z)| = {shared} and K(x, z) = 2" in sentence
    assert f"= {2**shared:,}. Written out over the 2" in sentence
    assert f"Φ(x)·Φ(z) = {2**shared:,}:" in sentence
    columns, _ = viz.conjunction_by_hand(x, z)
    # written out: a conjunction (a subset of positions) is true on a word when all its bits are 1
    counted = sum(
        all(x_text[j] == z_text[j] == "1" for j in subset)
        for size in range(len(x_text) + 1)
        for subset in combinations(range(len(x_text)), size)
    )
    assert sum(columns["both"]) == counted == 2**shared


@pytest.mark.parametrize(
    "x_text, z_text, says",
    [
        ("1101", "101", "x has 4 bits and z has 3"),
        ("", "1", "x is empty"),
        ("12", "11", "holds '2'"),
        ("1" * 11, "1" * 11, "at most 10"),
    ],
)
def test_what_to_fix_is_named(x_text, z_text, says):
    assert says in viz.read_bits(x_text, z_text)[2]


# ---------------------------------------------------------------------------
# Kind 1 and 6: "never stops" only with a proof in exact arithmetic; XOR with the linear kernel
# ---------------------------------------------------------------------------


def test_xor_with_the_linear_kernel_has_no_placeholder_and_a_true_verdict():
    """The old page showed the literal {HULL_TOLERANCE_TEXT}; the verdict "never stops" now
    rests on a combination of lifted examples that is exactly 0, rechecked here."""
    at = open_page(PAGE, {"data": "xor", "kernel": "linear"})
    text = page_text(at)
    assert not re.search(r"\{[A-Za-z_]+\}", text), re.findall(r"\{[A-Za-z_]+\}", text)
    payload = player_payload(at, "kernels")
    assert payload["bound"] is None and "never stops" in payload["facts"]
    assert "at most" not in payload["facts"]  # no bound stated beyond its hypotheses
    ds = make_xor(n=100, seed=0)
    proof = kernel_no_separator_proof(ds.X, ds.y, kernel="linear")
    assert proof is not None and sum(proof.weights) == 1 and min(proof.weights) > 0
    assert combination_is_zero(ds.X, ds.y, "linear", proof.examples, proof.weights, True)
    named = re.search(r"lifted examples ([\d, and]+) is exactly 0", payload["facts"]).group(1)
    assert sorted(int(v) for v in re.findall(r"\d+", named)) == sorted(proof.examples + 1)


@pytest.mark.parametrize(
    "settings_",
    [
        {"data": "xor", "kernel": "linear"},
        {},
        {"kernel": "poly", "degree": "3", "noise": "0.2"},
        {"data": "blobs", "kernel": "linear", "bias": "false"},
        {"kernel": "rbf", "scale": "0.05", "noise": "0.2"},
        {"data": "xor", "n": "10"},
        {"kernel": "poly", "coef0": "0", "degree": "3", "data": "xor", "order": "max_distance"},
    ],
)
def test_no_placeholder_is_left_in_any_text(settings_):
    at = open_page(PAGE, settings_)
    text = page_text(at)
    assert not re.search(r"\{[A-Za-z_]+\}", text), re.findall(r"\{[A-Za-z_]+\}", text)


def tiny_margin_data(gap: float):
    """Four points a line separates with margin ``gap`` (the line x₂ = 0): tiny gaps are
    below what floating point can tell from 0."""
    X = np.array([[0.0, gap], [0.3, 1.0], [0.0, -gap], [-0.3, -1.0]])
    return X, np.array([1, 1, -1, -1])


@pytest.mark.parametrize("gap", [5e-13, 1e-9])
def test_a_tiny_margin_is_not_called_not_separable(gap):
    """Kind 1: at a margin of 5·10⁻¹³ the old text said "No hyperplane through the origin
    separates the lifted examples ... the perceptron never stops" (a tolerance called a
    fact). Now: no proof exists (the data are separable), so the page names how close
    the hull came instead, and the run cut at one update is not said to never stop."""
    X, y = tiny_margin_data(gap)
    margin = kernel_margin(X, y, kernel="linear")
    proof = kernel_no_separator_proof(X, y, kernel="linear", margin=margin)
    assert proof is None
    assert separates_exactly(X, y, polynomial_features("linear"), [0.0, 1.0], 0.0)
    trace = kernel_perceptron(X, y, kernel="linear", max_updates=1)
    payload = viz.player_payload(trace, margin, limit=1.5, player={}, proof=proof)
    for text in (payload["facts"], payload["end_text"]):
        assert "never stops" not in text and "No hyperplane" not in text
        if not margin.separable:
            assert "comes within" in text and "nor a proof" in text
    # the lift section's line: "No line separates these data" was the old verdict
    flat, lifted, lift_run, other = viz.lifted_run(X, y, "squared_norm", 5)
    said = viz.lift_texts(flat, lifted, lift_run, "squared_norm", other)
    assert "No line separates" not in said["flat"]


def test_the_hull_distance_bounds_the_true_margin():
    """The distance the undecided sentence names is at least the data's true margin (the
    gap of tiny_margin_data, divided by the padded norm)."""
    for gap in (5e-13, 1e-9, 1e-7):
        X, y = tiny_margin_data(gap)
        margin = kernel_margin(X, y, kernel="linear")
        # a_i = y_i (x_i, 1); w = (0, 1, 0) gives min_i ⟨a_i, w⟩ = gap: gamma ≥ gap / 1
        assert margin.hull_distance >= gap
        if margin.separable:
            assert margin.margin <= gap * (1 + 1e-9)


DATA_SETS = {"circles": make_circles, "xor": make_xor}


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    n=st.integers(4, 14),
    seed=st.integers(0, 10_000),
    grid=st.booleans(),
    kernel=st.sampled_from(["linear", "poly"]),
    degree=st.integers(1, 3),
    coef0=st.sampled_from([0.0, 0.5, 1.0]),
    bias=st.booleans(),
)
def test_separability_statements_agree_with_exact_and_lp_recomputation(
    n, seed, grid, kernel, degree, coef0, bias
):
    """For random small data (on an integer grid, with a point at the origin at times):
    a proof is exactly a zero combination (rational Gram matrix) and the LP finds no
    separator; a margin is a separator in rational arithmetic and the LP finds one; the
    sentences say "never stops" only with a proof and "at most N" only with a margin,
    N at least every run's updates (Theorem 1.28)."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-2, 3, (n, 2)).astype(float) if grid else rng.uniform(-1, 1, (n, 2))
    y = np.where(rng.random(n) < 0.5, 1, -1)
    y[0], y[1] = 1, -1
    params = dict(degree=degree, coef0=coef0, scale=1.0) if kernel == "poly" else {}
    margin = kernel_margin(X, y, kernel=kernel, bias=bias, **params)
    proof = kernel_no_separator_proof(X, y, kernel=kernel, bias=bias, margin=margin, **params)
    features = X if kernel == "linear" else monomials(X, degree, coef0)
    lp = lp_separable(features, y.astype(float), bias)
    trace = kernel_perceptron(
        X, y, kernel=kernel, bias=bias, max_updates=300, max_epochs=60, **params
    )
    payload = viz.player_payload(trace, margin, limit=3.0, player={}, proof=proof)
    assert not (margin.separable and proof is not None)
    if proof is not None:
        assert min(proof.weights) > 0 and sum(proof.weights) == 1
        assert combination_is_zero(X, y, kernel, proof.examples, proof.weights, bias, **params)
        assert lp is not True and not trace.converged
        assert "never stops" in payload["facts"] and "never stops" in payload["end_text"]
    else:
        assert "never stops" not in payload["facts"] + payload["end_text"]
    if margin.separable:
        assert lp is not False
        # u = Σ λ_s a_s separates in rational arithmetic: ⟨a_i, u⟩ > 0 for every i
        for i in range(n):
            inner = sum(
                Fraction(float(w))
                * int(y[i])
                * int(y[s])
                * (exact_kernel(kernel, X[i], X[s], **params) + (1 if bias else 0))
                for s, w in zip(margin.support, margin.support_weights)
            )
            assert inner > 0
        most = math.floor(margin.bound)
        if most < 10**15:
            assert f"allows at most {most:,} updates" in payload["facts"]
        for order in ("cyclic", "permuted", "max_residual") if most <= 20_000 else ():
            run = kernel_perceptron(
                X,
                y,
                kernel=kernel,
                bias=bias,
                order=order,
                seed=seed,
                max_updates=most + 1,
                max_epochs=10_000,
                **params,
            )
            assert run.n_updates <= most
    if trace.converged:  # a finished run is a separator: never "never stops"
        assert lp is not False and "never stops" not in payload["end_text"]


@settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    n=st.integers(4, 30),
    seed=st.integers(0, 10_000),
    lift_name=st.sampled_from(["squared_norm", "product"]),
    noise=st.sampled_from([0.0, 0.2]),
)
def test_lift_verdicts_agree_with_the_lp(n, seed, lift_name, noise):
    """The lift section's "a line/plane separates" and "no line/plane separates" against
    scipy's linear program on the exact lifted coordinates; a proof's combination is
    rechecked in rational arithmetic here."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, (n, 2))
    y = (
        np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
        if lift_name == "product"
        else np.where(X[:, 0] ** 2 + X[:, 1] ** 2 < 0.5, 1, -1)
    )
    y = np.where(rng.random(n) < noise, -y, y)
    y[0], y[1] = 1, -1
    flat, lifted, trace, other = viz.lifted_run(X, y, lift_name, 500)
    said = viz.lift_texts(flat, lifted, trace, lift_name, other)
    third = X[:, 0] * X[:, 1] if lift_name == "product" else X[:, 0] ** 2 + X[:, 1] ** 2
    for verdict, Z in ((flat, X), (lifted, np.column_stack([X, third]))):
        lp = lp_separable(Z, y.astype(float), True)
        if verdict.separable:
            assert lp is not False
        if verdict.separable is False:
            assert lp is not True
            if not verdict.proof.same_point:
                rows = [[Fraction(float(v)) for v in X[i]] for i in verdict.proof.examples]
                lifted_rows = [
                    r + ([r[0] * r[1]] if lift_name == "product" else [r[0] ** 2 + r[1] ** 2])
                    for r in rows
                ]
                width = 2 if verdict is flat else 3
                for c in range(width):
                    assert (
                        sum(
                            w * int(y[i]) * r[c]
                            for w, i, r in zip(
                                verdict.proof.weights, verdict.proof.examples, lifted_rows
                            )
                        )
                        == 0
                    )
                assert (
                    sum(
                        w * int(y[i]) for w, i in zip(verdict.proof.weights, verdict.proof.examples)
                    )
                    == 0
                )
    assert ("No line separates" in said["flat"]) == (flat.separable is False)
    assert ("separable by a line" in said["flat"]) == bool(flat.separable)
    assert ("no plane separates" in said["text"]) == (lifted.separable is False)


def test_a_point_at_the_origin_without_a_bias_is_a_one_example_proof():
    """Linear kernel, no bias: the example at the origin lifts to 0 (y f(x) = 0 for every f)."""
    X = np.array([[0.0, 0.0], [1.0, 0.5], [-1.0, 0.2]])
    y = np.array([1, 1, -1])
    margin = kernel_margin(X, y, kernel="linear", bias=False)
    proof = kernel_no_separator_proof(X, y, kernel="linear", bias=False, margin=margin)
    assert proof is not None and proof.examples.tolist() == [0]
    trace = kernel_perceptron(X, y, kernel="linear", bias=False, max_updates=50)
    text = viz.player_payload(trace, margin, limit=1.5, player={}, proof=proof)["facts"]
    assert "Example 1 lifts to aᵢ = yᵢΦ(xᵢ) = 0 exactly" in text and "never stops" in text


def test_the_rbf_kernel_on_points_with_both_labels_somewhere_else_is_separable():
    """RBF, labels flipped at random: data where no point carries both labels are
    separable (Gram positive definite), whatever the solver's margin; the text says so
    and never "never stops"."""
    from perceptron_core import with_label_noise

    ds = with_label_noise(make_circles(n=80, seed=2), 0.25, seed=3)
    margin = kernel_margin(ds.X, ds.y, kernel="rbf", scale=0.05)
    trace = kernel_perceptron(ds.X, ds.y, kernel="rbf", scale=0.05, max_updates=200, max_epochs=50)
    proof = kernel_no_separator_proof(ds.X, ds.y, kernel="rbf", scale=0.05, margin=margin)
    assert proof is None
    text = viz.player_payload(trace, margin, limit=1.5, player={})["end_text"]
    assert "never stops" not in text
    if not margin.separable:
        assert "always separable" in text


# ---------------------------------------------------------------------------
# Kind 3: numbers inside a shown (in)equality keep it true
# ---------------------------------------------------------------------------


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.floats(1e-30, 1e30), st.integers(1, 6))
def test_rounded_up_is_at_least_and_rounded_down_at_most(value, digits):
    def read(text):
        text = text.replace(",", "").replace("−", "-")
        if "×" in text:
            mantissa, power = text.split(" × 10")
            exponent = int(power.translate(str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")))
            return Fraction(mantissa) * Fraction(10) ** exponent
        return Fraction(text)

    assert read(viz.rounded_text(value, digits, "up")) >= Fraction(value)
    assert read(viz.rounded_text(value, digits, "down")) <= Fraction(value)
    shown = viz.approx_text(value, digits)
    assert shown.startswith("= ") == (read(shown[2:]) == Fraction(value))


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(st.floats(1, 1e14))
def test_at_most_is_the_whole_part_of_the_bound(bound):
    text = viz.most_updates_text(bound)
    assert int(text.replace(",", "")) == math.floor(bound)


def test_shares_never_round_up_to_all():
    assert viz.share_text(1999, 2000) == "1,999 of 2,000 (99.9 %)"
    assert viz.share_text(2000, 2000) == "2,000 of 2,000 (100 %)"


def test_the_bound_sentence_has_a_whole_cap_and_approximate_values():
    """Default page: R_Φ ≈ 1.414, γ_Φ ≈ 0.1899 (the old text wrote "R_Φ = 1.414" and
    "(R_Φ/γ_Φ)² = 55.46", equalities with rounded numbers)."""
    ds = make_circles(n=100, seed=0)
    margin = kernel_margin(ds.X, ds.y, kernel="rbf", scale=2.0)
    trace = kernel_perceptron(ds.X, ds.y, kernel="rbf", scale=2.0, max_updates=2000, max_epochs=500)
    payload = viz.player_payload(trace, margin, limit=1.5, player={})
    assert f"allows at most {math.floor(margin.bound)} updates" in payload["facts"]
    assert "R_Φ ≈ 1.414" in payload["facts"] and "R_Φ = 1.414" not in payload["facts"]
    assert payload["bound"]["most_text"] == str(math.floor(margin.bound))
    assert trace.n_updates <= math.floor(margin.bound)


# ---------------------------------------------------------------------------
# Kind 4 and 5: sentences written from the runs on screen
# ---------------------------------------------------------------------------


def test_the_data_name_the_labels_the_noise_flipped():
    """noise 0.01 at n = 100, data seed 3 flips no label (seed 0 flips 2): the old
    description said "1% of labels flipped" for both."""
    from perceptron_core import with_label_noise

    for data_seed, count in ((3, 0), (0, 2)):
        clean = make_circles(n=100, seed=data_seed)
        noisy = with_label_noise(clean, 0.01, seed=data_seed + 1)
        assert int(np.count_nonzero(noisy.y != clean.y)) == count
        at = open_page(PAGE, {"noise": "0.01", "data_seed": str(data_seed)})
        captions = [c.value for c in at.caption if c.value.startswith("Data:")]
        assert captions == [
            f"Data: two circles, n = 100, seed {data_seed}, each label flipped "
            f"with chance 0.01: {count} flipped."
        ]


def test_the_lift_suggests_no_label_noise_when_there_is_none():
    """XOR with z = x₁² + x₂² and no noise: the old text said "try the other map, or less
    label noise"; now it says what the other map does, computed."""
    ds = make_xor(n=60, seed=0)
    flat, lifted, trace, other = viz.lifted_run(ds.X, ds.y, "squared_norm", 2000)
    said = viz.lift_texts(flat, lifted, trace, "squared_norm", other)
    assert lifted.separable is False and other.separable
    assert "noise" not in said["text"]
    assert "The other map, z = x₁·x₂, does separate them" in said["text"]


def test_the_dual_limit_caption_claims_nothing_when_the_runs_differ():
    """The old caption said both runs made the same mistakes whether or not they did."""
    X, y = np.array([[1.0, 0.0], [1.0, 0.0]]), np.array([1, -1])
    check = viz.dual_check(X, y, True, "cyclic", 0, 50)
    assert viz.dual_limit_text(check) is not None
    assert viz.dual_limit_text(check | {"same": False}) is None


def test_a_target_run_cut_at_its_limit_is_not_called_maybe_not_separable():
    """A conjunction is separable in Φ; the old sentence quoted the core's "the data may
    not be separable" when the run hit its limit."""
    trace, right, positive = viz.learn_target("conjunction", 3, 30, 400, 0, 3)
    assert not trace.converged
    text, _ = viz.learn_target_texts("conjunction", 3, 30, 400, trace, right, positive)
    assert "may not be separable" not in text and "stopped at the limit of 3 updates" in text
    assert "**3 updates**" in text and "mistakes" not in text


def test_the_slow_margin_advice_names_only_settings_that_can_be_lowered():
    """No noise: the old advice said "less label noise"; κ = 0.5 already quick: no κ."""
    text = viz.slow_margin_text(400, 3.0, 0.0, "rbf", 0.5)
    assert "noise" not in text and "κ" not in text and "Fewer points" in text


def test_a_run_cut_by_its_epoch_limit_is_told_as_such():
    """Drawn points (0, 0) labelled +1 and (1, 1) labelled −1, linear kernel, no bias: the
    first lifts to 0, so the run stops at 500 epochs after 501 updates; the old caption
    said a run stops after 2,000 updates."""
    at = open_page(
        PAGE, {"data": "draw", "points": "0,0,1;1,1,-1", "kernel": "linear", "bias": "false"}
    )
    payload = player_payload(at, "kernels")
    assert "this run stopped at the limit of 500 epochs, after 501 updates" in payload["facts"]
    assert "Example 1 lifts to aᵢ = yᵢΦ(xᵢ) = 0 exactly" in payload["facts"]
    captions = " ".join(c.value for c in at.caption)
    assert "stops at 2,000 updates or 500 epochs" in captions
    assert "both stopped at the limit of 500 epochs" in captions


# ---------------------------------------------------------------------------
# Kind 7: the quiz keys against the page's own computations
# ---------------------------------------------------------------------------


def test_the_xor_quiz_key_is_what_the_runs_do():
    from pages.common.questions.kernels import QUESTIONS

    quiz = next(q for q in QUESTIONS if q.key == "kernels_quiz_xor")
    X = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
    y = np.array([1, 1, -1, -1])  # +1 where the signs agree
    assert quiz.answer == "the polynomial kernel of degree 2"
    assert kernel_no_separator_proof(X, y, kernel="linear") is not None
    for scale, coef0 in ((1.0, 1.0), (0.05, 0.0), (2.0, 10.0)):
        assert kernel_perceptron(X, y, kernel="poly", degree=2, scale=scale, coef0=coef0).converged


def test_the_conjunction_quiz_counts_bits_with_d():
    from pages.common.questions.kernels import QUESTIONS

    quiz = next(q for q in QUESTIONS if q.key == "kernels_quiz_conjunctions")
    words = " ".join([quiz.question, *quiz.options, quiz.why])
    assert "about d steps" == quiz.answer and "n bits" not in words and "2ⁿ" not in words


# ---------------------------------------------------------------------------
# Kind 8: b is the bias only, n the points only; κ's direction is said
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("settings_", [{}, {"kernel": "poly"}, {"data": "xor", "kernel": "linear"}])
def test_kernel_arguments_are_x_and_z(settings_):
    at = open_page(PAGE, settings_)
    text = page_text(at)
    for old in ("K(a, b)", "Ones(a, b)", "Φ(a)", "Φ(b)", "a·b", "‖a − b‖", "2ⁿ", " n bits"):
        assert old not in text, old
    assert "K(x, z)" in text


def test_the_scale_says_which_way_it_goes():
    at = open_page(PAGE, {"kernel": "rbf"})
    scale = widget(at, "scale")
    assert "larger κ" in scale.label and "narrower" in scale.label
    assert "σ = 1/√(2κ)" in scale.help and "larger κ gives narrower bumps" in scale.help
    for kappa, sigma in ((0.5, 1.0), (2.0, 0.5), (50.0, 0.1)):  # the help's examples
        assert f"κ = {kappa:g}: σ = {sigma:g}" in scale.help
        assert math.isclose(1 / math.sqrt(2 * kappa), sigma)


def test_menus_show_words_and_links_keep_names():
    at = open_page(PAGE, {"kernel": "poly", "order": "max_distance", "lift": "product"})
    assert at.selectbox(key="kernel").value == "poly"
    assert at.selectbox(key="order").value == "max_distance"
    shown = at.selectbox(key="kernel").options + at.selectbox(key="order").options
    assert "polynomial" in shown and "max_distance" not in shown and "rbf" not in shown
    assert at.query_params["kernel"] in ("poly", ["poly"])


# ---------------------------------------------------------------------------
# Browser: the player's words, the phone's width, the JavaScript's number formats
# ---------------------------------------------------------------------------

PHONE_AGENT = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like "
    "Gecko) Chrome/126.0.0.0 Mobile Safari/537.36"
)


def _scene_functions(page):
    """scene_common.js and kernels_scene.js loaded into a blank page, as the player does."""
    from pages.player.player_component import HERE

    page.set_content("<html><body></body></html>")
    for name in ("scene_common.js", "scene_numbers.js", "kernels_scene.js"):
        page.add_script_tag(content=(HERE / name).read_text(encoding="utf-8"))


@pytest.mark.browser
def test_scores_and_shares_keep_their_comparisons_true(browser):
    """y f(x) = 2·10⁻⁴ > 0 was written "0.000 > 0"; 1,999 of 2,000 right was "100.0%"."""
    from browser_helpers import new_page

    with new_page(browser, 800, 600) as page:
        _scene_functions(page)
        texts = page.evaluate(
            "() => [relationText(2e-4, '>', '0'), "
            "relationText(-4e-4, '≤', '0'), relationText(0, '≤', '0'), "
            "relationText(0.123456, '>', '0'), percentText(1999, 2000), "
            "percentText(2000, 2000)]"
        )
    assert texts == ["0.0002", "−0.0004", "0", "0.123", "99.95%", "100%"]


@pytest.mark.browser
@pytest.mark.parametrize("width", [360, 390, 430])
def test_nothing_pans_sideways_on_a_phone(browser, streamlit_server, width):
    """The feature table of ten bits, the lift and the timing chart opened: the page and
    every table box are no wider than the phone, and no toolbar covers a part's title."""
    from browser_helpers import open_url, wait_for_app

    context = browser.new_context(
        viewport={"width": width, "height": 800},
        is_mobile=True,
        has_touch=True,
        user_agent=PHONE_AGENT,
    )
    context.set_default_timeout(90_000)
    try:
        page = context.new_page()
        open_url(page, f"{streamlit_server}/kernels?bits_x=1101101011&bits_z=1011011101")
        for title in ("written out", "Show the lift"):
            page.locator("summary", has_text=title).first.click()
            wait_for_app(page)
        page.locator(".lab-table").first.wait_for()
        sizes = page.evaluate("""() => ({
            page: [document.documentElement.scrollWidth, window.innerWidth],
            boxes: [...document.querySelectorAll('.lab-table-box')].map(
                b => [b.scrollWidth, b.clientWidth]),
            tables: document.querySelectorAll('[data-testid="stDataFrame"]').length,
            covered: [...document.querySelectorAll('[data-testid="stElementToolbar"], .modebar')]
                .filter(t => t.getBoundingClientRect().width > 0)
                .some(t => [...document.querySelectorAll('summary')].some(s => {
                    const a = t.getBoundingClientRect(), b = s.getBoundingClientRect();
                    return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
                })),
        })""")
        assert sizes["page"][0] <= sizes["page"][1], sizes
        assert sizes["boxes"] and all(scroll <= client for scroll, client in sizes["boxes"]), sizes
        assert sizes["tables"] == 0 and not sizes["covered"], sizes
    finally:
        context.close()


@pytest.mark.browser
def test_the_phone_is_not_told_to_press_keys(browser, streamlit_server):
    from browser_helpers import open_player

    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        user_agent=PHONE_AGENT,
    )
    context.set_default_timeout(90_000)
    try:
        player = open_player(context.new_page(), f"{streamlit_server}/kernels")
        text = player.get_by_test_id("step-text").inner_text()
        assert "Nothing examined yet" in text and "→" not in text
    finally:
        context.close()


@pytest.mark.browser
def test_an_update_on_a_right_prediction_is_not_called_a_mistake(page, streamlit_server):
    """Step 1 examines example 1 with f = 0: a −1 example is predicted right (sign(0) = −1)
    and still updated; the old text called it "a mistake"."""
    from browser_helpers import open_player, wait_for_player

    seed = next(s for s in range(50) if make_circles(n=100, seed=s).y[0] < 0)
    player = open_player(page, f"{streamlit_server}/kernels?data_seed={seed}")
    wait_for_player(player, 0, 0)
    page.keyboard.press("ArrowRight")
    wait_for_player(player, 1, 1)
    text = player.get_by_test_id("step-text").inner_text()
    assert "y f(x) = 0 ≤ 0" in text and "which is right" in text and "a mistake" not in text
    assert "→ / ↓" not in text
    titles = player.locator(".panel-title").all_inner_texts()
    assert any("w_t" in t for t in titles) and not any("wₖ" in t for t in titles)
