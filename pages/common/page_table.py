"""The pages of the app, in one table: app.py builds the menu from it, Home its
"Where to go" links, and the tests the list of pages to check."""

from __future__ import annotations

from typing import NamedTuple


class PageEntry(NamedTuple):
    """One page: pages/<name>.py, served at /<name> (links depend on the name only)."""

    name: str
    title: str  # in the menu
    icon: str  # a Material icon name (emoji show as empty boxes in some browsers)
    where_to_go: str  # Home's link to it: what a student does there


#: every page after Home, in menu order
PAGE_TABLE = (
    PageEntry(
        "train",
        "Train, one mistake at a time",
        "step",
        "Train, one mistake at a time: step through the updates, watch the line move "
        "and the proof's two quantities race",
    ),
    PageEntry(
        "bound",
        "Mistakes against the bound",
        "show_chart",
        "Mistakes against the bound: sweep the margin, n and d, and see the observed "
        "updates stay under the bound",
    ),
    PageEntry(
        "aggressive",
        "Aggressive updates never stop",
        "all_inclusive",
        "Aggressive updates never stop: why updating on correct examples breaks convergence",
    ),
    PageEntry(
        "adversary",
        "The adversarial lower bound",
        "swords",
        "The adversarial lower bound: be the learner and watch an adversary force a "
        "mistake every round",
    ),
    PageEntry(
        "kernels",
        "Kernels: lift the data",
        "view_in_ar",
        "Kernels: lift data no line separates until a plane does, and run the "
        "perceptron on inner products",
    ),
    PageEntry(
        "multiclass",
        "More than two classes",
        "category",
        "More than two classes: combine perceptrons (one against all, one against "
        "one) and see where they disagree",
    ),
    PageEntry(
        "relaxation",
        "Linear inequalities by relaxation",
        "polyline",
        "Linear inequalities by relaxation: the projection method, with the "
        "perceptron as a special case",
    ),
    PageEntry(
        "generalisation",
        "Margin mistakes and generalisation",
        "trending_down",
        "Margin mistakes and generalisation: how often the final line errs on new "
        "points as N grows",
    ),
    PageEntry(
        "class",
        "Live class",
        "how_to_vote",
        "Live class: ask the room the notes' questions and watch the answers arrive "
        "on the projector; students answer on their phones",
    ),
)

#: Home lists the pages in the order a course meets them (generalisation before many classes)
COURSE_ORDER = (
    "train",
    "bound",
    "aggressive",
    "adversary",
    "kernels",
    "generalisation",
    "multiclass",
    "relaxation",
    "class",
)


def page_path(entry: PageEntry) -> str:
    """The page's script, relative to app.py (pages/class.py is run by Streamlit, never
    imported: ``class`` being a Python keyword does not matter)."""
    return f"pages/{entry.name}.py"
