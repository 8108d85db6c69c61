"""The /bound page through streamlit.testing.v1.AppTest (no browser)."""

from __future__ import annotations

import numpy as np
import pytest
from app_helpers import (
    assert_every_widget_has_a_key,
    chart_elements,
    open_page,
    plotly_array,
    plotly_specs,
    static_tables,
    trace_named,
)
from streamlit.testing.v1 import AppTest

TABS = {
    "size": ":material/straighten: n and d",
    "delta": ":material/tune: Threshold δ",
    "mistakes": ":material/target: Margin mistakes",
    "scale": ":material/open_in_full: Scaling and translation",
}


def open_bound(tab: str | None = None) -> AppTest:
    """/bound with the tab ``tab`` (a key of TABS; None: the first tab) selected."""
    return open_page("pages/bound.py", state={"bound_tab": TABS[tab]} if tab else None)


@pytest.fixture(scope="module")
def default_page() -> AppTest:
    return open_bound()


def test_default_page_shows_the_margin_sweep(default_page):
    at = default_page
    assert not at.error
    assert at.title[0].value == "Mistakes against the bound"
    sweep, ratio = plotly_specs(at)
    assert [t["name"] for t in sweep["data"]] == [
        "runs (one dot each)",
        "median over seeds",
        "T(A) = (R²+1)/γ₂², largest over seeds",
        "2(R²+1)/ε² (notebook), largest over seeds",  # issue 12 item 5: it holds here too
        "(R/γ)², geometric γ: reference only",
    ]
    assert sweep["layout"]["xaxis"]["type"] == "log" and sweep["layout"]["yaxis"]["type"] == "log"
    assert plotly_array(trace_named(sweep, "runs")["y"]).size == 8 * 5
    runs = plotly_array(trace_named(ratio, "runs")["y"])
    assert runs.size == 40 and runs.max() <= 1.0
    np.testing.assert_array_equal(plotly_array(trace_named(ratio, "ratio = 1")["y"]), [1.0, 1.0])
    assert "updates / T(A)" == ratio["layout"]["yaxis"]["title"]["text"]
    assert any("All 40 runs converged within T(A)" in s.value for s in at.success)
    assert [d.key for d in at.get("download_button")] == ["bound_margin_csv"]
    assert not at.get("progress")  # the bar is removed once the sweep is done
    assert not at.latex  # the formulas in plain text (no KaTeX, issue 21)
    assert any("T(A) = maxᵢ ‖aᵢ‖₂² / γ₂(A)²" in m.value for m in at.markdown)


def test_every_widget_has_a_key():
    for tab in (None, *TABS):
        assert_every_widget_has_a_key(open_bound(tab))


def test_every_control_of_every_tab_is_in_the_link():
    """The controls are drawn from one table: each is bound to the URL under its key, no
    two tabs share a key, and the quiz answers stay out of the link."""
    shared = {"bound_bias", "bound_order", "bound_n", "bound_dim"}
    inputs_of_tab = {}
    for tab in (None, *TABS):
        at = open_bound(tab)
        controls = [
            w
            for kind in ("toggle", "selectbox", "number_input", "text_input")
            for w in at.get(kind)
        ]
        assert all(w.proto.query_param_key == w.key for w in controls), tab
        assert not any(r.proto.query_param_key for r in at.get("radio"))
        inputs_of_tab[tab] = {w.key for w in controls} - shared
    every = [key for keys in inputs_of_tab.values() for key in keys]
    assert len(every) == len(set(every)) == 21  # 4 + 4 + 3 + 4 + 3 + 3 inputs


def test_fewer_margins_and_seeds_change_the_result():
    at = open_bound()
    at.number_input(key="bound_margin_count").set_value(4)
    at.number_input(key="bound_margin_seeds").set_value(2)
    at.run()
    assert not at.exception and not at.error
    sweep, ratio = plotly_specs(at)
    assert plotly_array(trace_named(sweep, "runs")["y"]).size == 8
    assert plotly_array(trace_named(sweep, "median")["x"]).size == 4
    assert any("All 8 runs" in s.value for s in at.success)


def test_without_bias_the_ratio_is_against_novikoff():
    at = open_bound()
    at.toggle(key="bound_bias").set_value(False).run()
    assert not at.exception and not at.error
    sweep, ratio = plotly_specs(at)
    names = [t["name"] for t in sweep["data"]]
    assert names[2].startswith("(R/γ)² (Novikoff)")
    assert not any("reference only" in name for name in names)
    assert ratio["layout"]["yaxis"]["title"]["text"] == "updates / (R/γ)²"
    assert plotly_array(trace_named(ratio, "runs")["y"]).max() <= 1.0


def test_bad_margin_range_shows_an_error_not_a_crash():
    at = open_bound()
    at.number_input(key="bound_margin_low").set_value(0.6)
    at.number_input(key="bound_margin_high").set_value(0.1)
    at.run()
    assert not at.exception
    assert any("smallest margin" in e.value for e in at.error)
    assert not chart_elements(at)


def test_n_and_d_tab_draws_flat_bounds_and_handles_bad_text():
    at = open_bound("size")
    assert not at.error
    by_n, by_d = plotly_specs(at)
    for spec in (by_n, by_d):
        flat = plotly_array(trace_named(spec, "largest T(A)")["y"])
        assert flat.size == 2 and flat[0] == flat[1]
        assert spec["layout"]["xaxis"]["type"] == "log"
    assert (
        plotly_array(trace_named(by_d, "median")["x"]).max() == 100
    )  # the default d values, 1 to 100
    at.text_input(key="bound_n_values").set_value("10, lots").run()
    assert not at.exception
    assert any("'lots' is not a number" in e.value for e in at.error)
    assert len(plotly_specs(at)) == 1  # the d sweep still shows


def test_threshold_tab_checks_bound_1_4():
    at = open_bound("delta")
    assert not at.error
    curve, ratio = plotly_specs(at)
    bound = plotly_array(trace_named(curve, "bound (1.4)")["y"])
    assert np.all(np.diff(bound) > 0)  # grows with delta
    assert plotly_array(trace_named(ratio, "runs")["y"]).max() <= 1.0
    assert any("bound (1.4)" in s.value for s in at.success)


def test_margin_mistakes_tab_uses_three_over_gamma_squared():
    at = open_bound("mistakes")
    assert not at.error
    sweep, ratio = plotly_specs(at)
    assert trace_named(sweep, "3/γ²")
    assert plotly_array(trace_named(ratio, "runs")["y"]).max() <= 1.0
    assert any("3/γ²" in s.value for s in at.success)


def test_scaling_through_the_origin_is_checked_to_change_nothing():
    at = open_bound("scale")
    at.toggle(key="bound_bias").set_value(False).run()
    assert not at.exception and not at.error
    assert any("the update count is the same at every λ" in s.value for s in at.success)
    scale_chart, shift_chart = plotly_specs(at)
    medians = plotly_array(trace_named(scale_chart, "median")["y"])
    assert np.all(medians == medians[0])
    assert len(at.dataframe) == 2  # the runs, one row each
    numbers = [
        t for t in static_tables(at) if t.attrs["caption"].startswith("The sweep in numbers")
    ]
    assert list(numbers[0].columns[:2]) == ["λ", "runs"]
    assert len(numbers) == 2 and numbers[0]["median updates"].nunique() == 1  # λ changes nothing
    keys = {d.key for d in at.get("download_button")}
    assert keys == {"bound_scale_csv", "bound_shift_csv"}


def test_the_scaling_tab_says_prominently_whether_a_bias_is_learnt():
    """Issue 22: the answer to Exercise 1.29's scaling question flips with the bias, so the
    tab says which setting its runs use, read from the toggle on screen; with a bias it
    counts the seeds whose updates changed with λ (checked against the core's runs)."""
    from perceptron_core.sweeps import scale_sweep

    at = open_bound("scale")
    for bias in (True, False):
        at.toggle(key="bound_bias").set_value(bias).run()
        notes = [i.value for i in at.info if "These runs" in i.value]
        assert len(notes) == 1
        assert ("learn a bias b" in notes[0]) is bias
        assert ("through the origin, with no bias" in notes[0]) is (not bias)
        shown = [m.value for m in at.markdown if "changed with λ for" in m.value]
        if bias:
            core = scale_sweep([0.1, 0.3, 1, 3, 10], 3, margin=0.1, n=200, dim=2, bias=True)
            changed = sum(
                np.unique(core.updates[core.seed == s]).size > 1 for s in np.unique(core.seed)
            )
            assert len(shown) == 1 and f"for {changed} of 3 seeds" in shown[0]
        else:
            assert not shown


def test_a_link_with_the_old_cyclic_label_opens_the_cyclic_order_without_a_warning():
    """The cyclic order's label counts examples from 1 since issue 22 (as every page numbers
    them); a link written with the old label (0, 1, ..., n-1) still opens that order."""
    from app_helpers import link_warnings, widget

    from perceptron_core.perceptron import ORDERS

    at = open_page("pages/bound.py", {"bound_order": "cyclic (0, 1, ..., n-1, repeat)"})
    assert widget(at, "bound_order").value == "cyclic"
    assert link_warnings(at) == []
    assert at.query_params.get("bound_order") in (None, ORDERS["cyclic"], [ORDERS["cyclic"]])
    assert "0, 1" not in ORDERS["cyclic"] and "(1, 2" in ORDERS["cyclic"]
