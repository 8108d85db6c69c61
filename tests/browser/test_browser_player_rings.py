"""The rings of /train's player, drawn in tiles that are rewritten only where they change
(pages/player/scene_rings.js, issue 21), are exactly the points where an update is due:
y(w·x + b) ≤ δ for the (w, b) after k updates, computed here from the core's run.

Forward update by update, then back with Back (which removes rings as well as adding them),
the set of ring centres drawn must equal the core's set at every k.
"""

from __future__ import annotations

import re

import numpy as np
from browser_helpers import open_player, train_page_run, wait_for_player

#: the ring centres drawn: each ring is "M{cx - radius},{cy}a..." in one of the tile paths
RINGS_JS = r"""(root) => Array.from(root.querySelectorAll('svg.plane g.rings path'),
  (path) => path.getAttribute('d') || '').join('')"""


def drawn_centres(player) -> list[tuple[float, float]]:
    """The ring subpaths' start points (cx - radius, cy), in viewBox units, sorted."""
    text = player.evaluate(RINGS_JS)
    return sorted((float(x), float(y)) for x, y in re.findall(r"M(-?[\d.]+),(-?[\d.]+)a", text))


def due_count(data, trace, k: int) -> int:
    """How many points have y(w_k·x + b_k) ≤ δ after k updates (Algorithm 1.16's update test)."""
    w, b = trace.weights[k], trace.biases[k]
    return int(np.count_nonzero(data.y * (data.X @ w + b) <= trace.delta))


def test_rings_are_the_points_where_an_update_is_due_forward_and_back(page, streamlit_server):
    data, trace = train_page_run()
    player = open_player(page, f"{streamlit_server}/train")
    steps = trace.update_steps.tolist()
    wait_for_player(player, 0, 0)
    forward = {0: drawn_centres(player)}
    assert len(forward[0]) == due_count(data, trace, 0)  # w = 0, b = 0: every point is due
    for k in range(1, trace.n_updates + 1):
        page.keyboard.press("ArrowRight")
        wait_for_player(player, steps[k - 1], k)
        forward[k] = drawn_centres(player)
        assert len(forward[k]) == due_count(data, trace, k), f"after {k} updates"
        assert len(set(forward[k])) == len(forward[k]), "a ring drawn twice"
    # the run converges: no ring at the end, and the set changed on the way
    assert forward[trace.n_updates] == [] and len({tuple(v) for v in forward.values()}) > 2
    for k in range(trace.n_updates - 1, -1, -1):  # Back: the same rings come back, tile by tile
        page.keyboard.press("ArrowLeft")
        wait_for_player(player, steps[k - 1] if k else 0, k)
        assert drawn_centres(player) == forward[k], f"back at {k} updates"


#: every write of a ring tile's d since the observer was installed: [old text, text now]
WATCH_JS = r"""(root) => {
  const rings = root.querySelector('svg.plane g.rings');
  window.__ringWrites = [];
  new MutationObserver((records) => { for (const r of records) {
    if (r.attributeName === 'd') window.__ringWrites.push([r.oldValue, r.target.getAttribute('d')]);
  } }).observe(rings, { attributes: true, attributeOldValue: true, subtree: true });
}"""


def test_an_update_rewrites_only_the_tiles_whose_rings_change(page, streamlit_server):
    data, trace = train_page_run()
    player = open_player(page, f"{streamlit_server}/train")
    steps = trace.update_steps.tolist()
    wait_for_player(player, 0, 0)
    tiles = player.evaluate("(root) => root.querySelectorAll('svg.plane g.rings path').length")
    player.evaluate(WATCH_JS)
    written = []
    for k in range(1, trace.n_updates + 1):
        page.keyboard.press("ArrowRight")
        wait_for_player(player, steps[k - 1], k)
        writes = page.evaluate("() => window.__ringWrites.splice(0)")
        # no tile is written with the text it already had
        assert all(old != new for old, new in writes), (
            f"a tile rewritten unchanged after {k} updates"
        )
        written.append(len(writes))
    assert tiles > 1 and sum(written) > 0
    # an update that moves the line a little leaves some tiles as they are
    assert min(written) < tiles, written
