"""One notation across the app (issue 22): every symbol a page shows is in that page's
Notation panel, γ never names a kernel's parameter, and every numbered result a page
names comes with its one-line statement.

Each page is opened (AppTest) in settings that show its different texts; every string
the page sends is read: Markdown, captions, labels, help texts, messages, tables, the
Plotly figures' titles, axes, legends and hover texts, and the player's JSON (not the
player's JavaScript, which is not page text)."""

from __future__ import annotations

import json
import re

import pytest
from app_helpers import open_page, page_files, proto_strings
from google.protobuf.message import Message

from pages.bound_parts.tabs import TABS as BOUND_TABS
from perceptron_core.theory import NAMED_RESULTS, NOTATION, PAGE_NOTATION, page_notation

#: JSON keys that hold no text a student reads (data, colours, layout words)
NOT_TEXT = {
    "bdata",
    "dtype",
    "shape",
    "id",
    "key",
    "color",
    "bgcolor",
    "bordercolor",
    "fillcolor",
    "colorscale",
    "symbol",
    "family",
    "mode",
    "type",
    "hoverinfo",
    "xref",
    "yref",
    "uirevision",
    "anchor",
    "xanchor",
    "yanchor",
    "scaleanchor",
    "constrain",
    "layer",
    "template",
    "dash",
    "fill",
    "orientation",
    "aspectmode",
    "textposition",
    "valign",
    "align",
    "tickformat",
    "hoverformat",
    "matches",
}
#: proto fields that hold code or data, not text
NOT_TEXT_FIELDS = {
    "id",
    "form_id",
    "component_name",
    "url",
    "data",
    "arrow_data",
    "theme",
    "css",
    "key",
    "js_content",
    "html_content",
    "css_content",
    "js_source_path",
    "css_source_path",
}
#: KaTeX commands for Greek letters
LATEX_GREEK = {
    "alpha": "α",
    "beta": "β",
    "gamma": "γ",
    "delta": "δ",
    "epsilon": "ε",
    "varepsilon": "ε",
    "eta": "η",
    "lambda": "λ",
    "tau": "τ",
    "sigma": "σ",
    "kappa": "κ",
    "Phi": "Φ",
    "phi": "φ",
    "mu": "μ",
    "theta": "θ",
    "rho": "ρ",
    "xi": "ξ",
    "omega": "ω",
    "nu": "ν",
    "zeta": "ζ",
    "chi": "χ",
    "psi": "ψ",
}
#: Greek letters used as operators, not symbols of the page (a sum)
OPERATORS = {"Σ"}
#: Latin symbols, where a page writes them as mathematics -> the panel entry they need
LATIN = {
    "R": (re.compile(r"(?<![\w(])R(?=\s?[=²/_^]|_Φ|\)²)"), "R"),
    "d": (re.compile(r"\bd = \d|dimension d\b|\$d\$|\{0,1\\\}\^d|2ᵈ"), "d"),
    "T(A)": (re.compile(r"T\(A\)"), "T(A)"),
    "K(x, z)": (re.compile(r"\bK\(|K\s?\+\s?1"), "K(x, z)"),
    "f(x)": (re.compile(r"\bf\(x"), "f(x)"),
    "k": (re.compile(r"\bk = \d|\bk\(k|\bk classes"), "k"),
    "P": (re.compile(r"\bP(?:_i|ᵢ)|\bP = \d|dimension P"), "Pᵢ(w)"),
}


def _strings(value, out: list, key=None) -> None:
    if isinstance(value, str):
        if key not in NOT_TEXT and not value.startswith(("#", "rgb")):
            out.append(value)
    elif isinstance(value, dict):
        for name, item in value.items():
            if name not in NOT_TEXT:
                _strings(item, out, name)
    elif isinstance(value, list):
        for item in value:
            _strings(item, out, key)


def _json_field(name: str, value: str, out: list) -> bool:
    """A chart's spec or a component's JSON: the strings inside it."""
    if name not in ("spec", "json"):
        return False
    try:
        _strings(json.loads(value), out)
    except ValueError:
        out.append(value)
    return True


def _proto_strings(message, out: list) -> None:
    proto_strings(message, out, NOT_TEXT_FIELDS, _json_field)


def page_texts(at) -> str:
    """Every string the page sent, one a line."""
    out: list[str] = []

    def walk(node):
        proto = getattr(node, "proto", None)
        if isinstance(proto, Message):
            _proto_strings(proto, out)
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    # the Notation panel itself (app.py draws it on the first page a test opens)
    return "\n".join(text for text in out if not text.startswith("| symbol | meaning |"))


def shown_symbols(text: str) -> set[str]:
    """The Greek letters (Unicode or KaTeX) and the Latin symbols of LATIN in ``text``."""
    greek = {c for c in re.findall(r"[\u0391-\u03c9]", text)}
    greek |= {LATEX_GREEK[m] for m in re.findall(r"\\([A-Za-z]+)", text) if m in LATEX_GREEK}
    return (greek - OPERATORS) | {
        name for name, (pattern, _) in LATIN.items() if pattern.search(text)
    }


def missing_from_panel(page: str, text: str) -> set[str]:
    """Symbols shown in ``text`` that the Notation panel of ``page`` does not list."""
    panel = page_notation(page)
    missing = set()
    for symbol in shown_symbols(text):
        needed = LATIN[symbol][1] if symbol in LATIN else None
        if needed is not None:
            if needed not in panel:
                missing.add(symbol)
        elif not any(symbol in entry for entry in panel):
            missing.add(symbol)
    return missing


def page_name(path: str) -> str:
    return path.rsplit("/", 1)[-1].removesuffix(".py")


#: page file -> the links that open it in settings showing its different texts
STATES = {page: [{}] for page in page_files()}
STATES["pages/kernels.py"] = [
    {},
    {"kernel": "poly", "data": "xor"},
    {"kernel": "linear", "data": "xor"},
    {"kernel": "rbf", "data": "blobs", "scale": "0.05"},
    {"kernel": "rbf", "scale": "50"},
]
STATES["pages/bound.py"] = [{"bound_tab": tab} for tab in BOUND_TABS]
STATES["pages/train.py"] = [{}, {"bias": "false"}]


@pytest.mark.parametrize("path", page_files())
def test_every_symbol_a_page_shows_is_in_its_notation_panel(path):
    page = page_name(path)
    assert page in PAGE_NOTATION, f"{page} has no Notation panel"
    for query in STATES[path]:
        text = page_texts(open_page(path, query))
        assert text.strip(), (path, query)
        missing = missing_from_panel(page, text)
        assert not missing, f"{path} {query}: {sorted(missing)} not in its Notation panel"


def test_the_check_would_catch_a_missing_symbol():
    """The test above can fail: a text with κ, β or dimension P is caught on a page whose
    panel lacks them, and passes on one that lists them."""
    assert missing_from_panel("train", "the scale κ and β*") == {"κ", "β"}
    assert missing_from_panel("train", "dimension P = 2") == {"P"}
    assert missing_from_panel("kernels", "K(x, z) = exp(−κ‖x − z‖²), width σ") == set()
    assert missing_from_panel("generalisation", r"$\boldsymbol\beta^*$") == set()
    assert missing_from_panel("multiclass", r"$\gamma$") == {"γ"}


def test_gamma_names_a_margin_and_nothing_else():
    """The kernels' scale is κ (width σ), in the core's names, formulas, the page and links."""
    from perceptron_core.kernels import KERNEL_FORMULAS, KERNEL_PARAMETERS

    assert not any("γ" in formula for formula in KERNEL_FORMULAS.values())
    assert "κ" in KERNEL_FORMULAS["rbf"] and "κ" in KERNEL_FORMULAS["poly"]
    assert all("gamma" not in params for params in KERNEL_PARAMETERS.values())
    assert "margin" in NOTATION["γ"] and "γ" not in NOTATION["κ"]
    at = open_page("pages/kernels.py", {"kernel": "rbf"})
    text = page_texts(at)
    for line in text.splitlines():  # γ only with a margin: γ_Φ, "margin γ", (R/γ)²
        for match in re.finditer(r"γ(?!_Φ|₂)", line):
            around = line[max(0, match.start() - 60) : match.end() + 60]
            assert "margin" in around or "R/γ" in around, around
    assert "κ" in text and "σ" in text


def test_beta_and_P_only_where_the_panel_defines_them():
    for path in page_files():
        page = page_name(path)
        text = page_texts(open_page(path))
        for symbol, entry in (("β", "β"), ("\\beta", "β")):
            if symbol in text:
                assert entry in page_notation(page), path
        assert "dimension P" not in text, path


#: a numbered result as pages name it
NAMED = re.compile(
    r"\b(Theorem|Remark|Exercise|Algorithm|Definition|Lemma|Claim) "
    r"(\d+\.\d+)"
)


@pytest.mark.parametrize(
    "path",
    [p for p in page_files() if page_name(p) in ("kernels", "generalisation", "bound", "train")],
)
def test_a_named_result_comes_with_its_statement(path):
    """Where a page names "Theorem 1.28", the page also shows its one-line statement."""
    for query in STATES[path][:2]:
        text = page_texts(open_page(path, query))
        for kind, number in set(NAMED.findall(text)):
            name = f"{kind} {number}"
            if name in NAMED_RESULTS:
                assert NAMED_RESULTS[name] in text, f"{path}: {name} without its statement"


# ---------------------------------------------------------------------------
# The player's JavaScript: the texts its scenes write (legends, step sentences, facts,
# end texts, chart titles) are page text too
# ---------------------------------------------------------------------------

#: a character after which "/" starts a regular expression, not a division
_REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^") | {""}


def js_strings(source: str) -> list[str]:
    """The string literals of JavaScript ``source`` ("…", '…', `…`), comments and regular
    expressions skipped; a template's ${…} parts are read as code (their own strings are
    listed) and stand as "…" in the template's text."""
    out: list[str] = []

    def code(i: int, stop: str | None) -> int:
        """Read code from ``i`` until ``stop`` ("}" closing a template's ${) at depth 0."""
        depth, last = 0, ""
        while i < len(source):
            c = source[i]
            if source.startswith("//", i):
                i = source.find("\n", i)
                i = len(source) if i < 0 else i
                continue
            if source.startswith("/*", i):
                i = source.index("*/", i) + 2
                continue
            if c == "/" and last in _REGEX_AFTER:
                i += 1
                in_class = False
                while source[i] != "/" or in_class:
                    in_class = (in_class or source[i] == "[") and source[i] != "]"
                    i += 2 if source[i] == "\\" else 1
                i, last = i + 1, ")"
                continue
            if c in "\"'":
                end = i + 1
                while source[end] != c:
                    end += 2 if source[end] == "\\" else 1
                out.append(source[i + 1 : end])
                i, last = end + 1, ")"
                continue
            if c == "`":
                i, last = template(i + 1), ")"
                continue
            if c == "{":
                depth += 1
            elif c == "}":
                if depth == 0 and stop == "}":
                    return i + 1
                depth -= 1
            if not c.isspace():
                last = c if c in _REGEX_AFTER else ")"
            i += 1
        return i

    def template(i: int) -> int:
        text = []
        while source[i] != "`":
            if source[i] == "\\":
                text.append(source[i + 1])
                i += 2
            elif source.startswith("${", i):
                text.append("…")
                i = code(i + 2, "}")
            else:
                text.append(source[i])
                i += 1
        out.append("".join(text))
        return i + 1

    code(0, None)
    return out


#: page -> the player scene it shows
PAGE_SCENES = {
    "train": "train",
    "kernels": "kernels",
    "generalisation": "generalisation",
    "relaxation": "relaxation",
}


def scene_texts(scene: str) -> str:
    """Every string literal of the scripts joined into the player for ``scene``."""
    from pages.player.player_component import HERE, scene_scripts

    return "\n".join(
        text
        for name in scene_scripts(scene)
        for text in js_strings((HERE / name).read_text(encoding="utf-8"))
    )


def test_the_js_string_reader_finds_texts_and_skips_code():
    source = (
        '// a comment with β\nconst a = "w·x = 0", r = /[0-9"]/g; /* γ */\n'
        "const t = `Now β = ${pair(w, 3)} and ${f('κ')}`;\nconst q = x / 2 / y;"
    )
    assert js_strings(source) == ["w·x = 0", "κ", "Now β = … and …"]


@pytest.mark.parametrize("page", sorted(PAGE_SCENES))
def test_every_symbol_a_player_scene_writes_is_in_its_pages_panel(page):
    """Issue 22: /generalisation's scene wrote β for w and /kernels' read the kernel scale
    as gamma; the scene's texts (legends, step sentences, facts, chart titles, end texts)
    must use the page's notation: no symbol outside its Notation panel, no β anywhere."""
    text = scene_texts(PAGE_SCENES[page])
    assert text.count("\n") > 50, "the scripts' strings were not read"
    missing = missing_from_panel(page, text)
    assert not missing, f"the {page} player writes {sorted(missing)}, not in its panel"
    assert "β" not in text, f"the {page} player writes β: the app writes w"


def test_the_kernels_player_never_writes_gamma_for_the_kernel_scale():
    from pages.player.player_component import HERE

    text = scene_texts("kernels")
    for line in text.splitlines():  # γ only as a margin: γ_Φ, (R/γ)², "margin"
        for match in re.finditer(r"γ(?!_Φ|₂)", line):
            around = line[max(0, match.start() - 60) : match.end() + 60]
            assert "margin" in around or "R/γ" in around or "R_Φ/γ" in around, around
    scene = (HERE / "kernels_scene.js").read_text(encoding="utf-8")
    assert "spec.gamma" not in scene and "spec.scale" in scene
