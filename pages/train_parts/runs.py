"""/train's runs, importable: the data a view trains on and the one cached run, shared by
the page (pages/train.py) and by the live class's "Predict the next step" question
(pages/common/question_bank.py), which rebuilds a view from its link.

``LINK_RULES`` is what each of /train's link values may be, as its widgets take them
(tests/app/test_question_bank.py checks it against the page's widgets).
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from pages.common.link_cleaning import check_link_value, choice_param
from pages.common.notation import named_result
from pages.common.own_data_drawing import points_from_link
from pages.common.own_data_spec import OwnDataSpec
from pages.common.settings_table import Setting, SettingsTable
from perceptron_core import (
    ORDERS,
    bound_summary,
    make_separable,
    proof_quantities,
    run_perceptron,
    with_label_noise,
)
from perceptron_core.perceptron import Trace
from perceptron_core.theory import run_bounds, separability_case

SOURCES = {
    "generated": "planted separator with margin γ",
    "upload": "your CSV",
    "draw": "click on the chart",
}
CACHE = dict(max_entries=32, ttl=3600)
#: every /train run stops at (max_updates, max_epochs) if it has not converged
LIMITS = (5_000, 500)
#: the student's own data: labels -1/+1; one class is allowed (the slides' one-point quiz);
#: a link carries at most max_points drawn points
OWN = OwnDataSpec(
    prefix="",
    min_classes=1,
    max_rows=20_000,
    max_points=2_000,
    share_hint="Links do not carry uploaded files: download the data below to share them.",
)
#: every setting of /train, once: its widget, label, range and default, help; the page
#: draws them in this order, under these sidebar headings
SETTINGS = SettingsTable(
    Setting("source", "", "data source", rule=choice_param(SOURCES, "generated"), group="Data"),
    Setting(
        "n", "number_input", "points n", (2, 2000, 40), {"step": 10}, group="Data", generated=True
    ),
    Setting("margin", "slider", "margin γ", (0.01, 0.5, 0.1, 0.01), group="Data", generated=True),
    Setting(
        "data_seed", "number_input", "data seed", (0, 1_000_000, 7), group="Data", generated=True
    ),
    Setting(
        "through_origin",
        "checkbox",
        "hyperplane through the origin",
        (False,),
        group="Data",
        generated=True,
    ),
    Setting(
        "balance",
        "slider",
        "share of class +1",
        (0.1, 0.9, 0.5, 0.05),
        group="Data",
        generated=True,
    ),
    Setting(
        "noise",
        "slider",
        "label noise (chance a label flips)",
        (0.0, 0.4, 0.0, 0.01),
        {
            "help": "Flips each label with this probability (seeded by the data seed). How "
            "many flipped, and whether a line still separates the data, is said on the page."
        },
        group="Data",
        generated=True,
    ),
    Setting(
        "show_planted",
        "toggle",
        "show the planted line (the generator's separator) and its margin band",
        (True,),
        group="Data",
    ),
    Setting("bias", "toggle", "learn a bias b", (True,), group="Algorithm"),
    Setting("delta", "number_input", "threshold δ", (0.0, 10.0, 0.0, 0.1), group="Algorithm"),
    Setting(
        "order",
        "selectbox",
        "order of examples",
        options={
            "help": "Which example the perceptron looks at next. "
            + named_result("bound (1.4)")
            + " It holds for every order."
        },
        rule=choice_param(ORDERS, "cyclic"),
        words=ORDERS,
        group="Algorithm",
    ),
    Setting(
        "init", "radio", "initial w", (["zero", "random"],), {"horizontal": True}, group="Algorithm"
    ),
    Setting(
        "order_seed", "number_input", "order / init seed", (0, 1_000_000, 0), group="Algorithm"
    ),
)
#: link key -> what its value may be (also where no widget is drawn: the live class)
LINK_RULES = SETTINGS.link_rules


@st.cache_data(show_spinner=False, **CACHE)
def generated_data(n, margin, data_seed, through_origin, balance, noise):
    data = make_separable(
        n=n,
        margin=margin,
        dim=2,
        radius=1.0,
        seed=data_seed,
        through_origin=through_origin,
        balance=balance,
    )
    return with_label_noise(data, noise, seed=data_seed + 1) if noise > 0 else data


def flipped_labels(n, margin, data_seed, through_origin, balance, noise) -> int:
    """How many labels the label noise flipped in the generated data."""
    clean = generated_data(n, margin, data_seed, through_origin, balance, 0.0)
    noisy = generated_data(n, margin, data_seed, through_origin, balance, noise)
    return int(np.count_nonzero(np.asarray(clean.y) != np.asarray(noisy.y)))


@st.cache_data(show_spinner="Training…", **CACHE)
def train(X, y, bias, delta, order, start, order_seed):
    """The run and everything the player shows that does not depend on the step."""
    rng = np.random.default_rng(order_seed)
    w0 = rng.normal(scale=0.5, size=2) if start == "random" else None
    b0 = float(rng.normal(scale=0.5)) if start == "random" and bias else 0.0
    trace = run_perceptron(
        X,
        y,
        bias=bias,
        delta=delta,
        w0=w0,
        b0=b0,
        order=order,
        seed=order_seed,
        max_updates=LIMITS[0],
        max_epochs=LIMITS[1],
    )
    w0_norm = float(np.hypot(np.linalg.norm(trace.weights[0]), trace.biases[0]))
    bounds = bound_summary(X, y, bias=bias, delta=delta, w0_norm=w0_norm)
    statements = run_bounds(bounds, bias=bias, delta=delta, w0_norm=w0_norm)
    proof = proof_quantities(trace, X, y, bounds) if bounds.separable else None
    return trace, bounds, statements, separability_case(X, y), proof, w0_norm


def settings_from_link(params: dict[str, str]) -> dict:
    """/train's settings as its widgets read them from link values ``params``: a value a
    widget could not take (out of range, malformed) gives the default, as on the page."""
    settings = {}
    for key, rule in LINK_RULES.items():
        raw = params.get(key)
        if raw is None or check_link_value(str(raw), rule) is not None:
            settings[key] = rule.default
        elif rule.kind == "int":
            settings[key] = int(raw)
        elif rule.kind == "float":
            settings[key] = float(raw)
        elif rule.kind == "bool":
            settings[key] = str(raw).lower() == "true"
        else:
            settings[key] = str(raw)
    return settings


def data_from_link(settings: dict, params: dict[str, str]) -> tuple[np.ndarray, np.ndarray]:
    """(X, y) of the view: generated from ``settings``, or the link's drawn points.
    Raises ValueError for an uploaded file (never in a link) or unreadable points."""
    if settings["source"] == "upload":
        raise ValueError(
            "This view trains on an uploaded file, which a link does not carry: "
            "open a view of generated or drawn data."
        )
    if settings["source"] == "draw":
        points = points_from_link(OWN, params.get("points", ""))
        if not points:
            raise ValueError(
                "This link's drawn points are missing or could not be read: "
                "draw at least one point on /train and copy the link again."
            )
        rows = np.array(points, dtype=float).reshape(-1, 3)
        return rows[:, :2], rows[:, 2].astype(int)
    data = generated_data(
        settings["n"],
        settings["margin"],
        settings["data_seed"],
        settings["through_origin"],
        settings["balance"],
        settings["noise"],
    )
    return np.asarray(data.X), np.asarray(data.y)


def run_from_link(params: dict[str, str]) -> tuple[dict, np.ndarray, np.ndarray, Trace, int]:
    """The view a /train link shows: (settings, X, y, trace, step on screen). A ``step=``
    that is not a step of the run opens at 0, as on the page."""
    settings = settings_from_link(params)
    X, y = data_from_link(settings, params)
    trace = train(
        X,
        y,
        settings["bias"],
        settings["delta"],
        settings["order"],
        settings["init"],
        settings["order_seed"],
    )[0]
    raw = str(params.get("step", ""))
    step = int(raw) if raw.isascii() and raw.isdigit() and int(raw) <= trace.n_examined else 0
    return settings, X, y, trace, step
