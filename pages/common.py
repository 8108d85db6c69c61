"""Streamlit helpers shared by the pages (not a page itself).

Pages stay thin: widgets, one cached call into the core, figures, layout.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager


def _use_app_navigation() -> None:
    """Make a deep link work on a fresh server.

    If the very first request of a server process is a link such as /train,
    Streamlit has not yet run app.py and treats this ``pages/`` folder as an
    old-style multipage folder (file names in the sidebar, no wide layout). Turn
    that mode off and rerun: the rerun goes through app.py's ``st.navigation``,
    which serves the same URL.
    """
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


_use_app_navigation()

#: Plotly config for every chart: no logo, a PNG download button at 2x for slides
PLOTLY_CONFIG = {"displaylogo": False, "toImageButtonOptions": {"format": "png", "scale": 2}}


def show_chart(fig, key: str) -> None:
    """Render a Plotly figure full width with the shared config."""
    st.plotly_chart(fig, key=key, config=PLOTLY_CONFIG, width="stretch", theme=None)


def page_header(title: str, summary: str) -> None:
    """Title plus a one-paragraph summary of what the page shows."""
    st.title(title)
    st.markdown(summary)


def core_call(function, *args, **kwargs):
    """Call the core; on ValueError show the message and return None (page keeps going)."""
    try:
        return function(*args, **kwargs)
    except ValueError as error:
        st.error(f"{error}", icon=":material/error:")
        return None


# ---------------------------------------------------------------------------
# Links that reproduce a view: widgets use bind="query-params" (their key is the
# URL parameter); these helpers report values the link carried that were ignored.
# ---------------------------------------------------------------------------


def url_snapshot() -> dict[str, str]:
    """The query parameters as the link gave them, before the widgets check them."""
    return {name: st.query_params.get(name) for name in st.query_params}


def _same_value(raw: str, value) -> bool:
    if isinstance(value, bool):
        return raw.strip().lower() in (("true", "1", "yes") if value else ("false", "0", "no"))
    if isinstance(value, (int, float)):
        try:
            return float(raw) == float(value)
        except ValueError:
            return False
    return raw == str(value)


def report_ignored_url_values(snapshot: dict[str, str], keys) -> list[str]:
    """Warn about link values a widget refused (out of range, malformed): it fell back.

    Call after the widgets with ``bind="query-params"`` have been created.
    Returns the ``key=value`` texts that were ignored.
    """
    ignored = []
    for key in keys:
        if key not in snapshot:
            continue
        raw = snapshot[key]
        if st.query_params.get(key) == raw:
            continue  # accepted as given
        if key in st.session_state and _same_value(raw, st.session_state[key]):
            continue  # equal to the default: Streamlit drops it from the URL
        ignored.append(f"{key}={raw}")
    if ignored:
        st.warning("This link had values that are out of range or malformed, so the page "
                   f"used the default instead: {', '.join(ignored)}.",
                   icon=":material/link_off:")
    return ignored


def _url_text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def view_link(keys, extra: dict | None = None) -> str:
    """A link to this page that restores every control in ``keys`` (and ``extra``)."""
    from urllib.parse import urlencode, urlsplit

    here = urlsplit(st.context.url or "http://localhost:8501/")
    values = {key: _url_text(st.session_state[key]) for key in keys if key in st.session_state
              and st.session_state[key] is not None}
    values.update({name: _url_text(value) for name, value in (extra or {}).items()})
    if st.session_state.get("present"):
        values["present"] = "true"
    return f"{here.scheme}://{here.netloc}{here.path}?{urlencode(values)}"


def copy_link_control(key: str, keys, extra: dict | None = None) -> str:
    """A "Copy link to this view" popover: the link in a code box with a copy button."""
    link = view_link(keys, extra)
    with st.popover("Copy link to this view", icon=":material/link:", key=key):
        st.caption("This link opens the same data, settings and step in any browser.")
        st.code(link, language=None, wrap_lines=True)
    return link


# ---------------------------------------------------------------------------
# The player: a frozen run stepped in the browser (pages/player.js + a scene)
# ---------------------------------------------------------------------------

HERE = Path(__file__).resolve().parent
_PLAYERS: dict[str, object] = {}


def _player_sources(scene: str) -> tuple[str, str]:
    """The player's machinery and a scene, joined into one script; and the CSS.

    ``pages/{scene}_scene.js`` defines ``{scene}Scene(slots, data)``; the drawing
    helpers every scene uses are in ``pages/scene_common.js``.
    """
    script = "\n".join((HERE / name).read_text()
                       for name in ("player.js", "scene_common.js", f"{scene}_scene.js"))
    return script, (HERE / "player.css").read_text()


def player(scene: str, payload: dict, key: str):
    """Mount the player for ``scene`` with one run's ``payload`` (sent once per change).

    Every move (next mistake, back, scrub, Play, keys) then happens in the
    browser; the address bar gets ``step=`` when stepping pauses.
    """
    if scene not in _PLAYERS:
        script, css = _player_sources(scene)
        script += ("\nexport default function (component) {\n"
                   f"  return mountPlayer(component.parentElement, component.data, {scene}Scene);\n"
                   "}\n")
        _PLAYERS[scene] = st.components.v2.component(f"perceptron_player_{scene}", css=css,
                                                     js=script)
    return _PLAYERS[scene](data=payload, key=key)


def player_html(scene: str, payload: dict, title: str) -> str:
    """One self-contained HTML file that plays the run offline (no server, no CDN).

    It opens at step 0 and does not play by itself; keys and buttons work as on
    the page.
    """
    script, css = _player_sources(scene)
    data = json.dumps(payload, allow_nan=False).replace("</", "<\\/")
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title>\n<style>body {{margin: 1.5rem;}}\n{css}</style>"
            f"</head>\n<body><h1 style=\"font-family: system-ui\">{html.escape(title)}</h1>\n"
            f"<div id=\"player\"></div>\n<script>\n{script}\n"
            f"mountPlayer(document.getElementById(\"player\"), {data}, {scene}Scene);\n"
            "</script></body></html>\n")


# ---------------------------------------------------------------------------
# Presenter mode (?present=1): no sidebar, larger type, keyboard legend
# ---------------------------------------------------------------------------

PRESENTER_CSS = """
<style>
section[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"] {display: none;}
header[data-testid="stHeader"] {display: none;}
html, body, [data-testid="stAppViewContainer"] {font-size: 22px;}
[data-testid="stMainBlockContainer"] {max-width: 100%; padding: 0.4rem 2rem 2rem 2rem;}
h1 {font-size: 2.4rem !important;}
</style>
"""

HIDDEN_CSS = "<style>.st-key-{key} {{display: none;}}</style>"


def presenter_mode() -> bool:
    """Whether presenter mode is on (``?present=1`` or the toggle); applies its styles."""
    present = bool(st.session_state.get("present", False))
    if present:
        st.html(PRESENTER_CSS)
    return present
