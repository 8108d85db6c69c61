"""The rules a lecture hall needs, in memory and in a real Redis: a poll's life (open → closed →
revealed), peer instruction's second vote, joining closed and the expected class size, the
limits per client address (joins, answers, starting classes) that one address cannot turn into
a lock-out of the room, a browser that cleared its storage, and the cleaned published view."""

from __future__ import annotations

import pytest
from class_helpers import Clock, redis_url, small_question  # noqa: F401 (a fixture)

from classroom import ClassError
from classroom.clients import Limit, client_address, take
from classroom.memory import MemoryStore
from classroom.routes import followable_pages
from classroom.store import CREATE_LIMIT, JOIN_LIMIT, clean_view

HALL = "203.0.113.9"  # one address: a hall behind a NAT, or one script
ELSEWHERE = "198.51.100.7"


def test_show_the_answers_closes_the_poll_first_and_a_later_tap_is_refused(store):
    new = store.create()
    poll = store.open_poll(new.code, new.key, small_question())
    token = store.join(new.code)
    store.answer(new.code, token, poll, 0)
    store.reveal(new.code, new.key)  # straight from open: closed in the same step
    state = store.public_state(new.code, token)["poll"]
    assert (state["status"], state["revealed"], state["counts"]) == ("closed", True, [1, 0, 0])
    with pytest.raises(ClassError, match="answers are shown") as refused:
        store.answer(new.code, token, poll, 1)  # switching to the answer now shown as right
    assert refused.value.status == 409 and "not counted" in refused.value.message
    assert store.instructor_state(new.code, new.key)["poll"]["counts"] == [1, 0, 0]
    with pytest.raises(ClassError, match="answers of this poll are shown"):
        store.vote_again(new.code, new.key)


def test_vote_again_keeps_the_first_vote_and_says_who_moved_to_the_right_answer(store):
    new = store.create()
    question = small_question()  # options 1, 2, 3; the right answer is "2" (index 1)
    first = store.open_poll(new.code, new.key, question)
    tokens = [store.join(new.code) for _ in range(5)]
    for token, option in zip(tokens, (0, 0, 1, 2, 1)):
        store.answer(new.code, token, first, option)
    store.close(new.code, new.key)
    store.hide_result(new.code, new.key, True)
    assert store.instructor_state(new.code, new.key)["poll"]["hidden"] is True
    second = store.vote_again(new.code, new.key)
    assert second != first
    with pytest.raises(ClassError, match="over"):
        store.answer(new.code, tokens[0], first, 1)  # the first vote has ended
    # after the discussion: two move to the right answer, one moves away, one does not vote
    for token, option in zip(tokens[:4], (1, 1, 2, 2)):
        store.answer(new.code, token, second, option)
    state = store.instructor_state(new.code, new.key)["poll"]
    assert (state["round"], state["hidden"], state["question"]) == (2, False, question["question"])
    assert state["first"] == {"counts": [2, 2, 1], "total": 5}
    assert (state["counts"], state["total"]) == ([0, 2, 2], 4)
    with pytest.raises(ClassError, match="twice"):
        store.vote_again(new.code, new.key)
    store.reveal(new.code, new.key)
    compared = store.instructor_state(new.code, new.key)["poll"]["first"]
    assert (compared["both"], compared["to_right"], compared["from_right"]) == (4, 2, 1)
    public = store.public_state(new.code)["poll"]  # phones: the counts, not who moved
    assert public["first"] == {"counts": [2, 2, 1], "total": 5} and public["round"] == 2


def test_closed_joining_keeps_those_who_joined_and_the_expected_size_is_checked(store):
    new = store.create()
    poll = store.open_poll(new.code, new.key, small_question())
    token = store.join(new.code)
    store.set_joining(new.code, new.key, False)
    with pytest.raises(ClassError, match="closed joining") as refused:
        store.join(new.code)
    assert refused.value.status == 403
    assert store.join(new.code, token=token) == token  # a returning browser is not new
    store.answer(new.code, token, poll, 2)
    state = store.instructor_state(new.code, new.key)
    assert (state["joined"], state["joining"], state["poll"]["total"]) == (1, False, 1)
    store.set_joining(new.code, new.key, True)
    store.join(new.code)
    store.set_expected(new.code, new.key, 40)
    assert store.instructor_state(new.code, new.key)["expected"] == 40
    for bad in (-1, 2.5, "40", True, 10**9):
        with pytest.raises(ClassError, match="class size"):
            store.set_expected(new.code, new.key, bad)
    for action in (
        lambda: store.set_joining(new.code, "x" * 32, False),
        lambda: store.set_expected(new.code, "x" * 32, 1),
    ):
        with pytest.raises(ClassError) as stranger:
            action()
        assert stranger.value.status == 403


def test_two_thousand_joins_from_one_address_never_lock_out_the_room(store):
    new = store.create()
    poll = store.open_poll(new.code, new.key, small_question())
    given, refusals = 0, []
    for _ in range(2000):  # one script, as fast as the store answers
        try:
            store.join(new.code, client=HALL)
            given += 1
        except ClassError as error:
            refusals.append(error)
    # the burst, and what the bucket refilled while the loop ran (well under a second a join)
    assert JOIN_LIMIT.burst <= given < JOIN_LIMIT.burst + 200
    assert {(e.status, e.retry_after > 0) for e in refusals} == {(429, True)}
    assert "joins by itself" in refusals[0].message
    # no count of tokens closes the class: students elsewhere join and answer
    for _ in range(3):
        store.answer(new.code, store.join(new.code, client=ELSEWHERE), poll, 1, client=ELSEWHERE)
    state = store.instructor_state(new.code, new.key)
    assert state["joined"] == given + 3 and state["poll"]["counts"][1] == 3


def test_answers_are_limited_per_address_and_a_cookie_rejoins_the_same_student(store):
    new = store.create()
    poll = store.open_poll(new.code, new.key, small_question())
    tokens = [store.join(new.code, client=HALL) for _ in range(JOIN_LIMIT.burst)]
    counted = 0
    with pytest.raises(ClassError, match="sent again in") as refused:
        for token in tokens * 3:  # until the address's bucket is empty
            store.answer(new.code, token, poll, 0, client=HALL)
            counted += 1
    assert refused.value.status == 429 and refused.value.retry_after > 0
    store.answer(new.code, store.join(new.code, client=ELSEWHERE), poll, 0, client=ELSEWHERE)
    # a browser that lost its storage but kept its cookie gets its own token back
    assert store.join(new.code, token=tokens[0]) == tokens[0]
    other = store.create()
    assert store.join(new.code, token=store.join(other.code)) != tokens[0]  # not a stranger's
    assert store.instructor_state(new.code, new.key)["poll"]["total"] == len(tokens) + 1


def test_a_browser_that_joins_again_after_the_first_answer_is_counted_apart(store):
    new = store.create()
    early = store.join(new.code)
    poll = store.open_poll(new.code, new.key, small_question())
    on_time = store.join(new.code)  # joined after the poll opened, before any answer
    store.answer(new.code, early, poll, 0)
    store.answer(new.code, on_time, poll, 0)
    cleared = store.join(new.code)  # the same person, storage and cookie cleared
    store.answer(new.code, cleared, poll, 2)
    state = store.instructor_state(new.code, new.key)["poll"]
    assert (state["total"], state["late"]) == (3, 1)
    second = store.open_poll(new.code, new.key, small_question(key="q2"))
    store.answer(new.code, cleared, second, 1)  # in the next poll it is an ordinary student
    assert store.instructor_state(new.code, new.key)["poll"]["late"] == 0


def test_starting_classes_is_limited_per_client(store):
    started, refusals = 0, []
    for _ in range(CREATE_LIMIT.burst + 30):  # Start a class pressed in a loop
        try:
            store.create(client=HALL)
            started += 1
        except ClassError as error:
            refusals.append(error)
    assert started == CREATE_LIMIT.burst  # one every 6 minutes after the burst
    assert refusals[0].status == 429 and "minutes" in refusals[0].message
    assert store.create(client=ELSEWHERE).code  # another instructor is not held up
    assert store.create().code  # nor the tests' and the benchmark's own classes


def test_the_memory_buckets_refill_with_time():
    clock = Clock()
    store = MemoryStore(clock=clock)
    for _ in range(CREATE_LIMIT.burst):
        store.create(client=HALL)
    with pytest.raises(ClassError) as refused:
        store.create(client=HALL)
    assert refused.value.retry_after == pytest.approx(1 / CREATE_LIMIT.per_second)
    clock.now += 1 / CREATE_LIMIT.per_second
    assert store.create(client=HALL).code


def test_a_token_bucket_against_a_plain_count():
    limit = Limit(burst=5, per_second=2.0)
    tokens = at = None
    passed = 0
    for step in range(40):  # a request every 0.1 s for 4 s: 5 at once, then 2 a second
        tokens, wait = take(tokens, at, step * 0.1, limit)
        at = step * 0.1
        passed += wait == 0
    assert passed == 5 + int(3.9 * 2)  # the burst, then one per 0.5 s over the 3.9 s


@pytest.mark.parametrize(
    "peer, forwarded, seen",
    [
        ("198.51.100.7", ["10.0.0.1"], "198.51.100.7"),  # a stranger's header is not believed
        ("127.0.0.1", ["10.0.0.1"], "10.0.0.1"),  # the proxy on this machine is
        ("127.0.0.1", ["6.6.6.6, 10.0.0.1"], "10.0.0.1"),  # the proxy's entry is the last
        ("127.0.0.1", ["6.6.6.6", "10.0.0.1:5123"], "10.0.0.1"),
        ("::1", ["[2001:db8::5]:443"], "2001:db8::5"),
        ("127.0.0.1", [], "127.0.0.1"),
        ("127.0.0.1", ["not an address"], "127.0.0.1"),
        (None, [], "127.0.0.1"),
    ],
)
def test_the_client_address_trusts_only_a_proxy_on_this_machine(peer, forwarded, seen):
    assert client_address(peer, forwarded) == seen


@pytest.mark.parametrize(
    "url, seen",
    [
        ("/train?%70resent=1&step=3", "/train?step=3"),  # present, percent-encoded
        ("/train?step=3&PRESENT=1&%65mbed=true&key=abc&code=ABCDEF", "/train?step=3"),
        ("/train?%65mbed%5Foptions=x&data=blobs", "/train?data=blobs"),
        ("/train?step=3&note=a%26present%3D1", "/train?step=3&note=a%26present%3D1"),
    ],
)
def test_a_published_view_loses_a_smuggled_present(url, seen):
    assert clean_view(url, followable_pages()) == seen
