"""Linked controls: every control of a page lives in the URL (its key is the query
parameter), declared once, where it is drawn, through one PageLink per page:

    link = PageLink(step=int_param(0, 10**9, 0))  # link values that are not widgets
    n = link.control(st.number_input, "points N", 2, 300, 40, key="n")
    order = link.control(st.selectbox, "order", list(ORDERS), format_func=ORDERS.get,
                         key="order")
    ...                           # the page body
    link.report()                 # one warning naming every ignored link value
    link.copy_control("my_link")  # "Copy link to this view"

``control`` calls the Streamlit widget with ``bind="query-params"``, reads the link
rule (range, choices, length: a LinkParam, see pages/common/link_cleaning.py) from the
widget's own arguments, drops a value the widget cannot take before the widget reads
it, and records how the value is written in a link: a select widget keeps its option's
*label* (``format_func``) in the URL, so the copied link writes the label and a link
naming the default by its label is not called ignored.
"""

from __future__ import annotations

import contextlib
import inspect

import streamlit as st

from pages.common.link_cleaning import (
    bool_param,
    check_link_value,
    choice_param,
    clean_query_params,
    float_param,
    int_param,
    report_link_notices,
    text_param,
)
from pages.common.link_urls import copy_link_control, url_snapshot, view_link

#: longest text a text box takes from a link, unless it has ``max_chars``
LINK_TEXT_CHARS = 200
#: widgets whose link value is an option's label (``format_func``), not the option
LABELLED_WIDGETS = ("selectbox", "select_slider", "radio")


def link_rule(widget, args: tuple, kwargs: dict):
    """The :class:`LinkParam` a widget call implies: range and default of a
    ``number_input`` or ``slider`` (whole numbers when every number given is an int),
    the option labels of a ``selectbox``, ``select_slider`` or ``radio``, the default
    of a ``toggle`` or ``checkbox``, the length of a ``text_input``."""
    kind = widget.__name__
    given = inspect.signature(widget).bind_partial(*args, **kwargs).arguments
    if kind in ("number_input", "slider"):
        low, high, default = given.get("min_value"), given.get("max_value"), given.get("value")
        default = low if default is None or isinstance(default, str) else default  # "min"
        whole = all(
            v is None or (isinstance(v, int) and not isinstance(v, bool))
            for v in (low, high, default, given.get("step"))
        )
        return (int_param if whole else float_param)(low, high, default)
    if kind in LABELLED_WIDGETS:
        options, label = list(given["options"]), given.get("format_func", str)
        default = given.get("value") if kind == "select_slider" else None
        default = options[given.get("index", 0)] if default is None else default
        return choice_param([label(option) for option in options], label(default))
    if kind in ("toggle", "checkbox"):
        return bool_param(bool(given.get("value", False)))
    if kind == "text_input":
        return text_param(given.get("max_chars") or LINK_TEXT_CHARS, given.get("value", ""))
    raise ValueError(f"no link rule for st.{kind}: pass rule=... to PageLink.control")


class PageLink:
    """The link to one page's view: its controls, and what the link carried.

    Create it at the top of the page script (once per run), with a LinkParam for
    each link value that is not a widget (``step=``, ``speed=``) and for any
    control not drawn on every run: those are cleaned at once. ``values`` is the
    link as given after that, for what the page reads itself (``step=``, rows).
    ``kept``: key -> how its value is written (None: the value itself) for the
    controls that stay in the copied link and in the warning on a run that does not
    draw them (the inputs of a closed tab on /bound). ``renamed``: old key -> new key,
    so that links written before a control was renamed still open (the old value is
    read as the new key's unless the link also gives the new key).
    """

    def __init__(self, kept: dict | None = None, renamed: dict | None = None, **declared):
        # new key -> the value an old link gave under the old key (a widget reads the
        # link as the browser sent it, so control() seeds it from here)
        self._renamed: dict[str, str] = {}
        for old, new in (renamed or {}).items():
            if old in st.query_params:
                value = st.query_params.get(old)
                del st.query_params[old]
                if new not in st.query_params:
                    st.query_params[new] = value
                    self._renamed[new] = value
        self.declared = declared
        self._declared_notices = clean_query_params(declared)
        self._widget_notices: list[str] = []
        self._later_notices: list[str] = []
        self.values = url_snapshot()
        # key -> how its value is written in a link (None: the value itself)
        self.formats: dict = dict(kept or {})
        # key -> its link value, cleaned, before the widget reads it
        self.given: dict[str, str] = {
            key: self.values[key] for key in self.formats if key in self.values
        }

    def control(self, widget, *args, key: str, rule=None, **kwargs):
        """Draw ``widget(*args, key=key, **kwargs)`` bound to the URL; return its value.

        ``widget`` is a Streamlit widget function (``st.slider``, ``column.number_input``
        ...). Its link rule comes from its arguments unless ``rule`` (or a rule declared
        for ``key`` when the PageLink was made) is given.
        """
        rule = rule or self.declared.get(key) or link_rule(widget, args, kwargs)
        self._widget_notices += clean_query_params({key: rule})
        if key in st.query_params:
            self.given[key] = st.query_params.get(key)
        labelled = widget.__name__ in LABELLED_WIDGETS
        self.formats[key] = kwargs.get("format_func", str) if labelled else None
        if key in self._renamed and key not in st.session_state:
            self._seed_renamed(key, rule)
        return widget(*args, key=key, bind="query-params", **kwargs)

    def _seed_renamed(self, key: str, rule) -> None:
        """The value an old link gave under a control's old name, as the widget's start
        (numbers, switches and text; a bad value was already named and dropped)."""
        raw = self._renamed[key]
        if check_link_value(raw, rule) is not None:
            return
        if rule.kind == "float":
            st.session_state[key] = float(raw)
        elif rule.kind == "int":
            st.session_state[key] = int(raw)
        elif rule.kind == "bool":
            st.session_state[key] = raw.strip().lower() in ("true", "1", "yes")
        elif rule.kind == "text":
            st.session_state[key] = raw

    def notice(self, text: str) -> None:
        """Name one more ignored link value, e.g. ``rows=... (why; what was used)``."""
        self._later_notices.append(text)

    append = notice  # so link_step(..., notices=link) names a bad step= in the one warning

    def write(self, key: str, text: str) -> str:
        """Keep a value that is not a widget's (drawn rows, a game's moves) in the address
        bar as ``key=text``, or drop ``key`` when ``text`` is empty; returns ``text``."""
        if text and st.query_params.get(key) != text:
            st.query_params[key] = text
        elif not text and key in st.query_params:
            del st.query_params[key]
        return text

    @property
    def notices(self) -> list[str]:
        """Every ignored link value named so far (controls, declared values, others)."""
        return self._widget_notices + self._declared_notices + self._later_notices

    def report(self, where=None) -> list[str]:
        """One warning naming every ignored link value, here or in the container
        ``where`` (a place kept near the top of the page); returns their texts."""
        with where if where is not None else contextlib.nullcontext():
            return report_link_notices(self.notices, self.given, self.formats)

    def stop(self, where=None) -> None:
        """Report the ignored link values (see :meth:`report`), then end this run."""
        self.report(where)
        st.stop()

    def url(self, extra: dict | None = None) -> str:
        """The link to this view: every control drawn so far, then ``extra``."""
        return view_link(self.formats, extra)

    def copy_control(self, key: str, extra: dict | None = None) -> str:
        """The "Copy link to this view" popover with :meth:`url`."""
        return copy_link_control(key, self.formats, extra)
