"""The live class's store, in memory and in a real Redis: the key, one answer per student per
poll, forged and replayed answers, the rate limit, expiry, bad input."""

from __future__ import annotations

import time

import pytest
import redis
from class_helpers import Clock, redis_url, small_question  # noqa: F401 (a fixture)

from classroom import ClassError, normalise_code
from classroom.memory import MemoryStore
from classroom.redis_store import RedisStore
from classroom.store import ANSWER_RATE, CODE_ALPHABET, CODE_LENGTH


def test_codes_are_short_typeable_and_distinct(store):
    codes = {store.create().code for _ in range(30)}
    assert len(codes) == 30
    assert all(len(c) == CODE_LENGTH and set(c) <= set(CODE_ALPHABET) for c in codes)
    code = next(iter(codes))
    assert normalise_code(f" {code[:3].lower()}-{code[3:]} ") == code


def test_only_the_key_runs_the_class_and_the_counts_stay_hidden_until_shown(store):
    new, other = store.create(), store.create()
    for bad in ("", "x" * 32, other.key, new.key[:-1] + ("A" if new.key[-1] != "A" else "B")):
        assert not store.is_instructor(new.code, bad)
        for action in (
            lambda k: store.open_poll(new.code, k, small_question()),
            lambda k: store.reveal(new.code, k),
            lambda k: store.close(new.code, k),
            lambda k: store.instructor_state(new.code, k),
        ):
            with pytest.raises(ClassError) as refused:
                action(bad)
            assert refused.value.status == 403
    poll = store.open_poll(new.code, new.key, small_question())
    token = store.join(new.code)
    store.answer(new.code, token, poll, 1)
    hidden = store.public_state(new.code, token)["poll"]
    assert "counts" not in hidden and "answer" not in hidden and "why" not in hidden
    assert store.instructor_state(new.code, new.key)["poll"]["counts"] == [0, 1, 0]
    store.reveal(new.code, new.key)
    shown = store.public_state(new.code)["poll"]
    assert shown["counts"] == [0, 1, 0] and shown["answer"] == 1 and shown["why"]


def test_one_answer_per_student_changeable_until_close_and_replays_count_once(store):
    new = store.create()
    poll = store.open_poll(new.code, new.key, small_question())
    tokens = [store.join(new.code) for _ in range(5)]
    for i, token in enumerate(tokens):
        store.answer(new.code, token, poll, i % 3)
    store.answer(new.code, tokens[0], poll, 2)  # a change of mind replaces the answer
    for _ in range(3):  # the same request replayed
        store.answer(new.code, tokens[1], poll, 1)
    state = store.instructor_state(new.code, new.key)["poll"]
    assert state["total"] == 5 and state["counts"] == [1, 2, 2]
    assert store.public_state(new.code, tokens[0])["mine"] == 2
    store.close(new.code, new.key)
    with pytest.raises(ClassError, match="closed") as late:
        store.answer(new.code, tokens[2], poll, 0)
    assert late.value.status == 409
    assert store.instructor_state(new.code, new.key)["poll"]["counts"] == [1, 2, 2]
    # the next poll starts empty, and an answer to the old one is refused
    second = store.open_poll(new.code, new.key, small_question(("a", "b"), "a", "q2"))
    assert second != poll and store.instructor_state(new.code, new.key)["poll"]["total"] == 0
    with pytest.raises(ClassError, match="over"):
        store.answer(new.code, tokens[0], poll, 0)


def test_forged_tokens_and_bad_input_get_clear_messages(store):
    new, other = store.create(), store.create()
    poll = store.open_poll(new.code, new.key, small_question())
    token = store.join(new.code)
    forged = token[:-1] + ("A" if token[-1] != "A" else "B")
    for bad in ("", "garbled", forged, store.join(other.code), token + "x"):
        with pytest.raises(ClassError, match="garbled") as refused:
            store.answer(new.code, bad, poll, 0)
        assert refused.value.status == 400
    for option in (3, -1, "two", None):
        with pytest.raises(ClassError):
            store.answer(new.code, token, poll, option)
    with pytest.raises(ClassError, match="not a class code"):
        store.join("12")
    missing = "".join(c for c in CODE_ALPHABET[:CODE_LENGTH])
    with pytest.raises(ClassError, match="No class has the code") as unknown:
        store.join(missing if missing not in (new.code, other.code) else "ZZZZZZ")
    assert unknown.value.status == 404
    assert store.instructor_state(new.code, new.key)["poll"]["total"] == 0


def test_answers_are_rate_limited_per_student(store):
    new = store.create()
    poll = store.open_poll(new.code, new.key, small_question())
    token, calm = store.join(new.code), store.join(new.code)
    limit, _window = ANSWER_RATE
    for i in range(limit):
        store.answer(new.code, token, poll, i % 3)
    with pytest.raises(ClassError, match="Too many") as refused:
        store.answer(new.code, token, poll, 0)
    assert refused.value.status == 429
    store.answer(new.code, calm, poll, 0)  # another student is not held up
    assert store.instructor_state(new.code, new.key)["poll"]["total"] == 2


def test_a_memory_class_expires_after_its_hours_without_activity():
    clock = Clock()
    store = MemoryStore(ttl=3600, clock=clock)
    new = store.create()
    poll = store.open_poll(new.code, new.key, small_question())
    token = store.join(new.code)
    clock.now += 3000
    store.answer(new.code, token, poll, 0)  # activity: the hour starts again
    clock.now += 3000
    assert store.instructor_state(new.code, new.key)["poll"]["total"] == 1
    clock.now += 3601
    with pytest.raises(ClassError, match="No class has the code") as gone:
        store.public_state(new.code)
    assert gone.value.status == 404


def test_a_class_that_expires_after_its_key_was_checked_is_a_404_not_a_crash(monkeypatch):
    """The key is checked, then the class's hour runs out before the action: the instructor
    gets the 404 of an ended class (the memory store indexed a missing class before)."""
    clock = Clock()
    store = MemoryStore(ttl=3600, clock=clock)
    new = store.create()
    checked = store.is_instructor

    def check_then_expire(code, key):
        ok = checked(code, key)
        clock.now += 3601
        return ok

    monkeypatch.setattr(store, "is_instructor", check_then_expire)
    for action in (
        lambda: store.open_poll(new.code, new.key, small_question()),
        lambda: store.set_publishing(new.code, new.key, False),
    ):
        with pytest.raises(ClassError, match="No class has the code") as gone:
            action()
        assert gone.value.status == 404
        new = store.create()


def test_a_redis_class_expires_and_activity_keeps_it(redis_url):  # noqa: F811
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    store = RedisStore(client, ttl=2)
    new = store.create()
    poll = store.open_poll(new.code, new.key, small_question())
    token = store.join(new.code)
    for _ in range(3):  # 3 s of activity, each within the 2 s
        time.sleep(1)
        store.answer(new.code, token, poll, 1)
    assert store.instructor_state(new.code, new.key)["poll"]["total"] == 1
    time.sleep(3)
    with pytest.raises(ClassError, match="No class has the code"):
        store.public_state(new.code)
    # nothing left behind but a rate counter, which ends with its window
    for left in client.keys(f"lab:class:{new.code}:*"):
        assert ":rate:" in left and 0 < client.ttl(left) <= ANSWER_RATE[1]


def test_nothing_personal_is_stored(redis_url):  # noqa: F811
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    client.flushdb()
    store = RedisStore(client)
    new = store.create()
    poll = store.open_poll(new.code, new.key, small_question())
    store.answer(new.code, store.join(new.code), poll, 0)
    readers = {"hash": client.hgetall, "set": client.smembers, "string": client.get}
    dump = " ".join(str(readers[client.type(k)](k)) for k in client.keys("*"))
    assert new.key not in dump  # only its hash
    fields = {f for k in client.keys("*:meta") for f in client.hkeys(k)}
    assert fields == {"key_hash", "secret", "view", "minted", "seq"}
