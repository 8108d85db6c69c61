"""The link to a view: what the link gave, the link that restores the view, and the
"Copy link to this view" popover."""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st


def url_snapshot() -> dict[str, str]:
    """The query parameters as the link gave them, before the widgets check them."""
    return {name: st.query_params.get(name) for name in st.query_params}


def _url_text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def view_link(keys, extra: dict | None = None) -> str:
    """A link to this page that restores every control in ``keys`` (and ``extra``).

    ``keys``: widget keys, or a mapping key -> how the value is written (a select
    widget's ``format_func``; None for the value itself).
    """
    from urllib.parse import urlencode, urlsplit

    formats = keys if isinstance(keys, Mapping) else dict.fromkeys(keys)
    here = urlsplit(st.context.url or "http://localhost:8501/")
    values = {}
    for key, write in formats.items():
        value = st.session_state.get(key)
        if isinstance(value, (list, tuple)):  # a multi-select: the key once per chosen item
            values[key] = [(write or _url_text)(item) for item in value]
        elif value is not None:
            values[key] = (write or _url_text)(value)
    values.update({name: _url_text(value) for name, value in (extra or {}).items()})
    if st.session_state.get("present"):
        values["present"] = "true"
    return f"{here.scheme}://{here.netloc}{here.path}?{urlencode(values, doseq=True)}"


def copy_link_control(key: str, keys, extra: dict | None = None) -> str:
    """A "Copy link to this view" popover: the link in a code box with a copy button."""
    link = view_link(keys, extra)
    with st.popover("Copy link to this view", icon=":material/link:", key=key):
        st.caption("This link opens the same data, settings and step in any browser.")
        st.code(link, language=None, wrap_lines=True)
    return link
