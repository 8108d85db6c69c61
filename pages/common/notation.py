"""Notation and named results: a notation panel reachable from every page
(app.py puts it beside the presenter toggle, so presenter mode keeps it) listing the
symbols that page shows (perceptron_core.theory.PAGE_NOTATION), and one line of statement
for each named result where a page uses it."""

from __future__ import annotations

import streamlit as st

from perceptron_core.theory import NAMED_RESULTS, NOTATION, PAGE_NOTATION, page_notation


def notation_panel(page: str | None = None) -> None:
    """A popover "Notation" listing, one line each, the symbols ``page`` shows (a key of
    PAGE_NOTATION: "train", "kernels", ...; the home page for "" or None), then a
    collapsed list of the symbols of the other pages."""
    page = page or "home"
    here = page_notation(page) if page in PAGE_NOTATION else NOTATION
    with st.popover(
        "Notation",
        icon=":material/function:",
        key="notation_panel",
        help="What the symbols on this page stand for",
    ):
        rows = "\n".join(f"| {symbol} | {meaning} |" for symbol, meaning in here.items())
        st.markdown("| symbol | meaning |\n| --- | --- |\n" + rows)
        others = {symbol: meaning for symbol, meaning in NOTATION.items() if symbol not in here}
        if others:
            with st.expander("Symbols of the other pages"):
                st.markdown(
                    "| symbol | meaning |\n| --- | --- |\n"
                    + "\n".join(f"| {symbol} | {meaning} |" for symbol, meaning in others.items())
                )
        st.caption("Numbering as in the lecture notes (notes-perceptron-yu).")


def named_result(name: str) -> str:
    """The one-line statement of a named result, for a ``help=`` tooltip."""
    return f"**{name}.** {NAMED_RESULTS[name]}"


def named_results(*names: str, label: str = "The results named here") -> None:
    """A short collapsed expander with one line per named result."""
    with st.expander(label, icon=":material/menu_book:"):
        st.markdown("\n".join(f"- {named_result(name)}" for name in names))
