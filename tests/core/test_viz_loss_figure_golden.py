"""The loss figure of /generalisation, built as plain dicts without Plotly's validation, is
the figure the validated code built: its JSON as sent to the browser equals the golden
files ``tests/golden/loss_figure_{loss,slope}.json``, written from the validated
implementation (go.Figure, go.Scatter, base_layout, update_xaxes) before the change.

A golden file is rewritten only on purpose, when the figure is meant to change:
``python tests/core/test_viz_loss_figure_golden.py`` writes both from the current code.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import plotly.graph_objects as go
import pytest
from app_helpers import figure_sent as sent

from perceptron_core.viz.generalisation import loss_figure

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


@pytest.mark.parametrize("view", ["loss", "slope"])
def test_the_loss_figure_is_the_golden_one(view):
    want = json.loads((GOLDEN / f"loss_figure_{view}.json").read_text())
    got = sent(loss_figure(view))
    assert got["layout"] == want["layout"]
    assert got["data"] == want["data"]


@pytest.mark.parametrize("view", ["loss", "slope"])
def test_plotly_validation_changes_nothing_in_it(view):
    """The dicts are what Plotly's validation would have produced: validating them again
    gives the same JSON (a misspelt or unnormalised property would be changed or refused)."""
    figure = loss_figure(view)
    assert sent(go.Figure(figure.to_dict())) == sent(figure)


if __name__ == "__main__":  # rewrite the golden files from the current code
    for name in ("loss", "slope"):
        path = GOLDEN / f"loss_figure_{name}.json"
        path.write_text(json.dumps(sent(loss_figure(name)), indent=0, sort_keys=True))
        print("wrote", path, file=sys.stderr)
