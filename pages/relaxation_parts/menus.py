"""/relaxation's index-rule menu (pages/relaxation.py). Not a page."""

import streamlit as st

from pages.common import PageLink
from perceptron_core import INDEX_RULE_LABELS, INDEX_RULES
from perceptron_core.relaxation import INDEX_RULE_NAMES


def rule_menu(link: PageLink) -> str:
    """The index rule, in words (the core's table INDEX_RULE_NAMES); the link keeps the
    plain name (``rule=max_distance``), as /train's order menu does, so every link /relaxation
    has written still opens."""
    given = link.values.get("rule", "cyclic")
    if "rule" not in st.session_state or st.session_state.get("rule_in_link") != given:
        st.session_state["rule"] = given
    rule = st.selectbox(
        "index rule (Remark 1.38)",
        list(INDEX_RULES),
        format_func=INDEX_RULE_NAMES.get,
        key="rule",
        help="  \n".join(INDEX_RULE_LABELS.values()),
    )
    st.session_state["rule_in_link"] = rule
    link.write("rule", "" if rule == "cyclic" else rule)
    return rule
