"""Issue #23 item 4: uploads are bounded per session and freed when the session ends.

A real server (uploads go through Streamlit's route, PUT /_stcore/upload_file/<session>/
<file> with the XSRF cookie and token, as a browser sends them); what its upload manager
holds is read from the server's own metrics (/_stcore/metrics, cache_memory_bytes of the
UploadedFileManager)."""

from __future__ import annotations

import asyncio
import sys
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.request import Request, urlopen

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from browser_helpers import run_streamlit  # noqa: E402
from load_client import Student  # noqa: E402

from pages.common.upload_limits import SESSION_UPLOAD_BYTES  # noqa: E402
from web_security import OPEN_METRICS_VARIABLE  # noqa: E402

FILE_BYTES = int(4.9 * 1024 * 1024)  # just under the 5 MB a file may have
METRICS_SECONDS = 5.5  # Streamlit computes cache_memory_bytes at most once per 5 s


def held_bytes(base: str) -> int:
    """Bytes of uploaded files the server's upload manager holds (0 when none)."""
    with urlopen(f"{base}/_stcore/metrics", timeout=30) as response:
        text = response.read().decode()
    lines = [
        line
        for line in text.splitlines()
        if line.startswith("cache_memory_bytes") and "UploadedFileManager" in line
    ]
    return sum(int(float(line.rsplit(" ", 1)[1])) for line in lines)


def upload(base: str, student: Student, body: bytes) -> int:
    """One raw upload of ``body`` as a CSV file into the student's session; the status."""
    boundary = uuid.uuid4().hex
    form = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
            f'filename="big.csv"\r\nContent-Type: text/csv\r\n\r\n'
        ).encode()
        + body
        + f"\r\n--{boundary}--\r\n".encode()
    )
    token = student.cookies["_streamlit_xsrf"]
    request = Request(
        f"{base}/_stcore/upload_file/{student.recorder.session_id}/{uuid.uuid4()}",
        data=form,
        method="PUT",
        headers={
            "Content-Type": f"multipart/form-data; boundary={boundary}",
            "X-Xsrftoken": token,
            "Cookie": f"_streamlit_xsrf={token}",
        },
    )
    with urlopen(request, timeout=60) as response:
        return response.status


def test_one_session_holds_at_most_its_bound_and_an_ended_session_holds_nothing(monkeypatch):
    async def scenario(base: str) -> None:
        student = Student(base, "/train", "source=upload", timeout=120)
        await student.open()
        assert student.recorder.session_id and "_streamlit_xsrf" in student.cookies
        body = b"x,y,label\n" + b"0.5,0.5,1\n" * (FILE_BYTES // 10)
        for _ in range(8):  # 39 MB sent through one session
            assert upload(base, student, body) == 204
        await asyncio.sleep(METRICS_SECONDS)  # the server's metrics are at most 5 s old
        assert len(body) <= held_bytes(base) <= SESSION_UPLOAD_BYTES  # the newest is kept
        await student.close()
        deadline = time.monotonic() + 60
        while held_bytes(base) and time.monotonic() < deadline:
            await asyncio.sleep(1)
        assert held_bytes(base) == 0  # freed within a sweep of the session's end

    # the served app answers 404 at /_stcore/metrics (web_security); this server opens them
    monkeypatch.setenv(OPEN_METRICS_VARIABLE, "1")
    with run_streamlit() as base:
        # in a thread of its own: a browser test's Playwright may hold this thread's loop
        with ThreadPoolExecutor(max_workers=1) as pool:
            pool.submit(asyncio.run, scenario(base)).result(timeout=600)
