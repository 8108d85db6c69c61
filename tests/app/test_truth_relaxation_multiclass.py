"""Issue 22: every sentence on /relaxation true for the settings on screen (/multiclass's
checks moved to tests/app/test_audit_multiclass.py).

One test (at least) per kind of error the audit found, each with settings chosen to make
the old sentence false, checked against references written here (exact fractions, the
distance to a line or a polygon computed directly, a linear program):

1. "decided exactly" that was not exact (a gap of 1e-10 between two rows);
2. a reason for missed runs guessed instead of computed (η = 2 reflections that cycle);
3. a scenario description false for some settings (on /multiclass: moved);
4. a value rounded inside an equality;
5. a grid artefact reported as an area (on /multiclass: moved);
6. a theorem cited beyond its hypotheses (Theorem 1.35 and the fixed-η step), and
   sentences about runs that were not computed from the runs ("every rule gets in").
"""

from __future__ import annotations

import numpy as np
import pytest
from app_helpers import markdown_text, open_page, player_payload

from perceptron_core import relaxation
from perceptron_core.relaxation import miss_behaviour, plane_system
from perceptron_core.viz import relaxation as rviz

RELAXATION = "pages/relaxation.py"
#: w₁ ≤ 0 and w₁ ≥ gap as own rows (a₁, a₂, c) of a₁w₁ + a₂w₂ ≤ c
GAP_ROWS = "1,0,0;-1,0,{gap}"


def page_texts(at) -> str:
    """Everything the page wrote: markdown, captions, info, warnings."""
    return "\n".join(
        [markdown_text(at)]
        + [c.value for c in at.caption]
        + [i.value for i in at.info]
        + [w.value for w in at.warning]
    )


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
    query = {
        "system": "your own rows",
        "rows": GAP_ROWS.format(gap="0"),
        "eta": "2.0",
        "w0_1": "3.0",
        "tol": "0.0",
    }
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
        trace = relaxation(A, c, eta=eta, rule=rule, w0=[3.0, 1.0], seed=2, tol=0.0, max_iter=200)
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
            longer = relaxation(
                A,
                c,
                eta=eta,
                rule=rule,
                w0=[3.0, 1.0],
                seed=2,
                tol=0.0,
                max_iter=200 + 20 * miss.period,
            )
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
        trace = relaxation(
            A,
            c,
            eta=row["eta"],
            rule=row["rule"],
            w0=np.zeros(2),
            seed=None,
            tol=1e-3,
            max_iter=30,
            tau=None,
        )
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
        said.split("stayed at most ")[1].split(" ")[0]
    ) * (1 + 1e-3)


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
    """ "every rule gets in within a few steps" was false at η = 0.1 (hundreds of
    iterations): the descriptions say what the system is, the runs say how they went."""
    A, c = rviz.rows_to_system(rviz.PRESETS["wide polygon"][0])
    slow = relaxation(A, c, eta=0.1, rule="cyclic", tol=1e-3, max_iter=1000)
    assert slow.n_iter > 100
    for _rows, description in rviz.PRESETS.values():
        assert "gets in" not in description and "steps" not in description
        assert "zigzag" not in description
    at = open_page(RELAXATION, {"eta": "0.1", "system": "wide polygon"})
    assert "few steps" not in page_texts(at)
    assert (
        f"Feasible after {slow.n_iter:,} iterations" in player_payload(at, "relaxation")["end_text"]
    )


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
