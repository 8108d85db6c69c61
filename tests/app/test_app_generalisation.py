"""AppTest of /generalisation: the page opens, its widgets are keyed and in the link, and
what it sends and writes is the core's result for the settings shown.

AppTest runs no JavaScript: the player's stepping is tested in Chromium
(test_browser_generalisation.py).
"""

from __future__ import annotations

import numpy as np
import pytest
from app_helpers import markdown_text, open_page, player_payload, widget

from pages.generalisation_parts.settings import SETTINGS
from perceptron_core import generalisation_curve, make_unit_margin, margin_perceptron

PAGE = "pages/generalisation.py"
KEYS = [
    "n",
    "margin",
    "data_seed",
    "order_seed",
    "curve_n",
    "curve_margin",
    "curve_dim",
    "repeats",
    "curve_seed",
    "stab_n",
    "heldout",
    "eta",
]


def test_the_page_opens_and_sends_the_core_run():
    at = open_page(PAGE)
    assert not at.error, [e.value for e in at.error]
    for key in KEYS:  # every control is keyed
        widget(at, key)
    data = make_unit_margin(n=40, margin=0.1, dim=2, seed=0)
    trace = margin_perceptron(data.X, data.y, order="random", seed=0, unit=True)
    sent = player_payload(at, "generalisation")
    np.testing.assert_array_equal(sent["X"], data.X)
    np.testing.assert_array_equal(sent["updates"]["weights"], trace.weights)
    assert sent["updates"]["steps"] == trace.update_steps.tolist()
    assert sent["player"]["n_examined"] == trace.n_examined
    assert sent["player"]["start_step"] is None and sent["player"]["present"] is False
    assert sent["bound"]["value"] == 300 and sent["bound"]["relation"] == "= 300"
    # the curve's sentence and the step-size check are there
    text = markdown_text(at)
    runs = SETTINGS.defaults()["repeats"]
    curve = generalisation_curve(
        n_train=[2, 5, 10, 20, 50, 100, 200], margin=0.1, dim=2, repeats=runs, seed=0, n_test=5_000
    )
    assert f"the most in one run here was {int(curve.margin_mistakes.max())}" in text
    zero = [int(n) for n, row in zip(curve.n_train, curve.errors) if not np.any(row > 0)]
    if zero:
        assert f"At N = {' and '.join(map(str, zero))} **none of the {runs} runs" in text
    assert any("Checked on this run" in s.value for s in at.success)


def test_changing_the_data_sends_a_new_run():
    at = open_page(PAGE)
    first = player_payload(at, "generalisation")
    widget(at, "n").set_value(60).run()
    assert not at.exception
    sent = player_payload(at, "generalisation")
    data = make_unit_margin(n=60, margin=0.1, dim=2, seed=0)
    trace = margin_perceptron(data.X, data.y, order="random", seed=0, unit=True)
    assert sent["player"]["run_id"] != first["player"]["run_id"]
    assert sent["updates"]["indices"] == trace.update_indices.tolist()


def test_a_link_round_trip():
    query = {
        "n": "60",
        "margin": "0.2",
        "order_seed": "3",
        "step": "5",
        "heldout": "4",
        "stab_n": "20",
        "eta": "0.5",
        "curve_n": "3, 30",
        "repeats": "50",
    }
    at = open_page(PAGE, query)
    assert widget(at, "n").value == 60 and widget(at, "margin").value == 0.2
    assert widget(at, "eta").value == 0.5 and widget(at, "curve_n").value == "3, 30"
    sent = player_payload(at, "generalisation")
    assert sent["player"]["start_step"] == 5
    data = make_unit_margin(n=60, margin=0.2, dim=2, seed=0)
    trace = margin_perceptron(data.X, data.y, order="random", seed=3, unit=True)
    assert sent["updates"]["steps"] == trace.update_steps.tolist()
    # one copy link per page: the player's (it copies the address bar), no second box;
    # the address bar keeps every value the link carried
    assert not [c.value for c in at.code if "eta=" in c.value]
    for name, value in query.items():
        if name != "step":  # step= is the browser's, written by the player
            assert at.query_params[name] in (value, [value]), name
    # opening that link again gives the same view
    again = open_page(PAGE, dict(query))
    assert player_payload(again, "generalisation")["updates"] == sent["updates"]
    # the stability section uses the held-out point of the link (numbered from 1: row 3)
    stab = make_unit_margin(n=20, margin=0.2, dim=2, seed=0)
    full = margin_perceptron(stab.X, stab.y, order="cyclic", unit=True)
    caused = 3 in set(full.update_indices.tolist())
    text = markdown_text(at)
    assert (
        f"Point 4 **caused {int(np.sum(full.update_indices == 3))} margin" in text
        if caused
        else "Point 4 **caused no margin mistake**" in text
    )


def test_a_bad_link_value_is_named_and_the_default_used():
    at = open_page(PAGE, {"margin": "7", "curve_n": "1, x"})
    assert widget(at, "margin").value == 0.1
    assert any("margin=7" in w.value for w in at.warning)
    assert any("Values of N" in e.value for e in at.error)  # malformed list: said, no crash


def test_presenter_mode_reaches_the_player():
    at = open_page(PAGE, state={"present": True})  # app.py sets it from ?present=1
    assert player_payload(at, "generalisation")["player"]["present"] is True


def test_the_cached_charts_are_the_figures_built_afresh():
    """Issue #23: the curve's and the losses' figures are cached as JSON and rebuilt without
    Plotly's validation; what the browser gets must be the figure the core's result draws,
    for settings the cache has not seen."""
    import json

    from app_helpers import plotly_spec

    from perceptron_core.viz import generalisation as viz

    def same(sent: dict, fig) -> None:
        expected = json.loads(fig.to_json())
        assert json.dumps(sent["data"], sort_keys=True) == json.dumps(
            expected["data"], sort_keys=True
        )
        assert sent["layout"]["title"] == expected["layout"]["title"]

    at = open_page(PAGE, {"curve_n": "3, 7", "repeats": "20", "curve_seed": "4242"})
    assert not at.error, [e.value for e in at.error]
    curve = generalisation_curve(
        n_train=[3, 7], margin=0.1, dim=2, repeats=20, seed=4242, n_test=5_000
    )
    same(plotly_spec(at, "curve_chart"), viz.curve_figure(curve))
    same(plotly_spec(at, "loss_chart"), viz.loss_figure("loss"))
    same(plotly_spec(at, "slope_chart"), viz.loss_figure("slope"))


def test_sgd_over_its_share_of_the_budget_is_refused_with_what_to_change():
    """A small η on data of a small margin could take seconds (the hinge loss's
    (1 + 2/η)/γ² updates): the page says so and what to change, and draws no SGD table;
    the default η on the same data runs."""
    at = open_page(PAGE, {"margin": "0.05", "eta": "0.01"})
    refused = [e.value for e in at.error if "SGD with step η = 0.01" in e.value]
    assert len(refused) == 1 and "= 80,400 updates" in refused[0]
    assert "use a larger step η, or a larger margin γ in section 1" in refused[0]
    assert not any("Checked on this run" in s.value for s in at.success)
    at = open_page(PAGE, {"margin": "0.05", "eta": "0.1"})
    assert not at.error and any("Checked on this run" in s.value for s in at.success)


def test_the_default_curve_fits_its_share_of_the_budget():
    """The curve's default settings are within CURVE_SECONDS (the page opens them), and
    twice its runs per N are not."""
    from pages.common.request_budget import REQUEST_CPU_SECONDS
    from pages.generalisation_parts.runs import CURVE_SECONDS, DEFAULT_SIZES, N_TEST, SGD_SECONDS

    assert CURVE_SECONDS + SGD_SECONDS < REQUEST_CPU_SECONDS  # room for the rest of the page
    from perceptron_core.viz.generalisation import check_curve_cost, parse_sizes

    defaults = SETTINGS.defaults()
    sizes = parse_sizes(DEFAULT_SIZES)
    args = (sizes, defaults["curve_margin"], defaults["curve_dim"])
    check_curve_cost(*args, defaults["repeats"], N_TEST, CURVE_SECONDS)
    with pytest.raises(ValueError, match="fewer runs per N"):
        check_curve_cost(*args, 2 * defaults["repeats"], N_TEST, CURVE_SECONDS)
