"""Fuzz the links of every page but /train (issue 8) through AppTest: /bound, /adversary,
/aggressive, /kernels, /generalisation, /multiclass and /relaxation.

A link travels and gets edited: each case opens a page with a few query parameters
drawn from a pool of hostile values (non-finite, huge, 400 digits, non-ASCII digits,
60.7 for a whole number, 100 000 characters, Markdown) and ordinary ones. Every case:
no exception element, no "could not be drawn" fallback, and one warning that names
each ignored value (cut to about 40 characters) and none of the accepted ones.
Seeded (derandomized); the long version is benchmarks/bench_robustness.py.
"""

from __future__ import annotations

import pytest
from app_helpers import (  # noqa: F401 - bench_robustness.py reads them here
    GUARD,
    IGNORED,
    assert_link_warning_names,
    fallback_messages,
    link_warning,
    link_warnings,
    open_page,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

#: hostile values: none of them may seed a number, a choice or a toggle
HOSTILE = [
    "inf",
    "-inf",
    "nan",
    "1e309",
    "-1e309",
    "9" * 400,
    "²",
    "①",
    "٣",
    "60.7",
    "1e3",
    "abc",
    "",
    " ",
    "0x10",
    "1_0",
    "x" * 100_000,
    "**bold**",
    ":red[x]",
    "$x^2$",
    "-1",
    "10000000",
    "2.5e-300",
    "<b>x</b>",
]

#: per page: key -> (accepted values, kind); kind "text" accepts anything short enough
PAGES = {
    "pages/bound.py": {
        "bound_n": (["100", "2", "300"], "number"),
        "bound_dim": (["1", "3", "50"], "number"),
        "bound_bias": (["false", "true"], "choice"),
        "bound_order": (["random (i.i.d. uniform)", "cyclic (1, 2, ..., n, repeat)"], "choice"),
        "bound_tab": ([":material/straighten: n and d", ":material/tune: Threshold δ"], "choice"),
        "bound_margin_low": (["0.05", "0.1"], "number"),
        "bound_margin_count": (["2", "3"], "number"),
        "bound_margin_seeds": (["1", "2"], "number"),
        "bound_n_values": (["10, 30", "1e308", "1e20", "**x**"], "text"),
        "bound_d_values": (["1, 10", "1e20", "²"], "text"),
        "bound_size_seeds": (["1"], "number"),
        "bound_delta_values": (["0, 1", "inf"], "text"),
        "bound_delta_seeds": (["1", "2"], "number"),
    },
    "pages/adversary.py": {
        "adv_gamma": (["0.5", "0.1", "1"], "number"),
        "adv_dim": (["1", "10", "1000"], "number"),
        "adv_learner": (
            [
                "Nearest neighbour",
                "Majority label seen so far",
                "Aggressive perceptron (updates every round)",
            ],
            "choice",
        ),
    },
    "pages/aggressive.py": {
        "aggressive_T": (["10^2 = 100", "10^4 = 10,000"], "choice"),
        "always_wrong_T": (["5", "60", "33"], "number"),
    },
}
TEXT_LIMIT = 200  # longest text a /bound list box takes from a link

#: the newer pages: kind "number"/"choice" accept only the values listed (hostile ones a
#: page takes are listed too), "text:N" anything of at most N characters, "rows" the
#: own-rows text of /relaxation
SPEEDS = ["fast", "slow"]
PAGES.update(
    {
        "pages/kernels.py": {
            "data": (["xor", "blobs"], "choice"),
            "n": (["50", "10"], "number"),
            "kernel": (["poly", "linear"], "choice"),
            "degree": (["3", "8"], "number"),
            "scale": (["0.5", "50"], "number"),
            "bias": (["false", "true"], "choice"),
            "order": (["permuted", "max_distance"], "choice"),
            "lift": (["product", "squared_norm"], "choice"),
            "bits_x": (["101", "11010110"], "text:64"),
            "conj_bits": (["12", "200"], "number"),
            "conj_m": (["40", "1000"], "number"),
            "speed": (SPEEDS, "choice"),
        },
        "pages/generalisation.py": {
            "n": (["20", "300"], "number"),
            "margin": (["0.3", "0.9"], "number"),
            "curve_n": (["5, 10", "10000"], "text:120"),
            "curve_dim": (["3", "50"], "number"),
            "repeats": (["10", "1000"], "number"),
            "heldout": (["5", "199"], "number"),
            "eta": (["1", "0.5", "60.7"], "number"),
            "speed": (SPEEDS, "choice"),  # 0.01 ≤ η ≤ 100
        },
        "pages/multiclass.py": {
            "k": (["3", "6"], "number"),
            "n": (["60", "600"], "number"),
            "spread": (["0.3", "0.6"], "number"),
            "layout": (["one class in the middle"], "choice"),
            "order": (["permuted", "max_residual"], "choice"),
            "max_epochs": (["5", "500"], "number"),
        },
        "pages/relaxation.py": {
            "system": (["thin sliver", "infeasible", "your own rows"], "choice"),
            "eta": (["0.5", "2"], "number"),
            "rule": (["permuted", "max_distance"], "choice"),
            "tau": (["5", "1000"], "number"),
            "tol": (["0.01", "0", "2.5e-300"], "number"),
            "w0_1": (["1.5", "-1", "2.5e-300"], "number"),
            "max_iter": (["100", "5000"], "number"),
            "sweep": (["false", "true"], "choice"),
            "p_n": (["30", "60"], "number"),
            "rows": (["1,1,1;-1,0,0", ""], "rows"),
            "step": (["0", "2"], "number"),
        },
    }
)

CASES = {
    "pages/bound.py": 20,
    "pages/adversary.py": 15,
    "pages/aggressive.py": 12,  # two keys: every kind of value is met in a dozen
    "pages/kernels.py": 12,
    "pages/generalisation.py": 12,
    "pages/multiclass.py": 12,
    "pages/relaxation.py": 14,
}


def link(page: str):
    """A few of the page's keys, each with an accepted or a hostile value."""
    spec = PAGES[page]

    def value_for(key):
        accepted, _ = spec[key]
        return st.sampled_from(accepted + HOSTILE)

    return st.lists(st.sampled_from(sorted(spec)), min_size=1, max_size=4, unique=True).flatmap(
        lambda keys: st.fixed_dictionaries({key: value_for(key) for key in keys})
    )


def ignored(page: str, key: str, value: str) -> bool:
    accepted, kind = PAGES[page][key]
    if kind == "text":
        return len(value) > TEXT_LIMIT
    if kind.startswith("text:"):
        return len(value) > int(kind.split(":")[1])
    return value not in accepted


@pytest.mark.slow
@pytest.mark.parametrize("page", sorted(PAGES))
def test_fuzzed_links_never_crash_and_name_every_ignored_value(page):
    @settings(
        max_examples=CASES[page],
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(params=link(page))
    def case(params):
        at = open_page(page, params)  # no exception
        assert not fallback_messages(at)
        assert at.title, "the page drew nothing"
        bad = {key for key, value in params.items() if ignored(page, key, value)}
        assert_link_warning_names(at, params, bad, longest=600)
        text = " ".join(link_warnings(at))
        assert "x" * 50 not in text and "9" * 50 not in text

    case()


def test_an_int_value_with_a_fraction_says_the_default_was_used():
    at = open_page("pages/bound.py", {"bound_n": "60.7"})
    text = link_warning(at)
    assert "bound_n=60.7 (not a whole number; used the default 200)" in text
    assert at.number_input(key="bound_n").value == 200


def test_the_issues_crash_links_show_a_message():
    for page, params in [
        ("pages/bound.py", {"bound_dim": "inf"}),
        ("pages/adversary.py", {"adv_dim": "1e309"}),
        (
            "pages/bound.py",
            {
                "bound_tab": ":material/straighten: n and d",
                "bound_n_values": "1e308",
                "bound_d_values": "1e20",
            },
        ),
    ]:
        at = open_page(page, params)
        assert not fallback_messages(at)
    # the n and d tab names the out-of-range values in its own messages
    errors = " ".join(e.value for e in at.error)
    assert "n must be <= 5000" in errors and "d must be <= 1000" in errors


def test_a_heavy_sweep_is_refused_before_it_starts():
    at = open_page("pages/bound.py", {"bound_n": "5000", "bound_dim": "1000"})
    assert not at.exception
    refusals = [w.value for w in at.warning if "of computing" in w.value]
    assert refusals and "Lower n or d" in refusals[0]
    assert not [m.value for m in at.markdown if "runs**" in m.value]


def test_an_unexpected_error_becomes_a_short_message_and_is_logged(monkeypatch, caplog):
    import perceptron_core.viz.aggressive as figures

    def broken(*args, **kwargs):
        raise RuntimeError("boom in /work/secret/path/file.py line 3")

    monkeypatch.setattr(figures, "cumulative_mistakes_figure", broken)
    with caplog.at_level("ERROR", logger="perceptron_lab"):
        at = open_page("pages/aggressive.py", {})
    assert not at.exception
    messages = fallback_messages(at)
    assert len(messages) == 1 and "RuntimeError: boom in <path>" in messages[0]
    assert "/work/secret" not in messages[0] and "previous settings are kept" in messages[0]
    assert any(r.exc_info and "boom" in str(r.exc_info[1]) for r in caplog.records)
    assert at.title  # what was drawn before the error stays


def test_the_newer_pages_crash_links_show_a_message():
    """Links that crashed or stalled the newer pages: each falls back and says so."""
    for page, params, named in [
        ("pages/kernels.py", {"step": "9" * 5000, "n": "1e309"}, ["step=", "n=1e309"]),
        ("pages/kernels.py", {"step": "²", "conj_m": "٣"}, ["step=²", "conj_m=٣"]),
        (
            "pages/generalisation.py",
            {"step": "9" * 5000, "curve_dim": "inf"},
            ["step=", "curve_dim=inf"],
        ),
        (
            "pages/relaxation.py",
            {"system": "your own rows", "rows": "1e400,1,1", "step": "9" * 5000},
            ["rows=1e400", "step="],
        ),
        ("pages/relaxation.py", {"system": "your own rows", "rows": "0,0,1;1,1,1"}, ["rows=0,0,1"]),
        ("pages/multiclass.py", {"max_epochs": "1e309", "k": "²"}, ["max_epochs=1e309", "k=²"]),
    ]:
        at = open_page(page, params)
        assert not fallback_messages(at), page
        text = " ".join(link_warnings(at))
        for item in named:
            assert item in text, (page, item, text)


def test_heavy_requests_of_the_newer_pages_are_refused_with_what_to_lower():
    # the largest multiclass fit now fits one request (the binary runs are stacked)
    at = open_page("pages/multiclass.py", {"k": "6", "n": "600", "max_epochs": "500"})
    assert not any("Lower the epoch limit" in w.value for w in at.warning)
    at = open_page("pages/relaxation.py", {"max_iter": "5000"})
    assert any("Lower the iteration limit" in w.value for w in at.warning)
    # Wolfe's solver for the margin in feature space runs for over 100 CPU-s here (RBF,
    # κ = 5, 30 % flipped labels; at κ = 50 it needs 6-10 s, at κ <= 0.5 under 0.25 s):
    # it is stopped once its steps are over the page's share and the page says so
    at = open_page("pages/kernels.py", {"n": "400", "scale": "5", "noise": "0.3", "kernel": "rbf"})
    assert any("needs more than about" in i.value and "Fewer points" in i.value for i in at.info)
    assert not fallback_messages(at)
    # within the core's own limit (6e9 units of work) but over one request's share
    at = open_page(
        "pages/generalisation.py", {"repeats": "1000", "curve_n": "2, 5, 10, 20, 50, 100, 200, 500"}
    )
    assert any("s of computing" in e.value and "fewer runs per N" in e.value for e in at.error)
    assert not at.exception
