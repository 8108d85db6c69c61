"""AppTest of /kernels' Python side: the player receives the core's kernel run for the settings.

AppTest runs no JavaScript: these tests read the player component's JSON data
and the widgets around it; stepping is tested in Chromium (test_browser_kernels.py).
"""

from __future__ import annotations

import numpy as np
from app_helpers import open_page, player_payload

from perceptron_core import (
    kernel_margin,
    kernel_perceptron,
    make_circles,
    make_xor,
    with_label_noise,
)

PAGE = "pages/kernels.py"
KEYED = [
    "data",
    "n",
    "data_seed",
    "noise",
    "kernel",
    "degree",
    "coef0",
    "scale",
    "bias",
    "order",
    "order_seed",
    "lift",
    "bits_x",
    "bits_z",
    "conj_kind",
    "conj_size",
    "conj_bits",
    "conj_m",
]


def test_page_opens_with_keyed_widgets_and_the_core_run():
    at = open_page(PAGE)
    for key in KEYED:
        assert key in at.session_state, key
    data = player_payload(at, "kernels")
    ds = make_circles(n=100, seed=0)
    kt = kernel_perceptron(
        ds.X,
        ds.y,
        kernel="rbf",
        scale=2.0,
        bias=True,
        order="cyclic",
        seed=0,
        max_updates=2_000,
        max_epochs=500,
    )
    np.testing.assert_allclose(data["X"], ds.X)
    assert data["y"] == ds.y.tolist()
    assert data["updates"]["indices"] == kt.update_indices.tolist()
    assert data["player"]["update_steps"] == kt.update_steps.tolist()
    assert data["player"]["n_examined"] == kt.n_examined
    assert data["kernel"]["name"] == "rbf" and data["kernel"]["scale"] == 2.0
    km = kernel_margin(ds.X, ds.y, kernel="rbf", scale=2.0)
    assert data["bound"]["value"] == km.bound
    # the dual check on the page says the primal and dual runs agree
    assert any("same" in s.value and "Checked" in s.value for s in at.success)


def test_settings_from_a_link_reach_the_run_and_round_trip():
    query = {
        "data": "xor",
        "n": "60",
        "data_seed": "3",
        "noise": "0.05",
        "kernel": "poly",
        "degree": "3",
        "coef0": "0.5",
        "scale": "1.5",
        "bias": "false",
        "order": "permuted",
        "order_seed": "4",
        "lift": "product",
        "bits_x": "1011",
        "conj_kind": "disjunction",
        "conj_bits": "12",
    }
    at = open_page(PAGE, query)
    assert all("link had values" not in w.value for w in at.warning)
    ds = with_label_noise(make_xor(n=60, seed=3), 0.05, seed=4)
    kt = kernel_perceptron(
        ds.X,
        ds.y,
        kernel="poly",
        degree=3,
        coef0=0.5,
        scale=1.5,
        bias=False,
        order="permuted",
        seed=4,
        max_updates=2_000,
        max_epochs=500,
    )
    data = player_payload(at, "kernels")
    assert data["updates"]["indices"] == kt.update_indices.tolist()
    assert data["bias"] is False and data["kernel"]["degree"] == 3
    for key, value in query.items():  # every setting stays in the link
        assert at.query_params[key] == [value] or at.query_params[key] == value, key
    assert at.session_state["conj_bits"] == 12 and at.session_state["bits_x"] == "1011"


def test_a_bad_link_value_is_ignored_and_named():
    at = open_page(PAGE, {"scale": "-3", "n": "99999"})
    assert any("scale=-3" in w.value for w in at.warning)
    assert player_payload(at, "kernels")["kernel"]["scale"] == 2.0


def test_an_old_link_naming_the_kernel_scale_gamma_still_opens():
    """Links written when κ was called γ (``gamma=``) open with that κ, named ``scale``."""
    at = open_page(PAGE, {"gamma": "1.5", "kernel": "rbf"})
    assert not any("gamma" in w.value for w in at.warning)
    assert at.session_state["scale"] == 1.5
    assert player_payload(at, "kernels")["kernel"]["scale"] == 1.5
    assert "gamma" not in at.query_params and at.query_params["scale"] in ("1.5", ["1.5"])
    # a bad old value is named under its new key and the default is used
    at = open_page(PAGE, {"gamma": "-3"})
    assert any("scale=-3" in w.value for w in at.warning)


def test_a_view_set_with_the_controls_is_reopened_by_its_link():
    at = open_page(PAGE)
    at.selectbox(key="kernel").set_value("poly").run()
    at.number_input(key="degree").set_value(3).run()
    at.segmented_control(key="data").set_value("xor").run()
    assert not at.exception
    data = player_payload(at, "kernels")
    assert data["kernel"]["name"] == "poly" and data["kernel"]["degree"] == 3
    # the URL parameters are the widget keys (bind="query-params"): the same values reopen it
    again = open_page(PAGE, {"kernel": "poly", "degree": "3", "data": "xor"})
    assert player_payload(again, "kernels")["updates"] == data["updates"]
    assert player_payload(again, "kernels")["X"] == data["X"]


# ---------------------------------------------------------------------------
# What moved from the page into perceptron_core/viz/kernels.py
# ---------------------------------------------------------------------------


def test_claim_2_1_by_hand_matches_counting_the_conjunctions():
    """Φ(x)·Φ(z) = 2^|Ones(x, z)|: counted here over every subset of d = 1 to 4 bits."""
    from itertools import product

    from perceptron_core.viz.kernels import conjunction_by_hand, read_bits

    for d in range(1, 5):
        words = ["".join(bits) for bits in product("01", repeat=d)]
        for x_text, z_text in product(words, repeat=2):
            x, z, problem = read_bits(x_text, z_text)
            assert problem is None
            columns, text = conjunction_by_hand(x, z)
            true_on_both = sum(
                all(x[j] and z[j] for j in range(d) if s >> j & 1) for s in range(2**d)
            )
            assert sum(columns["both"]) == true_on_both == 2 ** int(x @ z)
            assert f"= {2 ** int(x @ z):,}." in text and len(columns["conjunction"]) == 2**d


def test_bits_that_are_not_zeros_or_ones_are_refused():
    from perceptron_core.viz.kernels import parse_bits

    for text in ["", "1x1", "2 1", "١٠١"]:
        assert parse_bits(text) is None
    assert parse_bits(" 101 ").tolist() == [1, 0, 1]
    assert parse_bits("1 1 0 1").tolist() == [1, 1, 0, 1]
    assert parse_bits("1011", 3) is None


def test_the_dual_check_agrees_with_a_primal_run_and_says_so():
    from perceptron_core import run_perceptron
    from perceptron_core.viz.kernels import dual_check, dual_verdict

    data = make_circles(n=60, seed=3)
    X, y = np.asarray(data.X), np.asarray(data.y)
    check = dual_check(X, y, True, "cyclic", 0, 200)
    primal = run_perceptron(X, y, bias=True, max_updates=200, max_epochs=500)
    np.testing.assert_allclose(check["w_dual"], primal.weights[-1], atol=1e-9)
    assert check["same"] and dual_verdict(check).startswith("Checked")
