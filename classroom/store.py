"""What a class is and what may be done to it: the rules every store keeps.

A class has a short **code** (what students type), an instructor **key** (a secret the
instructor's browser keeps; the store keeps its SHA-256, never the key), a **secret** that signs
the students' anonymous tokens, at most one **poll** at a time and the **view** the instructor
publishes for students who follow. A student **joins** and gets a token ``id.n.signature``
(``n``: they were the class's n-th token); an answer names the poll and an option, and
is stored under the token's id, so one student has one answer per poll (a new tap replaces it
while the poll is open) and a replayed answer lands on the same place: it counts once. A token
the class did not sign is refused, so answers cannot be made up without joining. Nothing
personal is stored: no name, no address, no user agent.

A poll's life is **open → closed → revealed**: answers are taken only while it is open, and
showing the answers closes it first, so the chart shown is the chart that stays. For **peer
instruction** the instructor may, once, let the room vote again on the same question: the
second round is a new poll that remembers the first, so the two votes are shown side by side
(and, per token, how many moved to the right answer).

Against a hostile room (anyone can read the code off the projector): joins and answers are
limited per client address by token buckets sized so that a whole hall behind one NAT still
passes; the instructor sees how many have joined, may close joining, and may give the class
size they expect (the projector warns past it). No count of tokens ever closes the class: one
address can never lock the room out. An answer from a token minted after the poll's first
answer is counted apart, so a browser that cleared its storage to vote again in that poll shows
on the projector. Starting classes is limited per client address too.

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
from urllib.parse import parse_qsl, urlencode, urlsplit

from classroom.clients import Limit, address_key

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
#: joins per client address and class. A student's browser joins once (a reload, or cleared
#: storage with the cookie kept, reuses its token), so a hall of 500 behind one NAT, all
#: scanning the QR code within 10 s, needs 500 in 10 s: 400 at once + 20/s passes it with 100 to
#: spare, and a hall of 1000 within 30 s; past that a phone joins by itself a few seconds later
#: (measured: docs/security.md, "Rate limits")
JOIN_LIMIT = Limit(burst=400, per_second=20.0)
#: answers per client address and class: that hall of 500 tapping twice each within 10 s (an
#: answer and a change of mind) sends 1000; 600 at once + 50/s passes it with 100 to spare
ANSWER_LIMIT = Limit(burst=600, per_second=50.0)
#: classes started per client address: a lecturer starts one per lecture (and a few to try);
#: 20 at once, then one every 6 minutes, so one computer keeps at most 60 alive (a class
#: lives 4 hours) of the 200 a server holds
CREATE_LIMIT = Limit(burst=20, per_second=10 / 3600)
#: the largest class size an instructor may say they expect
MAX_EXPECTED = 100_000
#: the two votes of peer instruction: the first round, and the vote after the discussion
ROUNDS = 2
MAX_OPTIONS = 8
MAX_TEXT_CHARS = 1500
MAX_VIEW_CHARS = 2000
#: a whole number sent as a poll id or an option (JSON's exactly representable integers)
_WHOLE = 2**53
_TOKEN = re.compile(r"^([A-Za-z0-9_-]{22})\.([0-9]{1,12})\.([A-Za-z0-9_-]{16})$")
_KEY = re.compile(r"^[A-Za-z0-9_-]{20,64}$")
#: query parameters a published view never carries: the presenter stage, the embedding, and
#: a class's own code and key
_DROPPED_PARAMS = ("present", "embed", "embed_options", "code", "key")


class ClassError(ValueError):
    """A request the class refuses; ``message`` says what to do, ``status`` is its HTTP code,
    ``retry_after`` the seconds until a refused request would pass (429 only)."""

    def __init__(self, message: str, status: int = 400, retry_after: float | None = None):
        super().__init__(message)
        self.message = message
        self.status = status
        self.retry_after = retry_after


@dataclass(frozen=True)
class NewClass:
    code: str
    key: str  # kept by the instructor's browser, never drawn


def normalise_code(text: str) -> str:
    """A typed code as the store keeps it: upper case, spaces and dashes dropped."""
    code = re.sub(r"[\s-]", "", str(text or "")).upper()
    if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
        raise ClassError(
            f"“{code[:12]}” is not a class code: a code is {CODE_LENGTH} letters "
            "and digits, as shown on the projector.",
            400,
        )
    return code


def key_hash(key: str) -> str:
    return hashlib.sha256(str(key).encode()).hexdigest()


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _signature(secret: str, code: str, token_id: str, number: int) -> str:
    message = f"{code}|{token_id}|{number}".encode()
    return _b64(hmac.new(secret.encode(), message, "sha256").digest()[:12])


def _whole(value) -> int:
    """A poll id or an option index as sent: a whole number (not a bool, not 2.0)."""
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) >= _WHOLE:
        raise ClassError("An answer names a poll and an option by number.", 400)
    return value


def _wait_text(seconds: float) -> str:
    seconds = max(1, round(seconds))
    if seconds < 90:
        return f"{seconds} second{'' if seconds == 1 else 's'}"
    return f"{round(seconds / 60)} minutes"


def poll_question(key: str, question: str, options, answer: str, why: str) -> dict:
    """A poll's question as the store keeps it (the answer as an index into ``options``)."""
    options = [str(option) for option in options]
    if not 2 <= len(options) <= MAX_OPTIONS or answer not in options:
        raise ClassError("A poll needs 2 to 8 options, one of them the right answer.", 400)
    texts = [str(key), str(question), str(why), *options]
    if any(len(text) > MAX_TEXT_CHARS for text in texts):
        raise ClassError("A question's texts are too long for a poll.", 400)
    return {
        "key": str(key),
        "question": str(question),
        "options": options,
        "answer": options.index(answer),
        "why": str(why),
    }


def clean_view(url: str, pages: set[str], host: str | None = None) -> str:
    """The view to follow as a path of this app (``/train?step=3``); anything else refused.

    ``host`` (the ``Host`` the request came by): a whole URL must then name that host over
    http(s); without it a pasted URL keeps only its path and query. The query is read as the
    app reads it (percent-decoded), so a parameter spelled ``%70resent`` is the ``present`` it
    decodes to, and dropped like it."""
    parts = urlsplit(str(url or "").strip())
    path = "/" + parts.path.strip("/")
    other_host = (
        host is not None
        and (parts.scheme or parts.netloc)
        and (parts.scheme not in ("http", "https") or parts.netloc.lower() != host.lower())
    )
    if path.strip("/") not in pages or len(url) > MAX_VIEW_CHARS or other_host:
        raise ClassError(
            "Publish a link to a page of this app (copy it with “Copy link”), "
            "for example /train?step=3.",
            400,
        )
    kept = [
        (name, value)
        for name, value in parse_qsl(parts.query, keep_blank_values=True)
        if name.strip().lower() not in _DROPPED_PARAMS
    ]
    query = urlencode(kept)
    return path + (f"?{query}" if query else "")


def _round_comparison(first: dict[str, int], second: dict[str, int], right: int) -> dict:
    """How the second vote differs from the first, per token that voted in both."""
    both = [token for token in second if token in first]
    return {
        "both": len(both),
        "to_right": sum(first[t] != right and second[t] == right for t in both),
        "from_right": sum(first[t] == right and second[t] != right for t in both),
    }


class ClassStore:
    """The rules; a subclass supplies the storage steps (``_create`` ... ``_take``)."""

    ttl: float = CLASS_TTL_SECONDS

    # ---- the instructor -------------------------------------------------------------
    def create(self, client: str | None = None) -> NewClass:
        """A new class with a fresh code and key; ``client`` (an address) is limited to
        ``CREATE_LIMIT``."""
        if client is not None:
            wait = self._take(None, "create", address_key(self._salt(), client), CREATE_LIMIT)
            if wait:
                raise ClassError(
                    f"This computer has started {CREATE_LIMIT.burst} classes in a "
                    f"short time: go on with the class you started, or try again "
                    f"in {_wait_text(wait)}.",
                    429,
                    wait,
                )
        key = secrets.token_urlsafe(24)
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if self._create(code, key_hash(key), secrets.token_urlsafe(24)):
                return NewClass(code, key)
        raise ClassError("No free class code: try again in a minute.", 503)

    def is_instructor(self, code: str, key: str) -> bool:
        meta = self._meta_or_error(code)
        return bool(_KEY.match(str(key or ""))) and hmac.compare_digest(
            meta["key_hash"], key_hash(key)
        )

    def _instructor(self, code: str, key: str) -> str:
        code = normalise_code(code)
        if not self.is_instructor(code, key):
            raise ClassError(
                "Only the instructor's link can run this class (its key does not match).", 403
            )
        return code

    def open_poll(self, code: str, key: str, question: dict) -> int:
        """Open a poll of ``question`` (:func:`poll_question`); the previous poll ends."""
        return self._open_poll(self._instructor(code, key), question)

    def reveal(self, code: str, key: str) -> None:
        """Show the answers: the poll closes in the same step, so no answer changes after."""
        if not self._update_poll(self._instructor(code, key), status="closed", revealed=True):
            raise ClassError("There is no poll to show the answers of: open one first.", 409)

    def close(self, code: str, key: str) -> None:
        if not self._update_poll(self._instructor(code, key), status="closed"):
            raise ClassError("There is no poll to close.", 409)

    def hide_result(self, code: str, key: str, hidden: bool) -> None:
        """Hide (or show again) a closed poll's counts on the projector, while the room
        discusses before voting again."""
        if not self._update_poll(self._instructor(code, key), hidden=bool(hidden)):
            raise ClassError("There is no poll whose result could be hidden.", 409)

    def vote_again(self, code: str, key: str) -> int:
        """Peer instruction: a second vote on the current question, as a new poll that
        remembers the first (its answers are kept and compared)."""
        code = self._instructor(code, key)
        poll = self._poll(code)
        if poll is None:
            raise ClassError("There is no poll to vote on again: open one first.", 409)
        if poll["revealed"]:
            raise ClassError(
                "The answers of this poll are shown already: a second vote would "
                "only repeat them. Open the next question.",
                409,
            )
        if poll["round"] >= ROUNDS:
            raise ClassError("The room has voted twice on this question: show the answers.", 409)
        question = {name: poll[name] for name in ("key", "question", "options", "answer", "why")}
        return self._open_poll(code, question, round_=poll["round"] + 1, first=poll["id"])

    def set_joining(self, code: str, key: str, open_: bool) -> None:
        """Close joining (no new tokens; those who joined go on) or open it again."""
        self._update_meta(self._instructor(code, key), joining="open" if open_ else "closed")

    def set_expected(self, code: str, key: str, size) -> None:
        """The class size the instructor expects (0: none); the projector warns past it."""
        if isinstance(size, bool) or not isinstance(size, int) or not 0 <= size <= MAX_EXPECTED:
            raise ClassError(f"A class size is a whole number from 0 to {MAX_EXPECTED}.", 400)
        self._update_meta(self._instructor(code, key), expected=size)

    def publish_view(self, code: str, key: str, url: str, pages: set[str]) -> str:
        """The view students who follow see, pasted by hand on /class (published even when the
        pages' own publishing is stopped: the instructor asked for it); "" clears it."""
        view = clean_view(url, pages) if url else ""
        self._set_view(self._instructor(code, key), view)
        return view

    def follow_view(
        self, code: str, key: str, url: str, pages: set[str], host: str | None = None
    ) -> dict:
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
            raise ClassError(
                "Too many views published in a few seconds: the next step will be published.", 429
            )
        if outcome == "paused":
            return {"view": self._meta_or_error(code).get("view", ""), "publishing": False}
        return {"view": view, "publishing": True}

    def set_publishing(self, code: str, key: str, on: bool) -> None:
        """Start or stop the pages' own publishing; stopping also clears the followed view."""
        self._set_publishing(self._instructor(code, key), bool(on))

    def instructor_state(self, code: str, key: str) -> dict:
        """The state with the counts, revealed or not, and the joining figures."""
        code = self._instructor(code, key)
        return self._state(code, counts=True)

    # ---- the students ---------------------------------------------------------------
    def join(self, code: str, client: str | None = None, token: str | None = None) -> str:
        """An anonymous token for class ``code``: ``token`` again if it is one of this class's
        (a browser that lost its storage but kept its cookie is the same student), else a new
        one, if joining is open and ``client`` (an address) is within ``JOIN_LIMIT``."""
        code = normalise_code(code)
        meta = self._meta_or_error(code)
        if token:
            try:
                self._token_parts(code, token, meta)
                return token
            except ClassError:
                pass  # a stale cookie: join as anyone would
        if meta.get("joining") == "closed":
            raise ClassError(
                "The instructor has closed joining for this class: ask them to "
                "open it if you have just arrived.",
                403,
            )
        if client is not None:
            wait = self._take(code, "join", address_key(meta["secret"], client), JOIN_LIMIT)
            if wait:
                raise ClassError(
                    f"Many students joined from your network at once: this page "
                    f"joins by itself in {_wait_text(wait)}.",
                    429,
                    wait,
                )
        number = self._mint(code)
        if number is None:  # ended between the check and now: its 404
            self._meta_or_error(code)
            raise ClassError("The class was not ready: the page joins again by itself.", 503)
        token_id = _b64(secrets.token_bytes(16))
        return f"{token_id}.{number}.{_signature(meta['secret'], code, token_id, number)}"

    def _token_parts(self, code: str, token: str, meta: dict | None = None) -> tuple[str, int]:
        """(id, how many tokens the class had minted with it) of a token this class signed."""
        match = _TOKEN.match(str(token or ""))
        meta = meta or self._meta_or_error(code)
        if not match or not hmac.compare_digest(
            match.group(3), _signature(meta["secret"], code, match.group(1), int(match.group(2)))
        ):
            raise ClassError(
                "Your answer could not be read (the token in this browser is "
                "garbled or from another class): reload the page to rejoin.",
                400,
            )
        return match.group(1), int(match.group(2))

    def answer(self, code: str, token: str, poll_id, option, client: str | None = None) -> int:
        """Record ``option`` (an index) as this token's answer to poll ``poll_id``."""
        code = normalise_code(code)
        meta = self._meta_or_error(code)
        token_id, number = self._token_parts(code, token, meta)
        poll_id, option = _whole(poll_id), _whole(option)
        if client is not None:
            wait = self._take(code, "answer", address_key(meta["secret"], client), ANSWER_LIMIT)
            if wait:
                raise ClassError(
                    f"Many answers came from your network at once: your answer is "
                    f"sent again in {_wait_text(wait)}.",
                    429,
                    wait,
                )
        outcome = self._answer(code, poll_id, token_id, option, *ANSWER_RATE, number=number)
        messages = {
            "nopoll": ("This poll is over: your screen shows the current one in a moment.", 409),
            "closed": ("This poll is closed: your answer was not counted.", 409),
            "revealed": (
                "The answers are shown, so this poll is closed: your answer was not counted.",
                409,
            ),
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
            token_id, _ = self._token_parts(code, token)
            state["mine"] = self._answers(code, state["poll"]["id"]).get(token_id)
        return state

    # ---- shared -----------------------------------------------------------------------
    def _meta_or_error(self, code: str) -> dict:
        meta = self._meta(normalise_code(code))
        if meta is None:
            raise ClassError(
                f"No class has the code {code}: check the code on the projector "
                f"(a class ends after {self.ttl / 3600:g} hours without activity).",
                404,
            )
        return meta

    def _state(self, code: str, counts: bool) -> dict:
        meta = self._meta_or_error(code)
        poll = self._poll(code)
        state = {"code": code, "view": meta.get("view", ""), "poll": None, "mine": None}
        if counts:  # tokens handed out: about the students in the room (a reload keeps one)
            state["joined"] = int(meta.get("minted") or 0)
            state["joining"] = meta.get("joining") != "closed"
            state["expected"] = int(meta.get("expected") or 0)
            # the instructor's pages publish their view unless stopped (a new class does)
            state["publishing"] = meta.get("paused") != "1"
        if poll:
            shown = {
                k: poll[k]
                for k in ("id", "key", "question", "options", "status", "revealed", "round")
            }
            if counts:
                shown["hidden"] = poll["hidden"]
            if counts or poll["revealed"]:
                answers = self._answers(code, poll["id"])
                chosen = list(answers.values())
                shown["counts"] = [chosen.count(i) for i in range(len(poll["options"]))]
                shown["total"] = len(chosen)
                if poll["first"]:
                    first = self._answers(code, poll["first"])
                    before = list(first.values())
                    shown["first"] = {
                        "counts": [before.count(i) for i in range(len(poll["options"]))],
                        "total": len(before),
                    }
                    if poll["revealed"] and counts:
                        shown["first"].update(_round_comparison(first, answers, poll["answer"]))
                if counts:
                    shown["late"] = self._late(code, poll["id"])
            if poll["revealed"]:
                shown.update(answer=poll["answer"], why=poll["why"])
            state["poll"] = shown
        return state

    # ---- storage steps (atomic each) -------------------------------------------------
    def _create(self, code: str, hashed_key: str, secret: str) -> bool:
        raise NotImplementedError

    def _meta(self, code: str) -> dict | None:
        raise NotImplementedError

    def _mint(self, code: str) -> int | None:
        """Count one more student; how many tokens were minted with it (None: class gone)."""
        raise NotImplementedError

    def _open_poll(self, code: str, question: dict, round_: int = 1, first: int = 0) -> int:
        """A new poll (id: one more than the last); ``first``: the poll whose question it
        asks again (its answers are kept), 0 for a new question."""
        raise NotImplementedError

    def _update_poll(self, code: str, **fields) -> bool:
        """Set the poll's fields at once; False if the class has no poll."""
        raise NotImplementedError

    def _update_meta(self, code: str, **fields) -> None:
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
        """The poll: its question's fields, id, status, revealed, hidden, round, first."""
        raise NotImplementedError

    def _answer(
        self,
        code: str,
        poll_id: int,
        token_id: str,
        option: int,
        rate_max: int,
        rate_window: int,
        number: int = 0,
    ) -> str:
        """At once: "nopoll", "closed", "revealed", "option", "rate" or store it ("ok"). The
        poll's first answer notes how many tokens were minted then; an answer of a token minted
        after that (its ``number`` is higher: a late student, or a browser that cleared its
        storage to vote again) is also counted apart."""
        raise NotImplementedError

    def _answers(self, code: str, poll_id: int) -> dict[str, int]:
        raise NotImplementedError

    def _late(self, code: str, poll_id: int) -> int:
        """How many of poll ``poll_id``'s answers came from tokens minted after its first."""
        raise NotImplementedError

    def _take(self, code: str | None, kind: str, who: str, limit: Limit) -> float:
        """Take one token from bucket ``kind`` of ``who`` (class ``code``'s, or the store's
        when None): 0.0 if there was one, else the seconds until there is."""
        raise NotImplementedError

    def _salt(self) -> str:
        """The secret the store's own limits file addresses under (not a class's)."""
        raise NotImplementedError
