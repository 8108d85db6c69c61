"""A small, static table as plain HTML.

``st.dataframe`` draws on a canvas (Glide's data grid) and costs a first visit Arrow and the
grid, about 1.2 MB before gzip; a screen reader reads that canvas badly. A table that is
short and fixed (a few rows a student reads, nothing to sort) is better as an HTML table:
it costs no script, a screen reader announces its caption, headers and cells, and on a
narrow screen it scrolls sideways inside its own box (never the page).

Every header and cell is escaped: a class name or a file's label can never become HTML.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence

import streamlit as st

#: a value's text: a format string such as "{:+d}" or a function of the value
Format = str | Callable[[object], str]


def _text(value: object, form: Format | None) -> str:
    """The cell's text: ``form`` applied to the value, or the value as Python prints it
    (a NumPy integer prints as an integer)."""
    if form is None:
        return str(value.item() if hasattr(value, "item") else value)
    return form.format(value) if isinstance(form, str) else str(form(value))


def _numeric(value: object) -> bool:
    """Whether a cell is a number (right-aligned, as the grid aligned them)."""
    value = value.item() if hasattr(value, "item") else value
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def table_html(
    columns: Mapping[str, Sequence],
    *,
    caption: str,
    formats: Mapping[str, Format] | None = None,
    row_headers: bool = True,
    tall: bool = False,
) -> str:
    """The HTML of a table with one column per entry of ``columns`` (header -> values).

    Parameters
    ----------
    columns : mapping of str to sequence, every sequence of the same length k
        The columns in order, as st.dataframe took them (a dict of lists or arrays).
    caption : str
        What the table shows, read first by a screen reader (shown above the table).
    formats : mapping of str to format, optional
        For some columns, the text of a value: a format string (``"{:+d}"``) or a function.
    row_headers : bool
        The first column names its row (``<th scope="row">``): a round, a problem, a measure.
    tall : bool
        A long table keeps a bounded height and scrolls inside its box.

    Raises
    ------
    ValueError
        If there are no columns, or the columns differ in length.
    """
    formats = dict(formats or {})
    names = list(columns)
    if not names:
        raise ValueError("static_table needs at least one column: pass {header: values}")
    values = [list(columns[name]) for name in names]
    lengths = {len(column) for column in values}
    if len(lengths) != 1:
        raise ValueError(
            "every column of a static_table needs the same number of values; "
            f"got lengths {sorted(lengths)} for {names}"
        )
    unknown = set(formats) - set(names)
    if unknown:
        raise ValueError(f"formats name columns the table does not have: {sorted(unknown)}")
    escape = html.escape
    head = "".join(f'<th scope="col">{escape(str(name))}</th>' for name in names)
    rows = []
    for index in range(lengths.pop()):
        cells = []
        for position, (name, column) in enumerate(zip(names, values)):
            value = column[index]
            text = escape(_text(value, formats.get(name)))
            if position == 0 and row_headers:
                cells.append(f'<th scope="row">{text}</th>')
            else:
                numeric = ' class="lab-num"' if _numeric(value) else ""
                cells.append(f"<td{numeric}>{text}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    box = "lab-table-box lab-table-tall" if tall else "lab-table-box"
    # the caption is shown above the box, where it wraps on a phone (a <caption> is as wide as
    # its table), and read from the table's own <caption>; the box is a scrollable region a
    # keyboard can reach (tabindex) and a screen reader names
    return (
        f'<p class="lab-table-caption" aria-hidden="true">{escape(caption)}</p>'
        f'<div class="{box}" role="region" tabindex="0" aria-label="{escape(caption)}">'
        f'<table class="lab-table"><caption class="sr-only">{escape(caption)}</caption>'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )


def static_table(
    columns: Mapping[str, Sequence],
    *,
    caption: str,
    formats: Mapping[str, Format] | None = None,
    row_headers: bool = True,
    tall: bool = False,
) -> None:
    """Show a small fixed table as HTML (no Arrow, no grid); see :func:`table_html`."""
    # its style is in the shared style sheet every page sends (accessibility.ACCESSIBILITY_CSS)
    st.html(
        table_html(columns, caption=caption, formats=formats, row_headers=row_headers, tall=tall)
    )


def numbers_table(
    label: str, table: tuple[Mapping[str, Sequence], str], *, folded: bool = True
) -> None:
    """What a chart shows, as a table named ``label`` (a sweep's numbers:
    perceptron_core/viz/sweep_tables.py gives ``(columns, caption)``): in a collapsed
    expander, or shown under ``label`` as a heading when ``folded`` is False (inside an
    expander already: Streamlit nests none). A long one scrolls inside its box."""
    columns, caption = table
    tall = len(next(iter(columns.values()))) > 10
    if not folded:
        st.markdown(f"**{label}**")
        static_table(columns, caption=caption, tall=tall)
        return
    with st.expander(label, icon=":material/table:"):
        static_table(columns, caption=caption, tall=tall)
