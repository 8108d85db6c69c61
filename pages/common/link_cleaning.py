"""Link cleaning: drop the link values a widget could not take, before any
widget reads them, and name every ignored value in one warning.

A :class:`LinkParam` says what one link value may be. ``PageLink``
(pages/common/linked_controls.py) derives it from each widget call and runs these for
it; a page that has not moved to PageLink spells them out:

    spec = {"n": int_param(2, 5000, 200), "margin": float_param(0.005, 0.95, 0.1),
            "order": choice_param(["cyclic (...)", ...], "cyclic (...)"),
            "values": text_param(200, "1, 2"), "bias": bool_param(True)}
    notices = clean_query_params(spec)   # FIRST, before any widget with bind=...
    ... widgets ...
    report_link_notices(notices, snapshot, keys)  # one warning for everything
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

import streamlit as st

from pages.common.shown_text import as_code, shown_value

#: longest link value read at all (a number never needs more)
MAX_PARAM_CHARS = 400

_ASCII_INT = re.compile(r"[+-]?[0-9]+", re.ASCII)
_ASCII_FLOAT = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)


@dataclass(frozen=True)
class LinkParam:
    """What a link value of one widget may be: kind "int", "float", "choice", "text" or
    "bool"; ``low``/``high`` for numbers, ``options`` (the texts a link may carry) for a
    choice, ``max_chars`` for text; ``default`` is what the widget shows without it."""

    kind: str
    default: object
    low: float | None = None
    high: float | None = None
    options: tuple = ()
    max_chars: int = 200


def int_param(low: int, high: int, default: int) -> LinkParam:
    return LinkParam("int", default, low=low, high=high)


def float_param(low: float, high: float, default: float) -> LinkParam:
    return LinkParam("float", default, low=low, high=high)


def choice_param(options, default) -> LinkParam:
    return LinkParam("choice", default, options=tuple(str(o) for o in options))


def text_param(max_chars: int, default: str) -> LinkParam:
    return LinkParam("text", default, max_chars=max_chars)


def bool_param(default: bool) -> LinkParam:
    return LinkParam("bool", default)


def _number_text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def check_link_value(raw: str, param: LinkParam) -> str | None:
    """Why ``raw`` cannot seed a widget described by ``param``; None if it can."""
    if len(raw) > MAX_PARAM_CHARS or (param.kind == "text" and len(raw) > param.max_chars):
        limit = param.max_chars if param.kind == "text" else MAX_PARAM_CHARS
        return f"{len(raw)} characters, over the limit of {limit}"
    if param.kind == "int":
        if _ASCII_FLOAT.fullmatch(raw.strip()) and not _ASCII_INT.fullmatch(raw.strip()):
            return "not a whole number"
        if not _ASCII_INT.fullmatch(raw.strip()):
            return "not a whole number written with the digits 0-9"
        value = int(raw)
    elif param.kind == "float":
        if not _ASCII_FLOAT.fullmatch(raw.strip()):
            return "not a number written with the digits 0-9"
        value = float(raw)
        if not math.isfinite(value):
            return "too large"
    elif param.kind == "choice":
        return None if raw in param.options else "not one of the choices"
    elif param.kind == "bool":
        return None if raw.lower() in ("true", "false") else "not true or false"
    else:  # text
        return None if raw.isprintable() else "holds control characters"
    if (param.low is not None and value < param.low) or (
        param.high is not None and value > param.high
    ):
        return f"outside {_number_text(param.low)} to {_number_text(param.high)}"
    return None


def _drop_link_value(key: str) -> None:
    """Remove ``key`` from the URL and from the values widgets seed from on first load."""
    from streamlit.runtime.state.session_state_proxy import get_session_state

    with get_session_state().query_params() as params:
        params.remove_param(key)  # also tells the browser to drop it from the address bar
        params._initial_query_params.pop(key, None)  # Streamlit 1.67: widgets seed from here


def _link_values(key: str) -> list[str]:
    from streamlit.runtime.state.session_state_proxy import get_session_state

    values = st.query_params.get_all(key)
    if values:
        return values
    with get_session_state().query_params() as params:
        initial = params.get_initial_value(key)
    if initial is None:
        return []
    return initial if isinstance(initial, list) else [initial]


def clean_query_params(spec: dict[str, LinkParam]) -> list[str]:
    """Drop every link value a widget could not take, BEFORE any widget reads the URL.

    For each key of ``spec`` present in the link: a value that is too long, not a
    number written in ASCII digits (``²``, ``①``), not whole where a whole number
    is needed (``60.7``), not finite or outside the widget's range, not one of the
    choices, or repeated, is removed from the URL so the widget shows its default.
    Returns one notice per removed value, e.g. ``n=60.7 (not a whole number; used
    the default 200)``, with the value cut to about 40 characters; pass them to
    :func:`report_link_notices`.
    """
    notices = []
    for key, param in spec.items():
        values = _link_values(key)
        if not values:
            continue
        raw = values[-1]
        reason = check_link_value(raw, param)
        if reason is None and len(values) > 1:
            reason = f"given {len(values)} times"
        if reason is None:
            continue
        _drop_link_value(key)
        notices.append(
            f"{key}={shown_value(raw)} ({reason}; used the default "
            f"{shown_value(_number_text(param.default))})"
        )
    return notices


def _same_value(raw: str, value) -> bool:
    if isinstance(value, bool):
        return raw.strip().lower() in (("true", "1", "yes") if value else ("false", "0", "no"))
    if isinstance(value, (int, float)):
        try:
            return float(raw) == float(value)
        except ValueError:
            return False
    return raw == str(value)


def report_link_notices(notices: list[str], snapshot: dict[str, str], keys) -> list[str]:
    """One warning naming every ignored link value: those :func:`clean_query_params`
    dropped, and any a widget refused after it (compared with ``snapshot``, taken
    after cleaning). Values are shown as code, never as Markdown. ``keys``: widget keys,
    or a mapping key -> how its value is written in a link (see
    :func:`~pages.common.link_urls.view_link`)."""
    ignored = list(notices)
    formats = keys if isinstance(keys, Mapping) else dict.fromkeys(keys)
    for key, write in formats.items():
        if key not in snapshot:
            continue
        raw = snapshot[key]
        if st.query_params.get(key) == raw:
            continue
        value = st.session_state.get(key)
        if key in st.session_state and (_same_value(raw, value) or (write and write(value) == raw)):
            continue  # equal to the default (Streamlit drops it from the URL), or its label
        used = write(value) if write else _number_text(value)
        ignored.append(f"{key}={shown_value(raw)} (used {shown_value(used)})")
    if ignored:
        st.warning(
            "This link had values that are out of range or malformed, so the page "
            "ignored them: " + ", ".join(as_code(item) for item in ignored) + ".",
            icon=":material/link_off:",
        )
    return ignored
