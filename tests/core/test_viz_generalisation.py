"""/generalisation's payload and figures: every number the browser shows, against the core.

The margin perceptron's player payload is compared with the core's trace and with
quantities recomputed here by plain loops; the stability summary and the step-size
check are tested as the properties the page states, over many seeds.
"""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest

from perceptron_core import generalisation_curve, make_unit_margin, margin_perceptron
from perceptron_core.generalisation import LOSSES
from perceptron_core.viz.generalisation import (
    KIND_CLOSE,
    KIND_WRONG,
    combine_curves,
    curve_csv,
    curve_figure,
    curve_rows,
    eta_check,
    loss_figure,
    margin_player_payload,
    stability_figure,
    stability_summary,
)
from perceptron_core.viz.player import decode_indices, player_spec


def build(n=40, margin=0.1, data_seed=0, order_seed=0, start_step=None):
    """The page's pipeline for section 1: data, run, payload."""
    data = make_unit_margin(n=n, margin=margin, dim=2, seed=data_seed)
    trace = margin_perceptron(data.X, data.y, order="random", seed=order_seed, unit=True)
    spec = player_spec("id", trace.n_examined, trace.update_steps, start_step=start_step)
    payload = margin_player_payload(
        data.X, data.y, trace, beta_star=data.w_star, margin=margin, player=spec
    )
    return data, trace, payload


def replay_margin_perceptron(X, y, stream):
    """A plain loop: beta = 0; for each examined index, add y x when y x·beta < 1. The
    points are unit vectors: while every update so far was on point i, its score is the
    number of those updates, exactly (not its rounded float product)."""
    beta = np.zeros(X.shape[1])
    weights, steps, scores, updated = [beta.copy()], [], [], []
    for step, i in enumerate(stream, start=1):
        alone = bool(updated) and set(updated) == {i}
        m = float(len(updated)) if alone else y[i] * float(X[i] @ beta)
        if m < 1:
            beta = beta + y[i] * X[i]
            updated.append(int(i))
            weights.append(beta.copy())
            steps.append(step)
            scores.append(m)
    return np.array(weights), steps, scores


@pytest.mark.parametrize("seed", range(6))
def test_the_payload_is_the_run_and_a_plain_loop_agrees(seed):
    data, trace, payload = build(
        n=30 + 10 * seed, margin=0.05 + 0.05 * seed, data_seed=seed, order_seed=seed + 3
    )
    json.dumps(payload, allow_nan=False)  # JSON-ready, no NaN
    n = len(data.y)
    stream = decode_indices(payload["examined"], trace.n_examined, n)
    np.testing.assert_array_equal(
        stream, trace.indices_at_steps(np.arange(1, trace.n_examined + 1))
    )
    weights, steps, scores = replay_margin_perceptron(
        np.asarray(data.X), np.asarray(data.y), stream
    )
    np.testing.assert_allclose(payload["updates"]["weights"], weights, rtol=0, atol=1e-12)
    assert payload["updates"]["steps"] == steps == trace.update_steps.tolist()
    np.testing.assert_allclose(payload["updates"]["scores"], scores, atol=1e-12)
    assert payload["updates"]["indices"] == [int(stream[s - 1]) for s in steps]
    # the two kinds, told apart by the margin before the update
    expected = [KIND_WRONG if m <= 0 else KIND_CLOSE for m in scores]
    assert payload["updates"]["kinds"] == expected
    assert all(m < 1 for m in scores)
    counts = payload["counts"]
    assert counts["margin_mistakes"] == trace.n_updates == len(steps)
    assert counts["wrong"] == sum(m <= 0 for m in scores)
    assert counts["close"] == sum(0 < m < 1 for m in scores)
    assert payload["converged"] and "Converged after" in payload["end_text"]
    assert f"{counts['wrong']} on the wrong side" in payload["end_text"]
    # every point ends outside the band
    final = np.asarray(payload["updates"]["weights"][-1])
    assert np.all(np.asarray(data.y) * (np.asarray(data.X) @ final) >= 1)
    np.testing.assert_allclose(payload["X"], data.X)
    assert payload["y"] == np.asarray(data.y).tolist()
    assert payload["planted"]["beta"] == pytest.approx(list(data.w_star))


@pytest.mark.parametrize("seed", range(10))
def test_the_lemma_panels_hold_along_every_run(seed):
    margin = [0.05, 0.1, 0.2, 0.3, 0.5][seed % 5]
    data, trace, payload = build(n=60, margin=margin, data_seed=100 + seed, order_seed=seed)
    proof, star = payload["proof"], np.asarray(data.w_star)
    t = np.arange(trace.n_updates + 1)
    alignment = [float(np.dot(w, star)) for w in trace.weights]
    norm_sq = [float(np.dot(w, w)) for w in trace.weights]
    np.testing.assert_allclose(proof["alignment"], alignment, atol=1e-12)
    np.testing.assert_allclose(proof["norm_sq"], norm_sq, atol=1e-12)
    np.testing.assert_allclose(proof["alignment_lower"], t * margin)
    np.testing.assert_allclose(proof["norm_sq_upper"], 3 * t)
    # the Lemma's two lines, and its conclusion
    assert np.all(np.asarray(alignment) >= t * margin - 1e-9)
    assert np.all(np.asarray(norm_sq) <= 3 * t + 1e-9)
    assert trace.n_updates <= 3 / margin**2
    assert payload["bound"]["value"] == pytest.approx(3 / margin**2)


def test_a_start_step_travels_in_the_payload():
    _, trace, payload = build(start_step=7)
    assert payload["player"]["start_step"] == 7
    assert payload["player"]["n_examined"] == trace.n_examined


# ---------------------------------------------------------------------------
# the curve
# ---------------------------------------------------------------------------
SETTINGS = dict(margin=0.2, dim=2, repeats=40, seed=3)


def test_single_n_curves_combine_into_the_whole_curve():
    sizes = [2, 5, 20, 80]
    whole = generalisation_curve(n_train=sizes, **SETTINGS)
    combined = combine_curves(generalisation_curve(n_train=[n], **SETTINGS) for n in sizes)
    for name in (
        "n_train",
        "mean_error",
        "stderr",
        "errors",
        "margin_mistakes",
        "stability_bound",
        "uniform_bound",
    ):
        np.testing.assert_array_equal(getattr(combined, name), getattr(whole, name))
    assert combined.repeats == whole.repeats and combined.exact == whole.exact
    with pytest.raises(ValueError):
        combine_curves([])


def test_the_csv_and_the_rows_are_the_curve():
    curve = generalisation_curve(n_train=[2, 10, 200], **SETTINGS)
    rows = curve_rows(curve)
    erred = [sum(1 for e in row if e > 0) for row in np.asarray(curve.errors)]
    assert rows["runs_with_error"].tolist() == erred
    table = list(csv.DictReader(io.StringIO(curve_csv(curve))))
    assert [int(r["n_train"]) for r in table] == [2, 10, 200]
    np.testing.assert_allclose(
        [float(r["mean_error"]) for r in table], np.asarray(curve.errors).mean(axis=1), rtol=1e-9
    )
    np.testing.assert_allclose(
        [float(r["stability_bound"]) for r in table],
        [3 / ((n + 1) * 0.2**2) for n in (2, 10, 200)],
        rtol=1e-9,
    )
    assert [int(r["runs_with_error"]) for r in table] == erred


def test_the_figure_shows_positive_means_on_the_line_and_zeros_on_the_floor():
    curve = generalisation_curve(n_train=[2, 10, 500], **SETTINGS)
    mean = np.asarray(curve.mean_error)
    assert mean[0] > 0 and mean[-1] == 0  # these settings have both (else the test is moot)
    fig = curve_figure(curve)
    by_name = {trace.name: trace for trace in fig.data}
    line = next(t for name, t in by_name.items() if name.startswith("mean test error"))
    np.testing.assert_allclose(line.y, mean[mean > 0])
    np.testing.assert_allclose(line.error_y.array, np.asarray(curve.stderr)[mean > 0])
    floor = next(t for name, t in by_name.items() if name.startswith("mean 0: no run erred"))
    assert list(floor.x) == [500] and list(floor.text) == [f"0 of {curve.repeats}"]
    stability = next(t for name, t in by_name.items() if name.startswith("3/((N+1)"))
    np.testing.assert_allclose(stability.y, curve.stability_bound)
    low, high = fig.layout.yaxis.range
    assert 10**low < floor.y[0] < min(mean[mean > 0]) and 10**high >= max(curve.stability_bound)
    assert fig.layout.xaxis.type == "log" and fig.layout.yaxis.type == "log"
    assert fig.layout.margin.autoexpand is False
    # error rates as powers of ten (10⁻⁵), never SI prefixes ("10μ", issue #22)
    assert fig.layout.yaxis.exponentformat == "power" and fig.layout.yaxis.dtick == 1


# ---------------------------------------------------------------------------
# stability
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(4))
def test_removing_a_point_that_caused_no_margin_mistake_changes_nothing(seed):
    data = make_unit_margin(n=25, margin=0.15, dim=2, seed=seed)
    X, y = np.asarray(data.X), np.asarray(data.y)
    full = margin_perceptron(X, y, order="cyclic", unit=True)
    changed_when_caused = 0
    for heldout in range(len(y)):
        keep = np.arange(len(y)) != heldout
        reduced = margin_perceptron(X[keep], y[keep], order="cyclic", unit=True)
        summary = stability_summary(full, reduced, heldout)
        caused = heldout in set(full.update_indices.tolist())
        assert summary["caused"] == caused
        assert summary["count"] == int(np.sum(full.update_indices == heldout))
        if not caused:
            assert summary["same"]
            assert summary["reduced_updates"] == summary["full_updates"]
            # and the full run's beta classifies the held-out point with margin >= 1
            assert y[heldout] * (X[heldout] @ np.asarray(summary["full_beta"])) >= 1
        else:
            changed_when_caused += not summary["same"]
    assert summary["mistake_points"] == sorted(set(full.update_indices.tolist()))
    assert changed_when_caused >= 1  # the picture has something to show


def test_the_stability_figure_marks_the_mistake_points_and_the_held_out_one():
    data = make_unit_margin(n=20, margin=0.2, dim=2, seed=1)
    X, y = np.asarray(data.X), np.asarray(data.y)
    full = margin_perceptron(X, y, order="cyclic", unit=True)
    summary = stability_summary(full, margin_perceptron(X[1:], y[1:], order="cyclic", unit=True), 0)
    fig = stability_figure(X, y, summary, 0)
    ringed = next(t for t in fig.data if t.name.startswith("caused a margin mistake"))
    # points are named from 1 on the page: row i of X is point i + 1
    assert sorted(ringed.customdata.tolist()) == [i + 1 for i in summary["mistake_points"]]
    star = next(t for t in fig.data if t.name.startswith("held-out point"))
    assert star.name == "held-out point 1" and star.text == ("1",)
    assert (star.x[0], star.y[0]) == (X[0, 0], X[0, 1])


# ---------------------------------------------------------------------------
# losses and the step size
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("view", ["loss", "slope"])
def test_the_loss_figure_draws_the_core_losses(view):
    fig = loss_figure(view)
    for trace in fig.data:
        name = next(
            k
            for k, label in __import__(
                "perceptron_core.generalisation", fromlist=["LOSS_LABELS"]
            ).LOSS_LABELS.items()
            if label == trace.name
        )
        loss, subgradient = LOSSES[name]
        function = loss if view == "loss" else subgradient
        x, values = np.asarray(trace.x), np.asarray(trace.y)
        away = (x != 0) & (x != 1)  # at a jump the figure draws both one-sided values
        np.testing.assert_allclose(values[away], function(x[away]))


@pytest.mark.parametrize("eta", [0.01, 0.1, 0.5, 3.0, 100.0])
def test_eta_leaves_the_perceptron_alone_and_moves_the_margin_perceptron(eta):
    data = make_unit_margin(n=40, margin=0.1, dim=2, seed=0)
    check = eta_check(data.X, data.y, eta, order="random", seed=0, unit=True)
    assert check["perceptron"]["same_updates"] and check["perceptron"]["scaled"]
    hinge = check["hinge"]
    # eta = 1 on the hinge loss is the margin perceptron of section 1
    assert (
        hinge["updates_eta_1"]
        == margin_perceptron(data.X, data.y, order="random", seed=0, unit=True).n_updates
    )
    # dividing beta by eta: the margin perceptron asking for 1/eta, at most (1 + 2/eta)/gamma^2
    assert hinge["updates_eta"] <= (1 + 2 / eta) / 0.1**2
    assert hinge["converged_eta"]


def test_a_small_eta_changes_the_margin_perceptron_on_the_default_data():
    data = make_unit_margin(n=40, margin=0.1, dim=2, seed=0)
    assert not eta_check(data.X, data.y, 0.1, order="random", seed=0, unit=True)["hinge"][
        "same_updates"
    ]
