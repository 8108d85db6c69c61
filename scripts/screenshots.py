"""Take a screenshot of every page with headless Chromium into assets/.

Run from the repository root: ``python scripts/screenshots.py [OUT_DIR [NAME ...]]`` (the
names of SHOTS to take, e.g. ``train-presenter kernels-presenter-720``; all by default). Starts its
own Streamlit server on a free loopback port and drives Debian's Chromium with the
tests' flags (both from tests/browser_helpers.py: ``run_streamlit``, ``launch_chromium``),
and stops the server at the end. The player pages are shot at 1440×900 scrolled to the
player, after a few steps; the four players also at 390×844 as a phone (touch, a phone's
user agent), /train at 1024×768 as a tablet, and /train and /kernels on the presenter stage
at 1920×1080 and 1280×720; and a prediction waiting on /train and /relaxation (Predict first)
at 1440×900, at 390×844 and on the presenter stage at 1920×1080.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from browser_helpers import launch_chromium, open_url, run_streamlit  # noqa: E402

#: name -> (path and query, viewport, keys pressed for the player, or None)
SHOTS = {
    "home": ("", (1440, 1400), None),
    "train": ("train", (1440, 900), ["ArrowRight"] * 3),
    "train-presenter": ("train?present=1", (1920, 1080), ["ArrowRight"] * 3),
    "bound": ("bound", (1440, 1800), None),
    "aggressive": ("aggressive", (1440, 1800), None),
    "adversary": ("adversary", (1440, 1800), None),
    "kernels": ("kernels", (1440, 900), ["ArrowRight"] * 3),
    "generalisation": ("generalisation", (1440, 900), ["ArrowRight"] * 3),
    "multiclass": ("multiclass", (1440, 1400), None),
    "relaxation": ("relaxation", (1440, 900), ["ArrowRight"] * 3),
    # a phone held upright (touch, a phone's user agent) and a tablet
    "home-phone": ("", (390, 844), None),
    "train-phone": ("train", (390, 844), ["ArrowRight"] * 3),
    "kernels-phone": ("kernels", (390, 844), ["ArrowRight"] * 3),
    "generalisation-phone": ("generalisation", (390, 844), ["ArrowRight"] * 3),
    "relaxation-phone": ("relaxation", (390, 844), ["ArrowRight"] * 3),
    "multiclass-phone": ("multiclass", (390, 844), None),
    "bound-phone": ("bound", (390, 844), None),
    "aggressive-phone": ("aggressive", (390, 844), None),
    "adversary-phone": ("adversary?adv_learner=Majority+label+seen+so+far", (390, 844), None),
    "train-tablet": ("train", (1024, 768), ["ArrowRight"] * 3),
    "train-presenter-720": ("train?present=1", (1280, 720), ["ArrowRight"] * 3),
    "kernels-presenter": ("kernels?present=1", (1920, 1080), ["ArrowRight"] * 3),
    "kernels-presenter-720": ("kernels?present=1", (1280, 720), ["ArrowRight"] * 3),
    # Predict first: /train waits on the line of its next update (three candidates), after
    # four lines and one "no update" predicted; /relaxation waits on where w lands, after the
    # index rule's pick was predicted (keys: a move, then the answers)
    **{
        f"{page}-predict{suffix}": (f"{page}?predict=1{query}", size, keys)
        for page, keys in (
            (
                "train",
                [
                    "ArrowRight",
                    "a",
                    "ArrowRight",
                    "b",
                    "ArrowRight",
                    "c",
                    "ArrowRight",
                    "a",
                    "ArrowDown",
                    "n",
                    "ArrowRight",
                ],
            ),
            ("relaxation", ["ArrowDown", "1", "a", "ArrowDown", "2"]),
        )
        for suffix, query, size in (
            ("", "", (1440, 900)),
            ("-phone", "", (390, 844)),
            ("-presenter", "&present=1", (1920, 1080)),
        )
    },
}
#: what a phone's browser says it is (the pages lay their charts out for a phone then)
PHONE_AGENT = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/126.0.0.0 Mobile Safari/537.36"
)


def shoot(browser, base: str, out_dir: Path, name: str, path: str, size, keys) -> bool:
    phone = size[0] < 500
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]},
        has_touch=phone,
        is_mobile=phone,
        **({"user_agent": PHONE_AGENT} if phone else {}),
    )
    page = context.new_page()
    try:
        open_url(page, f"{base}/{path}", timeout=120_000)
        if page.locator("h1").count() == 0 and "present" not in path:
            return False  # no such page in this version of the app
        if keys is not None:
            player = page.get_by_test_id("perceptron-player")
            player.wait_for(timeout=60_000)
            if "present" not in path:  # bring the player to the top of the window
                player.evaluate(
                    "(el) => { el.scrollIntoView({block: 'start'}); let box = el;"
                    " while (box && box.scrollHeight <= box.clientHeight) box = "
                    "box.parentElement || box.getRootNode().host;"
                    " if (box) box.scrollBy(0, -70); }"
                )  # clear of the header
            for key in keys:
                page.keyboard.press(key)
        # widgets still loading show as grey skeletons: wait until every one is drawn
        page.wait_for_function(
            "() => !document.querySelector('[data-testid^=\"stSkeleton\"]')", timeout=60_000
        )
        page.wait_for_timeout(1500)
        page.screenshot(path=str(out_dir / f"{name}.png"))
        return True
    finally:
        context.close()


def main(out_dir: Path = ROOT / "assets", names: list[str] | None = None) -> None:
    from playwright.sync_api import sync_playwright

    unknown = sorted(set(names or []) - set(SHOTS))
    if unknown:
        raise SystemExit(f"no such shot: {', '.join(unknown)}; choose from {', '.join(SHOTS)}")
    out_dir.mkdir(exist_ok=True)
    with run_streamlit("app.py") as base, sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        for name, (path, size, keys) in SHOTS.items():
            if names and name not in names:
                continue
            if shoot(browser, base, out_dir, name, path, size, keys):
                print("saved", out_dir / f"{name}.png")
            else:
                print("skipped", name, "(no such page)")
        browser.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "assets", sys.argv[2:])
