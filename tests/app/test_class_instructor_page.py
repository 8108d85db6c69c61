"""/class's instructor view without a browser (AppTest) and the address students join at:
Start a class pressed in a loop, the join link on an address phones reach (this machine's
interfaces, or PERCEPTRON_LAB_PUBLIC_URL), a link with the key kept and taken out of the
address, and the poll's buttons through a whole peer-instruction round."""

from __future__ import annotations

import json
import re

import pytest
from app_helpers import APP, open_page
from streamlit.testing.v1 import AppTest

import classroom
from classroom.join_link import PUBLIC_URL_VARIABLE, Interface, join_origin, network_address
from classroom.memory import MemoryStore
from classroom.store import CREATE_LIMIT

LAN = [
    Interface("lo", "127.0.0.1"),
    Interface("docker0", "172.17.0.1"),
    Interface("wlan0", "192.168.1.23"),
    Interface("eth1", "fd00::7"),
]


@pytest.fixture
def store(monkeypatch):
    chosen = MemoryStore()
    monkeypatch.setattr(classroom, "_STORE", chosen)
    monkeypatch.delenv(PUBLIC_URL_VARIABLE, raising=False)
    return chosen


@pytest.mark.parametrize(
    "seen",
    [
        "http://127.0.0.1:8500/class?present=1",
        "http://localhost:8500/class",
        "http://[::1]:8500/class",
        "http://0.0.0.0:8500/class",
        "http://127.0.1.1:8500/",
    ],
)
def test_a_loopback_address_becomes_this_machines_network_address(seen):
    origin = join_origin(seen, environ={}, found=LAN)
    assert (origin.origin, origin.how, origin.interface) == (
        "http://192.168.1.23:8500",
        "network",
        "wlan0",
    )


def test_the_network_address_is_chosen_as_a_room_would_reach_it():
    assert network_address([Interface("lo", "127.0.0.1")]) is None
    assert network_address([Interface("eth0", "169.254.3.4")]) is None  # link-local
    assert network_address([Interface("eth0", "10.1.2.3", up=False)]) is None
    assert (
        network_address([Interface("tun0", "10.8.0.2"), Interface("eth0", "203.0.113.7")]).name
        == "eth0"
    )  # VPN last
    only_v6 = join_origin("http://127.0.0.1:8500/", {}, [Interface("eth0", "2001:db8::5")])
    assert only_v6.origin == "http://[2001:db8::5]:8500"
    none = join_origin("http://127.0.0.1:8500/", {}, [Interface("lo", "127.0.0.1")])
    assert (none.origin, none.how) == ("http://127.0.0.1:8500", "loopback")


def test_an_address_the_browser_reached_is_kept_and_the_variable_wins():
    assert (
        join_origin("http://10.0.0.5:8500/class?code=X", {}, LAN).origin == "http://10.0.0.5:8500"
    )
    public = join_origin(
        "http://127.0.0.1:8500/", {PUBLIC_URL_VARIABLE: "https://lab.example.edu/perceptron/"}, LAN
    )
    assert (public.origin, public.how) == ("https://lab.example.edu/perceptron", "public")
    wrong = join_origin("http://127.0.0.1:8500/", {PUBLIC_URL_VARIABLE: "lab.example.edu"}, LAN)
    assert wrong.how == "network" and PUBLIC_URL_VARIABLE in wrong.problem


def _join_link(at) -> str:
    return next(
        re.search(r"Join at \*\*(\S+)\*\*", m.value).group(1)
        for m in at.markdown
        if m.value.startswith("Join at")
    )


def test_the_public_url_sets_the_join_link_and_the_qr_code(store, monkeypatch):
    monkeypatch.setenv(PUBLIC_URL_VARIABLE, "https://lab.example.edu")
    new = store.create()
    at = open_page("pages/class.py", {"code": new.code, "key": new.key})
    link = f"https://lab.example.edu/class?code={new.code}"
    assert _join_link(at) == link
    assert any(f'alt="QR code of the join link {link}"' in h.proto.body for h in at.get("html"))
    assert not [c for c in at.caption if "network address" in c.value]


def test_a_key_in_the_link_is_kept_and_handed_to_the_browser_to_take_out(store):
    new = store.create()
    at = open_page("pages/class.py", {"code": new.code, "key": new.key, "present": "1"})
    keeper = [
        json.loads(e.proto.json)
        for e in at.get("bidi_component")
        if e.proto.component_name.endswith("lab_class_keeper")
    ]
    assert len(keeper) == 1 and keeper[0]["strip"] is True  # keeper.js replaces the address
    assert at.session_state["class_keys"] == {new.code: new.key}
    wrong = open_page("pages/class.py", {"code": new.code, "key": "x" * 32})
    assert "key" not in wrong.query_params and any(
        "does not run this class" in w.value for w in wrong.warning
    )
    assert not [b for b in wrong.button if b.key == "class_open"]


def test_start_a_class_in_a_loop_is_refused_after_the_limit_with_a_sentence(store):
    started, said = 0, []
    for _ in range(CREATE_LIMIT.burst + 5):  # a new session each time, as a reload makes
        at = AppTest.from_file(APP, default_timeout=120)
        at.switch_page("pages/class.py").run()
        at.button(key="class_start").click().run()
        assert not at.exception
        if at.query_params.get("code"):
            started += 1
            assert "key" not in at.query_params  # the key stays in the session, not the link
        said += [e.value for e in at.error]
    assert started == CREATE_LIMIT.burst
    assert len(said) == 5 and all("started 20 classes" in text for text in said), said
    assert len(store._classes) == CREATE_LIMIT.burst


def test_a_peer_instruction_round_through_the_buttons(store):
    new = store.create()
    tokens = [store.join(new.code) for _ in range(3)]
    at = open_page("pages/class.py", {"code": new.code, "key": new.key})
    at.button(key="class_open").click().run()
    poll = store.instructor_state(new.code, new.key)["poll"]
    right = store._classes[new.code]["poll"]["answer"]  # read from the store, not the page
    wrong = (right + 1) % len(poll["options"])
    for token, option in zip(tokens, (wrong, wrong, right)):
        store.answer(new.code, token, poll["id"], option)
    at.button(key="class_close").click().run()
    assert at.button(key="class_hide").label == "Hide the result"
    at.button(key="class_hide").click().run()
    assert at.button(key="class_hide").label == "Show the result"
    at.button(key="class_again").click().run()
    second = store.instructor_state(new.code, new.key)["poll"]
    assert second["round"] == 2 and second["question"] == poll["question"]
    for token in tokens:  # after the discussion, all three give the right answer
        store.answer(new.code, token, second["id"], right)
    at.button(key="class_reveal").click().run()
    assert not at.exception and at.button(key="class_again").disabled
    shown = " ".join(c.value for c in at.caption)
    assert "Of the 3 who voted both times, 2 moved to the right answer and 0 moved away" in shown
    table = next(h.proto.body for h in at.get("html") if "lab-results" in h.proto.body)
    assert "1st vote" in table and "2nd vote" in table and "✓ right answer" in table
    assert "3 (100%)" in table  # the second vote, on the right answer


def test_joining_closed_and_more_joined_than_expected_are_on_the_projector(store):
    new = store.create()
    for _ in range(3):
        store.join(new.code)
    store.set_expected(new.code, new.key, 2)
    at = open_page("pages/class.py", {"code": new.code, "key": new.key})
    warned = [w.value for w in at.warning]
    assert any(w.startswith("3 joined, more than the 2 you expect") for w in warned), warned
    assert at.number_input(key="class_expected").value == 2
    at.number_input(key="class_expected").set_value(30).run()
    assert store.instructor_state(new.code, new.key)["expected"] == 30
    assert not [w for w in at.warning if "you expect" in w.value]
    at.button(key="class_joining").click().run()
    assert store.instructor_state(new.code, new.key)["joining"] is False
    assert at.button(key="class_joining").label == "Open joining"
    with pytest.raises(classroom.ClassError, match="closed joining"):
        store.join(new.code)
    assert any("No poll yet: 3 joined" in i.value for i in at.info)
    at.button(key="class_open").click().run()
    assert any(
        "0 answers · Poll open · 3 joined · joining closed" in h.proto.body for h in at.get("html")
    )
