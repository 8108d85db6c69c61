"""Plotly figure builders: arrays in, ``plotly.graph_objects.Figure`` out.

May import plotly and numpy; never streamlit.
"""

from . import style

__all__ = ["style"]
