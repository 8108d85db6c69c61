"""A view reached by clicks is the view its link opens: every page, every control.

For each page: open it, then walk every control of the sidebar and the main area, found
in the DOM by Streamlit's test ids (tests/view_walk.py: sliders, number fields, selects,
checkboxes and toggles, radios, segmented controls and pills, text fields, buttons, tabs),
so a new control is walked without editing this test. Each control is changed to other
valid values (a number field one step up, then to its minimum; a slider to both ends; a
menu to its other options and back; a switch on and off; a text edited and back; a button
pressed). After every change the screen (tests/view_walk.py's signature: every element in
order with its text and the values of its inputs, each SVG chart per place with the key of
its data, each player's run, step and texts, Plotly charts, tables) must equal the screen
of the same address opened fresh in another browser context, another Streamlit session.
A difference is reported with the change that made it and the address, and the walk goes
on from the address opened fresh, so each difference is reported once.

What legitimately differs between the two screens is left out of the signature: where
the pointer is (a chart's hover tip; an expander under the pointer shows an arrow for its
icon, so the pointer is moved away first), and which columns of a data grid are drawn (it
draws the cells in view only, with the column widths it kept from earlier data: its shape
and first columns are compared). A sweep paused for CPU time is continued on both screens.

A control that only some settings show or enable (the polynomial kernel's degree, a tab's
inputs, the τ of the chaotic rule) is walked under the setting that showed it: the walk
remembers which change revealed it, comes back to that setting and walks it there.

Left out, on purpose:
- the quizzes' answers: they are not part of the link, and each page says so under its
  quiz (pages/common/quizzes.py);
- the class of the next point drawn on a drawing board: a pen, not the picture (the link
  carries the drawn points);
- /class's live-class actions (start a class, join one): they create shared state, and
  tests/browser/test_browser_class.py drives them; its other controls are walked;
- what needs a file or a drawing: the uploader, the drawing canvas, /relaxation's table
  of own rows (tests/browser/test_browser_own_data.py and the relaxation tests cover them).

Parts of a page drawn only once opened (pages/common/deferred.py: a sweep, a 3-D lift)
are opened on both screens before they are compared: opening is a click, not a setting,
and their charts must follow the settings too.

Both screens are in a Chromium of the walk's own, started without WebGL
(``--disable-3d-apis``): the signature holds a Plotly chart's data, titles and notes, never
its pixels, and without WebGL Plotly keeps the same data and layout and puts a sentence
where a 3-D scene would be drawn (the digests are the same with and without). Drawing
/kernels' two 3-D scenes in software WebGL, on both screens after every change, was over
a third of the walk's Chromium time: /kernels' walk took 245 s with WebGL and 183 s
without (Chromium 281 against 145 CPU-s; docs/performance.md, "The test suite's time").
The scenes are drawn with WebGL by test_browser_security.py, which opens every part of
every page and checks that both of /kernels' scenes were drawn with WebGL.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import pytest
from browser_helpers import (
    PAGE_TIMEOUT,
    exception_texts,
    launch_chromium,
    new_page,
    open_deferred_parts,
    open_url,
    wait_for_app,
)
from view_walk import (
    Control,
    change_values,
    find_controls,
    screen_signature,
    select_options,
    set_control,
    signature_diff,
)

from pages.common.page_table import PAGE_TABLE
from pages.common.question_bank import QUESTIONS_BY_PAGE

#: every page: Home at /, then the table's pages at /<name>
PAGES = ["home", *(entry.name for entry in PAGE_TABLE)]
#: the quizzes' answers (see the module's docstring)
QUIZ_KEYS = frozenset(
    question.key for questions in QUESTIONS_BY_PAGE.values() for question in questions
)
#: a sweep that has used its request's share of the CPU pauses with a Continue button: how
#: far one request gets depends on the machine's load, so both screens press Continue
#: until the sweep is done before they are compared
RESUME_PREFIXES = ("bound_continue_",)
#: the class the next drawn point gets (pages/common/own_data_drawing.py) is the drawing's
#: pen, not part of the picture: it changes nothing drawn, and the link carries the drawn
#: points themselves
DRAW_TOOL_SUFFIX = "draw_class"
#: the controls set back by their value (a slider is moved by keys, a button only pressed)
UNDOABLE = ("number", "text", "select", "radio", "group", "switch", "tabs")
#: a page's window, the same for both screens (the phone layout has tests of its own)
WIDTH, HEIGHT = 1280, 900
#: the walk's Chromium draws no WebGL (see the module's docstring)
NO_WEBGL = "--disable-3d-apis"


@pytest.fixture(scope="module")
def walk_browser(browser):
    """A Chromium of the walk's own, started by the same Playwright, without WebGL."""
    own = launch_chromium(browser.browser_type, NO_WEBGL)
    try:
        yield own
    finally:
        own.close()


def walked_here(page_name: str, control: Control) -> bool:
    """Whether the walk changes ``control`` (see the module's docstring)."""
    if control.key in QUIZ_KEYS or control.key.startswith(RESUME_PREFIXES):
        return False
    if control.key.endswith(DRAW_TOOL_SUFFIX):
        return False
    if page_name == "class":  # the live class's actions; the presenter switch is walked
        return control.key == "present"
    return True


def finish_sweeps(page) -> None:
    """Press a paused sweep's Continue until it is done (see RESUME_PREFIXES)."""
    for _ in range(20):
        buttons = page.locator(
            ", ".join(f"[class*='st-key-{prefix}'] button" for prefix in RESUME_PREFIXES)
        )
        if buttons.count() == 0:
            return
        buttons.first.click()
        wait_for_app(page, timeout=PAGE_TIMEOUT)


def settled_screen(page) -> list[str]:
    """The screen once every part is open and every sweep done, the pointer out of the
    way (an expander under the pointer shows its arrow instead of its icon)."""
    open_deferred_parts(page)
    finish_sweeps(page)
    page.mouse.move(0, 0)
    return screen_signature(page)


@dataclass
class Walk:
    """One page walked in one browser context and compared with fresh loads in others."""

    base: str
    name: str
    page: object = None  # where the walk clicks
    fresh: object = None  # where each address is opened fresh (see compare)
    walked: dict = field(default_factory=dict)  # key -> values given
    reach: dict = field(default_factory=dict)  # key -> the series of changes that showed it
    failures: list = field(default_factory=list)
    fresh_screens: dict = field(default_factory=dict)  # address -> its screen opened fresh
    comparisons: int = 0
    seconds_fresh: float = 0.0

    @property
    def path(self) -> str:
        return "" if self.name == "home" else self.name

    def start(self, page, fresh) -> None:
        self.page, self.fresh = page, fresh
        open_url(page, f"{self.base}/{self.path}")
        settled_screen(page)

    def controls(self) -> list[Control]:
        return [c for c in find_controls(self.page) if walked_here(self.name, c)]

    def fresh_screen(self, url: str, again: bool = False) -> list[str]:
        """The screen of ``url`` opened fresh (kept: the same address opens the same
        screen), or opened once more with ``again``."""
        if again or url not in self.fresh_screens:
            started = time.monotonic()
            # a new document in another browser context: a new Streamlit session (its own
            # websocket), nothing shared with the walk's session. The context is kept from
            # one address to the next (Streamlit keeps no session in the browser's storage;
            # the app itself stores only a live class's key): its cached scripts make each
            # opening a second faster
            open_url(self.fresh, url)
            self.fresh_screens[url] = settled_screen(self.fresh)
            self.seconds_fresh += time.monotonic() - started
        return self.fresh_screens[url]

    def compare(self, change: str) -> None:
        """The screen now against the same address opened fresh; a difference is kept,
        and the walk goes on from a fresh screen at this address."""
        started = time.monotonic()
        errors = exception_texts(self.page)
        walked = settled_screen(self.page)
        url = self.page.url
        settled = time.monotonic()
        opened = self.fresh_screen(url)
        if walked != opened:
            # a layout still settling (a player fitted to the window again) can look
            # still for a moment: both screens are read once more, a second later
            self.page.wait_for_timeout(1000)
            walked, opened = settled_screen(self.page), self.fresh_screen(url, again=True)
        self.comparisons += 1
        print(
            f"  {change}: settled {settled - started:.1f} s, "
            f"fresh {time.monotonic() - settled:.1f} s"
        )
        if errors:
            self.failures.append(f"after {change}: the page shows an exception: {errors}")
        if walked != opened:
            self.failures.append(f"after {change}\n  {url}\n{signature_diff(walked, opened)}")
            print(f"\nDIFFERS {self.failures[-1]}\n")  # also in the log of a run cut short
            open_url(self.page, url)  # go on from the link's view: each difference once
            settled_screen(self.page)

    def change(self, control: Control, value: str) -> None:
        started = time.monotonic()
        set_control(self.page, control, value)
        print(f"  set in {time.monotonic() - started:.1f} s", end="")
        self.compare(f"{control.kind} {control.key!r} ({control.label[:40]}) -> {value!r}")

    def note_revealed(self, path: tuple) -> None:
        """Remember which changes showed (or enabled) the controls not walked yet: the
        last three series of changes after which a control was there to be changed (the
        closest to where the walk ends)."""
        for control in self.controls():
            if control.key in self.walked or control.disabled:
                continue
            paths = self.reach.setdefault(control.key, [])
            if path in paths:
                paths.remove(path)
            paths.append(path)
            del paths[:-3]

    def current(self, key: str) -> Control | None:
        return next((c for c in self.controls() if c.key == key), None)

    def walk_here(self, path: tuple) -> None:
        """Walk every control on screen not walked yet, in the order they appear."""
        self.note_revealed(path)
        while True:
            todo = next(
                (c for c in self.controls() if c.key not in self.walked and not c.disabled), None
            )
            if todo is None:
                return
            options = select_options(self.page, todo) if todo.kind == "select" else None
            values = change_values(todo, options)
            self.walked[todo.key] = values
            for value in values:
                control = self.current(todo.key)
                if control is None or control.disabled:
                    break  # a change of its own hid it (a button that ends a game)
                self.change(control, value)
                self.note_revealed(path + ((todo.key, value),))

    def apply(self, path: tuple) -> list:
        """Set each control of ``path`` to its value; returns how to undo it."""
        undo = []
        for key, value in path:
            control = self.current(key)
            if control is None:
                return undo
            if control.kind in UNDOABLE and not control.multi:
                undo.append((key, control.value))
            if control.value != value:
                set_control(self.page, control, value)
        settled_screen(self.page)
        return undo

    def run(self) -> None:
        """Walk what the page shows; then, for each control shown or enabled only after
        some changes, make those changes again, walk it there, and undo them."""
        self.walk_here(())
        while pending := [
            key for key, paths in self.reach.items() if key not in self.walked and paths
        ]:
            key = pending[0]
            path = self.reach[key].pop()  # the latest series of changes that showed it
            undo = self.apply(path)
            if self.current(key) is not None and not self.current(key).disabled:
                self.walk_here(path)
            for undo_key, value in reversed(undo):
                control = self.current(undo_key)
                if control is not None and control.value != value and not control.disabled:
                    set_control(self.page, control, value)
            settled_screen(self.page)


@pytest.mark.parametrize("name", PAGES)
def test_a_view_reached_by_clicks_is_the_view_its_link_opens(walk_browser, streamlit_server, name):
    started = time.monotonic()
    walk = Walk(streamlit_server, name)
    with (
        new_page(walk_browser, WIDTH, HEIGHT) as page,
        new_page(walk_browser, WIDTH, HEIGHT) as fresh,
    ):
        walk.start(page, fresh)
        walk.run()
    seconds = time.monotonic() - started
    print(
        f"\n/{walk.path}: {len(walk.walked)} controls walked, {walk.comparisons} "
        f"comparisons in {seconds:.0f} s ({walk.seconds_fresh:.0f} s opening fresh); "
        + "; ".join(f"{key}: {values}" for key, values in walk.walked.items())
    )
    # a control the walk saw enabled but could not bring back to change
    unreached = [key for key in walk.reach if key not in walk.walked]
    assert walk.walked, "no control found: the walk found nothing to change"
    assert not walk.failures, (
        f"{len(walk.failures)} view(s) differ from their link:\n\n" + "\n\n".join(walk.failures)
    )
    assert not unreached, f"controls shown once but never again to be walked: {unreached}"
