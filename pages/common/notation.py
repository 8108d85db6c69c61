"""Notation and named results (issue 9): one notation panel reachable from every page
(app.py puts it beside the presenter toggle, so presenter mode keeps it), and one line
of statement for each named result where a page uses it."""

from __future__ import annotations

import streamlit as st

from perceptron_core.theory import NAMED_RESULTS, NOTATION


def notation_panel() -> None:
    """A popover "Notation" listing every symbol the pages use, one line each."""
    with st.popover("Notation", icon=":material/function:", key="notation_panel",
                    help="What R, γ, γ₂, aᵢ, δ, w₀, T(A) and (1.4) stand for"):
        rows = "\n".join(f"| {symbol} | {meaning} |" for symbol, meaning in NOTATION.items())
        st.markdown("| symbol | meaning |\n| --- | --- |\n" + rows)
        st.caption("Numbering as in the lecture notes (notes-perceptron-yu).")


def named_result(name: str) -> str:
    """The one-line statement of a named result, for a ``help=`` tooltip."""
    return f"**{name}.** {NAMED_RESULTS[name]}"


def named_results(*names: str, label: str = "The results named here") -> None:
    """A short collapsed expander with one line per named result."""
    with st.expander(label, icon=":material/menu_book:"):
        st.markdown("\n".join(f"- {named_result(name)}" for name in names))
