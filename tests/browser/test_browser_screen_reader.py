"""A blind student's pages, in Chromium, by keyboard only, reading what a screen reader is
given: the accessibility tree (Chromium's, through the DevTools protocol), live regions and
focus. The expected words come from the page's own run (its payload through AppTest, its
figure) or from the Python twins of the player's number and region words, never typed in.

- /train: the proof's two inequalities follow the step, in the picture's description and
  in the live region on P; a move back is said as one; the proof charts are walked by keys
  without stepping the player; a keyboard margin change is said once (what changed, step 0);
  Predict first's questions are said, reached by Tab (named by the question, a focus ring)
  and answered by keyboard, focus following the answer;
- /bound: a chart walk names the series and the position, reaches the median line, takes
  Home and End and says its keys; the sweep's numbers are a table;
- /class: focus stays on the answered option, joining and the reveal (right or wrong) are
  said in the status region;
- quizzes: an option reached by the arrows answers nothing until Check or Enter, the group
  name is plain text, the feedback region is there before the first answer;
- every page: its own title, slider names said once, no field invalid at its defaults, no
  icon names in the names of tabs, headings, buttons and links; Notation takes focus when it
  opens;
- the player's JavaScript words (inequalityTexts, significantText, regionWords) are the
  Python ones.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from app_helpers import open_page, player_payload, plotly_array, plotly_spec, trace_named
from browser_helpers import open_player, open_url, wait_for_app, wait_for_player

from pages.common.page_table import PAGE_TABLE
from perceptron_core.shown_numbers import inequality_texts, significant_text
from perceptron_core.viz.region_words import region_words

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]

#: the focused element through open shadow roots: its tag, text and attributes
FOCUSED_JS = """() => {
  let node = document.activeElement;
  while (node && node.shadowRoot && node.shadowRoot.activeElement) {
    node = node.shadowRoot.activeElement;
  }
  return node ? {tag: node.tagName, text: node.textContent.trim(), role: node.getAttribute('role'),
                 label: node.getAttribute('aria-label')} : null;
}"""

#: count the changes of a live region from now on
COUNT_CHANGES_JS = """(live) => {
  window.__liveChanges = 0;
  new MutationObserver((records) => { window.__liveChanges += records.length; })
    .observe(live, {childList: true, characterData: true, subtree: true});
}"""


def ax_nodes(page) -> list[dict]:
    """Chromium's accessibility tree, as a screen reader gets it: the nodes not ignored,
    each {role, name, description, props}. The tree is complete once the protocol's
    accessibility domain is on (without it Chromium may give only part of the page): it is
    read until two readings agree."""
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("Accessibility.enable")
        nodes, previous = [], None
        for _ in range(10):
            page.wait_for_timeout(300)
            nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
            if previous == len(nodes):
                break
            previous = len(nodes)
    finally:
        cdp.detach()
    return [
        {
            "role": n.get("role", {}).get("value"),
            "name": n.get("name", {}).get("value", ""),
            "description": n.get("description", {}).get("value", ""),
            "props": {p["name"]: p["value"].get("value") for p in n.get("properties", [])},
        }
        for n in nodes
        if not n.get("ignored")
    ]


def open_page_ready(page, url: str):
    """Open ``url`` and wait until the page's own script (pages/common/page_access.js,
    mounted after the page) has run, as it has by the time a person starts to type."""
    open_url(page, url)
    page.wait_for_function("() => window.__labPageAccess === true")
    page.wait_for_timeout(300)  # its first pass over the page


def js_number(value: float) -> str:
    """A chart value as the walk says it: four significant digits, no trailing zeros."""
    shown = float(f"{value:.4g}")
    return str(int(shown)) if shown == int(shown) else repr(shown)


def proof_text(proof: dict, k: int, counter: str = "t") -> str:
    """The proof's two inequalities at update k, as Python writes them."""
    a, low = inequality_texts(proof["alignment"][k], "≥", proof["alignment_lower"][k])
    n, high = inequality_texts(proof["norm_sq"][k], "≤", proof["norm_sq_upper"][k])
    return (
        f"{counter} = {k}: {proof['alignment_name']} = {a} ≥ {proof['alignment_lower_name']}"
        f" = {low}; {proof['norm_sq_name']} = {n} ≤ {proof['norm_sq_upper_name']} = {high}."
    )


@pytest.fixture(scope="module")
def train_payload() -> dict:
    return player_payload(open_page("pages/train.py"), "train")


# ---- /train: the proof in words, back said as back, the charts walked -------------------


def test_the_proof_values_follow_the_step_and_are_read_out(page, streamlit_server, train_payload):
    proof = train_payload["proof"]
    player = open_player(page, f"{streamlit_server}/train")
    live, picture = player.locator(".live"), player.locator("svg.plane")
    heard = []
    for k in (0, 1, 2):
        if k:
            page.keyboard.press("ArrowRight")  # next mistake: one more update
            wait_for_player(player, updates=k)
        expected = proof_text(proof, k)
        assert expected in picture.get_attribute("aria-label")  # the picture's description
        assert player.get_by_test_id("chart-now").inner_text() == expected  # shown, too
        page.keyboard.press("p")  # on request, in the live region
        page.wait_for_function(
            "([node, text]) => node.textContent === text", arg=[live.element_handle(), expected]
        )
        heard.append(expected)
    assert len(set(heard)) == 3 and heard[1].startswith("t = 1: ⟨(w_t, b_t), w*⟩ = ")
    # a move back is said as one
    page.keyboard.press("ArrowLeft")
    step = wait_for_player(player, updates=1)[0]
    page.wait_for_function(
        "(node) => node.textContent.startsWith('Back to step')", arg=live.element_handle()
    )
    assert live.inner_text().startswith(f"Back to step {step}. Step {step}:")
    # P in a field of the page is the field's: the player says nothing
    page.get_by_role("spinbutton", name="data seed").focus()
    before = live.inner_text()
    page.keyboard.press("p")
    page.wait_for_timeout(300)
    assert live.inner_text() == before


def test_the_proof_charts_are_walked_by_keys_that_do_not_step_the_player(
    page, streamlit_server, train_payload
):
    proof = train_payload["proof"]
    player = open_player(page, f"{streamlit_server}/train")
    for k in (1, 2):
        page.keyboard.press("ArrowRight")
        wait_for_player(player, updates=k)
    step = wait_for_player(player)[0]
    chart = player.locator("svg.mini").first
    said = player.locator(".walk-live").first
    chart.focus()  # a tab stop
    assert said.inner_text() == (
        f"{proof['alignment_name']}, point 3 of 3: t = 2, {js_number(proof['alignment'][2])}."
    )
    for key, wanted in (
        ("ArrowLeft", "point 2 of 3: t = 1"),
        ("ArrowDown", f"{proof['alignment_lower_name']}, point 2 of 3"),
        ("Home", "point 1 of 3: t = 0, 0."),
        ("End", "point 3 of 3: t = 2"),
    ):
        chart.press(key)
        assert wanted in said.inner_text(), (key, said.inner_text())
    assert wait_for_player(player) == (step, 2)  # the player did not move
    charts = [
        n
        for n in ax_nodes(page)
        if n["role"] == "image" and n["name"] == chart.get_attribute("aria-label")
    ]
    assert charts and "← →" in charts[0]["description"]  # its keys, as its description
    assert "Home and End" in charts[0]["description"]


def test_a_keyboard_margin_change_is_said_once(page, streamlit_server, train_payload):
    after = player_payload(open_page("pages/train.py", {"margin": "0.09"}), "train")
    player = open_player(page, f"{streamlit_server}/train")
    page.keyboard.press("ArrowRight")
    wait_for_player(player, updates=1)
    live = player.locator(".live")
    live.evaluate(COUNT_CHANGES_JS)
    slider = page.get_by_role("slider", name="margin γ", exact=True)
    slider.focus()
    page.keyboard.press("ArrowLeft")  # 0.10 → 0.09
    wait_for_app(page)
    page.wait_for_function(
        "(node) => node.textContent.startsWith('New data.')", arg=live.element_handle()
    )
    page.wait_for_timeout(1500)  # nothing more comes
    assert page.evaluate("window.__liveChanges") == 1
    text = live.inner_text()
    old, new = train_payload["bound"]["value_text"], after["bound"]["value_text"]
    assert old != new and f"bound now T(A) = {new} updates, was T(A) = {old} updates" in text
    margin = significant_text(after["proof"]["margin"])
    assert f"best margin now γ₂ = {margin}, was γ₂ = " in text
    assert text.endswith("The player is back at step 0: nothing examined yet.")
    assert wait_for_player(player) == (0, 0)
    assert page.evaluate(FOCUSED_JS)["tag"] == "INPUT"  # the slider keeps focus


# ---- /train with Predict first: the questions by keyboard and by ear ----------------------

#: the focused element's outline (through shadow roots): what a keyboard user sees
FOCUS_RING_JS = """() => {
  let node = document.activeElement;
  while (node && node.shadowRoot && node.shadowRoot.activeElement) node = node.shadowRoot.activeElement;
  const style = getComputedStyle(node);
  return {style: style.outlineStyle, width: parseFloat(style.outlineWidth)};
}"""


def test_predict_first_is_asked_reached_and_answered_by_keyboard_and_said(page, streamlit_server):
    """The question a move waits on is said in the player's one status region with its
    options and keys; Tab reaches its options (a group named by the question, a focus ring);
    an answer on a focused option says the verdict and takes focus on: to the next
    question's first option, then back to the button of the move once its step is drawn."""
    player = open_player(page, f"{streamlit_server}/train?predict=1")
    live, picture = player.locator(".live"), player.locator("svg.plane")
    assert player.locator("[role='status']").count() == 1  # one status region per player
    assert (
        player.get_by_role("switch", name="Predict first").get_attribute("aria-checked") == "true"
    )
    player.get_by_role("button", name="Next example").focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "(node) => node.dataset.predictPending === 'update'", arg=player.element_handle()
    )
    prompt = player.get_by_test_id("predict-prompt").inner_text()
    options = [b.inner_text() for b in player.locator(".predict-options button").all()]
    said = live.inner_text()
    assert (
        said.startswith(f"Predict: {prompt} Options: {'; '.join(options)}.")
        and "Press Y / N" in said
    )
    assert f"Waiting for your prediction: {prompt}" in picture.get_attribute("aria-label")
    groups = [n for n in ax_nodes(page) if n["role"] == "group" and n["name"] == prompt]
    assert len(groups) == 1  # the options' group is named by the question
    for _ in range(12):  # Tab from Next example to the first option: the answers are reached
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED_JS)["text"] == options[0]:
            break
    else:
        raise AssertionError(f"Tab never reached the option {options[0]!r}")
    ring = page.evaluate(FOCUS_RING_JS)
    assert ring["style"] == "solid" and ring["width"] >= 3
    page.keyboard.press("Enter")  # the first example of a run from 0 updates: right
    page.wait_for_function(
        "(node) => node.dataset.predictPending === 'line'", arg=player.element_handle()
    )
    lines = [b.inner_text() for b in player.locator(".predict-options button").all()]
    assert page.evaluate(FOCUSED_JS)["text"] == lines[0]  # focus on the next question
    assert live.inner_text().startswith("✓ Right: an update.")
    assert "Which line comes next?" in live.inner_text()
    assert player.get_attribute("data-step") == "0"  # nothing drawn yet
    page.keyboard.press("Enter")  # A, right or wrong
    wait_for_player(player, 1)
    assert page.evaluate(FOCUSED_JS)["text"] == "Next example ▸"  # back on the move's button
    said = live.inner_text()
    assert re.match(r"[✓✗] ", said) and "predicted right" in said and "Step 1: example" in said
    assert "Waiting for your prediction" not in picture.get_attribute("aria-label")


# ---- /bound: the chart walk and the sweep's table ---------------------------------------


@pytest.fixture(scope="module")
def bound_figure() -> dict:
    return plotly_spec(open_page("pages/bound.py", parts_open=False), "bound_sweep_chart")


def test_a_bound_chart_walk_names_series_and_position_and_reaches_the_median(
    page, streamlit_server, bound_figure
):
    runs = len(plotly_array(bound_figure["data"][0]["y"]))
    median = plotly_array(trace_named(bound_figure, "median")["y"])
    series = len(bound_figure["data"])
    open_url(page, f"{streamlit_server}/bound")
    chart = page.locator("svg.svg-chart").first
    chart.wait_for()
    live = page.locator(".svg-chart-live[aria-live]").first
    chart.focus()
    first = live.inner_text()
    assert first.startswith(f"runs (one dot each), 1 of {runs}: γ = ")
    assert f"{series} series" in first and "Home and End" in first  # the keys, said once
    chart.press("End")
    assert live.inner_text().startswith(f"runs (one dot each), {runs} of {runs}:")
    chart.press("ArrowDown")  # the next series: the median line
    assert live.inner_text().startswith(
        f"median over seeds, {len(median)} of {len(median)}: {median[-1]:.4g}"
    )
    chart.press("Home")
    assert live.inner_text().startswith(f"median over seeds, 1 of {len(median)}: {median[0]:.4g}")
    for _ in range(series - 1):  # every trace is reached, the bound lines too
        chart.press("ArrowDown")
    assert live.inner_text().startswith("runs (one dot each), 1 of")
    described = [
        n
        for n in ax_nodes(page)
        if n["role"] == "image" and n["name"].startswith("Chart: updates until convergence")
    ]
    assert described and "← →" in described[0]["description"]  # its keys, as its description
    # the sweep in numbers: a table a screen reader reads cell by cell
    summary = page.locator("summary", has_text="The sweep in numbers: median and bound per γ")
    summary.focus()
    page.keyboard.press("Enter")
    table = page.locator("table.lab-table").first
    table.wait_for()
    medians = table.locator("tbody tr").evaluate_all(
        "(rows) => rows.map((r) => r.children[2].textContent)"
    )
    assert [float(v.replace(",", "")) for v in medians] == pytest.approx(list(median))


# ---- the live class ------------------------------------------------------------------------


def test_the_class_keeps_focus_on_the_answer_and_says_joining_and_the_reveal(
    browser, streamlit_server
):
    from browser_helpers import new_page
    from class_helpers import button, open_poll, start_class

    with new_page(browser, 1280, 800) as instructor, new_page(browser, 390, 844) as phone:
        code, _ = start_class(instructor, streamlit_server)
        open_url(phone, f"{streamlit_server}/class")
        phone.get_by_label(re.compile("Class code")).fill(code)  # joining by the form
        phone.keyboard.press("Enter")
        status = phone.locator(".lab-status[role='status']")
        status.wait_for(timeout=30_000)
        phone.wait_for_function(
            "(node) => node.textContent.startsWith('You have joined class')",
            arg=status.element_handle(),
            timeout=30_000,
        )
        assert f"You have joined class {code}." in status.inner_text()
        open_poll(instructor)
        option_a = phone.locator(".lab-option").first
        option_a.wait_for(timeout=10_000)
        assert "Choose your answer." in status.inner_text()
        option_a.focus()
        phone.keyboard.press("Enter")  # the keyboard answers
        phone.wait_for_function(
            "(node) => node.textContent.startsWith('Your answer: A, ')", arg=status.element_handle()
        )
        focused = phone.evaluate(FOCUSED_JS)
        assert focused["tag"] == "BUTTON" and focused["text"].startswith("A. "), focused
        phone.wait_for_timeout(2500)  # polls come and go: focus stays
        assert phone.evaluate(FOCUSED_JS)["text"].startswith("A. ")
        button(instructor, "Show the answers").click()
        wait_for_app(instructor)
        phone.wait_for_function(
            "(node) => node.textContent.includes('Right answer:')",
            arg=status.element_handle(),
            timeout=10_000,
        )
        said = status.inner_text()
        right = re.search(r"Right answer: ([A-H]), ", said).group(1)
        assert ("you chose A: right." in said) == (right == "A")
        assert ("you chose A, " in said and "not right." in said) == (right != "A")
        assert "You can change it" not in said
        assert phone.locator(".lab-option.lab-right").inner_text().startswith(f"{right}. ")


# ---- quizzes ---------------------------------------------------------------------------------


def test_a_quiz_answers_only_when_asked_and_its_feedback_region_is_there_first(
    page, streamlit_server
):
    open_page_ready(page, f"{streamlit_server}/train")
    groups = [
        n for n in ax_nodes(page) if n["role"] == "radiogroup" and re.match(r"\d+\. ", n["name"])
    ]
    assert len(groups) >= 2 and not any("*" in n["name"] for n in groups)
    regions = page.locator("[class*='st-key-lab_live_quiz']")
    assert regions.count() == len(groups)
    assert regions.first.get_attribute("aria-live") == "polite"  # before any answer
    assert regions.first.inner_text().strip() == ""
    question = page.locator("[data-testid='stForm']").filter(
        has=page.get_by_role("radiogroup", name=re.compile(r"^1\. "))
    )
    question.get_by_role("radio").first.focus()
    page.keyboard.press("ArrowDown")  # the arrows move the choice...
    page.wait_for_timeout(1200)
    assert question.get_by_role("radio").nth(1).is_checked()
    assert regions.first.inner_text().strip() == ""  # ...and answer nothing
    assert "Not quite" not in page.locator("body").inner_text()
    page.keyboard.press("Enter")  # a deliberate act
    wait_for_app(page)
    regions.first.get_by_text("Not quite: you chose").wait_for()
    assert page.evaluate(FOCUSED_JS)["tag"] == "INPUT"  # focus stays on the option


# ---- every page --------------------------------------------------------------------------


@pytest.mark.parametrize("entry", [None, *PAGE_TABLE], ids=lambda e: e.name if e else "home")
def test_each_page_says_its_title_and_its_widgets_right(page, streamlit_server, entry):
    open_page_ready(page, f"{streamlit_server}/{entry.name if entry else ''}")
    wanted = f"{entry.title} · Perceptron Lab" if entry else "Perceptron Lab"
    assert page.title() == wanted
    nodes = ax_nodes(page)
    sliders = [n["name"] for n in nodes if n["role"] == "slider"]
    doubled = [
        name
        for name in sliders
        if len(name) % 2 == 1 and name[: len(name) // 2] == name[len(name) // 2 + 1 :]
    ]
    assert doubled == []
    invalid = [
        (n["role"], n["name"])
        for n in nodes
        if n["props"].get("invalid") not in (None, "false", False)
    ]
    assert invalid == []
    named = [n["name"] for n in nodes if n["role"] in ("tab", "heading", "button", "link")]
    assert not [name for name in named if re.search(r"\b[a-z_]+ icon\b", name)], named


def test_notation_takes_focus_when_it_opens_and_gives_it_back(page, streamlit_server):
    open_page_ready(page, f"{streamlit_server}/bound")
    notation = page.get_by_role("button", name="Notation")
    notation.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.activeElement && document.activeElement.getAttribute('role') === 'dialog'"
    )
    assert page.evaluate(FOCUSED_JS)["label"] == "Notation"
    page.keyboard.press("Escape")
    page.wait_for_function(
        "() => document.activeElement && document.activeElement"
        ".getAttribute('data-testid') === 'stPopoverButton'"
    )


# ---- the player's words are the Python ones -------------------------------------------------


def test_the_players_inequalities_and_region_words_are_the_pythons(browser):
    from perceptron_core.shown_numbers import fixed_text

    rng = np.random.default_rng(5)
    values = [
        0.0,
        0.125,
        -0.125,
        2.675,
        1e-7,
        0.00097,
        0.0012,
        6.1,
        9.95,
        211.23,
        1e21,
        *rng.uniform(-3, 3, 20),
        *(10.0 ** rng.uniform(-8, 5, 20)),
    ]
    pairs = [(float(a), float(b)) for a, b in zip(values, values[1:] + values[:1], strict=True)]
    pairs += [(b + abs(b) * 1e-9, b) for _, b in pairs]  # nearly equal sides
    axis = np.linspace(-1, 1, 37)
    x, y = np.meshgrid(axis, axis[::-1])
    grids = [
        np.where(x**2 + y**2 < 0.4, 1, -1),
        np.where(x * y > 0, 1, -1),
        np.where(x + 0.3 * y > 0.2, 1, -1),
        rng.integers(0, 3, (12, 12)),
        np.ones((5, 5), int),
    ]
    names = [[[1, "plus"], [-1, "minus"]]] * 3 + [[[0, "a"], [2, "c"]], [[1, "all"]]]
    scripts = "\n".join(
        (ROOT / "pages/player" / name).read_text()
        for name in ("scene_common.js", "scene_numbers.js", "scene_plane.js")
    )
    context = browser.new_context(bypass_csp=True)
    try:
        page = context.new_page()
        page.set_content("<html><body></body></html>")
        page.add_script_tag(
            content="function element() {}\n" + scripts + "\nwindow.words = "
            "{ inequalityTexts, significantText, fixedText, regionWords };"
        )
        shown = page.evaluate(
            """([pairs, values, grids, names]) => {
            const w = window.words;
            const both = ([a, b]) => [w.inequalityTexts(a, '≥', b), w.inequalityTexts(a, '≤', b)];
            return [pairs.map(both),
                    values.map((v) => [w.significantText(v), w.fixedText(v, 3)]),
                    grids.map((g, k) => w.regionWords((r, c) => g[r][c], g.length, names[k]))];
        }""",
            [pairs, values, [g.tolist() for g in grids], names],
        )
    finally:
        context.close()
    assert shown[0] == [
        [list(inequality_texts(a, "≥", b)), list(inequality_texts(a, "≤", b))] for a, b in pairs
    ]
    assert shown[1] == [[significant_text(v), fixed_text(v, 3)] for v in values]
    assert shown[2] == [region_words(g, dict(n)) for g, n in zip(grids, names, strict=True)]
