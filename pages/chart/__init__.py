"""Static 2-D charts drawn in the browser as SVG instead of Plotly (chart_component)."""

from pages.chart.chart_component import (svg_chart, svg_drawable,  # noqa: F401
                                         svg_unsupported)
