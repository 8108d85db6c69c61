"""/adversary's settings, once: the page draws them from this table. Not a page itself."""

from pages.common.settings_table import Setting, SettingsTable
from perceptron_core import constructions as cx
from perceptron_core.viz import adversary as viz

YOU = "you"  # the learner menu's entry for the student's own predictions

#: every setting of the page, once (widget, label, range and default), in the order drawn
SETTINGS = SettingsTable(
    Setting(
        "adv_gamma",
        "number_input",
        "Margin γ",
        options={
            "min_value": 0.01,
            "max_value": 1.0,
            "value": 0.2,
            "step": 0.01,
            "format": "%.3f",
        },
    ),
    Setting(
        "adv_dim",
        "number_input",
        "Dimension d",
        options={"min_value": 1, "max_value": 1000, "value": 50, "step": 1},
    ),
    Setting(
        "adv_learner",
        "selectbox",
        "Learner",
        options={"options": [YOU, *cx.LEARNERS], "format_func": viz.learner_label},
    ),
)
