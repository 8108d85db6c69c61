"""Checks on every text a page shows to a student: no unfilled ``{NAME}`` placeholder, and
no displayed inequality that is false as written.

Used by tests/app/test_page_texts_scan.py (the texts a page sends, read through AppTest) and by
its browser part (the texts the player writes in JavaScript).

- :func:`page_texts`: every text of an AppTest run: Markdown, captions, alerts, labels,
  options and help of widgets, metrics, HTML and data tables' cells, chart titles, axis
  titles, annotations and hover texts (in the figure's JSON), the player's payload texts;
- :func:`placeholders`: ``{identifier}`` left in a text (a format string never filled);
- :func:`false_inequalities`: an inequality ``a ≤ b`` (also ``<``, ``≥``, ``>`` and chains
  ``a ≤ b ≤ c``) whose two sides are plain decimal numbers, each possibly written as
  ``symbol = number`` ("δ = 0.01"), that does not hold for the numbers as printed; and,
  when the true value of a symbol is known (a setting of the link), a side written
  ``symbol = number`` whose number is not that value (a rounded δ inside an inequality).
"""

from __future__ import annotations

import html
import json
import re
from decimal import Decimal, InvalidOperation

#: proto fields that hold nothing a student reads (ids, styles, scripts, raw bytes)
NOT_TEXT = frozenset(
    {
        "id",
        "form_id",
        "key",
        "component_name",
        "css",
        "js_content",
        "html_content",
        "css_content",
        "js_source",
        "url",
        "page_script_hash",
        "arrow_data",
        "data",
        "format",
        "icon",
        "type",
        "theme",
        "selection_mode",
        "placeholder",
    }
)
#: keys of a figure's or a payload's JSON that hold no text (data arrays, colours, ids)
NOT_TEXT_JSON = frozenset(
    {
        "bdata",
        "dtype",
        "shape",
        "run_id",
        "uid",
        "json_key",
        "color",
        "colorscale",
        "fillcolor",
        "bgcolor",
        "bordercolor",
        "symbol",
        "dash",
        "mode",
        "type",
        "xref",
        "yref",
        "xanchor",
        "yanchor",
        "anchor",
        "overlaying",
        "side",
        "layer",
        "hoverinfo",
        "legendgroup",
        "filename",
        "family",
        "textposition",
        "fill",
        "visible",
        "matches",
        "scaleanchor",
        "tickmode",
        "ticks",
        "exponentformat",
        "rangemode",
        "constrain",
        "hovermode",
        "dragmode",
        "clickmode",
        "orientation",
        "valign",
        "align",
        "xaxis",
        "yaxis",
        "axref",
        "ayref",
        "autorange",
    }
)

#: an unfilled format field: {NAME}, not LaTeX's \mathbf{x}, x_{t}, x^{2} or \frac{a}{b},
#: nor Plotly's %{x}, nor a JavaScript template's ${x}
PLACEHOLDER = re.compile(r"(?<![\\\w^_}%$])\{[A-Za-z_][A-Za-z0-9_]*\}")


def texts_in_json(value, out: list[str]) -> None:
    """Every string of a JSON value, leaving out the keys of :data:`NOT_TEXT_JSON`."""
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in NOT_TEXT_JSON:
                texts_in_json(item, out)
    elif isinstance(value, list):
        for item in value:
            texts_in_json(item, out)


def _json_field(name: str, value: str, out: list[str]) -> bool:
    """A proto field holding JSON (a chart's figure, a component's data): its strings."""
    if name not in ("json", "spec"):
        return False
    try:
        data = json.loads(value)
        if isinstance(data, str):  # the player's payload travels as a JSON string
            data = json.loads(data)
    except ValueError:
        out.append(value)
        return True
    texts_in_json(data, out)
    return True


def page_texts(at) -> list[str]:
    """Every text of the page ``at`` (an AppTest run) a student may read, one item per
    string (HTML tags removed, entities decoded)."""
    from app_helpers import proto_strings
    from google.protobuf.message import Message

    out: list[str] = []
    stack = [at._tree]
    while stack:
        node = stack.pop()
        proto = getattr(node, "proto", None)
        if isinstance(proto, Message):
            proto_strings(proto, out, NOT_TEXT, _json_field)
        if getattr(node, "type", None) in ("arrow_data_frame", "arrow_table", "dataframe", "table"):
            frame = node.value
            out.extend(str(name) for name in frame.columns)
            out.extend(str(cell) for cell in frame.astype(str).to_numpy().ravel())
        stack.extend(getattr(node, "children", {}).values())
    return [readable(text) for text in out if text]


def readable(text: str) -> str:
    """A text as a student reads it: HTML tags out (a line break in their place), entities
    and Markdown's escapes decoded."""
    text = re.sub(r"<[^<>]*>", "\n", text)
    text = html.unescape(text)
    return re.sub(r"\\([<>*_$])", r"\1", text)


def placeholders(text: str) -> list[str]:
    """The unfilled ``{NAME}`` fields of ``text``."""
    return PLACEHOLDER.findall(text)


# ---------------------------------------------------------------------------
# Inequalities between printed numbers
# ---------------------------------------------------------------------------

#: a printed decimal number: a sign (the true minus too), digits (thousands with commas),
#: decimals, an exponent
NUMBER = r"[−\-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][−\-+]?\d+)?"
OPERATORS = {
    "≤": lambda a, b: a <= b,
    "<": lambda a, b: a < b,
    "≥": lambda a, b: a >= b,
    ">": lambda a, b: a > b,
}
#: LaTeX and ASCII spellings of the operators
SPELLINGS = (
    (r"\leq", "≤"),
    (r"\geq", "≥"),
    (r"\le", "≤"),
    (r"\ge", "≥"),
    (r"\lt", "<"),
    (r"\gt", ">"),
    ("<=", "≤"),
    (">=", "≥"),
)
#: the left side: a number at the end, before it nothing that makes it part of a sum or
#: product ("2·0.5 ≤" is not read): the start, a space after a word, "=", "(", ",", ":", ";"
LEFT = re.compile(
    rf"(?:^|(?<=[\s(=,:;\[]))(?:(?P<symbol>[^\s=<>≤≥,;:()\[\]]+)\s*=\s*)?"
    rf"(?P<number>{NUMBER})\s*$"
)
#: the right side: a number first, possibly written "symbol = number", then nothing that
#: makes it part of a longer expression ("≤ 0.5·40" is not read)
RIGHT = re.compile(
    rf"^\s*(?:(?P<symbol>[^\s\d=<>≤≥,;:()\[\]−\-+][^\s=<>≤≥,;:()\[\]]*)\s*=\s*)?"
    rf"(?P<number>{NUMBER})"
    r"(?=\s*$|\s*[,;:)\]!?]|\.(?!\d)|\s+(?![·×*/+−\-^%\d]))"
)


def _decimal(text: str) -> Decimal | None:
    try:
        return Decimal(text.replace("−", "-").replace(",", ""))
    except InvalidOperation:
        return None


def _left_ok(before: str, match: re.Match) -> bool:
    """Whether the number matched at the end of ``before`` stands alone: the value of what
    precedes its "=" ("aᵢ·w − cᵢ = 0.5 >"), or a number not inside a sum or a product
    ("2 · 0.5 ≤" is not read)."""
    if match.group("symbol"):
        return True
    rest = before[: match.start("number")].rstrip()
    return not rest or rest[-1] not in "·×*/+−-^√≈~∼"


def inequalities(text: str) -> list[tuple]:
    """The inequalities of ``text`` whose two sides are printed numbers: for each, (what is
    shown, the left number, the operator, the right number, the left symbol, the right
    symbol), a symbol being the name written before "=" on that side, or None."""
    for spelling, operator in SPELLINGS:
        text = text.replace(spelling, operator)
    text = text.replace("$", " ")
    found = []
    for op in re.finditer(r"[≤≥<>]", text):
        before, after = text[: op.start()], text[op.end() :]
        # the sides of an inequality do not cross a line or the end of a sentence
        before = re.split(r"\n|\.\s", before)[-1]
        after = after.split("\n")[0]
        left, right = LEFT.search(before), RIGHT.match(after)
        if not left or not right or not _left_ok(before, left):
            continue
        a, b = _decimal(left.group("number")), _decimal(right.group("number"))
        if a is None or b is None:
            continue
        shown = f"{before[left.start() :].strip()} {op.group()} {after[: right.end()].strip()}"
        found.append((shown, a, op.group(), b, left.group("symbol"), right.group("symbol")))
    return found


def false_inequalities(text: str, known: dict[str, Decimal] | None = None) -> list[str]:
    """What is false in the inequalities of ``text`` (see the module's docstring);
    ``known``: symbol -> its true value."""
    found = []
    for shown, a, op, b, left_symbol, right_symbol in inequalities(text):
        if not OPERATORS[op](a, b):
            found.append(f"{shown!r} is false for the numbers as printed")
        for symbol, value in ((left_symbol, a), (right_symbol, b)):
            if known and symbol in known and value != known[symbol]:
                found.append(f"{shown!r}: {symbol} is {known[symbol]}, not {value}")
    return found
