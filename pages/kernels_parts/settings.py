"""/kernels' settings, once: the sidebar's and those of the sections below the player
(pages/kernels_parts/sections.py), which are drawn only on some runs but always in the
link. Not a page itself."""

from pages.common.link_cleaning import choice_param, text_param
from pages.common.settings_table import Setting, SettingsTable
from perceptron_core import KERNEL_FORMULAS, ORDERS
from perceptron_core.viz import kernels as viz

MAX_N = 2_000  # generated data: the most points (a phone steps through n = 2 000)
#: longest bit string a link may give the calculator (longer ones are named and dropped;
#: the box itself takes any length and says what to fix)
BITS_LINK_CHARS = 64

#: every setting of /kernels, in the order drawn. The menus that show words keep the plain
#: name in the link (``kernel=poly``, ``words=`` in their entries)
SETTINGS = SettingsTable(
    Setting("data", "", "data", rule=choice_param(viz.DATA, "circles"), group="Data"),
    Setting("n", "number_input", "points n", (10, MAX_N, 100), {"step": 10}, group="Data"),
    Setting("data_seed", "number_input", "data seed", (0, 1_000_000, 0), group="Data"),
    Setting(
        "noise",
        "slider",
        "label noise (chance to flip each label)",
        (0.0, 0.3, 0.0, 0.01),
        {"help": viz.NOISE_HELP},
        group="Data",
    ),
    Setting(
        "kernel",
        "selectbox",
        "kernel",
        options={
            "help": "; ".join(
                f"{viz.KERNEL_MENU[k]}: {KERNEL_FORMULAS[k]}" for k in viz.KERNEL_MENU
            )
        },
        rule=choice_param(viz.KERNEL_MENU, "rbf"),
        words=viz.KERNEL_MENU,
        group="Kernel",
    ),
    Setting("degree", "number_input", "degree (polynomial)", (1, 8, 2), group="Kernel"),
    Setting("coef0", "number_input", "c (polynomial)", (0.0, 10.0, 1.0, 0.5), group="Kernel"),
    Setting(
        "scale",
        "number_input",
        viz.SCALE_LABEL,
        (0.05, 50.0, 2.0, 0.5),
        {"help": viz.SCALE_HELP},
        group="Kernel",
    ),
    Setting("bias", "toggle", "learn a bias b (K + 1)", (True,), group="Kernel"),
    Setting(
        "order",
        "selectbox",
        "order of examples",
        options={"help": "Which example the perceptron looks at next."},
        rule=choice_param(ORDERS, "cyclic"),
        words=ORDERS,
        group="Kernel",
    ),
    Setting("order_seed", "number_input", "order seed", (0, 1_000_000, 0), group="Kernel"),
    Setting(
        "lift",
        "segmented_control",
        "feature map Φ(x) = (x₁, x₂, z)",
        options={
            "required": True,
            "help": "auto picks z = x₁·x₂ for XOR and z = x₁² + x₂² otherwise.",
        },
        rule=choice_param(viz.LIFT_MENU, "auto"),
        words=viz.LIFT_MENU,
        group="lift",
    ),
    Setting(
        "bits_x",
        "text_input",
        "x (bits, e.g. 1101)",
        ("110",),
        rule=text_param(BITS_LINK_CHARS, "110"),
        group="conjunctions",
    ),
    Setting(
        "bits_z",
        "text_input",
        "z (bits, same length)",
        ("011",),
        rule=text_param(BITS_LINK_CHARS, "011"),
        group="conjunctions",
    ),
    Setting(
        "conj_kind",
        "segmented_control",
        "target",
        (["conjunction", "disjunction"],),
        {"default": "conjunction", "required": True},
        rule=choice_param(["conjunction", "disjunction"], "conjunction"),
        group="conjunctions",
    ),
    Setting("conj_size", "number_input", "bits in the target r", (1, 6, 2), group="conjunctions"),
    Setting("conj_bits", "number_input", "bits d", (6, 200, 30), group="conjunctions"),
    Setting(
        "conj_m",
        "number_input",
        "training examples",
        (20, 1000, 200),
        {"step": 20},
        group="conjunctions",
    ),
)
#: the sidebar's settings (the others are the sections')
SIDEBAR = ("data", "n", "data_seed", "noise", "kernel", "degree", "coef0", "scale", "bias")
SIDEBAR += ("order", "order_seed")
#: the settings cleaned before any widget reads the link: the worded menus (not bound to
#: the link themselves) and the sections' controls, drawn only on some runs
DECLARED = ("kernel", "order", "lift", "bits_x", "bits_z", "conj_kind", "conj_size", "conj_bits")
DECLARED += ("conj_m",)
