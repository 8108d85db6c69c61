"""Chromium through HAProxy (deploy/haproxy.cfg, scripts/serve.py) with two replicas.

Which replica served a request: HAProxy's stickiness cookie ``REPLICA`` names it, and
every response a replica answered carries ``X-Replica`` (set by the proxy; responses
from the proxy's own cache carry none). The tests run in file order: the last one
kills a replica.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "scripts"))

from browser_helpers import PAGE_TIMEOUT, open_url, require_browser, resolve_app_path, wait_for_app  # noqa: E402
from serve import ONE_BLAS_THREAD, deployment, find_haproxy, free_port  # noqa: E402

VIEW = "/train?n=60&margin=0.2&data_seed=3"
FIRST_VISIT_LIMIT = 3 * 1024 * 1024
UPLOAD_CSV = b"x1,x2,label\n0.1,0.9,cat\n0.8,0.2,dog\n-0.5,0.4,cat\n0.6,-0.7,dog\n-0.2,0.8,cat\n"


@pytest.fixture(scope="module")
def proxy():
    if find_haproxy() is None:
        reason = "haproxy not found (Debian: apt-get install -y haproxy)"
        if require_browser():
            pytest.fail(f"REQUIRE_BROWSER=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    with deployment(
        2, free_port(), stats_port=free_port(), app_dir=resolve_app_path().parent
    ) as dep:
        yield dep


class Student:
    """One browser (own cookies and cache) and the replicas that answered it."""

    def __init__(self, browser, proxy):
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.context.set_default_timeout(PAGE_TIMEOUT)
        self.page = self.context.new_page()
        self.proxy = proxy
        self.responses = []  # (url, headers, response)
        self.websockets = []
        self.page.on("response", lambda r: self.responses.append((r.url, r.headers, r)))
        self.page.on("websocket", lambda ws: self.websockets.append(ws))

    def open(self, path=VIEW):
        open_url(self.page, self.proxy.url + path)

    def replica(self) -> str | None:
        cookies = {c["name"]: c["value"] for c in self.context.cookies()}
        return cookies.get("REPLICA")

    def answered_by(self) -> set[str]:
        return {h["x-replica"] for _, h, _ in self.responses if "x-replica" in h}

    def close(self):
        self.context.close()


def test_every_replica_runs_with_one_blas_thread(proxy):
    """A replica's OpenBLAS must not spin a second thread against the CPU budget (a
    request's computations are counted in its own thread's CPU time)."""
    running = [r for r in proxy.replicas if r.process is not None and r.process.poll() is None]
    assert running
    for replica in running:
        environ = Path(f"/proc/{replica.process.pid}/environ").read_bytes().split(b"\0")
        variables = dict(entry.decode().split("=", 1) for entry in environ if b"=" in entry)
        for name, value in ONE_BLAS_THREAD.items():
            assert variables.get(name) == value, (replica.name, name, variables.get(name))


def test_a_first_visit_is_compressed_and_small(browser, proxy):
    student = Student(browser, proxy)
    try:
        student.open()
        student.page.get_by_test_id("perceptron-player").wait_for()  # the player is drawn
        wait_for_app(student.page, timeout=PAGE_TIMEOUT)
        scripts = [
            (url, headers, response)
            for url, headers, response in student.responses
            if url.endswith(".js")
        ]
        transferred, raw = 0, 0
        for _, _headers, response in student.responses:
            sizes = response.request.sizes()
            transferred += sizes["responseBodySize"] + sizes["responseHeadersSize"]
        for _url, _headers, response in scripts:
            raw += len(response.body())
        largest_url, largest_headers, _ = max(scripts, key=lambda s: len(s[2].body()))
        assert largest_headers.get("content-encoding") == "gzip", largest_url
        assert all(h.get("content-encoding") == "gzip" for u, h, _ in scripts if "/static/" in u), (
            "every script through the proxy is gzipped"
        )
        print(
            f"first visit: {transferred / 2**20:.2f} MB transferred in "
            f"{len(student.responses)} responses; JavaScript {raw / 2**20:.2f} MB raw"
        )
        assert transferred <= FIRST_VISIT_LIMIT, f"{transferred / 2**20:.2f} MB transferred"
    finally:
        student.close()


def test_two_students_get_different_replicas_and_keep_them(browser, proxy):
    first, second = Student(browser, proxy), Student(browser, proxy)
    try:
        first.open()
        second.open()
        replicas = (first.replica(), second.replica())
        assert set(replicas) == {"r1", "r2"}, replicas
        stats = proxy.stats()
        assert [int(stats[r]["scur"]) for r in ("r1", "r2")] == [1, 1]  # one websocket each
        for student in (first, second):  # reruns: the margin slider, two steps
            handle = student.page.locator(".st-key-margin input[type='range']")
            for _ in range(2):
                handle.focus()
                handle.press("ArrowRight")
                wait_for_app(student.page, timeout=PAGE_TIMEOUT)
            assert "margin=0.22" in student.page.url
        assert (first.replica(), second.replica()) == replicas
        assert first.answered_by() == {replicas[0]}
        assert second.answered_by() == {replicas[1]}
        assert len(first.websockets) == len(second.websockets) == 1  # never reconnected
    finally:
        first.close()
        second.close()


def test_an_upload_reaches_the_replica_holding_the_session(browser, proxy):
    student = Student(browser, proxy)
    try:
        student.open("/train?source=upload")
        student.page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
            files=[{"name": "hall.csv", "mimeType": "text/csv", "buffer": UPLOAD_CSV}]
        )
        wait_for_app(student.page, timeout=PAGE_TIMEOUT)
        student.page.get_by_text("hall.csv: 5 rows").wait_for()
        uploads = [(h, r) for url, h, r in student.responses if "/_stcore/upload_file/" in url]
        assert uploads, "no upload request went through the proxy"
        assert all(r.status < 300 for _, r in uploads)
        assert {h.get("x-replica") for h, _ in uploads} == {student.replica()}
        assert student.page.locator('[data-testid="stException"]').count() == 0
    finally:
        student.close()


def test_a_student_on_a_stopped_replica_moves_to_the_other_with_the_same_view(browser, proxy):
    student = Student(browser, proxy)
    try:
        student.open()
        handle = student.page.locator(".st-key-margin input[type='range']")
        handle.focus()
        handle.press("ArrowRight")
        wait_for_app(student.page, timeout=PAGE_TIMEOUT)
        url_before = student.page.url
        main = student.page.locator('[data-testid="stMain"]')
        text_before = main.inner_text()
        before = student.replica()
        proxy.stop_replica(int(before[1:]) - 1)  # a crash: SIGKILL
        survivor = "r2" if before == "r1" else "r1"
        deadline_ms = 45_000
        waited = 0
        while student.replica() != survivor and waited < deadline_ms:
            student.page.wait_for_timeout(250)
            waited += 250
        assert student.replica() == survivor, "the page did not move to the other replica"
        wait_for_app(student.page, timeout=PAGE_TIMEOUT)
        student.page.locator(".st-key-margin").wait_for()
        wait_for_app(student.page, timeout=PAGE_TIMEOUT)
        assert student.page.url == url_before
        assert student.page.locator('[data-testid="stException"]').count() == 0
        assert main.inner_text() == text_before
        assert len(student.websockets) >= 2  # it reconnected
    finally:
        student.close()
