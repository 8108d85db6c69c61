"""/multiclass: one-vs-all and one-vs-one (Remark 1.36) drawn over the plane.

Arrays in, plain dicts or Plotly figures out. The plane is a square grid
[-limit, limit]^2 of ``resolution`` points a side; every region, share and count
below is computed on that grid (it is what the page draws).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import plotly.graph_objects as go

from ..margin import max_margin
from ..multiclass import one_vs_all, one_vs_one
from . import style

#: k colours (Okabe-Ito) and marker shapes: classes differ by both
CLASS_COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"]
CLASS_SYMBOLS = ["circle", "square", "diamond", "triangle-up", "cross", "star"]
#: the same shapes as text, for a class picker ("2 ◆")
CLASS_GLYPHS = ["●", "■", "◆", "▲", "✚", "★"]
#: the dash of each class's "j vs rest" line: the lines differ by dash as well as colour
CLASS_DASHES = ["solid", "dash", "dot", "dashdot", "longdash", "longdashdot"]
TIE_COLOUR = "#000000"


#: most updates of one binary run here: a problem no line separates stops there (at
#: k = 6, n = 600 both schemes then take 0.25-0.5 s of computing on a loaded machine,
#: 2026-11-27)
MAX_FIT_UPDATES = 1_500


def symbol_indices(classes) -> list[int]:
    """Each class's marker shape: a class labelled 0..5 keeps its own (a drawn class 2 is
    a diamond on every chart, as the picker's "2 ◆" says); other labels go by position.
    Colours always go by position among the classes present, so they stay distinct."""
    values = list(np.asarray(classes).tolist())
    if all(isinstance(v, int) and 0 <= v < len(CLASS_SYMBOLS) for v in values):
        return values
    return [j % len(CLASS_SYMBOLS) for j in range(len(values))]


def _fill(colour: str, alpha: float) -> str:
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r}, {g}, {b}, {alpha})"


def grid(limit: float, resolution: int = 161) -> tuple[np.ndarray, np.ndarray]:
    """Axis values (resolution,) and the grid points (resolution², 2), x varying fastest."""
    axis = np.linspace(-limit, limit, resolution)
    xx, yy = np.meshgrid(axis, axis)
    return axis, np.column_stack([xx.ravel(), yy.ravel()])


def axis_limit(X) -> float:
    """Half-width of the square view: the data plus a tenth."""
    return round(1.1 * max(1.0, float(np.abs(np.asarray(X)).max())), 3)


def polygon_area(polygon) -> float:
    """Area of a polygon given by its corners in order (shoelace formula); 0 if empty."""
    if len(polygon) < 3:
        return 0.0
    x, y = np.asarray(polygon, dtype=float).T
    return 0.5 * abs(float(x @ np.roll(y, -1) - y @ np.roll(x, -1)))


def ova_areas(ova, limit: float) -> tuple[np.ndarray, float]:
    """The exact share of the square [-limit, limit]² that one-vs-all gives each class, and
    the share where the maximum is tied (both from polygons, no grid).

    Class j wins where w_j·x + b_j >= w_i·x + b_i for every i, i.e. on the convex polygon
    cut from the square by the half-planes (w_i - w_j)·x <= b_j - b_i. Two different
    score functions are equal only on a line, so ties have area 0 unless two classes
    have identical (w, b): then they tie on the whole polygon of either, and
    ``predict`` gives it to the first of them (so does this share).

    Returns
    -------
    shares : ndarray of shape (k,), summing to 1 (up to rounding)
    tie_share : float, the share of the square where the top score is shared with area
    """
    from .relaxation import clip_polygon

    W, b = np.asarray(ova.weights, float), np.asarray(ova.biases, float)
    k = W.shape[0]
    square = (2 * limit) ** 2
    shares, tie = np.zeros(k), 0.0
    for j in range(k):
        same = [i for i in range(k) if np.array_equal(W[i], W[j]) and b[i] == b[j]]
        if same[0] != j:
            continue  # an identical earlier class takes this region (ties: first class)
        others = [i for i in range(k) if i not in same]
        A = (W[others] - W[j]).T.reshape(2, -1)
        area = polygon_area(clip_polygon(A, b[j] - b[others], limit)) if others else square
        shares[j] = area / square
        if len(same) > 1:
            tie += area / square
    return shares, tie


def on_a_line(ova, ovo, points: np.ndarray, limit: float) -> np.ndarray:
    """Grid points on one of the lines where a prediction changes (within rounding):
    a one-vs-one pair's line w·x + b = 0, or a line where two one-vs-all scores are equal
    and largest. Those lines have area 0; a grid point on one is not evidence of an area."""
    def near_zero(values, w, bias):
        return np.abs(values) <= 1e-9 * (np.linalg.norm(w, axis=-1) * limit * 2 + np.abs(bias)
                                         + 1e-300)
    mask = np.zeros(points.shape[0], dtype=bool)
    if ovo.weights.shape[0]:
        pair_scores = points @ ovo.weights.T + ovo.biases
        mask |= near_zero(pair_scores, ovo.weights, ovo.biases).any(axis=1)
    scores = points @ ova.weights.T + ova.biases
    top2 = np.sort(scores, axis=1)[:, -2:]
    size = np.abs(ova.weights).sum() * limit + np.abs(ova.biases).sum()
    gap = top2[:, 1] - top2[:, 0]
    identical = {tuple(r) for r in np.column_stack([ova.weights, ova.biases]).tolist()}
    if len(identical) == ova.weights.shape[0]:  # no two classes identical: ties are lines
        mask |= gap <= 1e-9 * size
    return mask


def regions(ova, ovo, limit: float, resolution: int = 161) -> dict:
    """What both schemes predict on the grid, as class positions 0..k-1.

    Returns a dict with ``axis`` (resolution,), ``ova`` and ``ovo`` (resolution,
    resolution) winners, ``ova_tie`` / ``ovo_tie`` masks (shared maximum / shared
    top vote), ``disagree`` mask, ``on_line`` mask (grid points on a line where a
    prediction changes, :func:`on_a_line`), and areas: ``ova_share[j]`` the exact
    share of the square where one-vs-all picks class j and ``ova_tie_share`` the share
    where its maximum is tied (:func:`ova_areas`, polygons); ``ovo_share[j]``,
    ``ovo_tie_share`` and ``disagree_share`` estimated on the grid points that are not
    on such a line (one-vs-one's regions and ties are unions of cells between lines).
    """
    axis, points = grid(limit, resolution)
    shape = (resolution, resolution)
    k = ova.classes.shape[0]
    codes = {label: j for j, label in enumerate(ova.classes.tolist())}
    ova_label, ova_tie = ova.predict_with_ties(points)
    ovo_label, ovo_tie = ovo.predict_with_ties(points)
    # int8 codes (k <= 6): a region is 26 kB instead of 207 kB in a cache entry
    ova_code = np.array([codes[v] for v in ova_label.tolist()], dtype=np.int8)
    ovo_code = np.array([codes[v] for v in ovo_label.tolist()], dtype=np.int8)
    line = on_a_line(ova, ovo, points, limit)
    off = ~line if (~line).any() else np.ones_like(line)
    shares, tie_share = ova_areas(ova, limit)
    return {
        "axis": axis,
        "ova": ova_code.reshape(shape), "ovo": ovo_code.reshape(shape),
        "ova_tie": ova_tie.reshape(shape), "ovo_tie": ovo_tie.reshape(shape),
        "disagree": (ova_code != ovo_code).reshape(shape), "on_line": line.reshape(shape),
        "ova_share": shares, "ova_tie_share": tie_share,
        "ovo_share": np.bincount(ovo_code[off], minlength=k) / off.sum(),
        "ovo_tie_share": float(ovo_tie[off].mean()),
        "disagree_share": float((ova_code != ovo_code)[off].mean()),
    }


def fit_both(X, labels, order: str, seed: int, max_epochs: int,
             max_updates: int = MAX_FIT_UPDATES) -> tuple:
    """What /multiclass shows, computed at once and compact enough to
    cache: ``(ova, ovo, limit, region, numbers)``, both reductions without their binary
    runs' traces (the page shows none; at k = 6, n = 600 they were 24 of the 24.5 MB),
    the square's half-width, :func:`regions` and :func:`summary`."""
    settings = dict(bias=True, order=order, seed=seed, max_updates=max_updates,
                    max_epochs=max_epochs)
    ova, ovo = one_vs_all(X, labels, **settings), one_vs_one(X, labels, **settings)
    limit = axis_limit(X)
    region = regions(ova, ovo, limit)
    numbers = summary(X, labels, ova, ovo, region)
    return replace(ova, traces=()), replace(ovo, traces=()), limit, region, numbers


def summary(X, labels, ova, ovo, region: dict) -> dict:
    """Side-by-side numbers of the two schemes (training accuracy, perceptrons, updates,
    converged binary problems, ties among the training points, disagreement share)."""
    labels = np.asarray(labels)
    out = {}
    for name, model, tie_key in (("one-vs-all", ova, "ova_tie_share"),
                                 ("one-vs-one", ovo, "ovo_tie_share")):
        predicted, ties = model.predict_with_ties(X)
        out[name] = {
            "accuracy": float(np.mean(predicted == labels)),
            "perceptrons": model.n_perceptrons, "updates": model.total_updates,
            "converged": int(model.converged.sum()),
            "training_ties": int(ties.sum()),
            "tie_share": float(region[tie_key]),
        }
    # one-vs-all's maximum is tied on the lines between two regions (area 0): there are
    # such lines in the square when more than one class wins somewhere in it
    out["one-vs-all"]["regions"] = int((np.asarray(region["ova_share"]) > 0).sum())
    out["disagree_share"] = float(region["disagree_share"])
    out["disagree_training"] = int(np.sum(ova.predict(X) != ovo.predict(X)))
    # whether a line separates each "class j against the rest" problem (the max-margin
    # solver, Remark 1.31), not whether the perceptron's run stopped in time
    out["separable"] = [bool(max_margin(X, np.where(labels == label, 1, -1),
                                        bias=True).separable)
                        for label in ova.classes.tolist()]
    out["pairs_separable"] = [
        bool(max_margin(X[(labels == j) | (labels == jj)],
                        np.where(labels[(labels == j) | (labels == jj)] == j, 1, -1),
                        bias=True).separable)
        for j, jj in ovo.pairs.tolist()]
    return out


def winner_notes(ova, region: dict, separable=None) -> list[str]:
    """Sentences about one-vs-all classes that win nowhere or everywhere in the view, or
    whose binary problem was not separated (with the share of the square they win and,
    given ``separable`` (k bools, :func:`summary`), whether a line separates it)."""
    notes = []
    for j, label in enumerate(ova.classes.tolist()):
        share = float(region["ova_share"][j])
        separated = bool(ova.converged[j])
        where = ("wins nowhere in the square drawn" if share == 0 else
                 "wins everywhere in the square drawn" if share >= 1 - 1e-12 else
                 f"wins {share:.1%} of the square drawn" if share >= 0.0005 else
                 "wins less than 0.1% of the square drawn")
        if not separated:
            line = ("" if separable is None else
                    "; a line does separate it, the run had not found one yet"
                    if separable[j] else "; no line separates it")
            notes.append(f"class {label} against the rest was not separated (its run stopped "
                         f"at its limit, the epoch limit or {MAX_FIT_UPDATES:,} updates"
                         f"{line}) and {where}")
        elif share == 0.0 or share >= 1 - 1e-12:
            notes.append(f"class {label} {where}, although its binary problem was separated")
    return notes


def _points(fig, X, labels, classes, visible=True):
    shapes = symbol_indices(classes)
    for j, label in enumerate(np.asarray(classes).tolist()):
        rows = np.asarray(labels) == label
        fig.add_trace(go.Scatter(
            x=X[rows, 0], y=X[rows, 1], mode="markers", name=f"class {label}",
            marker=dict(color=CLASS_COLOURS[j % 6], symbol=CLASS_SYMBOLS[shapes[j]], size=10,
                        line=dict(color="white", width=1)), visible=visible))


def _regions_trace(winner, axis, k, name):
    """A heatmap of winner positions, one pale colour per class."""
    scale = []
    for j in range(k):
        low, high = j / k, (j + 1) / k
        scale += [[low, _fill(CLASS_COLOURS[j], 0.22)], [high, _fill(CLASS_COLOURS[j], 0.22)]]
    return go.Heatmap(x=axis, y=axis, z=winner + 0.5, zmin=0, zmax=k, colorscale=scale,
                      showscale=False, hoverinfo="skip", name=name)


def _mask_trace(mask, axis, colour, name):
    z = np.where(mask, 1.0, np.nan)
    return go.Heatmap(x=axis, y=axis, z=z, zmin=0, zmax=1, showscale=False, hoverinfo="skip",
                      colorscale=[[0, colour], [1, colour]], name=name, showlegend=True)


def _line(fig, w, b, limit, colour, name, dash="solid"):
    """The line w·x + b = 0 across the square (nothing if it misses it)."""
    w = np.asarray(w, float)
    if np.allclose(w, 0):
        return
    if abs(w[1]) >= abs(w[0]):
        xs = np.array([-limit, limit])
        ys = -(b + w[0] * xs) / w[1]
    else:
        ys = np.array([-limit, limit])
        xs = -(b + w[1] * ys) / w[0]
    fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", name=name,
                             line=dict(color=colour, width=3, dash=dash), hoverinfo="name"))


def _frame(fig, limit, height, title):
    style.base_layout(fig, title=title, height=height)
    fig.update_xaxes(title="x₁", range=[-limit, limit], constrain="domain")
    fig.update_yaxes(title="x₂", range=[-limit, limit], scaleanchor="x", constrain="domain")
    # the legend under the plot (fixed margin), so it covers no region and no point
    fig.update_layout(margin=dict(b=215), legend=dict(
        orientation="h", x=0, xanchor="left", y=-0.17, yanchor="top", font=dict(size=13),
        entrywidth=0.5, entrywidthmode="fraction"))
    return fig


def ova_figure(X, labels, ova, region, limit, *, shown_lines=(), height=700) -> go.Figure:
    """One-vs-all: the plane coloured by argmax_j w_j·x + b_j, the chosen binary lines."""
    k = ova.classes.shape[0]
    fig = go.Figure(_regions_trace(region["ova"], region["axis"], k, "argmax region"))
    if region["ova_tie"].any():
        fig.add_trace(_mask_trace(region["ova_tie"], region["axis"], TIE_COLOUR,
                                  "tied maximum"))
    for j, label in enumerate(ova.classes.tolist()):
        if label in shown_lines:
            _line(fig, ova.weights[j], ova.biases[j], limit, CLASS_COLOURS[j % 6],
                  f"line {label} vs rest", dash=CLASS_DASHES[j % 6])
    _points(fig, X, labels, ova.classes)
    return _frame(fig, limit, height, "one-vs-all: argmax of k scores")


def ovo_figure(X, labels, ovo, region, limit, *, height=700) -> go.Figure:
    """One-vs-one: the plane coloured by the vote winner, tied votes in grey."""
    k = ovo.classes.shape[0]
    fig = go.Figure(_regions_trace(region["ovo"], region["axis"], k, "vote winner"))
    if region["ovo_tie"].any():
        fig.add_trace(_mask_trace(region["ovo_tie"], region["axis"], "rgba(80, 80, 80, 0.55)",
                                  "tied vote"))
    _points(fig, X, labels, ovo.classes)
    return _frame(fig, limit, height, "one-vs-one: most votes")


def disagreement_figure(X, labels, classes, region, limit, *, height=560) -> go.Figure:
    """Where the two schemes predict different classes (dark), the data on top."""
    fig = go.Figure(_mask_trace(region["disagree"], region["axis"], "rgba(0, 0, 0, 0.45)",
                                "the schemes disagree"))
    _points(fig, X, labels, classes)
    return _frame(fig, limit, height, "where they disagree")


def draw_figure(X, labels, classes, *, limit: float, height: int = 520) -> go.Figure:
    """The editable data of k classes: an invisible clickable grid, then each class.

    Clicking the grid selects one of its points (Plotly selection), which a page turns
    into a new example; clicking an example selects it (the page removes it).

    Parameters
    ----------
    X : ndarray of shape (n, 2); labels : ndarray of shape (n,), values from ``classes``
    classes : the labels a point may have; those present are drawn in the colours the
        page's other charts give them (by position), with their own shapes
    limit : half-width of the fixed square view

    Returns
    -------
    go.Figure: trace 0 is the grid ("click to add"), then one trace per class present.
    """
    from .train import click_grid

    X = np.asarray(X, dtype=float).reshape(-1, 2)
    grid_x, grid_y = click_grid(limit)
    fig = go.Figure(go.Scatter(
        x=grid_x, y=grid_y, mode="markers", name="click to add", showlegend=False,
        marker=dict(size=14, color="rgba(0,0,0,0.01)"),
        hovertemplate="add a point at (%{x:.2f}, %{y:.2f})<extra></extra>"))
    present = [c for c in classes if np.any(np.asarray(labels) == c)]
    _points(fig, X, labels, np.asarray(present, dtype=int))
    for trace in fig.data[1:]:
        trace.hovertemplate = "click to remove<extra></extra>"
    style.base_layout(fig, height=height)
    fig.update_xaxes(title="x₁", range=[-limit, limit], constrain="domain")
    fig.update_yaxes(title="x₂", range=[-limit, limit], scaleanchor="x", constrain="domain")
    fig.update_layout(clickmode="event+select", dragmode=False, uirevision="draw",
                      margin=dict(l=60, r=10, t=20, b=95), legend=dict(
                          orientation="h", x=0, xanchor="left", y=-0.17, yanchor="top",
                          font=dict(size=14)))
    return fig


# ---------------------------------------------------------------------------
# The page's menus, texts and tables (pages/multiclass.py shows them)
# ---------------------------------------------------------------------------

#: data sources: link value -> what it is
SOURCES = {"blobs": "k blobs, generated", "upload": "your CSV file with k labels",
           "draw": "points you click on a chart, with a class picker"}
#: where the blob centres go (link values)
LAYOUTS = ["ring", "one class in the middle"]
#: both schemes run their binary problems stacked (perceptron_core.stacked), one loop turn
#: per update of the longest run; a turn costs about this much plus this per example of
#: every problem (upper figures, measured at k = 6, n = 600 on a loaded machine)
SECONDS_PER_TURN = 60e-6
SECONDS_PER_TURN_EXAMPLE = 10e-9

#: plain text with Unicode, not KaTeX: math would cost the page KaTeX's 265 kB script
SUMMARY = (
    "A perceptron learns a line between two classes (and finds one when a line separates "
    "them). With k classes, Remark 1.36 builds a classifier from several binary perceptrons "
    "in one of two ways. **One-vs-all** trains k perceptrons, perceptron j with class j as "
    "+1 and every other class as −1, and gives a point to the class whose score "
    "**w**ⱼ · **x** + bⱼ is largest. Problem j has the share 1 − nⱼ/n of "
    "negatives (nⱼ points of class j among n), close to (k−1)/k when the classes are of "
    "similar size: the table below gives it. **One-vs-one** trains one perceptron per pair "
    "(j, j′) on those two classes only, k(k−1)/2 of them, and lets each pair vote; the "
    "class with the most votes wins. When several classes share the top score or the top "
    "vote count the notes allow any choice; here the first class in the list wins, and the "
    "plane marks those points.")

GRID_CAPTION = (
    "One-vs-all's shares of the square and its tie area are exact: its regions are "
    "polygons, and two different scores are equal only on a line, which has no area. "
    "One-vs-one's shares and ties, and where the two schemes disagree, are counted on a "
    "161 × 161 grid over the square drawn, leaving out grid points that lie on a line "
    "where a prediction changes. The pictures are drawn on that grid.")


def fit_seconds(k: int, n: int, max_epochs: int) -> float:
    """Upper estimate of both schemes' time: each runs its binary problems stacked (k
    problems on n points; k(k-1)/2 on the points of two classes, counted as 4n/k), one
    turn per update of its longest run (at most MAX_FIT_UPDATES, and max_epochs·n steps)
    plus one per epoch."""
    turns = min(MAX_FIT_UPDATES, max_epochs * n) + max_epochs
    examples = k * n + k * (k - 1) // 2 * min(n, 4 * n // max(k, 1) + 1)
    return turns * (2 * SECONDS_PER_TURN + SECONDS_PER_TURN_EXAMPLE * examples)


def budget_text(k: int, n: int, max_epochs: int, budget: float) -> str | None:
    """Why both schemes are not trained (their estimated time is over ``budget`` seconds),
    or None when they fit."""
    seconds = fit_seconds(k, n, max_epochs)
    if seconds <= budget:
        return None
    return (f"Training both schemes could need about {seconds:.1f} s of computing "
            f"(k = {k} classes, n = {n} points, up to {max_epochs} epochs per binary "
            f"run), more than the {budget:g} s one request may use on "
            "this shared server. Lower the epoch limit or n, or use fewer classes.")


def share_text(share: float) -> str:
    """A share as a percentage; a small positive share is not shown as 0.0 %."""
    return "< 0.1%" if 0 < share < 0.0005 else f"{share:.1%}"


def tie_area_text(a: dict, name: str) -> str:
    """The area of the square where a scheme's top score or vote is tied (``a``: its
    :func:`summary` entry): one-vs-all's exact area, which is 0 when the ties lie on
    lines only; one-vs-one's share of the grid points off the lines."""
    if a["tie_share"] > 0:
        return share_text(a["tie_share"]) + (" (grid)" if name == "one-vs-one" else "")
    if name == "one-vs-all":
        return "0 (ties on lines only)" if a.get("regions", 1) > 1 else "0 (no tie)"
    return "0 on the grid"


def side_by_side(numbers: dict) -> dict[str, list[str]]:
    """The two schemes' numbers (:func:`summary`) as table columns of text."""
    def column(a, name):
        return [f"{a['accuracy']:.1%}", a["perceptrons"], a["updates"],
                f"{a['converged']} of {a['perceptrons']}", a["training_ties"],
                tie_area_text(a, name)]
    return {"": ["training accuracy", "perceptrons", "total updates",
                 "binary problems their runs separated", "training points with a tie",
                 "area of the square with a tie"],
            "one-vs-all": [str(v) for v in column(numbers["one-vs-all"], "one-vs-all")],
            "one-vs-one": [str(v) for v in column(numbers["one-vs-one"], "one-vs-one")]}


def disagreement_text(numbers: dict, n_points: int) -> str:
    """Where the two schemes give different classes (square and training points)."""
    return (f"The two schemes give different classes on **{share_text(numbers['disagree_share'])}"
            f"** of the square drawn (on the grid) and on {numbers['disagree_training']} of "
            f"the {n_points} training points.")


def imbalance_columns(ova, region: dict, separable=None) -> dict[str, list]:
    """One-vs-all's binary problems: share of negatives, updates, whether the run separated
    it, whether a line separates it (``separable``, k bools from :func:`summary`), wins."""
    columns = _binary_columns("problem", [f"{label} vs rest" for label in ova.classes.tolist()],
                              ova, separable)
    columns["wins in the square"] = [share_text(v) for v in region["ova_share"]]
    return columns


def middle_text(ova, separable) -> str:
    """For the "one class in the middle" layout: whether a line separates the middle
    class (the first, class 0) from the rest for the data on screen (``separable``: k
    bools from :func:`summary`, the max-margin solver) and whether its perceptron
    stopped with one (``ova.converged``)."""
    label = ova.classes.tolist()[0]
    if separable[0]:
        found = ("its perceptron found one" if ova.converged[0] else
                 "its perceptron had not found one by its limit, the epoch limit or "
                 f"{MAX_FIT_UPDATES:,} updates")
        return (f"Class {label} sits in the middle, yet with these points a line does "
                f"separate {label} from the rest ({found}): the other blobs leave room for "
                "it.")
    return (f"Class {label} sits in the middle and with these points no line separates "
            f"{label} from the rest, so one-vs-all's perceptron for {label} stops only at "
            f"its limit, the epoch limit or {MAX_FIT_UPDATES:,} updates.")


def pairs_columns(ovo, separable=None) -> dict[str, list]:
    """One-vs-one's pairs: share of negatives, updates, whether the run separated the pair
    and (``separable``, from :func:`summary`) whether a line separates it."""
    return _binary_columns("pair (+1, −1)", [f"{p[0]} vs {p[1]}" for p in ovo.pairs.tolist()],
                           ovo, separable)


def _binary_columns(heading: str, names: list, runs, separable=None) -> dict[str, list]:
    """The columns one-vs-all's and one-vs-one's tables share, one row per binary problem:
    its name, share of negatives, updates, whether its run separated it and (``separable``)
    whether a line separates it."""
    columns = {heading: names,
               "negatives": [f"{v:.0%}" for v in runs.imbalance],
               "updates": runs.n_updates.tolist(),
               "the run separated it": ["yes" if v else "no (limit reached)"
                                        for v in runs.converged]}
    if separable is not None:
        columns["a line separates it"] = ["yes" if v else "no" for v in separable]
    return columns


def points_text(points) -> str:
    """Drawn points as a link writes them: 'x,y,class;x,y,class'."""
    return ";".join(f"{a:g},{b:g},{c:d}" for a, b, c in points)
