"""Parts of a page drawn only when the student opens them.

A page's first view is what a student sees on opening it: the player and its controls.
A chart further down (a 3-D lift, a sweep, a table) costs the browser Plotly's 4.7 MB
bundle and seconds of rendering, and the server its computation, before the student has
scrolled to it. Such a part sits in a closed expander that runs its code only once opened
(Streamlit's ``on_change="rerun"``: a closed one sends nothing). Its controls stay outside,
in the page, so links keep every setting; opening is not part of the link.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import streamlit as st

#: session-state keys of the deferred parts start with this
DEFERRED_KEY_PREFIX = "show_part_"
#: every deferred part of every page, by name (the tests open them all before a page runs)
DEFERRED_PARTS = (
    "lift",
    "bias_trick",
    "conjunctions",  # /kernels
    "curve",
    "stability",
    "loss",  # /generalisation
    "sweep",
    "perceptron",
)  # /relaxation


def deferred_key(name: str) -> str:
    """The session-state key that holds whether part ``name`` is open."""
    return f"{DEFERRED_KEY_PREFIX}{name}"


@contextlib.contextmanager
def deferred(name: str, label: str, *, icon: str = ":material/bar_chart:") -> Iterator[bool]:
    """A closed expander ``label`` whose body runs only when it is open::

        with deferred("curve", "Show the curve") as shown:
            if shown:
                ...  # the computation and its chart

    Yields whether it is open; presenter mode shows it closed as well (the instructor
    opens it when the lecture gets there).
    """
    if name not in DEFERRED_PARTS:
        raise ValueError(f"deferred part {name!r} is not in DEFERRED_PARTS: add it there")
    with st.expander(label, key=deferred_key(name), on_change="rerun", icon=icon) as part:
        yield bool(part.open)
