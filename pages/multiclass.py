"""/multiclass: more than two classes with binary perceptrons (Remark 1.36).

A pipeline: the settings (every control in the link), the data (k blobs, a CSV file with
k labels, or points drawn with a class picker), both reductions and their exact regions
(cached), three figures and the tables. Texts: perceptron_core/viz/multiclass.py.
"""

import numpy as np
import streamlit as st

from pages.common.compute import computed
from pages.common.guard import page_guard
from pages.common.linked_controls import PageLink
from pages.common.own_data_drawing import restore_drawn_points
from pages.common.own_data_source import data_source_control, own_data
from pages.common.own_data_spec import OwnDataSpec
from pages.common.page_basics import core_call, page_header, show_chart
from pages.common.presenter import about_this_page, off_stage
from pages.common.question_bank import QUESTIONS_BY_PAGE, quiz
from pages.common.request_budget import REQUEST_CPU_SECONDS
from pages.common.static_table import static_table
from pages.multiclass_parts.settings import SETTINGS
from perceptron_core import make_blobs
from perceptron_core.viz import multiclass as viz

#: the student's own data: 2 to 6 classes labelled 0..5, as many points as blobs may have
OWN = OwnDataSpec(
    prefix="multiclass_",
    class_labels=(0, 1, 2, 3, 4, 5),
    min_classes=2,
    max_rows=600,
    max_points=600,
    share_hint="Links do not carry uploaded files: share the file itself "
    "(drawn points are in the link).",
)
CACHE = dict(max_entries=32, ttl=3600)
#: fit's largest entry is 0.04 MB (k = 6, n = 600; tests/app/test_cache_bytes.py measures it)
FIT_CACHE = dict(max_entries=32, max_size="8MB", ttl=3600)


def read_settings(link: PageLink) -> dict:
    """Step 0: the sidebar, every setting of the table bound to the link."""
    with st.sidebar:
        return SETTINGS.read(
            link,
            {"source": lambda _: data_source_control(link, viz.SOURCES, "blobs", key="source")},
            generator="blobs",
        )


@st.cache_data(show_spinner=False, **CACHE)
def blobs(k, n, spread, data_seed, layout):
    data = make_blobs(n=n, seed=data_seed, dim=2, radius=1.0, k=k, spread=spread)
    X, labels = np.array(data.X), np.array(data.y)
    if layout == viz.LAYOUTS[1]:  # move class 0's blob to the origin
        X[labels == 0] -= X[labels == 0].mean(axis=0)
    return X, labels


@st.cache_data(show_spinner="Training the perceptrons…", **FIT_CACHE)
def fit(X, labels, order, order_seed, max_epochs):
    """Step 2: both reductions (their binary problems run stacked), their exact regions and
    the numbers side by side, in a worker process (pages/common/compute.py)."""
    return computed(viz.fit_both, X, labels, order, order_seed, max_epochs)


def within_budget(k: int, n: int, max_epochs: int, own: bool = False) -> bool:
    """Whether both schemes fit in one request's computing time (a warning if not)."""
    text = viz.budget_text(k, n, max_epochs, REQUEST_CPU_SECONDS, own)
    if text:
        st.warning(text, icon=":material/hourglass_disabled:")
    return text is None


def load_data(s: dict):
    """Step 1: (X, labels), or None while the student's data are missing or would take
    too long to train on (a message says why)."""
    if s["source"] == "blobs":
        if not within_budget(s["k"], s["n"], s["max_epochs"]):
            return None
        return core_call(blobs, s["k"], s["n"], s["spread"], s["data_seed"], s["layout"])
    with off_stage() as shown:
        if shown:
            st.subheader("Your data")
    data = own_data(OWN, s["source"])
    if data is None or not within_budget(
        len(np.unique(data.y)), len(data.y), s["max_epochs"], own=True
    ):
        return None
    return data.X, data.y


#: the classes the line pills offered on the last run (so that a new class's line is on)
LINES_OFFERED = "lines_offered"


def line_choice(link: PageLink, classes: list) -> list:
    """The "draw the line of 'class j vs rest'" pills: every class's line is on unless the
    student turned it off. When the classes change (k, or the drawn points), a class new
    to the pills starts on and the lines turned off stay off, so the view equals what its
    link (the address bar, the copied link) opens fresh. A link's value that names no
    class is named in the page's one warning about its link."""
    offered = st.session_state.get(LINES_OFFERED)
    given = [v for v in st.query_params.get_all("lines") if v != ""]
    if offered is not None and offered != classes and "lines" in st.session_state:
        off = set(offered) - set(st.session_state["lines"] or ())
        st.session_state["lines"] = [c for c in classes if c not in off]
    st.session_state[LINES_OFFERED] = classes
    shown = st.pills(
        "draw the line of 'class j vs rest' for j =",
        classes,
        selection_mode="multi",
        default=classes,
        key="lines",
        bind="query-params",
    )
    # a multi-select is not a PageLink control (lines=0&lines=2 repeats its key): it is
    # kept in the copied link, and a value naming no class is reported on opening
    link.formats["lines"] = None
    refused = [v for v in given if v not in {str(c) for c in classes}]
    if offered is None and refused:
        used = ", ".join(str(c) for c in shown) or "none"
        link.notice(f"lines={','.join(refused)} (no such class; lines drawn: {used})")
    return shown


def show_charts(link: PageLink, X, labels, ova, ovo, limit, region, numbers, centred: bool) -> None:
    """One-vs-all and one-vs-one over the plane, and the classes one-vs-all never picks."""
    classes = ova.classes.tolist()
    shown = line_choice(link, classes)
    left, middle = st.columns(2)
    with left:
        show_chart(
            viz.ova_figure(X, labels, ova, region, limit, shown_lines=shown or ()), key="ova_chart"
        )
    with middle:
        show_chart(viz.ovo_figure(X, labels, ovo, region, limit), key="ovo_chart")
    notes = viz.winner_notes(ova, region, numbers) + viz.flat_notes(ova, shown or (), limit)
    if notes:  # a list: one class (or line) a line, readable on a phone
        st.warning(
            "One-vs-all:\n" + "\n".join(f"- {note}." for note in notes), icon=":material/warning:"
        )
    if centred:  # the "one class in the middle" layout: what it does to these points
        st.markdown(viz.middle_text(ova, numbers))


def show_tables(X, labels, ova, ovo, limit, region, numbers) -> None:
    """The two schemes side by side, where they disagree, one-vs-all's imbalance and
    one-vs-one's pairs."""
    st.subheader("Side by side")
    left, middle = st.columns(2)
    with left:
        # small fixed tables: HTML (no Arrow, no data grid, read by a screen reader)
        static_table(viz.side_by_side(numbers), caption="One-vs-all and one-vs-one on these points")
        st.markdown(viz.disagreement_text(numbers, len(labels)))
    with middle:
        show_chart(
            viz.disagreement_figure(X, labels, ova.classes, region, limit, height=600),
            key="disagree_chart",
        )
    st.markdown(
        "**One-vs-all's binary problems**: the imbalance (its −1 examples), what "
        "its run did, where the class wins:"
    )
    static_table(
        viz.imbalance_columns(ova, region, numbers),
        caption="One-vs-all's binary problems, one row per class",
    )
    with st.expander("One-vs-one: the pairs"):
        static_table(
            viz.pairs_columns(ovo, numbers),
            caption="One-vs-one's binary problems, one row per pair of classes",
        )
    st.caption(viz.PLANE_CAPTION)


def drawn_points_link() -> dict:
    """The drawn points for the copied link (the other controls are widgets)."""
    points = st.session_state.get(OWN.key("drawn_points")) or []
    if st.session_state.get("source") != "draw" or not points:
        return {}
    return {"points": viz.points_text(points)}


page_link = PageLink()  # before any widget reads the URL
with page_guard("multiclass"):
    with off_stage() as shown:
        if shown:
            page_header("More than two classes", viz.SUMMARY)
    settings = read_settings(page_link)
    restore_drawn_points(OWN, page_link.values)
    data = load_data(settings)
    result = (
        None
        if data is None
        else core_call(
            fit, *data, settings["order"], settings["order_seed"], settings["max_epochs"]
        )
    )
    if result is None:  # name the ignored link values, then stop: nothing can be drawn
        page_link.stop()
    ova, ovo, limit, region, numbers = result
    show_charts(
        page_link,
        *data,
        ova,
        ovo,
        limit,
        region,
        numbers,
        settings["source"] == "blobs" and settings["layout"] == viz.LAYOUTS[1],
    )
    page_link.report()
    show_tables(*data, ova, ovo, limit, region, numbers)
    page_link.copy_control("multiclass_link", drawn_points_link())
    about_this_page(viz.SUMMARY)
    quiz(QUESTIONS_BY_PAGE["multiclass"])
