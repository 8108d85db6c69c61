"""The tabs of /bound as one table (``TABS``): what each tab says, its inputs, its sweeps.

pages/bound.py draws every tab the same way: for each section of the tab, its prose,
its row of inputs (``Control``), then each of its sweeps (``Sweep``): run, the check
"updates / bound never above 1", the charts, a table, the CSV download. What a tab or
a sweep does differently is named here: its prose (pages/bound_parts/text.py), its inputs, what
it sweeps, and what it shows (pages/bound_parts/views.py). Not a page itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from pages.bound_parts import text
from pages.bound_parts import views as show
from pages.bound_parts.views import Outcome, Shared
from pages.common.notation import named_result
from perceptron_core.perceptron import ORDERS
from perceptron_core.sweeps import log_grid, parse_values


@dataclass(frozen=True)
class Control:
    """One input: ``column.<widget>(label, key=key, **options)``, in the link; ``role``
    is its name in the section's inputs ("low", "values", "seeds", ...)."""

    role: str
    key: str
    widget: str
    label: str
    options: dict


@dataclass(frozen=True)
class Sweep:
    """One sweep: what it runs, and what it shows (the words at three places are optional:
    before the check, between check and charts, after the charts)."""

    name: str  # keys bound_{name}_csv (download) and bound_{name}_... (charts)
    kind: str  # the core sweep (sweeps.sweep_function): "margin", "n", "dim", ...
    label: str  # in the progress bar: "Running the {label} sweep"
    grid: Callable[[dict], np.ndarray]  # the swept values, from the section's inputs
    settings: Callable[[dict, Shared], dict]  # the sweep's other arguments
    figures: Callable[[Outcome], dict]  # chart key -> figure
    csv: str  # file name of the download
    bound: str | None = None  # the bound the ratio is checked against (None: the valid one)
    ratio_of: str = "bound"  # the ratio is updates / this column of the result
    before_check: Callable[[Outcome], None] | None = None
    after_check: Callable[[Outcome], None] | None = None
    after_charts: Callable[[Outcome], None] | None = None
    table: dict | None = None  # the table of runs: column name -> shown name
    charts_side_by_side: bool = False
    check_below_charts: bool = False


@dataclass(frozen=True)
class Section:
    """Prose, a row of inputs and the sweeps they drive."""

    controls: tuple[Control, ...]
    sweeps: tuple[Sweep, ...]
    prose: Callable[[Shared], None] | None = None  # above the inputs
    below_inputs: Callable[[Shared], None] | None = None
    widths: tuple | None = None  # of the input columns (None: equal)
    sweeps_side_by_side: bool = False


def number(role, key, label, low, high, value, **options) -> Control:
    return Control(
        role,
        key,
        "number_input",
        label,
        dict(min_value=low, max_value=high, value=value, **options),
    )


def margin_input(role, key, label, value, step=0.01) -> Control:
    return number(role, key, label, 0.005, 0.95, value, step=step, format="%.3f")


def margin_range(name: str, *, low: float, count: int) -> tuple[Control, ...]:
    """Smallest and largest margin, how many (log-spaced), seeds per margin."""
    return (
        margin_input("low", f"bound_{name}_low", "smallest margin γ", low),
        margin_input("high", f"bound_{name}_high", "largest margin γ", 0.5, step=0.05),
        number("count", f"bound_{name}_count", "number of margins", 2, 30, count),
        number("seeds", f"bound_{name}_seeds", "seeds per margin", 1, 50, 5),
    )


def text_box(role, key, label, value) -> Control:
    return Control(role, key, "text_input", label, dict(value=value))


def values_at_margin(
    name: str,
    margin_label: str,
    values_label: str,
    values: str,
    seeds_label: str = "seeds per value",
    most_seeds: int = 20,
    seeds: int = 3,
) -> tuple[Control, ...]:
    """A fixed margin, a list of values typed as text, seeds per value."""
    return (
        margin_input("margin", f"bound_{name}_margin", margin_label, 0.1),
        text_box("values", f"bound_{name}_values", values_label, values),
        number("seeds", f"bound_{name}_seeds", seeds_label, 1, most_seeds, seeds),
    )


def margins(inputs: dict) -> np.ndarray:
    return log_grid(inputs["low"], inputs["high"], inputs["count"], "margin")


def listed(name: str, role: str = "values", **limits) -> Callable[[dict], np.ndarray]:
    """The values typed in the ``role`` box, read as numbers named ``name``."""
    return lambda inputs: parse_values(inputs[role], name, **limits)


def passing(*names: str, **fixed) -> Callable[[dict, Shared], dict]:
    """Sweep arguments: ``names`` from the shared settings or the inputs, then ``fixed``."""

    def settings(inputs: dict, shared: Shared) -> dict:
        known = dict(
            n=shared.n,
            dim=shared.dim,
            bias=shared.bias,
            order=shared.order,
            margin=inputs.get("margin"),
        )
        return {name: known[name] for name in names} | fixed

    return settings


def run_columns(swept: dict, gamma: str, gamma_2: str) -> dict:
    """Columns of the table of runs (``SweepResult.columns``) -> their labels: the swept
    value and the seed first, then what the run saw and did (δ = 0 there, so the bound
    (1.4) is T(A) and not listed twice)."""
    return swept | {
        "seed": "seed",
        "updates": "updates",
        "radius": "R",
        "gamma": gamma,
        "gamma_2": gamma_2,
        "novikoff": "(R/γ)²",
        "padded": "T(A)",
        "ratio": "updates / T(A)",
    }


# ---------------------------------------------------------------------------
# The table: the shared settings, then each tab (its label is its link value)
# ---------------------------------------------------------------------------

SHARED = (
    Control(
        "bias",
        "bound_bias",
        "toggle",
        "Learn a bias b",
        dict(
            value=True,
            help="On: the hyperplane w·x + b = 0 is learnt with b (padding). Off: the "
            "data are drawn separable through the origin and b stays 0.",
        ),
    ),
    Control(
        "order",
        "bound_order",
        "selectbox",
        "Order of the examples",
        dict(
            options=list(ORDERS),
            format_func=ORDERS.get,
            help=named_result("Remark 1.38") + " The bounds hold for every order.",
        ),
    ),
    number("n", "bound_n", "n (points)", 2, 5000, 200, step=50),
    number("dim", "bound_dim", "d (features)", 1, 1000, 2, step=1),
)
SHARED_WIDTHS = (1.2, 1.6, 1, 1)

TABS = {
    ":material/show_chart: Margin sweep": (
        Section(
            margin_range("margin", low=0.02, count=8),
            (
                Sweep(
                    "margin",
                    kind="margin",
                    label="margin",
                    grid=margins,
                    settings=passing("n", "dim", "bias", "order", delta=0.0),
                    figures=show.margin_figures,
                    csv="margin_sweep.csv",
                    before_check=show.runs_line,
                    after_check=show.notebook_note,
                    after_charts=show.halving_note,
                ),
            ),
        ),
    ),
    ":material/straighten: n and d": (
        Section(
            (
                margin_input("margin", "bound_size_margin", "margin γ (fixed)", 0.1),
                text_box(
                    "n_values", "bound_n_values", "values of n", "10, 30, 100, 300, 1000, 2000"
                ),
                text_box("d_values", "bound_d_values", "values of d", "1, 10, 30, 100"),
                number("seeds", "bound_size_seeds", "seeds per value", 1, 20, 3),
            ),
            (
                Sweep(
                    "n",
                    kind="n",
                    label="n",
                    grid=listed("n", "n_values", integer=True, low=2, high=5000),
                    settings=passing("margin", "bias", "order", "dim", delta=0.0),
                    figures=show.against_size("n", "number of points n (log scale)"),
                    csv="n_sweep.csv",
                    check_below_charts=True,
                ),
                Sweep(
                    "d",
                    kind="dim",
                    label="d",
                    grid=listed("d", "d_values", integer=True, low=1, high=1000),
                    settings=passing("margin", "bias", "order", "n", delta=0.0),
                    figures=show.against_size("d", "number of features d (log scale)"),
                    csv="d_sweep.csv",
                    check_below_charts=True,
                ),
            ),
            below_inputs=text.size_note,
            widths=(1, 2, 2, 1),
            sweeps_side_by_side=True,
        ),
    ),
    ":material/tune: Threshold δ": (
        Section(
            values_at_margin(
                "delta",
                "margin γ (fixed)",
                "values of δ",
                "0, 0.25, 0.5, 1, 2, 4",
                seeds_label="seeds per δ",
                most_seeds=50,
                seeds=5,
            ),
            (
                Sweep(
                    "delta",
                    kind="delta",
                    label="δ",
                    grid=listed("δ", low=0, high=100),
                    settings=passing("margin", "n", "dim", "bias", "order"),
                    figures=show.against_value(
                        "delta", "threshold δ", log_x=False, log_y=False, ratio=True
                    ),
                    csv="delta_sweep.csv",
                    bound="bound (1.4)",
                    charts_side_by_side=True,
                ),
            ),
            prose=text.delta_prose,
        ),
    ),
    ":material/target: Margin mistakes": (
        Section(
            margin_range("mm", low=0.05, count=6),
            (
                Sweep(
                    "mm",
                    kind="margin",
                    label="margin-mistake",
                    grid=margins,
                    settings=passing("n", "dim", "order", bias=False, delta=1.0, radius=1.0),
                    figures=show.mistakes_figures,
                    csv="margin_mistakes.csv",
                    bound="3/γ²",
                    ratio_of="margin_mistakes",
                    after_charts=show.mistakes_note,
                ),
            ),
            prose=text.mistakes_prose,
        ),
    ),
    ":material/open_in_full: Scaling and translation": (
        Section(
            values_at_margin(
                "scale", "margin γ before scaling", "values of λ", "0.1, 0.3, 1, 3, 10"
            ),
            (
                Sweep(
                    "scale",
                    kind="scale",
                    label="λ",
                    grid=listed("λ", low=1e-3, high=1e3),
                    settings=passing("margin", "n", "dim", "bias", "order"),
                    figures=show.against_value("scale", "scaling factor λ (log scale)"),
                    csv="scale_sweep.csv",
                    after_check=show.scale_check,
                    table=run_columns({"scale": "λ"}, "γ", "γ₂ (bound's margin)"),
                ),
            ),
            prose=text.scale_prose,
        ),
        Section(
            values_at_margin(
                "shift",
                "margin γ",
                "values of u (shift along the first feature)",
                "0, 0.5, 1, 2, 4",
            ),
            (
                Sweep(
                    "shift",
                    kind="shift",
                    label="shift",
                    grid=listed("u", low=-20, high=20),
                    settings=passing("margin", "n", "dim", "order"),
                    figures=show.against_value(
                        "shift", "shift u along the first feature (data units)", log_x=False
                    ),
                    csv="shift_sweep.csv",
                    bound="T(A)",
                    after_check=show.shift_note,
                    table=run_columns({"shift": "u"}, "γ (geometric)", "γ₂ (padded)"),
                ),
            ),
            prose=text.shift_prose,
        ),
    ),
}
