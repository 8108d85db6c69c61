"""What a class is and what may be done to it: the rules every store keeps.

A class has a short **code** (what students type), an instructor **key** (a secret in the
instructor's link only; the store keeps its SHA-256, never the key), a **secret** that signs
the students' anonymous tokens, at most one **poll** at a time and the **view** the instructor
publishes for students who follow. A student **joins** and gets a token ``id.signature``; an
answer names the poll and an option, and is stored under the token's id, so one student has one
answer per poll (a new tap replaces it until the poll closes) and a replayed answer lands on
the same place: it counts once. A token the class did not sign is refused, so answers cannot be
made up without joining, and joins per class are capped. Nothing personal is stored: no name,
no address, no user agent.

:class:`ClassStore` does the checking; a store (memory or Redis) supplies the few storage
steps below it, each of which must be atomic.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from urllib.parse import urlsplit

#: a class that nothing happens in for this long is gone (its answers with it)
CLASS_TTL_SECONDS = 4 * 3600
#: the letters and digits of a code: no 0/O, 1/I/L, so a code read off a projector is typed right
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: answers per token per window, and the window (seconds): a tap, a change of mind, a retry
ANSWER_RATE = (12, 10)
#: views the instructor's pages may publish by themselves per window, and the window (seconds):
#: the player posts at most one every 0.5 s, so 20 in 10 s; two devices of the instructor fit
VIEW_RATE = (40, 10)
#: tokens one class hands out (a hall holds a few hundred; the cap bounds made-up students)
MAX_STUDENTS = 2000
MAX_OPTIONS = 8
MAX_TEXT_CHARS = 1500
MAX_VIEW_CHARS = 2000
_TOKEN = re.compile(r"^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{16})$")
_KEY = re.compile(r"^[A-Za-z0-9_-]{20,64}$")


class ClassError(ValueError):
    """A request the class refuses; ``message`` says what to do, ``status`` is its HTTP code."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass(frozen=True)
class NewClass:
    code: str
    key: str  # shown once, in the instructor's link


def normalise_code(text: str) -> str:
    """A typed code as the store keeps it: upper case, spaces and dashes dropped."""
    code = re.sub(r"[\s-]", "", str(text or "")).upper()
    if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
        raise ClassError(f"“{code[:12]}” is not a class code: a code is {CODE_LENGTH} letters "
                         "and digits, as shown on the projector.", 400)
    return code


def key_hash(key: str) -> str:
    return hashlib.sha256(str(key).encode()).hexdigest()


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _signature(secret: str, code: str, token_id: str) -> str:
    return _b64(hmac.new(secret.encode(), f"{code}|{token_id}".encode(), "sha256").digest()[:12])


def poll_question(key: str, question: str, options, answer: str, why: str) -> dict:
    """A poll's question as the store keeps it (the answer as an index into ``options``)."""
    options = [str(option) for option in options]
    if not 2 <= len(options) <= MAX_OPTIONS or answer not in options:
        raise ClassError("A poll needs 2 to 8 options, one of them the right answer.", 400)
    texts = [str(key), str(question), str(why), *options]
    if any(len(text) > MAX_TEXT_CHARS for text in texts):
        raise ClassError("A question's texts are too long for a poll.", 400)
    return {"key": str(key), "question": str(question), "options": options,
            "answer": options.index(answer), "why": str(why)}


def clean_view(url: str, pages: set[str], host: str | None = None) -> str:
    """The view to follow as a path of this app (``/train?step=3``); anything else refused.

    ``host`` (the ``Host`` the request came by): a whole URL must then name that host over
    http(s); without it a pasted URL keeps only its path and query."""
    parts = urlsplit(str(url or "").strip())
    path = "/" + parts.path.strip("/")
    other_host = host is not None and (parts.scheme or parts.netloc) and (
        parts.scheme not in ("http", "https") or parts.netloc.lower() != host.lower())
    if path.strip("/") not in pages or len(url) > MAX_VIEW_CHARS or other_host:
        raise ClassError("Publish a link to a page of this app (copy it with “Copy link”), "
                         "for example /train?step=3.", 400)
    query = "&".join(item for item in parts.query.split("&")
                     if item and not item.startswith(("present=", "embed")))
    return path + (f"?{query}" if query else "")


class ClassStore:
    """The rules; a subclass supplies the storage steps (``_create`` ... ``_answers``)."""

    ttl: float = CLASS_TTL_SECONDS

    # ---- the instructor -------------------------------------------------------------
    def create(self) -> NewClass:
        """A new class with a fresh code and key."""
        key = secrets.token_urlsafe(24)
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if self._create(code, key_hash(key), secrets.token_urlsafe(24)):
                return NewClass(code, key)
        raise ClassError("No free class code: try again in a minute.", 503)

    def is_instructor(self, code: str, key: str) -> bool:
        meta = self._meta_or_error(code)
        return bool(_KEY.match(str(key or ""))) and hmac.compare_digest(
            meta["key_hash"], key_hash(key))

    def _instructor(self, code: str, key: str) -> str:
        code = normalise_code(code)
        if not self.is_instructor(code, key):
            raise ClassError("Only the instructor's link can run this class (its key does not "
                             "match).", 403)
        return code

    def open_poll(self, code: str, key: str, question: dict) -> int:
        """Open a poll of ``question`` (:func:`poll_question`); the previous poll ends."""
        return self._open_poll(self._instructor(code, key), question)

    def reveal(self, code: str, key: str) -> None:
        if not self._update_poll(self._instructor(code, key), revealed=True):
            raise ClassError("There is no poll to show the answers of: open one first.", 409)

    def close(self, code: str, key: str) -> None:
        if not self._update_poll(self._instructor(code, key), status="closed"):
            raise ClassError("There is no poll to close.", 409)

    def publish_view(self, code: str, key: str, url: str, pages: set[str]) -> str:
        """The view students who follow see, pasted by hand on /class (published even when the
        pages' own publishing is stopped: the instructor asked for it); "" clears it."""
        view = clean_view(url, pages) if url else ""
        self._set_view(self._instructor(code, key), view)
        return view

    def follow_view(self, code: str, key: str, url: str, pages: set[str],
                    host: str | None = None) -> dict:
        """A view an instructor's page publishes by itself (its address after a step).

        Returns ``{"view": the view now followed, "publishing": bool}``: while the instructor
        has stopped publishing, the view is not changed. Rate-limited per class (``VIEW_RATE``),
        counted only once the key is right, so a stranger cannot use up the instructor's share.
        """
        code = self._instructor(code, key)
        view = clean_view(url, pages, host)
        outcome = self._follow_view(code, view, *VIEW_RATE)
        if outcome == "gone":  # ended between the key's check and now: its 404
            self._meta_or_error(code)
        if outcome == "rate":
            raise ClassError("Too many views published in a few seconds: the next step "
                             "will be published.", 429)
        if outcome == "paused":
            return {"view": self._meta_or_error(code).get("view", ""), "publishing": False}
        return {"view": view, "publishing": True}

    def set_publishing(self, code: str, key: str, on: bool) -> None:
        """Start or stop the pages' own publishing; stopping also clears the followed view."""
        self._set_publishing(self._instructor(code, key), bool(on))

    def instructor_state(self, code: str, key: str) -> dict:
        """The state with the counts, revealed or not."""
        code = self._instructor(code, key)
        return self._state(code, counts=True)

    # ---- the students ---------------------------------------------------------------
    def join(self, code: str) -> str:
        """A new anonymous token for class ``code``."""
        code = normalise_code(code)
        meta = self._meta_or_error(code)
        if not self._mint(code, MAX_STUDENTS):
            raise ClassError("This class is full: no more students can join.", 429)
        token_id = _b64(secrets.token_bytes(16))
        return f"{token_id}.{_signature(meta['secret'], code, token_id)}"

    def _token_id(self, code: str, token: str) -> str:
        match = _TOKEN.match(str(token or ""))
        meta = self._meta_or_error(code)
        if not match or not hmac.compare_digest(
                match.group(2), _signature(meta["secret"], code, match.group(1))):
            raise ClassError("Your answer could not be read (the token in this browser is "
                             "garbled or from another class): reload the page to rejoin.", 400)
        return match.group(1)

    def answer(self, code: str, token: str, poll_id, option) -> int:
        """Record ``option`` (an index) as this token's answer to poll ``poll_id``."""
        code = normalise_code(code)
        token_id = self._token_id(code, token)
        try:
            poll_id, option = int(poll_id), int(option)
        except (TypeError, ValueError):
            raise ClassError("An answer names a poll and an option by number.", 400) from None
        outcome = self._answer(code, poll_id, token_id, option, *ANSWER_RATE)
        messages = {
            "nopoll": ("This poll is over: a new question is on the projector.", 409),
            "closed": ("This poll is closed: your answer was not counted.", 409),
            "option": ("That option is not one of this question's.", 400),
            "rate": ("Too many answers in a few seconds: wait a moment and tap again.", 429),
        }
        if outcome in messages:
            raise ClassError(*messages[outcome])
        return option

    def public_state(self, code: str, token: str | None = None) -> dict:
        """What a student sees: the question and options, the counts only once revealed."""
        code = normalise_code(code)
        state = self._state(code, counts=False)
        if token and state["poll"]:
            token_id = self._token_id(code, token)
            state["mine"] = self._answers(code, state["poll"]["id"]).get(token_id)
        return state

    # ---- shared -----------------------------------------------------------------------
    def _meta_or_error(self, code: str) -> dict:
        meta = self._meta(normalise_code(code))
        if meta is None:
            raise ClassError(f"No class has the code {code}: check the code on the projector "
                             f"(a class ends after {self.ttl / 3600:g} hours without activity).",
                             404)
        return meta

    def _state(self, code: str, counts: bool) -> dict:
        meta = self._meta_or_error(code)
        poll = self._poll(code)
        state = {"code": code, "view": meta.get("view", ""), "poll": None, "mine": None}
        if counts:  # tokens handed out: about the students in the room (a reload keeps one)
            state["joined"] = int(meta.get("minted") or 0)
            # the instructor's pages publish their view unless stopped (a new class does)
            state["publishing"] = meta.get("paused") != "1"
        if poll:
            shown = {k: poll[k] for k in ("id", "key", "question", "options", "status",
                                          "revealed")}
            if counts or poll["revealed"]:
                chosen = list(self._answers(code, poll["id"]).values())
                shown["counts"] = [chosen.count(i) for i in range(len(poll["options"]))]
                shown["total"] = len(chosen)
            if poll["revealed"]:
                shown.update(answer=poll["answer"], why=poll["why"])
            state["poll"] = shown
        return state

    # ---- storage steps (atomic each) -------------------------------------------------
    def _create(self, code: str, hashed_key: str, secret: str) -> bool:
        raise NotImplementedError

    def _meta(self, code: str) -> dict | None:
        raise NotImplementedError

    def _mint(self, code: str, cap: int) -> bool:
        raise NotImplementedError

    def _open_poll(self, code: str, question: dict) -> int:
        raise NotImplementedError

    def _update_poll(self, code: str, **fields) -> bool:
        """False if the class has no poll."""
        raise NotImplementedError

    def _set_view(self, code: str, view: str) -> None:
        raise NotImplementedError

    def _follow_view(self, code: str, view: str, rate_max: int, rate_window: int) -> str:
        """At once: "gone" if the class has ended, count the publication ("rate" past
        ``rate_max`` in the window), then "paused" if publishing is stopped (meta ``paused`` is
        "1"), else set the view: "ok"."""
        raise NotImplementedError

    def _set_publishing(self, code: str, on: bool) -> None:
        """Set the publishing flag; when off, the view becomes "" in the same step."""
        raise NotImplementedError

    def _poll(self, code: str) -> dict | None:
        raise NotImplementedError

    def _answer(self, code: str, poll_id: int, token_id: str, option: int,
                rate_max: int, rate_window: int) -> str:
        raise NotImplementedError

    def _answers(self, code: str, poll_id: int) -> dict[str, int]:
        raise NotImplementedError
