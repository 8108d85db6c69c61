"""After a server restart (issue 23): the page shows the state it really has at once, and
the outage message blames no one. A server on its own port: upload a CSV on /train, stop
the server, start a new one on the same port, and watch the page without touching it."""

from __future__ import annotations

from browser_helpers import (assert_no_exception, free_port, new_page, open_url, run_streamlit,
                             upload_csv)
from playwright.sync_api import expect

from pages.common.reconnect import OUTAGE_TEXT

GOOD_CSV = b"x1,x2,label\n0.5,0.5,cat\n0.6,0.3,cat\n-0.5,-0.4,dog\n-0.3,-0.6,dog\n0.2,-0.7,dog\n"


def test_a_restart_shows_the_lost_upload_at_once_and_the_outage_blames_no_one(browser):
    port = free_port()
    with new_page(browser, 1280, 900) as page:
        app = page.locator('[data-testid="stApp"]')
        with run_streamlit(port=port) as base:
            open_url(page, f"{base}/train?source=upload")
            upload_csv(page, "good.csv", GOOD_CSV)
            page.get_by_test_id("perceptron-player").wait_for()
        expect(app).not_to_have_attribute("data-test-connection-state", "CONNECTED",
                                          timeout=30_000)
        dialog = page.locator('[role="dialog"]')  # Streamlit's, after a few retries
        expect(dialog).to_contain_text(OUTAGE_TEXT, timeout=60_000)
        assert "internet" not in dialog.inner_text()
        with run_streamlit(port=port):
            expect(app).to_have_attribute("data-test-connection-state", "CONNECTED",
                                          timeout=60_000)
            # no click: the page reruns by itself and says what happened
            warning = page.locator('[data-testid="stAlert"]', has_text="server restarted")
            warning.wait_for(timeout=20_000)
            assert "upload the file again" in warning.inner_text()
            uploader = page.locator('[data-testid="stFileUploader"]')
            expect(uploader).to_have_count(1, timeout=30_000)  # the rerun's, not the old one
            assert "good.csv" not in uploader.inner_text()
            assert page.get_by_test_id("perceptron-player").count() == 0
            assert_no_exception(page)
