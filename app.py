"""Perceptron Lab: entry point. Registers every page explicitly.

`streamlit run app.py` finds the st.App below (Streamlit's app discovery reads this file)
and serves it with uvicorn, which imports this file as the module `app`: every HTTP
response passes through web_security.SecurityHeaders (security headers, no
/_stcore/metrics); /class-api/... are the live class's JSON routes (classroom/routes.py).
Streamlit runs the file as __main__ in every session: the pages."""

from pathlib import Path

import streamlit as st

if __name__ != "__main__":  # imported by the server: the ASGI app, no page
    import importlib
    from contextlib import asynccontextmanager

    from starlette.middleware import Middleware

    from classroom.routes import ROUTES as CLASS_ROUTES
    from web_security import SecurityHeaders

    @asynccontextmanager
    async def pages_imported(_app):
        """Import every module of the pages' packages (pages/<package>/) and of the core
        before the server takes its first request: sessions that start together on a fresh
        server would otherwise import them at once, and some found one half imported.
        Then what the server process needs set once (pages/common/server.py): uploads
        bounded per session, the imports frozen out of the garbage collector's walks."""
        root = Path(__file__).resolve().parent
        for source in sorted(
            [*root.glob("pages/*/**/*.py"), *root.glob("perceptron_core/**/*.py")]
        ):
            module = ".".join(source.relative_to(root).with_suffix("").parts)
            importlib.import_module(module.removesuffix(".__init__"))
        from pages.common.server import configure_server

        configure_server()
        yield

    # the live class's JSON routes (/class-api/...): the phones poll and answer through them
    app = st.App(
        __file__,
        routes=CLASS_ROUTES,
        middleware=[Middleware(SecurityHeaders)],
        lifespan=pages_imported,
    )
else:  # a session's script run
    from pages.common.accessibility import accessibility_styles, on_a_phone, page_access, page_title
    from pages.common.notation import notation_panel
    from pages.common.page_table import PAGE_TABLE, page_path
    from pages.common.presenter import presenter_mode
    from pages.common.reconnect import reconnect_watch

    #: a local file: a material-icon favicon would be fetched from a font CDN (the app works
    #: offline)
    ICON = Path(__file__).resolve().parent / "assets" / "favicon.png"

    # Presenter mode: ?present=1 in a link, or the toggle at the top of every page
    if "present" not in st.session_state:
        st.session_state.present = st.query_params.get("present", "").lower() in (
            "1",
            "true",
            "yes",
        )

    st.set_page_config(
        page_title="Perceptron Lab",
        page_icon=str(ICON),
        layout="wide",
        # closed at load on a phone, upright or on its side, and below 768 px
        # ("auto"); open on a wider screen. The student opens it for settings.
        initial_sidebar_state=("collapsed" if st.session_state.present or on_a_phone() else "auto"),
    )

    def _sync_present_to_url():
        if st.session_state.present:
            st.query_params["present"] = "1"
        else:
            st.query_params.pop("present", None)

    with st.container(horizontal=True, horizontal_alignment="right", key="presenter_bar"):
        st.toggle(
            "Presenter mode",
            key="present",
            on_change=_sync_present_to_url,
            help="Larger type, no sidebar, step with the keyboard (a presentation "
            "clicker sends PageDown / PageUp). Also opened by ?present=1 in the "
            "link.",
        )
        notation_slot = st.empty()  # the Notation panel of the page chosen below
        # after a server restart: rerun at once, an outage blames no one. Drawn after the
        # page, so the page's first text does not wait for a component's script
        reconnect_slot = st.empty()

    presenter_mode()  # styles for the lecture hall when on
    accessibility_styles()  # focus always visible, phones, text for screen readers

    # The menu: Home, then every page of pages/common/page_table.py, served at /<name>
    PAGES = [
        st.Page("pages/home.py", title="Home", icon=":material/home:", url_path="", default=True)
    ]
    PAGES += [
        st.Page(
            page_path(entry),
            title=entry.title,
            icon=f":material/{entry.icon}:",
            url_path=entry.name,
        )
        for entry in PAGE_TABLE
    ]

    # Routing, said out loud. st.navigation serves each page above at its url_path
    # (links depend on these paths only) and turns off Streamlit's older multipage mode,
    # which a folder named pages/ turns on. On a fresh server a first deep link such as
    # /train would run pages/train.py in that older mode without ever reaching this file,
    # so the start-up hook above switches it off before the first session
    # (pages.common.routing.use_app_navigation, from configure_server; tested in a
    # browser on a fresh server in test_browser.py).
    current = st.navigation(PAGES)
    page_title(current.title)  # each page its own document title
    with notation_slot:
        notation_panel(current.url_path)  # the symbols this page shows, one line each
    try:
        current.run()
    finally:  # also after st.stop(): every page keeps its watchers
        with reconnect_slot.container():
            reconnect_watch()
            page_access()  # Streamlit's widgets as a screen reader should hear them
