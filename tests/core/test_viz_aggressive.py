"""Figure builders of the /aggressive page, without Streamlit."""

from __future__ import annotations

import json

import numpy as np
import plotly.graph_objects as go
import pytest
from app_helpers import trace_named

from perceptron_core import constructions as cx
from perceptron_core.viz import aggressive as viz


@pytest.fixture(scope="module")
def result():
    return cx.aggressive_counterexample(10**6)


def test_cumulative_mistakes_log_axis_reaches_a_million(result):
    fig = viz.cumulative_mistakes_figure(result, 10**6)
    assert fig.layout.xaxis.type == "log"
    assert fig.layout.xaxis.range[1] >= 6  # log10(10^6)
    json.loads(fig.to_json())  # serialisable for the browser


def test_cumulative_mistakes_are_step_lines_through_the_mistake_times(result):
    fig = viz.cumulative_mistakes_figure(result, 10**6)
    standard = trace_named(fig, "mistake-driven")
    aggressive = trace_named(fig, "aggressive")
    for trace in (standard, aggressive):
        assert trace.line.shape == "hv"
        assert trace.x[0] == 1 and trace.x[-1] == 10**6
        assert np.all(np.diff(trace.y) >= 0)
    # the mistake-driven rule flattens after its two mistakes
    assert standard.y[-1] == 2 == len(result.mistakes_standard)
    # the aggressive one climbs by one at every power of two from 32 on
    assert aggressive.y[-1] == len(result.mistakes_aggressive)
    steps = dict(zip(np.asarray(aggressive.x).tolist(), np.asarray(aggressive.y).tolist()))
    for k in range(5, 20):
        assert steps[2**k] == steps.get(2 ** (k - 1), steps[2**k] - 1) + 1


def test_cumulative_mistakes_respects_t_max():
    small = cx.aggressive_counterexample(10**7)
    fig = viz.cumulative_mistakes_figure(small, 1000)
    aggressive = trace_named(fig, "aggressive")
    assert max(aggressive.x) == 1000
    assert aggressive.y[-1] == np.sum(small.mistakes_aggressive <= 1000)


def test_running_average_has_the_line_at_minus_one(result):
    fig = viz.running_average_figure(result.t_grid, result.average_products)
    assert fig.layout.xaxis.type == "log"
    threshold = trace_named(fig, "threshold")
    assert set(threshold.y) == {-1}
    below = trace_named(fig, "at or below")
    above = trace_named(fig, "above")
    assert np.all(np.asarray(below.y) <= -1) and np.all(np.asarray(above.y) > -1)
    # just before every power of two from 32 on, the next example is a mistake
    below_t = set(np.asarray(below.x).tolist())
    assert {2**k - 1 for k in range(5, 20)} <= below_t
    assert len(below.x) + len(above.x) == len(result.t_grid)


def test_running_average_rejects_mismatched_shapes():
    with pytest.raises(ValueError):
        viz.running_average_figure(np.arange(1, 5), np.zeros(3))


@pytest.fixture(scope="module")
def swing():
    return viz.swing_animation(cx.counterexample_x(np.arange(1, 71)))


def _line_position(frame) -> float | None:
    line = frame.data[viz.SWING_TRACES.index("line w·x + b = 0")]
    return None if len(line.x) == 0 else line.x[0]


def test_swing_has_one_frame_per_step_with_play_pause_and_slider(swing):
    assert [frame.name for frame in swing.frames] == [str(t) for t in range(1, 71)]
    buttons = swing.layout.updatemenus[0].buttons
    assert [button.label for button in buttons] == ["Play", "Pause"]
    assert all(button.method == "animate" for button in buttons)
    steps = swing.layout.sliders[0].steps
    assert [step.args[0][0] for step in steps] == [str(t) for t in range(1, 71)]
    assert all(len(frame.data) == len(viz.SWING_TRACES) for frame in swing.frames)
    json.loads(swing.to_json())


def test_swing_axes_are_fixed(swing):
    assert tuple(swing.layout.xaxis.range) == (-4.0, 3.0)
    assert swing.layout.yaxis.range is not None
    for frame in swing.frames:  # frames change data and title only
        assert frame.layout.xaxis.range is None and frame.layout.yaxis.range is None


def test_swing_frames_advance_and_the_line_jumps_at_powers_of_two(swing):
    positions = [_line_position(frame) for frame in swing.frames]
    assert len(set(p for p in positions if p is not None)) > 50  # the line really moves
    # after example k: w = (k - 3P(k), 0), b = k: line at x1 = -k / (k - 3P(k))
    assert positions[30] == pytest.approx(-31 / 16)
    assert positions[31] == pytest.approx(-32 / 14)
    assert positions[31] < positions[30]  # step 32 throws it back to the left
    assert positions[63] < positions[62]  # and step 64 again
    assert positions[36] > positions[35]  # ordinary steps push it right


def test_swing_marks_the_misclassified_point(swing):
    wrong = viz.SWING_TRACES.index("misclassified now")
    assert list(swing.frames[30].data[wrong].x) == [-2.0]  # w_31 gets (-2, 0) wrong ...
    assert "MISTAKE" in swing.frames[31].layout.title.text  # ... so step 32 is a mistake
    assert list(swing.frames[31].data[wrong].x) == []  # after it both are right
    assert "MISTAKE" not in swing.frames[32].layout.title.text


def test_swing_handles_zero_weight(swing):
    # after example 12: S_12 = 12 - 3·4 = 0: no line, everything predicted sign(12) = +1
    frame = swing.frames[11]
    assert _line_position(frame) is None
    region = frame.data[0]
    assert min(region.x) == -4.0 and max(region.x) == 3.0
    assert list(frame.data[viz.SWING_TRACES.index("misclassified now")].x) == []
    assert "no line" in frame.layout.title.text


def test_swing_rejects_empty_input():
    with pytest.raises(ValueError):
        viz.swing_animation(np.array([]))


def test_always_wrong_scores_never_rise_above_zero():
    sequence = cx.always_wrong_sequence(25)
    fig = viz.always_wrong_figure(sequence)
    bars = [trace for trace in fig.data if isinstance(trace, go.Bar)][0]
    np.testing.assert_array_equal(bars.y, sequence.scores)
    assert np.all(np.asarray(bars.y) <= 0)
    assert np.all(np.asarray(bars.y)[1:] < 0)
    np.testing.assert_array_equal(fig.data[0].y, sequence.x)
