"""Shared pytest fixtures, including browser end-to-end infrastructure.

Fixtures
--------
streamlit_server (session)  base URL (e.g. "http://127.0.0.1:53123") of
                            ``streamlit run app.py`` started from the repo root.
                            Set PERCEPTRON_LAB_APP to run another script.
browser (session)           Playwright Browser (Debian /usr/bin/chromium, headless).
                            Skips if chromium/playwright is unavailable, or fails
                            instead when REQUIRE_BROWSER=1 (as in CI).
page (function)             fresh BrowserContext + Page (1280x900, browser_helpers.new_page);
                            a screenshot is saved to test-results/ if the test fails.
app_page (function)         ``page`` already at the app's URL, after wait_for_app().

Tests that use ``browser`` (directly or through page/app_page) are marked
``browser`` automatically; deselect them with ``-m "not browser"``.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser_helpers import (  # noqa: E402
    CHROMIUM_PATH,
    REPO_ROOT,
    launch_chromium,
    new_page,
    require_browser,
    run_streamlit,
    wait_for_app,
)


def _unavailable(reason: str) -> None:
    if require_browser():
        pytest.fail(f"REQUIRE_BROWSER=1 but {reason}", pytrace=False)
    pytest.skip(f"browser tests skipped: {reason} (set REQUIRE_BROWSER=1 to make this a failure)")


#: files whose tests start processes of their own (Streamlit, HAProxy, Redis, serve.py)
SERVER_FILES = {
    "test_class_hostile.py",
    "test_class_serve.py",
    "test_class_serve_faults.py",
    "test_class_serve_projector.py",
    "test_fresh_server.py",
    "test_serve_config.py",
    "test_load_client.py",
    "test_upload_limits.py",
}
#: fixtures that start a server
SERVER_FIXTURES = {"streamlit_server", "redis_url"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if "browser" in fixtures:
            item.add_marker(pytest.mark.browser)
        if fixtures & SERVER_FIXTURES or item.path.name in SERVER_FILES:
            item.add_marker(pytest.mark.server)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    rep = yield
    setattr(item, f"rep_{rep.when}", rep)
    return rep


@pytest.fixture(scope="session")
def streamlit_server() -> Iterator[str]:
    try:
        cm = run_streamlit()
        base_url = cm.__enter__()
    except (FileNotFoundError, RuntimeError) as exc:
        pytest.fail(f"could not start Streamlit: {exc}", pytrace=False)
    try:
        yield base_url
    finally:
        cm.__exit__(None, None, None)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM_PATH):
        _unavailable(
            f"{CHROMIUM_PATH} not found (install Debian's chromium: apt-get install -y chromium)"
        )
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:
        _unavailable(f"playwright is not importable ({exc}); pip install -r requirements-dev.txt")
    pw = sync_playwright().start()
    try:
        b = launch_chromium(pw)
        try:
            yield b
        finally:
            b.close()
    finally:
        pw.stop()


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    with new_page(browser, 1280, 900) as pg:
        try:
            yield pg
        finally:
            rep = getattr(request.node, "rep_call", None)
            if rep is not None and rep.failed:
                out = REPO_ROOT / "test-results"
                out.mkdir(exist_ok=True)
                name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.nodeid)[:150]
                try:
                    pg.screenshot(path=str(out / f"{name}.png"), full_page=True)
                except Exception:  # noqa: BLE001 - best effort diagnostics only
                    pass


@pytest.fixture
def app_page(page: Any, streamlit_server: str) -> Any:
    page.goto(streamlit_server)
    wait_for_app(page)
    return page


@pytest.fixture(params=["memory", "redis"])
def store(request):
    """The live class's store, once in memory and once in a real Redis (emptied first):
    the same tests run on both back ends. The Redis one needs the module's ``redis_url``
    fixture (tests/class_helpers.py), which the class store tests import."""
    import redis

    from classroom.memory import MemoryStore
    from classroom.redis_store import RedisStore

    if request.param == "memory":
        return MemoryStore()
    client = redis.Redis.from_url(request.getfixturevalue("redis_url"), decode_responses=True)
    client.flushdb()
    return RedisStore(client)
