"""The first view of /relaxation, /generalisation, /bound and Home sends no Markdown that would make the
browser fetch KaTeX or the italic font (issue 21).

Streamlit's frontend loads KaTeX (rehype-katex, 92 kB gzipped, plus its fonts) the first
time a Markdown text holds ``$...$``, and Source Sans italic (138 kB) the first time one
holds ``*emphasis*`` or ``_emphasis_``. These pages write their first view in Unicode with
bold vectors instead; the closed parts (pages/common/deferred.py) may keep KaTeX, they send
nothing until opened. The page is run by AppTest with every part closed, as a first visit
opens it, and every string it sends is read, except the player's JSON (drawn by its own
script, not as Markdown) and help texts (Markdown shown only on hovering their icon).
tests/browser/test_browser_first_visit.py checks the same in Chromium by the chunks requested.
"""

from __future__ import annotations

import re

import pytest
from app_helpers import open_page, proto_strings
from google.protobuf.message import Message

#: Streamlit's inline or displayed math: $...$ or $$...$$ (a dollar escaped as \$ is text)
MATH = re.compile(r"\$\$[^$]+\$\$|(?<![\\$])\$(?![\s$])[^$\n]+(?<![\s\\$])\$")
#: Markdown emphasis with one * or _ (not bold **, not an escaped \*, not snake_case)
ITALIC = re.compile(
    r"(?<![*\\\w])\*(?![*\s])[^*\n]*?[^*\s\\]\*(?!\*)"
    r"|(?<![_\\\w])_(?![_\s])[^_\n]*?[^_\s\\]_(?![_\w])"
)
#: proto fields that hold no Markdown the first view draws
NOT_MARKDOWN = {
    "id",
    "form_id",
    "key",
    "help",
    "component_name",
    "json",
    "spec",
    "url",
    "data",
    "arrow_data",
    "css",
    "js_content",
    "html_content",
    "css_content",
}


def _strings(message, out: list) -> None:
    proto_strings(message, out, NOT_MARKDOWN)


def first_view_strings(at) -> list[str]:
    """Every string the page sent outside closed expanders (their labels included)."""
    out: list[str] = []

    def walk(node):
        if getattr(node, "type", None) == "bidi_component":
            return  # the player: texts in its JSON, drawn by its script as plain text
        proto = getattr(node, "proto", None)
        if isinstance(proto, Message):
            _strings(proto, out)
        if getattr(node, "type", None) == "expander" and not getattr(proto, "expanded", False):
            return  # a closed expander: its body waits until opened
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    return out


def needs_katex_or_italic(text: str) -> list[str]:
    return MATH.findall(text) + ITALIC.findall(text)


def test_the_patterns_catch_math_and_italic_but_not_bold_or_escapes():
    """The check can fail: the texts these pages used to send are caught, their Unicode
    forms, bold vectors, escaped stars and snake_case names are not."""
    caught = [
        "the *margin perceptron*: at most $3/\\gamma^2$",
        "with $\\eta=1$ this *is*",
        "a _word_ here",
        "$$x^T w$$",
    ]
    assert all(needs_katex_or_italic(text) for text in caught)
    passed = [
        "**w** ← **w** + y**x**",
        "planted **w**\\* keeps y **x**ᵀ**w**\\* ≥ γ",
        "**the same ŵ**",
        "run_id and step_size",
        "5 * 3 and 2 * 4",
        "costs \\$5 or \\$6",
        "Aᵀ**w** ≤ **c**, (1 − η)**w** + η Pᵢ(**w**)",
    ]
    assert [text for text in passed if needs_katex_or_italic(text)] == []


#: /bound's tabs (only the open one is drawn)
BOUND_TABS = (
    ":material/show_chart: Margin sweep",
    ":material/straighten: n and d",
    ":material/tune: Threshold δ",
    ":material/target: Margin mistakes",
    ":material/open_in_full: Scaling and translation",
)
#: page -> links whose first views differ in text (presets, an infeasible system, the chaotic
#: rule's τ below n, the presenter stage)
VIEWS = [
    ("pages/relaxation.py", {}),
    ("pages/relaxation.py", {"system": "infeasible"}),
    ("pages/relaxation.py", {"rule": "chaotic", "tau": "1"}),
    ("pages/relaxation.py", {"system": "thin sliver", "eta": "2.0"}),
    ("pages/generalisation.py", {}),
    ("pages/generalisation.py", {"n": "300"}),
    # /bound: every tab (only the open one is drawn), with and without a bias; small
    # sweeps, as the texts do not depend on their size
    *[
        (
            "pages/bound.py",
            {
                "state": {
                    "bound_tab": tab,
                    "bound_bias": bias,
                    "bound_margin_count": 3,
                    "bound_margin_seeds": 1,
                }
            },
        )
        for tab in BOUND_TABS
        for bias in (True, False)
    ],
    ("pages/home.py", {}),
]


@pytest.mark.parametrize(("path", "query"), VIEWS)
def test_first_view_sends_no_math_and_no_italic(path, query):
    query = dict(query)
    at = open_page(path, query, parts_open=False, state=query.pop("state", None))
    strings = first_view_strings(at)
    assert sum(len(s) for s in strings) > 1_000  # the page's texts were read
    offending = {s[:80]: needs_katex_or_italic(s) for s in strings if needs_katex_or_italic(s)}
    assert offending == {}, f"{path} {query}"


@pytest.mark.parametrize("dim", [2, 3])
def test_the_curves_findings_need_no_katex_either(dim):
    """The curve's part, once opened, writes its findings in Unicode too: below the bound or
    not (the mean pushed above it here), with and without N at which no run erred."""
    from dataclasses import replace

    import numpy as np

    from perceptron_core import generalisation_curve
    from perceptron_core._checks import frozen
    from perceptron_core.viz.generalisation import curve_findings

    curve = generalisation_curve(
        n_train=[2, 300], margin=0.3, dim=dim, repeats=10, seed=dim, n_test=200
    )
    above = replace(curve, mean_error=frozen(np.asarray(curve.stability_bound) + 0.1))
    for case, expected in ((curve, "below 3/((N + 1)γ²)"), (above, "**not** below")):
        texts = curve_findings(case, 200)
        assert expected in texts[0]
        assert [t for t in texts if needs_katex_or_italic(t)] == []
    # N = 300 at margin 0.3: some N with no error; N = 2: the stability bound is above 1
    texts = curve_findings(curve, 200)
    assert len(texts) == 3 and "At N = 300" in texts[1] and "At N = 2 the stability" in texts[2]
