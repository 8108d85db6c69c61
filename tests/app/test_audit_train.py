"""The re-audit of /train (docs/audit/train.md): each kind of false sentence the audit found,
with the settings that made the old sentence false, and property tests that check what the
page states against an independent recomputation.

Kinds (AUDIT.md): 1 "exact" that is a tolerance, 2 rounding residue deciding a tie, 3 a
rounded number inside a shown relation, 4 a fixed sentence false for some settings, 5 a
cause guessed instead of computed, 6 a theorem beyond its hypotheses, 7 a quiz key against
the page, 8 one symbol with two meanings. The references here are written apart from the
page's code: exact decimals (fractions.Fraction), plain loops, and margins by brute force
over the hulls of at most a dozen points.
"""

from __future__ import annotations

import itertools
import re
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from app_helpers import open_page, player_payload, widget
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from reference_perceptron import reference_perceptron

from pages.common.question_bank import QUESTIONS_BY_PAGE, predict_next_step_question
from pages.train_parts import runs
from pages.train_parts.runs import run_from_link
from perceptron_core import make_separable, run_perceptron
from perceptron_core.theory import NAMED_RESULTS, NOTATION, threshold_bound

PAGE = "pages/train.py"
#: where every /train run stops if it has not converged: (updates, epochs)
LIMITS = getattr(runs, "LIMITS", (5_000, 500))
SIGNS = {
    "≤": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    "<": lambda a, b: a < b,
    "≥": lambda a, b: a >= b,
}
#: a number as the page writes it: real minus, decimals, e-notation (2.0e−4)
NUMBER = r"−?\d[\d,]*(?:\.\d+)?(?:e−?\d+)?"


def exact(text: str) -> Fraction:
    """The exact value of a number as written on the page."""
    return Fraction(Decimal(text.replace("−", "-").replace(",", "")))


def relations(text: str):
    """Every "a REL δ = d" the text states, as (a, REL, d) texts."""
    return re.findall(rf"({NUMBER}) ([≤>]) δ = ({NUMBER})", text)


def assert_relations_true(text: str, at_least: int = 1) -> None:
    found = relations(text)
    assert len(found) >= at_least, text
    for left, sign, right in found:
        assert SIGNS[sign](exact(left), exact(right)), f"{left} {sign} {right} in: {text}"


def train_payload(query: dict) -> dict:
    return player_payload(open_page(PAGE, query), "train")


# ---------------------------------------------------------------------------
# Independent references: margins by brute force over the hulls (2-D and 3-D)
# ---------------------------------------------------------------------------


def _nearest_on_simplex(vertices: np.ndarray) -> np.ndarray | None:
    """The point of the affine hull of ``vertices`` nearest 0, if it lies inside them."""
    base, rest = vertices[0], vertices[1:] - vertices[0]
    if len(rest) == 0:
        return base
    coef, *_ = np.linalg.lstsq(rest.T, -base, rcond=None)
    weights = np.concatenate([[1 - coef.sum()], coef])
    return weights @ vertices if np.all(weights >= -1e-12) else None


def min_norm(points) -> float:
    """The distance from 0 to conv(points): 0 when 0 lies in the hull (Carathéodory: in a
    simplex of d + 1 of the points), else the least distance to a face of at most d points."""
    points = np.asarray(points, float)
    dim = points.shape[1]
    for size in range(1, dim + 2):
        for face in itertools.combinations(points, size):
            nearest = _nearest_on_simplex(np.array(face))
            if nearest is not None and np.linalg.norm(nearest) <= 1e-12:
                return 0.0
    best = min(np.linalg.norm(p) for p in points)
    for size in range(2, dim + 1):
        for face in itertools.combinations(points, size):
            nearest = _nearest_on_simplex(np.array(face))
            if nearest is not None:
                best = min(best, float(np.linalg.norm(nearest)))
    return float(best)


def reference_margins(X, y) -> dict:
    """γ through the origin, γ with a bias (half the distance between the class hulls) and
    γ₂ of the padded examples, each by brute force."""
    X, y = np.asarray(X, float), np.asarray(y)
    pos, neg = X[y > 0], X[y < 0]
    both = len(pos) and len(neg)
    return {
        "origin": min_norm(y[:, None] * X),
        "bias": min_norm([p - q for p in pos for q in neg]) / 2 if both else np.inf,
        "padded": min_norm(y[:, None] * np.hstack([X, np.ones((len(y), 1))])),
    }


def shown_number(text: str, name: str) -> float:
    found = re.search(rf"{re.escape(name)} = ({NUMBER})", text)
    assert found, (name, text)
    return float(exact(found[1]))


# ---------------------------------------------------------------------------
# Kind 3: a rounded number inside a shown relation
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("delta", ["0.005", "0.004", "0.1234567", "0.125"])
def test_delta_is_written_as_typed_wherever_it_is_compared(delta):
    """δ = 0.005 read "δ = 0.01" in the player; 0.1234567 read "0.123457" in the texts."""
    sent = train_payload({"delta": delta})
    for text in (sent["end_text"], sent["bound"]["hypotheses"]):
        shown = re.findall(rf"δ = ({NUMBER})", text)
        assert shown and all(exact(value) == Fraction(Decimal(delta)) for value in shown), text
    question = predict_next_step_question({"delta": delta, "step": "0"})
    assert f"δ = {delta}" in question.question
    assert_relations_true(question.why)


def test_predict_writes_a_score_just_above_delta_with_the_digits_that_show_it():
    """Score 0.1004 > δ = 0.1 was written "0.100 > δ = 0.1"."""
    link = {"source": "draw", "points": "1,0,1;0.1004,0,1", "bias": "false", "delta": "0.1"}
    question = predict_next_step_question(dict(link, step="1"))
    assert question.answer.startswith("No")
    assert_relations_true(question.why)
    assert "0.1004 > δ = 0.1" in question.why


def test_predict_shows_numbers_that_work_out_to_the_runs_answer():
    """x = (0.504, −0.5) was shown as (0.50, −0.50) with w = (1.00, 1.00): worked out as
    written, the score is 0 ≤ 0 (an update), but the run's score is 0.004 > 0 (none)."""
    link = {"source": "draw", "points": "1,1,1;0.504,-0.5,1", "bias": "false", "step": "1"}
    question = predict_next_step_question(link)
    numbers = re.search(
        rf"x = \(({NUMBER}), ({NUMBER})\), y = ([+−]1), with "
        rf"w = \(({NUMBER}), ({NUMBER})\)",
        question.question,
    )
    x1, x2, label, w1, w2 = (exact(v.replace("+", "")) for v in numbers.groups())
    assert (label * (w1 * x1 + w2 * x2) <= 0) == question.answer.startswith("Yes")
    assert question.answer.startswith("No")


# ---------------------------------------------------------------------------
# Kind 5: a cause computed, not guessed
# ---------------------------------------------------------------------------


def test_predict_at_step_0_names_the_cause_for_a_minus_one_point():
    """At w = 0 a −1 point is predicted right (sign(0) = −1); it updates because 0 ≤ δ."""
    link = {"source": "draw", "points": "0.5,0.5,-1;-0.5,-0.5,1", "step": "0"}
    question = predict_next_step_question(link)
    assert question.answer.startswith("Yes")
    assert "wrong side" not in question.why
    assert "right for its label −1" in question.why and "at most δ = 0" in question.why


def test_no_advice_to_lower_a_delta_that_is_already_0():
    """A separable run stopped by the epoch limit was told "Try a smaller δ" at δ = 0."""
    sent = train_payload({"n": "200", "margin": "0.01", "data_seed": "5"})
    assert not sent["converged"] and sent["bound"] is not None
    assert "smaller δ" not in sent["end_text"] and "δ =" not in sent["end_text"]
    assert "500 epochs" in sent["end_text"]
    assert f"within {sent['bound']['value_text']} updates" in sent["end_text"]


# ---------------------------------------------------------------------------
# Kind 4: a fixed sentence false for some settings
# ---------------------------------------------------------------------------


def test_label_noise_that_flips_nothing_is_said_to_flip_nothing():
    """ "Flip labels at random: the data stop being separable": at 0.01 none flips."""
    at = open_page(PAGE, {"noise": "0.01"})
    assert "stop being separable" not in widget(at, "noise").help
    note = " ".join(caption.value for caption in at.sidebar.caption)
    assert "No label flipped" in note and "(0 of 40)" in note
    sent = player_payload(at, "train")
    assert sent["converged"] and sent["bound"] is not None


def test_label_noise_that_flips_labels_says_how_many():
    at = open_page(PAGE, {"noise": "0.2"})
    clean = make_separable(n=40, margin=0.1, dim=2, radius=1.0, seed=7)
    noisy = np.asarray(player_payload(at, "train")["y"])
    flipped = int(np.count_nonzero(np.asarray(clean.y) != noisy))
    note = " ".join(caption.value for caption in at.sidebar.caption)
    assert f"{flipped} of 40 labels flipped" in note and flipped > 0


def test_a_constant_accuracy_is_not_said_to_keep_jumping():
    """A point at the origin, no bias: the accuracy is 0% at every update."""
    sent = train_payload({"source": "draw", "points": "0,0,1", "bias": "false"})
    caption = sent["path"]["caption"]
    assert "keeps jumping" not in caption
    assert "stays at 0% at every update" in caption
    assert set(sent["path"]["accuracy"]) == {0.0}


# ---------------------------------------------------------------------------
# Kind 6: a theorem within its hypotheses
# ---------------------------------------------------------------------------


def test_theorem_1_35_is_not_applied_to_a_zero_column_without_saying_so():
    """Without a bias a point at the origin has aᵢ = 0, outside Theorem 1.35's hypotheses."""
    sent = train_payload(
        {"source": "draw", "points": "0,0,1;0.5,0,-1;-0.5,0.2,-1", "bias": "false"}
    )
    caption = sent["path"]["caption"]
    assert "every aᵢ ≠ 0" in caption and "Example 1, at the origin, has aᵢ = 0" in caption
    assert "aᵢ ≠ 0" in NAMED_RESULTS["Theorem 1.35"]


# ---------------------------------------------------------------------------
# Kind 1: separability decided exactly (perceptron_core/margin.py), and said so
# ---------------------------------------------------------------------------


def test_a_margin_of_five_times_ten_to_the_minus_thirteen_is_a_margin():
    """Separable by a margin of 5·10⁻¹³ (the line x₂ = 0): called "not separable (computed
    exactly)" before. Now the data are separable, the margin is named and the run's bound
    holds."""
    points = "0.5,5e-13,1;0.5,-5e-13,-1;-0.5,5e-13,1;-0.5,-5e-13,-1"
    for bias in ("true", "false"):
        sent = train_payload({"source": "draw", "points": points, "bias": bias})
        assert "No line" not in sent["facts"] and sent["path"] is None
        label = "Best margin γ" if bias == "true" else "Best margin through the origin γ"
        assert abs(shown_number(sent["facts"], label) - 5e-13) <= 5e-4 * 5e-13
        assert sent["bound"] is not None


def test_no_line_is_said_with_how_it_was_decided():
    """Two points at the same place with opposite labels: no line separates them, decided
    in exact arithmetic (not a tolerance)."""
    sent = train_payload({"source": "draw", "points": "0.5,0.5,1;0.5,0.5,-1", "bias": "true"})
    assert "No line separates these data (decided in exact arithmetic" in sent["facts"]
    assert "10⁻¹²" not in sent["facts"]


# ---------------------------------------------------------------------------
# Kind 8: one symbol, one meaning
# ---------------------------------------------------------------------------


def test_the_planted_line_is_not_called_w_star():
    """w* is the unit vector of the proof (best padded margin); the generator's line is
    another one and is not called w*."""
    at = open_page(PAGE)
    assert "w*" not in widget(at, "show_planted").label
    assert (
        "w* is the unit vector with the best margin"
        in player_payload(at, "train")["proof"]["caption"]
    )
    assert NOTATION["t"].startswith("the number of updates")


# ---------------------------------------------------------------------------
# The student's items: the random start's two bounds
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query",
    [
        {"init": "random"},
        {
            "init": "random",
            "delta": "0.5",
            "order_seed": "3",
            "bias": "false",
            "through_origin": "true",
        },
    ],
)
def test_a_random_start_says_why_its_two_bounds_differ(query):
    sent = train_payload(query)
    title = sent["proof"]["title"]
    settings_, _, _, trace, _ = run_from_link(query)
    w0 = np.append(trace.weights[0], trace.biases[0]) if trace.bias else trace.weights[0]
    # the lines meet where a₀ + tγ = sqrt(n₀ + t·s), found by bisection (not the page's root)
    a0, gamma = float(np.asarray(sent["proof"]["alignment"])[0]), sent["proof"]["margin"]
    n0, step = float(w0 @ w0), sent["proof"]["step_sq"]
    low, high = 0.0, 1e7
    for _ in range(200):
        middle = (low + high) / 2
        low, high = (
            (middle, high) if a0 + middle * gamma <= np.sqrt(n0 + middle * step) else (low, middle)
        )
    worst = threshold_bound(
        step - 2 * settings_["delta"], gamma, settings_["delta"], float(np.linalg.norm(w0))
    )
    assert f"at most t = {low:,.2f} updates from this start" in title
    assert f"{worst:,.2f}, is at least that" in title and worst >= low
    assert "assumes the worst one" in title
    said = float(exact(re.search(rf"w\*⟩ = ({NUMBER})", title)[1]))  # ⟨w₀, w*⟩, 3 digits
    assert abs(said - a0) <= 5e-3 * abs(a0)


# ---------------------------------------------------------------------------
# Kind 2: a tie is decided as the run decides it (exact arithmetic for grid points)
# ---------------------------------------------------------------------------


def exact_states(G, y, trace, scale=20):
    """(w, b) after each update in exact arithmetic, for points G / scale on a grid."""
    w, b = [Fraction(0), Fraction(0)], Fraction(0)
    states = [(tuple(w), b)]
    for i in trace.update_indices:
        w = [
            w[0] + int(y[i]) * Fraction(int(G[i][0]), scale),
            w[1] + int(y[i]) * Fraction(int(G[i][1]), scale),
        ]
        b = b + int(y[i]) if trace.bias else b
        states.append((tuple(w), b))
    return states


@pytest.mark.parametrize("seed", range(4))
def test_the_players_allowance_is_the_runs(seed):
    """The allowance sent per state (``updates.slack``) is the one the run decided its ties
    with: replayed here with the run's own ScoreRounding, update by update."""
    from perceptron_core import with_label_noise
    from perceptron_core.perceptron import ScoreRounding, row_norms
    from perceptron_core.viz.train import state_slacks

    data = with_label_noise(make_separable(n=50, seed=seed), 0.2, seed=seed)
    X, y = np.asarray(data.X), np.asarray(data.y)
    start = np.array([0.3, -0.2]) if seed % 2 else None
    trace = run_perceptron(
        X, y, w0=start, b0=0.1 if seed % 2 else 0.0, max_updates=3_000, max_epochs=200
    )
    rounding = ScoreRounding(row_norms(X), float(row_norms(trace.weights[:1])[0]))
    replayed = []
    for k, b in enumerate(trace.biases):
        replayed.append(rounding.slack(float(b)))
        if k < trace.n_updates:
            rounding.add(int(trace.update_indices[k]))
    assert np.array_equal(state_slacks(trace, X), np.array(replayed))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(st.integers(-8, 8), st.integers(-8, 8), st.sampled_from([-1, 1])),
        min_size=2,
        max_size=7,
        unique_by=lambda p: p[:2],
    ),
    st.booleans(),
)
def test_rings_and_accuracy_decide_grid_ties_exactly(points, bias):
    """On points of the drawing grid, a score that is 0 in exact arithmetic is 0 for the
    rings ("an update is due") and for the accuracy (predicted −1), as for the run."""
    from pages.train_parts.runs import train
    from perceptron_core.viz import train as viz
    from perceptron_core.viz.player import player_spec

    G = np.array([p[:2] for p in points])
    y = np.array([p[2] for p in points])
    X = G / 20
    trace, bounds, statements, case, proof, w0_norm = train.__wrapped__(
        X, y, bias, 0.0, "cyclic", "zero", 0
    )
    sent = viz.player_payload(
        X,
        y,
        trace,
        bounds,
        statements=statements,
        case=case,
        proof=proof,
        w0_norm=w0_norm,
        limit=viz.axis_limit(X),
        player=player_spec("id", trace.n_examined, trace.update_steps),
        limits=LIMITS,
    )
    up = sent["updates"]
    for k, (w, b) in enumerate(exact_states(G, y, trace)[:60]):
        values = [w[0] * Fraction(int(g[0]), 20) + w[1] * Fraction(int(g[1]), 20) + b for g in G]
        due = [int(label) * f <= 0 for f, label in zip(values, y)]
        # the player's ring test, as train_scene.js computes it (same operations, in order)
        wf, bf = up["weights"][k], up["biases"][k]
        shown = [
            label * (wf[0] * x[0] + wf[1] * x[1] + bf) <= 0 + up["slack"][k]
            for x, label in zip(X.tolist(), y.tolist())
        ]
        assert shown == due, (k, values)
        right = sum((1 if f > 0 else -1) == label for f, label in zip(values, y))
        assert round(up["accuracy"][k] * len(y)) == right


# ---------------------------------------------------------------------------
# Property tests: what the player's texts state, against independent recomputation
# ---------------------------------------------------------------------------

#: a coordinate: 0, or at least 10⁻³ in size (numbers the page's data checks accept and that
#: round-off does not swamp)
coordinate = st.one_of(st.just(0.0), st.floats(1e-3, 1), st.floats(-1, -1e-3))
small_data = st.lists(
    st.tuples(coordinate, coordinate, st.sampled_from([-1, 1])), min_size=1, max_size=7
).map(lambda rows: (np.array([r[:2] for r in rows]), np.array([r[2] for r in rows])))


def _sent(X, y, bias, delta, start="zero", seed=0):
    from pages.train_parts.runs import train
    from perceptron_core.viz import train as viz
    from perceptron_core.viz.player import player_spec

    trace, bounds, statements, case, proof, w0_norm = train.__wrapped__(
        X, y, bias, delta, "cyclic", start, seed
    )
    return trace, viz.player_payload(
        X,
        y,
        trace,
        bounds,
        statements=statements,
        case=case,
        proof=proof,
        w0_norm=w0_norm,
        limit=viz.axis_limit(X),
        player=player_spec("id", trace.n_examined, trace.update_steps),
        limits=LIMITS,
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    small_data,
    st.booleans(),
    st.sampled_from([0.0, 0.005, 0.125, 0.3, 2.0]),
    st.sampled_from(["zero", "random"]),
)
def test_facts_and_end_text_agree_with_brute_force_and_a_plain_loop(data, bias, delta, start):
    X, y = data
    if np.any(~X.any(axis=1)) or len({tuple(r) for r in X.round(9)}) < len(X):
        return  # no point at the origin or repeated here (their own tests cover them)
    trace, sent = _sent(X, y, bias, delta, start)
    facts, end = sent["facts"], sent["end_text"]
    radius = float(np.max(np.linalg.norm(X, axis=1)))
    assert abs(shown_number(facts, "R = max‖x‖") - radius) <= 5e-4 * radius
    margins = reference_margins(X, y)
    wanted = margins["bias" if bias else "origin"]
    one_class = len(set(y.tolist())) == 1
    if wanted > 1e-6 and not one_class:  # separable for the run: margins and bound named
        label = "Best margin γ" if bias else "Best margin through the origin γ"
        assert abs(shown_number(facts, label) - wanted) <= 5e-4 * wanted + 1e-9
        if bias:
            gamma_2 = shown_number(facts, "padded γ₂")
            assert abs(gamma_2 - margins["padded"]) <= 5e-4 * margins["padded"] + 1e-9
        assert sent["bound"] is not None and trace.n_updates <= sent["bound"]["value"]
    if wanted <= 1e-9 and not (one_class and bias):
        assert (
            re.search(
                r"No line( through the origin)? (separates these data|has every "
                r"point strictly on one side) \(decided in exact arithmetic",
                facts,
            )
            and sent["bound"] is None
        )
    ref = reference_perceptron(
        X,
        y,
        bias=bias,
        delta=delta,
        w0=trace.weights[0],
        b0=trace.biases[0],
        max_updates=LIMITS[0],
        max_epochs=LIMITS[1],
    )
    assert ref.update_indices.tolist() == trace.update_indices.tolist()
    if trace.converged:
        final = y * (X @ trace.weights[-1] + trace.biases[-1])
        assert np.all(final > delta)
        said = re.search(rf"every example now has y\(w·x \+ b\) > δ = ({NUMBER})\.", end)
        assert said and exact(said[1]) == Fraction(Decimal(repr(delta))), end
    else:
        assert "Stopped without converging" in end
        if sent["bound"] is None:
            assert "smaller δ" not in end


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_data.filter(lambda d: len(d[1]) >= 2), st.booleans())
def test_the_accuracy_sentence_is_the_runs(data, bias):
    X, y = data
    trace, sent = _sent(X, y, bias, 0.0)
    if sent["path"] is None:
        return
    # exact arithmetic: w after each update as a sum of the examples (Fractions of the floats)
    rows = [[Fraction(float(v)) for v in x] for x in X]
    w, b, shares = [Fraction(0), Fraction(0)], Fraction(0), []
    for k in range(trace.n_updates + 1):
        scores = [w[0] * r[0] + w[1] * r[1] + b for r in rows]
        assume(all(f == 0 or abs(f) > 1e-9 for f in scores))  # no near-tie: exact or clear
        shares.append(sum((1 if f > 0 else -1) == label for f, label in zip(scores, y)))
        if k < trace.n_updates:
            i = int(trace.update_indices[k])
            w = [w[0] + int(y[i]) * rows[i][0], w[1] + int(y[i]) * rows[i][1]]
            b += int(y[i]) if bias else 0
    caption = sent["path"]["caption"]
    if min(shares) == max(shares):
        assert "stays at" in caption and "moves between" not in caption
    else:
        changes = int(np.count_nonzero(np.diff(shares)))
        assert f"it changes at {changes:,} of the {len(shares) - 1:,} updates" in caption


def _views():
    rng = np.random.default_rng(34)
    for _ in range(14):
        yield {
            "n": str(int(rng.integers(2, 30))),
            "margin": f"{rng.uniform(0.02, 0.4):.2f}",
            "data_seed": str(int(rng.integers(0, 500))),
            "bias": str(bool(rng.random() < 0.7)).lower(),
            "delta": ["0", "0.004", "0.005", "0.125", "0.5"][int(rng.integers(5))],
            "order": ["cyclic", "permuted", "random"][int(rng.integers(3))],
            "init": ["zero", "random"][int(rng.integers(2))],
            "order_seed": str(int(rng.integers(0, 50))),
            "noise": ["0", "0", "0.2"][int(rng.integers(3))],
        }
    yield {
        "source": "draw",
        "points": "0.1,0.2,1;-0.15,0.1,-1;0.05,-0.25,1;0.3,0.05,-1",
        "delta": "0.005",
    }


@pytest.mark.parametrize("view", list(_views()), ids=lambda v: "-".join(v.values())[:60])
def test_predict_the_next_step_against_a_plain_loop(view):
    """The question's numbers work out to the answer; the why states true relations with δ as
    typed, the cause the plain loop's score shows, and the count of examples still failing."""
    settings_, X, y, trace, _ = run_from_link(view)
    delta = settings_["delta"]
    ref = reference_perceptron(
        X,
        y,
        bias=settings_["bias"],
        delta=delta,
        w0=trace.weights[0],
        b0=trace.biases[0],
        order=settings_["order"],
        seed=settings_["order_seed"],
        max_updates=LIMITS[0],
        max_epochs=LIMITS[1],
    )
    updated_at = {int(s): k for k, s in enumerate(ref.update_steps)}
    for shown in sorted({0, 1, trace.n_examined - 1, *range(0, trace.n_examined, 11)}):
        q = predict_next_step_question(dict(view, step=str(shown)))
        nxt, index = shown + 1, int(ref.examined[shown])
        assert q.answer.startswith("Yes") == (nxt in updated_at)
        assert_relations_true(q.why)
        assert re.search(rf"δ = {re.escape(view.get('delta', '0'))}\b", q.question)
        numbers = [exact(v) for v in re.findall(NUMBER, q.question.split(": x = ")[1])]
        label = 1 if y[index] > 0 else -1
        x1, x2, w1, w2 = numbers[0], numbers[1], numbers[3], numbers[4]
        b = numbers[5] if settings_["bias"] else 0
        worked = label * (w1 * x1 + w2 * x2 + b)
        assert (worked <= Fraction(Decimal(repr(delta)))) == (nxt in updated_at), q.question
        before = sum(1 for s in ref.update_steps if s < nxt)
        w, bias_now = ref.weights[before], ref.biases[before]
        score = label * (w @ X[index] + bias_now)
        if nxt in updated_at:
            if score < -1e-9:
                assert "wrong side" in q.why
            elif abs(score) <= 1e-9:
                assert "lies on the line" in q.why
            else:
                assert "right side and predicted correctly" in q.why
        else:
            failing = int(np.sum(y * (X @ w + bias_now) <= delta + 1e-9))
            said = (
                "every example passes"
                if failing == 0
                else f"{failing:,} other example{'s' * (failing != 1)} still fail"
            )
            assert said in q.why


# ---------------------------------------------------------------------------
# Kind 7: the quiz keys against the page's own runs
# ---------------------------------------------------------------------------


def test_the_quiz_keys_agree_with_runs_of_the_page():
    questions = {q.key: q for q in QUESTIONS_BY_PAGE["train"]}
    # one point (x, +1), w = 0, b = 0, δ = 0: exactly one update, with or without a bias
    for bias in ("true", "false"):
        sent = train_payload({"source": "draw", "points": "0.35,-0.6,1", "bias": bias})
        assert len(sent["updates"]["indices"]) == 1 and sent["converged"]
    assert questions["quiz_single_point"].answer == "exactly one"
    # every order converges on separable data, within the bound the page names
    for order in ("cyclic", "permuted", "random", "max_residual", "max_distance"):
        sent = train_payload({"order": order, "order_seed": "4", "n": "60", "margin": "0.05"})
        assert sent["converged"] and len(sent["updates"]["indices"]) <= sent["bound"]["value"]
    assert questions["quiz_order"].answer.startswith("no")
    # δ adds 2δ/γ₂² to the bound
    data = make_separable(n=40, margin=0.1, dim=2, radius=1.0, seed=7)
    plain, with_delta = train_payload({}), train_payload({"delta": "0.5"})
    gamma_2 = min_norm(np.asarray(data.y)[:, None] * np.hstack([data.X, np.ones((40, 1))]))
    assert with_delta["bound"]["value"] - plain["bound"]["value"] == pytest.approx(
        2 * 0.5 / gamma_2**2, rel=1e-6
    )
    assert "2δ/γ₂²" in questions["quiz_delta"].answer
    assert run_perceptron(data.X, data.y, delta=0.5).converged


# ---------------------------------------------------------------------------
# The browser: what only the player shows
# ---------------------------------------------------------------------------


def _player_text(page, url: str, moves: list[str]):
    from browser_helpers import open_player, wait_for_player

    player = open_player(page, url)
    wait_for_player(player)
    for move in moves:
        player.locator(f'button[data-action="{move}"]').click()
        page.wait_for_timeout(100)
    return player


def test_a_phone_is_told_what_to_tap_and_a_keyboard_which_keys(browser, streamlit_server):
    from browser_helpers import PAGE_TIMEOUT

    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    try:
        page = phone.new_page()
        page.set_default_timeout(PAGE_TIMEOUT)
        player = _player_text(page, f"{streamlit_server}/train", [])
        text = player.get_by_test_id("step-text").inner_text()
        assert "Tap" in text and "→" not in text and "↓" not in text, text
        player.locator('button[data-action="play"]').click()
        live = player.locator(".live")
        page.wait_for_function(
            "el => el.textContent.includes('Playing')", arg=live.element_handle()
        )
        assert "Tap Pause" in live.inner_text() and "Space" not in live.inner_text()
    finally:
        phone.close()


def test_the_counters_show_the_runs_totals_as_totals(page, streamlit_server):
    """ "updates 0 / 42" read like a bound: the value is the count so far, the run's total
    stands under it as the run's total."""
    player = _player_text(page, f"{streamlit_server}/train", [])
    assert "Press Next mistake" in player.get_by_test_id("step-text").inner_text()
    run_updates = int(player.locator('input[data-action="scrub"]').get_attribute("max"))
    assert player.locator('[data-counter="updates"]').inner_text() == "0"
    assert player.locator('[data-total="updates"]').inner_text() == f"run total: {run_updates}"
    assert player.locator('[data-counter="examined"]').inner_text() == "0"
    assert "/" not in player.locator(".counters").inner_text()


def test_the_player_writes_delta_as_typed_and_a_tiny_score_with_its_digits(page, streamlit_server):
    """ "0.000 ≤ δ = 0.01" for δ = 0.005 and "0.000 > δ = 0" for a score of 2·10⁻⁴."""
    player = _player_text(
        page,
        f"{streamlit_server}/train?source=draw&points=0.5,0.5,-1;-0.5,-0.5,1&delta=0.005",
        ["next_example"],
    )
    text = player.get_by_test_id("step-text").inner_text()
    assert "= 0 ≤ δ = 0.005" in text, text
    assert_relations_true(text)
    player = _player_text(
        page,
        f"{streamlit_server}/train?source=draw&points=1,0,1;0.0002,0,1&bias=false",
        ["next_example", "next_example"],
    )
    text = player.get_by_test_id("step-text").inner_text()
    assert "0.0002 > δ = 0" in text, text
    assert_relations_true(text)


def test_a_grid_tie_is_ringed_as_due(page, streamlit_server):
    """Two drawn points: after two updates example 1 has y(w·x + b) = 0 exactly (3.5·10⁻¹⁸ in
    floats): an update is due there, and its ring is drawn."""
    points = "-0.25,-0.05,1;-0.3,0.2,-1"
    player = _player_text(
        page,
        f"{streamlit_server}/train?source=draw&points={points}",
        ["next_mistake", "next_mistake"],
    )
    assert player.get_attribute("data-updates") == "2"
    rings = player.locator("g.rings path").evaluate_all(
        "paths => paths.map(p => (p.getAttribute('d').match(/a/g) || []).length / 2)"
    )
    G = np.array([[-5, -1], [-6, 4]])
    y = np.array([1, -1])
    trace = run_perceptron(G / 20, y)
    w, b = exact_states(G, y, trace)[2]
    due = sum(
        int(label) * (w[0] * Fraction(int(g[0]), 20) + w[1] * Fraction(int(g[1]), 20) + b) <= 0
        for g, label in zip(G, y)
    )
    assert sum(rings) == due >= 1


def test_the_players_numbers_are_the_pythons(browser):
    """scene_numbers.js writes what perceptron_core/shown_numbers.py writes (δ, a score in a
    relation, a percentage), on values chosen to be hard: ties at halves, tiny and huge."""
    from pathlib import Path

    from perceptron_core.shown_numbers import exact_text, relation_text
    from perceptron_core.viz.train import percent_text

    rng = np.random.default_rng(3)
    values = [
        0.005,
        0.004,
        0.1234567,
        1e-7,
        1e-5,
        1e-4,
        0.30000000000000004,
        2.5,
        1e20,
        -3e-9,
        *rng.uniform(-1, 1, 30),
        *(10.0 ** rng.uniform(-12, 3, 30)),
    ]
    deltas = [0.0, 0.005, 0.1, 0.125, 0.3, 1e-7]
    cases = [
        (float(v), rel, exact_text(d))
        for v in values
        for d in deltas
        for rel in ("≤", ">")
        if SIGNS[rel](v, d)
    ]
    counts = [
        (int(c), int(t))
        for t in (3, 40, 400, 2000, 20000)
        for c in (0, 1, t // 3, t // 2, t - 1, t)
    ]
    script = (Path(__file__).resolve().parents[2] / "pages/player/scene_numbers.js").read_text()
    context = browser.new_context(bypass_csp=True)
    try:
        page = context.new_page()
        page.set_content("<html><body></body></html>")
        page.add_script_tag(
            content=script + "\nwindow.numbers = { exactText, relationText, percentText };"
        )
        shown = page.evaluate(
            """([values, cases, counts]) => [
            values.map((v) => window.numbers.exactText(v)),
            cases.map(([v, r, o]) => window.numbers.relationText(v, r, o)),
            counts.map(([c, t]) => window.numbers.percentText(c, t))]""",
            [values, cases, counts],
        )
    finally:
        context.close()
    assert shown[0] == [exact_text(v) for v in values]
    assert shown[1] == [relation_text(v, r, o) for v, r, o in cases]
    assert shown[2] == [percent_text(c, t) for c, t in counts]
    for (v, r, o), text in zip(cases, shown[1]):
        assert SIGNS[r](exact(text), exact(o)) and (exact(text) != 0 or v == 0)
