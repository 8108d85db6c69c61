"""AppTest of /kernels' Python side: the player receives the core's kernel run for the settings.

AppTest runs no JavaScript: these tests read the player component's JSON data
and the widgets around it; stepping is tested in Chromium (test_browser_kernels.py).
"""

from __future__ import annotations

import json

import numpy as np
from streamlit.testing.v1 import AppTest

from perceptron_core import (kernel_margin, kernel_perceptron, make_circles, make_xor,
                             with_label_noise)

KEYED = ["data", "n", "data_seed", "noise", "kernel", "degree", "coef0", "gamma", "bias",
         "order", "order_seed", "lift", "bits_a", "bits_b", "conj_kind", "conj_size",
         "conj_bits", "conj_m"]


def open_kernels(query: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file("../app.py", default_timeout=120)
    for name, value in (query or {}).items():
        at.query_params[name] = value
    at.switch_page("pages/kernels.py").run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def payload(at: AppTest) -> dict:
    players = [e for e in at.get("bidi_component")
               if e.proto.component_name == "perceptron_player_kernels"]
    assert len(players) == 1
    return json.loads(players[0].proto.json)


def test_page_opens_with_keyed_widgets_and_the_core_run():
    at = open_kernels()
    for key in KEYED:
        assert key in at.session_state, key
    data = payload(at)
    ds = make_circles(n=100, seed=0)
    kt = kernel_perceptron(ds.X, ds.y, kernel="rbf", gamma=2.0, bias=True, order="cyclic",
                           seed=0, max_updates=2_000, max_epochs=500)
    np.testing.assert_allclose(data["X"], ds.X)
    assert data["y"] == ds.y.tolist()
    assert data["updates"]["indices"] == kt.update_indices.tolist()
    assert data["player"]["update_steps"] == kt.update_steps.tolist()
    assert data["player"]["n_examined"] == kt.n_examined
    assert data["kernel"]["name"] == "rbf" and data["kernel"]["gamma"] == 2.0
    km = kernel_margin(ds.X, ds.y, kernel="rbf", gamma=2.0)
    assert data["bound"]["value"] == km.bound
    # the dual check on the page says the primal and dual runs agree
    assert any("same" in s.value and "Checked" in s.value for s in at.success)


def test_settings_from_a_link_reach_the_run_and_round_trip():
    query = {"data": "xor", "n": "60", "data_seed": "3", "noise": "0.05", "kernel": "poly",
             "degree": "3", "coef0": "0.5", "gamma": "1.5", "bias": "false",
             "order": "permuted", "order_seed": "4", "lift": "product", "bits_a": "101",
             "conj_kind": "disjunction", "conj_bits": "12"}
    at = open_kernels(query)
    assert all("link had values" not in w.value for w in at.warning)
    ds = with_label_noise(make_xor(n=60, seed=3), 0.05, seed=4)
    kt = kernel_perceptron(ds.X, ds.y, kernel="poly", degree=3, coef0=0.5, gamma=1.5,
                           bias=False, order="permuted", seed=4, max_updates=2_000,
                           max_epochs=500)
    data = payload(at)
    assert data["updates"]["indices"] == kt.update_indices.tolist()
    assert data["bias"] is False and data["kernel"]["degree"] == 3
    for key, value in query.items():  # every setting stays in the link
        assert at.query_params[key] == [value] or at.query_params[key] == value, key
    assert at.session_state["conj_bits"] == 12 and at.session_state["bits_a"] == "101"


def test_a_bad_link_value_is_ignored_and_named():
    at = open_kernels({"gamma": "-3", "n": "99999"})
    assert any("gamma=-3" in w.value for w in at.warning)
    assert payload(at)["kernel"]["gamma"] == 2.0


def test_a_view_set_with_the_controls_is_reopened_by_its_link():
    at = open_kernels()
    at.selectbox(key="kernel").set_value("poly").run()
    at.number_input(key="degree").set_value(3).run()
    at.segmented_control(key="data").set_value("xor").run()
    assert not at.exception
    data = payload(at)
    assert data["kernel"]["name"] == "poly" and data["kernel"]["degree"] == 3
    # the URL parameters are the widget keys (bind="query-params"): the same values reopen it
    again = open_kernels({"kernel": "poly", "degree": "3", "data": "xor"})
    assert payload(again)["updates"] == data["updates"]
    assert payload(again)["X"] == data["X"]
