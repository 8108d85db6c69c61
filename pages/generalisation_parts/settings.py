"""/generalisation's settings, once: the page draws them from this table. Not a page itself."""

from pages.common.link_cleaning import text_param
from pages.common.settings_table import Setting, SettingsTable
from pages.generalisation_parts.runs import DEFAULT_SIZES, N_TEST

#: every setting of the page, once (widget, label, range and default, help), by section
SETTINGS = SettingsTable(
    Setting("n", "number_input", "points N", (2, 300, 40), {"step": 10}, group="1"),
    Setting(
        "margin", "number_input", "margin γ", (0.05, 0.9, 0.1, 0.05), {"format": "%.2f"}, group="1"
    ),
    Setting("data_seed", "number_input", "data seed", (0, 1_000_000, 0), group="1"),
    Setting("order_seed", "number_input", "order seed", (0, 1_000_000, 0), group="1"),
    Setting(
        "curve_n",
        "text_input",
        "values of N",
        (DEFAULT_SIZES,),
        rule=text_param(120, DEFAULT_SIZES),
    ),
    Setting(
        "curve_margin",
        "number_input",
        "margin γ",
        (0.05, 0.9, 0.1, 0.05),
        {"format": "%.2f"},
        group="2",
    ),
    Setting(
        "curve_dim",
        "number_input",
        "dimension d",
        (2, 50, 2),
        {
            "help": "d = 2: every test error comes from a formula in the angle between ŵ and "
            f"w\\*, with no test points. d > 2: estimated on {N_TEST:,} fresh points per run."
        },
        group="2",
    ),
    Setting("repeats", "number_input", "runs per N", (10, 1000, 250), {"step": 50}, group="2"),
    Setting("curve_seed", "number_input", "seed", (0, 1_000_000, 0), group="2"),
    Setting("stab_n", "number_input", "points N + 1", (5, 200, 30), group="3"),
    Setting(
        "heldout",
        "number_input",
        "held-out point",
        (1, 200, 1),
        {"help": "Its number, from 1: hover a point to see it."},
        group="3",
    ),
    Setting(
        "eta", "number_input", "step size η", (0.01, 100.0, 0.1), {"format": "%.2f"}, group="4"
    ),
)
