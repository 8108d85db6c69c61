"""The classes in this process (``make run``): a dict under one lock, expired by a clock."""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable

from classroom.clients import Limit, take
from classroom.store import CLASS_TTL_SECONDS, ClassError, ClassStore

#: live classes one process keeps (a hall needs one; the cap bounds the memory a stranger fills,
#: and the per-address limit on starting classes keeps one stranger far from it)
MAX_CLASSES = 200
#: the store's own buckets (starting classes) kept before full ones are dropped
_MAX_BUCKETS = 10_000


class MemoryStore(ClassStore):
    """Classes in a dict; a class untouched for ``ttl`` seconds is dropped when next looked at."""

    def __init__(
        self,
        ttl: float = CLASS_TTL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        max_classes: int = MAX_CLASSES,
    ):
        self.ttl, self._clock, self._max = ttl, clock, max_classes
        self._classes: dict[str, dict] = {}
        self._buckets: dict[str, tuple[float, float]] = {}
        self._salt_value = secrets.token_urlsafe(16)
        self._lock = threading.Lock()

    def _live(self, code: str, touch: bool = False) -> dict | None:
        """The class (under the lock), None if missing or expired; ``touch`` marks activity."""
        now = self._clock()
        for old in [c for c, k in self._classes.items() if now - k["active"] > self.ttl]:
            del self._classes[old]
        klass = self._classes.get(code)
        if klass is not None and touch:
            klass["active"] = now
        return klass

    def _present(self, code: str) -> dict:
        """The class (under the lock) for an instructor's action: its key was checked a moment
        ago, but the class can expire in between; then the 404 of a code no class has."""
        klass = self._live(code, touch=True)
        if klass is None:
            raise ClassError(
                f"No class has the code {code}: it ended after "
                f"{self.ttl / 3600:g} hours without activity.",
                404,
            )
        return klass

    def _create(self, code, hashed_key, secret):
        with self._lock:
            if self._live(code) is not None:
                return False
            if len(self._classes) >= self._max:
                raise ClassError(
                    "Too many classes are running on this server: try again later.", 503
                )
            self._classes[code] = {
                "meta": {"key_hash": hashed_key, "secret": secret, "view": ""},
                "active": self._clock(),
                "minted": 0,
                "poll": None,
                "seq": 0,
                "answers": {},
                "late": {},
                "rate": {},
                "buckets": {},
            }
            return True

    def _meta(self, code):
        with self._lock:
            klass = self._live(code)
            return {**klass["meta"], "minted": klass["minted"]} if klass else None

    def _mint(self, code):
        with self._lock:
            klass = self._live(code, touch=True)
            if klass is None:
                return None
            klass["minted"] += 1
            return klass["minted"]

    def _open_poll(self, code, question, round_=1, first=0):
        with self._lock:
            klass = self._present(code)
            klass["seq"] += 1
            poll_id = klass["seq"]
            klass["poll"] = {
                **question,
                "id": poll_id,
                "status": "open",
                "revealed": False,
                "hidden": False,
                "round": round_,
                "first": first,
            }
            # the new poll's answers, and the first round's when it asks the question again
            kept = {first: klass["answers"].get(first, {})} if first else {}
            klass["answers"] = {**kept, poll_id: {}}
            klass["late"] = {poll_id: set()}
            return poll_id

    def _update_poll(self, code, **fields):
        with self._lock:
            klass = self._live(code, touch=True)
            if klass is None or klass["poll"] is None:
                return False
            klass["poll"].update(fields)
            return True

    def _update_meta(self, code, **fields):
        with self._lock:
            klass = self._live(code, touch=True)
            if klass is not None:
                klass["meta"].update({name: str(value) for name, value in fields.items()})

    def _set_view(self, code, view):
        with self._lock:
            self._present(code)["meta"]["view"] = view

    def _follow_view(self, code, view, rate_max, rate_window):
        with self._lock:
            klass = self._live(code, touch=True)
            if klass is None:
                return "gone"
            if not self._count(klass, "view", rate_max, rate_window):
                return "rate"
            if klass["meta"].get("paused") == "1":
                return "paused"
            klass["meta"]["view"] = view
            return "ok"

    def _set_publishing(self, code, on):
        with self._lock:
            meta = self._present(code)["meta"]
            meta["paused"] = "0" if on else "1"
            if not on:
                meta["view"] = ""

    def _count(self, klass, who, rate_max, rate_window) -> bool:
        """Count one request of ``who`` (a token id, or "view") in its window (under the lock);
        False past ``rate_max``."""
        now = self._clock()
        start, count = klass["rate"].get(who, (now, 0))
        if now - start >= rate_window:
            start, count = now, 0
        klass["rate"][who] = (start, count + 1)
        return count + 1 <= rate_max

    def _poll(self, code):
        with self._lock:
            klass = self._live(code)
            return dict(klass["poll"]) if klass and klass["poll"] else None

    def _answer(self, code, poll_id, token_id, option, rate_max, rate_window, number=0):
        with self._lock:
            klass = self._live(code, touch=True)
            poll = klass["poll"] if klass else None
            if klass is None or poll is None or poll["id"] != poll_id:
                return "nopoll"
            if poll["status"] != "open":
                return "revealed" if poll["revealed"] else "closed"
            if not 0 <= option < len(poll["options"]):
                return "option"
            if not self._count(klass, token_id, rate_max, rate_window):
                return "rate"
            klass["answers"][poll_id][token_id] = option
            if poll.get("first_at") is None:
                poll["first_at"] = klass["minted"]
            if number > poll["first_at"]:
                klass["late"][poll_id].add(token_id)
            return "ok"

    def _answers(self, code, poll_id):
        with self._lock:
            klass = self._live(code)
            if klass is None:
                return {}
            return dict(klass["answers"].get(poll_id, {}))

    def _late(self, code, poll_id):
        with self._lock:
            klass = self._live(code)
            return len(klass["late"].get(poll_id, ())) if klass else 0

    def _take(self, code, kind, who, limit: Limit):
        with self._lock:
            now = self._clock()
            if code is None:
                buckets = self._buckets
                if len(buckets) > _MAX_BUCKETS:  # drop the buckets that are full again
                    for name in [
                        n
                        for n, (t, at) in buckets.items()
                        if take(t, at, now, limit)[0] >= limit.burst - 1
                    ]:
                        del buckets[name]
            else:
                klass = self._live(code)  # a refused flood is no activity of the class
                if klass is None:
                    return 0.0  # the class has gone: the caller's next step says so
                buckets = klass["buckets"]
            name = f"{kind}:{who}"
            tokens, at = buckets.get(name, (None, None))
            left, wait = take(tokens, at, now, limit)
            buckets[name] = (left, now)
            return wait

    def _salt(self):
        return self._salt_value
