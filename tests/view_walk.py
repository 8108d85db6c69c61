"""What a student sees on a page, as data, and every control of a page, found in the DOM:
the pieces of tests/browser/test_browser_interaction_walk.py.

- :func:`screen_signature`: every element of the sidebar and the main area in order (its
  kind, its text, the values and states of its inputs), each SVG chart per place (its
  label, title and the key of the data it drew), each player (its run, step, updates and
  texts), each Plotly chart (titles and a digest of its data), tables as text.
- :func:`find_controls`: the controls of the page, found by Streamlit's test ids (sliders,
  number fields, selects, checkboxes and toggles, radios, segmented controls and pills,
  text fields, buttons, tabs), each with its key, kind, options and state.
- :class:`Control` and :func:`change_values`: how to change a control to other valid
  values, and :func:`set_control` doing it in the browser.

Components v2 (the SVG charts, the player) render inside shadow roots: the scripts walk
``element.shadowRoot``.
"""

from __future__ import annotations

import difflib
import time
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from browser_helpers import PAGE_TIMEOUT, wait_for_app

#: the places of a page a student reads, in screen order
PLACES = (("sidebar", '[data-testid="stSidebar"]'), ("main", '[data-testid="stMain"]'))

#: the things of a place listed in the signature, in document order: every element, the
#: title of every expander, every tab, every popover's button
ITEMS = (
    '[data-testid="stElementContainer"], [data-testid="stExpander"] > details > summary, '
    '[role="tab"], [data-testid="stPopoverButton"]'
)

SIGNATURE_JS = r"""([places, items]) => {
  const norm = (text) => (text || '').replace(/[\u200b\u00ad]/g, '').replace(/\s+/g, ' ').trim();
  const hash = (text) => {  // FNV-1a, enough to tell two data sets apart
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 16777619); }
    return (h >>> 0).toString(16);
  };
  // the text of a node without what legitimately differs between sessions or moments:
  // a chart's hover tip (where the pointer is) and the svg <title>s it shows from, and a
  // live region's announcement (it says what just changed: "New data. … was …")
  const textOf = (node) => {
    const parts = node instanceof ShadowRoot ? Array.from(node.children) : [node];
    return norm(parts.map((part) => {
      const copy = part.cloneNode(true);
      for (const tip of copy.querySelectorAll('.svg-chart-tip, [aria-live]')) tip.remove();
      return part.matches('style') ? '' : copy.textContent;
    }).join(' '));
  };
  const shadowParts = (host) => {
    const root = host.shadowRoot;
    if (!root) return ['component (no shadow root)'];
    const parts = [];
    const boxes = Array.from(root.querySelectorAll('.svg-chart-box'));
    const players = Array.from(root.querySelectorAll('[data-testid="perceptron-player"]'));
    if (boxes.length) {
      const state = root.__svgChart || (root.host && root.host.__svgChart);
      parts.push(`svg charts here: ${boxes.length}, data ${state ? state.json : 'none'}`);
      for (const box of boxes) {
        const svg = box.querySelector('svg.svg-chart');
        const title = box.querySelector('text.title');
        parts.push(`  svg chart "${svg ? norm(svg.getAttribute('aria-label')) : ''}" titled `
                   + `"${title ? norm(title.textContent) : ''}": ${hash(textOf(box))}`);
      }
    }
    if (players.length) {
      parts.push(`players here: ${players.length}`);
      for (const player of players) {
        const marks = ['run', 'step', 'updates', 'playing']
          .map((name) => `${name}=${player.getAttribute('data-' + name)}`).join(' ');
        parts.push(`  player ${marks}: ${textOf(player)}`);
      }
    }
    if (!boxes.length && !players.length) parts.push(`component: ${textOf(root)}`);
    return parts;
  };
  const plotly = (item) => {
    const chart = item.querySelector('.js-plotly-plot');
    if (!chart || !chart.data || !chart.layout) return ['plotly chart (not drawn)'];
    const layout = chart.layout;
    const titleOf = (t) => norm(String((t && typeof t === 'object' ? t.text : t) || ''));
    const axes = Object.keys(layout).filter((k) => /^[xy]axis\d*$|^scene\d*$/.test(k)).sort()
      .map((k) => `${k}: ${titleOf(layout[k] && layout[k].title)}`);
    const notes = (layout.annotations || []).map((a) => norm(a.text)).join(' | ');
    const data = JSON.stringify(chart.data, (k, v) => (k === 'uid' ? undefined : v));
    return [`plotly chart "${titleOf(layout.title)}" ${axes.join('; ')} notes: ${notes}; `
            + `${chart.data.length} traces, data ${hash(data)}`];
  };
  // a data grid draws its cells on a canvas; its accessible table holds the cells in view
  // only, and which columns are in view depends on widths the grid keeps from earlier data:
  // its shape, and the first two columns of its first ten rows
  const dataGrid = (item) => {
    const grid = item.querySelector('table[role="grid"]');
    if (!grid) return 'data grid (not drawn)';
    const cells = Array.from(grid.querySelectorAll('[aria-colindex]')).filter((cell) =>
      Number(cell.getAttribute('aria-colindex')) <= 2
      && Number(cell.closest('[aria-rowindex]').getAttribute('aria-rowindex')) <= 11);
    const shape = ['aria-rowcount', 'aria-colcount'].map((name) => grid.getAttribute(name));
    return `data grid ${shape[0]} rows × ${shape[1]} `
      + `columns: ${cells.map((cell) => norm(cell.textContent)).join(' | ')}`;
  };
  const values = (item) => {
    const out = [];
    for (const input of item.querySelectorAll('input, textarea')) {
      const ticked = input.type === 'checkbox' || input.type === 'radio';
      if (ticked) out.push(input.checked ? 'on' : 'off');
      else out.push(`"${input.value}"`);
      if (input.disabled) out.push('disabled');
    }
    for (const node of item.querySelectorAll('[aria-checked], [aria-selected], [aria-pressed]')) {
      if (node.matches('input')) continue;
      const state = ['aria-checked', 'aria-selected', 'aria-pressed']
        .map((name) => node.getAttribute(name)).find((v) => v !== null);
      out.push(`${norm(node.textContent)}:${state}`);
    }
    for (const button of item.querySelectorAll('button:disabled')) {
      out.push(`${norm(button.textContent)} disabled`);
    }
    return out.length ? ` [${out.join(', ')}]` : '';
  };
  const lines = [];
  for (const [place, selector] of places) {
    const root = document.querySelector(selector);
    if (!root) { lines.push(`${place}: none`); continue; }
    lines.push(`${place}:`);
    for (const item of root.querySelectorAll(items)) {
      if (item.matches('summary')) { lines.push(`expander "${norm(item.textContent)}"`); continue; }
      if (item.matches('[role="tab"]')) {
        const selected = item.getAttribute('aria-selected');
        lines.push(`tab "${norm(item.textContent)}" selected=${selected}`);
        continue;
      }
      if (item.matches('[data-testid="stPopoverButton"]')) {
        lines.push(`popover "${norm(item.textContent)}"`);
        continue;
      }
      const inner = item.querySelector('[data-testid]');
      const kind = inner ? inner.getAttribute('data-testid') : 'empty';
      if (item.getAttribute('data-stale') === 'true') lines.push('STALE ELEMENT');
      const hosts = Array.from(item.querySelectorAll('*')).filter((node) => node.shadowRoot);
      if (hosts.length || kind === 'stBidiComponentIsolated') {
        lines.push('component:');
        for (const host of hosts) for (const part of shadowParts(host)) lines.push('  ' + part);
        continue;
      }
      if (kind === 'stPlotlyChart' || item.querySelector('[data-testid="stPlotlyChart"]')) {
        lines.push(...plotly(item));
        continue;
      }
      if (kind === 'stDataFrame' || item.querySelector('[data-testid="stDataFrame"]')) {
        lines.push(dataGrid(item));
        continue;
      }
      lines.push(`${kind}: ${textOf(item)}${values(item)}`);
    }
  }
  return lines;
}"""

#: when the page has finished drawing: no element from an earlier run, every component
#: mounted (a shadow root), every data grid and Plotly chart drawn
READY_JS = r"""([places, items]) => {
  for (const [, selector] of places) {
    const root = document.querySelector(selector);
    if (!root) continue;
    if (root.querySelector('[data-stale="true"], [data-testid="stSkeleton"]')) return false;
    for (const host of root.querySelectorAll('[data-testid="stBidiComponentIsolated"]')) {
      const nodes = Array.from(host.querySelectorAll('*')).concat([host]);
      const shadow = nodes.find((node) => node.shadowRoot);
      if (!shadow) return false;
    }
    for (const grid of root.querySelectorAll('[data-testid="stDataFrame"]')) {
      if (!grid.querySelector('table[role="grid"][aria-rowcount]')) return false;
    }
    for (const chart of root.querySelectorAll('[data-testid="stPlotlyChart"]')) {
      const plot = chart.querySelector('.js-plotly-plot');
      if (!plot || !plot.data || !plot._fullLayout) return false;
    }
  }
  return true;
}"""


def screen_signature(page: Any, timeout: float = 20.0) -> list[str]:
    """What ``page`` shows, once it has finished drawing and stays the same for 0.2 s (a
    bound field shows its default a moment before the link's value; charts and players
    mount after the script run)."""
    deadline = time.monotonic() + timeout
    last: list[str] | None = None
    while True:
        ready = page.evaluate(READY_JS, [PLACES, ITEMS])
        now = page.evaluate(SIGNATURE_JS, [PLACES, ITEMS]) if ready else None
        if now is not None and now == last:
            return now
        if time.monotonic() > deadline:
            return now if now is not None else page.evaluate(SIGNATURE_JS, [PLACES, ITEMS])
        last = now
        page.wait_for_timeout(200)


def signature_diff(walked: list[str], fresh: list[str]) -> str:
    """The lines that differ, as a unified diff (reached by clicks, then opened fresh)."""
    return "\n".join(
        difflib.unified_diff(walked, fresh, "reached by clicks", "opened fresh", lineterm="", n=1)
    )


# ---------------------------------------------------------------------------
# The controls of a page
# ---------------------------------------------------------------------------

#: test id -> kind of control
CONTROL_KINDS = {
    "stSlider": "slider",
    "stNumberInput": "number",
    "stSelectbox": "select",
    "stCheckbox": "switch",
    "stRadio": "radio",
    "stButtonGroup": "group",
    "stTextInput": "text",
    "stButton": "button",
    "stTabs": "tabs",
}

CONTROLS_JS = r"""([places, kinds]) => {
  const norm = (text) => (text || '').replace(/\s+/g, ' ').trim();
  const out = [];
  for (const [place, selector] of places) {
    const root = document.querySelector(selector);
    if (!root) continue;
    const wanted = Object.keys(kinds).map((id) => `[data-testid="${id}"]`).join(', ');
    const found = root.querySelectorAll(wanted);
    for (const widget of found) {
      const kind = kinds[widget.getAttribute('data-testid')];
      const holder = widget.closest('[class*="st-key-"]');
      const keyClass = holder && Array.from(holder.classList).find((c) => c.startsWith('st-key-'));
      if (!keyClass) continue;  // every control of a page has a key (a test checks it)
      const key = keyClass.slice('st-key-'.length);
      const label = norm((widget.querySelector('[data-testid="stWidgetLabel"]') || {}).textContent);
      const control = { key, kind, place, label, disabled: false, value: null, options: [],
                        min: null, max: null, step: null };
      if (kind === 'slider') {
        const input = widget.querySelector('input[type="range"]');
        control.disabled = input.disabled;
        control.value = input.getAttribute('aria-valuetext');
        control.min = input.min; control.max = input.max; control.step = input.step;
        control.options = [input.value];
      } else if (kind === 'number' || kind === 'text') {
        const input = widget.querySelector('input');
        control.disabled = input.disabled;
        control.value = input.value;
        if (kind === 'number') {
          control.min = input.min; control.max = input.max; control.step = input.step;
        }
      } else if (kind === 'select') {
        const input = widget.querySelector('input[role="combobox"]');
        control.disabled = input.disabled;
        control.value = norm(input.value);
      } else if (kind === 'switch') {
        const input = widget.querySelector('input');
        control.disabled = input.disabled;
        control.value = input.checked ? 'on' : 'off';
      } else if (kind === 'radio') {
        const inputs = Array.from(widget.querySelectorAll('input[type="radio"]'));
        control.disabled = inputs.every((input) => input.disabled);
        control.options = inputs.map((input) => norm(input.closest('label').textContent));
        const checked = inputs.find((input) => input.checked);
        control.value = checked ? norm(checked.closest('label').textContent) : null;
      } else if (kind === 'group') {
        const buttons = Array.from(widget.querySelectorAll('button[role="radio"], '
          + 'button[role="checkbox"], button[aria-pressed], button[data-variant]'));
        control.disabled = buttons.every((button) => button.disabled);
        control.options = buttons.map((button) => norm(button.textContent));
        control.multi = buttons.some((button) => button.getAttribute('role') === 'checkbox')
          || !buttons.some((button) => button.getAttribute('role') === 'radio');
        const on = (button) => ['aria-checked', 'aria-pressed', 'data-selected']
          .some((name) => button.getAttribute(name) === 'true');
        control.value = buttons.filter(on).map((button) => norm(button.textContent)).join('|');
      } else if (kind === 'button') {
        const button = widget.querySelector('button');
        control.disabled = button.disabled;
        control.label = norm(button.textContent);
      } else if (kind === 'tabs') {
        const tabs = Array.from(widget.querySelectorAll('[role="tab"]'));
        control.options = tabs.map((tab) => norm(tab.textContent));
        const chosen = tabs.find((tab) => tab.getAttribute('aria-selected') === 'true');
        control.value = chosen ? norm(chosen.textContent) : null;
      }
      out.push(control);
    }
  }
  return out;
}"""


@dataclass
class Control:
    """One control as found on the page (see CONTROLS_JS)."""

    key: str
    kind: str
    place: str
    label: str
    disabled: bool
    value: Any
    options: list = field(default_factory=list)
    min: str | None = None
    max: str | None = None
    step: str | None = None
    multi: bool = False

    @property
    def locator(self) -> str:
        return f".st-key-{self.key}"


def find_controls(page: Any) -> list[Control]:
    """Every keyed control of the sidebar and the main area, in document order."""
    return [Control(**found) for found in page.evaluate(CONTROLS_JS, [PLACES, CONTROL_KINDS])]


def _number_text(value: Decimal) -> str:
    text = format(value.normalize(), "f")
    return text if "." not in text else text.rstrip("0").rstrip(".")


def change_values(control: Control, select_options: list[str] | None = None) -> list:
    """The values a walk gives ``control``, in order; each is a change from the one before.

    - a number field: one step up from where it is (down at its maximum), then its minimum,
      where it stays: the rest of the walk runs on the smallest settings, the quickest;
    - a slider: its two ends (the End key, then Home, where it stays);
    - a select, radio or segmented control: every other option (at most three: the first,
      the middle and the last), then back to where it was, so that the controls it
      enables and the rest of the walk see the page as it opened; a tab strip: every tab,
      then back;
    - a multi-select group (pills): its first option off, then on again;
    - a checkbox or toggle: flipped, then back;
    - a text field: a variation (a list loses its last item, a word is reversed), then back;
    - a button: one press.
    """
    kind = control.kind
    if kind == "number":
        here = Decimal(control.value)
        # Streamlit writes step="any" in the page; the field's own step is then the last
        # digit it shows (0.10 -> 0.01, 40 -> 1), which keeps one step inside any range
        if control.step not in (None, "", "any"):
            step = Decimal(control.step)
        else:
            step = Decimal(1).scaleb(min(0, here.as_tuple().exponent))  # type: ignore[operator]
        low = Decimal(control.min) if control.min not in (None, "") else here - 3 * step
        high = Decimal(control.max) if control.max not in (None, "") else here + 3 * step
        up = here + step if here + step <= high else here - step
        if not low <= up <= high:  # a range narrower than one step: its other end
            up = high if here != high else low
        return [_number_text(up), _number_text(low)]
    if kind == "slider":  # the far end first, then the low end, where it stays
        at_high = float(control.options[0]) >= float(control.max)
        return ["Home", "End"] if at_high else ["End", "Home"]
    if kind in ("select", "radio", "tabs") or (kind == "group" and not control.multi):
        options = select_options if select_options is not None else control.options
        others = [option for option in options if option != control.value]
        if len(others) > 3 and kind != "tabs":  # a tab is there to show what it holds
            others = [others[0], others[len(others) // 2], others[-1]]
        return others + ([control.value] if others and control.value is not None else [])
    if kind == "group":
        return [control.options[0], control.options[0]] if control.options else []
    if kind == "switch":
        flipped = "off" if control.value == "on" else "on"
        return [flipped, control.value]
    if kind == "text":
        text = control.value or ""
        items = [item.strip() for item in text.split(",")]
        changed = ", ".join(items[:-1]) if len(items) > 1 else text[::-1]
        if changed == text:
            changed = text + "1"
        return [changed, text]
    if kind == "button":
        return ["press"]
    raise ValueError(f"no way to change a {kind}")


def open_select(page: Any, control: Control) -> Any:
    """Open the list of a select box and return its options (a locator). The first click
    on a page's select box may come before its list is ready to open: it is tried again,
    by click and by the ↓ key."""
    box = page.locator(f"{control.locator} input[role='combobox']")
    options = page.locator('[role="listbox"] [role="option"]')
    for attempt in range(8):
        if attempt % 2:
            box.focus()
            page.keyboard.press("ArrowDown")
        else:
            box.click()
        try:
            options.first.wait_for(timeout=1500)
            return options
        except Exception:  # noqa: BLE001 - Playwright's TimeoutError: try again
            page.keyboard.press("Escape")
    raise AssertionError(f"the select box {control.key!r} does not open")


def select_options(page: Any, control: Control) -> list[str]:
    """The options of a select box (its list is drawn only while it is open)."""
    options = open_select(page, control)
    texts = [" ".join(text.split()) for text in options.all_text_contents()]
    page.keyboard.press("Escape")
    page.locator('[role="listbox"]').wait_for(state="detached")
    return texts


def set_control(page: Any, control: Control, value: str) -> None:
    """Change ``control`` to ``value`` (one of :func:`change_values`) the way a student
    does, and wait until the page has run again."""
    where = page.locator(control.locator)
    kind = control.kind
    if kind in ("number", "text"):
        box = where.locator("input")
        box.fill(value)
        box.press("Enter")
    elif kind == "slider":
        handle = where.locator("input[type='range']")
        handle.focus()
        handle.press(value)
    elif kind == "select":
        options = open_select(page, control)
        texts = [" ".join(t.split()) for t in options.all_text_contents()]
        options.nth(texts.index(value)).click()
    elif kind == "radio":
        labels = where.locator("label:has(input[type='radio'])")
        texts = [" ".join(t.split()) for t in labels.all_text_contents()]
        labels.nth(texts.index(value)).click()
    elif kind == "group":
        buttons = where.locator("[data-testid='stButtonGroup'] button")
        texts = [" ".join(t.split()) for t in buttons.all_text_contents()]
        buttons.nth(texts.index(value)).click()
    elif kind == "switch":
        where.locator("label").first.click()
    elif kind == "tabs":
        tabs = where.locator("[role='tab']")
        texts = [" ".join(t.split()) for t in tabs.all_text_contents()]
        tabs.nth(texts.index(value)).click()
    elif kind == "button":
        where.locator("button").first.click()
    else:
        raise ValueError(kind)
    wait_for_app(page, timeout=PAGE_TIMEOUT)
