"""The re-audit of /adversary (docs/audit/adversary.md): the forced-mistake count and the
certificate checked against Theorem 1.34's hypotheses in exact arithmetic, independently of
the page's code, and the rounds table on a phone.

Theorem 1.34: with n = min(⌊1/γ²⌋, d), for any deterministic learner there is a data set
{(eᵢ, yᵢ)}, i = 1..n, of unit vectors with margin at least γ (some w* with ‖w*‖ ≤ 1 and
yᵢ⟨eᵢ, w*⟩ ≥ γ for every i) on which the learner errs every time. γ is read as the decimal
a student typed (0.1 is 1/10): Fraction(repr(γ)).
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from app_helpers import open_page, static_tables
from browser_helpers import open_url
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron_core import constructions as cx
from perceptron_core.viz import adversary as viz

PAGE = "pages/adversary.py"
PERCEPTRON = "Perceptron (Algorithm 1.16, through the origin)"


def rounds(gamma: float, dim: int) -> int:
    """The largest n <= d with n γ² <= 1, γ as typed, found by counting up (no floor)."""
    g = Fraction(repr(float(gamma)))
    n = 1
    while n < dim and (n + 1) * g * g <= 1:
        n += 1
    return n


def certificate_holds(result, gamma: float) -> None:
    """Theorem 1.34's conclusion on the returned data, in fractions: unit examples eᵢ, w*
    with ‖w*‖² <= 1 and every yᵢ⟨eᵢ, w*⟩ >= γ, and a mistake in every round."""
    g = Fraction(repr(float(gamma)))
    n = result.n_mistakes
    assert result.predictions.size == n and all(
        p != y for p, y in zip(result.predictions, result.y)
    )
    w = [g * int(label) for label in result.y]  # the certificate γ·y, exactly
    assert sum(v * v for v in w) <= 1
    assert all(int(label) * v == g for label, v in zip(result.y, w))
    assert [Fraction(c) for c in result.certificate[:n]] == [
        Fraction(float(g)) * int(y) for y in result.y
    ]
    assert result.norm_squared == n * g * g


@pytest.mark.parametrize(
    "gamma, dim, expected",
    [
        (0.1, 1000, 100),  # 100 · (1/10)² = 1 exactly: 100 rounds
        (0.1000000000000025, 1000, 99),  # 100 γ² = 1 + 5·10⁻¹⁴ > 1: only 99 (was 100)
        (0.3, 50, 11),
        (0.25, 100, 16),
        (0.01, 1000, 1000),
        (1.0, 7, 1),
        (0.707, 50, 2),
    ],
)
def test_the_forced_count_is_decided_exactly(gamma, dim, expected):
    assert rounds(gamma, dim) == expected == cx.adversary_size(gamma, dim)
    certificate_holds(cx.adversarial_lower_bound(gamma, min(dim, 1000), "perceptron"), gamma)


@settings(max_examples=80, deadline=None)
@given(
    thousandths=st.integers(min_value=10, max_value=1000),
    dim=st.integers(1, 400),
    learner=st.sampled_from(sorted(cx.LEARNERS)),
)
def test_theorem_1_34_holds_for_every_typed_margin(thousandths, dim, learner):
    gamma = thousandths / 1000  # what the number field can hold: three decimals
    result = cx.adversarial_lower_bound(gamma, dim, learner)
    assert result.n_mistakes == rounds(gamma, dim)
    certificate_holds(result, gamma)


def test_the_certificate_states_exact_numbers():
    """γ = 0.3, d = 50: n = 11 and ‖w*‖² = 11·0.09 = 0.99 < 1 (it read '0.3·√11 = 0.9950 ≤
    1', a rounded number inside an inequality)."""
    at = open_page(PAGE, {"adv_gamma": "0.3", "adv_learner": PERCEPTRON})
    (text,) = [s.value for s in at.success if "Certificate checked" in s.value]
    assert "‖w\\*‖² = n·γ² = 11·0.09 = 0.99 < 1, so ‖w\\*‖ < 1." in text
    assert "every yᵢ⟨eᵢ, w\\*⟩ = yᵢ·γyᵢ = γ = 0.3." in text
    assert "0.9950" not in text
    signs = text.split("w\\* = γ·y = (")[1].split(")")[0].split(", ")
    (table,) = static_tables(at, numbers=True)
    assert signs[:6] == [("+" if y > 0 else "−") + "0.3" for y in table["label yᵢ"][:6]]
    assert at.metric[0].value == "11"
    assert at.metric[0].proto.help.startswith("1/γ² = 100/9 = 11.11… (γ = 0.3), so ⌊1/γ²⌋ = 11")


def test_a_margin_just_above_one_tenth_forces_99_rounds():
    at = open_page(
        PAGE, {"adv_gamma": "0.1000000000000025", "adv_dim": "1000", "adv_learner": PERCEPTRON}
    )
    assert at.metric[0].value == "99"
    (text,) = [s.value for s in at.success if "Certificate checked" in s.value]
    assert "99 mistakes out of 99" in text and "< 1, so ‖w\\*‖ < 1." in text


@pytest.mark.parametrize(
    "played, dim, words",
    [
        (0, 50, "It is the first example: you have seen nothing yet."),
        (3, 50, "It is orthogonal to the 3 examples so far"),
        (1, 50, "It is orthogonal to the 1 example so far"),
    ],
)
def test_the_round_prompt_reads_right(played, dim, words):
    assert words in viz.round_prompt(played, 25, dim)
    assert "other 0 coordinates" not in viz.round_prompt(0, 1, 1)


def test_the_sweep_s_points_meet_the_theorem():
    """Every point of the forced-mistakes chart: n = min(⌊1/γ²⌋, d) for the γ it ran with,
    and 1/γ² there is 1 or half way between whole numbers (no float residue at a floor)."""
    gammas, forced = viz.forced_mistakes(50)
    for gamma, n in zip(gammas, forced):
        inverse = 1 / float(gamma) ** 2
        assert inverse == pytest.approx(1.0) or abs(inverse - math.floor(inverse) - 0.5) < 1e-6
        assert n == rounds(gamma, 50)


@pytest.mark.parametrize("width", [360, 390, 430])
def test_the_rounds_table_does_not_pan_sideways_on_a_phone(browser, streamlit_server, width):
    """All 25 rounds of a built-in learner: the table's box needs no sideways scrolling."""
    context = browser.new_context(
        viewport={"width": width, "height": 800}, is_mobile=True, has_touch=True
    )
    try:
        page = context.new_page()
        open_url(page, f"{streamlit_server}/adversary?adv_learner=Majority+label+seen+so+far")
        box = page.locator(".lab-table-box").first
        box.wait_for(timeout=60_000)
        sizes = box.evaluate("(b) => [b.scrollWidth, b.clientWidth]")
        assert sizes[0] <= sizes[1], sizes
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()
