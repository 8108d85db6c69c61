"""pages/common/static_table.py: small fixed tables as escaped, accessible HTML (issue 21)."""

from __future__ import annotations

import numpy as np
import pytest
from app_helpers import read_html_tables, static_tables
from streamlit.testing.v1 import AppTest

from pages.common.static_table import table_html

HOSTILE = '<script>alert("x")</script> & <b>bold</b>'


def test_text_is_escaped_and_reads_back_as_written():
    """A class name, a header or a caption with HTML in it shows as text, never as markup."""
    body = table_html({"name": [HOSTILE, "a < b"], HOSTILE: [1, 2]}, caption=HOSTILE)
    assert "<script>" not in body and "<b>" not in body
    (table,) = read_html_tables(body)
    assert table["caption"] == HOSTILE
    assert table["rows"][0] == ["name", HOSTILE]
    assert [row[0] for row in table["rows"][1:]] == [HOSTILE, "a < b"]


def test_headers_have_scopes_and_the_first_column_names_its_row():
    body = table_html(
        {"round i": [1, 2, 3], "label": ["+", "−", "+"], "x": [0.5, 1, 2]}, caption="three rounds"
    )
    (table,) = read_html_tables(body)
    scopes = table["header_scopes"]
    assert scopes[:3] == ["col"] * 3  # the header row
    rows = [scopes[3 + 3 * r : 6 + 3 * r] for r in range(3)]
    assert rows == [["row", None, None]] * 3
    plain = read_html_tables(table_html({"a": [1], "b": [2]}, caption="c", row_headers=False))[0][
        "header_scopes"
    ]
    assert plain == ["col", "col", None, None]


@pytest.mark.parametrize("seed", range(8))
def test_formats_against_printf(seed):
    """A format string gives the same text as the grid's printf format ("%+d", "%.3f"),
    and a column without one prints each value as Python does (NumPy ints as ints)."""
    rng = np.random.default_rng(seed)
    signs = rng.choice([-1, 1], size=12)
    values = rng.normal(scale=10.0 ** rng.integers(-3, 4), size=12)
    counts = rng.integers(0, 10**6, size=12)
    body = table_html(
        {"k": np.arange(1, 13), "sign": signs, "value": values, "count": counts},
        caption="c",
        formats={"sign": "{:+d}", "value": lambda v: f"{v:.3f}"},
    )
    rows = read_html_tables(body)[0]["rows"][1:]
    assert [row[1] for row in rows] == [f"{s:+d}" for s in signs]
    assert [row[2] for row in rows] == [f"{v:.3f}" for v in values]
    assert [row[3] for row in rows] == [f"{c:d}" for c in counts]
    assert [row[0] for row in rows] == [str(k) for k in range(1, 13)]


def test_numbers_are_right_aligned_text_is_not():
    body = table_html(
        {"name": ["a"], "n": [np.int64(3)], "share": ["40%"], "yes": [True]}, caption="c"
    )
    assert '<td class="lab-num">3</td>' in body
    assert "<td>40%</td>" in body and "<td>True</td>" in body


def test_a_long_table_scrolls_in_its_own_box():
    short = table_html({"a": [1]}, caption="c")
    tall = table_html({"a": list(range(40))}, caption="c", tall=True)
    assert "lab-table-tall" in tall and "lab-table-tall" not in short
    for body in (short, tall):  # a region a keyboard reaches and a screen reader names
        assert 'role="region" tabindex="0" aria-label="c"' in body


@pytest.mark.parametrize(
    "columns, formats, message",
    [
        ({}, None, "at least one column"),
        ({"a": [1, 2], "b": [1]}, None, "same number of values"),
        ({"a": [1]}, {"b": "{:d}"}, "does not have"),
    ],
)
def test_bad_tables_raise_a_value_error_saying_what_to_fix(columns, formats, message):
    with pytest.raises(ValueError, match=message):
        table_html(columns, caption="c", formats=formats)


def _script():
    from pages.common.static_table import static_table

    static_table(
        {"class": ['<img src=x onerror="alert(1)">', "b"], "updates": [3, 12], "sign": [1, -1]},
        caption="two classes",
        formats={"sign": "{:+d}"},
    )


def test_a_page_sends_it_as_html_read_back_by_the_test_helper():
    at = AppTest.from_function(_script).run()
    assert not at.exception and not at.dataframe
    (table,) = static_tables(at)
    assert table.attrs["caption"] == "two classes"
    assert table["class"].tolist() == ['<img src=x onerror="alert(1)">', "b"]
    assert table["updates"].tolist() == [3, 12] and table["sign"].tolist() == [1, -1]
    (text,) = static_tables(at, numbers=False)
    assert text["sign"].tolist() == ["+1", "-1"]
