"""Helpers for browser end-to-end tests of the Streamlit app.

Used by ``tests/conftest.py`` (fixtures ``streamlit_server``, ``browser``,
``page``, ``app_page``) and importable from test modules::

    from browser_helpers import wait_for_app, assert_no_exception

Only the standard library is imported at module level; Playwright is imported
lazily so that non-browser tests never need it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent

#: Debian's chromium; Playwright's own browser downloads are not available.
CHROMIUM_PATH = os.environ.get("PERCEPTRON_CHROMIUM", "/usr/bin/chromium")

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

#: Env var selecting the Streamlit script (absolute, or relative to the repo root).
APP_ENV_VAR = "PERCEPTRON_LAB_APP"
DEFAULT_APP = "app.py"

# Selectors (verified against the Streamlit 1.67.0 frontend bundle).
APP_SELECTOR = '[data-testid="stApp"]'
#: The root stApp element carries data-test-script-state (initial | running |
#: notRunning | rerunRequested | stopRequested | compilationError) and
#: data-test-connection-state (CONNECTED | CONNECTING | ...).
APP_IDLE_SELECTOR = (
    '[data-testid="stApp"]'
    '[data-test-connection-state="CONNECTED"]'
    '[data-test-script-state="notRunning"]'
)
#: Visible "Running..." indicator inside [data-testid="stStatusWidget"].
STATUS_RUNNING_SELECTOR = '[data-testid="stStatusWidgetRunningIcon"]'
STATUS_WIDGET_SELECTOR = '[data-testid="stStatusWidget"]'
EXCEPTION_SELECTOR = '[data-testid="stException"]'

_NO_PROXY_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def require_browser() -> bool:
    """True when browser tests must run (CI sets REQUIRE_BROWSER=1)."""
    return os.environ.get("REQUIRE_BROWSER", "") == "1"


def find_free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def resolve_app_path(app: str | os.PathLike[str] | None = None) -> Path:
    """Resolve the app script: argument, else $PERCEPTRON_LAB_APP, else app.py."""
    raw = app if app is not None else os.environ.get(APP_ENV_VAR) or DEFAULT_APP
    path = Path(raw)
    if not path.is_absolute():
        path = REPO_ROOT / path
    return path


def _health_ok(url: str) -> bool:
    try:
        with _NO_PROXY_OPENER.open(url, timeout=2) as resp:
            return resp.status == 200 and resp.read().strip() == b"ok"
    except (urllib.error.URLError, OSError, ValueError):
        return False


def _tail(path: Path, n: int = 40) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-n:])
    except OSError:
        return "<no log>"


def _kill_group(proc: subprocess.Popen[Any], timeout: float = 10.0) -> None:
    if proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=timeout)


@contextlib.contextmanager
def run_streamlit(
    app: str | os.PathLike[str] | None = None,
    *,
    port: int | None = None,
    startup_timeout: float = 60.0,
    extra_args: list[str] | None = None,
) -> Iterator[str]:
    """Start ``streamlit run APP`` on 127.0.0.1 and yield its base URL.

    The server runs with cwd = repo root (so ``.streamlit/config.toml`` applies)
    in its own process group, which is killed on exit.  Raises RuntimeError
    (with the tail of the server log) if it does not become healthy in time.
    """
    app_path = resolve_app_path(app)
    if not app_path.is_file():
        raise FileNotFoundError(f"Streamlit app not found: {app_path}")
    port = port or find_free_port()
    base_url = f"http://127.0.0.1:{port}"
    cmd = [
        sys.executable, "-m", "streamlit", "run", str(app_path),
        "--server.port", str(port),
        "--server.address", "127.0.0.1",
        "--server.headless", "true",
        "--browser.gatherUsageStats", "false",
        "--server.runOnSave", "false",
        "--server.fileWatcherType", "none",
        *(extra_args or []),
    ]
    env = dict(os.environ)
    env["PYTHONUNBUFFERED"] = "1"
    env["STREAMLIT_BROWSER_GATHER_USAGE_STATS"] = "false"
    log_fd, log_name = tempfile.mkstemp(prefix="streamlit-", suffix=".log")
    log_path = Path(log_name)
    with os.fdopen(log_fd, "wb") as log:
        proc = subprocess.Popen(
            cmd,
            cwd=REPO_ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # own process group -> killpg on teardown
        )
    try:
        deadline = time.monotonic() + startup_timeout
        health = f"{base_url}/_stcore/health"
        while not _health_ok(health):
            if proc.poll() is not None:
                raise RuntimeError(
                    f"streamlit exited with code {proc.returncode} before becoming "
                    f"healthy.\n--- {log_path} ---\n{_tail(log_path)}"
                )
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"streamlit not healthy at {health} after {startup_timeout:.0f}s."
                    f"\n--- {log_path} ---\n{_tail(log_path)}"
                )
            time.sleep(0.25)
        yield base_url
    finally:
        _kill_group(proc)
        with contextlib.suppress(OSError):
            log_path.unlink()


def launch_chromium(playwright: Any, **kwargs: Any) -> Any:
    """Launch Debian's chromium headless via a started Playwright instance."""
    return playwright.chromium.launch(
        executable_path=CHROMIUM_PATH,
        headless=True,
        args=list(CHROMIUM_ARGS),
        **kwargs,
    )


_IDLE_JS = """([appSel, runningSel]) => {
    const app = document.querySelector(appSel);
    if (!app) return false;
    if (app.getAttribute('data-test-connection-state') !== 'CONNECTED') return false;
    const st = app.getAttribute('data-test-script-state');
    if (st !== 'notRunning' && st !== 'compilationError') return false;
    const icon = document.querySelector(runningSel);
    return !(icon && icon.offsetParent !== null);
}"""


def wait_for_app(page: Any, timeout: float = 30_000, settle_ms: int = 300) -> None:
    """Wait until the Streamlit app is rendered and no script run is in progress.

    1. waits for ``[data-testid="stApp"]``;
    2. polls until stApp has data-test-connection-state="CONNECTED" and
       data-test-script-state="notRunning" (or "compilationError"), and no
       visible ``[data-testid="stStatusWidgetRunningIcon"]``;
    3. requires that idle state to hold for ``settle_ms`` (so a rerun triggered
       by a just-performed click/keypress is not missed), then returns.

    Call it after ``page.goto(...)`` and after every interaction that reruns
    the script.  ``timeout`` is in milliseconds, like Playwright's.
    """
    page.wait_for_selector(APP_SELECTOR, state="attached", timeout=timeout)
    deadline = time.monotonic() + timeout / 1000.0
    idle_since: float | None = None
    while True:
        idle = page.evaluate(_IDLE_JS, [APP_SELECTOR, STATUS_RUNNING_SELECTOR])
        now = time.monotonic()
        if idle:
            if idle_since is None:
                idle_since = now
            elif (now - idle_since) * 1000.0 >= settle_ms:
                return
        else:
            idle_since = None
        if now > deadline:
            state = page.evaluate(
                "(s) => { const a = document.querySelector(s); return a ? "
                "[a.getAttribute('data-test-connection-state'), "
                "a.getAttribute('data-test-script-state')] : null; }",
                APP_SELECTOR,
            )
            raise TimeoutError(
                f"Streamlit app did not become idle within {timeout:.0f} ms "
                f"(connection/script state: {state})"
            )
        page.wait_for_timeout(50)


def exception_texts(page: Any) -> list[str]:
    loc = page.locator(EXCEPTION_SELECTOR)
    return [loc.nth(i).inner_text() for i in range(loc.count())]


def assert_no_exception(page: Any) -> None:
    """Fail the test if the app shows any ``[data-testid="stException"]``."""
    texts = exception_texts(page)
    if texts:
        import pytest

        joined = "\n---\n".join(t.strip() for t in texts)
        pytest.fail(
            f"Streamlit app shows {len(texts)} exception(s):\n{joined}", pytrace=False
        )


def wait_for_player(player: Any, *, step: int | None = None, updates: int | None = None,
                    playing: bool | None = None, min_updates: int | None = None,
                    timeout: float = 15_000) -> tuple[int, int]:
    """Wait until a player root (a locator of ``data-testid="perceptron-player"``) shows
    the given ``data-step`` / ``data-updates`` / ``data-playing`` (or at least
    ``min_updates``), then return (step, updates).

    Reads the attributes through the locator on every poll, so a player that Streamlit
    mounts again (a rerun with new data) is followed instead of going stale.
    """
    deadline = time.monotonic() + timeout / 1000.0
    while True:
        try:
            shown_step = int(player.get_attribute("data-step", timeout=2_000))
            shown_updates = int(player.get_attribute("data-updates", timeout=2_000))
            shown_playing = player.get_attribute("data-playing", timeout=2_000) == "true"
        except Exception:  # noqa: BLE001 - mounting: the attributes are not there yet
            shown_step = shown_updates = None
            shown_playing = None
        if shown_step is not None and (step is None or shown_step == step) and (
                updates is None or shown_updates == updates) and (
                playing is None or shown_playing == playing) and (
                min_updates is None or shown_updates >= min_updates):
            return shown_step, shown_updates
        if time.monotonic() > deadline:
            raise TimeoutError(f"player shows step {shown_step}, updates {shown_updates}, "
                               f"playing {shown_playing}; wanted step {step}, updates "
                               f"{updates}, playing {playing}, at least {min_updates}")
        time.sleep(0.03)
