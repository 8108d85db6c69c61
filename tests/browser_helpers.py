"""Helpers for browser end-to-end tests of the Streamlit app.

Used by ``tests/conftest.py`` (fixtures ``streamlit_server``, ``browser``,
``page``, ``app_page``), by the benchmarks and scripts/screenshots.py, and importable
from test modules::

    from browser_helpers import open_url, open_player, wait_for_player, assert_no_exception

- a server and a browser: ``run_streamlit``, ``launch_chromium`` (Debian's Chromium and
  its flags), ``new_page`` (a page in a browser context of its own);
- a page: ``open_url``, ``wait_for_app``, ``open_deferred_parts``, ``assert_no_exception``,
  ``assert_nothing_leaks``;
- the player: ``open_player``, ``wait_for_player``, ``open_link_with_step``;
- widgets and messages: ``input_box``, ``enter_value``, ``upload_csv``, ``alert``,
  ``link_warning`` / ``link_warning_text``.

Only the standard library is imported at module level (the server pieces are
scripts/serve.py's); Playwright is imported lazily so that non-browser tests never need it.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT / "scripts") not in sys.path:
    sys.path.insert(0, str(REPO_ROOT / "scripts"))
from serve import free_port, health_ok, stop_process_group  # noqa: E402

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
PLAYER_SELECTOR = '[data-testid="perceptron-player"]'
ALERT_SELECTOR = '[data-testid="stAlert"]'
#: the phrase of the one warning a page shows about values of its link that it ignored
IGNORED = "out of range or malformed"
#: how long a page may take to open or to rerun (ms) on a loaded 2-core machine
PAGE_TIMEOUT = 60_000


def require_browser() -> bool:
    """True when browser tests must run (CI sets REQUIRE_BROWSER=1)."""
    return os.environ.get("REQUIRE_BROWSER", "") == "1"


def resolve_app_path(app: str | os.PathLike[str] | None = None) -> Path:
    """Resolve the app script: argument, else $PERCEPTRON_LAB_APP, else app.py."""
    raw = app if app is not None else os.environ.get(APP_ENV_VAR) or DEFAULT_APP
    path = Path(raw)
    if not path.is_absolute():
        path = REPO_ROOT / path
    return path


def _tail(path: Path, n: int = 40) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-n:])
    except OSError:
        return "<no log>"


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
    port = port or free_port()
    base_url = f"http://127.0.0.1:{port}"
    cmd = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(app_path),
        "--server.port",
        str(port),
        "--server.address",
        "127.0.0.1",
        "--server.headless",
        "true",
        "--browser.gatherUsageStats",
        "false",
        "--server.runOnSave",
        "false",
        "--server.fileWatcherType",
        "none",
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
        while not health_ok(base_url):
            if proc.poll() is not None:
                raise RuntimeError(
                    f"streamlit exited with code {proc.returncode} before becoming "
                    f"healthy.\n--- {log_path} ---\n{_tail(log_path)}"
                )
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"streamlit not healthy at {base_url} after {startup_timeout:.0f}s."
                    f"\n--- {log_path} ---\n{_tail(log_path)}"
                )
            time.sleep(0.25)
        yield base_url
    finally:
        stop_process_group(proc)
        with contextlib.suppress(OSError):
            log_path.unlink()


def launch_chromium(playwright: Any, *extra_args: str, **kwargs: Any) -> Any:
    """Launch Debian's chromium headless via a started Playwright instance (or a
    ``BrowserType``), with ``CHROMIUM_ARGS`` and then ``extra_args``."""
    chromium = getattr(playwright, "chromium", playwright)
    return chromium.launch(
        executable_path=CHROMIUM_PATH,
        headless=True,
        args=[*CHROMIUM_ARGS, *extra_args],
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


def open_url(page: Any, url: str, timeout: float = PAGE_TIMEOUT) -> Any:
    """Go to ``url`` and wait until the app has drawn it (``wait_for_app``); returns ``page``."""
    page.goto(url)
    wait_for_app(page, timeout=timeout)
    return page


def open_deferred_parts(page: Any, timeout: float = PAGE_TIMEOUT) -> None:
    """Open every part of the page drawn only once opened (pages/common/deferred.py), and
    wait for it. They are clicked at once: the page runs again once for all of them; a
    part opened may show another one."""
    from pages.common.deferred import DEFERRED_KEY_PREFIX  # the app's, when a test needs it

    closed = page.locator(f"[class*='st-key-{DEFERRED_KEY_PREFIX}'] details:not([open]) > summary")
    for _ in range(3):
        if closed.count() == 0:
            return
        for summary in closed.element_handles():
            summary.click()
        wait_for_app(page, timeout=timeout)


@contextlib.contextmanager
def new_page(browser: Any, width: int = 1400, height: int = 1000) -> Iterator[Any]:
    """A page in a browser context of its own: no cookie, session or storage shared with
    any other page, as in another student's browser. The context is closed on exit."""
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(PAGE_TIMEOUT)
    try:
        yield context.new_page()
    finally:
        context.close()


def exception_texts(page: Any) -> list[str]:
    loc = page.locator(EXCEPTION_SELECTOR)
    return [loc.nth(i).inner_text() for i in range(loc.count())]


def assert_no_exception(page: Any) -> None:
    """Fail the test if the app shows any ``[data-testid="stException"]``."""
    texts = exception_texts(page)
    if texts:
        import pytest

        joined = "\n---\n".join(t.strip() for t in texts)
        pytest.fail(f"Streamlit app shows {len(texts)} exception(s):\n{joined}", pytrace=False)


def assert_nothing_leaks(page: Any) -> None:
    """No exception box, no traceback, no server path, no "could not be drawn" fallback and
    no Deploy button on the page."""
    from playwright.sync_api import expect

    assert_no_exception(page)
    body = page.locator("body").inner_text()
    assert "Traceback" not in body and "/work/" not in body and '.py"' not in body
    assert "could not be drawn" not in body
    expect(page.locator('[data-testid="stAppDeployButton"]')).to_have_count(0)


# ---------------------------------------------------------------------------
# Widgets, found by their key (Streamlit gives a keyed widget the class st-key-<key>)
# ---------------------------------------------------------------------------


def input_box(page: Any, key: str) -> Any:
    """The input box of the number or text input ``key`` (check what it shows with
    ``expect(...).to_have_value``)."""
    return page.locator(f".st-key-{key} input")


def enter_value(page: Any, key: str, value: str) -> None:
    """Type ``value`` into the number or text input ``key``, press Enter, wait for the rerun."""
    box = input_box(page, key)
    box.fill(value)
    box.press("Enter")
    wait_for_app(page, timeout=PAGE_TIMEOUT)


def upload_csv(page: Any, name: str, content: bytes) -> None:
    """Drop a CSV file named ``name`` into the page's file uploader and wait for the rerun."""
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        files=[{"name": name, "mimeType": "text/csv", "buffer": content}]
    )
    wait_for_app(page, timeout=PAGE_TIMEOUT)


def upload_then_lose_the_server(page: Any, port: int, path: str, name: str, content: bytes) -> None:
    """On a server of its own on ``port``: open ``path``, upload ``content`` as ``name`` and
    wait for the player; then stop that server and wait until the page knows it is gone."""
    from playwright.sync_api import expect

    with run_streamlit(port=port) as base:
        open_url(page, base + path)
        upload_csv(page, name, content)
        page.get_by_test_id("perceptron-player").wait_for()
    expect(page.locator(APP_SELECTOR)).not_to_have_attribute(
        "data-test-connection-state", "CONNECTED", timeout=30_000
    )


def assert_the_lost_upload_is_named(page: Any, name: str) -> None:
    """With the server back on the same port and no click: the page reconnects and reruns
    by itself, says the upload was lost, and shows a fresh uploader and no player."""
    from playwright.sync_api import expect

    expect(page.locator(APP_SELECTOR)).to_have_attribute(
        "data-test-connection-state", "CONNECTED", timeout=60_000
    )
    warning = page.locator(ALERT_SELECTOR, has_text="server restarted")
    warning.wait_for(timeout=30_000)
    assert "upload the file again" in warning.inner_text()
    uploader = page.locator('[data-testid="stFileUploader"]')
    # while the rerun replaces the page, the old uploader may stand beside the new one for
    # a moment: wait for the one the page now has
    expect(uploader).to_have_count(1, timeout=30_000)
    assert name not in uploader.inner_text()  # a fresh, empty uploader
    assert page.get_by_test_id("perceptron-player").count() == 0


def alert(page: Any, text: Any) -> Any:
    """The alert boxes (st.warning, st.error, st.info, st.success) containing ``text`` (a
    string or a compiled regular expression), as a locator."""
    return page.locator(ALERT_SELECTOR, has_text=text)


def link_warning(page: Any) -> Any:
    """The page's warning about values of its link that it ignored (a locator)."""
    return alert(page, IGNORED)


def link_warning_text(page: Any) -> str:
    """The text of the page's one link warning, once it is drawn (there must be one)."""
    from playwright.sync_api import expect

    warning = link_warning(page)
    expect(warning).to_have_count(1, timeout=PAGE_TIMEOUT)
    return warning.inner_text()


# ---------------------------------------------------------------------------
# The player (pages/player/player.js): its root carries data-step, data-updates, data-playing
# ---------------------------------------------------------------------------


def open_player(page: Any, url: str) -> Any:
    """Open ``url`` (a page with a player) and return the player's root once it is there."""
    open_url(page, url)
    player = page.get_by_test_id("perceptron-player")
    player.wait_for()
    return player


def train_page_run(n: int = 40, margin: float = 0.1, seed: int = 7) -> Any:
    """The run /train's player steps at its defaults (bias, δ = 0, cyclic order, w = 0) on
    its generated data with ``n`` points, margin ``margin`` and data seed ``seed``."""
    from perceptron_core import make_separable, run_perceptron

    data = make_separable(n=n, margin=margin, dim=2, radius=1.0, seed=seed)
    return data, run_perceptron(
        data.X,
        data.y,
        bias=True,
        delta=0.0,
        order="cyclic",
        seed=0,
        max_updates=5_000,
        max_epochs=500,
    )


def kernels_page_run(order: str, seed: int) -> Any:
    """The run /kernels' player steps at its default data and kernel (two circles, n = 100,
    data seed 0; RBF, κ = 2, a bias) in ``order`` with order seed ``seed``."""
    from perceptron_core import kernel_perceptron, make_circles

    data = make_circles(n=100, seed=0)
    return data, kernel_perceptron(
        data.X,
        data.y,
        kernel="rbf",
        scale=2.0,
        bias=True,
        order=order,
        seed=seed,
        max_updates=2_000,
        max_epochs=500,
    )


@contextlib.contextmanager
def offline_export(page: Any, base: str, folder: Path) -> Iterator[tuple[Any, Any]]:
    """/train's "Player (HTML, works offline)" downloaded into ``folder`` and opened in a
    context of its own with every request refused (no server, no network): yields (the
    viewer's page, its player's root)."""
    open_player(page, f"{base}/train")
    page.get_by_text("Export: data, trace, player").click()
    with page.expect_download() as download_info:
        page.get_by_role("button", name="Player (HTML, works offline)").click()
    html_file = folder / "player.html"
    download_info.value.save_as(html_file)
    offline = page.context.browser.new_context()
    try:
        viewer = offline.new_page()
        viewer.route("http*://**", lambda route: route.abort())
        viewer.goto(html_file.as_uri())
        player = viewer.get_by_test_id("perceptron-player")
        player.wait_for()
        yield viewer, player
    finally:
        offline.close()


def open_link_with_step(page: Any, other_page: Any, step: int) -> tuple[str, Any]:
    """Wait until ``page``'s address bar carries ``step=<step>`` (the player writes it after
    a pause), open that link in ``other_page`` (say, another student's browser) and return
    (the link, the player there)."""
    page.wait_for_function(
        "(step) => new URLSearchParams(location.search).get('step') === String(step)", arg=step
    )
    link = page.url
    return link, open_player(other_page, link)


def wait_for_player(
    player: Any,
    step: int | None = None,
    updates: int | None = None,
    *,
    playing: bool | None = None,
    min_updates: int | None = None,
    timeout: float = 30_000,
) -> tuple[int, int]:
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
        if (
            shown_step is not None
            and (step is None or shown_step == step)
            and (updates is None or shown_updates == updates)
            and (playing is None or shown_playing == playing)
            and (min_updates is None or shown_updates >= min_updates)
        ):
            return shown_step, shown_updates
        if time.monotonic() > deadline:
            raise TimeoutError(
                f"player shows step {shown_step}, updates {shown_updates}, "
                f"playing {shown_playing}; wanted step {step}, updates "
                f"{updates}, playing {playing}, at least {min_updates}"
            )
        time.sleep(0.03)
