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


def link_step(page: str, link_values: dict[str, str], last: int, notices: list | None = None,
              what: str = "step"):
    """The ``step=`` a link asks for, the first time ``page`` runs in a session.

    Returns the step when it is one of 0..``last``, else None (no step in the link, a
    later run, or a value that is not a step of this run: then a warning names it, or
    it is appended to ``notices`` for the page's one warning about the link).
    """
    if st.session_state.get(f"{page}_link_used"):
        return None
    st.session_state[f"{page}_link_used"] = True
    raw = link_values.get("step")
    if raw is None:
        return None
    if raw.isascii() and raw.isdigit() and int(raw) <= last:
        return int(raw)
    article = "an" if what[0] in "aeiou" else "a"
    if notices is not None:
        notices.append(f"step={shown_value(raw)} (not {article} {what} of this run, 0 to "
                       f"{last:,}; started at 0)")
    else:
        st.warning(f"This link's {as_code('step=' + shown_value(raw))} is not {article} {what} "
                   f"of this run (0 to {last:,}), so it starts at 0.", icon=":material/link_off:")
    return None


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


# ===========================================================================
# Robustness (issue 8): clean link values before any widget reads them, and
# one guard per page body. Added as a block; the functions above are untouched.
#
#     spec = {"n": int_param(2, 5000, 200), "margin": float_param(0.005, 0.95, 0.1),
#             "order": choice_param(["cyclic (...)", ...], "cyclic (...)"),
#             "values": text_param(200, "1, 2"), "bias": bool_param(True)}
#     notices = clean_query_params(spec)   # FIRST, before any widget with bind=...
#     with page_guard("train"):
#         ... widgets and the page body ...
#         report_link_notices(notices, snapshot, keys)  # one warning for everything
# ===========================================================================

import logging  # noqa: E402
import math  # noqa: E402
import re  # noqa: E402
import time  # noqa: E402
from contextlib import contextmanager  # noqa: E402
from dataclasses import dataclass  # noqa: E402

_LOG = logging.getLogger("perceptron_lab")

#: longest link value shown in a message (longer ones are cut with "...")
SHOWN_CHARS = 40
#: longest link value read at all (a number never needs more)
MAX_PARAM_CHARS = 400

_ASCII_INT = re.compile(r"[+-]?[0-9]+", re.ASCII)
_ASCII_FLOAT = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)
_PATH = re.compile(r"(?:[A-Za-z]:)?(?:[\\/][\w.\-]+){2,}")


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


def shown_value(value, limit: int = SHOWN_CHARS) -> str:
    """A value as a message shows it: at most ``limit`` characters, then "..."."""
    text = str(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def as_code(text: str) -> str:
    """Inline code for Markdown, so user text is shown as text (no bold, colour, KaTeX)."""
    text = text.replace("\n", " ").replace("\r", " ")
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{fence}{pad}{text}{pad}{fence}"


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~<>$:])")


def plain_text(text: str) -> str:
    """User or core text inside Markdown, shown as written: every Markdown, colour
    (``:red[...]``) and KaTeX (``$...$``) character escaped."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", str(text).replace("\n", " "))


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
            param.high is not None and value > param.high):
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
        notices.append(f"{key}={shown_value(raw)} ({reason}; used the default "
                       f"{shown_value(_number_text(param.default))})")
    return notices


def report_link_notices(notices: list[str], snapshot: dict[str, str], keys) -> list[str]:
    """One warning naming every ignored link value: those :func:`clean_query_params`
    dropped, and any a widget refused after it (compared with ``snapshot``, taken
    after cleaning). Values are shown as code, never as Markdown."""
    ignored = list(notices)
    for key in keys:
        if key not in snapshot:
            continue
        raw = snapshot[key]
        if st.query_params.get(key) == raw:
            continue
        if key in st.session_state and _same_value(raw, st.session_state[key]):
            continue
        shown = st.session_state.get(key)
        ignored.append(f"{key}={shown_value(raw)} (used {shown_value(_number_text(shown))})")
    if ignored:
        st.warning("This link had values that are out of range or malformed, so the page "
                   "ignored them: " + ", ".join(as_code(item) for item in ignored) + ".",
                   icon=":material/link_off:")
    return ignored


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
        st.error(f"This view could not be drawn: {as_code(_short_reason(error))}; the "
                 "previous settings are kept. Change a setting or reload the page.",
                 icon=":material/error:")


# ---------------------------------------------------------------------------
# CPU budget of one request (one script run)
# ---------------------------------------------------------------------------

#: seconds one script run may spend on a page's computations
REQUEST_CPU_SECONDS = 4.0


class RequestBudget:
    """Time this script run has spent since it was created.

    Wall-clock time, not this thread's CPU time: NumPy's BLAS threads do part of
    the work (``thread_time`` would miss it), and on a busy server a request then
    stops earlier, which is what the other sessions need.
    """

    def __init__(self, seconds: float = REQUEST_CPU_SECONDS):
        self.seconds = seconds
        self.start = time.perf_counter()

    @property
    def used(self) -> float:
        return time.perf_counter() - self.start

    @property
    def left(self) -> float:
        return self.seconds - self.used

    def exhausted(self) -> bool:
        return self.used >= self.seconds


# ===========================================================================
# Notation and named results (issue 9): one notation panel reachable from every
# page (app.py puts it beside the presenter toggle, so presenter mode keeps it),
# and one line of statement for each named result where a page uses it.
# ===========================================================================

from perceptron_core.theory import NAMED_RESULTS, NOTATION  # noqa: E402


def notation_panel() -> None:
    """A popover "Notation" listing every symbol the pages use, one line each."""
    with st.popover("Notation", icon=":material/function:", key="notation_panel",
                    help="What R, γ, γ₂, aᵢ, δ, w₀, T(A) and (1.4) stand for"):
        rows = "\n".join(f"| {symbol} | {meaning} |" for symbol, meaning in NOTATION.items())
        st.markdown("| symbol | meaning |\n| --- | --- |\n" + rows)
        st.caption("Numbering as in the lecture notes (notes-perceptron-yu).")


def named_result(name: str) -> str:
    """The one-line statement of a named result, for a ``help=`` tooltip."""
    return f"**{name}.** {NAMED_RESULTS[name]}"


def named_results(*names: str, label: str = "The results named here") -> None:
    """A short collapsed expander with one line per named result."""
    with st.expander(label, icon=":material/menu_book:"):
        st.markdown("\n".join(f"- {named_result(name)}" for name in names))
