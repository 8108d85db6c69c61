"""The re-audit of /aggressive (docs/audit/aggressive.md): every number the page states,
recomputed by an independent loop in exact integer arithmetic, and the example index k
(t counts updates everywhere in the app).

The loop below is the rule of Remark 1.19 written out: examples x_k = -2 when k is a power
of two (1 included), 1 otherwise (x = 1 in one dimension), every label +1, delta = 0,
start at (w, b) = (0, 0), a mistake when the score w x_k + b is <= 0.
"""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np
import pytest
from app_helpers import open_page, plotly_array, plotly_spec, static_tables, trace_named
from browser_helpers import open_url
from test_notation import page_texts

from perceptron_core import constructions as cx

PAGE = "pages/aggressive.py"


def example(k: int) -> int:
    return -2 if k & (k - 1) == 0 else 1


def both_rules(T: int) -> dict:
    """Both rules run example by example, in Python integers (exact)."""
    w = b = 0  # aggressive
    v = c = 0  # mistake-driven
    aggressive, standard, scores = [], [], []
    for k in range(1, T + 1):
        x = example(k)
        score = w * x + b
        scores.append(score) if k <= 64 else None
        if score <= 0:
            aggressive.append(k)
        w, b = w + x, b + 1  # the aggressive rule updates every time
        if v * x + c <= 0:
            standard.append(k)
            v, c = v + x, c + 1
    return dict(aggressive=aggressive, standard=standard, scores=scores, final=(v, c))


@pytest.fixture(scope="module")
def page():
    return open_page(PAGE)


@pytest.mark.parametrize("T", [100, 10**4, 10**6])
def test_mistake_lists_match_an_exact_loop(T):
    truth = both_rules(T)
    result = cx.aggressive_counterexample(T)
    assert result.mistakes_aggressive.tolist() == truth["aggressive"]
    assert result.mistakes_standard.tolist() == truth["standard"]
    assert (result.standard_w, result.standard_b) == truth["final"]


def test_the_page_states_the_loop_s_mistakes(page):
    """The metrics, their help, the sentence and the table, at the default T = 10^6."""
    truth = both_rules(10**6)
    assert [m.value for m in page.metric] == [
        str(len(truth["standard"])),
        str(len(truth["aggressive"])),
    ]
    text = "\n".join(m.value for m in page.markdown)
    assert "errs on examples 1 and 3 and then ends with w = −1·x and b = 2" in text
    powers = [2**j for j in range(5, 20)]
    assert set(powers) <= set(truth["aggressive"])
    early = sorted(set(truth["aggressive"]) - set(powers))
    assert early == [1, 3, 5]
    assert (
        "The aggressive rule errs on examples 1, 3 and 5, and then on every power of two "
        f"from 32 to 524288 ({len(powers)} of them, the last power of two up to "
        "T = 1,000,000)"
    ) in text
    helps = [m.proto.help for m in page.metric]
    assert helps[0].startswith("on examples 1 and 3;")
    assert (
        helps[1]
        == "on examples "
        + ", ".join(map(str, truth["aggressive"][:-1]))
        + f" and {truth['aggressive'][-1]}"
    )


def test_the_table_of_first_examples_matches_the_loop(page):
    truth = both_rules(40)
    (table,) = static_tables(page)
    assert table["example k"].tolist() == list(range(1, 41))
    cells = table["aggressive rule: score"]
    scores = [int(cell.split()[0].replace("−", "-")) for cell in cells]
    assert scores == truth["scores"][:40]
    assert [k for k, cell in zip(table["example k"], cells) if cell.endswith(" mistake")] == [
        k for k in truth["aggressive"] if k <= 40
    ]
    assert [
        k for k, v in zip(table["example k"], table["mistake-driven rule"]) if v == "mistake"
    ] == truth["standard"]
    assert [k for k, v in zip(table["example k"], table["xₖ"]) if v == "−2x"] == [
        1,
        2,
        4,
        8,
        16,
        32,
    ]


@pytest.mark.parametrize("width", [360, 390, 430])
def test_the_table_does_not_pan_sideways_on_a_phone(browser, streamlit_server, width):
    context = browser.new_context(
        viewport={"width": width, "height": 800}, is_mobile=True, has_touch=True
    )
    try:
        page = context.new_page()
        open_url(page, f"{streamlit_server}/aggressive")
        box = page.locator(".lab-table-box").first
        box.wait_for(timeout=60_000)
        sizes = box.evaluate("(b) => [b.scrollWidth, b.clientWidth]")
        assert sizes[0] <= sizes[1], sizes
    finally:
        context.close()


def test_the_running_average_is_exact_and_its_verdicts_match(page):
    spec = plotly_spec(page, "aggressive_running_average")
    below = trace_named(spec, "at or below −1")
    above = trace_named(spec, "above −1")
    mistakes = set(both_rules(10**6)["aggressive"])
    shown = {int(k) for trace in (below, above) for k in plotly_array(trace["x"])}
    sums, total = {}, 0
    for k in range(1, max(shown) + 1):  # the running sum, example by example
        total += example(k)
        if k in shown:
            sums[k] = total
    for trace, errs in ((below, True), (above, False)):
        for k, value in zip(plotly_array(trace["x"]), plotly_array(trace["y"])):
            k = int(k)
            exact = Fraction(sums[k], k) * example(k + 1)
            assert value == pytest.approx(float(exact), rel=1e-12)
            assert (exact <= -1) == errs == ((k + 1) in mistakes)


def test_the_swing_s_frames_state_exact_scores_and_lines():
    spec = plotly_spec(open_page(PAGE), "aggressive_swing")
    total = 0
    for k, frame in enumerate(spec["frames"], start=1):
        x = example(k)
        score = total * x + (k - 1)
        total += x
        title = frame["layout"]["title"]["text"]
        sub = str(k).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))
        verdict = "MISTAKE" if score <= 0 else "correct"
        assert title.startswith(f"Example {k}")
        assert f"x{sub} = ({x}, 0), score {score} → {verdict}".replace("-", "−") in title
        if total == 0:
            assert "no line (w = 0)" in title
        else:
            assert f"line at x₁ = {-k / total:.2f}".replace("-", "−") in title


def test_exercise_1_20_scores_are_minus_two_k_minus_one_squared():
    at = open_page(PAGE)
    at.slider(key="always_wrong_T").set_value(60).run()
    sequence = cx.always_wrong_sequence(60)
    w = b = 0
    for k in range(1, 61):
        x = (2 * k - 1) * (1 if k % 2 else -1)
        assert sequence.x[k - 1] == x
        score = w * x + b
        assert score == -2 * (k - 1) ** 2 == sequence.scores[k - 1]
        w, b = w + x, b + 1
    assert any(
        s.value.startswith(
            "60 mistakes in 60 examples; the separator w = 0, b = 1 "
            "gives every example a score of at least 1 > 0"
        )
        for s in at.success
    )


def test_examples_are_numbered_k_not_t():
    """One symbol, one meaning: t counts updates; the aggressive page numbers examples by k
    (it wrote x_t, 'at t = 1, 3', 'from t = 32 on' and 'mistakes made up to t')."""
    text = page_texts(open_page(PAGE))
    for pattern in (
        r"\bt = \d",
        r"x_t\b",
        r"xₜ",
        r"x_\{t",
        r"\by_t\b",
        r"w_t\b",
        r"up to t\b",
        r"\bt \(example",
    ):
        assert not re.search(pattern, text), pattern
    assert "Example number $k$ is\n$\\mathbf{x}_k$" in text


@pytest.mark.parametrize("T", [10**2, 10**3, 10**5])
def test_every_length_states_its_own_counts(T):
    at = open_page(PAGE)
    at.select_slider(key="aggressive_T").set_value(T).run()
    truth = both_rules(T)
    powers = [2**j for j in range(5, T.bit_length()) if 2**j <= T]
    assert [m.value for m in at.metric] == ["2", str(len(truth["aggressive"]))]
    text = "\n".join(m.value for m in at.markdown)
    assert f"from 32 to {powers[-1]} ({len(powers)} of them" in text
    cumulative = plotly_spec(at, "aggressive_cumulative")
    steps = [t for t in cumulative["data"] if (t.get("line") or {}).get("shape") == "hv"]
    assert [int(plotly_array(t["y"])[-1]) for t in steps] == [
        len(truth["standard"]),
        len(truth["aggressive"]),
    ]
    assert np.all(plotly_array(steps[1]["x"]) <= T)
