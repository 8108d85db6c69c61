"""/relaxation's index-rule menu (pages/relaxation.py). Not a page."""

import streamlit as st

from pages.common.linked_controls import PageLink
from pages.common.settings_table import Setting
from perceptron_core import INDEX_RULES
from perceptron_core.relaxation import INDEX_RULE_NAMES


def rule_menu(link: PageLink, setting: Setting) -> str:
    """The index rule, in words (the core's table INDEX_RULE_NAMES); the link keeps the
    plain name (``rule=max_distance``), as /train's order menu does, so every link /relaxation
    has written still opens. ``setting``: its entry in the page's settings table."""
    default = setting.link_rule.default
    given = link.values.get("rule", default)
    if "rule" not in st.session_state or st.session_state.get("rule_in_link") != given:
        st.session_state["rule"] = given
    rule = st.selectbox(
        setting.label,
        list(INDEX_RULES),
        format_func=INDEX_RULE_NAMES.get,
        key="rule",
        help=setting.help,
    )
    st.session_state["rule_in_link"] = rule
    link.write("rule", "" if rule == default else rule)
    return rule
