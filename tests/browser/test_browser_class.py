"""The live class in Chromium: an instructor starts a class, phone-sized students join by the
link and answer, the projector's count and bars follow, reveal and close work, the key runs
the class from a second browser, and a student never sees an instructor's control or key."""

from __future__ import annotations

import re
import time

from browser_helpers import new_page, open_player, open_url, wait_for_app, wait_for_player
from class_helpers import start_class
from test_browser_accessibility import axe_script, serious_violations

INSTRUCTOR_BUTTONS = (
    "Start a class",
    "Open the poll",
    "Show the answers",
    "Close the poll",
    "Publish this view",
    "Stop publishing",
)


def _button(page, label):
    return page.get_by_role("button", name=label, exact=True)


def _student_option(page, letter):
    return page.locator(".lab-option", has_text=re.compile(rf"^{letter}\. "))


def _wait_text(page, text, timeout=5000):
    page.get_by_text(text).first.wait_for(timeout=timeout)


def _start(page, server, query=""):
    code, key = start_class(page, server, query)
    assert "key=" not in page.url and key not in page.url
    return code, key


def _assert_a_students_page(page, key):
    for label in INSTRUCTOR_BUTTONS:
        assert _button(page, label).count() == 0, label
    assert key not in page.content()
    # nothing pans sideways on a phone, and every option is a large tap target
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    heights = page.locator(".lab-option").evaluate_all(
        "(nodes) => nodes.map(n => n.getBoundingClientRect().height)"
    )
    assert heights and min(heights) >= 44, heights


def test_a_class_from_start_to_the_last_poll(browser, streamlit_server):
    with (
        new_page(browser, 1280, 720) as projector,
        new_page(browser, 390, 844) as phone,
        new_page(browser, 360, 740) as phone2,
        new_page(browser, 1024, 768) as tablet,
    ):
        code, key = _start(projector, streamlit_server, "?present=1")  # presenter mode
        assert re.fullmatch(r"[A-Z2-9]{6}", code)
        visible = projector.locator("body").inner_text()
        assert key not in visible and code in visible
        assert re.search(r"\S*/class\?code=" + code, visible)  # read, never opened
        join = f"{streamlit_server}/class?code={code}"
        assert projector.locator('img[alt^="QR code of the join link"]').count() == 1
        qr_width = projector.locator('img[alt^="QR code"]').evaluate(
            "(n) => n.getBoundingClientRect().width"
        )
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

        # the key runs the class from a second browser (the instructor's tablet), by the link
        # Copy the instructor link copies (the key after '#', taken out of the address)
        open_url(tablet, f"{streamlit_server}/class?code={code}#key={key}")
        _wait_text(tablet, "2 answers", timeout=15000)
        assert key not in tablet.url
        _button(tablet, "Show the answers").click()  # closes the poll too
        wait_for_app(tablet)
        _wait_text(projector, "Right answer:")
        _wait_text(phone, "Right answer:")
        assert phone.locator(".lab-right").count() == 1
        _wait_text(phone2, "The answers are shown: this poll is closed")
        assert _student_option(phone2, "A").is_disabled()
        _assert_a_students_page(phone2, key)
        assert projector.get_by_text("2 answers").count() >= 1


def test_a_wrong_code_a_wrong_key_and_a_garbled_token_get_clear_messages(browser, streamlit_server):
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


def _frame_src(page):
    return page.locator("iframe.lab-view").get_attribute("src") or ""


def _wait_frame_step(page, step, timeout=8000):
    """Wait until the student's followed frame opens ``step=<step>``; the seconds it took.
    (The student's element lives in a shadow root: Playwright's locators reach it, a
    document.querySelector in page.wait_for_function would not.)"""
    from playwright.sync_api import expect

    start = time.monotonic()
    frame = page.locator("iframe.lab-view")
    expect(frame).to_have_attribute("src", re.compile(rf"[?&]step={step}(&|$)"), timeout=timeout)
    expect(frame).to_be_visible(timeout=timeout)
    return time.monotonic() - start


def test_a_student_who_follows_sees_the_instructors_steps_by_themselves(browser, streamlit_server):
    with new_page(browser, 1280, 800) as instructor, new_page(browser, 390, 844) as phone:
        code, key = _start(instructor, streamlit_server)
        instructor.wait_for_function(
            "(code) => (JSON.parse(localStorage.getItem('lab_class_instructor') || '{}')).code"
            " === code",
            arg=code,
        )
        open_url(phone, f"{streamlit_server}/class?code={code}")
        _wait_text(phone, "Waiting for the instructor's question")
        phone.get_by_label("Follow the lecturer").check()
        _wait_text(phone, "The instructor is not publishing a view right now")

        # the lecture: /train in presenter mode, in the same browser as /class
        lecture = instructor.context.new_page()
        player = open_player(lecture, f"{streamlit_server}/train?present=1")
        lecture.wait_for_timeout(500)
        seen, updates = [], 0
        for presses in (3, 2):
            for _ in range(presses):
                lecture.keyboard.press("ArrowRight")
            updates += presses
            step, _ = wait_for_player(player, updates=updates)
            lecture.wait_for_function(
                "(step) => new URLSearchParams(location.search).get('step') === String(step)",
                arg=step,
            )  # the player wrote its step (the moment it publishes)
            seen.append(_wait_frame_step(phone, step))
            src = _frame_src(phone)
            assert src.startswith("/train?") and "present=" not in src and key not in src
            assert "embed=true" in src
        assert max(seen) < 3.5, seen  # the issue asks for about 2 s: 0.5 s debounce + 1 s poll
        # the frame shows the player at that step (a new session of the page opened there)
        framed = phone.frame_locator("iframe.lab-view").get_by_test_id("perceptron-player")
        wait_for_player(framed, step=step)
        assert key not in phone.content()

        # Stop publishing: the followed view clears and the next step is not sent
        instructor.get_by_text("Follow the lecturer").first.click()
        _button(instructor, "Stop publishing").click()
        wait_for_app(instructor)
        _wait_text(phone, "The instructor is not publishing a view right now")
        assert phone.locator("iframe.lab-view").is_hidden()
        lecture.keyboard.press("ArrowRight")
        wait_for_player(player, updates=6)
        lecture.wait_for_timeout(2500)
        assert phone.locator("iframe.lab-view").is_hidden()
        _button(instructor, "Publish my pages again").click()
        wait_for_app(instructor)
        lecture.keyboard.press("ArrowRight")
        step, _ = wait_for_player(player, updates=7)
        _wait_frame_step(phone, step)
