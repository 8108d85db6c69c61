"""What every page uses: its header, a chart with the shared config, a call into the core.

Pages stay thin: widgets, one cached call into the core, figures, layout.
"""

from __future__ import annotations

import streamlit as st

from pages.common.accessibility import chart_summary, on_a_phone
from perceptron_core.viz.narrow import narrow_figure

#: Plotly config for every chart: no logo, a PNG download button at 2x for slides
PLOTLY_CONFIG = {"displaylogo": False, "toImageButtonOptions": {"format": "png", "scale": 2}}


def show_chart(fig, key: str, **chart_options):
    """Render a Plotly figure full width with the shared config, and its summary in words
    (title, axes, traces) just before it for a screen reader; returns what
    ``st.plotly_chart`` returns (``chart_options``: ``on_select`` and the like)."""
    phone = on_a_phone()
    fig = narrow_figure(fig) if phone else fig  # a phone: words wrapped, legend under the plot
    chart_summary(fig)
    # a phone has no room for the tool bar over the chart's title (nor a need for it)
    config = {**PLOTLY_CONFIG, "displayModeBar": False} if phone else PLOTLY_CONFIG
    return st.plotly_chart(fig, key=key, config=config, width="stretch", theme=None,
                           **chart_options)


def page_header(title: str, summary: str) -> None:
    """Title plus a one-paragraph summary of what the page shows."""
    st.title(title)
    st.markdown(summary)


def core_call(function, *args, **kwargs):
    """Call the core; on ValueError show the message and return None (page keeps going)."""
    try:
        return function(*args, **kwargs)
    except ValueError as error:
        st.error(f"{error}", icon=":material/error:")
        return None
