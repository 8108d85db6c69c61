"""AppTest of /multiclass: the numbers shown are the core's, every control is keyed and
in the link."""

from __future__ import annotations

import numpy as np
from app_helpers import open_page, plotly_array, plotly_spec, table_with_column

from perceptron_core import make_blobs, one_vs_all, one_vs_one
from perceptron_core.viz import multiclass as viz

PAGE = "pages/multiclass.py"


def core(k=4, n=120, spread=0.12, seed=1, middle=False, order="cyclic", max_epochs=100):
    data = make_blobs(n=n, seed=seed, k=k, spread=spread)
    X, labels = np.array(data.X), np.array(data.y)
    if middle:
        X[labels == 0] -= X[labels == 0].mean(axis=0)
    settings = dict(
        bias=True, order=order, seed=0, max_updates=viz.MAX_UPDATES, max_epochs=max_epochs
    )
    return X, labels, one_vs_all(X, labels, **settings), one_vs_one(X, labels, **settings)


def test_default_view_matches_the_core():
    at = open_page(PAGE)
    X, labels, ova, ovo = core()
    table = table_with_column(at, "one-vs-all")
    for column, model in (("one-vs-all", ova), ("one-vs-one", ovo)):
        right = int(np.sum(model.predict(X) == labels))
        assert table[column][0] == f"{right / len(labels):.1%} ({right} of {len(labels)})"
    assert table["one-vs-all"][1] == "4" and table["one-vs-one"][1] == "6"
    assert table["one-vs-all"][2] == str(ova.total_updates)
    assert table["one-vs-one"][2] == str(ovo.total_updates)
    imbalance = table_with_column(at, "−1 examples")
    assert imbalance["−1 examples"].tolist() == [
        f"{round(v * 120)} of 120 ({v:.0%})" for v in ova.imbalance
    ]
    for key in (
        "k",
        "n",
        "spread",
        "data_seed",
        "layout",
        "order",
        "order_seed",
        "max_epochs",
        "lines",
    ):
        assert key in at.session_state, key
    points = [t for t in plotly_spec(at, "ova_chart")["data"] if t.get("mode") == "markers"]
    np.testing.assert_array_equal(
        np.concatenate([plotly_array(t["x"]) for t in points]),
        np.concatenate([X[labels == j, 0] for j in range(4)]),
    )


def test_a_link_round_trip_and_the_middle_class_note():
    query = {
        "k": "5",
        "layout": "one class in the middle",
        "max_epochs": "3",
        "lines": "0",
        "spread": "0.2",
    }
    at = open_page(PAGE, query)
    X, labels, ova, ovo = core(k=5, middle=True, max_epochs=3, spread=0.2)
    assert at.slider(key="k").value == 5 and at.radio(key="layout").value == query["layout"]
    table = table_with_column(at, "one-vs-all")
    assert table["one-vs-all"][2] == str(ova.total_updates)
    names = [t.get("name") for t in plotly_spec(at, "ova_chart")["data"]]
    warnings = [w.value for w in at.warning]
    # line 0 is drawn, or the page says why not (its line misses the square drawn)
    assert ("line 0 vs rest" in names) != any(
        "the line 0 vs rest lies outside the square drawn" in w for w in warnings
    )
    assert "line 1 vs rest" not in names
    for j in np.flatnonzero(~ova.converged):
        assert any(
            f"class {ova.classes[j]} against the rest was not separated" in w for w in warnings
        )
    link = dict(at.query_params)
    assert link["k"] == "5" and link["lines"] in ("0", ["0"])
    again = open_page(PAGE, link)
    assert table_with_column(again, "one-vs-all").equals(table)


def test_bad_link_values_fall_back_with_a_warning():
    at = open_page(PAGE, {"k": "9"})
    assert at.slider(key="k").value == 4
    assert any("k=9" in w.value for w in at.warning)


def test_the_budget_warning_appears_exactly_when_the_estimate_is_over_it():
    from perceptron_core.viz.multiclass import budget_text, fit_seconds, share_text

    for k, n, epochs in [(3, 6, 1), (4, 120, 100), (6, 600, 500), (6, 600, 40)]:
        over = fit_seconds(k, n, epochs) > 2.0
        assert (budget_text(k, n, epochs, 2.0) is not None) == over
    assert share_text(0.0001) == "< 0.1%" and share_text(0.0) == "0.0%"


def test_the_copied_link_carries_every_shown_line_and_opens_them_again():
    from urllib.parse import parse_qs, urlsplit

    at = open_page(PAGE, {"k": "4"})
    at.session_state["lines"] = [0, 2]
    at.run()
    copied = [c.value for c in at.code if "lines=" in c.value]
    assert copied, "the copy-link box holds no lines"
    query = parse_qs(urlsplit(copied[0]).query)
    assert query["lines"] == ["0", "2"]  # the key once per line: what the widget reads back
    again = open_page(
        PAGE, {key: values if len(values) > 1 else values[0] for key, values in query.items()}
    )
    names = [t.get("name") for t in plotly_spec(again, "ova_chart")["data"]]
    assert "line 0 vs rest" in names and "line 2 vs rest" in names
    assert "line 1 vs rest" not in names
