"""/generalisation's re-audit: every sentence true for the settings on screen.

Each test names the kind of the audit it checks (see docs/audit/generalisation.md) and
uses settings chosen so that the old sentence, number or run was false. Facts are
recomputed here by independent code: the margin perceptron in 50-digit decimal arithmetic
on exact unit vectors, fractions for the bounds, plain loops for the runs.
"""

from __future__ import annotations

import math
from decimal import Decimal, localcontext
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from perceptron_core import generalisation_curve, make_unit_margin, margin_perceptron
from perceptron_core.perceptron import example_order

# ---------------------------------------------------------------------------
# An independent margin perceptron on exact unit vectors
# ---------------------------------------------------------------------------


def exact_unit_gram(X, y):
    """G_ij = y_i y_j u_i·u_j for the exact unit vectors u_i = x_i / ||x_i|| of the stored
    points, in 50-digit decimals, with G_ii = 1 exactly (what ||u_i|| = 1 means)."""
    with localcontext() as ctx:
        ctx.prec = 50
        rows = [[Decimal(float(v)) for v in x] for x in np.asarray(X)]
        units = []
        for row in rows:
            norm = sum(v * v for v in row).sqrt()
            units.append([v / norm for v in row])
        n = len(units)
        gram = [
            [
                Decimal(1)
                if i == j
                else int(y[i]) * int(y[j]) * sum(a * b for a, b in zip(units[i], units[j]))
                for j in range(n)
            ]
            for i in range(n)
        ]
    return gram, units


def exact_margin_perceptron(X, y, epochs):
    """The notes' margin perceptron on exact unit vectors: w = sum_j c_j y_j u_j, a margin
    mistake when y_i u_i·w = sum_j c_j G_ij < 1; examples in the order of the streams that
    ``epochs()`` returns one epoch at a time; it stops as soon as no example has a margin
    mistake. Returns the update counts c (how often each example updated) and the order of
    the updates."""
    gram, units = exact_unit_gram(X, y)
    n = len(gram)
    counts, order = [0] * n, []
    with localcontext() as ctx:
        ctx.prec = 50

        def score(i):
            return sum(c * g for c, g in zip(counts, gram[i]) if c)

        while True:
            for i in epochs():
                if all(score(j) >= 1 for j in range(n)):
                    return counts, order, units
                if score(i) < 1:
                    counts[i] += 1
                    order.append(int(i))


def direction(counts, y, units):
    """The learned w = sum_j c_j y_j u_j as floats (50 digits, then rounded)."""
    with localcontext() as ctx:
        ctx.prec = 50
        w = [
            sum(Decimal(c * int(y[j])) * units[j][k] for j, c in enumerate(counts) if c)
            for k in range(len(units[0]))
        ]
    return np.array([float(v) for v in w])


def error_2d(w, star, margin):
    """The exact 2-d test error of the line with normal w: clip((φ − g)/(π − 2g), 0, 1)."""
    if not np.any(w):
        return 0.5
    phi = math.atan2(abs(w[0] * star[1] - w[1] * star[0]), float(w @ star))
    g = math.asin(margin)
    return min(1.0, max(0.0, (phi - g) / (math.pi - 2 * g)))


# ---------------------------------------------------------------------------
# Kind 2: a unit vector's score against its own update is 1, exactly
# ---------------------------------------------------------------------------


def test_kind_2_after_w_equals_yx_that_point_is_not_a_margin_mistake():
    """N = 5, data seed 0, order seed 11: the stream examines point 1 twice first, and its
    stored ||x||² is 0.9999999999999999. Unit vectors give y x·w = 1 after w = y x: no
    update. The old run updated it again (w = 2 y x) and ended after 10 margin mistakes
    where the notes' rule makes 13."""
    data = make_unit_margin(n=5, margin=0.1, dim=2, seed=0)
    X, y = np.asarray(data.X), np.asarray(data.y)
    assert example_order("random", 5, 11, 0)[:2].tolist() == [0, 0]
    assert X[0] @ X[0] < 1  # the stored point rounds below unit length
    trace = margin_perceptron(X, y, order="random", seed=11, unit=True)
    epochs = iter(example_order("random", 5, 11, e) for e in range(10**6))
    counts, order, _ = exact_margin_perceptron(X, y, lambda: next(epochs))
    assert trace.update_indices.tolist() == order
    assert trace.update_indices[:2].tolist() == [0, 3]  # not [0, 0]
    assert trace.n_updates == 13 and trace.converged


@pytest.mark.parametrize("size", [1, 2, 3, 5])
def test_kind_2_the_small_n_curve_is_the_exact_recomputation_run_by_run(size):
    """Every run of the curve at small N against the exact margin perceptron on the same
    data and stream (curve_run_data): the same margin mistakes and the same test error.
    The old curve counted the tie as a margin mistake whenever a point's stored length
    rounded below 1, which moved the N = 5 mean by 0.008 (3.4 standard errors)."""
    from perceptron_core.generalisation import curve_run_data

    margin, repeats, seed = 0.1, 200, 7
    curve = generalisation_curve(n_train=[size], margin=margin, dim=2, repeats=repeats, seed=seed)
    for run in range(repeats):
        rng, star, X, y = curve_run_data(seed, size, run, margin, 2)
        counts, order, units = exact_margin_perceptron(
            X, y, lambda rng=rng: rng.integers(0, size, size=size)
        )
        assert curve.margin_mistakes[0, run] == len(order), run
        assert curve.errors[0, run] == pytest.approx(
            error_2d(direction(counts, y, units), star, margin), abs=1e-9
        ), run
    if size == 1:  # w = y x, then y x·w = 1: one margin mistake in every run
        assert np.all(curve.margin_mistakes == 1)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    size=st.integers(1, 6),
    margin=st.sampled_from([0.05, 0.1, 0.15, 0.3, 0.55, 0.9]),
    seed=st.integers(0, 10**6),
)
def test_kind_2_property_curve_runs_match_the_exact_rule(size, margin, seed):
    from perceptron_core.generalisation import curve_run_data

    curve = generalisation_curve(n_train=[size], margin=margin, dim=2, repeats=8, seed=seed)
    for run in range(8):
        rng, star, X, y = curve_run_data(seed, size, run, margin, 2)
        counts, order, units = exact_margin_perceptron(
            X, y, lambda rng=rng: rng.integers(0, size, size=size)
        )
        assert curve.margin_mistakes[0, run] == len(order)
        assert curve.errors[0, run] == pytest.approx(
            error_2d(direction(counts, y, units), star, margin), abs=1e-9
        )
        # the Lemma's cap, for gamma as typed
        assert len(order) <= 3 / Fraction(repr(margin)) ** 2


@settings(max_examples=30, deadline=None)
@given(
    n=st.integers(2, 40),
    margin=st.sampled_from([0.05, 0.1, 0.2, 0.45, 0.9]),
    data_seed=st.integers(0, 10**6),
    order_seed=st.integers(0, 10**6),
    order=st.sampled_from(["random", "cyclic", "permuted"]),
)
def test_kind_2_property_the_page_run_is_the_exact_rule(n, margin, data_seed, order_seed, order):
    data = make_unit_margin(n=n, margin=margin, dim=2, seed=data_seed)
    X, y = np.asarray(data.X), np.asarray(data.y)
    trace = margin_perceptron(X, y, order=order, seed=order_seed, unit=True)
    epochs = iter(example_order(order, n, order_seed, e) for e in range(10**6))
    _, order_exact, _ = exact_margin_perceptron(X, y, lambda: next(epochs))
    assert trace.update_indices.tolist() == order_exact


# ---------------------------------------------------------------------------
# The page: the player's run, the curve's numbers at every N typed, the texts
# ---------------------------------------------------------------------------

PAGE = "pages/generalisation.py"


def test_kind_2_the_page_sends_the_exact_rule_run():
    """The page's player at N = 5, data seed 0, order seed 11: the old run updated point 1
    twice in a row (its stored length rounds below 1) and made 10 margin mistakes."""
    from app_helpers import open_page, player_payload

    at = open_page(PAGE, {"n": "5", "data_seed": "0", "order_seed": "11"})
    sent = player_payload(at, "generalisation")
    data = make_unit_margin(n=5, margin=0.1, dim=2, seed=0)
    epochs = iter(example_order("random", 5, 11, e) for e in range(10**6))
    _, order, _ = exact_margin_perceptron(
        np.asarray(data.X), np.asarray(data.y), lambda: next(epochs)
    )
    assert sent["updates"]["indices"] == order and order[:2] == [0, 3]
    assert sent["own"] == {"index": 0, "until": 1}  # the player's exact own score, k = 1


def test_every_n_typed_has_its_bounds_printed_and_its_own_tick():
    """N = 99 was labelled "100" by the axis and its bound was only in the CSV. The table
    under the chart gives every N typed with both bounds (recomputed here from the notes'
    formulas), and the x axis is labelled at the N typed, at their true values."""
    from app_helpers import open_page, plotly_spec, static_tables

    sizes = [2, 5, 10, 20, 50, 99]
    at = open_page(
        PAGE, {"curve_n": ", ".join(map(str, sizes)), "repeats": "20", "curve_margin": "0.15"}
    )
    table = next(t for t in static_tables(at, numbers=False) if "N" in t.columns)
    assert table["N"].tolist() == [str(n) for n in sizes]
    gamma = Fraction("0.15")
    for n, shown in zip(sizes, table["3/((N+1)γ²)"]):
        exact = 3 / ((n + 1) * gamma**2)
        assert float(shown.replace(",", "")) == pytest.approx(float(exact), rel=5e-3)
    for n, shown in zip(sizes, table["uniform law, 95%"]):
        bound = math.sqrt(3 * math.log(n + 1) / n) + math.sqrt(2 * math.log(20) / n)
        assert float(shown) == pytest.approx(bound, rel=5e-3)
    axis = plotly_spec(at, "curve_chart")["layout"]["xaxis"]
    ticks = [float(v) for v in axis["tickvals"]]
    assert set(ticks) <= set(sizes) and 99 in ticks and 100 not in ticks
    assert axis["ticktext"] == [f"{int(v):,}" for v in ticks]


@pytest.mark.parametrize(
    "typed, relation, cap",
    [
        ("0.1", "= 300", 300),
        ("0.15", "≈ 133.33", 133),
        ("0.2", "= 75", 75),
        ("0.3", "≈ 33.33", 33),
        ("0.35", "≈ 24.49", 24),
        ("0.9", "≈ 3.70", 3),
        ("0.05", "= 1,200", 1200),
    ],
)
def test_kind_3_the_lemmas_bound_is_written_equal_only_when_it_is(typed, relation, cap):
    """3/γ² = 133.33 was written for 400/3. Each γ of the number box's grid: '=' exactly
    when the digits shown are the exact value (fractions here), and the cap is the floor."""
    from perceptron_core.viz.generalisation import lemma_sentence

    exact = 3 / Fraction(typed) ** 2
    text = lemma_sentence(float(typed))
    assert text == f"3/γ² {relation}, so at most {cap:,}"
    assert cap == math.floor(exact)
    shown = Fraction(relation[2:].replace(",", ""))
    assert (relation[0] == "=") == (shown == exact)


@settings(max_examples=80, deadline=None)
@given(
    eta=st.decimals(min_value="0.01", max_value="100", places=2),
    margin=st.decimals(min_value="0.05", max_value="0.9", places=2),
)
def test_kind_3_property_hinge_bound_relation_is_exact(eta, margin):
    from perceptron_core.viz.generalisation import hinge_bound, relation_text

    exact = (1 + 2 / Fraction(str(eta))) / Fraction(str(margin)) ** 2
    assert hinge_bound(float(eta), float(margin)) == exact
    text = relation_text(exact)
    shown = Fraction(text[2:].replace(",", ""))
    assert (text[0] == "=") == (shown == exact)
    assert abs(float(shown) - float(exact)) <= 0.005 * max(1, float(exact))


def test_kind_1_a_closed_form_error_is_not_called_exact():
    """d = 2: the test error is a formula evaluated in floating point; the old text and the
    axis title called it "exact"."""
    from app_helpers import markdown_text, open_page, plotly_spec

    at = open_page(PAGE, {"curve_n": "2, 500", "repeats": "20"})
    text = markdown_text(at)
    assert "formula, not from test points" in text and "floating point" in text
    assert "each test error is exact" not in text
    title = plotly_spec(at, "curve_chart")["layout"]["yaxis"]["title"]["text"]
    assert "exact" not in title and "closed-form" in title


def test_kind_4_the_curve_says_where_the_bound_is_vacuous_and_why_zero_errors():
    """Which N have a stability bound above 1 (it says nothing there), computed; the N with
    no test error are those where every run's error is 0, i.e. ŵ within arcsin γ of w*."""
    from perceptron_core.viz.generalisation import curve_findings

    curve = generalisation_curve(n_train=[3, 30, 2000], margin=0.3, dim=2, repeats=30, seed=2)
    texts = curve_findings(curve, 5000)
    vacuous = [n for n in (3, 30, 2000) if 3 / ((n + 1) * 0.09) > 1]
    assert vacuous == [3, 30]
    assert any(t.startswith("At N = 3 and 30 the stability bound is above 1") for t in texts)
    zero = [n for n, row in zip((3, 30, 2000), curve.errors) if not np.any(row > 0)]
    names = [f"{n:,}" for n in zero]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    assert zero and any(t.startswith(f"At N = {listed} **none") and "arcsin γ" in t for t in texts)


def test_the_stability_section_numbers_points_from_one_and_says_the_held_out_margin():
    """The player names example i + 1; the stability section said "point 0". Now point k is
    row k − 1 everywhere, and the held-out point's margin under the run without it is
    recomputed here."""
    from app_helpers import markdown_text, open_page

    at = open_page(PAGE, {"stab_n": "30", "heldout": "1"})
    text = markdown_text(at)
    data = make_unit_margin(n=30, margin=0.1, dim=2, seed=0)
    X, y = np.asarray(data.X), np.asarray(data.y)
    reduced = margin_perceptron(X[1:], y[1:], order="cyclic", unit=True)
    m = float(y[0] * (X[0] @ np.asarray(reduced.w)))
    assert f"point 1 has y x·ŵ = {m:.4f}".replace("-", "−") in text
    full = margin_perceptron(X, y, order="cyclic", unit=True)
    names = ", ".join(str(i + 1) for i in sorted(set(full.update_indices.tolist())))
    assert f"points that caused a margin mistake: {names}" in text


def test_eta_one_has_one_column_and_says_there_is_nothing_to_compare():
    from app_helpers import open_page

    at = open_page(PAGE, {"eta": "1.0"})
    assert any("nothing to compare" in s.value for s in at.success)
    headers = [list(t.value.columns) for t in at.table]
    assert headers and all(len(h) == len(set(h)) for h in headers)


def test_kind_7_the_quiz_uses_the_pages_kinks():
    """The page takes slope −1 at m = 0 for the perceptron loss (a score of 0 is wrong) and 0
    at m = 1 for the hinge loss; the quiz's explanation said "updates only when y xᵀβ < 0"
    and used β where the page writes w."""
    from pages.common.questions.generalisation import QUESTIONS
    from perceptron_core.generalisation import LOSSES

    assert LOSSES["perceptron"][1](np.array([0.0]))[0] == -1.0
    assert LOSSES["hinge"][1](np.array([1.0]))[0] == 0.0
    hinge = next(q for q in QUESTIONS if q.key == "generalisation_quiz_hinge")
    assert "y xᵀw ≤ 0" in hinge.why and "< 0 (" not in hinge.why
    assert not any("β" in q.question + q.why + "".join(q.options) for q in QUESTIONS)


# ---------------------------------------------------------------------------
# In the browser: the player's words at the tie, the curve's ticks and the charts on a phone
# ---------------------------------------------------------------------------

PHONE_AGENT = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/126.0.0.0 Mobile Safari/537.36"
)


def test_kind_2_the_player_says_the_tie_is_no_margin_mistake(page, streamlit_server):
    """Step 2 examines point 1 again right after w = y x: y x·w = 1 exactly, no update, and
    the panel counts it with y x·w ≥ 1 (the old player updated it: 0.9999999999999999)."""
    from browser_helpers import assert_no_exception, open_player, wait_for_player

    player = open_player(
        page, f"{streamlit_server}/generalisation?n=5&data_seed=0&order_seed=11&step=2"
    )
    assert wait_for_player(player, 2, 1) == (2, 1)
    text = player.get_by_test_id("step-text").inner_text()
    assert "Step 2: example 1," in text and "y x·w = 1 ≥ 1" in text and "no update" in text
    facts = player.locator(".facts").inner_text()
    assert "1 point with y x·w ≥ 1" in facts
    assert_no_exception(page)


def open_parts(page) -> None:
    """Open every "Show …" part of the page, one after another (each reruns the page)."""
    from browser_helpers import wait_for_app

    for _ in range(4):
        closed = page.locator(
            "[data-testid='stExpander'] details:not([open]) summary", has_text="Show"
        )
        if not closed.count():
            return
        closed.first.click()
        wait_for_app(page, timeout=120_000)


def test_on_a_phone_the_curves_ticks_are_the_n_typed_and_no_chart_text_is_clipped(
    browser, streamlit_server
):
    """390 px wide: the x axis labels only N typed, at their places, none touching; every
    text of the curve's and the losses' charts lies inside its chart (the slope chart's
    title was cut off on a phone); the page does not pan sideways."""
    from browser_helpers import open_url

    sizes = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 99, 100, 1000]
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        user_agent=PHONE_AGENT,
    )
    try:
        page = context.new_page()
        open_url(
            page,
            f"{streamlit_server}/generalisation?curve_n="
            + "%2C".join(map(str, sizes))
            + "&repeats=10",
            timeout=120_000,
        )
        open_parts(page)
        curve = page.locator("svg.svg-chart[aria-label^='Chart: test error']").first
        curve.wait_for(timeout=60_000)
        boxes = curve.evaluate("""(svg) => [...svg.querySelectorAll('g.ticks text')]
            .filter((t) => t.getAttribute('text-anchor') === 'middle')
            .map((t) => { const r = t.getBoundingClientRect();
                          return [t.textContent, r.left, r.right]; })""")
        texts = [t for t, _, _ in boxes]
        assert texts and set(texts) <= {f"{n:,}" for n in sizes}
        assert "1" in texts and "1,000" in texts
        ordered = sorted(boxes, key=lambda b: b[1])
        assert all(a[2] <= b[1] for a, b in zip(ordered, ordered[1:])), ordered
        for svg in page.locator("svg.svg-chart").all():
            outside = svg.evaluate("""(svg) => { const box = svg.getBoundingClientRect();
                return [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim())
                  .map((t) => [t.textContent, t.getBoundingClientRect()])
                  .filter(([, r]) => r.width && (r.left < box.left - 1 || r.right > box.right + 1
                                                 || r.top < box.top - 1
                                                 || r.bottom > box.bottom + 1))
                  .map(([s]) => s); }""")
            assert outside == [], (svg.get_attribute("aria-label"), outside)
        assert (
            page.evaluate(
                "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            <= 0
        )
    finally:
        context.close()
