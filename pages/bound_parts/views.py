"""What a finished sweep of /bound shows besides the ratio check and the CSV: its charts
(built in perceptron_core/viz/bound.py) and what it says about the runs on screen. Each
function takes the ``Outcome`` of one sweep; pages/bound_parts/tabs.py names which a sweep uses.
Not a page itself."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from pages.common.notation import named_result
from perceptron_core.sweeps import SweepResult
from perceptron_core.viz import bound as viz


@dataclass(frozen=True)
class Shared:
    """The settings shared by every tab, and the bound they make valid."""

    bias: bool
    order: str
    n: int
    dim: int

    @property
    def valid_name(self) -> str:
        """The bound the runs are measured against: T(A) with a bias, (R/γ)² without."""
        return "T(A)" if self.bias else "(R/γ)²"

    @property
    def valid_label(self) -> str:
        return (
            "T(A) = (R²+1)/γ₂², largest over seeds"
            if self.bias
            else "(R/γ)² (Novikoff), largest over seeds"
        )


@dataclass(frozen=True)
class Outcome:
    """A finished sweep as its charts and words see it: ``ratio`` is updates / the bound
    named ``bound_name``, the one it is checked against."""

    result: SweepResult
    ratio: np.ndarray
    bound_name: str
    inputs: dict
    shared: Shared


# ---------------------------------------------------------------------------
# Charts: chart key -> figure
# ---------------------------------------------------------------------------


def margin_figures(o: Outcome) -> dict:
    """Updates against γ under the bound that holds (with a bias also the notebook's
    bound, and (R/γ)² as a reference); updates / bound."""
    r, bias = o.result, o.shared.bias
    return {
        "bound_sweep_chart": viz.sweep_figure(
            r.margin,
            r.updates,
            r.values(),
            r.per_value("updates"),
            r.per_value("bound", "max"),
            o.shared.valid_label,
            reference=r.per_value("novikoff", "max") if bias else None,
            reference_label="(R/γ)², geometric γ: reference only",
            also_holds=viz.largest_per_value(r, viz.notebook_bounds(r)[1]) if bias else None,
            also_holds_label="2(R²+1)/ε² (notebook), largest over seeds",
        ),
        "bound_ratio_chart": viz.ratio_figure(r.margin, o.ratio, o.bound_name),
    }


def mistakes_figures(o: Outcome) -> dict:
    """Margin mistakes against γ under 3/γ², with (1.4) for δ = 1 as a reference."""
    r = o.result
    return {
        "bound_mm_chart": viz.sweep_figure(
            r.margin,
            r.updates,
            r.values(),
            r.per_value("updates"),
            r.per_value("margin_mistakes", "max"),
            "3/γ² (margin mistakes), largest over seeds",
            reference=r.per_value("bound", "max"),
            reference_label="(2 + R²)/γ²: bound (1.4) with δ = 1",
            ylabel="margin mistakes (updates, log scale)",
        ),
        "bound_mm_ratio_chart": viz.ratio_figure(r.margin, o.ratio, "(3/γ²)"),
    }


def against_value(
    name: str, xlabel: str, *, log_x: bool = True, log_y: bool = True, ratio: bool = False
) -> Callable[[Outcome], dict]:
    """Updates against the swept value under the largest bound at each value; with
    ``ratio``, updates / bound too."""

    def figures(o: Outcome) -> dict:
        r = o.result
        charts = {
            f"bound_{name}_chart": viz.dependence_figure(
                r.value,
                r.updates,
                r.values(),
                r.per_value("updates"),
                r.per_value("bound", "max"),
                xlabel,
                f"{o.bound_name}, largest over seeds",
                log_x=log_x,
                log_y=log_y,
            )
        }
        if ratio:
            charts[f"bound_{name}_ratio_chart"] = viz.ratio_figure(
                r.value, o.ratio, o.bound_name, xlabel=xlabel, log_x=log_x
            )
        return charts

    return figures


def against_size(name: str, xlabel: str) -> Callable[[Outcome], dict]:
    """Updates against n or d, under the largest bound of all runs drawn flat."""
    return lambda o: {
        f"bound_{name}_chart": viz.dependence_figure(
            o.result.value,
            o.result.updates,
            o.result.values(),
            o.result.per_value("updates"),
            float(np.max(o.result.bound)),
            xlabel,
            f"largest {o.bound_name} over runs",
        )
    }


# ---------------------------------------------------------------------------
# Words: what the runs on screen show
# ---------------------------------------------------------------------------


def runs_line(o: Outcome) -> None:
    """How many runs (margins × seeds, n, d) and which bound the ratio is against."""
    count, seeds = int(o.inputs["count"]), int(o.inputs["seeds"])
    st.markdown(
        f"**{o.result.n_runs} runs** ({count} margin{'s' * (count != 1)} × {seeds} "
        f"seed{'s' * (seeds != 1)}, n = {o.shared.n}, d = {o.shared.dim}); the ratio "
        f"is against **{o.bound_name}**."
    )


def notebook_note(o: Outcome) -> None:
    """With a bias, the notebook's 2(R² + 1)/ε² holds too: why, and the largest ratio."""
    if not o.shared.bias:
        return
    notebook_ratio = o.result.updates / viz.notebook_bounds(o.result)[1]
    epsilon = "ε = γ" if np.all(o.result.radius <= 1) else "ε = γ/max(1, R)"
    st.markdown(
        "**Two bounds hold here, both for a perceptron with a bias started at "
        "(w, b) = 0 with δ = 0.** T(A) (solid blue) needs only "
        "separable data: its γ₂ is computed from the data. The "
        "notebook's 2(R² + 1)/ε² (dotted blue) needs a separator "
        "(w\\*, b\\*) with ‖w\\*‖ ≤ 1, b\\*² ≤ 1 and margin ε. The data were drawn "
        "with a unit w\\* whose hyperplane passes between the points, so |b\\*| ≤ R; "
        "divided by max(1, R) it is such a separator, and γ here is its margin on the "
        f"stored coordinates, so {epsilon}. It is never below T(A): "
        "(w\\*, b\\*)/√2 has norm at most 1 and margin at least "
        "ε/√2, so γ₂ ≥ ε/√2. "
        f"Largest ratio updates / (2(R² + 1)/ε²) over the {o.result.n_runs} runs: "
        f"{float(np.max(notebook_ratio)):.3f}.",
        help=named_result("notebook bound"),
    )


def halving_note(o: Outcome) -> None:
    """How far under the bound the runs on screen stayed, and by what factor halving γ
    multiplied the bound on screen (and why that need not be 4), all from the runs."""
    r, bound = o.result, o.shared.valid_name
    st.markdown(
        "Both axes are logarithmic, so a bound proportional to 1/γ² is a straight line "
        f"of slope −2. {bound} holds for every data set with the same "
        f"{'R and γ₂' if o.shared.bias else 'R and γ'} and every order of the examples; "
        f"{viz.ratio_spread_text(o.ratio, bound)} In this sweep "
        f"{viz.margin_step_text(r.values(), r.per_value('bound'))} (the median {bound}). "
        + viz.halving_reason(r, o.shared.bias)
        + " "
        + viz.shrinking_margin_counts(r.values(), r.per_value("updates"))
    )


def mistakes_note(o: Outcome) -> None:
    """How close (1.4) with δ = 1 comes to 3/γ² on the runs on screen: (2 + R²)/3."""
    share = (2 + np.asarray(o.result.radius) ** 2) / 3
    st.markdown(
        f"R = maxᵢ ‖xᵢ‖ of these runs lies between {np.min(o.result.radius):.3g} and "
        f"{np.max(o.result.radius):.3g}, so the dashed line (1.4), (2 + R²)/γ², lies at "
        f"{viz.spread_percent(share)} of the blue line 3/γ² (it would cover it at R = 1)."
    )


def runs_table(o: Outcome, columns: dict) -> None:
    """One row per run (its swept value and seed first): every number of a row belongs to
    that run, so T(A) = max‖aᵢ‖²/γ₂² can be checked on it; the chart's blue line is the
    largest T(A) at each value."""
    everything = o.result.columns()
    table = pd.DataFrame({label: everything[name] for name, label in columns.items()})
    st.dataframe(table, hide_index=True, width="stretch")
    line = viz.largest_bound_text(o.result, columns[o.result.parameter])
    st.caption(
        f"One row per run ({o.result.n_runs} runs). The blue line of the chart is, at "
        f"each value, the largest {o.bound_name} of its runs" + (f": {line}." if line else ".")
    )


def scale_check(o: Outcome) -> None:
    """Through the origin the update count may not depend on λ: say that it did not; with a
    bias, say for how many seeds it changed."""
    if o.shared.bias:
        st.markdown(viz.scaling_findings(o.result))
        return
    if o.result.updates_constant_per_seed():
        st.success(
            "Checked: for every seed the update count is the same at every "
            "λ, as the argument above predicts.",
            icon=":material/check_circle:",
        )
    else:
        changed, seeds = viz.seeds_changed(o.result)
        st.warning(
            f"The update count changed with λ for {changed} of {seeds} seeds. In exact "
            "arithmetic it cannot; the coordinates λxᵢ are rounded to 64-bit floating "
            "point, and a rounding can flip the sign of a score within about 10⁻¹⁶ "
            "of 0.",
            icon=":material/report:",
        )


def shift_note(o: Outcome) -> None:
    """What the translation runs on screen show, counted step by step (Exercise 1.29)."""
    st.markdown(viz.shift_findings(o.result))
