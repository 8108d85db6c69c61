"""What the server tells strangers (issue 23): security headers on every response, no
/_stcore/metrics, and every page still works under the Content-Security-Policy.

The server is the tests' own ``streamlit run app.py`` (conftest's streamlit_server), so
this is what ``make run`` and every replica of ``make serve`` serve (app.py's st.App with
web_security.SecurityHeaders). The offline player export under the policy is checked by
test_browser_player.test_exported_player_steps_from_a_file_with_no_server.
"""

from __future__ import annotations

import re
import urllib.error
import urllib.request

from browser_helpers import assert_no_exception, open_deferred_parts, open_url

from pages.common.page_table import PAGE_TABLE

#: records every CSP violation the page reports, from the first script on
RECORD_VIOLATIONS = """window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(
    `${e.violatedDirective} ${e.blockedURI} ${e.sample || ''}`));"""
#: the stepping pages and the player's button for one step
PLAYERS = {
    "train": "Next example",
    "kernels": "Next example",
    "generalisation": "Next example",
    "relaxation": "Next iteration",
}


def fetch(url: str) -> tuple[int, dict, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return (
                response.status,
                {k.lower(): v for k, v in response.headers.items()},
                response.read(),
            )
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


def test_every_response_carries_the_security_headers_and_metrics_is_closed(streamlit_server):
    status, headers, html = fetch(f"{streamlit_server}/train")
    assert status == 200
    script = re.search(rb'<script type="module" crossorigin src="\./([^"]+)"', html).group(1)
    for path in ("/", "/train", "/_stcore/health", "/" + script.decode()):
        status, headers, _ = fetch(streamlit_server + path)
        assert status == 200, path
        csp = headers.get("content-security-policy", "")
        directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
        assert directives["default-src"] == "'self'", path
        assert "'unsafe-inline'" not in directives["script-src"]  # one inline line, by hash
        assert "'sha256-" in directives["script-src"]
        assert directives["object-src"] == "'none'" and directives["frame-ancestors"] == "'self'"
        assert headers.get("x-frame-options") == "SAMEORIGIN", path
        assert headers.get("x-content-type-options") == "nosniff", path
    for path in ("/_stcore/metrics", "/_stcore/metrics/", "/_stcore/metrics?x=1"):
        status, headers, body = fetch(streamlit_server + path)
        assert status == 404, path
        assert b"cache" not in body.lower() and b"session" not in body.lower()
        assert headers.get("x-content-type-options") == "nosniff"


#: for each Plotly 3-D scene on the page, whether WebGL drew it (Plotly puts a sentence in
#: its place when WebGL is missing)
WEBGL_SCENES = """() => Array.from(document.querySelectorAll('.js-plotly-plot'))
  .filter((chart) => chart._fullLayout && chart._fullLayout.scene)
  .map((chart) => chart.querySelector('canvas') !== null
                  && !(chart.innerText || '').includes('WebGL is not supported'))"""


def test_every_page_renders_and_steps_with_no_violation_of_the_policy(page, streamlit_server):
    page.add_init_script(RECORD_VIOLATIONS)
    for name in ["", *(entry.name for entry in PAGE_TABLE)]:
        open_url(page, f"{streamlit_server}/{name}")
        page.wait_for_timeout(500)
        assert_no_exception(page)
        assert page.locator('[data-testid="stMain"]').inner_text().strip(), name
        if name in PLAYERS:
            player = page.get_by_test_id("perceptron-player")
            player.wait_for()
            before = player.get_by_test_id("step-text").inner_text()
            player.get_by_role("button", name=PLAYERS[name]).click()
            page.wait_for_function(
                "([el, text]) => el.innerText !== text",
                arg=[player.get_by_test_id("step-text").element_handle(), before],
            )
        if name == "kernels":  # the 3-D lifts are drawn once opened (pages/common/deferred.py)
            assert page.locator(".js-plotly-plot").count() == 0
        open_deferred_parts(page)
        assert_no_exception(page)
        if name == "kernels":  # both 3-D scenes drawn with WebGL (the interaction walk has none)
            assert page.evaluate(WEBGL_SCENES) == [True, True], name
        if name == "bound":  # its charts are drawn in SVG (pages/chart/), with no Plotly
            page.locator("svg.svg-chart").first.wait_for(timeout=60_000)
            assert page.locator(".js-plotly-plot").count() == 0, name
        assert page.evaluate("window.__cspViolations") == [], name
