"""/multiclass re-audited: every sentence, number and quiz key against an independent
recomputation (tests/audit_multiclass_reference.py: areas cut in fractions, the rules at
exact points, every zero-area piece by brute force, a linear program, the textbook loop).

One test (at least) per kind of error found, with settings that made the old page false:

* the line pills: after raising k the new class's line was off;
* kind 9: a tie or a disagreement on a line was painted as a column of grid cells;
* kind 7: the tie question's key contradicted the page's own tie rule;
* kind 4/5: "stopped at the epoch limit" for runs the update limit stopped;
* kind 1: "no line separates it" decided with a tolerance (a gap of 10⁻¹³ called none);
* kind 3: shares rounded to 100% or 0% ("100%" negatives for 599 of 600).

Then the whole page, under the settings that could make a sentence false (k = 3 and 6, one
class in the middle, large spreads, own data with 2 classes, a single point of a class,
points at the origin, every order), compared sentence by sentence with the references, and
hypothesis properties over random drawn data.
"""

from __future__ import annotations

import dataclasses
import re
from fractions import Fraction

import numpy as np
import pytest
from app_helpers import (
    markdown_text,
    open_page,
    plotly_array,
    plotly_spec,
    static_tables,
    table_with_column,
)
from audit_multiclass_reference import (
    MAX_UPDATES,
    exact_shares,
    frac,
    line_separates,
    percent,
    reference_runs,
    rules_at,
    training_numbers,
    zero_area_places,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pages.common.questions.multiclass import QUESTIONS
from perceptron_core import make_blobs, one_vs_all, one_vs_one
from perceptron_core.viz import multiclass as viz

PAGE = "pages/multiclass.py"
#: two mirror-image classes: one-vs-all's scores are −x₁ and x₁, tied on the line x₁ = 0,
#: which one-vs-one's line also is (there it votes for class 1, one-vs-all picks class 0)
TWO_CLASSES = "-0.5,0,0;-0.6,0.3,0;0.5,0,1;0.6,0.3,1"
SETTINGS = dict(bias=True, max_updates=MAX_UPDATES)


def fitted(X, labels, order="cyclic", seed=0, max_epochs=100):
    s = dict(SETTINGS, order=order, seed=seed, max_epochs=max_epochs)
    return one_vs_all(X, labels, **s), one_vs_one(X, labels, **s)


def drawn(points: str):
    rows = np.array([[float(v) for v in p.split(",")] for p in points.split(";")])
    return rows[:, :2], rows[:, 2].astype(int)


def blobs(k=4, n=120, spread=0.12, seed=1, middle=False):
    data = make_blobs(n=n, seed=seed, dim=2, radius=1.0, k=k, spread=spread)
    X, labels = np.array(data.X), np.array(data.y)
    if middle:
        X[labels == 0] -= X[labels == 0].mean(axis=0)
    return X, labels


def names(at, key) -> list[str]:
    return [t.get("name") for t in plotly_spec(at, key)["data"]]


def warnings(at) -> str:
    return "\n".join(w.value for w in at.warning)


# ---------------------------------------------------------------------------
# The line pills: every class's line is on unless the student turned it off
# ---------------------------------------------------------------------------


def test_raising_k_shows_the_new_class_line():
    """The old pills kept [0, 1, 2, 3] after k went to 5: line 4 was off, although a fresh
    link with k = 5 shows every line."""
    at = open_page(PAGE, {"k": "4"})
    at.slider(key="k").set_value(5).run()
    assert at.session_state["lines"] == [0, 1, 2, 3, 4]
    assert "line 4 vs rest" in names(at, "ova_chart")
    fresh = open_page(PAGE, {"k": "5"})
    assert names(fresh, "ova_chart") == names(at, "ova_chart")


def test_a_line_turned_off_stays_off_and_new_classes_come_on():
    at = open_page(PAGE, {"k": "4"})
    at.session_state["lines"] = [0, 2, 3]  # line 1 turned off
    at.run()
    at.slider(key="k").set_value(5).run()
    assert at.session_state["lines"] == [0, 2, 3, 4]
    at.slider(key="k").set_value(3).run()
    assert at.session_state["lines"] == [0, 2]
    at.slider(key="k").set_value(4).run()
    assert at.session_state["lines"] == [0, 2, 3]
    shown = [n for n in names(at, "ova_chart") if n and n.endswith("vs rest")]
    assert shown == ["line 0 vs rest", "line 2 vs rest", "line 3 vs rest"]


# ---------------------------------------------------------------------------
# Kind 9: a tie or a disagreement with no area is drawn as a line, and counted as 0
# ---------------------------------------------------------------------------


def test_a_tie_on_a_line_is_drawn_as_a_line_not_as_grid_cells():
    """k = 2 mirror classes: the tie of one-vs-all and the disagreement are the line x₁ = 0
    (area 0). The old charts painted the grid column on it as "tied maximum" and "the
    schemes disagree" while the table said 0."""
    at = open_page(PAGE, {"source": "draw", "points": TWO_CLASSES})
    for key in ("ova_chart", "ovo_chart", "disagree_chart"):
        traces = plotly_spec(at, key)["data"]
        assert not [t for t in traces if t.get("type") == "heatmap"], key
    ova = plotly_spec(at, "ova_chart")["data"]
    tie = next(t for t in ova if t.get("name") == "tied score (line)")
    assert np.nanmax(np.abs(plotly_array(tie["x"]))) == 0  # the line x₁ = 0 itself
    assert not [t for t in ova if (t.get("name") or "").startswith("tied score (area")]
    disagree = plotly_spec(at, "disagree_chart")["data"]
    line = next(t for t in disagree if t.get("name") == "disagree (line)")
    assert np.nanmax(np.abs(plotly_array(line["x"]))) == 0
    assert not [t for t in disagree if t.get("fill") == "toself"]
    table = table_with_column(at, "one-vs-all")
    row = list(table[""]).index("area of the square with a tie")
    assert table["one-vs-all"][row] == "0 (ties only on lines)"
    assert table["one-vs-one"][row] == "0 (no tie)"
    text = markdown_text(at)
    assert (
        "The two schemes give different classes on no area of the square drawn, only on lines"
    ) in text
    assert "0.6%" not in text + " ".join(table["one-vs-all"])
    # the exact halves, and the rules on the line by the plain reference
    X, labels = drawn(TWO_CLASSES)
    ova, ovo = fitted(X, labels)
    assert exact_shares(ova, ovo, viz.axis_limit(X))["ova"] == [Fraction(1, 2)] * 2
    r = rules_at(ova, ovo, (Fraction(0), Fraction(1, 3)))
    assert r["ova_tie"] and r["disagree"] and r["ova"] == 0 and r["ovo"] == 1


def test_an_area_of_ties_is_shaded_and_its_share_exact():
    """Two classes with the same (w, b) tie wherever they lead: an area, shaded, with the
    exact share an independent cut gives."""
    X, labels = blobs(4, spread=0.1, seed=2, middle=True)
    ova, ovo = fitted(X, labels, max_epochs=50)
    W, b = np.array(ova.weights), np.array(ova.biases)
    W[3], b[3] = W[1], b[1]
    twin = dataclasses.replace(ova, weights=W, biases=b)
    limit = viz.axis_limit(X)
    from perceptron_core.multiclass_plane import plane

    region = plane(twin, ovo, limit)
    reference = exact_shares(twin, ovo, limit)
    assert region["ova_tie"].share == reference["ova_tie"] > Fraction(1, 100)
    assert region["ova"][3].empty  # the tie goes to class 1, the first of the two
    fig = viz.ova_figure(X, labels, twin, region, limit)
    assert "tied score (area)" in [t.name for t in fig.data]
    assert viz.tie_area_text(region["ova_tie"]) == percent(reference["ova_tie"])


# ---------------------------------------------------------------------------
# Kind 7: every quiz key agrees with the rule the page states and uses (the core decides)
# ---------------------------------------------------------------------------


def question(key: str):
    return next(q for q in QUESTIONS if q.key == key)


def test_the_tie_question_predicts_what_the_page_predicts():
    """0 beats 1, 1 beats 2, 2 beats 0: one vote each. The page gives a tie to the first
    class, class 0; the old key was "a three-way tie" while the page predicts class 0."""
    q = question("multiclass_quiz_tie")
    X, labels = blobs(3, spread=0.1)
    _, ovo = fitted(X, labels)
    # pairs (0, 1), (0, 2), (1, 2): scores +1, −1, +1 everywhere: 0, 2 and 1 get a vote
    cycle = dataclasses.replace(ovo, weights=np.zeros((3, 2)), biases=np.array([1.0, -1.0, 1.0]))
    label, tie = cycle.predict_with_ties(np.zeros((1, 2)))
    assert tie[0] and cycle.votes(np.zeros((1, 2))).tolist() == [[1, 1, 1]]
    assert q.answer == f"class {label[0]}"
    assert "0 beats 1, 1 beats 2 and 2 beats 0" in q.question
    assert "first class in the list" in q.why and "first class in the list" in viz.SUMMARY


def test_the_counting_and_imbalance_keys_are_what_the_core_trains():
    q = question("multiclass_quiz_count")
    k = int(re.search(r"k = (\d+)", q.question).group(1))
    X = np.random.default_rng(0).normal(size=(12 * k, 2))
    labels = np.repeat(np.arange(k), 12)
    ova, ovo = fitted(X, labels, max_epochs=2)
    assert q.answer == f"{ova.n_perceptrons} and {ovo.n_perceptrons}"
    q = question("multiclass_quiz_imbalance")
    assert q.answer == "(k − 1)/k"
    for k in (3, 5):
        labels = np.repeat(np.arange(k), 7)
        ova, ovo = fitted(np.random.default_rng(k).normal(size=(7 * k, 2)), labels, max_epochs=2)
        assert np.allclose(ova.imbalance, (k - 1) / k) and np.allclose(ovo.imbalance, 0.5)


def test_the_middle_class_key_is_what_the_page_says_for_those_points():
    """A at (−2, 0), B at (0, 0), C at (2, 0): the page itself names B vs rest as not
    separated and says no line separates it; the pairs all stop."""
    q = question("multiclass_quiz_separable")
    points = "-2,0,0;0,0,1;2,0,2"  # A, B, C as classes 0, 1, 2 (the board takes ±2)
    at = open_page(PAGE, {"source": "draw", "points": points})
    said = warnings(at)
    assert "class 1 against the rest was not separated" in said
    assert "no line separates it" in said
    assert "class 0 against the rest" not in said and "class 2 against the rest" not in said
    X, labels = drawn(points)
    assert [line_separates(X[labels == c], X[labels != c]) for c in range(3)] == [True, False, True]
    assert q.answer == "B vs rest"
    _, ovo = fitted(X, labels)
    assert ovo.converged.all()


# ---------------------------------------------------------------------------
# Kind 4/5: the limit that stopped a run is the one named
# ---------------------------------------------------------------------------


def test_runs_stopped_by_the_update_limit_say_so():
    """n = 600, k = 6, spread 0.6, one class in the middle, 200 epochs: every one-vs-all run
    makes MAX_UPDATES updates before its 200 epochs; the old table said "no (epoch limit)"."""
    query = {
        "k": "6",
        "n": "600",
        "spread": "0.6",
        "layout": "one class in the middle",
        "max_epochs": "200",
    }
    at = open_page(PAGE, query)
    ova_table = next(t for t in static_tables(at) if "vs rest" in t.iloc[:, 0].str.cat())
    assert "epoch limit" not in " ".join(ova_table.astype(str).to_numpy().ravel()) + warnings(at)
    X, labels = blobs(6, 600, 0.6, middle=True)
    runs = reference_runs(X, labels, "cyclic", 0, 200)
    table = table_with_column(at, "wins in the square")
    for (updates, _converged, limit, _, _), text in zip(runs["ova"], table["its run"]):
        assert limit == "update limit" and updates == MAX_UPDATES
        assert text.startswith(
            f"stopped at the limit of {MAX_UPDATES:,} updates after {MAX_UPDATES:,} updates"
        )
    assert "the epoch limit" not in table["its run"].str.cat()
    middle = next(m.value for m in at.markdown if m.value.startswith("Class 0 sits"))
    assert middle.endswith(f"it stopped at the limit of {MAX_UPDATES:,} updates.")


# ---------------------------------------------------------------------------
# Kind 1: "a line separates it" is decided exactly, not with a tolerance
# ---------------------------------------------------------------------------


def test_a_gap_of_ten_to_the_minus_thirteen_is_still_separated_by_a_line():
    """Classes 0 and 1 on two parallel rows 10⁻¹³ apart: the line x₂ = 5·10⁻¹⁴ separates
    them (checked in fractions here); a solver with a tolerance said "no"."""
    from perceptron_core.arrangement import strictly_separable
    from perceptron_core.margin import max_margin

    P = np.array([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]])
    N = P + [0.0, 1e-13]
    w, b = (Fraction(0), Fraction(1)), -frac(5e-14)
    assert all(w[0] * frac(x) + w[1] * frac(y) + b < 0 for x, y in P)
    assert all(w[0] * frac(x) + w[1] * frac(y) + b > 0 for x, y in N)
    assert strictly_separable(P, N)
    # the margin itself is decided in exact rational arithmetic too: 5·10⁻¹⁴, not "none"
    found = max_margin(np.vstack([P, N]), np.array([1] * 3 + [-1] * 3))
    assert found.separable and found.exact
    assert found.margin_squared == (frac(1e-13) / 2) ** 2
    X, labels = np.vstack([P, N]), np.array([0] * 3 + [1] * 3)
    ova, ovo, limit, region, numbers = viz.fit_both(X, labels, "cyclic", 0, 5)
    assert numbers["separable"] == [True, True] and numbers["pairs_separable"] == [True]
    assert all(
        text.endswith("a line does separate it") or text.startswith("separated")
        for text in viz.imbalance_columns(ova, region, numbers)["its run"]
    )


def test_touching_hulls_are_not_separated():
    """A point of one class on the segment between two of the other: no line (exactly)."""
    from perceptron_core.arrangement import strictly_separable

    assert not strictly_separable([[0.5, 0.5]], [[0.0, 0.0], [1.0, 1.0]])
    assert not strictly_separable([[0.0, 0.0]], [[0.0, 0.0]])
    assert strictly_separable([[0.0, 0.0]], [[1e-300, 0.0]])
    assert not strictly_separable([[0.0, 0.0], [2.0, 0.0]], [[1.0, 0.0], [3.0, 0.0]])
    assert strictly_separable([[0.0, 0.0], [1.0, 0.0]], [[2.0, 0.0], [3.0, 0.0]])


@pytest.mark.parametrize("k, spread, separable", [(3, 0.02, True), (6, 0.3, False)])
def test_the_middle_class_is_said_separable_exactly_when_a_line_separates_it(k, spread, separable):
    """No fixed sentence about the middle class: with k = 3 and a small spread a line does
    separate it (the linear program finds one); with k = 6 and 0.3 none does."""
    X, labels = blobs(k, spread=spread, middle=True)
    assert line_separates(X[labels == 0], X[labels != 0]) is separable
    at = open_page(PAGE, {"k": str(k), "spread": str(spread), "layout": "one class in the middle"})
    said = [m.value for m in at.markdown if m.value.startswith("Class 0 sits in the middle")]
    assert len(said) == 1
    assert ("a line does separate 0 from the rest" in said[0]) is separable
    assert ("no line separates 0 from the rest" in said[0]) is not separable
    assert "has no separating line" not in markdown_text(at) + at.radio(key="layout").help
    problems = table_with_column(at, "wins in the square")
    for j in range(k):
        line = line_separates(X[labels == j], X[labels != j])
        text = problems["its run"][j]
        assert text.startswith("separated it") or text.endswith(
            "a line does separate it" if line else "no line separates it"
        )
        assert line or not text.startswith("separated it")


def test_every_pair_says_whether_a_line_separates_it_not_only_whether_its_run_did():
    """k = 6, a large spread and 5 epochs: some pair that a line separates had not been
    separated by its run at the limit, and the table says both."""
    X, labels = blobs(6, spread=0.3, middle=True)
    _, ovo, _, _, numbers = viz.fit_both(X, labels, "cyclic", 0, 5)
    texts = viz.pairs_columns(ovo, numbers)["its run"]
    lines = []
    for (j, jj), text in zip(ovo.pairs.tolist(), texts):
        line = line_separates(X[labels == j], X[labels == jj])
        lines.append(line)
        assert text.startswith("separated it") or text.endswith(
            "a line does separate it" if line else "no line separates it"
        )
    assert any(text.endswith("a line does separate it") for text in texts)
    assert not all(lines)


# ---------------------------------------------------------------------------
# Kind 3: a share is never rounded to 0% or 100% unless it is
# ---------------------------------------------------------------------------


def test_shares_are_never_rounded_to_none_or_all():
    assert viz.share_text(0.99996) == "> 99.9%" and viz.share_text(1.0) == "100.0%"
    assert viz.share_text(599 / 600, 0) == "> 99%" and viz.count_text(599, 600) == (
        "599 of 600 (> 99%)"
    )
    assert viz.share_text(1 / 600, 0) == "< 1%" and viz.share_text(0.0001) == "< 0.1%"
    assert viz.share_text(0.0) == "0.0%" and viz.count_text(90, 120) == "90 of 120 (75%)"
    for share in np.random.default_rng(0).uniform(0, 1, 200).tolist() + [1e-9, 1 - 1e-9]:
        assert viz.share_text(share) == percent(Fraction(share))


@pytest.mark.parametrize(
    "k, n, epochs, budget",
    [
        (6, 600, 500, 0.43),  # 0.4323: "0.43" is not more than 0.43, "0.432" is
        (6, 580, 500, 0.425),  # 0.4257: "0.4" would be less than the budget
        (6, 600, 203, 0.368),  # 0.3681: just over
        (5, 600, 250, 0.5),
        (3, 6, 1, 0.5),
    ],
)  # within: no warning
def test_the_budget_warning_compares_numbers_that_are_true_as_written(k, n, epochs, budget):
    """An estimate of 4.02 s was written "about 4 s ..., more than the 4 s"."""
    seconds = viz.fit_seconds(k, n, epochs)
    text = viz.budget_text(k, n, epochs, budget)
    assert (text is None) == (seconds <= budget)
    if text is not None:
        shown, limit = re.search(
            r"about ([\d.]+) s of computing.*more than the ([\d.]+) s", text
        ).groups()
        assert float(shown) > float(limit) == budget
        assert abs(float(shown) - seconds) <= 0.5 * 10 ** -len(shown.partition(".")[2])
    own = viz.budget_text(6, 600, 500, 0.4, own=True)
    assert "your data" in own and " or n" not in own


def test_a_link_s_drawn_points_come_back_as_they_were_given():
    """The copied link and the address bar wrote coordinates with 6 significant digits
    ({:g}): a link with 0.1234567 opened, copied, opened other points."""
    points = "0.1234567,0.5,0;-0.7654321,0.25,1;1,-1.9999999,2"
    at = open_page(PAGE, {"source": "draw", "points": points})
    copied = next(c.value for c in at.code if "points=" in c.value)
    from urllib.parse import parse_qs, urlsplit

    assert parse_qs(urlsplit(copied).query)["points"] == [points]
    assert viz.points_text([[0.6, 0.5, 0], [0.0, -0.7, 5]]) == "0.6,0.5,0;0,-0.7,5"


def test_a_single_point_of_a_class_among_many_is_not_one_hundred_percent():
    """299 points of class 1 and one of class 0: 299 of 300 negatives, which the old table
    rounded to "100%"."""
    grid = [
        (x / 10, y / 10) for x in range(-15, 16) for y in range(-15, 16, 3) if (x, y) != (0, 0)
    ][:299]
    points = ";".join(f"{x:g},{y:g},1" for x, y in grid) + ";0,0,0"
    at = open_page(PAGE, {"source": "draw", "points": points})
    n = points.count(";") + 1
    assert n == 300
    cells = [
        cell
        for table in static_tables(at)
        for cell in table.astype(str).to_numpy().ravel().tolist()
    ]
    assert not [cell for cell in cells if "100%" in cell]  # 299 of 300 is not all
    table = table_with_column(at, "wins in the square")
    assert table["−1 examples"][0] == f"{n - 1} of {n} ({percent(Fraction(n - 1, n), 0)})"


# ---------------------------------------------------------------------------
# The whole page against the references, under settings that could make it false
# ---------------------------------------------------------------------------


def check_page(at, X, labels, order="cyclic", seed=0, max_epochs=100, middle=False):
    """Every number and sentence of /multiclass's results against the references."""
    ova, ovo = fitted(X, labels, order, seed, max_epochs)
    runs = reference_runs(X, labels, order, seed, max_epochs)
    classes = runs["classes"]
    k = len(classes)
    for (updates, converged, _, w, b), model, j in [
        (r, ova, j) for j, r in enumerate(runs["ova"])
    ] + [(r, ovo, j) for j, r in enumerate(runs["ovo"])]:
        assert (updates, converged) == (int(model.n_updates[j]), bool(model.converged[j]))
        assert np.array_equal(w, model.weights[j]) and b == model.biases[j]
    limit = viz.axis_limit(X)
    shares = exact_shares(ova, ovo, limit)
    places = zero_area_places(ova, ovo, limit, shares)
    train = training_numbers(ova, ovo, X, labels)
    n = len(labels)
    separable = [line_separates(X[labels == c], X[labels != c]) for c in classes]
    pairs = [(a, b) for i, a in enumerate(classes) for b in classes[i + 1 :]]
    pairs_separable = [line_separates(X[labels == a], X[labels == b]) for a, b in pairs]
    for (_, converged, *_), line in zip(runs["ova"] + runs["ovo"], separable + pairs_separable):
        assert line or not converged  # a run that stopped with every point right had a line

    # the side-by-side table
    table = table_with_column(at, "one-vs-all")
    expected_area = {}
    for key in ("ova_tie", "ovo_tie"):
        where = places[key]
        expected_area[key] = (
            percent(shares[key])
            if where == "area"
            else "0 (no tie)"
            if where == "nowhere"
            else "0 (ties only on lines"
            if where == "lines"
            else "0 (ties only at points)"
        )
    for column, key, count in (("one-vs-all", "ova", k), ("one-vs-one", "ovo", k * (k - 1) // 2)):
        cells = list(table[column])
        right = train[f"{key}_right"]
        assert cells[0] == f"{percent(Fraction(right, n))} ({right} of {n})"
        assert cells[1] == str(count)
        assert cells[2] == str(sum(r[0] for r in runs[key]))
        assert cells[3] == f"{sum(r[1] for r in runs[key])} of {count}"
        assert cells[4] == str(train[f"{key}_ties"])
        assert cells[5].startswith(expected_area[f"{key}_tie"]), (cells[5], places)

    # where the schemes disagree
    sentence = next(m.value for m in at.markdown if m.value.startswith("The two schemes"))
    points = f"on {train['disagree']} of the {n} training points."
    if places["disagree"] == "area":
        assert sentence.startswith(
            "The two schemes give different classes on "
            f"**{percent(shares['disagree'])}** of the square drawn"
        )
        assert sentence.endswith(points)
    elif places["disagree"] == "nowhere":
        assert train["disagree"] == 0
        assert sentence == (
            "The two schemes give the same class everywhere in the square "
            f"drawn, so also at all {n} training points."
        )
    else:
        kind = "on lines" if places["disagree"] == "lines" else "at points"
        assert sentence.startswith(
            f"The two schemes give different classes on no area of the square drawn, only {kind}"
        )
        assert sentence.endswith(points)

    # one-vs-all's problems
    counts = [int(np.sum(labels == c)) for c in classes]
    problems = table_with_column(at, "wins in the square")
    for j, c in enumerate(classes):
        updates, converged, stop, _, _ = runs["ova"][j]
        assert problems["problem"][j] == f"{c} vs rest"
        assert problems["−1 examples"][j] == (
            f"{n - counts[j]} of {n} ({percent(Fraction(n - counts[j], n), 0)})"
        )
        run = problems["its run"][j]
        if converged:
            assert run == f"separated it after {updates:,} update{'s' * (updates != 1)}"
        else:
            limit_words = (
                "the epoch limit"
                if stop == "epoch limit"
                else f"the limit of {MAX_UPDATES:,} updates"
            )
            line = "a line does separate it" if separable[j] else "no line separates it"
            assert run == (
                f"stopped at {limit_words} after {updates:,} update{'s' * (updates != 1)}; {line}"
            )
        where, cell = places[("ova", j)], problems["wins in the square"][j]
        if where == "area":
            assert cell == percent(shares["ova"][j])
        elif where == "nowhere":
            assert cell == "0 (nowhere)"
        elif where == "lines":
            assert cell.startswith("0 (only on lines")
        else:
            assert cell == "0 (only at points)"

    # one-vs-one's pairs
    pair_table = table_with_column(at, "pair (+1, −1)")
    for p, (a, b) in enumerate(pairs):
        ca, cb = counts[classes.index(a)], counts[classes.index(b)]
        assert pair_table["pair (+1, −1)"][p] == f"{a} vs {b}"
        share = percent(Fraction(cb, ca + cb), 0)
        assert pair_table["−1 examples"][p] == f"{cb} of {ca + cb} ({share})"
        updates, converged, stop, _, _ = runs["ovo"][p]
        run = pair_table["its run"][p]
        if converged:
            assert run == f"separated it after {updates:,} update{'s' * (updates != 1)}"
        else:
            assert run.startswith(
                "stopped at the epoch limit"
                if stop == "epoch limit"
                else f"stopped at the limit of {MAX_UPDATES:,} updates"
            )
            assert run.endswith(
                "a line does separate it" if pairs_separable[p] else "no line separates it"
            )

    # the warnings: a note for each class not separated, or winning no area or all of it
    said = warnings(at)
    for j, c in enumerate(classes):
        _, converged, _, _, _ = runs["ova"][j]
        whole = shares["ova"][j] == 1
        note = f"class {c} against the rest was not separated" in said or (
            f"class {c} wins" in said
        )
        assert note == (not converged or places[("ova", j)] != "area" or whole), (c, said)
        if places[("ova", j)] == "nowhere":
            assert re.search(rf"class {c}\b[^\n]*wins nowhere in the square drawn", said)
        elif places[("ova", j)] in ("lines", "points"):
            kind = "on lines" if places[("ova", j)] == "lines" else "at points"
            assert re.search(
                rf"class {c}\b[^\n]*wins no area of the square drawn, only {kind}", said
            )
        elif not whole:
            if not converged:
                assert f"wins {percent(shares['ova'][j])} of the square drawn" in said
    # a line asked for but not drawn: w = 0, or it misses the square (corners, exactly)
    for j, c in enumerate(classes):
        w, b = ova.weights[j], ova.biases[j]
        L = frac(limit)
        corners = {
            (frac(w[0]) * sx * L + frac(w[1]) * sy * L + frac(b) > 0)
            - (frac(w[0]) * sx * L + frac(w[1]) * sy * L + frac(b) < 0)
            for sx in (-1, 1)
            for sy in (-1, 1)
        }
        misses = bool(w.any()) and corners in ({1}, {-1})
        assert (f"class {c}'s perceptron ended with w = 0" in said) == (not w.any())
        assert (f"the line {c} vs rest lies outside the square drawn" in said) == misses
        assert (f"line {c} vs rest" in names(at, "ova_chart")) == (bool(w.any()) and not misses)
    # the middle class, for that layout only
    middle_texts = [m.value for m in at.markdown if m.value.startswith("Class 0 sits")]
    assert len(middle_texts) == int(middle)
    if middle:
        assert ("a line does separate 0 from the rest" in middle_texts[0]) == separable[0]
        assert ("no line separates 0 from the rest" in middle_texts[0]) == (not separable[0])
    # the grid caption is gone; the exact one is there
    captions = " ".join(c.value for c in at.caption)
    assert "161 × 161" not in captions and "computed exactly" in captions


PAGES = [
    ({"k": "3"}, dict(k=3)),
    ({"k": "6"}, dict(k=6)),
    (
        {"k": "3", "layout": "one class in the middle", "spread": "0.02"},
        dict(k=3, spread=0.02, middle=True),
    ),
    (
        {"k": "6", "layout": "one class in the middle", "spread": "0.6", "max_epochs": "20"},
        dict(k=6, spread=0.6, middle=True, max_epochs=20),
    ),
    (
        {"k": "4", "spread": "0.5", "order": "permuted", "order_seed": "3", "max_epochs": "10"},
        dict(k=4, spread=0.5, order="permuted", seed=3, max_epochs=10),
    ),
    (
        {"k": "5", "n": "40", "spread": "0.3", "order": "random", "max_epochs": "7"},
        dict(k=5, n=40, spread=0.3, order="random", max_epochs=7),
    ),
    (
        {"k": "3", "n": "30", "spread": "0.4", "order": "max_residual", "max_epochs": "5"},
        dict(k=3, n=30, spread=0.4, order="max_residual", max_epochs=5),
    ),
    (
        {"k": "4", "n": "30", "spread": "0.4", "order": "max_distance", "max_epochs": "5"},
        dict(k=4, n=30, spread=0.4, order="max_distance", max_epochs=5),
    ),
]


@pytest.mark.parametrize("query, case", PAGES, ids=[str(q) for q, _ in PAGES])
def test_the_page_says_what_the_references_compute_on_blobs(query, case):
    at = open_page(PAGE, query)
    X, labels = blobs(
        case.get("k", 4),
        case.get("n", 120),
        case.get("spread", 0.12),
        middle=case.get("middle", False),
    )
    check_page(
        at,
        X,
        labels,
        case.get("order", "cyclic"),
        case.get("seed", 0),
        case.get("max_epochs", 100),
        case.get("middle", False),
    )


DRAWN = {
    "two classes": TWO_CLASSES,
    "a single point of a class": "0.5,0.5,0;-0.5,0.5,1;-0.6,0.4,1;0,-0.6,2;0.1,-0.7,2",
    "points at the origin": "0,0,0;0,0,1;0.5,0,1;-0.5,0.5,2",
    "the origin alone": "0,0,0;1,1,1;-1,1,2;1,-1,3",
    "a point of each class": "0,0,0;1,0,1;0,1,2",
    "collinear": "-1,0,0;0,0,1;1,0,2;-0.5,0,0;0.5,0,2",
    "symmetric six": ";".join(
        f"{np.cos(a):.3f},{np.sin(a):.3f},{j}"
        for j, a in enumerate(np.linspace(0, 2 * np.pi, 7)[:-1])
    ),
}


@pytest.mark.parametrize("name", list(DRAWN))
def test_the_page_says_what_the_references_compute_on_drawn_points(name):
    at = open_page(PAGE, {"source": "draw", "points": DRAWN[name]})
    X, labels = drawn(DRAWN[name])
    check_page(at, X, labels)


def test_the_side_by_side_accuracy_matches_scikit_learn_where_the_algorithms_coincide():
    """scikit-learn's OneVsRest with Perceptron (cyclic, η = 1, no shuffle) runs the same
    binary perceptrons; where every run separated its problem the weights agree and so
    does the training accuracy the page shows."""
    import warnings as python_warnings

    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import Perceptron
    from sklearn.multiclass import OneVsRestClassifier

    at = open_page(PAGE, {"k": "3", "spread": "0.06"})
    X, labels = blobs(3, spread=0.06)
    ova, _ = fitted(X, labels)
    assert ova.converged.all()
    with python_warnings.catch_warnings():
        python_warnings.simplefilter("ignore", ConvergenceWarning)
        peer = OneVsRestClassifier(Perceptron(eta0=1.0, shuffle=False, tol=None, max_iter=100)).fit(
            X, labels
        )
    right = int(np.sum(peer.predict(X) == labels))
    table = table_with_column(at, "one-vs-all")
    assert table["one-vs-all"][0] == f"{percent(Fraction(right, len(labels)))} ({right} of 120)"


# ---------------------------------------------------------------------------
# Properties over random drawn data (the board's 0.05 grid, the origin, single points)
# ---------------------------------------------------------------------------


@st.composite
def board(draw):
    k = draw(st.integers(2, 4))
    extra = draw(
        st.lists(
            st.tuples(st.integers(-20, 20), st.integers(-20, 20), st.integers(0, k - 1)), max_size=8
        )
    )
    first = draw(
        st.lists(st.tuples(st.integers(-20, 20), st.integers(-20, 20)), min_size=k, max_size=k)
    )
    rows = [(x, y, j) for j, (x, y) in enumerate(first)] + extra
    X = np.array([[x * 0.05, y * 0.05] for x, y, _ in rows])
    labels = np.array([j for *_, j in rows])
    order = draw(st.sampled_from(["cyclic", "permuted", "max_residual"]))
    return X, labels, order, draw(st.integers(1, 30))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board())
def test_every_share_and_count_is_the_independent_one(data):
    X, labels, order, epochs = data
    ova, ovo, limit, region, numbers = viz.fit_both(X, labels, order, 0, epochs)
    shares = exact_shares(ova, ovo, limit)
    for key in ("ova", "ovo"):
        assert [part.share for part in region[key]] == shares[key]
    for key in ("ova_tie", "ovo_tie", "disagree"):
        assert region[key].share == shares[key]
    places = zero_area_places(ova, ovo, limit, shares)
    for key, part in (
        [(("ova", j), p) for j, p in enumerate(region["ova"])]
        + [(("ovo", j), p) for j, p in enumerate(region["ovo"])]
        + [(key, region[key]) for key in ("ova_tie", "ovo_tie", "disagree")]
    ):
        expected = places[key]
        got = (
            "area"
            if part.has_area
            else "lines"
            if part.has_lines
            else "points"
            if part.has_points
            else "nowhere"
        )
        assert got == expected, (key, got, expected)
    train = training_numbers(ova, ovo, X, labels)
    assert numbers["one-vs-all"]["right"] == train["ova_right"]
    assert numbers["one-vs-one"]["right"] == train["ovo_right"]
    assert numbers["one-vs-all"]["training_ties"] == train["ova_ties"]
    assert numbers["one-vs-one"]["training_ties"] == train["ovo_ties"]
    assert numbers["disagree_training"] == train["disagree"]
    classes = sorted(set(labels.tolist()))
    assert numbers["separable"] == [line_separates(X[labels == c], X[labels != c]) for c in classes]
    if region["disagree"].empty:
        assert train["disagree"] == 0  # the training points lie in the square


@settings(max_examples=30, deadline=None)
@given(board())
def test_the_lines_drawn_lie_where_the_rule_changes(data):
    """Every segment drawn as a tie of one-vs-all lies on a line where two top scores are
    equal (within rounding of the drawn ends), and every drawn disagreement segment on a
    line of either scheme."""
    X, labels, order, epochs = data
    ova, ovo, limit, region, _ = viz.fit_both(X, labels, order, 0, epochs)
    scale = (np.abs(ova.weights).sum() + np.abs(ova.biases).sum()) * limit + 1
    for a, b in region["ova_tie"].segments:
        middle = (a + b) / 2
        scores = np.sort(ova.weights @ middle + ova.biases)
        assert scores[-1] - scores[-2] <= 1e-9 * scale
    k = len(ova.classes)
    lines = np.vstack(
        [np.column_stack([ovo.weights, ovo.biases])]
        + [
            np.append(ova.weights[i] - ova.weights[j], ova.biases[i] - ova.biases[j])
            for i in range(k)
            for j in range(i + 1, k)
        ]
    )
    for a, b in region["disagree"].segments:
        middle = np.append((a + b) / 2, 1.0)
        assert np.min(np.abs(lines @ middle)) <= 1e-9 * scale


# ---------------------------------------------------------------------------
# The exact plane's public functions: bad input raises ValueError only
# ---------------------------------------------------------------------------

JUNK = st.one_of(
    st.none(),
    st.text(max_size=3),
    st.floats(allow_nan=True),
    st.integers(-(10**30), 10**30),
    st.lists(st.floats(), max_size=4),
    st.lists(st.lists(st.one_of(st.floats(), st.text(max_size=1)), max_size=4), max_size=4),
)


@settings(max_examples=300, deadline=None)
@given(JUNK, JUNK)
def test_the_exact_plane_refuses_bad_input_with_a_value_error(first, second):
    from perceptron_core import arrangement
    from perceptron_core import multiclass_plane as mp

    calls = [
        lambda: arrangement.exact(first),
        lambda: arrangement.integer_line(first),
        lambda: arrangement.cut_square(first, second),
        lambda: arrangement.point_signs(first, second),
        lambda: arrangement.line_meets_square(first, second),
        lambda: arrangement.strictly_separable(first, second),
        lambda: mp.plane(first, second, 1.0),
        lambda: mp.predict_exactly(first, second, [[0.0, 0.0]]),
    ]
    for call in calls:
        try:
            call()
        except ValueError:
            pass


# ---------------------------------------------------------------------------
# In Chromium: a view reached by clicks is the view its link opens fresh
# ---------------------------------------------------------------------------

#: what each SVG chart on the page shows (walking the components' shadow roots)
CHARTS_JS = """() => {
  const out = [];
  const walk = (root) => {
    for (const chart of root.querySelectorAll('svg.svg-chart')) out.push(chart);
    for (const item of root.querySelectorAll('*')) if (item.shadowRoot) walk(item.shadowRoot);
  };
  walk(document);
  return out.map((svg) => ({
    label: svg.getAttribute('aria-label'),
    legend: Array.from(svg.querySelectorAll('.legend text')).map((t) => t.textContent),
    paths: Array.from(svg.querySelectorAll('path')).map((p) => p.getAttribute('d')).join('|'),
    points: svg.querySelectorAll('.point').length,
    heatmaps: svg.querySelectorAll('image.heatmap, g.heatmap').length,
  }));
}"""


#: whether the page's three charts are drawn
THREE_CHARTS_JS = """() => {
  let count = 0;
  const walk = (root) => {
    count += root.querySelectorAll('svg.svg-chart').length;
    for (const item of root.querySelectorAll('*')) if (item.shadowRoot) walk(item.shadowRoot);
  };
  walk(document);
  return count >= 3;
}"""


def view(page) -> dict:
    """The pills' states, the charts and the texts of the results, as the browser shows
    them (once the page's three charts are drawn)."""
    from browser_helpers import wait_for_app

    wait_for_app(page)
    page.wait_for_function(THREE_CHARTS_JS)
    wait_for_app(page)
    page.wait_for_timeout(800)  # the charts draw after the script run
    pills = page.locator(".st-key-lines button")
    return {
        "pills": [
            (pills.nth(i).inner_text(), pills.nth(i).get_attribute("aria-pressed"))
            for i in range(pills.count())
        ],
        "charts": page.evaluate(CHARTS_JS),
        "tables": page.locator("table").all_inner_texts(),
        "alerts": page.locator('[data-testid="stAlert"]').all_inner_texts(),
    }


def fresh_view(browser, url: str) -> dict:
    from browser_helpers import new_page, open_url

    with new_page(browser, 1280, 900) as other:
        open_url(other, url)
        return view(other)


def test_browser_lines_after_raising_k_are_what_the_link_opens(browser, page, streamlit_server):
    from browser_helpers import open_url, wait_for_app

    open_url(page, f"{streamlit_server}/multiclass?k=4")
    page.locator(".st-key-lines").get_by_role("button", name="1", exact=True).click()
    wait_for_app(page)
    slider = page.locator(".st-key-k input[type=range]")
    slider.focus()
    slider.press("ArrowRight")
    clicked = view(page)
    assert clicked["pills"] == [
        ("0", "true"),
        ("1", "false"),
        ("2", "true"),
        ("3", "true"),
        ("4", "true"),
    ]
    legend = clicked["charts"][0]["legend"]
    assert "line 4 vs rest" in legend and "line 1 vs rest" not in legend
    assert "k=5" in page.url
    assert fresh_view(browser, page.url) == clicked
    slider.focus()
    slider.press("ArrowLeft")
    slider.press("ArrowLeft")  # k = 3: line 1 still off
    back = view(page)
    assert [state for _, state in back["pills"]] == ["true", "false", "true"]
    # the browser writes a bound slider's value into the address bar itself; under load
    # that can trail the drawn page, but it must arrive
    page.wait_for_function(
        "() => new URLSearchParams(location.search).get('k') === '3'", timeout=10_000
    )
    assert fresh_view(browser, page.url) == back


def test_browser_changing_n_twice_shows_the_charts_of_a_fresh_load(browser, page, streamlit_server):
    """Old charts stayed beside the new ones (9 charts where a fresh page has 3)."""
    from browser_helpers import enter_value, open_url

    open_url(page, f"{streamlit_server}/multiclass")
    enter_value(page, "n", "130")
    enter_value(page, "n", "140")
    clicked = view(page)
    assert len(clicked["charts"]) == 3
    assert [c["label"] for c in clicked["charts"]] == [
        "Chart: one-vs-all: argmax of k scores",
        "Chart: one-vs-one: most votes",
        "Chart: where they disagree",
    ]
    assert sum(c["points"] for c in clicked["charts"]) == 3 * 140
    assert all(c["heatmaps"] == 0 for c in clicked["charts"])  # no grid cells drawn
    assert "n=140" in page.url
    assert fresh_view(browser, page.url) == clicked


@pytest.mark.parametrize(
    "query", ["", "?k=6&layout=one+class+in+the+middle&spread=0.6&max_epochs=30"]
)
def test_browser_nothing_pans_sideways_on_a_phone(browser, streamlit_server, query):
    """At 390 px the page does not scroll sideways, and neither does any table in its box."""
    from browser_helpers import PAGE_TIMEOUT, open_url

    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        user_agent=(
            "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 "
            "(KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36"
        ),
    )
    context.set_default_timeout(PAGE_TIMEOUT)
    try:
        phone = context.new_page()
        open_url(phone, f"{streamlit_server}/multiclass{query}")
        phone.get_by_text("One-vs-one: the pairs").click()  # the pairs' table, opened
        phone.locator(".lab-table-box").nth(2).wait_for(state="visible")
        phone.wait_for_timeout(1000)
        assert (
            phone.evaluate(
                "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            == 0
        )
        boxes = phone.evaluate("""() => Array.from(document.querySelectorAll('.lab-table-box'))
            .map((box) => [box.scrollWidth, box.clientWidth])""")
        assert len(boxes) >= 3
        assert all(scroll <= width for scroll, width in boxes), boxes
    finally:
        context.close()
