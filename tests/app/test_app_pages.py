"""AppTest over every page: loads without exception, every widget has a key; the routing switch."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest
import streamlit as st
from app_helpers import APP, HOME, assert_every_widget_has_a_key, open_page, page_files
from streamlit.runtime.pages_manager import PagesManager
from streamlit.runtime.scriptrunner import script_runner
from streamlit.testing.v1 import AppTest

PAGES = page_files()


def test_app_registers_the_ten_pages():
    assert PAGES[0] == HOME and len(PAGES) == len(set(PAGES)) == 10, PAGES
    # every page script (a file that draws under page_guard) is in the table, and no other
    scripts = {
        f"pages/{path.name}"
        for path in (Path(APP).parent / "pages").glob("*.py")
        if "with page_guard(" in path.read_text(encoding="utf-8")
    }
    assert set(PAGES) == scripts
    # the top of pages/ holds the ten page scripts and nothing else of Python (issue #20:
    # the player and the page parts sit in folders of their own)
    top = {f"pages/{path.name}" for path in (Path(APP).parent / "pages").glob("*.py")}
    assert top == set(PAGES), top - set(PAGES)


@pytest.mark.parametrize("page", PAGES)
def test_page_loads_and_every_widget_has_a_key(page):
    assert_every_widget_has_a_key(open_page(page))


def test_no_download_reruns_its_page():
    """A download button asks for its file and reruns nothing (``on_click="ignore"``): a
    rerun would redraw the page for nothing and, for a file made on request, could drop the
    file the browser is about to ask for."""
    buttons = {
        button.key: button.proto.ignore_rerun
        for page in PAGES
        for button in open_page(page).get("download_button")
    }
    # the default link of each page, every part open: /train's four files, /kernels' player,
    # /bound's first tab, the curve of /generalisation and the sweep of /relaxation
    assert set(buttons) == {
        "download_data",
        "download_trace_csv",
        "download_trace_json",
        "download_animation",
        "kernels_download_player",
        "bound_margin_csv",
        "download_curve",
        "sweep_csv",
    }
    assert all(buttons.values()), [key for key, ignored in buttons.items() if not ignored]


def test_home_links_every_page():
    at = open_page(HOME)
    links = [link.proto.page for link in at.get("page_link")]
    for page in PAGES[1:]:
        assert any(page.split("/")[-1].removesuffix(".py") in link for link in links), page
    text = " ".join(m.value for m in at.markdown)
    assert "sign(0) = −1" in text and "Algorithm 1.16" in text


# ---------------------------------------------------------------------------
# Routing (app.py, next to st.navigation): the attribute pages.common.use_app_navigation
# sets is the one Streamlit reads. If a Streamlit upgrade renames or moves it, these fail
# before a first deep link on a fresh server would show the old sidebar of file names.
# ---------------------------------------------------------------------------


@pytest.fixture
def pages_mode():
    """Save and restore Streamlit's process-wide choice of multipage mode."""
    saved = PagesManager.uses_pages_directory
    yield
    PagesManager.uses_pages_directory = saved


def test_a_folder_named_pages_makes_streamlit_choose_the_older_mode(pages_mode):
    PagesManager.uses_pages_directory = None  # as in a fresh server process
    PagesManager(APP)
    assert PagesManager.uses_pages_directory is True


def test_streamlit_reads_the_attribute_to_run_the_older_mode_and_navigation_clears_it():
    runner = inspect.getsource(script_runner.ScriptRunner)
    assert "if PagesManager.uses_pages_directory:" in runner and "_mpa_v1(" in runner
    navigation = inspect.getsource(st.navigation)
    assert "PagesManager.uses_pages_directory = False" in navigation


def test_use_app_navigation_switches_the_older_mode_off_and_reruns(pages_mode, monkeypatch):
    from pages.common.routing import use_app_navigation

    reruns = []
    monkeypatch.setattr(st, "rerun", lambda: reruns.append(True))
    PagesManager.uses_pages_directory = True
    use_app_navigation()
    assert PagesManager.uses_pages_directory is False and reruns == [True]
    use_app_navigation()  # once off, nothing more to do
    assert reruns == [True]


def test_running_the_app_leaves_the_older_mode_off(pages_mode):
    AppTest.from_file(APP, default_timeout=60).run()
    assert PagesManager.uses_pages_directory is False
