"""/relaxation's payload, exact feasibility check, sweep and figures, against the core
and against independent references (scipy's linprog, grid sampling) written here."""

from __future__ import annotations

import csv
import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

from perceptron_core import INDEX_RULES, relaxation
from perceptron_core.relaxation import plane_system
from perceptron_core.viz.player import player_spec
from perceptron_core.viz.relaxation import (
    PRESETS,
    clip_polygon,
    eta_sweep,
    perceptron_figure,
    player_payload,
    projections,
    rows_to_system,
    sweep_csv,
    sweep_figure,
    violations,
)


def lp_feasible(A, c) -> bool:
    """Independent reference: is {w : A^T w <= c} empty? (scipy's HiGHS, test-only)."""
    result = linprog(np.zeros(2), A_ub=A.T, b_ub=c, bounds=[(None, None)] * 2, method="highs")
    return result.status == 0


def random_system(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 7))
    A = rng.integers(-3, 4, size=(2, n)).astype(float)
    A[:, ~A.any(axis=0)] = 1.0  # no zero column
    c = rng.integers(-3, 4, size=n).astype(float)
    return A, c


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.integers(0, 10**6))
def test_plane_system_agrees_with_linear_programming(seed):
    A, c = random_system(seed)
    found = plane_system(A, c)
    assert found.feasible == lp_feasible(A, c)
    if found.feasible:
        assert np.all(A.T @ found.witness - c <= 1e-9)
        for vertex in found.vertices:
            assert np.all(A.T @ vertex - c <= 1e-9)


def test_presets_are_what_their_names_say():
    assert plane_system(*rows_to_system(PRESETS["wide polygon"][0])).feasible
    assert plane_system(*rows_to_system(PRESETS["thin sliver"][0])).feasible
    assert not plane_system(*rows_to_system(PRESETS["infeasible"][0])).feasible
    assert not lp_feasible(*rows_to_system(PRESETS["infeasible"][0]))


def test_parallel_systems_are_decided_too():
    A = np.array([[1.0, -2.0], [1.0, -2.0]])  # a_2 = -2 a_1
    assert plane_system(A, np.array([1.0, 4.0])).feasible  # -2 <= w1 + w2 <= 1
    assert not plane_system(A, np.array([1.0, -4.0])).feasible  # 2 <= w1 + w2 <= 1


@pytest.mark.parametrize("seed", range(40))
def test_clipped_polygon_is_the_feasible_part_of_the_square(seed):
    A, c = random_system(seed)
    limit = 4.0
    polygon = np.array(clip_polygon(A, c, limit))
    axis = np.linspace(-limit, limit, 81)
    points = np.array([[a, b] for a in axis for b in axis])
    inside = np.all(points @ A - c <= 0, axis=1)
    if polygon.size:
        assert np.all(polygon @ A - c <= 1e-9) and np.all(np.abs(polygon) <= limit + 1e-9)
    # a grid point strictly inside the feasible set means the polygon is not empty
    strictly = np.all(points @ A - c < -1e-6, axis=1)
    if strictly.any():
        assert polygon.shape[0] >= 3
    if not inside.any():
        x = polygon  # a polygon may still exist (thinner than the grid); it must be feasible
        assert x.size == 0 or np.all(x @ A - c <= 1e-9)


@pytest.mark.parametrize("eta", [0.5, 1.0, 1.5, 2.0])
@pytest.mark.parametrize("name", list(PRESETS))
def test_payload_is_the_core_run(name, eta):
    A, c = rows_to_system(PRESETS[name][0])
    trace = relaxation(A, c, eta=eta, rule="max_distance", tol=1e-3, max_iter=300)
    moves = np.flatnonzero(trace.moved) + 1
    spec = player_spec("x", trace.n_iter, moves)
    sent = player_payload(A, c, trace, player=spec)
    np.testing.assert_array_equal(sent["iterates"], trace.iterates)
    assert sent["indices"] == trace.indices.tolist()
    assert sent["moved"] == trace.moved.astype(int).tolist()
    assert sent["player"]["update_steps"] == moves.tolist()
    assert sent["player"]["n_examined"] == trace.n_iter == len(sent["indices"])
    np.testing.assert_array_equal(sent["A"], A.T)
    assert sent["feasible"] == trace.feasible
    assert sent["system"]["feasible"] == plane_system(A, c).feasible
    # the violation is max_i (a_i·w - c_i)^+, written out as a loop
    for w, v in zip(trace.iterates, sent["violation"]):
        assert v == pytest.approx(max(0.0, *(A[:, i] @ w - c[i] for i in range(len(c)))))
    # every iterate inside the drawn square unless it left the capped view
    assert sent["limit"] > 0


@pytest.mark.parametrize("name", list(PRESETS))
def test_projection_lands_on_the_line_and_eta_scales_the_step(name):
    A, c = rows_to_system(PRESETS[name][0])
    for eta in (1.0, 2.0, 0.4):
        trace = relaxation(A, c, eta=eta, rule="cyclic", tol=0.0, max_iter=50)
        feet = projections(A, c, trace)
        for t in range(trace.n_iter):
            i, before, after = trace.indices[t], trace.iterates[t], trace.iterates[t + 1]
            if trace.moved[t]:
                assert A[:, i] @ feet[t] == pytest.approx(c[i], abs=1e-9)  # on the line
                np.testing.assert_allclose(after, (1 - eta) * before + eta * feet[t], atol=1e-9)
            else:
                np.testing.assert_array_equal(feet[t], before)
        if eta == 1.0:
            np.testing.assert_allclose(feet, trace.iterates[1:], atol=1e-9)


def test_violations_are_zero_exactly_at_feasible_points():
    A, c = rows_to_system(PRESETS["wide polygon"][0])
    inside, outside = np.array([[1.0, 1.0]]), np.array([[0.0, 0.0]])
    assert violations(A, c, inside)[0][0] == 0 and violations(A, c, inside)[1][0] == 0
    assert violations(A, c, outside)[0][0] == pytest.approx(0.5)
    assert violations(A, c, outside)[1][0] == 2  # w₁ ≥ 0.5 and w₂ ≥ 0.3


def test_sweep_rows_are_core_runs_and_the_csv_reads_back():
    A, c = rows_to_system(PRESETS["thin sliver"][0])
    etas = (0.5, 1.0, 2.0)
    rows = eta_sweep(A, c, etas=etas, seed=3, tol=1e-3, max_iter=400, tau=5)
    assert len(rows) == len(etas) * len(INDEX_RULES)
    for row in rows:
        trace = relaxation(
            A, c, eta=row["eta"], rule=row["rule"], seed=3, tol=1e-3, max_iter=400, tau=5
        )
        assert row["feasible"] == trace.feasible
        assert row["iterations"] == (trace.n_iter if trace.feasible else None)
    read = list(csv.DictReader(io.StringIO(sweep_csv(rows))))
    assert [r["rule"] for r in read] == [r["rule"] for r in rows]
    assert [r["iterations_to_feasible"] for r in read] == [
        "" if r["iterations"] is None else str(r["iterations"]) for r in rows
    ]
    fig = sweep_figure(rows, 400)
    lines = [t for t in fig.data if t.mode == "lines+markers"]
    assert len(lines) == len(INDEX_RULES)
    for trace_, rule in zip(lines, INDEX_RULES):
        assert list(trace_.y) == [r["iterations"] for r in rows if r["rule"] == rule]
    assert fig.layout.margin.autoexpand is False


@pytest.mark.parametrize("max_iter", [7, 400, 2200])
def test_the_limit_line_is_labelled_where_it_is_drawn(max_iter):
    """On the log axis a shape is placed in data units and an annotation in log10 units
    (Plotly's rule): the label "not reached" must sit at the dashed line, not at
    10**max_iter, off the chart."""
    fig = sweep_figure([], max_iter)
    (line,) = [shape for shape in fig.layout.shapes if shape.line.dash == "dash"]
    (label,) = [note for note in fig.layout.annotations if "not reached" in note.text]
    assert line.y0 == line.y1 == max_iter
    assert label.yref == "y" and fig.layout.yaxis.type == "log"
    assert 10**label.y == pytest.approx(max_iter)


def test_perceptron_figure_draws_both_paths():
    A = np.array([[1.0, 0.0], [0.0, 1.0]])
    c = np.array([-0.1, -0.1])
    P = np.array([[0.0, 0.0], [-1.0, 0.0], [-1.0, -1.0]])
    R = np.array([[0.0, 0.0], [-0.1, 0.0], [-0.1, -0.1]])
    fig = perceptron_figure(-A, c, P, R, eta=1.0)
    names = [t.name for t in fig.data]
    assert "perceptron" in names and "relaxation, η = 1" in names
    np.testing.assert_array_equal(fig.data[names.index("perceptron")].x, P[:, 0])
