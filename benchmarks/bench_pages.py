"""How fast every page opens, against a bare Streamlit page in the same run.

For each page, and for a bare one-line Streamlit page (benchmarks/bare_page.py) served by a
second server of the same Streamlit:

* Lighthouse (npm package in benchmarks/lighthouse, desktop preset: simulated throttling,
  40 ms round trip, 10 Mbit/s, no CPU slowdown), median of ``--rounds`` runs:
  largest contentful paint (LCP) and its ratio to the bare page's, total blocking time
  (TBT), bytes as served by ``make run`` (uncompressed) and the same bytes gzipped at
  HAProxy's level (1), which is what ``make serve`` sends;
* cold and warm: every round starts a fresh app server, so the first visit of a page in a
  round finds the server's caches empty (cold); the second visit finds them filled (warm);
* the stepping pages (/train, /kernels, /generalisation, /relaxation): the longest main-thread
  task while the player steps 20 times by keys and the key -> step painted time (which
  includes waiting for the browser's next frame, up to 16.7 ms); at n = 2 000 on /train and
  /kernels also under 4x CPU throttling (DevTools' Emulation.setCPUThrottlingRate).

Run from the repository root after ``npm install --prefix benchmarks/lighthouse``::

    python benchmarks/bench_pages.py [--rounds 3] [--pages train,kernels] [--no-lighthouse]

Not a test: it prints a table for docs/benchmarks-history.md.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))
# the step's work from a DevTools trace, and the views stepped (STEPPED: /kernels at its
# largest n, 400)
from bench_stepping import STEPPED, stepping  # noqa: E402
from browser_helpers import launch_chromium, run_streamlit  # noqa: E402

LIGHTHOUSE = ROOT / "benchmarks" / "lighthouse" / "node_modules" / ".bin" / "lighthouse"
BARE_PAGE = ROOT / "benchmarks" / "bare_page.py"
PAGES = (
    "",
    "train",
    "bound",
    "aggressive",
    "adversary",
    "kernels",
    "multiclass",
    "relaxation",
    "generalisation",
)
HAPROXY_GZIP_LEVEL = 1  # HAProxy's default tune.comp.maxlevel
_NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def lighthouse(url: str) -> dict:
    """One Lighthouse run (desktop preset) of ``url``: LCP, TBT, bytes and the requests."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        flags = (
            "--headless=new --no-sandbox --disable-gpu --disable-background-networking "
            "--disable-component-update --disable-sync --no-first-run"
        )
        subprocess.run(
            [
                str(LIGHTHOUSE),
                url,
                "--preset=desktop",
                "--output=json",
                f"--output-path={report}",
                "--quiet",
                f"--chrome-flags={flags}",
                "--only-categories=performance",
                "--max-wait-for-load=90000",
            ],
            check=True,
            env={**os.environ, "CHROME_PATH": "/usr/bin/chromium"},
            timeout=300,
            capture_output=True,
        )
        audits = json.loads(report.read_text())["audits"]
    requests = audits["network-requests"]["details"]["items"]
    return {
        "lcp": audits["largest-contentful-paint"]["numericValue"],
        "tbt": audits["total-blocking-time"]["numericValue"],
        "bytes": sum(item.get("resourceSize", 0) for item in requests),
        "urls": [item["url"] for item in requests],
        "lcp_element": lcp_element(audits),
    }


def lcp_element(audits: dict) -> str:
    """Lighthouse's LCP element (its selector and the start of its text) and the LCP's
    phases (time to first byte, resource load delay and time, element render delay), in ms:
    what the largest paint waited for."""
    details = audits.get("largest-contentful-paint-element", {}).get("details") or {}
    node, phases = "?", []
    for part in details.get("items", []):
        for item in part.get("items", []):
            if item.get("node"):
                found = item["node"]
                node = f"{found.get('selector', '?')} {found.get('nodeLabel', '')[:90]!r}"
            elif "phase" in item:
                phases.append(f"{item['phase']} {item.get('timing', 0):.0f}")
    return f"{node}; {', '.join(phases)}"


def gzipped_bytes(urls: list[str], cache: dict[str, int]) -> int:
    """What a first visit transfers through ``make serve``: every same-origin response
    gzipped as HAProxy does (fonts and images as they are); the websocket not counted."""
    total = 0
    for url in urls:
        if not url.startswith("http"):
            continue
        if url not in cache:
            try:
                body = _NO_PROXY.open(url, timeout=30).read()
            except OSError:
                body = b""
            compressible = not url.endswith((".woff2", ".png", ".ico"))
            cache[url] = len(gzip.compress(body, HAPROXY_GZIP_LEVEL)) if compressible else len(body)
        total += cache[url]
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pages", default=",".join(PAGES))
    parser.add_argument("--no-lighthouse", action="store_true")
    parser.add_argument("--no-stepping", action="store_true")
    args = parser.parse_args()
    pages = ["" if page == "home" else page for page in args.pages.split(",")]
    results: dict[tuple[str, str], list[dict]] = {}
    gzip_cache: dict[str, int] = {}
    if not args.no_lighthouse:
        with run_streamlit(BARE_PAGE, startup_timeout=120) as bare:
            for round_number in range(args.rounds):
                with run_streamlit(startup_timeout=120) as base:
                    for visit in ("cold", "warm"):
                        bare_run = lighthouse(bare + "/")
                        if visit == "cold":
                            bare_run["gzip"] = gzipped_bytes(bare_run["urls"], gzip_cache)
                        results.setdefault(("bare", visit), []).append(bare_run)
                        print(
                            f"round {round_number + 1} {visit:4s} bare LCP {bare_run['lcp']:6.0f}"
                            f" ms; LCP element: {bare_run['lcp_element']}",
                            flush=True,
                        )
                        for name in pages:
                            run = lighthouse(f"{base}/{name}")
                            if visit == "cold":
                                run["gzip"] = gzipped_bytes(run["urls"], gzip_cache)
                            results.setdefault((name or "home", visit), []).append(run)
                            print(
                                f"round {round_number + 1} {visit:4s} /{name:15s} "
                                f"LCP {run['lcp']:6.0f} ms  TBT {run['tbt']:5.0f} ms  "
                                f"{run['bytes'] / 1e6:4.1f} MB",
                                flush=True,
                            )
                            print(f"    LCP element: {run['lcp_element']}", flush=True)
        print(
            "\npage            visit  LCP ms  ×bare  TBT ms  MB raw  MB gzip (median of "
            f"{args.rounds}; desktop preset)"
        )
        for visit in ("cold", "warm"):
            bare_lcp = statistics.median(run["lcp"] for run in results[("bare", visit)])
            for name in ["bare", *[page or "home" for page in pages]]:
                runs = results[(name, visit)]
                lcp = statistics.median(run["lcp"] for run in runs)
                gz = [run["gzip"] for run in runs if "gzip" in run]
                print(
                    f"/{name:15s}{visit:5s} {lcp:7.0f} {lcp / bare_lcp:6.2f} "
                    f"{statistics.median(run['tbt'] for run in runs):7.0f} "
                    f"{statistics.median(run['bytes'] for run in runs) / 1e6:7.2f} "
                    f"{(statistics.median(gz) / 1e6) if gz else float('nan'):8.2f}"
                )
    if not args.no_stepping:
        print(
            "\nstepping 20 times by keys: longest main-thread task; key -> step drawn "
            "(median / p95)"
        )
        from playwright.sync_api import sync_playwright

        with run_streamlit(startup_timeout=120) as base, sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            for name, (link, big_link) in STEPPED.items():
                if name not in pages:
                    continue
                plain = stepping(browser, base, name, link)
                print(
                    f"/{name:15s} default view: longest task {plain['longest_task']:5.0f} ms; "
                    f"step {plain['step_median']:5.1f} / {plain['step_p95']:5.1f} ms",
                    flush=True,
                )
                if big_link:
                    slow = stepping(browser, base, name, big_link, throttle=4.0)
                    print(
                        f"/{big_link}, CPU 4x slower: longest task "
                        f"{slow['longest_task']:5.0f} ms; step {slow['step_median']:5.1f} / "
                        f"{slow['step_p95']:5.1f} ms",
                        flush=True,
                    )
            browser.close()


if __name__ == "__main__":
    start = time.perf_counter()
    main()
    print(f"\n({time.perf_counter() - start:.0f} s)")
