"""The live class in Chromium: an instructor starts a class, phone-sized students join by the
link and answer, the projector's count and bars follow, reveal and close work, the key runs
the class from a second browser, and a student never sees an instructor's control or key."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

from browser_helpers import new_page, open_url, wait_for_app
from test_browser_accessibility import axe_script, serious_violations

INSTRUCTOR_BUTTONS = ("Start a class", "Open the poll", "Show the answers", "Close the poll",
                      "Publish this view")


def _button(page, label):
    return page.get_by_role("button", name=label, exact=True)


def _student_option(page, letter):
    return page.locator(".lab-option", has_text=re.compile(rf"^{letter}\. "))


def _wait_text(page, text, timeout=5000):
    page.get_by_text(text).first.wait_for(timeout=timeout)


def _start(page, server, query=""):
    open_url(page, f"{server}/class{query}")
    _button(page, "Start a class").click()
    page.wait_for_function("() => location.search.includes('key=')")
    wait_for_app(page)
    query = parse_qs(urlsplit(page.url).query)
    return query["code"][0], query["key"][0]


def _assert_a_students_page(page, key):
    for label in INSTRUCTOR_BUTTONS:
        assert _button(page, label).count() == 0, label
    assert key not in page.content()
    # nothing pans sideways on a phone, and every option is a large tap target
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    heights = page.locator(".lab-option").evaluate_all(
        "(nodes) => nodes.map(n => n.getBoundingClientRect().height)")
    assert heights and min(heights) >= 44, heights


def test_a_class_from_start_to_the_last_poll(browser, streamlit_server):
    with new_page(browser, 1280, 720) as projector, new_page(browser, 390, 844) as phone, \
            new_page(browser, 360, 740) as phone2, new_page(browser, 1024, 768) as tablet:
        code, key = _start(projector, streamlit_server, "?present=1")  # presenter mode
        assert re.fullmatch(r"[A-Z2-9]{6}", code)
        visible = projector.locator("body").inner_text()
        assert key not in visible and code in visible
        join = re.search(r"\S*/class\?code=" + code, visible).group(0)
        assert projector.locator('img[alt^="QR code of the join link"]').count() == 1
        qr_width = projector.locator('img[alt^="QR code"]').evaluate(
            "(n) => n.getBoundingClientRect().width")
        assert qr_width >= 300, qr_width  # a code of 37 modules, > 8 px each on the projector

        for student in (phone, phone2):
            open_url(student, join)
            _wait_text(student, "Waiting for the instructor's question")
        _button(projector, "Open the poll").click()
        wait_for_app(projector)
        for student in (phone, phone2):
            _student_option(student, "A").wait_for(timeout=5000)
            _assert_a_students_page(student, key)

        assert serious_violations(phone, axe_script()) == []
        assert serious_violations(projector, axe_script()) == []
        _student_option(phone, "A").click()
        _wait_text(phone, "You can change it until the poll closes")
        _wait_text(projector, "1 answer")
        _student_option(phone2, "B").click()
        _student_option(phone, "B").click()  # a change of mind: still one answer each
        _wait_text(projector, "2 answers")
        assert _student_option(phone, "B").get_attribute("aria-pressed") == "true"
        assert "Right answer" not in phone.locator("body").inner_text()

        # the key runs the class from a second browser (the instructor's tablet)
        open_url(tablet, projector.url)
        _wait_text(tablet, "2 answers")
        _button(tablet, "Show the answers").click()
        wait_for_app(tablet)
        _wait_text(projector, "Right answer:")
        _wait_text(phone, "Right answer:")
        assert phone.locator(".lab-right").count() == 1
        _button(projector, "Close the poll").click()
        wait_for_app(projector)
        _wait_text(phone2, "This poll is closed")
        assert _student_option(phone2, "A").is_disabled()
        _assert_a_students_page(phone2, key)
        assert projector.get_by_text("2 answers").count() >= 1


def test_a_wrong_code_a_wrong_key_and_a_garbled_token_get_clear_messages(browser,
                                                                          streamlit_server):
    with new_page(browser, 1280, 800) as instructor, new_page(browser, 390, 844) as phone:
        code, key = _start(instructor, streamlit_server)
        open_url(phone, f"{streamlit_server}/class?code=ZZZZZZ")
        _wait_text(phone, "No class has the code ZZZZZZ")
        open_url(phone, f"{streamlit_server}/class?code={code}&key=not-the-key-at-all-0000")
        _wait_text(phone, "does not run this class")
        for label in INSTRUCTOR_BUTTONS[1:]:
            assert _button(phone, label).count() == 0
        _button(instructor, "Open the poll").click()
        wait_for_app(instructor)
        _student_option(phone, "A").wait_for(timeout=5000)
        phone.evaluate(f"() => localStorage.setItem('lab_class_token_{code}', 'garbled.token')")
        phone.reload()
        _wait_text(phone, "garbled")  # said once, then the page joins again by itself
        _student_option(phone, "A").click()
        _wait_text(phone, "You can change it until the poll closes", timeout=8000)
        _wait_text(instructor, "1 answer")
