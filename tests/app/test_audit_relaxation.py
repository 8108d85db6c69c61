"""/relaxation's re-audit: every sentence true for the settings on screen.

Each test names the kind of the audit it checks (see docs/audit/relaxation.md), with
settings chosen so that the old sentence was false. Facts are recomputed here by
independent code: exact fractions of the numbers as typed, the exact image of every move,
the theorem's hypotheses counted move by move.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from app_helpers import markdown_text, open_page, player_payload
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from perceptron_core import INDEX_RULES, relaxation
from perceptron_core.relaxation import INDEX_RULE_LABELS, plane_system
from perceptron_core.viz import relaxation as rviz

PAGE = "pages/relaxation.py"


def typed(value: float) -> Fraction:
    """A number as the student typed it (the shortest decimal of the float)."""
    return Fraction(repr(float(value)))


def exact_residuals(A, c, w) -> list[Fraction]:
    """a_i·w − c_i in fractions: the decimals of A and c, the float w as stored."""
    return [
        sum(typed(a) * Fraction(float(v)) for a, v in zip(column, w)) - typed(ci)
        for column, ci in zip(np.asarray(A).T, c)
    ]


def page_texts(at) -> str:
    return "\n".join(
        [markdown_text(at)]
        + [c.value for c in at.caption]
        + [i.value for i in at.info]
        + [w.value for w in at.warning]
    )


# ---------------------------------------------------------------------------
# Kind 1: "feasible" with tolerance 0 is exact, and η < 1 never gets in
# ---------------------------------------------------------------------------


def test_kind_1_tolerance_zero_with_eta_below_one_is_never_called_feasible():
    """The wide polygon, η = 0.7, tolerance 0: the old page said "Feasible after 156
    iterations: every aᵢ·w ≤ cᵢ", true only because float rounding moved w the last
    10⁻¹⁶. In exact arithmetic each move leaves its own inequality violated by 0.3 times
    its violation, so the method never gets in; the page says so, and no more iterations."""
    at = open_page(PAGE, {"system": "wide polygon", "eta": "0.7", "tol": "0.0"})
    sent = player_payload(at, "relaxation")
    assert not sent["feasible"] and sent["n_iter"] == 1000
    assert (
        "never will be" in sent["end_text"] and "Raise the iteration limit" not in sent["end_text"]
    )
    A, c = np.array(sent["A"]).T, np.array(sent["c"])
    final = exact_residuals(A, c, sent["iterates"][-1])
    assert max(final) > 0  # really outside, exactly
    # the largest violation shown at the end is above 0, as it is exactly
    assert sent["violation"][-1] > 0 and sent["violated"][-1] >= 1


def exact_step(A, c, w, i, eta) -> tuple[Fraction, Fraction]:
    """The exact move from the stored w on inequality i: its residual before, and the
    residual (1 − η) r of inequality i at the exact image (η as typed)."""
    r = exact_residuals(A, c, w)[i]
    return r, (1 - typed(eta)) * r


systems = st.lists(
    st.tuples(
        st.sampled_from([-2.4, -1.0, -0.5, -0.125, 0.0, 0.1, 0.3, 1.0, 3.0]),
        st.sampled_from([-1.0, -0.25, 0.0, 0.15, 0.8, 1.0, 2.0]),
        st.sampled_from([-1.0, -0.3, 0.0, 0.5, 1.0, 2.5]),
    ),
    min_size=1,
    max_size=5,
).filter(lambda rows: all(r[0] or r[1] for r in rows))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=systems,
    eta=st.sampled_from([0.05, 0.3, 0.7, 0.95, 1.0, 1.3, 1.95, 2.0]),
    tol=st.sampled_from([0.0, 0.0, 0.001, 0.125]),
    rule=st.sampled_from(list(INDEX_RULES)),
    start=st.tuples(st.sampled_from([0.0, 3.0, -1.5]), st.sampled_from([0.0, 2.0, -0.7])),
)
# a move whose line passes through w₂ = 0: nudged by single ulps of a w₂ near 10⁻¹⁷ it never
# got there ("a move could not be put on its exact side")
@example(
    rows=[(-2.4, -1.0, -1.0), (0.0, 0.15, 0.0)], eta=1.0, tol=0.0, rule="cyclic", start=(0.0, 0.0)
)
def test_kind_1_property_every_decision_is_exact(rows, eta, tol, rule, start):
    """Over random systems typed with few decimals: a run called feasible satisfies every
    aᵢ·w ≤ cᵢ + tol exactly; every move's inequality ends on the side of its tolerance line
    that the exact move puts it (strictly when exact arithmetic is strict); every
    "violated" is violated exactly; with tolerance 0 and η < 1 a run that moves is never
    feasible."""
    A, c = rviz.rows_to_system(rows)
    trace = relaxation(A, c, eta=eta, rule=rule, w0=np.array(start), seed=1, tol=tol, max_iter=150)
    t_exact = typed(tol)
    if trace.feasible:
        assert all(r <= t_exact for r in exact_residuals(A, c, trace.iterates[-1]))
    if tol == 0 and eta < 1 and trace.n_moves:
        assert not trace.feasible
    for t in range(trace.n_iter):
        i = int(trace.indices[t])
        before = exact_residuals(A, c, trace.iterates[t])[i]
        assert trace.moved[t] == (before > t_exact)  # "violated" means violated, exactly
        if trace.moved[t] and not np.array_equal(trace.iterates[t + 1], trace.iterates[t]):
            _, image = exact_step(A, c, trace.iterates[t], i, eta)
            after = exact_residuals(A, c, trace.iterates[t + 1])[i]
            want, got = image - t_exact, after - t_exact
            if want > 0:
                assert got > 0
            elif want < 0:
                assert got < 0
            else:
                assert got <= 0


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=systems, eta=st.sampled_from([0.3, 1.0, 2.0]), tol=st.sampled_from([0.0, 0.001]))
def test_kind_2_property_the_player_counts_exact_violations(rows, eta, tol):
    """The player's counter "inequalities violated at w" and its "largest violation" are
    the exact ones at every iterate (the old counter compared float products in the
    browser)."""
    A, c = rviz.rows_to_system(rows)
    trace = relaxation(A, c, eta=eta, w0=np.array([2.0, -1.0]), tol=tol, max_iter=40)
    largest, counts = rviz.violations(A, c, trace.iterates, tol)
    for w, top, count in zip(trace.iterates, largest, counts):
        exact = exact_residuals(A, c, w)
        assert count == sum(r > typed(tol) for r in exact)
        assert (top > 0) == (max(exact) > 0)


# ---------------------------------------------------------------------------
# Kind 5: causes computed, not guessed
# ---------------------------------------------------------------------------


def test_kind_5_the_sweep_never_advises_more_iterations_for_runs_that_cannot_get_in():
    """Tolerance 0: every run with η < 1 can never get in. The old text called them
    "still getting closer" and advised raising the iteration limit."""
    A, c = rviz.rows_to_system(rviz.PRESETS["wide polygon"][0])
    rows = rviz.eta_sweep(A, c, tol=0.0, max_iter=300, w0=np.zeros(2))
    never = [row for row in rows if row["eta"] < 1]
    assert never and all(row["missed"] == "never" for row in never)
    text = rviz.sweep_missed_text(rows, 300, 0.0)
    assert "can never get in" in text and "a tolerance above 0 lets such runs stop" in text
    assert "Raise the iteration limit" not in text  # no η ≥ 1 run is still approaching here


def test_kind_5_parallel_lines_are_named_only_where_two_are_parallel():
    """The infeasible preset has no two parallel boundary lines (normals (−1, 0), (0, −1),
    (1, 1)); the old text blamed "two reflections across parallel lines" for η = 2's
    drift there. Now the drift is measured and parallel lines are named only when a pair
    of contradicting parallel half-planes exists (checked here by cross products)."""
    A, c = rviz.rows_to_system(rviz.PRESETS["infeasible"][0])
    normals = A.T
    assert all(
        abs(a @ np.array([-b[1], b[0]])) > 0
        for k, a in enumerate(normals)
        for b in normals[k + 1 :]
    )
    trace = relaxation(A, c, eta=2.0, max_iter=1000, tol=0.001)
    text = rviz.no_solution_text(A, c, trace, plane_system(A, c))
    assert "parallel" not in text
    # the drift it states is the one the iterates show
    shift = trace.iterates[-1] - trace.iterates[-4]
    np.testing.assert_allclose(trace.iterates[-4] - trace.iterates[-7], shift)
    assert f"every 3 moved w by the same ({shift[0]:.3g}, {shift[1]:.3g})".replace("-", "−") in text
    a = np.array([0.6, 0.8])
    A2, c2 = np.column_stack([a, -a]), np.array([-1.0, -1.0])
    trace2 = relaxation(A2, c2, eta=2.0, max_iter=200)
    assert "(1) and (2) are parallel half-planes" in rviz.no_solution_text(
        A2, c2, trace2, plane_system(A2, c2)
    )


def test_kind_5_a_cycle_is_called_for_ever_only_when_it_repeats_bit_for_bit():
    """ "w comes back to the same point every P iterations, for ever" was decided with a
    tolerance of 1e-9 of a step; now the period is an exact repetition of the float
    iterate (a deterministic rule then repeats for ever)."""
    A, c = np.array([[1.0, -1.0], [0.0, 0.0]]), np.zeros(2)
    trace = relaxation(A, c, eta=2.0, w0=[3.0, 0.0], tol=0.0, max_iter=200)
    miss = rviz.miss_behaviour(A, c, trace)
    assert miss.period == 2
    assert np.array_equal(trace.iterates[-1], trace.iterates[-3])
    assert "bit for bit" in rviz.end_text(A, c, trace, plane_system(A, c))


# ---------------------------------------------------------------------------
# Kind 6: Theorem 1.35 within its hypotheses
# ---------------------------------------------------------------------------


def test_kind_6_theorem_1_35_is_stated_with_its_hypotheses_and_the_failing_one_counted():
    """The theorem needs nonzero columns (a point at the origin is a zero column of the
    perceptron's system) and steps with ⟨w, aᵢ⟩ ≤ 0. The fixed-η relaxation step, written
    as w + ηₜ(−aᵢ), breaks that hypothesis wherever it moves from aᵢ·w < 0 (possible when
    cᵢ < 0): counted here move by move, in fractions, against the page's count."""
    at = open_page(PAGE, {"system": "infeasible", "eta": "1.0"})
    info = " ".join(i.value for i in at.info)
    assert "nonzero columns" in info and "point at the origin" in info
    assert "⟨w, −aᵢ⟩ ≤ 0" in info and "η̄ fixed in advance" in info
    A, c = rviz.rows_to_system(rviz.PRESETS["infeasible"][0])
    sent = player_payload(at, "relaxation")
    against = 0
    for t, moved in enumerate(sent["moved"]):
        if moved:
            i = sent["indices"][t]
            w = sent["iterates"][t]
            against += sum(typed(a) * Fraction(float(v)) for a, v in zip(A[:, i], w)) < 0
    assert against > 0
    assert f"{against:,} of this run's {sum(sent['moved']):,} moves did" in info


def test_kind_6_a_run_whose_moves_all_keep_the_hypothesis_says_so():
    """η = 2 on the infeasible preset: every move starts where aᵢ·w ≥ 0 (counted here), so
    only the unbounded step is outside the theorem, and the text says none did."""
    A, c = rviz.rows_to_system(rviz.PRESETS["infeasible"][0])
    trace = relaxation(A, c, eta=2.0, max_iter=300)
    moves = np.flatnonzero(trace.moved)
    assert not any(
        exact_residuals(A, np.zeros(3), trace.iterates[t])[trace.indices[t]] < 0 for t in moves
    )
    text = rviz.no_solution_text(A, c, trace, plane_system(A, c))
    assert f"none of this run's {len(moves):,} moves did" in text
    assert "here (1) and (2)" in text  # c₁ = c₂ = −1 < 0, as every system without solution


# ---------------------------------------------------------------------------
# Menus in words; a default system on which the rules differ
# ---------------------------------------------------------------------------


def test_the_rule_menu_is_in_words_from_the_rule_table():
    at = open_page(PAGE)
    menu = at.selectbox(key="rule")
    assert menu.options == [INDEX_RULE_LABELS[r].split(":")[0] for r in INDEX_RULES]
    assert all("_" not in option for option in menu.options)
    menu.set_value("max_residual").run()
    assert at.query_params["rule"] in ("max_residual", ["max_residual"])  # links as before
    assert player_payload(at, "relaxation")["rule"] == "max_residual"


def test_the_default_system_shows_the_rules_differ():
    """On the old default (the wide polygon) maximal distance and maximal residual made the
    same run at every η, and every η ≥ 1 got in after 2 iterations. The default now has a
    row written three times larger: the two maximal rules part, and the player's default
    run has a zigzag to step through."""
    at = open_page(PAGE)
    sent = player_payload(at, "relaxation")
    assert sum(sent["moved"]) >= 10
    A, c = np.array(sent["A"]).T, np.array(sent["c"])
    rows = rviz.eta_sweep(A, c, tol=0.001, max_iter=1000, w0=np.zeros(2))
    by = {}
    for row in rows:
        by.setdefault(row["rule"], []).append(row["iterations"])
    assert by["max_distance"] != by["max_residual"]
    assert len({tuple(v) for v in by.values()}) == len(INDEX_RULES)  # six different curves


# ---------------------------------------------------------------------------
# Kind 3: numbers beside inequality signs keep them true
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("value", [238.4, 1.171, 0.01234, 99.95, 1.0, 1500.2])
def test_kind_3_at_most_never_rounds_down(value):
    assert float(rviz.at_most(value).replace(",", "")) >= value


def test_kind_3_the_rows_are_written_as_typed():
    """An own row with three decimals: the player's sentence wrote "0.13·w₁ ≤ 0.30" for
    0.125·w₁ ≤ 0.3 (two decimals). The rows now travel as typed."""
    at = open_page(PAGE, {"system": "your own rows", "rows": "0.125,1,0.3;-1,0,-2.5e-3"})
    sent = player_payload(at, "relaxation")
    assert sent["row_texts"] == ["0.125·w₁ + 1·w₂ ≤ 0.3", "−1·w₁ ≤ −0.0025"]


# ---------------------------------------------------------------------------
# In the browser: the player's sentences
# ---------------------------------------------------------------------------


def test_kind_3_a_move_too_short_for_float64_is_said_so_and_tiny_numbers_keep_digits(
    page, streamlit_server
):
    """w₁ ≤ 0 and w₁ ≥ 0 from w₁ = 3 with η = 0.5 and tolerance 0: w₁ halves until
    5e−324, the smallest float above 0, and stays there, still violating w₁ ≤ 0 (exactly).
    The sentence says the move is too short to store, and writes w₁ and the residual with
    their digits, not as 0.000 beside "> 0"."""
    from browser_helpers import assert_no_exception, open_player, wait_for_player

    A, c = rviz.rows_to_system([[1.0, 0.0, 0.0], [-1.0, 0.0, 0.0]])
    trace = relaxation(A, c, eta=0.5, w0=[3.0, 0.0], tol=0.0, max_iter=5000, seed=0, tau=10)
    stuck = [
        t + 1
        for t in range(2500, 2600)
        if trace.moved[t] and np.array_equal(trace.iterates[t + 1], trace.iterates[t])
    ]
    t = stuck[0]
    assert exact_residuals(A, c, trace.iterates[t])[0] > 0  # still outside, exactly
    player = open_player(
        page,
        f"{streamlit_server}/relaxation?system=your+own+rows"
        f"&rows=1,0,0;-1,0,0&eta=0.5&w0_1=3.0&tol=0.0&max_iter=5000"
        f"&step={t}",
    )
    wait_for_player(player, t)
    text = player.get_by_test_id("step-text").inner_text()
    assert "too short for float64 to store" in text and "> 0: violated" in text
    assert "= 4.94e−324 > 0" in text and "w stays at (4.94e−324, 0.000)" in text
    assert "Not feasible" in rviz.end_text(A, c, trace, plane_system(A, c))
    assert_no_exception(page)


def test_kind_3_a_residual_beside_the_tolerance_keeps_its_side(page, streamlit_server):
    """w₁ + w₂ ≤ 1 from (0.5012, 0.5) with tolerance 0.001: the residual 0.0012 was written
    "0.001 > 0.001" with three decimals."""
    from browser_helpers import open_player, wait_for_player

    player = open_player(
        page,
        f"{streamlit_server}/relaxation?system=your+own+rows"
        "&rows=1,1,1&w0_1=0.5012&w0_2=0.5&tol=0.001&step=1",
    )
    wait_for_player(player, 1)
    text = player.get_by_test_id("step-text").inner_text()
    assert "aᵢ·w − cᵢ = 0.00120 > 0.001: violated" in text, text


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 12), extra=st.integers(0, 30), seed=st.integers(0, 10**6))
def test_the_chaotic_rule_visits_every_inequality_in_every_window_of_tau(n, extra, seed):
    """Remark 1.38's chaotic rule, as the menu and RULES_TEXT state it: every window of τ
    consecutive iterations picks every inequality (checked on the picks themselves)."""
    tau = n + extra
    pick = INDEX_RULES["chaotic"](np.ones(n), seed, tau)
    picks = [pick(t, np.zeros(n)) for t in range(6 * tau + 5)]
    for start in range(len(picks) - tau + 1):
        assert set(picks[start : start + tau]) == set(range(n))


@pytest.mark.parametrize("tau", ["3", "6", "1000"])
def test_the_chaotic_run_on_the_page_uses_the_tau_it_names(tau):
    at = open_page(PAGE, {"rule": "chaotic", "tau": tau})
    sent = player_payload(at, "relaxation")
    used = max(int(tau), 3)  # the default system has n = 3 inequalities
    assert sent["tau"] == used
    picks = sent["indices"]
    for start in range(len(picks) - used + 1):
        assert set(picks[start : start + used]) == {0, 1, 2}


def test_kind_1_a_point_outside_is_never_at_distance_zero():
    """The old banner said "distance 0" (and "fell ... to 0") for a w outside the
    solutions, whose nearest boundary point rounded to w itself. The distance is now at
    least the exact violation over ‖aᵢ‖, which is above 0 for a point outside."""
    A, c = rviz.rows_to_system(next(iter(rviz.PRESETS.values()))[0])
    trace = relaxation(A, c, eta=0.5, tol=0.0, max_iter=1000)
    assert not trace.feasible and max(exact_residuals(A, c, trace.iterates[-1])) > 0
    miss = rviz.miss_behaviour(A, c, trace)
    assert miss.kind == "never" and miss.after > 0
    text = rviz.end_text(A, c, trace, plane_system(A, c))
    assert " to 0 " not in text and "distance 0" not in text
    lower = max(
        max(r, 0) / np.hypot(*A[:, i])
        for i, r in enumerate(exact_residuals(A, c, trace.iterates[-1]))
    )
    assert miss.after >= float(lower)
