"""Issue 9 outside /train, and issue 12 item 5: what the pages *say* is true for the
settings on screen. Each test renders a page with AppTest and checks its sentences, with
the numbers recomputed here from the core (not read back from the page)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from app_helpers import (
    markdown_text,
    open_page,
    player_payload,
    plotly_array,
    plotly_specs,
    trace_named,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from perceptron_core import make_separable, max_margin, run_perceptron
from perceptron_core.margin import padded_separator
from perceptron_core.perceptron import MAX_UPDATES_LIMIT, ORDERS
from perceptron_core.sweeps import log_grid, margin_sweep, shift_sweep
from perceptron_core.theory import (
    NAMED_RESULTS,
    NOTATION,
    bias_bound,
    bias_bound_margin,
    bound_summary,
    padded_bound,
    run_bounds,
)

SHIFT_TAB = ":material/open_in_full: Scaling and translation"


# --------------------------------------------------------------------------- home (item 5)


@pytest.fixture(scope="module")
def home() -> AppTest:
    return open_page("pages/home.py")


def test_home_separates_the_prediction_of_sign0_from_the_update_test(home):
    text = markdown_text(home)
    assert "counts as a mistake for either label" not in text  # the false sentence
    assert "is **predicted** −1: right for a −1 point, wrong for a +1 point" in text
    assert "even a −1 point the prediction gets right" in text


def test_home_states_the_hypotheses_of_the_upper_and_lower_bounds(home):
    text = markdown_text(home)
    assert "whatever the order — and no algorithm can promise" not in text
    why = next(m.value for m in home.markdown if m.value.startswith("**Why it stops**"))
    assert "**w**₀ = **0**, b₀ = 0 with threshold δ = 0" in why
    assert "maxᵢ ‖**a**ᵢ‖²/γ₂² updates" in why and "(R/γ)²" in why
    assert "examined again and again" in why and "(1.4)" in why
    lower = next(
        m.value for m in home.markdown if m.value.startswith("**In high dimension no learner")
    )
    assert "**deterministic** learner" in lower and "min(⌊1/γ²⌋, d)" in lower
    assert "d ≥ 1/γ²" in lower  # the hypothesis under which no learner does better


def test_home_links_the_four_new_pages_with_a_line_each(home):
    links = {link.proto.page: link.proto.label for link in home.get("page_link")}
    for page in ("kernels", "generalisation", "multiclass", "relaxation"):
        label = next((label for target, label in links.items() if page in target), None)
        assert label is not None, f"no link to /{page}: {links}"
        assert ": " in label and len(label) > 40  # says what the page shows


# ------------------------------------------------------- notation panel and named results


@pytest.mark.parametrize("query", [{}, {"present": "1"}])
def test_notation_panel_is_drawn_by_app_py_also_in_presenter_mode(query):
    # app.py draws it before st.navigation runs the page (AppTest keeps those elements
    # only for the first page; the browser test below opens it on other pages)
    at = open_page("pages/home.py", query)
    panel = [m.value for m in at.markdown if m.value.startswith("| symbol | meaning |")]
    assert len(panel) == 2  # the page's own symbols, then the other pages' (collapsed)
    for symbol in ("R", "γ", "γ₂", "aᵢ", "δ", "w₀", "T(A)", "(1.4)"):
        assert f"| {symbol} |" in panel[0], symbol
    assert "| κ |" not in panel[0] and "| κ |" in panel[1]  # a /kernels symbol
    assert set(NOTATION) >= {"R", "γ", "γ₂", "aᵢ", "δ", "w₀", "T(A)", "(1.4)"}


def test_named_results_are_stated_where_used():
    at = open_page("pages/adversary.py")
    lines = markdown_text(at)
    assert f"**Theorem 1.34.** {NAMED_RESULTS['Theorem 1.34']}" in lines
    at = open_page("pages/aggressive.py")
    assert f"**Remark 1.19.** {NAMED_RESULTS['Remark 1.19']}" in markdown_text(at)
    assert "⌊1/γ²⌋" in NAMED_RESULTS["Theorem 1.34"] and "δ = 0" in NAMED_RESULTS["Theorem 1.35"]


# ------------------------------------------------------------------ /bound (items 3, 6, 8)


@pytest.fixture(scope="module")
def bound_default() -> AppTest:
    return open_page("pages/bound.py")


def test_bound_opening_names_the_bound_of_the_bias_setting(bound_default):
    opening = bound_default.markdown[0].value
    assert "(radius / margin)²" not in opening
    assert "T(A) = (R² + 1)/γ₂²" in opening and "Learn a bias** on" in opening
    at = open_page(
        "pages/bound.py",
        state={"bound_bias": False, "bound_margin_count": 2, "bound_margin_seeds": 1},
    )
    opening = at.markdown[0].value
    assert "Learn a bias** off" in opening and "(R/γ)²" in opening
    assert "T(A)" not in opening


def test_bound_says_halving_the_margin_only_roughly_quadruples_T_A(bound_default):
    text = markdown_text(bound_default)
    assert "Halving the margin multiplies the bound by four" not in text
    sweep = margin_sweep(
        log_grid(0.02, 0.5, 8), list(range(5)), n=200, dim=2, bias=True, delta=0.0, order="cyclic"
    )
    values, medians = sweep.values(), sweep.per_value("bound")
    factors = (medians[:-1] / medians[1:]) ** (np.log(2) / np.log(values[1:] / values[:-1]))
    assert (
        f"a factor between {factors.min():.2f} and {factors.max():.2f} (the median T(A)). "
        "T(A) divides by γ₂²" in text
    )
    assert "T(A) divides by γ₂²" in text
    # what the counts did, counted from the same runs (not a fixed "they grow too")
    assert "The observed counts grow too, but more slowly" not in text
    counts = sweep.per_value("updates")[::-1]  # largest margin first
    rose, fell = int(np.sum(np.diff(counts) > 0)), int(np.sum(np.diff(counts) < 0))
    assert (
        f"went from {counts[0]:g} updates at the largest margin to {counts[-1]:g} at the "
        f"smallest; it rose at {rose}"
    ) in text
    assert (f"fell at {fell}" in text) == (fell > 0)


def test_bound_draws_the_notebook_bound_and_it_holds_for_every_run(bound_default):
    spec = plotly_specs(bound_default)[0]
    notebook = plotly_array(trace_named(spec, "2(R²+1)/ε² (notebook)")["y"])
    t_a = plotly_array(trace_named(spec, "T(A)")["y"])
    margins = plotly_array(trace_named(spec, "runs")["x"])
    updates = plotly_array(trace_named(spec, "runs")["y"])
    grid = plotly_array(trace_named(spec, "T(A)")["x"])
    assert np.all(notebook >= t_a)
    for margin, count in zip(margins, updates):
        assert count <= notebook[np.argmin(np.abs(grid - margin))]
    text = markdown_text(bound_default)
    assert "needs a separator (w\\*, b\\*) with ‖w\\*‖ ≤ 1, b\\*² ≤ 1" in text
    assert "so ε = γ" in text  # the data lie in the unit ball, so R <= 1


def expected_shift_counts(result):
    steps, counts = 0, {"R": 0, "g_fell": 0, "g_rose": 0, "T": 0, "u_rose": 0, "u_fell": 0}
    for seed in np.unique(result.seed):
        rows = sorted(np.flatnonzero(result.seed == seed), key=lambda i: result.value[i])
        for a, b in zip(rows, rows[1:]):
            steps += 1
            counts["R"] += result.radius[b] > result.radius[a] * (1 + 1e-9)
            counts["g_fell"] += result.gamma_2[b] < result.gamma_2[a] * (1 - 1e-9)
            counts["g_rose"] += result.gamma_2[b] > result.gamma_2[a] * (1 + 1e-9)
            counts["T"] += result.padded[b] > result.padded[a] * (1 + 1e-9)
            counts["u_rose"] += result.updates[b] > result.updates[a]
            counts["u_fell"] += result.updates[b] < result.updates[a]
    return steps, counts


def test_translation_tab_says_what_the_runs_on_screen_show():
    at = open_page(
        "pages/bound.py",
        state={
            "bound_tab": SHIFT_TAB,
            "bound_margin_count": 2,
            "bound_margin_seeds": 1,
            "bound_scale_seeds": 1,
            "bound_shift_seeds": 4,
        },
    )
    text = markdown_text(at)
    assert "needs more updates" not in text and "$\\gamma_2$ shrinks and $T(A)$ grows" not in text
    assert "Exercise 1.29 asks" in text and "faster or slower" in text
    result = shift_sweep(
        [0, 0.5, 1, 2, 4], list(range(4)), margin=0.1, n=200, dim=2, order="cyclic"
    )
    steps, c = expected_shift_counts(result)
    assert steps == 16
    finding = next(
        m.value
        for m in at.markdown  # the translation's finding (λ's is beside it)
        if m.value.startswith("**What these runs show") and "γ₂" in m.value
    )
    assert f"γ₂ shrank in {c['g_fell']} of {steps} and grew in {c['g_rose']} of {steps}" in finding
    assert f"T(A) grew in {c['T']} of {steps}" in finding
    assert (
        f"the number of updates grew in {c['u_rose']} of {steps}, fell in {c['u_fell']} of {steps}"
    ) in finding
    held = finding.split("Held every time: ")[1].split(".")[0] if "Held every" in finding else ""
    assert ("T(A) grew" in held) == (c["T"] == steps)
    assert ("the number of updates grew" in held) == (c["u_rose"] == steps)


def _bound_quiz():
    """Every text of /bound's quiz (pages/common/question_bank.py), joined."""
    from pages.common.question_bank import QUESTIONS_BY_PAGE

    return " ".join(
        f"{q.question} {' '.join(q.options)} {q.answer} {q.why}" for q in QUESTIONS_BY_PAGE["bound"]
    )


def test_bound_quiz_texts_carry_their_hypotheses():
    quiz = _bound_quiz()
    assert "No bias: the radius R stays the same" in quiz
    assert "need not be divided by exactly 4" in quiz
    assert "started at w = 0 with δ = 0, does the bound" in quiz
    assert "it holds for any order of the examples" in quiz


# ------------------------------------------------------------ /aggressive (item 9)


def test_aggressive_b_squared_plus_one_only_from_zero():
    at = open_page("pages/aggressive.py")
    text = markdown_text(at)
    assert "can make at most $B^2 + 1$ mistakes in a row" not in text
    assert (
        "a run that starts at\n  $\\mathbf{w}_0 = \\mathbf{0}, b_0 = 0$ makes at most "
        "$B^2 + 1$ mistakes" in text
    )
    assert "$B^2 + 1 + 2\\|(\\mathbf{w}_0, b_0)\\|$" in text


def test_adversary_header_names_deterministic_learners_and_the_floor():
    at = open_page("pages/adversary.py")
    header = at.markdown[0].value
    assert "deterministic learner to make ⌊1/γ²⌋ mistakes" in header
    assert "Started at w = 0 with threshold δ = 0" in header


# --------------------------------------------------- every bound that holds is >= updates


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(2, 60),
    margin=st.floats(0.05, 0.5),
    radius=st.floats(0.5, 3.0),
    order=st.sampled_from(sorted(ORDERS)),
)
def test_notebook_bound_holds_and_is_never_below_T_A(seed, n, margin, radius, order):
    margin = min(margin, 0.9 * radius)
    data = make_separable(n=n, margin=margin, dim=2, radius=radius, seed=seed)
    X, y = np.asarray(data.X), np.asarray(data.y)
    R = float(np.max(np.linalg.norm(X, axis=1)))
    gamma = max_margin(X, y, bias=True).margin
    notebook = bias_bound(R, bias_bound_margin(R, gamma))
    run = run_perceptron(
        X,
        y,
        bias=True,
        delta=0.0,
        order=order,
        seed=seed,
        max_updates=int(notebook) + 2,
        max_epochs=10_000_000,
    )
    assert run.converged and run.n_updates <= notebook
    gamma_2, _ = padded_separator(X, y)
    assert padded_bound(R**2 + 1, gamma_2) <= notebook * (1 + 1e-9)


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 10_000),
    bias=st.booleans(),
    delta=st.sampled_from([0.0, 0.5, 3.0]),
    w0_scale=st.sampled_from([0.0, 0.3, 2.0]),
    order=st.sampled_from(sorted(ORDERS)),
)
def test_every_bound_said_to_hold_is_at_least_the_update_count(seed, bias, delta, w0_scale, order):
    data = make_separable(n=40, margin=0.15, dim=2, radius=1.0, seed=seed)
    X, y = np.asarray(data.X), np.asarray(data.y)
    if not bias and not max_margin(X, y, bias=False).separable:
        return  # the bound pages only name bounds for separable data
    rng = np.random.default_rng(seed)
    w0 = w0_scale * rng.normal(size=2)
    b0 = float(w0_scale * rng.normal()) if bias else 0.0
    w0_norm = float(np.sqrt(w0 @ w0 + b0**2))
    summary = bound_summary(X, y, bias=bias, delta=delta, w0_norm=w0_norm)
    statements = run_bounds(summary, bias=bias, delta=delta, w0_norm=w0_norm)
    holding = [s.value for s in statements if s.holds]
    assert holding
    # the epochs must not stop the run first: the bound limits updates, not epochs (seed
    # 4043, through the origin with delta = 3, converges after 168 023 updates and 167 936
    # epochs, within its bound of 401 658)
    if min(holding) + 2 > MAX_UPDATES_LIMIT:
        return  # no run may make that many updates (seed 74 through the origin: 3.1e8)
    run = run_perceptron(
        X,
        y,
        bias=bias,
        delta=delta,
        w0=w0,
        b0=b0,
        order=order,
        seed=seed,
        max_updates=int(min(holding)) + 2,
        max_epochs=10_000_000,
    )
    assert run.converged and all(run.n_updates <= value for value in holding)


# ---------------------------------------------------------------- in the browser (Chromium)


@pytest.mark.parametrize(
    "path",
    [
        "/adversary?present=1",
        "/aggressive",
        "/bound?present=1&bound_margin_count=2&bound_margin_seeds=1",
    ],
)
def test_notation_panel_opens_on_other_pages_in_the_browser(browser, streamlit_server, path):
    from browser_helpers import assert_no_exception, wait_for_app
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1440, "height": 900})
    context.set_default_timeout(60_000)
    try:
        page = context.new_page()
        page.goto(streamlit_server.rstrip("/") + path)
        wait_for_app(page, timeout=120_000)
        assert_no_exception(page)
        page.get_by_role("button", name=re.compile("Notation")).click()
        panel = page.locator('[data-testid="stPopoverBody"]')
        expect(panel).to_contain_text("maxᵢ ‖aᵢ‖² / γ₂²")
        expect(panel).to_contain_text("w₀")
    finally:
        context.close()


# --------------------------------------------------------------------------- one class (issue 9)


def _train_payload(query: dict) -> dict:
    return player_payload(open_page("pages/train.py", query), "train")


def test_one_drawn_point_trains_and_says_the_margin_is_unbounded_with_a_bias():
    x = np.array([0.5, 0.3])
    sent = _train_payload({"source": "draw", "points": "0.5,0.3,1"})
    gamma_2 = float(np.sqrt(x @ x + 1))  # one padded point: gamma_2 = ||(x, 1)||
    assert "one class" in sent["facts"] and "unbounded" in sent["facts"]
    shown = re.search(r"γ₂ = (\d+\.\d+)", sent["facts"])  # four significant digits
    assert shown and abs(float(shown[1]) - gamma_2) <= 5e-4 * gamma_2, sent["facts"]
    assert "T(A) = 1." in sent["facts"]
    assert "(R/γ)² has no value here" in sent["facts"]
    assert sent["converged"] and sent["end_text"].startswith("Converged after 1 update ")
    assert sent["bound"]["name"].startswith("T(A)") and sent["bound"]["value_text"] == "1"


def test_one_class_through_the_origin_says_which_case_holds():
    inside = _train_payload({"source": "draw", "points": "0.5,0,-1;-0.5,0,-1", "bias": "false"})
    assert "the origin lies in their convex hull" in inside["facts"]
    assert inside["bound"] is None and not inside["converged"]
    outside = _train_payload({"source": "draw", "points": "0.6,0.8,-1;0.8,0.6,-1", "bias": "false"})
    margin = max_margin(np.array([[0.6, 0.8], [0.8, 0.6]]), np.array([-1, -1]), bias=False)
    shown = re.search(r"best margin through the origin γ = (\d+\.\d+)", outside["facts"])
    assert shown and abs(float(shown[1]) - margin.margin) <= 5e-4 * margin.margin
    assert outside["converged"] and outside["bound"]["name"].startswith("(R/γ)²")


# --------------------------------------------------- /train with the issue's own settings (issue 9)


def _generated(n=40, margin=0.1, seed=7):
    data = make_separable(n=n, margin=margin, dim=2, radius=1.0, seed=seed)
    return np.asarray(data.X), np.asarray(data.y)


def test_point_1_bias_names_T_A_and_marks_R_over_gamma_as_not_applying():
    X, y = _generated(n=10, margin=0.5, seed=1336)
    summary = bound_summary(X, y, bias=True)
    run = run_perceptron(X, y, bias=True)
    assert run.n_updates > summary.novikoff  # the case the issue found: (R/γ)² is exceeded
    sent = _train_payload({"n": "10", "margin": "0.5", "data_seed": "1336"})
    assert sent["bound"]["name"].startswith("T(A)")
    assert f"allows at most {summary.padded:.0f}." in sent["end_text"]
    assert f"(R/γ)² = {summary.novikoff:,.2f} does not apply here" in sent["facts"]


def test_point_1_delta_names_bound_1_4_not_T_A():
    X, y = _generated(seed=0)
    summary = bound_summary(X, y, bias=True, delta=5.0)
    run = run_perceptron(X, y, bias=True, delta=5.0)
    assert summary.padded < run.n_updates <= summary.bound
    sent = _train_payload({"data_seed": "0", "delta": "5"})
    assert sent["bound"]["name"] == "bound (1.4) of Theorem 1.28"
    # values inside an equality are never rounded to a whole number (issue 22, kind 4)
    assert sent["bound"]["value_text"] == f"{summary.bound:,.2f}"
    assert f"T(A) = {summary.padded:,.2f} does not apply here" in sent["facts"]


@pytest.mark.parametrize(
    "query", [{"init": "random"}, {"init": "random", "delta": "0.5", "order_seed": "3"}]
)
def test_proof_title_gives_where_the_lines_stop_agreeing_for_this_start(query):
    proof = _train_payload(query)["proof"]
    lower, upper = np.array(proof["alignment_lower"]), np.array(proof["norm_sq_upper"])
    a0, n0, gamma, step = lower[0], upper[0], proof["margin"], proof["step_sq"]
    # the last t with a0 + tγ <= sqrt(n0 + t·step), by bisection (not the page's formula)
    low, high = 0.0, 1e7
    for _ in range(200):
        middle = (low + high) / 2
        fits = a0 + middle * gamma <= np.sqrt(n0 + middle * step)
        low, high = (middle, high) if fits else (low, middle)
    assert f"allow at most t = {low:,.2f} updates from this start" in proof["title"]
    assert "bound bound" not in proof["title"] and "holds for every start" in proof["title"]


def test_random_start_names_the_padded_start_length():
    sent = _train_payload({"init": "random"})
    assert "start with ‖(w₀, b₀)‖ = " in sent["bound"]["hypotheses"]
    assert "‖(w₀, b₀)‖" in NOTATION["w₀"]


def test_bias_off_path_title_says_through_the_origin():
    path = _train_payload({"bias": "false"})["path"]
    assert path["title"].startswith("No separating line through the origin found")


@pytest.mark.parametrize("delta", ["0", "0.5"])
def test_theorem_1_35_caption_carries_its_delta_hypothesis(delta):
    caption = _train_payload({"noise": "0.2", "delta": delta})["path"]["caption"]
    if delta == "0":
        assert "Theorem 1.35, for updates when y(w·x + b) ≤ 0" in caption
    else:
        assert "stated for δ = 0; here δ = 0.5" in caption and "not a theorem" in caption
    assert "levels off" not in caption


def test_train_quiz_states_delta_and_the_padded_quantities():
    at = open_page("pages/train.py")
    single = at.radio(key="quiz_single_point")
    assert "δ = 0" in single.label
    single.set_value("exactly one")
    at.button(key="quiz_single_point_check").click().run()  # an answer counts once checked
    for key in ("quiz_delta", "quiz_order"):
        at.radio(key=key).set_value(at.radio(key=key).options[1])
        at.button(key=f"{key}_check").click().run()
    feedback = "\n".join(s.value for s in at.success)
    assert "with δ > 0 it errs until the score exceeds δ" in feedback
    assert "2δ/γ₂²" in at.radio(key="quiz_delta").options[1]
    assert "at least γ₂ and ‖w‖² by at most max‖aᵢ‖²" in feedback


def test_legend_and_long_counters_fit_in_the_browser(browser, streamlit_server):
    """Point 10's legend names the ring for what it marks; long counters stay in the card."""
    from browser_helpers import new_page, open_player, wait_for_player
    from playwright.sync_api import expect

    with new_page(browser, 1280, 900) as page:
        player = open_player(page, f"{streamlit_server}/train?bias=false")
        wait_for_player(player)
        expect(player).to_contain_text("y(w·x + b) ≤ δ: an update is due")
        page.keyboard.press("End")  # the keys reach the player without a click
        examined = player.locator('[data-counter="examined"]')
        expect(examined).to_have_text("20,000")
        expect(player.locator('[data-total="examined"]')).to_have_text("run total: 20,000")
        card = player.locator(".info").bounding_box()
        for name in ("updates", "examined", "epoch", "accuracy"):
            box = player.locator(f'[data-counter="{name}"]').bounding_box()
            text = player.locator(f'[data-counter="{name}"]').evaluate(
                "el => [el.scrollWidth, el.clientWidth]"
            )
            assert box["x"] + box["width"] <= card["x"] + card["width"] + 0.5, name
            assert text[0] <= text[1] + 1, (name, text)  # nothing cut inside the counter


def test_train_states_each_named_result_it_uses():
    at = open_page("pages/train.py")
    listed = "\n".join(e.value for e in at.markdown if "**Theorem 1.28.**" in e.value)
    for name in (
        "Algorithm 1.16",
        "Remark 1.17",
        "Theorem 1.28",
        "bound (1.4)",
        "eq. 1.5",
        "Theorem 1.35",
    ):
        assert f"**{name}.** {NAMED_RESULTS[name]}" in listed
