"""The player: a frozen run stepped in the browser (pages/player/player.js + a scene), on the
page or in one offline HTML file, and where it opens (a link's ``step=`` and ``speed=``).
"""

from __future__ import annotations

import html
import json
from pathlib import Path

import streamlit as st

from pages.common.browser_scripts import compact_script
from pages.common.shown_text import as_code, shown_value
from pages.player.predict_link import offline_predict_spec, predict_spec

#: the folder of the player's scripts and styles (pages/player/)
HERE = Path(__file__).resolve().parent
_PLAYERS: dict[str, object] = {}
#: the player's machinery and the drawing helpers every scene uses, in the order joined
PLAYER_SCRIPTS = (
    "player.js",
    "player_frame.js",
    "player_moves.js",
    "player_access.js",
    "player_predict.js",
    "scene_common.js",
    "scene_numbers.js",
    "scene_charts.js",
    "scene_plane.js",
    "scene_rings.js",
)
#: a scene's files after its ``{scene}_scene.js``: more drawing, then its predictions
#: (``predict_{scene}.js`` defines ``{scene}Questions``, see player_predict.js)
SCENE_EXTRA_SCRIPTS: dict[str, tuple[str, ...]] = {
    "train": ("predict_train.js",),
    "kernels": ("kernels_field.js", "predict_kernels.js"),
    "generalisation": ("predict_generalisation.js",),
    "relaxation": ("predict_relaxation.js",),
}
#: the player's styles, joined in order
PLAYER_STYLES = ("player.css", "player_predict.css")


def scene_scripts(scene: str) -> tuple[str, ...]:
    """The files of pages/player/ joined into the player for ``scene``, in order."""
    return PLAYER_SCRIPTS + (f"{scene}_scene.js",) + SCENE_EXTRA_SCRIPTS.get(scene, ())


def _player_sources(scene: str) -> tuple[str, str]:
    """The player's machinery and a scene, joined into one script; and the CSS.

    ``pages/player/{scene}_scene.js`` defines ``{scene}Scene(slots, data)``; the drawing
    helpers every scene uses are in ``pages/player/scene_common.js``, ``scene_charts.js`` and
    ``scene_plane.js``.
    """
    script = "\n".join((HERE / name).read_text() for name in scene_scripts(scene))
    return script, "\n".join((HERE / name).read_text() for name in PLAYER_STYLES)


def player(scene: str, payload: dict, key: str, link=None):
    """Mount the player for ``scene`` with one run's ``payload`` (sent once per change).

    Every move (next mistake, back, scrub, Play, keys) then happens in the
    browser; the address bar gets ``step=`` when stepping pauses. ``link``: the page's
    PageLink, whose ``predict=`` (and waiting question) start Predict first.
    """
    if scene not in _PLAYERS:
        script, css = _player_sources(scene)
        script += (
            "\nexport default function (component) {\n"
            f"  return mountPlayer(component.parentElement, component.data, {scene}Scene, "
            f"{scene}Questions);\n"
            "}\n"
        )
        _PLAYERS[scene] = st.components.v2.component(
            f"perceptron_player_{scene}", css=css, js=compact_script(script)
        )
    # sent as one JSON string: Streamlit copies a string, where a dict is walked for
    # dataframes and serialised twice more (27 ms a run for /kernels at n = 2 000, 4 ms
    # this way: the server's time per rerun)
    predict = predict_spec(scene, link.values if link is not None else {}, payload["player"])
    payload = {**payload, "player": {**payload["player"], "predict": predict}}
    return _PLAYERS[scene](data=json.dumps(payload), key=key)


def link_step(
    page: str,
    link_values: dict[str, str],
    last: int,
    notices: list | None = None,
    what: str = "step",
):
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
        notices.append(
            f"step={shown_value(raw)} (not {article} {what} of this run, 0 to "
            f"{last:,}; started at 0)"
        )
    else:
        st.warning(
            f"This link's {as_code('step=' + shown_value(raw))} is not {article} {what} "
            f"of this run (0 to {last:,}), so it starts at 0.",
            icon=":material/link_off:",
        )
    return None


def player_start(
    page: str,
    identity: str,
    link_values: dict[str, str],
    last: int,
    notices: list | None = None,
    what: str = "step",
) -> tuple[int | None, str]:
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
    the page, and so does Predict first (its switch starts off).
    """
    script, css = _player_sources(scene)
    payload = {**payload, "player": {**payload["player"], "predict": offline_predict_spec(scene)}}
    data = json.dumps(payload, allow_nan=False).replace("</", "<\\/")
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title>\n<style>body {{margin: 1.5rem;}}\n{css}</style>"
        f'</head>\n<body><h1 style="font-family: system-ui">{html.escape(title)}</h1>\n'
        f'<div id="player"></div>\n<script>\n{script}\n'
        f'mountPlayer(document.getElementById("player"), {data}, {scene}Scene, '
        f"{scene}Questions);\n"
        "</script></body></html>\n"
    )
