"""/multiclass's settings, once: the page draws them from this table. Not a page itself."""

from pages.common.link_cleaning import choice_param
from pages.common.settings_table import Setting, SettingsTable
from perceptron_core import ORDERS
from perceptron_core.viz import multiclass as viz

#: every setting of the page, once (its widget, label, range and default, help), in the
#: order the sidebar draws them
SETTINGS = SettingsTable(
    Setting("source", "", "data source", rule=choice_param(viz.SOURCES, "blobs"), group="Data"),
    Setting("k", "slider", "classes k", (3, 6, 4), group="Data", generated=True),
    Setting("n", "number_input", "points n", (6, 600, 120, 10), group="Data", generated=True),
    Setting(
        "spread",
        "slider",
        "spread of each blob",
        (0.02, 0.6, 0.12, 0.02),
        {
            "help": "Large spreads can overlap the blobs: some binary problems may then not "
            "be separable (the tables say which)."
        },
        group="Data",
        generated=True,
    ),
    Setting(
        "data_seed", "number_input", "data seed", (0, 1_000_000, 1), group="Data", generated=True
    ),
    Setting(
        "layout",
        "radio",
        "centres",
        (viz.LAYOUTS,),
        {
            "help": "ring: the blob centres on a circle. one class in the middle: class 0 "
            "moved to the origin, with the others around it; whether a line still separates "
            "'0 against the rest' depends on the points (k, the spread, n, the seed): the "
            "page says, for the points on screen."
        },
        group="Data",
        generated=True,
    ),
    Setting(
        "order",
        "selectbox",
        "order of examples",
        (list(ORDERS),),
        {"help": "; ".join(ORDERS.values())},
        group="Perceptrons",
    ),
    Setting("order_seed", "number_input", "order seed", (0, 1_000_000, 0), group="Perceptrons"),
    Setting(
        "max_epochs",
        "number_input",
        "epoch limit of each binary run",
        (1, 500, 100),
        {
            "help": "A binary problem that is not separable never converges; its run stops "
            f"here, or at {viz.MAX_UPDATES:,} updates if it gets there first (the tables "
            "say which)."
        },
        group="Perceptrons",
    ),
)
