"""One table of settings per page (pages/common/settings_table.py): each setting declared
once, and from that entry the widget, its link rule and the settings record.

Checked on the pages' real tables (each entry is drawn on its page, with the label and
range the table gives; the link rules the pages clean with are the table's) and on a small
script, where adding one entry to a table is all it takes for a new setting to be drawn,
read from a link, cleaned when the link's value is out of range, and in the record.
"""

from __future__ import annotations

import importlib

import pytest
from app_helpers import link_warning, open_page
from streamlit.testing.v1 import AppTest

from pages.common.link_cleaning import choice_param, float_param, int_param
from pages.common.settings_table import Setting, SettingsTable

#: page -> (the module holding its table, the keys the page draws when it opens with
#: defaults: every setting but those of closed parts)
TABLES = {
    "train": ("pages.train_parts.runs", None),
    "multiclass": ("pages.multiclass_parts.settings", None),
    "kernels": ("pages.kernels_parts.settings", "SIDEBAR"),
    "relaxation": ("pages.relaxation_parts.settings", None),
    "generalisation": ("pages.generalisation_parts.settings", None),
    "adversary": ("pages.adversary_parts.settings", None),
    "aggressive": ("pages.aggressive_parts.settings", None),
}


def table_of(page: str) -> SettingsTable:
    return importlib.import_module(TABLES[page][0]).SETTINGS


def test_a_key_declared_twice_is_refused():
    with pytest.raises(ValueError, match="twice"):
        SettingsTable(Setting("n", "slider", "n", (1, 9, 2)), Setting("n", "slider", "m", (1, 3)))


def test_the_rules_come_from_the_widget_arguments_unless_declared():
    table = SettingsTable(
        Setting("n", "number_input", "points", (2, 300, 40), {"step": 10}),
        Setting("eta", "slider", "η", (0.05, 2.0, 1.0, 0.05)),
        Setting("menu", "", "menu", rule=choice_param(["a", "b"], "b")),
    )
    assert table.link_rules == {
        "n": int_param(2, 300, 40),
        "eta": float_param(0.05, 2.0, 1.0),
        "menu": choice_param(["a", "b"], "b"),
    }
    assert table.defaults() == {"n": 40, "eta": 1.0, "menu": "b"}
    record = table.record("Record")
    assert [f for f in record.__dataclass_fields__] == ["n", "eta", "menu"]
    with pytest.raises(ValueError, match="drawn by its page"):
        table.draw(None, "menu")  # type: ignore[arg-type]


@pytest.mark.parametrize("page", list(TABLES))
def test_each_page_draws_its_table(page):
    """Every setting of the table is a widget on the page with the table's label (the
    sections drawn only when opened are left out where the page says so)."""
    table = table_of(page)
    module, subset = TABLES[page]
    keys = getattr(importlib.import_module(module), subset) if subset else list(table.by_key)
    at = open_page(f"pages/{page}.py", parts_open=False)
    drawn = {}
    for kind in ("slider", "number_input", "toggle", "checkbox", "radio", "selectbox"):
        for widget in getattr(at, kind):
            drawn[widget.key] = widget.label
    for widget in at.text_input:
        drawn[widget.key] = widget.label
    for key in keys:
        setting = table[key]
        if setting.widget in ("segmented_control", "") or key not in drawn:
            assert setting.widget in ("segmented_control", "", "select_slider"), (page, key)
            continue
        assert drawn[key] == setting.label, (page, key)


@pytest.mark.parametrize("page", ["train", "multiclass", "relaxation"])
def test_a_link_value_out_of_the_tables_range_is_named_and_the_default_used(page):
    table = table_of(page)
    number = next(s for s in table if s.link_rule.kind == "int" and s.link_rule.high)
    at = open_page(f"pages/{page}.py", {number.key: str(int(number.link_rule.high) + 1)})
    widget = next(w for w in [*at.number_input, *at.slider] if w.key == number.key)
    assert widget.value == number.link_rule.default
    assert number.key in link_warning(at)


NEW_SETTING_SCRIPT = """
import streamlit as st
from pages.common.linked_controls import PageLink
from pages.common.settings_table import Setting, SettingsTable

SETTINGS = SettingsTable(
    Setting("n", "number_input", "points n", (2, 300, 40), {"step": 10}),
    Setting("eta", "slider", "step size η", (0.05, 2.0, 1.0, 0.05), {"help": "how far"}),
)
Record = SETTINGS.record("Record")
link = PageLink()
with st.sidebar:
    values = SETTINGS.read(link)
record = Record(**values)
st.write(repr(record))
link.report()
"""


def test_adding_a_setting_is_one_table_entry():
    """The whole declaration of a new setting (``eta``) is its Setting: it is drawn with its
    label, range and help, read from the link, cleaned when out of range, in the record."""
    at = AppTest.from_string(NEW_SETTING_SCRIPT, default_timeout=30)
    at.query_params["eta"] = "1.5"
    at.run()
    assert not at.exception
    eta = next(w for w in at.slider if w.key == "eta")
    assert (eta.label, eta.value, eta.min, eta.max, eta.help) == (
        "step size η",
        1.5,
        0.05,
        2.0,
        "how far",
    )
    assert "Record(n=40, eta=1.5)" in at.markdown[0].value
    at = AppTest.from_string(NEW_SETTING_SCRIPT, default_timeout=30)
    at.query_params["eta"] = "7"
    at.run()
    assert next(w for w in at.slider if w.key == "eta").value == 1.0
    assert "eta" in link_warning(at)
