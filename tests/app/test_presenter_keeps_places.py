"""Presenter mode leaves prose out but keeps every keyed element where it was.

What the presenter stage leaves out sits in a place kept empty (pages/common/presenter.py,
``off_stage``): a widget bound to the link that moves up the page when the stage is turned
on loses its binding in Streamlit 1.67, and its next change never reaches the address bar
(found by tests/browser/test_browser_interaction_walk.py: /generalisation's points N after the
presenter toggle). Here, through AppTest: every element with a key (widgets, the player,
charts) has the same place in the page's tree with the stage off and on.
"""

from __future__ import annotations

import pytest
from app_helpers import open_page, page_files


def keyed_places(at) -> dict[str, tuple]:
    """Key -> the element's place in the page: the indices from the root down to it."""
    places: dict[str, tuple] = {}
    stack = [(at._tree, ())]
    while stack:
        node, place = stack.pop()
        for index, child in getattr(node, "children", {}).items():
            if getattr(child, "key", None):
                places[child.key] = place + (index,)
            stack.append((child, place + (index,)))
    return places


@pytest.mark.parametrize("page", page_files())
def test_every_keyed_element_keeps_its_place_on_the_presenter_stage(page):
    off = keyed_places(open_page(page, parts_open=False))
    on = keyed_places(open_page(page, parts_open=False, state={"present": True}))
    assert off, "no keyed element found"
    moved = {key: (place, on.get(key)) for key, place in off.items() if on.get(key) != place}
    assert not moved, f"moved when the presenter stage is on (off, on): {moved}"
