"""What a sweep's chart shows, as a small table: one row per swept value, the numbers a
student compares (the median against the bound per margin, n or d; iterations per η and
rule). A screen reader reads a table cell by cell, where a chart is a picture; everyone can
compare two numbers in one row. (/generalisation's curve has its own table:
viz/generalisation.py curve_table.)

Each function returns ``(columns, caption)``: column header -> the cells' texts, in order,
the first column naming the row, for ``pages.common.static_table.static_table``.
"""

from __future__ import annotations

import numpy as np

from ..relaxation import INDEX_RULE_LABELS
from ..theory import value_text

#: how a sweep's parameter is named in a table's first column
SWEPT_NAMES = {"margin": "γ", "n": "n", "dim": "d", "delta": "δ", "scale": "λ", "shift": "s"}


def _swept(value: float) -> str:
    """A swept value: four significant digits (0.03168, 2,000), a real minus."""
    value = float(value)
    text = f"{value:,.0f}" if abs(value) >= 1000 and value == round(value) else f"{value:.4g}"
    return text.replace("-", "−")


def bound_sweep_table(
    parameter: str, values, run_values, updates, bounds, ratios, bound_name: str
) -> tuple[dict[str, list[str]], str]:
    """/bound: per swept value, the runs, the median updates, the largest bound over the
    seeds (the line the chart draws) and the largest ratio updates / bound.

    Parameters
    ----------
    parameter : key of SWEPT_NAMES (``SweepResult.parameter``)
    values : array (K,), the distinct swept values, increasing
    run_values, updates, bounds, ratios : arrays (n_runs,), each run's swept value, its
        updates, the bound it is checked against, and updates / bound
    bound_name : str, that bound's name ("T(A)", "3/γ²")
    """
    run_values = np.asarray(run_values, float)
    updates, bounds = np.asarray(updates, float), np.asarray(bounds, float)
    ratios = np.asarray(ratios, float)
    if not (run_values.shape == updates.shape == bounds.shape == ratios.shape):
        raise ValueError("every run needs its value, updates, bound and ratio.")
    rows = [run_values == v for v in np.asarray(values, float)]
    if any(not row.any() for row in rows):
        raise ValueError("every swept value needs at least one run.")
    name = SWEPT_NAMES.get(parameter, parameter)
    columns = {
        name: [_swept(v) for v in values],
        "runs": [str(int(row.sum())) for row in rows],
        "median updates": [value_text(np.median(updates[row])) for row in rows],
        f"largest {bound_name} over the seeds": [value_text(np.max(bounds[row])) for row in rows],
        "largest updates / bound": [f"{np.max(ratios[row]):.3f}" for row in rows],
    }
    caption = (
        f"The sweep in numbers, one row per {name}: the median number of updates "
        f"over the seeds against the largest {bound_name} (the chart's lines)."
    )
    return columns, caption


def eta_sweep_table(rows, max_iter: int) -> tuple[dict[str, list[str]], str]:
    """/relaxation: iterations to feasibility per η (rows) and index rule (columns), or
    "not within" the limit with what the iterates did."""
    etas = list(dict.fromkeys(row["eta"] for row in rows))
    rules = list(dict.fromkeys(row["rule"] for row in rows))
    found = {(row["rule"], row["eta"]): row for row in rows}
    if len(found) != len(etas) * len(rules):
        raise ValueError("the sweep needs one run per rule and η.")

    def cell(row: dict) -> str:
        if row["iterations"] is not None:
            return f"{row['iterations']:,}"
        return f"not within {max_iter:,}" + (f" ({row['missed']})" if row.get("missed") else "")

    columns = {"η": [f"{eta:g}" for eta in etas]}
    for rule in rules:
        columns[INDEX_RULE_LABELS.get(rule, rule)] = [cell(found[rule, eta]) for eta in etas]
    caption = (
        "The sweep in numbers: iterations to feasibility for each η (rows) and each "
        f"index rule (columns), or not within the limit of {max_iter:,}."
    )
    return columns, caption
