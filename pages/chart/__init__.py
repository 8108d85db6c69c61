"""Static 2-D charts drawn in the browser as SVG instead of Plotly (chart_component)."""

from pages.chart.chart_component import (TRACE_TYPES, figure_data, svg_chart,  # noqa: F401
                                         svg_drawable, svg_unsupported)
