"""A simulated student: Streamlit's own websocket protocol, no browser.

A browser that opens ``/train?n=60`` fetches the page, asks ``/_stcore/health`` and
``/_stcore/host-config``, then opens the websocket ``/_stcore/stream`` and sends one
``BackMsg`` whose ``rerun_script`` is a ``ClientState`` (the query string, the page's
URL path as ``page_name``, the widget values it holds, the hashes of the messages it
has cached). The server answers with ``ForwardMsg`` protobufs: ``new_session`` at the
start of every script run, one ``delta`` per element or block (its position in the
page is ``metadata.delta_path``), and ``script_finished``. A cacheable element the
client already holds comes back as a short ``ref_hash`` message instead.

:class:`Student` does the same from Python (``websockets``, which also negotiates
permessage-deflate as Chromium does), so hundreds of students fit on one machine;
:class:`PageRecorder` turns received ``ForwardMsg`` bytes into the page they describe,
for a student's run and, in the tests, for the frames a real Chromium received.

Loopback addresses only: :class:`Student` refuses any other host. Every wait has a
timeout and every loop a bound.
"""

from __future__ import annotations

import asyncio
import ipaddress
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

FINISHED_SUCCESSFULLY = ForwardMsg.ScriptFinishedStatus.FINISHED_SUCCESSFULLY
FINISHED_WITH_COMPILE_ERROR = ForwardMsg.ScriptFinishedStatus.FINISHED_WITH_COMPILE_ERROR
FINISHED_FRAGMENT_RUN_SUCCESSFULLY = (
    ForwardMsg.ScriptFinishedStatus.FINISHED_FRAGMENT_RUN_SUCCESSFULLY
)
#: Most messages one page run may take (the /train page sends about 80).
MAX_MESSAGES_PER_RUN = 20_000
#: Streamlit's own limit on one message (server.maxMessageSize, 200 MB).
MAX_MESSAGE_BYTES = 200 * 1024 * 1024
#: Bounded HTTP responses (the page HTML and host-config are a few kB).
MAX_HTTP_BYTES = 16 * 1024 * 1024


class StudentError(RuntimeError):
    """A page run that failed: timeout, closed connection, exception on the page, ..."""


def widget_key(widget_id: str) -> str | None:
    """The user key of a keyed widget id ``$$ID-<hash>-<key>`` (None if unkeyed)."""
    if widget_id.startswith("$$ID-"):
        parts = widget_id.split("-", 2)
        if len(parts) == 3 and parts[2]:
            return parts[2]
    return None


def element_kind(msg: ForwardMsg) -> str | None:
    """The kind of element a delta puts on the page: ``slider``, ``block:column``, ..."""
    delta = msg.delta
    which = delta.WhichOneof("type")
    if which == "new_element":
        return delta.new_element.WhichOneof("type")
    if which == "add_block":
        return f"block:{delta.add_block.WhichOneof('type')}"
    return which  # add_rows, new_transient, ...


@dataclass
class PageEntry:
    """One element of a page: its position, kind, widget id and the message itself."""

    path: tuple[int, ...]
    kind: str
    widget_id: str | None = None
    message: ForwardMsg | None = field(default=None, repr=False, compare=False)

    @property
    def key(self) -> str | None:
        return widget_key(self.widget_id) if self.widget_id else None


@dataclass
class PageRun:
    """What one script run sent: the page, its size and how it ended."""

    entries: dict[tuple[int, ...], PageEntry] = field(default_factory=dict)
    status: int | None = None
    messages: int = 0
    wire_bytes: int = 0
    seconds: float = 0.0

    @property
    def finished(self) -> bool:
        return self.status in (FINISHED_SUCCESSFULLY, FINISHED_FRAGMENT_RUN_SUCCESSFULLY)

    def exceptions(self) -> list[str]:
        return [
            f"{e.message.delta.new_element.exception.type}: "
            f"{e.message.delta.new_element.exception.message}"
            for e in self.entries.values()
            if e.kind == "exception" and e.message
        ]

    def widgets(self) -> dict[str, PageEntry]:
        """Keyed widgets by user key."""
        return {e.key: e for e in self.entries.values() if e.key}

    def layout(
        self, *, include_transient: bool = False
    ) -> list[tuple[tuple[int, ...], str, str | None]]:
        """The page as sorted (position, kind, widget key) triples, for comparisons.

        ``new_transient`` deltas (spinners such as "Training…") are left out unless asked:
        whether one is sent depends on timing and on the cache, not on the page.
        """
        return sorted(
            (e.path, e.kind, e.key)
            for e in self.entries.values()
            if include_transient or e.kind != "new_transient"
        )


class PageRecorder:
    """Builds pages from ``ForwardMsg`` bytes, as the browser's message handler does.

    Feed it every received frame with :meth:`feed`; it returns the finished
    :class:`PageRun` when a ``script_finished`` ends a full or fragment run, else None.
    It keeps the browser's message cache (``hash`` → message of every cacheable
    element) so that ``ref_hash`` messages resolve to the element they stand for, and
    the latest query string and page hash the server announced.
    """

    def __init__(self) -> None:
        self.cache: dict[str, ForwardMsg] = {}
        self.current = PageRun()
        self.session_id: str | None = None
        self.page_script_hash = ""
        self.query_string: str | None = None
        self.unresolved_refs = 0

    def feed(self, raw: bytes) -> PageRun | None:
        msg = ForwardMsg()
        msg.ParseFromString(raw)
        self.current.messages += 1
        self.current.wire_bytes += len(raw)
        which = msg.WhichOneof("type")
        if which == "ref_hash":
            cached = self.cache.get(msg.ref_hash)
            if cached is None:
                self.unresolved_refs += 1
                return None
            resolved = ForwardMsg()
            resolved.CopyFrom(cached)
            resolved.metadata.CopyFrom(msg.metadata)  # its own position on this page
            msg, which = resolved, "delta"
        elif msg.metadata.cacheable and msg.hash:
            self.cache[msg.hash] = msg
        if which == "new_session":
            # every full script run starts with new_session: the page is rebuilt
            self.current = PageRun(messages=1, wire_bytes=len(raw))
            self.page_script_hash = msg.new_session.page_script_hash
            if msg.new_session.initialize.session_id:
                self.session_id = msg.new_session.initialize.session_id
        elif which == "delta":
            path = tuple(msg.metadata.delta_path)
            kind = element_kind(msg) or "unknown"
            widget_id = None
            if msg.delta.WhichOneof("type") == "new_element":
                element = getattr(msg.delta.new_element, kind, None)
                candidate = getattr(element, "id", None)
                widget_id = candidate if isinstance(candidate, str) and candidate else None
            elif kind == "block:expandable" and msg.delta.add_block.expandable.id:
                # an expander with on_change="rerun" is a widget: its id carries its key
                widget_id = msg.delta.add_block.expandable.id
            self.current.entries[path] = PageEntry(path, kind, widget_id, msg)
        elif which == "navigation":
            # with st.navigation the page that ran is named here (new_session names
            # the entry script); the browser sends it back with every rerun
            self.page_script_hash = msg.navigation.page_script_hash
        elif which == "page_info_changed":
            self.query_string = msg.page_info_changed.query_string
        elif which == "script_finished":
            status = msg.script_finished
            if status in (
                FINISHED_SUCCESSFULLY,
                FINISHED_FRAGMENT_RUN_SUCCESSFULLY,
                FINISHED_WITH_COMPILE_ERROR,
            ):
                run, self.current = self.current, PageRun()
                run.status = status
                return run
        return None


def widget_state(entry: PageEntry, value) -> WidgetState:
    """The ``WidgetState`` a browser sends when the widget ``entry`` takes ``value``.

    Covers the widgets a load test changes: sliders (a list of floats), number inputs,
    checkboxes, toggles and keyed expanders with ``on_change="rerun"`` (open or closed);
    pass a ready ``WidgetState`` for anything else.
    """
    if isinstance(value, WidgetState):
        return value
    state = WidgetState(id=entry.widget_id)
    if entry.kind == "slider":
        values = value if isinstance(value, (list, tuple)) else [value]
        state.double_array_value.data.extend(float(v) for v in values)
    elif entry.kind == "number_input":
        if entry.message.delta.new_element.number_input.data_type == 0:  # INT
            state.int_value = int(value)
        else:
            state.double_value = float(value)
    elif entry.kind in ("checkbox", "block:expandable"):
        state.bool_value = bool(value)  # an expander: True is open
    else:
        raise ValueError(f"no rule for a {entry.kind} widget: pass a WidgetState instead")
    return state


def _require_loopback(host: str | None) -> str:
    if host == "localhost":
        return host
    try:
        if host and ipaddress.ip_address(host).is_loopback:
            return host
    except ValueError:
        pass
    raise ValueError(f"simulated students only talk to loopback addresses, not {host!r}")


async def http_get(
    host: str, port: int, target: str, cookies: dict[str, str], timeout: float
) -> tuple[int, dict[str, str], int]:
    """One HTTP/1.1 GET (Connection: close); returns status, headers, body bytes.

    Stores the response's cookies in ``cookies`` (the proxy's stickiness cookie).
    """
    headers = [
        f"GET {target} HTTP/1.1",
        f"Host: {host}:{port}",
        "Accept-Encoding: gzip",
        "Connection: close",
        "User-Agent: perceptron-load",
    ]
    if cookies:
        headers.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in cookies.items()))

    async def exchange():
        reader, writer = await asyncio.open_connection(host, port)
        try:
            writer.write(("\r\n".join(headers) + "\r\n\r\n").encode())
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            body = await reader.read(MAX_HTTP_BYTES)
            return head, body
        finally:
            writer.close()

    head, body = await asyncio.wait_for(exchange(), timeout)
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    response_headers: dict[str, str] = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            name = name.strip().lower()
            if name == "set-cookie":
                pair = value.strip().split(";", 1)[0]
                if "=" in pair:
                    cookie, cookie_value = pair.split("=", 1)
                    cookies[cookie] = cookie_value
            response_headers[name] = value.strip()
    return status, response_headers, len(body)


class Student:
    """One simulated browser tab on ``base_url + path`` with ``query``.

    >>> student = Student("http://127.0.0.1:8501", "/train", "n=60")
    >>> run = await student.open()          # page HTML, health, websocket, first page
    >>> run = await student.change("margin", 0.2)   # a widget change, the page again
    >>> await student.close()
    """

    def __init__(
        self, base_url: str, path: str = "/", query: str = "", *, timeout: float = 60.0
    ) -> None:
        parts = urlsplit(base_url)
        self.host = _require_loopback(parts.hostname)
        self.port = parts.port or 80
        self.path = "/" + path.strip("/") if path.strip("/") else "/"
        self.query = query.lstrip("?")
        self.timeout = timeout
        self.cookies: dict[str, str] = {}
        self.recorder = PageRecorder()
        self.widget_states: dict[str, WidgetState] = {}
        self.last_run: PageRun | None = None
        self.http_bytes = 0
        self._ws = None

    @property
    def page_name(self) -> str:
        return self.path.strip("/")

    async def open(self) -> PageRun:
        """What a browser does to open the link, up to the page fully sent."""
        start = time.perf_counter()
        target = self.path + (f"?{self.query}" if self.query else "")
        for url in (target, "/_stcore/health", "/_stcore/host-config"):
            status, _, size = await http_get(self.host, self.port, url, self.cookies, self.timeout)
            self.http_bytes += size
            if status != 200:
                raise StudentError(f"GET {url} answered {status}")
        headers = (
            {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
            if self.cookies
            else None
        )
        self._ws = await asyncio.wait_for(
            connect(
                f"ws://{self.host}:{self.port}/_stcore/stream",
                subprotocols=["streamlit"],
                additional_headers=headers,
                max_size=MAX_MESSAGE_BYTES,
                open_timeout=self.timeout,
                close_timeout=5,
            ),
            self.timeout,
        )
        run = await self._rerun(start)
        return run

    async def change(self, key: str, value) -> PageRun:
        """Set the keyed widget ``key`` to ``value`` and wait for the page again."""
        if self.last_run is None:
            raise StudentError("open the page before changing a widget")
        entry = self.last_run.widgets().get(key)
        if entry is None:
            raise StudentError(f"the page has no widget with key {key!r}")
        self.widget_states[entry.widget_id] = widget_state(entry, value)
        return await self._rerun(time.perf_counter())

    async def open_part(self, key: str) -> PageRun:
        """Open the keyed expander ``key`` (a page's deferred part, ``show_part_<name>``)
        as a student's click does, and wait for the page again, the part's body included."""
        entry = self.last_run.widgets().get(key) if self.last_run is not None else None
        if entry is None or entry.kind != "block:expandable":
            raise StudentError(f"the page has no expander with key {key!r} that reruns when opened")
        return await self.change(key, True)

    async def _rerun(self, start: float) -> PageRun:
        message = BackMsg()
        state = message.rerun_script
        state.query_string = (
            self.recorder.query_string if self.recorder.query_string is not None else self.query
        )
        state.page_script_hash = self.recorder.page_script_hash
        state.page_name = self.page_name
        state.widget_states.widgets.extend(self.widget_states.values())
        state.cached_message_hashes.extend(self.recorder.cache)
        state.context_info.url = f"http://{self.host}:{self.port}{self.path}" + (
            f"?{state.query_string}" if state.query_string else ""
        )
        state.context_info.timezone = "UTC"
        state.context_info.locale = "en-US"
        await self._ws.send(message.SerializeToString())
        deadline = start + self.timeout
        try:
            for _ in range(MAX_MESSAGES_PER_RUN):
                remaining = deadline - time.perf_counter()
                if remaining <= 0:
                    raise TimeoutError
                raw = await asyncio.wait_for(self._ws.recv(), remaining)
                if isinstance(raw, str):
                    raise StudentError("the server sent a text frame")
                run = self.recorder.feed(raw)
                if run is not None:
                    break
            else:
                raise StudentError(f"no script_finished in {MAX_MESSAGES_PER_RUN} messages")
        except TimeoutError as error:
            raise StudentError(f"page not sent within {self.timeout:.0f} s") from error
        except ConnectionClosed as error:
            raise StudentError(f"websocket closed: {error}") from error
        run.seconds = time.perf_counter() - start
        if self.recorder.unresolved_refs:
            raise StudentError(f"{self.recorder.unresolved_refs} ref_hash messages not cached")
        if not run.finished:
            raise StudentError(f"script ended with status {run.status}")
        if run.exceptions():
            raise StudentError("exception on the page: " + "; ".join(run.exceptions()))
        self.last_run = run
        return run

    @property
    def connected(self) -> bool:
        return self._ws is not None and self._ws.state.name == "OPEN"

    async def close(self) -> None:
        if self._ws is not None:
            try:
                await asyncio.wait_for(self._ws.close(), 10)
            except (TimeoutError, ConnectionClosed, OSError):
                pass
            self._ws = None
