"""The instructor's key: kept by this session and by the instructor's browser, never in the
address bar the projector shows.

- **Start a class** leaves the key in this session only (the address becomes
  ``/class?code=CODE``); the keeper element (keeper.js) leaves it in the browser's
  localStorage, so a reload opens the instructor's view again (student.js finds it there and
  hands it back) and the pages with a player publish their view.
- A link that carries the key (``?key=...``, as older instructor links did) is taken at once:
  the key is kept, and the keeper element replaces that history entry by the address without
  it (the Back button does not bring it back).
- **Copy the instructor link** copies ``/class?code=CODE#key=KEY`` for a second device: the key
  after ``#`` never reaches a server, and student.js takes it out of the address at once.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from classroom import class_store
from classroom.clients import client_address
from pages.class_parts.follow import HELD_CLASS_STORAGE

HERE = Path(__file__).resolve().parent
#: session state: class code -> the key this session runs it with
KEYS = "class_keys"
#: session state: the codes whose key, offered by this browser, did not run the class
REFUSED = "class_refused_keys"
_CSS = """
.lab-keeper {margin: 0.5rem 0;}
.lab-copy {font: inherit; min-height: 2.75rem; padding: 0.4rem 0.9rem; border-radius: 0.5rem;
  border: 1px solid rgba(49, 51, 63, 0.35); background: #fff; color: #111; cursor: pointer;}
.lab-copy:hover {border-color: #005f92; color: #005f92;}
.lab-copy:focus-visible {outline: 3px solid #c05600; outline-offset: 2px;}
.lab-copy-said {font-size: 0.85em; margin: 0.3rem 0 0 0; color: #333;}
"""
_element = None


def session_client() -> str:
    """The address of this session's browser (as the class's routes read a request's)."""
    try:
        peer = st.context.ip_address  # None: the browser is on this machine
        forwarded = st.context.headers.get_all("X-Forwarded-For")
    except (AttributeError, RuntimeError):
        peer, forwarded = None, []
    return client_address(peer if isinstance(peer, str) else "127.0.0.1", forwarded)


def remember(code: str, key: str) -> None:
    st.session_state.setdefault(KEYS, {})[code] = key


def kept_key(code: str) -> str | None:
    """The key this session runs class ``code`` with: kept from Start a class, from this
    browser (student.js handed it back), or from a link with ``?key=`` (checked here)."""
    given = st.query_params.get("key", "")
    if given:
        if class_store().is_instructor(code, given):
            remember(code, given)
        else:  # no use leaving a wrong key in sight
            st.query_params.pop("key", None)
            st.warning(
                "This link's key does not run this class: you see it as a student.",
                icon=":material/key_off:",
            )
    return st.session_state.get(KEYS, {}).get(code)


def take_offered_key(code: str, offered: str | None) -> None:
    """A key this browser kept for ``code`` (student.js found it): run the class with it, or
    say it does not and never ask again in this session."""
    if not offered:
        return
    if class_store().is_instructor(code, offered):
        remember(code, offered)
    else:
        st.session_state.setdefault(REFUSED, set()).add(code)
    st.rerun()


def refused(code: str) -> bool:
    """Whether this browser's kept key for ``code`` was refused (student.js then forgets it)."""
    return code in st.session_state.get(REFUSED, set())


def keeper(code: str, key: str, origin: str) -> None:
    """The keeper element (keeper.js): localStorage, a ``?key=`` taken out of the address,
    and Copy the instructor link (``origin``: where the other device reaches this app)."""
    global _element
    if _element is None:
        _element = st.components.v2.component(
            "lab_class_keeper", js=(HERE / "keeper.js").read_text(encoding="utf-8"), css=_CSS
        )
    strip = "key" in st.query_params
    result = _element(
        data={
            "code": code,
            "key": key,
            "storage": HELD_CLASS_STORAGE,
            "origin": origin,
            "strip": strip,
        },
        key="lab_class_keeper",
        on_stripped_change=lambda: None,
    )
    if strip and result.stripped:
        # the browser's address no longer has it (replaced, not pushed): say the same here
        st.query_params.pop("key", None)
