"""AppTest of /relaxation: the player gets the core's run for the settings shown, every
control is keyed and in the link, and the perceptron section reports the core's runs."""

from __future__ import annotations

import numpy as np
import pytest
from app_helpers import IGNORED, open_page, player_payload, plotly_chart, table_with_column

from perceptron_core import (
    INDEX_RULES,
    make_separable,
    perceptron_system,
    relaxation,
    run_perceptron,
)
from perceptron_core.relaxation import plane_system
from perceptron_core.viz.relaxation import PRESETS, RULES_TEXT, rows_text, rows_to_system

PAGE = "pages/relaxation.py"


def test_default_view_sends_the_core_run_and_every_control_is_keyed():
    at = open_page(PAGE)
    sent = player_payload(at, "relaxation")
    A, c = rows_to_system(next(iter(PRESETS.values()))[0])  # the first preset: the default
    trace = relaxation(
        A, c, eta=1.0, rule="cyclic", w0=np.zeros(2), seed=0, tol=0.001, max_iter=1000, tau=10
    )
    np.testing.assert_array_equal(sent["iterates"], trace.iterates)
    assert sent["indices"] == trace.indices.tolist()
    assert sent["player"]["update_steps"] == (np.flatnonzero(trace.moved) + 1).tolist()
    assert sent["player"]["start_step"] is None and sent["player"]["present"] is False
    assert sent["feasible"] and sent["system"]["feasible"]
    for key in (
        "system",
        "eta",
        "rule",
        "tau",
        "seed",
        "tol",
        "w0_1",
        "w0_2",
        "max_iter",
        "sweep",
        "p_n",
        "p_margin",
        "p_seed",
        "p_delta",
    ):
        assert key in at.session_state, key
    assert at.get("download_button")  # the sweep's CSV


def test_a_link_reopens_settings_and_step():
    query = {
        "system": "thin sliver",
        "eta": "2.0",
        "rule": "chaotic",
        "tau": "7",
        "seed": "4",
        "step": "5",
    }
    at = open_page(PAGE, query)
    sent = player_payload(at, "relaxation")
    A, c = rows_to_system(PRESETS["thin sliver"][0])
    trace = relaxation(
        A, c, eta=2.0, rule="chaotic", w0=np.zeros(2), seed=4, tol=0.001, max_iter=1000, tau=7
    )
    np.testing.assert_array_equal(sent["iterates"], trace.iterates)
    assert sent["rule"] == "chaotic" and sent["tau"] == 7 and sent["eta"] == 2.0
    assert sent["player"]["start_step"] == 5
    assert at.selectbox(key="rule").value == "chaotic" and at.slider(key="eta").value == 2.0
    # the same settings go back into the link: a second session opens the same run
    again = open_page(PAGE, {key: at.query_params[key] for key in at.query_params} | {"step": "5"})
    assert player_payload(again, "relaxation")["iterates"] == sent["iterates"]


def test_own_rows_travel_in_the_link_and_tau_below_n_is_raised_with_a_warning():
    rows = "1,0,1;-1,0,1;0,1,1;0,-1,1"
    at = open_page(PAGE, {"system": "your own rows", "rows": rows, "rule": "chaotic", "tau": "2"})
    sent = player_payload(at, "relaxation")
    assert sent["A"] == [[1, 0], [-1, 0], [0, 1], [0, -1]] and sent["c"] == [1, 1, 1, 1]
    assert sent["tau"] == 4
    assert any("τ = 2 is below n = 4" in w.value for w in at.warning)
    assert at.query_params["rows"] == rows


def test_infeasible_system_says_so_exactly_and_skips_the_sweep():
    at = open_page(PAGE, {"system": "infeasible"})
    sent = player_payload(at, "relaxation")
    A, c = rows_to_system(PRESETS["infeasible"][0])
    assert not plane_system(A, c).feasible and not sent["system"]["feasible"]
    assert not sent["feasible"] and sent["n_iter"] == 1000
    texts = [i.value for i in at.info]
    assert any(t.startswith("No solution") for t in texts)
    assert any(t.startswith("Not run: this system has no solution") for t in texts)
    assert not at.get("download_button")


def test_bad_link_values_are_reported_and_ignored():
    at = open_page(PAGE, {"eta": "3", "rule": "sideways"})
    sent = player_payload(at, "relaxation")
    assert sent["eta"] == 1.0 and sent["rule"] == "cyclic"
    assert any("eta=3" in w.value and "rule=sideways" in w.value for w in at.warning)


def test_perceptron_section_reports_both_core_runs():
    at = open_page(PAGE, {"p_n": "10", "p_delta": "0.2", "eta": "1.5"})
    data = make_separable(n=10, margin=0.15, dim=2, radius=1.0, seed=3, through_origin=True)
    percep = run_perceptron(
        data.X, data.y, bias=False, delta=0.2, order="cyclic", max_updates=5_000, max_epochs=1_000
    )
    A, c = perceptron_system(data.X, data.y, bias=False, delta=0.2)
    relax = relaxation(A, c, eta=1.5, rule="cyclic", tol=0.0, max_iter=20_000)
    table = table_with_column(at, "perceptron")
    assert table["perceptron"][0] == str(percep.n_updates)
    assert table["relaxation, η = 1.5"][0] == str(relax.n_moves)
    assert table["relaxation, η = 1.5"][2] == f"({relax.w[0]:.3f}, {relax.w[1]:.3f})"


def _own_polygon(n: int) -> list[list[float]]:
    """n tangents of the unit circle, a·w ≤ 1: a feasible system of n own rows."""
    angles = 2 * np.pi * np.arange(n) / n + 0.1
    return [[round(float(np.cos(t)), 3), round(float(np.sin(t)), 3), 1.0] for t in angles]


@pytest.mark.parametrize("n", [11, 12, 50])
@pytest.mark.parametrize("rule", list(INDEX_RULES))
def test_many_own_rows_run_with_every_rule_and_the_default_tau(n, rule):
    """Issue 23: 11 own rows with the default cyclic rule showed only "tau ... must be
    ≥ 11, got 10" (τ is greyed out unless the rule is chaotic): no player, no sweep."""
    rows = _own_polygon(n)
    at = open_page(PAGE, {"system": "your own rows", "rows": rows_text(rows), "rule": rule})
    assert not at.error, [e.value for e in at.error]
    assert not any(IGNORED in w.value for w in at.warning)  # the link's rows were used
    sent = player_payload(at, "relaxation")
    assert len(sent["A"]) == n and sent["rule"] == rule and sent["feasible"]
    assert sent["tau"] == (n if rule == "chaotic" else None)
    assert plotly_chart(at, "sweep_chart") and at.get("download_button")
    # the τ used is said: for the chaotic rule above the player, else in the sweep's text
    said = [w.value for w in at.warning] if rule == "chaotic" else [RULES_TEXT]
    assert any(
        f"τ = 10 is below n = {n}" in t or "τ = n when the τ set is below n" in t for t in said
    )


def test_rows_typed_into_the_table_run_with_the_default_cyclic_rule():
    rows = _own_polygon(11)
    at = open_page(PAGE, {"system": "your own rows"}, state={"own_rows": rows})
    assert not at.error, [e.value for e in at.error]
    sent = player_payload(at, "relaxation")
    assert sent["A"] == [row[:2] for row in rows] and sent["rule"] == "cyclic"
    assert plotly_chart(at, "sweep_chart")


def test_a_sweep_over_the_request_budget_is_refused_before_it_runs(monkeypatch):
    """The sweep's cost grows with the iteration limit: over the request's CPU budget the
    page says so, with the limit that fits, before computing anything; the player stays."""
    from app_helpers import fallback_messages

    import perceptron_core.viz.relaxation as viz

    def not_run(*args, **kwargs):
        raise AssertionError("the sweep was computed")

    monkeypatch.setattr(viz, "eta_sweep", not_run)
    at = open_page(PAGE, {"system": "thin sliver", "max_iter": "5000", "seed": "987654"})
    assert not fallback_messages(at) and not at.exception
    assert [w.value for w in at.warning if "Lower the iteration limit to" in w.value]
    with pytest.raises(AssertionError, match="no chart"):
        plotly_chart(at, "sweep_chart")
    assert len(player_payload(at, "relaxation")["A"]) == 3  # the player is kept
