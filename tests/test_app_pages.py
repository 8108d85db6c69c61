"""AppTest over every page: loads without exception, every widget has a key."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

PAGES = ["pages/home.py", "pages/train.py", "pages/bound.py", "pages/aggressive.py",
         "pages/adversary.py"]
WIDGET_TYPES = ["button", "checkbox", "toggle", "number_input", "slider", "select_slider",
                "selectbox", "radio", "text_input", "multiselect", "download_button",
                "text_area", "date_input", "color_picker", "segmented_control", "pills"]


@pytest.mark.parametrize("page", PAGES)
def test_page_loads_and_every_widget_has_a_key(page):
    at = AppTest.from_file("../app.py", default_timeout=120).run()
    at.switch_page(page).run()
    assert not at.exception, [e.message for e in at.exception]
    unkeyed = []
    for kind in WIDGET_TYPES:
        try:
            widgets = at.get(kind)
        except Exception:  # element type not present in this version
            continue
        for widget in widgets:
            key = getattr(widget, "key", None)
            if not key:
                unkeyed.append(f"{kind}: {getattr(widget, 'label', '?')}")
    assert not unkeyed, f"widgets without a key on {page}: {unkeyed}"


def test_home_links_every_page():
    at = AppTest.from_file("../app.py", default_timeout=60).run()
    links = [link.proto.page for link in at.get("page_link")]
    for page in PAGES[1:]:
        assert any(page.split("/")[-1].removesuffix(".py") in link for link in links), page
    text = " ".join(m.value for m in at.markdown)
    assert "sign}(0) = -1" in text and "Algorithm 1.16" in text
