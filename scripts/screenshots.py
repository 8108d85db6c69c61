"""Take a screenshot of every page with headless Chromium into assets/.

Run from the repository root: ``python scripts/screenshots.py``. Starts its own
Streamlit server on a free loopback port and stops it at the end.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from browser_helpers import wait_for_app  # noqa: E402

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
PAGES = {"home": "", "train": "train", "bound": "bound", "aggressive": "aggressive",
         "adversary": "adversary"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def main(out_dir: Path = ROOT / "assets") -> None:
    from playwright.sync_api import sync_playwright

    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port),
         "--server.address", "127.0.0.1", "--server.headless", "true",
         "--browser.gatherUsageStats", "false"], cwd=ROOT,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                if urllib.request.urlopen(f"{base}/_stcore/health", timeout=2).read() == b"ok":
                    break
            except OSError:
                time.sleep(0.5)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium",
                                                 args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1600, "height": 2400})
            out_dir.mkdir(exist_ok=True)
            for name, path in PAGES.items():
                page.goto(f"{base}/{path}")
                wait_for_app(page)
                if name == "train":
                    for _ in range(3):
                        page.get_by_role("button", name="Next mistake").click()
                        wait_for_app(page)
                page.wait_for_timeout(1500)
                page.screenshot(path=str(out_dir / f"{name}.png"), full_page=True)
                print("saved", out_dir / f"{name}.png")
            browser.close()
    finally:
        os.killpg(server.pid, 15)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "assets")
