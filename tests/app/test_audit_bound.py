"""The re-audit of /bound (docs/audit/bound.md): each sentence that states a fact is checked
against the runs on screen, recomputed here from the figure's data or from fresh data drawn
with the same seeds; the margins against the exact reference (tests/exact_reference.py);
and, in Chromium, tick labels that never run together on the charts of /bound,
/aggressive and /adversary, at 1440 px and on phones.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from app_helpers import markdown_text, open_page, plotly_array, plotly_spec, trace_named
from browser_helpers import open_url
from exact_reference import certified_margin_squared, closest_first
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron_core import make_separable
from perceptron_core.sweeps import log_grid, margin_sweep
from perceptron_core.viz import bound as viz

PAGE = "pages/bound.py"
TABS = {
    "mistakes": ":material/target: Margin mistakes",
    "scale": ":material/open_in_full: Scaling and translation",
}


def percent(share: float) -> str:
    value = 100 * share
    return f"{value:.3g} %" if value >= 10 else f"{value:.2g} %"


def between(values) -> str:
    low, high = percent(min(values)), percent(max(values))
    return f"about {low}" if low == high else f"between {low} and {high}"


def bound_page(query: dict | None = None, tab: str | None = None):
    return open_page(PAGE, query, state={"bound_tab": TABS[tab]} if tab else None)


def test_the_dots_sentence_is_the_runs_own_at_n_2():
    """'The dots stay well under the bound' was fixed text; at n = 2 runs use up to 45 %."""
    at = bound_page({"bound_n": "2"})
    text = markdown_text(at)
    assert "well under" not in text and "random data are far from" not in text
    ratio = plotly_array(trace_named(plotly_spec(at, "bound_ratio_chart"), "runs")["y"])
    assert (
        f"each of these {ratio.size} runs made {between(ratio)} of the updates its own "
        f"T(A) allows (median {percent(float(np.median(ratio)))})"
    ) in text


def test_the_margin_mistakes_sentence_reads_R_from_the_runs_at_n_2():
    """'Since R is close to 1' was fixed text; at n = 2 the two points have R = |±γ|."""
    at = bound_page({"bound_n": "2"}, "mistakes")
    text = markdown_text(at)
    assert "close to 1" not in text
    radii = []
    for margin in log_grid(0.05, 0.5, 6):
        for seed in range(5):
            X = np.asarray(
                make_separable(
                    n=2, margin=margin, dim=2, seed=seed, radius=1.0, through_origin=True
                ).X
            )
            radii.append(float(np.max(np.linalg.norm(X, axis=1))))
    share = (2 + np.square(radii)) / 3
    assert (
        f"lies between {min(radii):.3g} and {max(radii):.3g}, so the dashed line (1.4), "
        f"(2 + R²)/γ², lies at {between(share)} of the blue line 3/γ²"
    ) in text


def test_the_translation_is_u_and_s_stays_the_margin_of_1_4():
    at = bound_page(tab="scale")
    text = markdown_text(at) + "\n".join(h.value for h in at.subheader)
    assert "Translation: xᵢ → xᵢ + u e₁" in text and "shift u" in text
    assert "values of u (shift along the first feature)" in [w.label for w in at.text_input]
    assert not re.search(r"\+ s e₁|value of s\b|values of s\b|shift s\b", text)
    assert "x̄" not in text  # x̄ is the running mean on /aggressive


def test_each_table_row_is_one_run_and_the_line_is_their_largest_T_A():
    """The table gave the median T(A) (219.3) while the line drew the largest (234): now each
    row is a run whose T(A) = (R² + 1)/γ₂², and the caption names the line's values."""
    at = bound_page(tab="scale")
    table = [df.value for df in at.dataframe][0]
    assert list(table.columns[:3]) == ["λ", "seed", "updates"]
    gamma_2 = table["γ₂ (bound's margin)"]
    np.testing.assert_allclose(table["T(A)"], (table["R"] ** 2 + 1) / gamma_2**2, rtol=1e-12)
    line = trace_named(plotly_spec(at, "bound_scale_chart"), "T(A), largest")
    for value, drawn in zip(plotly_array(line["x"]), plotly_array(line["y"])):
        rows = table[table["λ"] == value]
        assert drawn == rows["T(A)"].max()
        seed = int(rows["seed"][rows["T(A)"].idxmax()])
        assert f"λ = {value:g}: {drawn:.4f} (seed {seed})" in " ".join(c.value for c in at.caption)


def test_margins_exactly_two_apart_are_not_called_not_2():
    at = bound_page(
        {
            "bound_margin_low": "0.0625",
            "bound_margin_high": "0.5",
            "bound_margin_count": "4",
            "bound_margin_seeds": "1",
        }
    )
    text = markdown_text(at)
    assert "about 2.00 times apart," in text and "(not 2)" not in text
    assert "4 margins × 1 seed," in text  # not '1 seeds'


def test_the_bias_off_margin_is_the_exact_one():
    """Without a bias γ is 'the largest margin through the origin, computed in exact
    rational arithmetic': each run's γ² against the KKT solution in fractions."""
    sweep = margin_sweep([0.005, 0.05, 0.5], 2, n=40, dim=2, bias=False)
    for margin, seed, gamma in zip(sweep.margin, sweep.seed, sweep.gamma):
        data = make_separable(n=40, margin=margin, dim=2, seed=int(seed), through_origin=True)
        X, y = np.asarray(data.X), np.asarray(data.y)
        exact = certified_margin_squared(X, y, bias=False, guess=closest_first(X, y, data.w_star))
        assert abs(gamma - np.sqrt(float(exact))) <= np.spacing(gamma)
    assert sweep.exact.all()


@settings(max_examples=12, deadline=None)
@given(
    n=st.integers(2, 30),
    count=st.integers(2, 4),
    seeds=st.integers(1, 3),
    bias=st.booleans(),
    low=st.sampled_from([0.01, 0.03, 0.1]),
)
def test_the_sweep_words_are_the_runs_numbers(n, count, seeds, bias, low):
    """What halving_note and the table caption say, recomputed from the runs."""
    r = margin_sweep(log_grid(low, 0.5, count), seeds, n=n, dim=2, bias=bias)
    ratio = r.updates / r.bound
    assert viz.ratio_spread_text(ratio, "T(A)") == (
        f"each of these {ratio.size} runs made {between(ratio)} of the updates its own T(A) "
        f"allows (median {percent(float(np.median(ratio)))})."
    )
    reason = viz.halving_reason(r, bias)
    if np.ptp(r.radius):
        assert f"R ranged from {r.radius.min():.4g} to {r.radius.max():.4g}" in reason
    apart = r.values()[1:] / r.values()[:-1]
    assert ("(not 2)" in viz.margin_step_text(r.values(), r.per_value("bound"))) == (
        not np.allclose(apart, 2.0, rtol=5e-3)
    )
    for part in viz.largest_bound_text(r, "γ").split("; "):
        value, rest = part.removeprefix("γ = ").split(": ")
        rows = np.isclose(r.value, float(value), rtol=1e-5)
        top = np.argmax(np.where(rows, r.bound, -np.inf))
        assert rest == f"{r.bound[top]:.4f} (seed {r.seed[top]})"


def test_a_run_stopped_at_the_cap_is_not_called_a_bug():
    """λ = 0.001 at margin 0.005: the runs hit the page's cap of 200,000 updates while T(A)
    allows about 4·10¹⁰; that is not 'the theorem forbids this: a bug'."""
    at = bound_page(
        {
            "bound_scale_margin": "0.005",
            "bound_scale_values": "0.001",
            "bound_scale_seeds": "1",
            "bound_shift_values": "0",
            "bound_shift_seeds": "1",
        },
        "scale",
    )
    for _ in range(20):  # press Continue until the sweep has run
        buttons = [b for b in at.button if b.key and b.key.startswith("bound_continue")]
        if not buttons:
            break
        buttons[0].click().run()
    assert not [e.value for e in at.error if "bug" in e.value]
    assert any(
        "stopped after 200,000 updates, the most this page runs" in w.value for w in at.warning
    )


# ---------------------------------------------------------------------------
# In Chromium: tick labels and axis titles never overlap, on every chart of the three pages
# ---------------------------------------------------------------------------

OVERLAPS_JS = """() => {
  const charts = [];
  const walk = (root) => {
    for (const svg of root.querySelectorAll('svg.svg-chart')) charts.push(svg);
    for (const item of root.querySelectorAll('*')) if (item.shadowRoot) walk(item.shadowRoot);
  };
  walk(document);
  const problems = [];
  for (const svg of charts) {
    const box = svg.getBoundingClientRect();
    const texts = [...svg.querySelectorAll('g.ticks text, text.axis-title')]
      .map((t) => ({ text: t.textContent, r: t.getBoundingClientRect() }))
      .filter((t) => t.r.width > 0);
    for (const t of texts) {
      const r = t.r;
      if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1
          || r.bottom > box.bottom + 1) problems.push(`${t.text} leaves its chart`);
    }
    for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++) {
      const a = texts[i].r, b = texts[j].r;
      const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (x > 1 && y > 1) problems.push(`${texts[i].text} overlaps ${texts[j].text}`);
    }
  }
  return { charts: charts.length, problems };
}"""

LINKS = [
    "bound?bound_n_values=2,5,10,20,50,100,200,500,1000,2000,5000"
    "&bound_d_values=1,2,5,10,20,50,100,200,500&bound_n=20"
    "&bound_tab=%3Amaterial%2Fstraighten%3A+n+and+d",
    "bound?bound_margin_low=0.005&bound_margin_high=0.95&bound_margin_count=12"
    "&bound_margin_seeds=1&bound_n=50",
    "bound?bound_scale_values=0.1,1,10,100&bound_scale_seeds=1&bound_shift_seeds=1"
    "&bound_tab=%3Amaterial%2Fopen_in_full%3A+Scaling+and+translation",
    "bound?bound_tab=%3Amaterial%2Ftarget%3A+Margin+mistakes&bound_mm_low=0.03",
    "aggressive?aggressive_T=10%5E7+%3D+10%2C000%2C000",
    "adversary?adv_dim=1000&adv_gamma=0.01",
]


@pytest.mark.parametrize("width", [1440, 390])
@pytest.mark.parametrize("link", LINKS)
def test_tick_labels_never_collide(browser, streamlit_server, link, width):
    phone = width < 500
    context = browser.new_context(
        viewport={"width": width, "height": 900}, is_mobile=phone, has_touch=phone
    )
    try:
        page = context.new_page()
        open_url(page, f"{streamlit_server}/{link}", timeout=240_000)
        page.locator("svg.svg-chart").first.wait_for(timeout=120_000)
        page.wait_for_timeout(1500)
        found = page.evaluate(OVERLAPS_JS)
        assert found["charts"] >= 1
        assert found["problems"] == []
    finally:
        context.close()
