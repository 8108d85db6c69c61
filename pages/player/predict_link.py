"""Predict first in a link: ``predict=1`` turns it on, and while the player waits for a
prediction its address carries ``ask=<the step it waits to draw>`` and ``ask_part=<which
question of that step>`` (an id of QUESTION_IDS), so a copied or followed link opens on the
same question and a live class can poll it (pages/class_parts/questions.py).

A page declares the three values with its other link values,
``PageLink(step=..., **PREDICT_PARAMS)``, and hands its PageLink to ``player(..., link=)``.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from pages.common.link_cleaning import choice_param, int_param
from pages.common.shown_text import as_code, shown_value

#: the questions a player asks (pages/player/predict_<page>.js): will it update, which line
#: (/train), which α grows (/kernels), which kind of margin mistake (/generalisation), which
#: inequality the rule picks, does w move, where does w land (/relaxation)
QUESTION_IDS = ("update", "line", "alpha", "kind", "pick", "moves", "land")
#: the link values of Predict first (cleaned with the page's other link values)
PREDICT_PARAMS = {
    "predict": choice_param(("1", "0", "true", "false"), "0"),
    "ask": int_param(1, 10**9, 1),
    "ask_part": choice_param(QUESTION_IDS, "the step's first question"),
}
#: answers on a page's player that make its checkpoint's prediction round (study path)
PREDICTION_ROUND = 5


def waiting_step(start: int, update_steps, n_examined: int, ask: int) -> str | None:
    """Whether a player at step ``start`` may wait on step ``ask``: the next example
    (``start + 1``) or the next update. Returns None if so, else why not."""
    steps = np.asarray(update_steps, dtype=np.int64)
    later = steps[steps > start]
    next_update = int(later[0]) if later.size else None
    if start >= n_examined:
        return f"the run has ended at step {start:,}"
    if ask == start + 1 or ask == next_update:
        return None
    return (
        f"not the next step ({start + 1:,})"
        + (
            f" or the next update ({next_update:,})"
            if next_update and next_update != start + 1
            else ""
        )
        + f" after step {start:,}"
    )


def predict_spec(page: str, link_values: dict[str, str], spec: dict) -> dict:
    """What the player's Predict first starts with: the link's ``predict=`` and waiting
    question on the page's first run in the session (the player keeps the switch after that),
    ``page`` (whose study-path round the answers count towards) and ``round``."""
    memory = f"{page}_predict"
    if memory not in st.session_state:
        on = link_values.get("predict", "0") in ("1", "true")
        ask, part = link_values.get("ask"), link_values.get("ask_part", "")
        start = spec.get("start_step") or 0
        if ask is not None and not ask.isdigit():  # a page that did not clean it
            ask = None
        if ask is not None:
            why = (
                "Predict first is off in this link"
                if not on
                else waiting_step(start, spec["update_steps"], spec["n_examined"], int(ask))
            )
            if why:
                st.warning(
                    f"This link's {as_code('ask=' + shown_value(ask))} names no question "
                    f"the player can wait on ({why}), so it waits on none.",
                    icon=":material/link_off:",
                )
                ask = None
        st.session_state[memory] = {
            "on": on,
            "ask": None if ask is None else int(ask),
            "ask_part": part if ask is not None else "",
        }
    return {**st.session_state[memory], "page": page, "round": PREDICTION_ROUND, "progress": True}


def offline_predict_spec(page: str) -> dict:
    """Predict first in an offline export: off at first, nothing counted for the study path
    (a file has no page to mark done)."""
    return {"on": False, "ask": None, "ask_part": "", "page": page, "round": 0, "progress": False}
