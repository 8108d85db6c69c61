"""The classes in this process (``make run``): a dict under one lock, expired by a clock."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from classroom.store import CLASS_TTL_SECONDS, ClassError, ClassStore

#: live classes one process keeps (a hall needs one; the cap bounds the memory a stranger fills)
MAX_CLASSES = 200


class MemoryStore(ClassStore):
    """Classes in a dict; a class untouched for ``ttl`` seconds is dropped when next looked at."""

    def __init__(self, ttl: float = CLASS_TTL_SECONDS,
                 clock: Callable[[], float] = time.monotonic, max_classes: int = MAX_CLASSES):
        self.ttl, self._clock, self._max = ttl, clock, max_classes
        self._classes: dict[str, dict] = {}
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

    def _create(self, code, hashed_key, secret):
        with self._lock:
            if self._live(code) is not None:
                return False
            if len(self._classes) >= self._max:
                raise ClassError("Too many classes are running on this server: try again "
                                 "later.", 503)
            self._classes[code] = {"meta": {"key_hash": hashed_key, "secret": secret,
                                            "view": ""},
                                   "active": self._clock(), "minted": 0, "poll": None,
                                   "seq": 0, "answers": {}, "rate": {}}
            return True

    def _meta(self, code):
        with self._lock:
            klass = self._live(code)
            return {**klass["meta"], "minted": klass["minted"]} if klass else None

    def _mint(self, code, cap):
        with self._lock:
            klass = self._live(code, touch=True)
            if klass is None or klass["minted"] >= cap:
                return False
            klass["minted"] += 1
            return True

    def _open_poll(self, code, question):
        with self._lock:
            klass = self._live(code, touch=True)
            klass["seq"] += 1
            klass["poll"] = {**question, "id": klass["seq"], "status": "open",
                             "revealed": False}
            klass["answers"] = {}
            return klass["seq"]

    def _update_poll(self, code, **fields):
        with self._lock:
            klass = self._live(code, touch=True)
            if klass is None or klass["poll"] is None:
                return False
            klass["poll"].update(fields)
            return True

    def _set_view(self, code, view):
        with self._lock:
            self._live(code, touch=True)["meta"]["view"] = view

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
            meta = self._live(code, touch=True)["meta"]
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

    def _answer(self, code, poll_id, token_id, option, rate_max, rate_window):
        with self._lock:
            klass = self._live(code, touch=True)
            poll = klass["poll"] if klass else None
            if poll is None or poll["id"] != poll_id:
                return "nopoll"
            if poll["status"] != "open":
                return "closed"
            if not 0 <= option < len(poll["options"]):
                return "option"
            if not self._count(klass, token_id, rate_max, rate_window):
                return "rate"
            klass["answers"][token_id] = option
            return "ok"

    def _answers(self, code, poll_id):
        with self._lock:
            klass = self._live(code)
            if klass is None or klass["poll"] is None or klass["poll"]["id"] != poll_id:
                return {}
            return dict(klass["answers"])
