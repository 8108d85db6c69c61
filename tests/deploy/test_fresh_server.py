"""A fresh server serves its first sessions, all opened at once, without an error.

Sessions that start together on a just-started process used to import the pages' modules
at the same time, and some found one half imported ("This app has encountered an error":
ImportError of PAGE_TABLE, PageLink ... from pages.common). Every replica restart under
`make serve` is such a fresh start. Each session here is a simulated browser tab
(benchmarks/load_client.py: the page's HTTP requests, the websocket, the first script run).
"""

from __future__ import annotations

import asyncio
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from browser_helpers import run_streamlit

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from load_client import Student, StudentError  # noqa: E402

from pages.common.page_table import PAGE_TABLE  # noqa: E402

SESSIONS = 40
#: every page with the title its first heading shows
PAGES = [("/", "Perceptron Lab"), *((f"/{entry.name}", entry.title) for entry in PAGE_TABLE)]


def first_heading(run) -> str | None:
    for _, entry in sorted(run.entries.items()):
        if entry.kind == "heading":
            return entry.message.delta.new_element.heading.body
    return None


def guard_messages(run) -> list[str]:
    """What pages.common.page_guard showed instead of a page body (an error caught there)."""
    return [
        entry.message.delta.new_element.alert.body
        for entry in run.entries.values()
        if entry.kind == "alert"
        and "could not be drawn" in entry.message.delta.new_element.alert.body
    ]


async def open_all(base: str) -> list[tuple[str, str, str]]:
    """(path, expected title, what the session got: its first heading or its error)."""

    async def one(path: str, title: str) -> tuple[str, str, str]:
        student = Student(base, path, timeout=240)
        try:
            run = await student.open()
            guarded = guard_messages(run)
            return (
                path,
                title,
                ("error: " + guarded[0]) if guarded else (first_heading(run) or "no heading"),
            )
        except StudentError as error:
            return path, title, f"error: {error}"
        finally:
            await student.close()

    chosen = [PAGES[index % len(PAGES)] for index in range(SESSIONS)]
    return await asyncio.gather(*(one(path, title) for path, title in chosen))


def test_a_fresh_server_serves_40_sessions_opened_at_once_on_every_page():
    with run_streamlit(startup_timeout=120) as base:
        with ThreadPoolExecutor(max_workers=1) as pool:  # Playwright may hold this loop
            results = pool.submit(asyncio.run, open_all(base)).result(timeout=900)
    errors = [(path, got) for path, _title, got in results if got.startswith("error")]
    assert errors == [], f"{len(errors)} of {SESSIONS} sessions failed: {errors[:5]}"
    # each session got the page it asked for, not some other page
    wrong = [(path, title, got) for path, title, got in results if title not in got]
    assert wrong == []


def test_imported_before_any_session_the_pages_choose_the_app_navigation_with_no_rerun(monkeypatch):
    """app.py imports pages.common before the server's first session: Streamlit's older
    multipage mode is then switched off at once (no run to repeat), so a first deep link
    still goes through app.py's st.navigation."""
    import streamlit as st
    from streamlit.runtime.pages_manager import PagesManager

    from pages.common.routing import use_app_navigation

    reruns = []
    monkeypatch.setattr(st, "rerun", lambda: reruns.append(True))
    monkeypatch.setattr(PagesManager, "uses_pages_directory", None)  # a fresh process
    use_app_navigation()
    assert PagesManager.uses_pages_directory is False and reruns == []
    PagesManager(str(Path(__file__).resolve().parents[2] / "app.py"))  # its first session
    assert PagesManager.uses_pages_directory is False  # the older mode stays off
