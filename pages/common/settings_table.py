"""A page's settings, declared once in one table (as TensorFlow Playground's ``state.ts``).

Each :class:`Setting` names a control once: its key (the link's query parameter and the
session key), the Streamlit widget, the label, the widget's own arguments (range and
default, or options) and its help. From the table come

- the widget, drawn bound to the link (:meth:`SettingsTable.draw`, through
  :class:`~pages.common.linked_controls.PageLink`),
- the link rule, what a link value may be (:attr:`SettingsTable.link_rules`; also read
  where no widget is drawn, e.g. the live class rebuilding a /train view from its link),
- the settings object, one frozen record of every value (:meth:`SettingsTable.read`).

Adding a setting to a page is one more :class:`Setting` in its table: it is then drawn,
in the link, in the copied link's warning and in the settings record. A control with a
widget of its own (the data source, a menu whose link keeps the plain name) declares its
rule instead of a widget and is drawn by the page, which still reads its label and help
from the table.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from pages.common.link_cleaning import LinkParam
from pages.common.linked_controls import PageLink, link_rule

#: what a widget's value becomes in the settings record (a number box's value is a float
#: or an int as Streamlit returns it; the record holds the type the table declared)
_AS = {"int": int, "float": float, "bool": bool}


@dataclass(frozen=True)
class Setting:
    """One control: ``widget`` is the name of a Streamlit widget (``"slider"``,
    ``"number_input"``, ``"toggle"``, ``"checkbox"``, ``"radio"``, ``"selectbox"``,
    ``"text_input"``), called as ``st.<widget>(label, *args, key=key, **options)``.
    ``rule``: what its link value may be, when the widget's arguments do not say (a
    control the page draws itself, ``widget=""``; a text box's length; a worded menu).
    ``words``: a menu (``selectbox``, ``segmented_control``) that shows these words (name ->
    words) and keeps the plain name in the link (``order=permuted``). ``group``: the
    sidebar heading it sits under. ``generated``: it shapes the data the page generates,
    so it is greyed out while the student's own data are used."""

    key: str
    widget: str
    label: str
    args: tuple = ()
    options: dict[str, Any] = field(default_factory=dict)
    rule: LinkParam | None = None
    words: dict[str, str] | None = None
    group: str = ""
    generated: bool = False  # a setting of the page's data generator (greyed out for own data)

    @property
    def function(self) -> Callable:
        return getattr(st, self.widget)

    @functools.cached_property
    def link_rule(self) -> LinkParam:
        """What this setting's link value may be (range, choices, default)."""
        if self.rule is not None:
            return self.rule
        return link_rule(self.function, (self.label, *self.args), self.options)

    @property
    def help(self) -> str | None:
        return self.options.get("help")


class SettingsTable:
    """Every setting of a page, in the order the page draws them."""

    def __init__(self, *settings: Setting):
        keys = [setting.key for setting in settings]
        if len(set(keys)) != len(keys):
            raise ValueError(f"a key is declared twice in {keys}")
        self.settings = settings
        self.by_key = {setting.key: setting for setting in settings}

    def __getitem__(self, key: str) -> Setting:
        return self.by_key[key]

    def __iter__(self):
        return iter(self.settings)

    @property
    def link_rules(self) -> dict[str, LinkParam]:
        """Link key -> what its value may be, for every setting."""
        return {setting.key: setting.link_rule for setting in self.settings}

    def defaults(self) -> dict[str, Any]:
        """Link key -> the value a link without it opens with."""
        return {key: rule.default for key, rule in self.link_rules.items()}

    def draw(self, link: PageLink, key: str, **options) -> Any:
        """Draw the setting ``key`` bound to ``link`` (``options`` add to or replace the
        table's, e.g. ``disabled=True``) and return its value as the table's type."""
        setting = self.by_key[key]
        if not setting.widget:
            raise ValueError(f"{key!r} is drawn by its page, not by the table")
        if setting.words is not None:
            return _worded_menu(link, setting, **options)
        value = link.control(
            setting.function,
            setting.label,
            *setting.args,
            key=key,
            rule=setting.link_rule,
            **(setting.options | options),
        )
        kind = setting.link_rule.kind
        return _AS[kind](value) if kind in _AS else value

    def read(
        self,
        link: PageLink,
        page_drawn: dict[str, Callable[[dict], Any]] | None = None,
        generator: str = "",
        *,
        keys: tuple[str, ...] = (),
        disabled: dict[str, Callable[[dict], bool]] | None = None,
    ) -> dict[str, Any]:
        """Draw every setting (or those of ``keys``) in the table's order, a heading where
        the group changes (the first group's heading comes with the data source); return
        key -> value.

        ``page_drawn``: key -> a function the page draws that setting with, given the
        values read so far. ``generator``: the value of ``source`` that means generated
        data; any other greys out the settings marked ``generated``. ``disabled``: key ->
        whether, given the values read so far, that setting is greyed out (a kernel's
        degree when the kernel has none).
        """
        page_drawn, disabled = page_drawn or {}, disabled or {}
        values: dict[str, Any] = {}
        group = None
        for setting in self.settings:
            if keys and setting.key not in keys:
                continue
            if group is not None and setting.group != group:
                st.header(setting.group)
            group = setting.group
            if setting.key in page_drawn:
                values[setting.key] = page_drawn[setting.key](values)
                continue
            own = setting.generated and values.get("source", generator) != generator
            off = own or (setting.key in disabled and disabled[setting.key](values))
            values[setting.key] = self.draw(link, setting.key, disabled=off)
        return values

    def record(self, name: str, base: type = object, keys: tuple[str, ...] = ()) -> type:
        """A frozen dataclass with one field per setting (or per key of ``keys``), in the
        table's order; ``base`` may add properties that combine them."""
        fields = [setting.key for setting in self.settings if not keys or setting.key in keys]
        return dataclasses.make_dataclass(name, fields, bases=(base,), frozen=True)


def _worded_menu(link: PageLink, setting: Setting, **options) -> str:
    """A menu that shows ``setting.words`` and keeps the plain name in the link: seeded
    from the link whenever the link changes, written back after the student picks. (Bound
    to the link itself, the widget would write its words, and links already written with
    plain names would be called ignored.)"""
    key, words = setting.key, setting.words or {}
    default = setting.link_rule.default
    given = link.values.get(key, default)
    if key not in st.session_state or st.session_state.get(f"{key}_in_link") != given:
        st.session_state[key] = given
    value = setting.function(
        setting.label,
        list(words),
        format_func=words.get,
        key=key,
        **(setting.options | options),
    )
    value = default if value is None else value  # a segmented control may hold none
    st.session_state[f"{key}_in_link"] = value
    link.write(key, "" if value == default else value)
    return value
