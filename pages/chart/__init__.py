"""Static 2-D charts drawn in the browser as SVG instead of Plotly (chart_component)."""

from pages.chart.chart_component import (figure_data, plotly_only, svg_chart,  # noqa: F401
                                         svg_drawable, svg_unsupported)
