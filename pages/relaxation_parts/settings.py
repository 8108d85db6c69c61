"""/relaxation's settings, once: the page draws them from this table. Not a page itself."""

from pages.common.link_cleaning import choice_param
from pages.common.settings_table import Setting, SettingsTable
from perceptron_core import INDEX_RULE_LABELS, INDEX_RULES
from perceptron_core.relaxation import INDEX_RULE_NAMES
from perceptron_core.viz import relaxation as viz

OWN = "your own rows"  # the system menu's entry for the student's own rows
SYSTEMS = [*viz.PRESETS, OWN]

#: every setting of the page, once (widget, label, range and default, help), in the order
#: drawn: the sidebar's two groups, then the sweep and the perceptron's section
SETTINGS = SettingsTable(
    Setting("system", "selectbox", "system Aᵀw ≤ c", (SYSTEMS,), group="System"),
    Setting(
        "eta",
        "slider",
        "relaxation η",
        (0.05, 2.0, 1.0, 0.05),
        {
            "help": "1 projects onto the violated half-plane, 2 reflects across its line, "
            "below 1 stops short."
        },
        group="Method",
    ),
    Setting(
        "rule",
        "selectbox",
        "index rule (Remark 1.38)",
        options={"help": "  \n".join(INDEX_RULE_LABELS.values())},
        rule=choice_param(INDEX_RULES, "cyclic"),
        words=INDEX_RULE_NAMES,
        group="Method",
    ),
    Setting(
        "tau",
        "number_input",
        "τ (chaotic: every inequality within each τ iterations, τ ≥ n)",
        (1, 1000, 10),
        group="Method",
    ),
    Setting(
        "seed",
        "number_input",
        "seed (chaotic, randomized, permuted)",
        (0, 1_000_000, 0),
        group="Method",
    ),
    Setting(
        "tol",
        "number_input",
        "tolerance: stop when every aᵢ·w ≤ cᵢ + tol",
        (0.0, 1.0, 0.001, 0.001),
        {
            "format": "%.4f",
            "help": "Decided exactly on the numbers as typed. With 0 and η < 1 a run never "
            "gets in: each move leaves its inequality violated.",
        },
        group="Method",
    ),
    Setting(
        "w0_1", "number_input", "start w₀, first entry", (-10.0, 10.0, 0.0, 0.5), group="Method"
    ),
    Setting(
        "w0_2", "number_input", "start w₀, second entry", (-10.0, 10.0, 0.0, 0.5), group="Method"
    ),
    Setting("max_iter", "number_input", "iteration limit", (10, 5000, 1000, 100), group="Method"),
    Setting("sweep", "toggle", "run the sweep", (True,), group="sweep"),
    Setting("p_n", "number_input", "points", (2, 60, 12), group="perceptron"),
    Setting("p_margin", "number_input", "margin γ", (0.02, 0.5, 0.15, 0.01), group="perceptron"),
    Setting("p_seed", "number_input", "data seed", (0, 1_000_000, 3), group="perceptron"),
    Setting("p_delta", "number_input", "threshold δ", (0.0, 1.0, 0.1, 0.05), group="perceptron"),
)
