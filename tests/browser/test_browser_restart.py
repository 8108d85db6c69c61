"""After a server restart (issue 23): the page shows the state it really has at once, and
the outage message blames no one. A server on its own port: upload a CSV on /train, stop
the server, start a new one on the same port, and watch the page without touching it."""

from __future__ import annotations

from browser_helpers import (
    assert_no_exception,
    assert_the_lost_upload_is_named,
    free_port,
    new_page,
    run_streamlit,
    upload_then_lose_the_server,
)
from playwright.sync_api import expect

from pages.common.reconnect import OUTAGE_TEXT

GOOD_CSV = b"x1,x2,label\n0.5,0.5,cat\n0.6,0.3,cat\n-0.5,-0.4,dog\n-0.3,-0.6,dog\n0.2,-0.7,dog\n"


def test_a_restart_shows_the_lost_upload_at_once_and_the_outage_blames_no_one(browser):
    port = free_port()
    with new_page(browser, 1280, 900) as page:
        upload_then_lose_the_server(page, port, "/train?source=upload", "good.csv", GOOD_CSV)
        dialog = page.locator('[role="dialog"]')  # Streamlit's, after a few retries
        expect(dialog).to_contain_text(OUTAGE_TEXT, timeout=60_000)
        assert "internet" not in dialog.inner_text()
        with run_streamlit(port=port):
            assert_the_lost_upload_is_named(page, "good.csv")  # at once, with no click
            assert_no_exception(page)
