"""Own data, uploaded: a whole CSV file or nothing. A bad file keeps the previous data and
says what to fix; after a server restart (the file lost with it) the page says so."""

from __future__ import annotations

import numpy as np
import streamlit as st
from streamlit.runtime.uploaded_file_manager import DeletedFile

from pages.common.own_data_spec import OwnData, OwnDataSpec
from pages.common.shown_text import as_code, plain_text, shown_value
from perceptron_core.io import parse_class_csv, parse_labelled_csv


def _class_values(classes: tuple, allowed: tuple) -> list:
    """Labels for a file's k classes: the file's own when all are whole numbers the page
    takes (classes 1, 2, 3 stay 1, 2, 3), else 0..k-1 in sorted order."""
    try:
        numbers = [float(text) for text in classes]
    except ValueError:
        numbers = []
    if numbers and all(v.is_integer() and int(v) in allowed for v in numbers):
        return [int(v) for v in numbers]
    return list(allowed[: len(classes)])


def read_own_csv(spec: OwnDataSpec, content) -> tuple[np.ndarray, np.ndarray, tuple]:
    """(X, y, mapping) of a file, mapping = (label as written, class) pairs; or a
    ValueError that says what to fix."""
    if spec.binary:
        loaded = parse_labelled_csv(content, max_rows=spec.max_rows, min_classes=spec.min_classes)
        y, mapping = np.asarray(loaded.y), loaded.label_mapping
    else:
        loaded = parse_class_csv(
            content,
            max_rows=spec.max_rows,
            min_classes=spec.min_classes,
            max_classes=len(spec.class_labels),
        )
        values = _class_values(loaded.classes, spec.class_labels)
        y, mapping = np.asarray(values)[loaded.codes], tuple(zip(loaded.classes, values))
    if loaded.dim != 2:  # the pages draw the plane
        raise ValueError(
            f"it has {loaded.dim} feature column{'s' * (loaded.dim != 1)}; "
            "this page draws the plane, so it needs exactly 2."
        )
    return np.asarray(loaded.X), y, mapping


def _upload_key(spec: OwnDataSpec) -> str:
    generation = st.session_state.get(spec.key("upload_generation"), 0)
    return spec.key("upload") + (f"_{generation}" if generation else "")


def _load_upload(spec: OwnDataSpec, key: str) -> None:
    """The uploader's callback: accept the file whole, or keep the previous data."""
    uploaded = st.session_state.get(key)
    if uploaded is None or isinstance(uploaded, DeletedFile):
        return
    try:
        X, y, mapping = read_own_csv(spec, uploaded.getvalue())
    except ValueError as error:
        st.session_state[spec.key("upload_error")] = (uploaded.name, str(error))
        return
    st.session_state[spec.key("upload_error")] = None
    st.session_state[spec.key("upload_lost")] = False
    st.session_state[spec.key("uploaded")] = {
        "X": X,
        "y": y,
        "name": uploaded.name,
        "mapping": mapping,
    }


def _replace_lost_upload(spec: OwnDataSpec, key: str) -> None:
    """After a server restart the browser still lists the file it had sent, but the new
    server never saw it (Streamlit hands the page a DeletedFile): remember to say so and
    rerun with a fresh uploader, instead of one listing a file that is gone."""
    if not isinstance(st.session_state.get(key), DeletedFile):
        return
    if st.session_state.get(spec.key("uploaded")) is None:
        st.session_state[spec.key("upload_lost")] = True
    generation = st.session_state.get(spec.key("upload_generation"), 0)
    st.session_state[spec.key("upload_generation")] = generation + 1
    st.rerun()


def _upload_text(spec: OwnDataSpec) -> tuple[str, str]:
    """The uploader's label and its help (the format in a few lines)."""
    if spec.binary:
        label = "CSV with two numeric feature columns and a label column (last)"
        labels = (
            "Labels: -1/+1, 0/1 or any two values"
            if spec.min_classes > 1
            else "Labels: -1/+1, 0/1 or any two values (one class is allowed)"
        )
    else:
        k = len(spec.class_labels)
        label = (
            f"CSV with two numeric feature columns and a class label column (last), "
            f"{spec.min_classes} to {k} classes"
        )
        labels = (
            f"Labels: {spec.min_classes} to {k} distinct values, numbers or text; "
            "whole numbers the page uses keep their value, others are numbered "
            "0, 1, ... in sorted order"
        )
    return label, (
        f"{labels}; the mapping is shown. Row 1 is a header only when none of "
        "its cells is a number. Comma, semicolon or tab separated, UTF-8, at "
        f"most 5 MB and {spec.max_rows:,} rows."
    )


def _mapping_text(spec: OwnDataSpec, mapping: tuple) -> str:
    return ", ".join(
        f"{as_code(shown_value(text))} → "
        f"{spec.class_name(label) if spec.binary else 'class ' + str(label)}"
        for text, label in mapping
    )


def uploaded_data(spec: OwnDataSpec) -> OwnData | None:
    """The file uploader and what it holds: the last good file, its errors, a restart."""
    key = _upload_key(spec)
    label, help_text = _upload_text(spec)
    st.file_uploader(
        label,
        type=["csv", "txt"],
        key=key,
        help=help_text,
        on_change=_load_upload,
        args=(spec, key),
    )
    _replace_lost_upload(spec, key)
    if st.session_state.get(key) is None:
        # the uploader is empty (the file was taken out, or the student left the page and
        # came back to a fresh uploader): an error about a file it no longer lists goes
        st.session_state[spec.key("upload_error")] = None
    uploaded = st.session_state.get(spec.key("uploaded"))
    if st.session_state.get(spec.key("upload_lost")) and uploaded is None:
        st.warning(
            "The server restarted since you uploaded your file, and the file was lost "
            "with it: upload the file again.",
            icon=":material/restart_alt:",
        )
    if st.session_state.get(spec.key("upload_error")):
        name, message = st.session_state[spec.key("upload_error")]
        kept = "The previous data are kept." if uploaded is not None else "Nothing was loaded."
        st.error(
            f"{as_code(shown_value(name))} could not be used: {plain_text(message)} {kept}",
            icon=":material/error:",
        )
    if uploaded is None:
        if not st.session_state.get(spec.key("upload_lost")):
            st.info(
                f"Upload a CSV to use your own data (at most 5 MB and {spec.max_rows:,} "
                f"rows; the **?** beside the uploader gives the format). {spec.share_hint}"
            )
        return None
    st.caption(
        f"{as_code(shown_value(uploaded['name']))}: {len(uploaded['y'])} rows, "
        f"2 features; labels {_mapping_text(spec, uploaded['mapping'])}"
    )
    return OwnData(uploaded["X"], uploaded["y"], f"uploaded {uploaded['name']}")
