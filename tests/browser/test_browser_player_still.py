"""/kernels' faint marks (one per example, never changed by a step) sit in a layer of their
own (pages/player/kernels_field.js: an SVG in a foreignObject, composited with
will-change: transform), so the browser rasterises them once, not at every step (issue 21
item 5). This checks what makes that safe: the layer holds one mark per example (two paths,
one per class, one subpath per example), no step
writes into it (a MutationObserver sees nothing, forward and back) while the full-strength
marks above it do change, and it takes no pointer events.

(/train's two paths of points were tried in such a layer too and left out: composited, they
are rasterised at the viewBox's scale and shrunk on a phone, and their white edges show.)
"""

from __future__ import annotations

from browser_helpers import open_player, wait_for_player

#: how many marks a group's paths draw: each mark is one subpath (one "M") of its tiles' paths
MARKS_JS = (
    "(root, selector) => Array.from(root.querySelectorAll(selector))"
    ".reduce((count, path) => count + ((path.getAttribute('d') || '').match(/M/g) || []).length, 0)"
)
#: the panel's count of examples with α > 0 ("12 of 300")
SUPPORT_JS = "(root) => root.querySelector('[data-counter=\"support\"]').textContent"


def shown(player, group: str) -> int:
    return player.evaluate(f"(root) => ({MARKS_JS})(root, 'svg.plane g.{group} path')")


def test_kernels_faint_marks_sit_in_a_layer_no_step_writes(page, streamlit_server):
    player = open_player(page, f"{streamlit_server}/kernels?dataset=circles&n=300")
    wait_for_player(player, 0, 0)
    layer = player.evaluate(
        r"""(root) => {
      const still = root.querySelector('svg.plane foreignObject.still'), inner = still.querySelector('svg');
      window.__stillWrites = 0;
      new MutationObserver((records) => { window.__stillWrites += records.length; })
        .observe(still, { attributes: true, childList: true, characterData: true, subtree: true });
      return { marks: (MARKS)(inner, 'g.data path'), willChange: getComputedStyle(inner).willChange,
               events: getComputedStyle(still).pointerEvents };
    }""".replace("MARKS", MARKS_JS)
    )
    assert (
        layer["marks"] == 300 and "transform" in layer["willChange"] and layer["events"] == "none"
    )
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    _, updates = wait_for_player(player, min_updates=5)
    # the full-strength marks over the layer show the points with α > 0, each with its halo,
    # as many as the panel counts
    support = int(player.evaluate(SUPPORT_JS).split(" of ")[0])
    assert 1 <= support <= updates
    assert shown(player, "support") == shown(player, "alpha-halos") == support
    page.keyboard.press("Home")
    wait_for_player(player, 0, 0)
    assert shown(player, "support") == shown(player, "alpha-halos") == 0  # every point faint again
    assert page.evaluate("() => window.__stillWrites") == 0
