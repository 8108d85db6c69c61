"""Streamlit helpers shared by the pages (not a page itself).

Pages stay thin: widgets, one cached call into the core, figures, layout.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager


def use_app_navigation() -> None:
    """Serve this app through app.py's ``st.navigation``, even on a first deep link.

    Streamlit has two ways to make a multipage app: ``st.navigation`` (app.py) and
    an older one for a folder named ``pages/`` beside the main script, which lists
    the folder's files in the sidebar. A server chooses the old way when its first
    session opens (``PagesManager.uses_pages_directory``, set because ``pages/``
    exists) and drops it as soon as app.py calls ``st.navigation``. But if the very first request of a
    fresh server is a link such as /train, the old way runs pages/train.py without
    ever running app.py. So: switch the old way off and rerun; the rerun goes
    through app.py, whose ``st.navigation`` serves the same URL. Once off, it stays
    off for every session of the process, and this does nothing.
    """
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


# Routing (see app.py, next to st.navigation): every page imports this module first, and
# a page opened by the old way never reaches app.py, so the switch has to be made here.
use_app_navigation()

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
# Linked controls: every control of a page lives in the URL (its key is the query
# parameter), declared once, where it is drawn, through one PageLink per page:
#
#     link = PageLink(step=int_param(0, 10**9, 0))  # link values that are not widgets
#     n = link.control(st.number_input, "points N", 2, 300, 40, key="n")
#     order = link.control(st.selectbox, "order", list(ORDERS), format_func=ORDERS.get,
#                          key="order")
#     ...                           # the page body
#     link.report()                 # one warning naming every ignored link value
#     link.copy_control("my_link")  # "Copy link to this view"
#
# ``control`` calls the Streamlit widget with ``bind="query-params"``, reads the link
# rule (range, choices, length: a LinkParam, see below) from the widget's own
# arguments, drops a value the widget cannot take before the widget reads it, and
# records how the value is written in a link: a select widget keeps its option's
# *label* (``format_func``) in the URL, so the copied link writes the label and a
# link naming the default by its label is not called ignored.
# ---------------------------------------------------------------------------

import contextlib  # noqa: E402
import inspect  # noqa: E402
from collections.abc import Mapping  # noqa: E402

#: longest text a text box takes from a link, unless it has ``max_chars``
LINK_TEXT_CHARS = 200
#: widgets whose link value is an option's label (``format_func``), not the option
LABELLED_WIDGETS = ("selectbox", "select_slider", "radio")


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


def _url_text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def view_link(keys, extra: dict | None = None) -> str:
    """A link to this page that restores every control in ``keys`` (and ``extra``).

    ``keys``: widget keys, or a mapping key -> how the value is written (a select
    widget's ``format_func``; None for the value itself).
    """
    from urllib.parse import urlencode, urlsplit

    formats = keys if isinstance(keys, Mapping) else dict.fromkeys(keys)
    here = urlsplit(st.context.url or "http://localhost:8501/")
    values = {}
    for key, write in formats.items():
        value = st.session_state.get(key)
        if isinstance(value, (list, tuple)):  # a multi-select: the key once per chosen item
            values[key] = [(write or _url_text)(item) for item in value]
        elif value is not None:
            values[key] = (write or _url_text)(value)
    values.update({name: _url_text(value) for name, value in (extra or {}).items()})
    if st.session_state.get("present"):
        values["present"] = "true"
    return f"{here.scheme}://{here.netloc}{here.path}?{urlencode(values, doseq=True)}"


def copy_link_control(key: str, keys, extra: dict | None = None) -> str:
    """A "Copy link to this view" popover: the link in a code box with a copy button."""
    link = view_link(keys, extra)
    with st.popover("Copy link to this view", icon=":material/link:", key=key):
        st.caption("This link opens the same data, settings and step in any browser.")
        st.code(link, language=None, wrap_lines=True)
    return link


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
        whole = all(v is None or (isinstance(v, int) and not isinstance(v, bool))
                    for v in (low, high, default, given.get("step")))
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
    """

    def __init__(self, **declared):
        self.declared = declared
        self.formats: dict = {}  # key -> how its value is written (None: the value itself)
        self.given: dict[str, str] = {}  # key -> its link value, cleaned, before the widget
        self._declared_notices = clean_query_params(declared)
        self._widget_notices: list[str] = []
        self._later_notices: list[str] = []
        self.values = url_snapshot()

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
        return widget(*args, key=key, bind="query-params", **kwargs)

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


def player_start(page: str, identity: str, link_values: dict[str, str], last: int,
                 notices: list | None = None, what: str = "step") -> tuple[int | None, str]:
    """Where the player of ``page`` opens and how fast it plays: ``(start_step, speed)``.

    A new run (``identity`` changed) opens at the link's ``step=`` on the page's first
    run in the session (see :func:`link_step`), else at 0; the speed is the link's
    ``speed=`` (medium if none). Both are kept in the session until the run changes.
    """
    from perceptron_core.viz.player import SPEEDS

    if st.session_state.get(f"{page}_run") != identity:
        st.session_state[f"{page}_run"] = identity
        st.session_state[f"{page}_start"] = link_step(page, link_values, last, notices, what)
        speed = st.session_state.get(f"{page}_speed") or link_values.get("speed")
        st.session_state[f"{page}_speed"] = speed if speed in SPEEDS else "medium"
    return st.session_state[f"{page}_start"], st.session_state[f"{page}_speed"]


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


def presenting() -> bool:
    """Whether the page is on the presenter stage (the toggle or ``?present=1``)."""
    return bool(st.session_state.get("present"))


def prose(text: str) -> None:
    """Explanatory Markdown, left out on the presenter stage (the lecturer says it)."""
    if not presenting():
        st.markdown(text)


def about_this_page(summary: str) -> None:
    """On the presenter stage, the summary the header left out, in a closed expander."""
    if presenting():
        with st.expander("About this page"):
            st.markdown(summary)


# ---------------------------------------------------------------------------
# Check your understanding: one quiz helper for every page. Answers are not
# controls of the view: they stay out of the link.
# ---------------------------------------------------------------------------

from dataclasses import dataclass  # noqa: E402


@dataclass(frozen=True)
class QuizQuestion:
    """One multiple-choice question; ``why`` is shown as soon as any option is chosen."""

    key: str
    question: str
    options: tuple[str, ...]
    answer: str
    why: str


def quiz(questions, caption: str = "Pick an answer: the explanation appears right away. "
                                   "Answers are not part of the link to this view.") -> None:
    """A "Check your understanding" section: each question numbered in a bordered box;
    a right answer gets "Right." and the reasoning, a wrong one the right answer and
    the reasoning."""
    st.header("Check your understanding")
    st.caption(caption)
    for number, item in enumerate(questions, start=1):
        with st.container(border=True):
            chosen = st.radio(f"**{number}.** {item.question}", item.options, index=None,
                              key=item.key)
            if chosen == item.answer:
                st.success(f"**Right.** {item.why}", icon=":material/check_circle:")
            elif chosen is not None:
                st.info(f"**Not quite: {item.answer[:1].lower()}{item.answer[1:]}.** "
                        f"{item.why}", icon=":material/lightbulb:")


# ===========================================================================
# Robustness (issue 8): clean link values before any widget reads them, and
# one guard per page body. PageLink (Linked controls, above) derives each
# control's LinkParam from the widget call and runs these for it; a page that
# has not moved to PageLink yet spells them out:
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
    after cleaning). Values are shown as code, never as Markdown. ``keys``: widget keys,
    or a mapping key -> how its value is written in a link (see :func:`view_link`)."""
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


# Heavy computations run in worker processes, not in the server process. Every
# session's script runs in the server process, and pure NumPy/Python work holds its
# interpreter lock: one student's sweep would slow every other student's page. In a
# worker at lower priority it competes only for the CPU, which the operating system
# gives to the server first; the session's script just waits for the result.
#
#     part = run_in_worker(margin_sweep, [0.1], [0], n=5000, dim=100,
#                          advice="Lower n or d.")  # ComputationStopped if over its time

import os  # noqa: E402
import pickle  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402
from multiprocessing.connection import Connection  # noqa: E402

#: niceness added to each worker process (interactive sessions get the CPU first)
WORKER_NICENESS = 10
#: most computations running at once, one per core; more requests wait for a worker
MAX_WORKERS = max(1, min(2, os.cpu_count() or 1))
#: CPU seconds one computation may use in a worker, unless the caller says otherwise
WORKER_SECONDS = REQUEST_CPU_SECONDS + 1.0
#: longest a student waits for one computation (a niced worker is slow on a busy server)
WORKER_WAIT_SECONDS = 30.0
#: a worker process is replaced after this many computations (its memory stays bounded)
WORKER_TASKS = 500
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

#: what a worker process runs (``python -c``): a fresh interpreter that imports the
#: core, lowers its priority, then computes ``function(*args, **kwargs)`` for each
#: pickled task it receives and sends back ``(True, result)`` or ``(False, error)``
_WORKER_LOOP = """
import os, pickle, sys
from multiprocessing.connection import Connection
tasks = Connection(int(sys.argv[1]), writable=False)
results = Connection(int(sys.argv[2]), readable=False)
sys.path[:0] = [p for p in sys.argv[4:] if p not in sys.path]
if hasattr(os, "nice"):
    os.nice(int(sys.argv[3]))
import perceptron_core  # noqa: F401  (imported before the first task)
while True:
    try:
        task = tasks.recv_bytes()
    except (EOFError, OSError):
        break  # the server closed the pipe or exited
    try:
        function, args, kwargs = pickle.loads(task)
        reply = (True, function(*args, **kwargs))
    except Exception as error:
        reply = (False, error)
    try:
        results.send_bytes(pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL))
    except Exception as error:  # an unpicklable result or error
        results.send_bytes(pickle.dumps((False, RuntimeError(
            f"{type(error).__name__}: {error}"))))
"""


class ComputationStopped(ValueError):
    """:func:`run_in_worker` stopped a computation that ran over its time, or could
    not start it because every worker stayed busy, or its worker ended. A ValueError,
    so ``core_call`` shows the message like any other refusal."""


class _OverCPU(Exception):
    """The computation used more CPU time than it may."""


class _Worker:
    """One worker process and the two pipes to it (tasks in, results out)."""

    def __init__(self):
        task_read, task_write = os.pipe()
        result_read, result_write = os.pipe()
        paths = [path for path in sys.path if path]
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-c", _WORKER_LOOP, str(task_read), str(result_write),
                 str(WORKER_NICENESS), *paths],
                pass_fds=(task_read, result_write), stdin=subprocess.DEVNULL)
        finally:
            os.close(task_read)
            os.close(result_write)
        self.tasks = Connection(task_write, readable=False)
        self.results = Connection(result_read, writable=False)
        self.done = 0

    def cpu_seconds(self) -> float | None:
        """CPU time the process has used (Linux /proc); None where it cannot be read."""
        try:
            with open(f"/proc/{self.process.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS
        except (OSError, IndexError, ValueError):
            return None

    def call(self, function, args: tuple, kwargs: dict, cpu_seconds: float,
             deadline: float) -> tuple:
        """``(True, result)`` or ``(False, the function's error)``. Raises _OverCPU once
        the computation has used ``cpu_seconds`` of CPU (of wall-clock time where CPU
        time cannot be read), TimeoutError at ``deadline`` (time.monotonic), EOFError
        or OSError if the process ended."""
        started, cpu_before = time.monotonic(), self.cpu_seconds()
        self.tasks.send_bytes(pickle.dumps((function, args, kwargs),
                                           protocol=pickle.HIGHEST_PROTOCOL))
        while not self.results.poll(max(0.0, min(0.05, deadline - time.monotonic()))):
            cpu_now = self.cpu_seconds()
            used = (cpu_now - cpu_before if cpu_now is not None and cpu_before is not None
                    else time.monotonic() - started)
            if used > cpu_seconds:
                raise _OverCPU
            if time.monotonic() >= deadline:
                raise TimeoutError
        reply = pickle.loads(self.results.recv_bytes())
        self.done += 1
        return reply

    def stop(self) -> None:
        """End the process at once (a computation in it is lost) and close the pipes."""
        self.process.kill()
        self.process.wait()
        self.tasks.close()
        self.results.close()


class _Workers:
    """The worker processes of this server process, shared by every session.

    A worker is a fresh Python process (not a fork of the server), so it holds no
    session, no Streamlit and no student data: a call sends the function (by name)
    and its arguments, and gets the result back. A computation over its time is
    stopped by ending its own worker only; the next call starts a new one.
    """

    def __init__(self, limit: int = MAX_WORKERS):
        self._lock = threading.Lock()
        self._idle: list[_Worker] = []
        self._slots = threading.BoundedSemaphore(limit)

    def run(self, function, args: tuple, kwargs: dict, seconds: float, wait: float,
            advice: str):
        deadline = time.monotonic() + wait
        if not self._slots.acquire(timeout=wait):
            raise ComputationStopped(
                f"The server is busy with other long computations, so nothing was computed "
                f"in {wait:.0f} s. Try again in a moment.")
        try:
            with self._lock:
                worker = self._idle.pop() if self._idle else None
            if worker is None:
                worker = _Worker()
            try:
                ok, value = worker.call(function, args, kwargs, seconds, deadline)
            except (_OverCPU, TimeoutError, EOFError, OSError) as error:
                worker.stop()  # this computation only; the other workers go on
                name = getattr(function, "__name__", "computation")
                if isinstance(error, _OverCPU):
                    _LOG.warning("stopped %s after %.1f s of CPU", name, seconds)
                    reason = (f"This computation was stopped after {seconds:.0f} s of "
                              "computing, the most one request may use on this shared "
                              "server.")
                elif isinstance(error, TimeoutError):
                    _LOG.warning("stopped %s after waiting %.1f s", name, wait)
                    reason = (f"This computation was stopped: the server is too busy to "
                              f"finish it within {wait:.0f} s. Try again in a moment, or:")
                else:
                    _LOG.error("the worker computing %s ended: %r", name, error)
                    reason = "The process computing this ended unexpectedly."
                raise ComputationStopped(f"{reason} {advice}".strip()) from None
            except BaseException:
                worker.stop()  # not picklable, or interrupted: a reply may still come
                raise
            self._give_back(worker)
            if not ok:
                raise value  # the function's own error, e.g. the core's ValueError
            return value
        finally:
            self._slots.release()

    def _give_back(self, worker: _Worker) -> None:
        if worker.done >= WORKER_TASKS:
            worker.stop()
            return
        with self._lock:
            self._idle.append(worker)

    def pids(self) -> list[int]:
        """Process ids of the idle workers (for tests and benchmarks)."""
        with self._lock:
            return [worker.process.pid for worker in self._idle]


_WORKERS = _Workers()


def run_in_worker(function, *args, seconds: float | None = None, wait: float | None = None,
                  advice: str = "Use smaller inputs.", **kwargs):
    """``function(*args, **kwargs)`` computed in a worker process at lower priority.

    Returns what the function returns and raises what it raises. ``function`` must be
    importable by name (a core function, not a lambda or a page's function), and its
    arguments and result picklable. A computation that has used ``seconds`` of CPU
    (default ``WORKER_SECONDS``), or is not finished ``wait`` seconds after the call
    (default ``WORKER_WAIT_SECONDS``, waiting for a free worker included), is stopped,
    and :class:`ComputationStopped`, a ValueError, says so and adds ``advice`` (what
    the student can lower).
    """
    seconds = WORKER_SECONDS if seconds is None else float(seconds)
    wait = WORKER_WAIT_SECONDS if wait is None else float(wait)
    return _WORKERS.run(function, args, kwargs, seconds, wait, advice)


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


# ===========================================================================
# Own data (issues 11, 13): a CSV file, or points drawn on a chart, shared by
# /train, /kernels and /multiclass. Pages of two classes label them -1/+1; a page
# of k classes labels them 0..k-1. Session keys start with the page's prefix, so
# each page keeps its own data; drawn points live in the link (points=x,y,label;...).
#
#     OWN = OwnDataSpec(prefix="kernels_", max_rows=400)           # two classes
#     restore_drawn_points(OWN, link_values)     # once per session, from points=
#     data = own_data(OWN, "upload")             # OwnData, or None (a message says why)
# ===========================================================================

from functools import partial  # noqa: E402

import numpy as np  # noqa: E402
from streamlit.runtime.uploaded_file_manager import DeletedFile  # noqa: E402

from perceptron_core._checks import check_drawable_scale  # noqa: E402
from perceptron_core.io import parse_class_csv, parse_labelled_csv  # noqa: E402
from perceptron_core.viz import multiclass as _multiclass_viz  # noqa: E402
from perceptron_core.viz.train import axis_limit as _axis_limit  # noqa: E402
from perceptron_core.viz.train import draw_figure as _binary_draw_figure  # noqa: E402

#: the labels of a page of two classes, in the order the class picker offers them
BINARY_LABELS = (1, -1)
#: drawn points lie in [-DRAW_REACH, DRAW_REACH]²: the board's clickable grid (a point
#: every DRAW_SPACING) then has at most (2·1.15·DRAW_REACH/DRAW_SPACING)² = 8 500 cells
DRAW_REACH = 2.0
DRAW_SPACING = 0.05  # the grid of perceptron_core.viz.train.click_grid


@dataclass(frozen=True)
class OwnDataSpec:
    """What a page accepts as the student's own data.

    ``prefix`` starts every session key ("" on /train, whose keys came first);
    ``class_labels`` the labels a point may have, (1, -1) or (0, ..., k-1);
    ``min_classes`` the fewest classes (1 on /train, 2 elsewhere); ``max_rows`` the
    most rows of a file and ``max_points`` the most drawn points (a link carries them);
    ``share_hint`` how to share uploaded data (links do not carry files).
    """

    prefix: str
    class_labels: tuple = BINARY_LABELS
    min_classes: int = 2
    max_rows: int = 20_000
    max_points: int = 2_000
    share_hint: str = "Links do not carry uploaded files: share the file itself."

    @property
    def binary(self) -> bool:
        return set(self.class_labels) == {-1, 1}

    def key(self, name: str) -> str:
        return f"{self.prefix}{name}"

    def class_name(self, label) -> str:
        """How the class picker and messages write a class: +1, -1 or "2 ◆"."""
        if self.binary:
            return f"{label:+d}"
        glyphs = _multiclass_viz.CLASS_GLYPHS
        return f"{label} {glyphs[label]}" if 0 <= label < len(glyphs) else str(label)


@dataclass(frozen=True)
class OwnData:
    """The student's data: X (n, 2), labels y (n,) from the spec's class_labels, and a
    label for titles and exports ("uploaded data.csv", "12 drawn points"; user text)."""

    X: np.ndarray
    y: np.ndarray
    label: str


def own_data(spec: OwnDataSpec, source: str) -> OwnData | None:
    """The uploaded data (``source == "upload"``) or the drawn points (else)."""
    return uploaded_data(spec) if source == "upload" else drawn_data(spec)


# --- upload: a whole file or nothing ----------------------------------------


def _class_values(classes: tuple, allowed: tuple) -> list:
    """Labels for a file's k classes: the file's own when all are whole numbers the page
    takes (classes 1, 2, 3 stay 1, 2, 3), else 0..k-1 in sorted order."""
    try:
        numbers = [float(text) for text in classes]
    except ValueError:
        numbers = []
    if numbers and all(v.is_integer() and int(v) in allowed for v in numbers):
        return [int(v) for v in numbers]
    return list(allowed[:len(classes)])


def read_own_csv(spec: OwnDataSpec, content) -> tuple[np.ndarray, np.ndarray, tuple]:
    """(X, y, mapping) of a file, mapping = (label as written, class) pairs; or a
    ValueError that says what to fix."""
    if spec.binary:
        loaded = parse_labelled_csv(content, max_rows=spec.max_rows,
                                    min_classes=spec.min_classes)
        y, mapping = np.asarray(loaded.y), loaded.label_mapping
    else:
        loaded = parse_class_csv(content, max_rows=spec.max_rows,
                                 min_classes=spec.min_classes,
                                 max_classes=len(spec.class_labels))
        values = _class_values(loaded.classes, spec.class_labels)
        y, mapping = np.asarray(values)[loaded.codes], tuple(zip(loaded.classes, values))
    if loaded.dim != 2:  # the pages draw the plane
        raise ValueError(f"it has {loaded.dim} feature column{'s' * (loaded.dim != 1)}; "
                         "this page draws the plane, so it needs exactly 2.")
    return np.asarray(loaded.X), y, mapping


def _upload_key(spec: OwnDataSpec) -> str:
    generation = st.session_state.get(spec.key("upload_generation"), 0)
    return spec.key("upload") + (f"_{generation}" if generation else "")


def _load_upload(spec: OwnDataSpec, key: str) -> None:
    """The uploader's callback: accept the file whole, or keep the previous data."""
    uploaded = st.session_state.get(key)
    if uploaded is None:  # the file was taken out of the uploader: its error goes too
        st.session_state[spec.key("upload_error")] = None
    if uploaded is None or isinstance(uploaded, DeletedFile):
        return
    try:
        X, y, mapping = read_own_csv(spec, uploaded.getvalue())
    except ValueError as error:
        st.session_state[spec.key("upload_error")] = (uploaded.name, str(error))
        return
    st.session_state[spec.key("upload_error")] = None
    st.session_state[spec.key("upload_lost")] = False
    st.session_state[spec.key("uploaded")] = {"X": X, "y": y, "name": uploaded.name,
                                              "mapping": mapping}


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
        labels = ("Labels: -1/+1, 0/1 or any two values" if spec.min_classes > 1 else
                  "Labels: -1/+1, 0/1 or any two values (one class is allowed)")
    else:
        k = len(spec.class_labels)
        label = (f"CSV with two numeric feature columns and a class label column (last), "
                 f"{spec.min_classes} to {k} classes")
        labels = (f"Labels: {spec.min_classes} to {k} distinct values, numbers or text; "
                  "whole numbers the page uses keep their value, others are numbered "
                  "0, 1, ... in sorted order")
    return label, (f"{labels}; the mapping is shown. Row 1 is a header only when none of "
                   "its cells is a number. Comma, semicolon or tab separated, UTF-8, at "
                   f"most 5 MB and {spec.max_rows:,} rows.")


def _mapping_text(spec: OwnDataSpec, mapping: tuple) -> str:
    return ", ".join(f"{as_code(shown_value(text))} → "
                     f"{spec.class_name(label) if spec.binary else 'class ' + str(label)}"
                     for text, label in mapping)


def uploaded_data(spec: OwnDataSpec) -> OwnData | None:
    """The file uploader and what it holds: the last good file, its errors, a restart."""
    key = _upload_key(spec)
    label, help_text = _upload_text(spec)
    st.file_uploader(label, type=["csv", "txt"], key=key, help=help_text,
                     on_change=_load_upload, args=(spec, key))
    _replace_lost_upload(spec, key)
    uploaded = st.session_state.get(spec.key("uploaded"))
    if st.session_state.get(spec.key("upload_lost")) and uploaded is None:
        st.warning("The server restarted since you uploaded your file, and the file was lost "
                   "with it: upload the file again.", icon=":material/restart_alt:")
    if st.session_state.get(spec.key("upload_error")):
        name, message = st.session_state[spec.key("upload_error")]
        kept = "The previous data are kept." if uploaded is not None else "Nothing was loaded."
        st.error(f"{as_code(shown_value(name))} could not be used: {plain_text(message)} "
                 f"{kept}", icon=":material/error:")
    if uploaded is None:
        if not st.session_state.get(spec.key("upload_lost")):
            st.info(f"Upload a CSV to use your own data (at most 5 MB and {spec.max_rows:,} "
                    f"rows; the **?** beside the uploader gives the format). {spec.share_hint}")
        return None
    st.caption(f"{as_code(shown_value(uploaded['name']))}: {len(uploaded['y'])} rows, "
               f"2 features; labels {_mapping_text(spec, uploaded['mapping'])}")
    return OwnData(uploaded["X"], uploaded["y"], f"uploaded {uploaded['name']}")


# --- drawing: click to add a point of the chosen class, click a point to remove it ---


def points_from_link(spec: OwnDataSpec, text: str) -> list | None:
    """Drawn points from a link, 'x,y,label;x,y,label' (None if malformed, too many,
    a label the page does not take, off the board or not of a drawable size)."""
    try:
        rows = [[float(v) for v in item.split(",")] for item in text.split(";") if item]
        if rows and len(rows) <= spec.max_points and all(
                len(r) == 3 and r[2] in spec.class_labels and all(map(math.isfinite, r))
                and abs(r[0]) <= DRAW_REACH and abs(r[1]) <= DRAW_REACH for r in rows):
            check_drawable_scale(np.array(rows)[:, :2], "the drawn points")
            return [[r[0], r[1], int(r[2])] for r in rows]
    except ValueError:
        pass
    return None


def restore_drawn_points(spec: OwnDataSpec, link_values: dict) -> None:
    """Drawn points come from the link once per session (then from the clicks)."""
    key = spec.key("drawn_points")
    if key in st.session_state:
        return
    raw = link_values.get("points", "")
    restored = points_from_link(spec, raw)
    st.session_state[key] = restored or []
    if raw and restored is None:
        labels = "±1" if spec.binary else "a class from " + ", ".join(map(str,
                                                                         spec.class_labels))
        st.warning(f"This link's points value could not be read (at most "
                   f"{spec.max_points:,} points x,y,{labels} with x and y between "
                   f"-{DRAW_REACH:g} and {DRAW_REACH:g}), so it was ignored: "
                   f"{as_code('points=' + shown_value(raw))}", icon=":material/link_off:")


def edit_drawn_points(points: list, clicked: dict, label: int, max_points: int) -> list:
    """The drawn points after one click at ``clicked`` (Plotly's selected point).

    On a point: the points without it. On the grid (curve 0): in a grid cell that
    already holds a point, that point goes (Plotly may report the grid point under a
    drawn point, since drawn points sit on the grid); in an empty cell of the board,
    a new point of ``label`` (while fewer than ``max_points``).
    """
    x, y = clicked["x"], clicked["y"]
    tolerance = 1e-9 if clicked.get("curve_number", 0) else DRAW_SPACING / 2
    kept = [p for p in points if not (abs(p[0] - x) < tolerance and abs(p[1] - y) < tolerance)]
    if len(kept) < len(points) or clicked.get("curve_number", 0):
        return kept
    if len(points) >= max_points or max(abs(x), abs(y)) > DRAW_REACH:
        return points
    return points + [[round(x, 3), round(y, 3), label]]


def _on_draw_click(spec: OwnDataSpec) -> None:
    selected = st.session_state[spec.key("draw_chart")].selection.points
    if selected:
        key = spec.key("drawn_points")
        st.session_state[key] = edit_drawn_points(
            st.session_state[key], selected[0], st.session_state[spec.key("draw_class")],
            spec.max_points)


def _undo_point(key: str) -> None:
    st.session_state[key] = st.session_state[key][:-1]


def _draw_hint(spec: OwnDataSpec, y: np.ndarray) -> str | None:
    """What to draw next when the points are too few for the page (None: enough)."""
    present = sorted(set(y.tolist()))
    if y.size and len(present) >= spec.min_classes:
        return None
    if spec.min_classes == 1:
        return ("Click on the chart to add a point. One point is enough to train (the "
                "slides' first quiz); add points of both classes to see a separating line.")
    wanted = ("points of both classes" if spec.binary else
              f"points of at least {spec.min_classes} classes (up to "
              f"{len(spec.class_labels)})")
    if not present:
        return f"Click on the chart to add {wanted}: choose the class of new points above."
    return (f"Every point is of class {spec.class_name(present[0])}: add {wanted}; choose "
            "another class of new points above.")


def _points_to_link(points: list) -> None:
    encoded = ";".join(f"{a:g},{b:g},{c:d}" for a, b, c in points)
    if st.query_params.get("points") != (encoded or None):
        if encoded:
            st.query_params["points"] = encoded
        else:
            st.query_params.pop("points", None)


def drawn_data(spec: OwnDataSpec, height: int = 460) -> OwnData | None:
    """The drawing board beside its controls (class picker, Undo, Clear, what to do
    next); the points go into the link."""
    key = spec.key("drawn_points")
    points = np.array(st.session_state[key], dtype=float).reshape(-1, 3)
    X, y = points[:, :2], points[:, 2].astype(int)
    board, side = st.columns([3, 2])
    with side:
        with st.container(horizontal=True, key=spec.key("draw_controls")):
            st.segmented_control("class of new points", list(spec.class_labels),
                                 format_func=spec.class_name, default=spec.class_labels[0],
                                 required=True, key=spec.key("draw_class"))
            st.button("Undo last point", key=spec.key("draw_undo"), icon=":material/undo:",
                      on_click=_undo_point, args=(key,))
            st.button("Clear", key=spec.key("draw_clear"), icon=":material/delete:",
                      on_click=lambda: st.session_state.update({key: []}))
        full = (f" (the most a page takes: {spec.max_points:,})" if len(y) >= spec.max_points
                else "")
        st.caption(f"{len(y)} point{'s' * (len(y) != 1)} drawn{full}. Click an empty spot to "
                   "add a point of the chosen class; click a point to remove it. Points lie "
                   f"within ±{DRAW_REACH:g}.")
        hint = _draw_hint(spec, y)
        if hint:
            st.info(hint)
    limit = _axis_limit(X, 1.0)
    figure = (_binary_draw_figure(X, y, limit=limit, height=height) if spec.binary else
              _multiclass_viz.draw_figure(X, y, spec.class_labels, limit=limit, height=height))
    with board:
        st.plotly_chart(figure, key=spec.key("draw_chart"),
                        on_select=partial(_on_draw_click, spec), selection_mode="points",
                        theme=None, config={"displaylogo": False})
    _points_to_link(st.session_state[key])
    return None if hint else OwnData(X, y, f"{len(y)} drawn point{'s' * (len(y) != 1)}")
