"""Issue 22: every sentence on /relaxation and /multiclass true for the settings on screen.

One test (at least) per kind of error the audit found, each with settings chosen to make
the old sentence false, checked against references written here (exact fractions, the
distance to a line or a polygon computed directly, a linear program):

1. "decided exactly" that was not exact (a gap of 1e-10 between two rows);
2. a reason for missed runs guessed instead of computed (η = 2 reflections that cycle);
3. a scenario description false for some settings ("one class in the middle");
4. a value rounded inside an equality;
5. a grid artefact reported as an area (one-vs-all's tie line with k = 2);
6. a theorem cited beyond its hypotheses (Theorem 1.35 and the fixed-η step), and
   sentences about runs that were not computed from the runs ("every rule gets in").
"""

from __future__ import annotations

import numpy as np
import pytest
from app_helpers import markdown_text, open_page, player_payload, table_with_column

from perceptron_core import relaxation
from perceptron_core.relaxation import miss_behaviour, plane_system
from perceptron_core.viz import relaxation as rviz

RELAXATION = "pages/relaxation.py"
MULTICLASS = "pages/multiclass.py"
#: w₁ ≤ 0 and w₁ ≥ gap as own rows (a₁, a₂, c) of a₁w₁ + a₂w₂ ≤ c
GAP_ROWS = "1,0,0;-1,0,{gap}"


def page_texts(at) -> str:
    """Everything the page wrote: markdown, captions, info, warnings."""
    return "\n".join([markdown_text(at)] + [c.value for c in at.caption]
                     + [i.value for i in at.info] + [w.value for w in at.warning])


# ---------------------------------------------------------------------------
# Kind 1: "decided exactly" is exact
# ---------------------------------------------------------------------------


def test_a_gap_of_ten_to_the_minus_ten_is_no_solution_on_the_page():
    """The audit's case: w₁ ≤ 0 and w₁ ≥ 10⁻¹⁰. The old check allowed a slack of 10⁻⁹
    and called it solvable, "decided exactly"."""
    at = open_page(RELAXATION, {"system": "your own rows", "rows": GAP_ROWS.format(gap="-1e-10")})
    sent = player_payload(at, "relaxation")
    assert sent["system"]["feasible"] is False
    texts = page_texts(at)
    assert "**This system has no solution**" in texts
    assert "w₁ ≥ 1e-10 and w₁ ≤ 0" in texts  # the contradiction, with its exact numbers
    assert any("No solution" in i.value for i in at.info)


def test_a_gap_of_zero_is_solvable_on_the_page():
    at = open_page(RELAXATION, {"system": "your own rows", "rows": GAP_ROWS.format(gap="0")})
    assert player_payload(at, "relaxation")["system"]["feasible"] is True
    assert "This system has a solution" in page_texts(at)


# ---------------------------------------------------------------------------
# Kind 2: why runs missed, from what the runs did
# ---------------------------------------------------------------------------


def line_system():
    """w₁ ≤ 0 and w₁ ≥ 0: the solutions are the line w₁ = 0, at distance |w₁| from w."""
    return np.array([[1.0, -1.0], [0.0, 0.0]]), np.array([0.0, 0.0])


def test_reflections_that_cycle_are_called_so_and_not_small_steps():
    """The audit's case: η = 2 from w₁ = 3 reflects to -3 and back, |w₁| = 3 at every
    iteration. The old caption blamed "a small η" and the banner promised that more
    iterations get there."""
    query = {"system": "your own rows", "rows": GAP_ROWS.format(gap="0"), "eta": "2.0",
             "w0_1": "3.0", "tol": "0.0"}
    at = open_page(RELAXATION, query)
    sent = player_payload(at, "relaxation")
    assert not sent["feasible"]
    np.testing.assert_array_equal(np.abs(np.array(sent["iterates"])[:, 0]), 3.0)
    assert "not getting closer" in sent["end_text"]
    assert "every 2 iterations" in sent["end_text"] and "never gets in" in sent["end_text"]
    texts = page_texts(at)
    assert "small η" not in texts and "more iterations" not in texts.lower()
    assert "η = 2: 6 runs not getting closer" in texts
    assert "(at the end 3)" in texts
    assert "bring w back to the same point every 2 iterations, for ever" in texts


@pytest.mark.parametrize("rule", ["cyclic", "max_distance", "randomized", "permuted"])
def test_what_a_miss_is_called_is_what_the_run_then_does(rule):
    """Against the distance |w₁| to the line (computed here), and by running on: a run
    called "circling" with a period still misses after ten times the iterations, one
    called "approaching" had |w₁| falling over its second half."""
    A, c = line_system()
    for eta in (0.05, 0.5, 1.3, 2.0):
        trace = relaxation(A, c, eta=eta, rule=rule, w0=[3.0, 1.0], seed=2, tol=0.0,
                           max_iter=200)
        if trace.feasible:
            continue
        miss = miss_behaviour(A, c, trace)
        w1 = np.abs(trace.iterates[:, 0])
        assert miss.before == pytest.approx(w1[100]) and miss.after == pytest.approx(w1[200])
        if miss.kind == "approaching":
            assert w1[200] < w1[100]
        if miss.kind == "circling":
            assert w1[200] == pytest.approx(w1[100])
        if miss.period:  # "for ever": twenty more periods later, the same point, still out
            longer = relaxation(A, c, eta=eta, rule=rule, w0=[3.0, 1.0], seed=2, tol=0.0,
                                max_iter=200 + 20 * miss.period)
            assert not longer.feasible
            np.testing.assert_allclose(longer.iterates[-1], trace.iterates[-1], atol=1e-12)


def test_small_eta_on_the_wide_polygon_is_still_approaching_and_said_so():
    """η near 0 with a low iteration limit: the runs are still getting closer (the
    distance to the pentagon, computed here from its corners, falls)."""
    A, c = rviz.rows_to_system(rviz.PRESETS["wide polygon"][0])
    rows = rviz.eta_sweep(A, c, etas=(0.05, 0.1), tol=1e-3, max_iter=30, w0=np.zeros(2))
    polygon = np.array(rviz.clip_polygon(A, c, 100.0))

    def distance(w):  # to the convex polygon from outside: nearest point of an edge
        best = np.inf
        for p, q in zip(polygon, np.roll(polygon, -1, axis=0)):
            t = np.clip((w - p) @ (q - p) / ((q - p) @ (q - p)), 0, 1)
            best = min(best, float(np.linalg.norm(w - (p + t * (q - p)))))
        return best

    for row in rows:
        assert row["iterations"] is None and row["missed"] == "approaching"
        trace = relaxation(A, c, eta=row["eta"], rule=row["rule"], w0=np.zeros(2), seed=None,
                           tol=1e-3, max_iter=30, tau=None)
        assert row["after"] == pytest.approx(distance(trace.iterates[-1]), rel=1e-9)
    text = rviz.sweep_missed_text(rows, 30, 1e-3)
    assert "still getting closer" in text and "Raise the iteration limit to see whether" in text


def test_reflections_that_move_away_are_called_so():
    """No solution, two contradicting parallel rows: η = 2 translates w (‖w‖ grows);
    η = 1.9 stays bounded. Each banner says what its own run did."""
    a = np.array([0.6, 0.8])
    A, c = np.column_stack([a, -a]), np.array([-1.0, -1.0])
    system = plane_system(A, c)
    away = relaxation(A, c, eta=2.0, max_iter=400)
    stays = relaxation(A, c, eta=1.9, max_iter=400)
    assert "move away" in rviz.end_text(A, c, away, system)
    norms = np.linalg.norm(away.iterates, axis=1)
    assert norms[300:].max() > 1.5 * norms[:201].max()
    said = rviz.end_text(A, c, stays, system)
    assert "stayed at most" in said and "move away" not in said
    assert np.linalg.norm(stays.iterates, axis=1).max() <= float(
        said.split("stayed at most ")[1].split(" ")[0]) * (1 + 1e-3)


# ---------------------------------------------------------------------------
# Kind 6: theorems with their hypotheses; sentences about runs computed from the runs
# ---------------------------------------------------------------------------


def test_theorem_1_35_is_not_claimed_for_the_fixed_eta_step():
    """The page's own perceptron section shows ηₜ far above any bound: the relaxation
    step with a fixed η is not a bounded-step method, so Theorem 1.35 cannot cover it."""
    A, c = rviz.rows_to_system(rviz.PRESETS["infeasible"][0])
    text = rviz.no_solution_text(A, c, relaxation(A, c, max_iter=100), plane_system(A, c))
    assert "its perceptron case" not in text
    assert "η̄ fixed in advance" in text and "says nothing about it" in text
    at = open_page(RELAXATION, {"system": "infeasible"})
    info = " ".join(i.value for i in at.info)
    assert "Theorem 1.35" in info and "In this run: ‖w‖" in info


def test_no_preset_promises_how_runs_go():
    """"every rule gets in within a few steps" was false at η = 0.1 (hundreds of
    iterations): the descriptions say what the system is, the runs say how they went."""
    A, c = rviz.rows_to_system(rviz.PRESETS["wide polygon"][0])
    slow = relaxation(A, c, eta=0.1, rule="cyclic", tol=1e-3, max_iter=1000)
    assert slow.n_iter > 100
    for rows, description in rviz.PRESETS.values():
        assert "gets in" not in description and "steps" not in description
        assert "zigzag" not in description
    at = open_page(RELAXATION, {"eta": "0.1", "system": "wide polygon"})
    assert "few steps" not in page_texts(at)
    assert f"Feasible after {slow.n_iter:,} iterations" in player_payload(
        at, "relaxation")["end_text"]


def test_tolerance_zero_misses_are_not_blamed_on_eta_at_most_one():
    """With tolerance 0 the old caption said "η ≤ 1 ... approach for ever" for every miss,
    also for η = 1.3, 1.5 that do get in with more iterations. Now each η's miss is
    described by its run; and for η in 1.1–1.5 on the wide polygon nothing is missed."""
    A, c = rviz.rows_to_system(rviz.PRESETS["wide polygon"][0])
    rows = rviz.eta_sweep(A, c, tol=0.0, max_iter=1000)
    text = rviz.sweep_missed_text(rows, 1000, 0.0) or ""
    assert "η ≤ 1" not in text
    for row in rows:
        if row["iterations"] is None:
            assert f"{row['eta']:g}" in text


def test_inequalities_are_numbered_from_one_in_parentheses_everywhere():
    A, c = rviz.rows_to_system(rviz.PRESETS["infeasible"][0])
    trace = relaxation(A, c, max_iter=50)
    assert "at inequality (" in trace.stop_reason
    worst = int(np.argmax(A.T @ trace.w - c))
    assert f"({worst + 1})" in trace.stop_reason
    at = open_page(RELAXATION, {"system": "infeasible"})
    sent = player_payload(at, "relaxation")
    assert sent["labels"] == ["(1)", "(2)", "(3)"]
    assert "(1), (2) and (3)" in sent["system"]["reason"]


# ---------------------------------------------------------------------------
# /multiclass, kind 3: the "one class in the middle" scenario, computed per data set
# ---------------------------------------------------------------------------


def line_separates(X, y) -> bool:
    """Independent reference: is there (w, b) with y_i (w·x_i + b) ≥ 1 for all i? (an LP)"""
    from scipy.optimize import linprog

    A_ub = -(y[:, None] * np.hstack([X, np.ones((len(y), 1))]))
    result = linprog(np.zeros(3), A_ub=A_ub, b_ub=-np.ones(len(y)), bounds=[(None, None)] * 3,
                     method="highs")
    return result.status == 0


def middle_blobs(k, spread, seed=1, n=120):
    from perceptron_core import make_blobs

    data = make_blobs(n=n, seed=seed, dim=2, radius=1.0, k=k, spread=spread)
    X, labels = np.array(data.X), np.array(data.y)
    X[labels == 0] -= X[labels == 0].mean(axis=0)
    return X, labels


@pytest.mark.parametrize("k, spread, separable", [(3, 0.02, True), (6, 0.3, False)])
def test_the_middle_class_is_said_separable_exactly_when_a_line_separates_it(k, spread,
                                                                            separable):
    """The old help said "'0 against the rest' has no separating line" for every setting;
    with k = 3 and a small spread a line does separate it (the LP here finds one)."""
    X, labels = middle_blobs(k, spread)
    assert line_separates(X, np.where(labels == 0, 1, -1)) is separable
    at = open_page(MULTICLASS, {"k": str(k), "spread": str(spread),
                                "layout": "one class in the middle"})
    texts = page_texts(at)
    said = [m.value for m in at.markdown if m.value.startswith("Class 0 sits in the middle")]
    assert len(said) == 1
    assert ("a line does separate 0 from the rest" in said[0]) is separable
    assert ("no line separates 0 from the rest" in said[0]) is not separable
    assert "has no separating line" not in texts
    assert "has no separating line" not in at.radio(key="layout").help
    table = table_with_column(at, "a line separates it")
    assert table["a line separates it"][0] == ("yes" if separable else "no")
    for j, label in enumerate(sorted(set(labels.tolist()))):
        expected = line_separates(X, np.where(labels == label, 1, -1))
        assert table["a line separates it"][j] == ("yes" if expected else "no")


def test_the_ring_layout_says_nothing_about_a_middle_class():
    at = open_page(MULTICLASS, {"k": "3", "spread": "0.02"})
    assert not [m for m in at.markdown if m.value.startswith("Class 0 sits in the middle")]


# ---------------------------------------------------------------------------
# /multiclass, kind 5: a tie is reported as an area only where it has one
# ---------------------------------------------------------------------------

#: two mirror-image classes: one-vs-all's scores are -x₁ and x₁, tied on the line x₁ = 0,
#: which passes through a whole column of the 161 × 161 grid (1/161 = 0.62% of its points)
TWO_CLASSES = "-0.5,0,0;-0.6,0.3,0;0.5,0,1;0.6,0.3,1"


def test_two_classes_tie_on_a_line_not_on_0_6_percent_of_the_square():
    """The audit's case: k = 2, the tie set is the line x₁ = 0 (area 0), but 0.6% of
    the grid points lie on it and the old table said "a tie on 0.6% of the square"."""
    from perceptron_core.viz.multiclass import fit_both

    P = np.array([[float(v) for v in p.split(",")] for p in TWO_CLASSES.split(";")])
    _, _, _, region, numbers = fit_both(P[:, :2], P[:, 2].astype(int), "cyclic", 0, 100)
    assert region["ova_tie"].mean() > 0.005  # the grid artefact the old table reported
    at = open_page(MULTICLASS, {"source": "draw", "points": TWO_CLASSES})
    table = table_with_column(at, "one-vs-all")
    row = list(table[""]).index("area of the square with a tie")
    assert table["one-vs-all"][row] == "0 (ties on lines only)"
    assert "0.6%" not in " ".join(table["one-vs-all"]) + " ".join(table["one-vs-one"])
    # the one-vs-all shares are the two half-squares, exactly
    np.testing.assert_allclose(region["ova_share"], [0.5, 0.5], atol=1e-12)


def test_six_classes_tie_areas_against_an_independent_count():
    """k = 6: one-vs-all's tie area is 0 (distinct scores); one-vs-one's tie share is the
    share of grid points with a shared top vote once points on a pair's line are left
    out; both against counts written here."""
    from perceptron_core.viz.multiclass import fit_both, grid, side_by_side

    X, labels = middle_blobs(6, 0.25, seed=4)
    ova, ovo, limit, region, numbers = fit_both(X, labels, "cyclic", 0, 30)
    assert numbers["one-vs-all"]["tie_share"] == 0
    _, points = grid(limit)
    scores = points @ ovo.weights.T + ovo.biases
    on_line = (np.abs(scores) <= 1e-9 * (np.linalg.norm(ovo.weights, axis=1) * 2 * limit
                                         + np.abs(ovo.biases))).any(axis=1)
    votes = np.zeros((len(points), 6), dtype=int)
    for (j, jj), column in zip(ovo.pair_codes, (scores > 0).T):
        votes[:, j] += column
        votes[:, jj] += ~column
    tied = (votes == votes.max(axis=1, keepdims=True)).sum(axis=1) > 1
    keep = ~region["on_line"].ravel()
    assert not (on_line & keep).any()  # every point on a pair's line is left out
    assert numbers["one-vs-one"]["tie_share"] == pytest.approx(tied[keep].mean())
    column = side_by_side(numbers)["one-vs-all"]
    assert column[-1] == "0 (ties on lines only)"


def test_identical_scores_tie_on_a_real_area():
    """Two classes with the same (w, b) tie wherever they lead: an area, reported as one
    (against 400 000 uniform points) and given to the first of them."""
    import dataclasses

    from perceptron_core.viz.multiclass import fit_both, ova_areas

    X, labels = middle_blobs(4, 0.1, seed=2)
    ova, _, limit, _, _ = fit_both(X, labels, "cyclic", 0, 50)
    W, b = np.array(ova.weights), np.array(ova.biases)
    W[3], b[3] = W[1], b[1]
    twin = dataclasses.replace(ova, weights=W, biases=b)
    shares, tie = ova_areas(twin, limit)
    sample = np.random.default_rng(0).uniform(-limit, limit, size=(400_000, 2))
    s = sample @ W.T + b
    best = s.max(axis=1)
    tied = ((s == best[:, None]).sum(axis=1) > 1).mean()
    assert tie == pytest.approx(tied, abs=0.004) and tie > 0.01
    assert shares[3] == 0 and shares.sum() == pytest.approx(1.0)


# ---------------------------------------------------------------------------
# /multiclass, kind 4 and the rest: no rounded value inside a sentence of equality
# ---------------------------------------------------------------------------


def test_shares_never_round_a_positive_share_to_zero():
    from perceptron_core.viz.multiclass import share_text

    assert share_text(0.0001) == "< 0.1%" and share_text(0.0) == "0.0%"
    assert share_text(0.0049) == "0.5%"


def test_every_pair_says_whether_a_line_separates_it_not_only_whether_its_run_did():
    """k = 6 with a large spread and 5 epochs: runs stop at the limit; whether a line
    separates each pair is the LP's answer, not the run's."""
    from perceptron_core.viz.multiclass import fit_both, pairs_columns

    X, labels = middle_blobs(6, 0.3, seed=1)
    _, ovo, _, _, numbers = fit_both(X, labels, "cyclic", 0, 5)
    columns = pairs_columns(ovo, numbers["pairs_separable"])
    for (j, jj), said in zip(ovo.pairs.tolist(), columns["a line separates it"]):
        rows = (labels == j) | (labels == jj)
        expected = line_separates(X[rows], np.where(labels[rows] == j, 1, -1))
        assert said == ("yes" if expected else "no")
    assert "yes" in columns["a line separates it"] and "no" in columns["a line separates it"]
    # a pair a line separates whose run had not separated it by the limit
    assert any(line == "yes" and run != "yes" for line, run in
               zip(columns["a line separates it"], columns["the run separated it"]))
