"""What the server process needs set once, from app.py: :func:`configure_server`."""

from __future__ import annotations

import gc
import threading

from pages.common.routing import use_app_navigation
from pages.common.upload_limits import limit_uploads

_FROZEN = False
_LOCK = threading.Lock()


def configure_server() -> None:
    """Once per server process (later calls do nothing more), from app.py's lifespan hook
    after it has imported every module of the pages and the core, before the first
    request: serve every page through app.py's ``st.navigation`` even on a fresh server's
    first deep link (pages/common/routing.py), bound every session's uploads
    (pages/common/upload_limits.py) and move the objects the imports made into the
    collector's permanent generation.

    Why the freeze: Streamlit collects garbage fully after every script run, and a full
    collection walks every object the collector tracks. With the libraries the pages
    import (130 000 objects) one took 80-160 ms of the server's CPU, every click of
    every student; frozen, they are skipped and it takes 1-4 ms (measured,
    docs/performance.md). Frozen objects are never freed: only the imports' are there.
    """
    global _FROZEN
    use_app_navigation()  # before the first session: Streamlit's older pages/ mode stays off
    limit_uploads()  # the server's runtime holds the upload manager (once; then a no-op)
    with _LOCK:
        if _FROZEN:
            return
        _FROZEN = True
        import pandas  # noqa: F401  (what the pages import: into the permanent generation)
        import plotly.graph_objects  # noqa: F401

        import perceptron_core.viz  # noqa: F401

        gc.collect()  # garbage is not frozen
        gc.freeze()
