"""The live class in a lecture hall, in Chromium: the join link phones can reach (read, never
opened: every request goes to 127.0.0.1), no key in the projector's address bar, a tap after
Show the answers refused with a sentence, Vote again with both votes side by side, the
controls and results inside a 1280×720 presenter screen, a browser that clears its storage,
and no server path or installation id on the websocket."""

from __future__ import annotations

import ipaddress
import json
import subprocess
from urllib.parse import urlsplit

from browser_helpers import REPO_ROOT, new_page, open_url, wait_for_app
from class_helpers import button, open_poll, start_class, student_option, wait_text


def reachable_addresses() -> set[str]:
    """This machine's addresses a phone in the room could reach, from `ip -j addr` (not the
    app's way of reading them): not loopback nor link-local, on an interface that is up."""
    found = set()
    listed = json.loads(
        subprocess.run(["ip", "-j", "addr"], capture_output=True, text=True, check=True).stdout
    )
    for interface in listed:
        if "UP" not in interface.get("flags", []):
            continue
        for entry in interface.get("addr_info", []):
            address = ipaddress.ip_address(entry["local"])
            if not (address.is_loopback or address.is_link_local):
                found.add(str(address))
    return found


def join_link(page, code) -> str:
    text = page.locator("body").inner_text()
    return next(word for word in text.split() if word.endswith(f"/class?code={code}"))


def test_the_key_never_reaches_the_address_bar_and_the_join_link_is_reachable(
    browser, streamlit_server
):
    with new_page(browser, 1280, 720) as projector, new_page(browser, 1024, 768) as tablet:
        code, key = start_class(projector, streamlit_server, "?present=1")
        # opened on 127.0.0.1: the link and the QR code name this machine's network address
        host = urlsplit(join_link(projector, code)).hostname
        addresses = reachable_addresses()
        if addresses:
            assert host in addresses, (host, addresses)
            wait_text(
                projector, "You opened this page at 127.0.0.1, which only this machine reaches"
            )
        else:
            wait_text(projector, "no network address phones could reach")
        alt = projector.locator('img[alt^="QR code of the join link"]').get_attribute("alt")
        assert alt.endswith(join_link(projector, code))
        assert key not in projector.url and "key=" not in projector.url
        assert key not in projector.locator("body").inner_text()
        # a reload: still the instructor's view (this browser kept the key), still no key
        projector.reload()
        wait_for_app(projector)
        button(projector, "Open the poll").wait_for(timeout=15000)
        assert "key=" not in projector.url
        # Copy the instructor link: on the clipboard, never drawn
        projector.context.grant_permissions(["clipboard-read", "clipboard-write"])
        projector.get_by_role("button", name="Copy the instructor link").click()
        wait_text(projector, "Copied.")
        copied = projector.evaluate("() => navigator.clipboard.readText()")
        assert copied.endswith(f"/class?code={code}#key={key}")
        assert key not in projector.locator("body").inner_text()
        # how many history entries the class's page makes by itself, opened without a key
        with new_page(browser, 390, 844) as student:
            open_url(student, f"{streamlit_server}/class?code={code}")
            student.wait_for_timeout(1500)
            entries = student.evaluate("() => history.length")
        # on a second device (opened at 127.0.0.1: tests reach nothing else), the link runs
        # the class and its address loses the key at once: that entry is replaced, so Back
        # never shows it
        open_url(tablet, f"{streamlit_server}/class?code={code}#key={key}")
        button(tablet, "Open the poll").wait_for(timeout=15000)
        wait_for_app(tablet)
        assert key not in tablet.url and tablet.evaluate("() => history.length") == entries
        # an older link with ?key=: the same
        with new_page(browser, 1024, 768) as laptop:
            open_url(laptop, f"{streamlit_server}/class?code={code}&key={key}")
            button(laptop, "Open the poll").wait_for(timeout=15000)
            laptop.wait_for_function("() => !location.search.includes('key=')")
            wait_for_app(laptop)
            assert "key=" not in laptop.url
            assert laptop.evaluate("() => history.length") == entries


def test_after_show_the_answers_a_students_tap_is_refused_with_a_sentence(
    browser, streamlit_server
):
    with new_page(browser, 1280, 800) as projector, new_page(browser, 390, 844) as phone:
        code, _key = start_class(projector, streamlit_server)
        open_poll(projector)
        open_url(phone, f"{streamlit_server}/class?code={code}")
        student_option(phone, "A").click()
        wait_text(phone, "You can change it until the poll closes")
        wait_text(projector, "1 answer")
        # the phone's view stays as it was (its next state request never returns), as on a
        # slow network while the instructor presses Show the answers
        phone.route("**/class-api/state*", lambda route: None)
        phone.wait_for_timeout(1500)
        button(projector, "Show the answers").click()
        wait_for_app(projector)
        wait_text(projector, "Answers shown")
        assert not student_option(phone, "B").is_disabled()
        student_option(phone, "B").click()  # to the answer the projector now shows as right
        wait_text(
            phone, "The answers are shown, so this poll is closed: your answer was not counted."
        )
        assert phone.locator(".lab-error").count() == 1
        projector.wait_for_timeout(1500)
        assert "A. exactly one ✓ right answer" in projector.locator("body").inner_text()
        table = projector.locator("table.lab-results").inner_text()
        assert "1 (100%)" in table and "0 (0%)" in table  # the tap changed nothing


def test_vote_again_shows_both_votes_side_by_side(browser, streamlit_server):
    with (
        new_page(browser, 1280, 720) as projector,
        new_page(browser, 390, 844) as one,
        new_page(browser, 390, 844) as two,
    ):
        code, _key = start_class(projector, streamlit_server, "?present=1")
        open_poll(projector)  # the first question: its right answer is A, "exactly one"
        for phone, letter in ((one, "B"), (two, "A")):
            open_url(phone, f"{streamlit_server}/class?code={code}")
            student_option(phone, letter).click()
        wait_text(projector, "2 answers")
        button(projector, "Close the poll").click()
        wait_for_app(projector)
        button(projector, "Hide the result").click()  # the room discusses without it
        wait_for_app(projector)
        assert projector.locator("table.lab-results").count() == 0
        button(projector, "Vote again").click()
        wait_for_app(projector)
        for phone in (one, two):
            wait_text(phone, "Vote again, after discussing: choose your answer.")
            student_option(phone, "A").click()
            wait_text(phone, "Your second vote: A, exactly one.")
        wait_text(projector, "2 answers · Second vote open")
        button(projector, "Show the answers").click()
        wait_for_app(projector)
        wait_text(projector, "Answers shown")
        table = projector.locator("table.lab-results")
        heads = table.locator("thead th").all_inner_texts()
        assert heads == ["Option", "1st vote", "2nd vote"]
        right = table.locator("tr.lab-right").inner_text()
        assert (
            "A. exactly one ✓ right answer" in right and "1 (50%)" in right and "2 (100%)" in right
        )
        wait_text(
            projector,
            "Right answers: 1 of 2 (50%) in the first vote, 2 of 2 (100%) in "
            "the second. Of the 2 who voted both times, 1 moved to the right "
            "answer and 0 moved away from it.",
        )


def inside(page, locator) -> bool:
    box = locator.bounding_box()
    size = page.viewport_size
    return (
        box is not None
        and box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= size["width"]
        and box["y"] + box["height"] <= size["height"]
    )


def test_at_1280x720_in_presenter_mode_the_results_and_buttons_are_in_the_window(
    browser, streamlit_server
):
    with new_page(browser, 1280, 720) as projector, new_page(browser, 390, 844) as phone:
        code, _key = start_class(projector, streamlit_server, "?present=1")
        open_poll(projector)
        open_url(phone, f"{streamlit_server}/class?code={code}")
        student_option(phone, "B").click()
        wait_text(projector, "1 answer")
        buttons = ("Open the poll", "Close the poll", "Show the answers", "Vote again")
        for label in buttons:
            assert inside(projector, button(projector, label)), label
        assert inside(projector, projector.locator('[data-testid="stProgress"]'))
        button(projector, "Show the answers").click()
        wait_for_app(projector)
        wait_text(projector, "Answers shown")
        assert projector.evaluate("() => window.scrollY") == 0
        for part in (
            projector.locator(".lab-headline"),
            projector.locator("table.lab-results"),
            *(button(projector, label) for label in buttons),
        ):
            assert inside(projector, part), part


def test_a_browser_that_clears_its_storage_cannot_vote_twice_unnoticed(browser, streamlit_server):
    with new_page(browser, 1280, 800) as projector, new_page(browser, 390, 844) as phone:
        code, _key = start_class(projector, streamlit_server)
        open_poll(projector)
        joins = []
        phone.on(
            "request", lambda r: joins.append(r) if r.url.endswith("/class-api/join") else None
        )
        # a key this browser kept that does not run the class: said, forgotten, a student
        open_url(phone, f"{streamlit_server}/class")
        phone.evaluate(
            "(code) => localStorage.setItem('lab_class_instructor', "
            "JSON.stringify({code, key: 'x'.repeat(32)}))",
            code,
        )
        open_url(phone, f"{streamlit_server}/class?code={code}")
        wait_text(phone, "does not run this class: you see it as a student", timeout=15000)
        assert phone.evaluate("() => localStorage.getItem('lab_class_instructor')") is None
        student_option(phone, "B").click()
        wait_text(projector, "1 answer")
        mine = "B, as many as the order allows"  # the status says the letter and the text
        for letter, then in (("C", "C, none"), ("A", "A, exactly one")):
            # storage cleared, page reloaded: the cookie gives its token back, and its answer
            phone.evaluate("() => localStorage.clear()")
            phone.reload()
            wait_for_app(phone)
            wait_text(phone, f"Your answer: {mine}", timeout=15000)
            student_option(phone, letter).click()
            wait_text(phone, f"Your answer: {then}")
            mine = then
        projector.wait_for_timeout(1500)
        wait_text(projector, "1 answer · Poll open · 1 joined")
        assert len(joins) == 3  # one join a page load, each answered with the same token
        # storage and cookies cleared: a new token, and the projector says so
        phone.context.clear_cookies()
        phone.evaluate("() => localStorage.clear()")
        phone.reload()
        wait_for_app(phone)
        wait_text(phone, "Choose your answer.", timeout=15000)
        student_option(phone, "B").click()
        wait_text(phone, "Your answer: B, as many as the order allows")
        wait_text(projector, "2 answers · Poll open · 2 joined")
        wait_text(
            projector,
            "1 of these answers came from a browser that joined after this poll's first answer",
        )


def test_the_websocket_carries_no_server_path_or_installation_id(browser, streamlit_server):
    from streamlit.runtime.metrics_util import Installation

    ids = {Installation.instance().installation_id, Installation.instance().installation_id_v3}
    frames = []
    with new_page(browser, 1280, 800) as page:
        page.on("websocket", lambda ws: ws.on("framereceived", lambda data: frames.append(data)))
        open_url(page, f"{streamlit_server}/class")
        page.evaluate("() => 0")
    payload = b"".join(f if isinstance(f, bytes) else f.encode() for f in frames)
    assert len(frames) > 2 and b"Live class" in payload
    assert str(REPO_ROOT).encode() not in payload
    assert not [i for i in ids if i and i.encode() in payload]
