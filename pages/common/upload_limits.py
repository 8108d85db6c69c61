"""Uploaded files: bounded per session, and freed once the session has ended.

Streamlit keeps every uploaded file's bytes in one MemoryUploadedFileManager per server
process, per session, until the session shuts down; a session that disconnects is kept
for reconnection and then dropped without a shutdown, so its files stayed in memory for
good, and one session sending raw uploads could add 5 MB per request. The manager is
given this subclass before the server takes its first request (:func:`limit_uploads`,
which app.py's lifespan hook calls through pages.common.server.configure_server):

- a session holds at most ``SESSION_UPLOAD_BYTES``: a new file drops the session's older
  files, oldest first, until it fits (the newest file is always kept). A page has already
  parsed the file it uses into the session's state (own_data_upload), so a dropped file
  only gives its uploader a fresh, empty box;
- every ``SWEEP_SECONDS`` (and at every upload) the files of sessions that are no longer
  connected are removed.
"""

from __future__ import annotations

import logging
import threading

from streamlit import runtime
from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager

_LOG = logging.getLogger("perceptron_lab")

#: most bytes of uploaded files one session holds (two files of the largest size, 5 MB)
SESSION_UPLOAD_BYTES = 11 * 1024 * 1024
#: how often the files of sessions that have ended are looked for
SWEEP_SECONDS = 10.0
_INSTALL_LOCK = threading.Lock()


class SessionBoundUploads(MemoryUploadedFileManager):
    """Streamlit's upload manager with a per-session byte bound and removal of the
    files of sessions the server no longer has (no new state: the class of the running
    manager is switched, so every route that holds it gets the bound)."""

    def add_file(self, session_id, file) -> None:
        super().add_file(session_id, file)
        with self._lock:
            files = self.file_storage.get(session_id, {})
            held = sum(len(kept.data) for kept in files.values())
            for file_id in [name for name in files if name != file.file_id]:
                if held <= SESSION_UPLOAD_BYTES:
                    break
                dropped = files.pop(file_id)  # the oldest first (dicts keep their order)
                held -= len(dropped.data)
                self._total_bytes -= len(dropped.data)
                self._file_count -= 1
            dropped = None
        self.remove_ended_sessions()

    def session_bytes(self, session_id: str) -> int:
        """Bytes of the files one session holds now."""
        with self._lock:
            return sum(len(f.data) for f in self.file_storage.get(session_id, {}).values())

    def remove_ended_sessions(self) -> None:
        """Remove the files of every session that is not connected to this server."""
        if not runtime.exists():
            return
        server = runtime.get_instance()
        with self._lock:
            sessions = list(self.file_storage)
        for session_id in sessions:
            if not server.is_active_session(session_id):
                self.remove_session_files(session_id)


def _sweep(manager: SessionBoundUploads, stop: threading.Event) -> None:
    while not stop.wait(SWEEP_SECONDS):
        try:
            manager.remove_ended_sessions()
        except Exception:  # never let the sweeper die; the next round tries again
            _LOG.exception("removing the uploads of ended sessions failed")


def limit_uploads() -> bool:
    """Give this server's upload manager the per-session bound and start its sweeper
    (once; later calls do nothing). False without a server's runtime (AppTest: no runtime
    or a mock one) or with another manager."""
    if not runtime.exists():  # not a server
        return False
    manager = getattr(runtime.get_instance(), "uploaded_file_mgr", None)
    with _INSTALL_LOCK:
        if isinstance(manager, SessionBoundUploads):
            return True
        if type(manager) is not MemoryUploadedFileManager:
            return False
        manager.__class__ = SessionBoundUploads
        threading.Thread(
            target=_sweep,
            args=(manager, threading.Event()),
            daemon=True,
            name="perceptron-upload-sweeper",
        ).start()
    return True
