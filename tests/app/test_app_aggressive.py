"""The /aggressive page through streamlit.testing (no browser)."""

from __future__ import annotations

import pytest
from app_helpers import (
    assert_every_widget_has_a_key,
    chart_elements,
    open_page,
    plotly_specs,
    static_tables,
    trace_named,
)
from streamlit.testing.v1 import AppTest

PAGE = "pages/aggressive.py"


@pytest.fixture(scope="module")
def at() -> AppTest:
    return open_page(PAGE)


def test_page_renders_without_exception(at):
    assert at.title[0].value.endswith("Aggressive updates never stop")
    assert not at.error
    assert len(chart_elements(at)) == 4
    assert any("ain't broke" in info.value for info in at.info)


def test_every_widget_has_a_key(at):
    assert_every_widget_has_a_key(at)


def test_table_of_first_examples(at):
    assert not at.dataframe  # a static HTML table: no Arrow, no data grid
    (table,) = static_tables(at)
    assert len(table) == 40 and table["example k"].tolist() == list(range(1, 41))
    first = table.iloc[0]
    assert first["example k"] == 1 and first["xₖ"] == "−2x"
    assert (
        first["aggressive rule: score"] == "0 mistake" and first["mistake-driven rule"] == "mistake"
    )
    by_t = table.set_index("example k")
    assert by_t.loc[32, "aggressive rule: score"].endswith(" mistake")
    assert by_t.loc[32, "mistake-driven rule"] == ""
    assert not by_t.loc[16, "aggressive rule: score"].endswith("mistake")
    assert (table["mistake-driven rule"] == "mistake").sum() == 2


def test_cumulative_chart_is_logarithmic_up_to_a_million(at):
    spec = plotly_specs(at)[0]
    assert spec["layout"]["xaxis"]["type"] == "log"
    assert spec["layout"]["xaxis"]["range"][1] >= 6
    names = [trace.get("name", "") for trace in spec["data"]]
    assert any(name.startswith("mistake-driven") for name in names)
    assert any(name.startswith("aggressive") for name in names)
    assert [m.value for m in at.metric] == ["2", "18"]


def test_running_average_chart_has_the_line_at_minus_one(at):
    spec = plotly_specs(at)[1]
    assert set(trace_named(spec, "threshold −1")["y"]) == {-1}


def test_swing_animation_is_sent_with_frames_buttons_and_slider(at):
    spec = plotly_specs(at)[2]
    assert len(spec["frames"]) >= 64
    assert [b["label"] for b in spec["layout"]["updatemenus"][0]["buttons"]] == ["Play", "Pause"]
    assert len(spec["layout"]["sliders"][0]["steps"]) == len(spec["frames"])


def test_ten_million_examples():
    at = open_page(PAGE)
    at.select_slider(key="aggressive_T").set_value(10**7).run()
    assert not at.exception
    spec = plotly_specs(at)[0]
    assert spec["layout"]["xaxis"]["range"][1] >= 7
    # mistakes on examples 1, 3, 5 and on every power of two from 32 = 2^5 to 2^23
    assert [m.value for m in at.metric] == ["2", str(3 + 19)]


def test_always_wrong_sequence_every_step_a_mistake():
    at = open_page(PAGE)
    at.slider(key="always_wrong_T").set_value(30).run()
    assert not at.exception
    assert any(s.value.startswith("30 mistakes in 30 examples") for s in at.success)
