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
    """Render a Plotly figure full width, and its summary in words (title, axes, traces)
    just before it for a screen reader.

    A static 2-D figure is drawn in SVG by pages/chart/ (the page then never downloads
    Plotly's chart bundle); what that renderer cannot draw (3-D scenes,
    contours, ``on_select`` clicks: :func:`pages.chart.svg_unsupported` says why) goes to
    ``st.plotly_chart`` with the shared config. Returns what ``st.plotly_chart`` returns,
    or None for an SVG chart (it sends nothing back).
    """
    from pages.chart import figure_data, plotly_only, svg_chart, svg_unsupported

    phone = on_a_phone()
    fig = narrow_figure(fig) if phone else fig  # a phone: words wrapped, legend under the plot
    summary = chart_summary(fig)
    # clicks reported back, or a trace type the renderer lacks (a 3-D scene, contours): to
    # Plotly at once, without serialising the figure for the check (/kernels' lifts)
    if plotly_only(fig, **chart_options) is None:
        spec = figure_data(fig)  # serialised once, for the check and the chart
        if svg_unsupported(spec) is None:
            # the SVG's own name: the summary's first sentence (the whole summary is just before it)
            return svg_chart(spec, key=key, label=summary.split(". ")[0].rstrip("."))
    # a phone has no room for the tool bar over the chart's title (nor a need for it)
    config = {**PLOTLY_CONFIG, "displayModeBar": False} if phone else PLOTLY_CONFIG
    return st.plotly_chart(
        fig, key=key, config=config, width="stretch", theme=None, **chart_options
    )


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
