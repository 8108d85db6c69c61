"""Own data on a page: the sidebar's choice of data source, and the student's data for
the chosen source (an uploaded file or the drawn points)."""

from __future__ import annotations

import streamlit as st

from pages.common.link_cleaning import choice_param
from pages.common.own_data_drawing import drawn_data
from pages.common.own_data_spec import OwnData, OwnDataSpec
from pages.common.own_data_upload import uploaded_data

#: the sources that are the student's own data: a file, or points drawn on a chart
OWN_SOURCES = ("upload", "draw")


def data_source_control(
    link, sources: dict[str, str], default: str, key: str, label: str = "data source"
) -> str:
    """The sidebar's "Data" header and its choice of source, a control of ``link`` (a
    PageLink): one segment per entry of ``sources`` (link value -> what it is, e.g.
    generated data, ``upload``, ``draw``), each named in the help. Returns the chosen value."""
    st.header("Data")
    source = link.control(
        st.segmented_control,
        label,
        list(sources),
        default=default,
        required=True,
        key=key,
        rule=choice_param(sources, default),
        help="; ".join(f"{name}: {what}" for name, what in sources.items()),
    )
    if source in OWN_SOURCES:  # the page greys out its generator's settings
        st.caption(
            "Your own data are used as they are, so the data settings greyed out "
            "below do not apply."
        )
    return source


def own_data(spec: OwnDataSpec, source: str) -> OwnData | None:
    """The uploaded data (``source == "upload"``) or the drawn points (else)."""
    return uploaded_data(spec) if source == "upload" else drawn_data(spec)
