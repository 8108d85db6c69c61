"""Static 2-D charts drawn in the browser as SVG instead of Plotly (chart_component)."""

from pages.chart.chart_component import (  # noqa: F401
    figure_data,
    plotly_only,
    svg_chart,
    svg_drawable,
    svg_unsupported,
)
