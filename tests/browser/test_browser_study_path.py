"""Learn in order, in Chromium: a page's checkpoint (its questions all right and, on /train, a
round of predictions) marks it done on Home, counting the answers checked (an option chosen and
not checked counts not); the mark survives a reload and a new visit;
Continue leads on to the next page; Reset clears it; and no request the browser sends, over
HTTP or the websocket, carries the progress."""

from __future__ import annotations

import pytest
from browser_helpers import open_player, open_url, wait_for_app
from playwright.sync_api import expect

from pages.common.question_bank import QUESTIONS_BY_PAGE
from pages.common.study_path import STORAGE_KEY, STUDY_ORDER
from pages.player.predict_link import PREDICTION_ROUND

pytestmark = pytest.mark.browser


def _listen(page) -> list[str]:
    """Everything the page sends from now on: each request's URL, headers and body, and
    each websocket frame (as text, or bytes read as latin-1)."""
    sent: list[str] = []

    def on_request(request):
        sent.append(request.url + " " + str(request.headers) + " " + (request.post_data or ""))

    def on_socket(socket):
        socket.on(
            "framesent",
            lambda payload: sent.append(
                payload if isinstance(payload, str) else bytes(payload).decode("latin-1")
            ),
        )

    page.on("request", on_request)
    page.on("websocket", on_socket)
    return sent


def _answer(page, item, option: str) -> None:
    """Choose ``option`` of the quiz question ``item`` and press its Check button."""
    page.locator(f".st-key-{item.key}").get_by_text(option, exact=True).click()
    page.locator(f".st-key-{item.key}_check button").click()
    wait_for_app(page)


def _home_item(page, name: str):
    return page.get_by_test_id("study-path").locator(f'li[data-page="{name}"]')


def test_a_checkpoint_marks_its_page_done_on_home_until_reset(page, streamlit_server):
    sent = _listen(page)
    open_url(page, streamlit_server + "/")
    assert page.get_by_test_id("study-summary").inner_text() == f"0 of {len(STUDY_ORDER)} done."
    assert (
        page.get_by_test_id("study-continue").inner_text()
        == "Start: 1. Train, one mistake at a time"
    )
    player = open_player(page, f"{streamlit_server}/train?predict=1")
    checkpoint = page.get_by_test_id("study-checkpoint")
    for _ in range(PREDICTION_ROUND):  # right or wrong, each answer counts
        page.keyboard.press("ArrowRight")
        page.keyboard.press("a")
    assert player.get_attribute("data-predict-total") == str(PREDICTION_ROUND)
    assert f"✓ Prediction round: {PREDICTION_ROUND} predictions made." in checkpoint.inner_text()
    questions = QUESTIONS_BY_PAGE["train"]
    for number, item in enumerate(questions):
        assert checkpoint.get_attribute("data-done") == "false"
        if number == len(questions) - 1:  # the right answer chosen but not checked counts not
            page.locator(f".st-key-{item.key}").get_by_text(item.answer, exact=True).click()
            page.wait_for_timeout(800)
            expect(checkpoint).to_contain_text(f"{number} of 3 right so far")
        _answer(page, item, item.answer)
        if number == 0:  # a wrong answer to the next one first: still not all right
            wrong = next(o for o in questions[1].options if o != questions[1].answer)
            _answer(page, questions[1], wrong)
            expect(checkpoint).to_contain_text("1 of 3 right so far")
    # the element is drawn again a moment after the rerun that scored the last answer
    expect(checkpoint).to_have_attribute("data-done", "true")
    expect(checkpoint).to_contain_text("✓ Done: marked on Home.")
    open_url(page, streamlit_server + "/")
    assert _home_item(page, "train").get_attribute("data-done") == "true"
    assert _home_item(page, "train").locator(".mark").inner_text() == "✓ done"
    assert page.get_by_test_id("study-summary").inner_text() == f"1 of {len(STUDY_ORDER)} done."
    continued = page.get_by_test_id("study-continue")
    assert continued.inner_text() == "Continue: 2. Mistakes against the bound"
    page.reload()  # a reload: a new session of the server, the browser's storage kept
    wait_for_app(page)
    assert _home_item(page, "train").get_attribute("data-done") == "true"
    page.get_by_test_id("study-continue").click()  # on to /bound: the page opened last
    wait_for_app(page)
    assert page.url.rstrip("/").endswith("/bound")
    open_url(page, streamlit_server + "/")
    assert (
        page.get_by_test_id("study-continue").inner_text()
        == "Continue: 2. Mistakes against the bound"
    )
    page.get_by_test_id("study-reset").click()
    assert _home_item(page, "train").get_attribute("data-done") == "false"
    assert page.get_by_test_id("study-summary").inner_text() == f"0 of {len(STUDY_ORDER)} done."
    assert page.evaluate(f"() => localStorage.getItem('{STORAGE_KEY}')") is None
    page.reload()
    wait_for_app(page)
    assert _home_item(page, "train").get_attribute("data-done") == "false"
    # nothing of the progress ever left the browser
    assert sent and not [text for text in sent if STORAGE_KEY in text or '"predictions"' in text]


def test_a_page_without_a_player_is_done_with_its_questions(page, streamlit_server):
    sent = _listen(page)
    open_url(page, streamlit_server + "/aggressive")
    checkpoint = page.get_by_test_id("study-checkpoint")
    assert "Prediction round" not in checkpoint.inner_text()
    for item in QUESTIONS_BY_PAGE["aggressive"]:
        _answer(page, item, item.answer)
    expect(checkpoint).to_have_attribute("data-done", "true")
    open_url(page, streamlit_server + "/")
    assert _home_item(page, "aggressive").get_attribute("data-done") == "true"
    assert _home_item(page, "train").get_attribute("data-done") == "false"
    # the page opened last is done: Continue leads to the next page not done after it
    assert (
        page.get_by_test_id("study-continue").inner_text()
        == "Continue: 4. The adversarial lower bound"
    )
    assert not [text for text in sent if STORAGE_KEY in text]
