"""/aggressive's settings, once: the page draws them from this table. Not a page itself."""

import numpy as np

from pages.common.settings_table import Setting, SettingsTable

T_CHOICES = [10**k for k in range(2, 8)]  # 100 .. 10^7


def t_label(value: int) -> str:
    """Label of a sequence length (what the link carries: ``aggressive_T=10^4 = 10,000``)."""
    return f"10^{int(np.log10(value))} = {value:,}"


#: every setting of the page, once (widget, label, range and default), in the order drawn
SETTINGS = SettingsTable(
    Setting(
        "aggressive_T",
        "select_slider",
        "Length T of the sequence",
        options={
            "options": T_CHOICES,
            "value": 10**6,
            "format_func": t_label,
            "help": "The aggressive mistakes come from a closed form, so even 10^7 examples "
            "are instant.",
        },
    ),
    Setting(
        "always_wrong_T",
        "slider",
        "Number of examples shown",
        options={"min_value": 5, "max_value": 60, "value": 20},
    ),
)
