"""Helpers for the live class's tests: a real Redis (Debian's redis-server) on a free port, and
a small bank of questions of our own (the app's bank is filled in by another change)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import serve  # noqa: E402

from classroom import poll_question  # noqa: E402


def small_question(options=("1", "2", "3"), answer="2", key="q_small") -> dict:
    return poll_question(key, "How many updates?", options, answer, "Because each one counts.")


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    """A real redis-server for the module (skipped only if the binary is missing)."""
    if serve.find_redis_server() is None:
        pytest.skip("redis-server not installed (apt-get install redis-server)")
    with serve.redis_server(data_dir=tmp_path_factory.mktemp("redis")) as (url, _process):
        yield url


# ---- the live class in Chromium -------------------------------------------------------
def button(page, label):
    return page.get_by_role("button", name=label, exact=True)


def student_option(page, letter):
    import re

    return page.locator(".lab-option", has_text=re.compile(rf"^{letter}\. "))


def wait_text(page, text, timeout=5000):
    page.get_by_text(text).first.wait_for(timeout=timeout)


def start_class(page, server, query=""):
    """Open /class{query}, press Start a class; (code, key): the code from the address, the
    key from the localStorage entry this browser keeps (the address never holds it)."""
    from browser_helpers import open_url, wait_for_app

    open_url(page, f"{server}/class{query}")
    button(page, "Start a class").click()
    page.wait_for_function("() => new URLSearchParams(location.search).has('code')")
    wait_for_app(page)
    held = page.wait_for_function("() => localStorage.getItem('lab_class_instructor')").json_value()
    import json

    held = json.loads(held)
    return held["code"], held["key"]


def open_poll(page):
    from browser_helpers import wait_for_app

    button(page, "Open the poll").click()
    wait_for_app(page)


class Clock:
    """A store's clock a test moves by hand (``clock.now += 61``)."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now
