"""One guard per page body: an unexpected exception becomes one short message.

with page_guard("train"):
    ... widgets and the page body ...
"""

from __future__ import annotations

import logging
import re
from contextlib import contextmanager

import streamlit as st

from pages.common.shown_text import as_code, shown_value

_LOG = logging.getLogger("perceptron_lab")

_PATH = re.compile(r"(?:[A-Za-z]:)?(?:[\\/][\w.\-]+){2,}")


def _short_reason(error: BaseException) -> str:
    """The exception's type and first line, without file paths, cut to 120 characters."""
    message = str(error).strip().splitlines()[0] if str(error).strip() else ""
    message = _PATH.sub("<path>", message)
    reason = f"{type(error).__name__}: {message}" if message else type(error).__name__
    return shown_value(reason, 120)


@contextmanager
def page_guard(page: str):
    """Turn any unexpected exception in a page body into one short message.

    The traceback goes to the server log (logger ``perceptron_lab``); the browser
    sees "This view could not be drawn: <type: first line>; the previous settings
    are kept." Streamlit's own control flow (st.stop, st.rerun, st.switch_page)
    passes through: those are BaseException, not Exception.
    """
    try:
        yield
    except Exception as error:  # noqa: BLE001 - the whole point: nothing reaches the browser
        _LOG.exception("page %s: unexpected error", page)
        st.error(
            f"This view could not be drawn: {as_code(_short_reason(error))}; the "
            "previous settings are kept. Change a setting or reload the page.",
            icon=":material/error:",
        )
