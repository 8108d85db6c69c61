"""/multiclass: one-vs-all and one-vs-one (Remark 1.36) drawn over the plane.

Arrays in, plain dicts or Plotly figures out. The plane is the square [-limit, limit]^2;
where each scheme predicts each class, where its top score or vote is tied and where the
two disagree come from :func:`perceptron_core.multiclass_plane.plane`, exactly: areas
are exact fractions, and a set with no area (a tie on a line) is drawn as lines or
points, never as a strip of grid cells.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import plotly.graph_objects as go

from ..arrangement import line_meets_square, strictly_separable
from ..multiclass import one_vs_all, one_vs_one
from ..multiclass_plane import PlaneSet, plane, predict_exactly
from ..theory import value_text
from . import style
from .describe import with_words
from .region_words import region_words

#: k colours (Okabe-Ito) and marker shapes: classes differ by both
CLASS_COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"]
CLASS_SYMBOLS = ["circle", "square", "diamond", "triangle-up", "cross", "star"]
#: the same shapes as text, for a class picker ("2 ◆")
CLASS_GLYPHS = ["●", "■", "◆", "▲", "✚", "★"]
#: the dash of each class's "j vs rest" line: the lines differ by dash as well as colour
CLASS_DASHES = ["solid", "dash", "dot", "dashdot", "longdash", "longdashdot"]
TIE_COLOUR = "#000000"
#: most updates of each binary run (besides the epoch limit the student sets): a problem no
#: line separates stops there (at k = 6, n = 600 both schemes then take 0.25-0.5 s of
#: computing on a loaded machine, 2026-11-27; 20 000 took 3-6 s). Every text that names the
#: limit reads it from here (through ``summary``'s "max_updates")
MAX_UPDATES = 1_500
#: rows of two legend entries the charts' bottom margin holds, and the height of a row
LEGEND_ROWS = 6
LEGEND_ROW = 21


def symbol_indices(classes) -> list[int]:
    """Each class's marker shape: a class labelled 0..5 keeps its own (a drawn class 2 is
    a diamond on every chart, as the picker's "2 ◆" says); other labels go by position.
    Colours always go by position among the classes present, so they stay distinct."""
    values = list(np.asarray(classes).tolist())
    if all(isinstance(v, int) and 0 <= v < len(CLASS_SYMBOLS) for v in values):
        return values
    return [j % len(CLASS_SYMBOLS) for j in range(len(values))]


def _fill(colour: str, alpha: float) -> str:
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r}, {g}, {b}, {alpha})"


def axis_limit(X) -> float:
    """Half-width of the square view: the data plus a tenth."""
    return round(1.1 * max(1.0, float(np.abs(np.asarray(X)).max())), 3)


def stopped_at(runs, max_updates: int = MAX_UPDATES) -> list[str | None]:
    """Which limit stopped each binary run that did not separate its problem ("update
    limit" when it made ``max_updates`` updates, else "epoch limit"); None for a run that
    separated it."""
    return [
        None if done else "update limit" if updates >= max_updates else "epoch limit"
        for done, updates in zip(runs.converged.tolist(), runs.n_updates.tolist())
    ]


def fit_both(
    X, labels, order: str, seed: int, max_epochs: int, max_updates: int = MAX_UPDATES
) -> tuple:
    """What /multiclass shows, computed at once (in a worker process) and compact enough to
    cache: ``(ova, ovo, limit, region, numbers)``, both reductions without their binary
    runs' traces (the page shows none; at k = 6, n = 600 they were 24 of the 24.5 MB),
    the square's half-width, the exact :func:`~perceptron_core.multiclass_plane.plane`
    and :func:`summary`."""
    settings = dict(
        bias=True, order=order, seed=seed, max_updates=max_updates, max_epochs=max_epochs
    )
    ova, ovo = one_vs_all(X, labels, **settings), one_vs_one(X, labels, **settings)
    limit = axis_limit(X)
    region = plane(ova, ovo, limit)
    numbers = summary(X, labels, ova, ovo, region, max_updates)
    return replace(ova, traces=()), replace(ovo, traces=()), limit, region, numbers


def summary(X, labels, ova, ovo, region: dict, max_updates: int = MAX_UPDATES) -> dict:
    """Side-by-side numbers of the two schemes: training accuracy and ties (decided in
    exact arithmetic, :func:`~perceptron_core.multiclass_plane.predict_exactly`),
    perceptrons, updates, separated binary problems and the limit that stopped the
    others, the tie and disagreement sets of ``region``, and whether a line separates
    each binary problem (decided exactly)."""
    X, labels = np.asarray(X, dtype=float), np.asarray(labels)
    codes = np.searchsorted(ova.classes, labels)
    exact = predict_exactly(ova, ovo, X)
    out: dict = {}
    for name, model, key in (("one-vs-all", ova, "ova"), ("one-vs-one", ovo, "ovo")):
        right = int(np.sum(exact[key] == codes))
        out[name] = {
            "right": right,
            "points": len(labels),
            "accuracy": right / len(labels),
            "perceptrons": model.n_perceptrons,
            "updates": model.total_updates,
            "converged": int(model.converged.sum()),
            "training_ties": int(exact[f"{key}_tie"].sum()),
            "tie": region[f"{key}_tie"],
        }
    out["disagree"] = region["disagree"]
    out["disagree_training"] = int(np.sum(exact["ova"] != exact["ovo"]))
    out["stopped"] = stopped_at(ova, max_updates)
    out["pairs_stopped"] = stopped_at(ovo, max_updates)
    out["max_updates"] = max_updates
    out["class_counts"] = [int(np.sum(codes == j)) for j in range(ova.classes.shape[0])]
    # whether a line separates each "class j against the rest" problem and each pair
    # (hull against hull, exactly), not whether the perceptron's run stopped in time
    out["separable"] = [
        strictly_separable(X[labels == label], X[labels != label]) for label in ova.classes.tolist()
    ]
    out["pairs_separable"] = [
        strictly_separable(X[labels == j], X[labels == jj]) for j, jj in ovo.pairs.tolist()
    ]
    return out


def _where_text(region: dict, j: int) -> str:
    """Where one-vs-all predicts class position j in the square, in words."""
    mine: PlaneSet = region["ova"][j]
    others = [s for i, s in enumerate(region["ova"]) if i != j]
    if mine.empty:
        return "wins nowhere in the square drawn"
    if not mine.has_area:
        return (
            f"wins no area of the square drawn, only {places_text(mine)} where it ties "
            "for the top score (a tie goes to the first class in the list)"
        )
    if mine.share == 1:
        return (
            "wins everywhere in the square drawn"
            if all(s.empty for s in others)
            else "wins all the area of the square drawn (other classes win only on lines or "
            "at points, where they tie)"
        )
    return f"wins {share_text(mine.share)} of the square drawn"


def limit_text(limit: str, max_updates: int = MAX_UPDATES) -> str:
    """ "the epoch limit" or "the limit of 1,500 updates" (``max_updates``)."""
    return "the epoch limit" if limit == "epoch limit" else f"the limit of {max_updates:,} updates"


def winner_notes(ova, region: dict, numbers: dict) -> list[str]:
    """Sentences about one-vs-all classes that win no area or all of it in the view, or
    whose binary problem was not separated (which limit stopped its run, whether a line
    separates it: ``numbers`` from :func:`summary`)."""
    notes = []
    for j, label in enumerate(ova.classes.tolist()):
        mine = region["ova"][j]
        where = _where_text(region, j)
        stop = numbers["stopped"][j]
        if stop is not None:
            line = (
                "; a line does separate it, the run had not found one yet"
                if numbers["separable"][j]
                else "; no line separates it"
            )
            notes.append(
                f"class {label} against the rest was not separated (its run stopped "
                f"at {limit_text(stop, numbers['max_updates'])}{line}) and {where}"
            )
        elif not mine.has_area or mine.share == 1:
            notes.append(f"class {label} {where}, although its binary problem was separated")
    return notes


def flat_notes(ova, shown_lines, limit: float) -> list[str]:
    """For each line asked for that is not drawn: its perceptron ended with w = 0 (a
    constant score, no line), or its line misses the square drawn."""
    notes = []
    for label, w, b in zip(ova.classes.tolist(), ova.weights, ova.biases):
        if label not in shown_lines:
            continue
        if not np.asarray(w).any():
            notes.append(
                f"class {label}'s perceptron ended with w = 0, so its score is the "
                f"constant b = {value_text(b)} everywhere and it has no line to draw"
            )
        elif not line_meets_square([w[0], w[1], b], limit):
            sign = "positive" if float(np.dot(w, [limit, limit]) + b) > 0 else "negative"
            notes.append(
                f"the line {label} vs rest lies outside the square drawn (class "
                f"{label}'s score is {sign} everywhere in it)"
            )
    return notes


def _chain(pieces) -> tuple[list, list]:
    """x and y of several polylines in one trace, a None between two of them."""
    xs: list = []
    ys: list = []
    for piece in pieces:
        if xs:
            xs.append(None)
            ys.append(None)
        xs += [float(v) for v in piece[:, 0]]
        ys += [float(v) for v in piece[:, 1]]
    return xs, ys


def _set_traces(
    fig,
    part: PlaneSet,
    colour: str,
    fill: str | None,
    name: str,
    *,
    width: float = 3,
    points: bool = False,
) -> None:
    """A set of the plane as what it is: its cells as shaded polygons (when ``fill`` is
    given), its lines with no area beside them as lines; with ``points``, only its
    isolated points, as crosses (drawn after the data, so that no data point hides one).
    Each trace only when there is something to draw."""
    if points:
        if part.has_points:
            fig.add_trace(
                go.Scatter(
                    x=part.points[:, 0],
                    y=part.points[:, 1],
                    mode="markers",
                    name=f"{name} (point)",
                    hoverinfo="skip",
                    marker=dict(
                        symbol="x", size=14, color=colour, line=dict(color="white", width=1)
                    ),
                )
            )
        return
    if part.polygons and fill is not None:
        x, y = _chain(part.polygons)
        fig.add_trace(
            go.Scatter(
                x=x,
                y=y,
                mode="none",
                fill="toself",
                fillcolor=fill,
                name=f"{name} (area)",
                hoverinfo="skip",
            )
        )
    if part.has_lines:
        x, y = _chain(part.segments)
        fig.add_trace(
            go.Scatter(
                x=x,
                y=y,
                mode="lines",
                name=f"{name} (line)",
                line=dict(color=colour, width=width),
                hoverinfo="skip",
            )
        )


def _regions(fig, parts, classes) -> None:
    """Each class's region in its pale colour. Only the first area is named (for a screen
    reader), and none is in the legend: the points' legend names the classes and their
    colours. A class that wins only on lines (a tie that goes to it) gets its lines."""
    named = False
    for j, (label, part) in enumerate(zip(np.asarray(classes).tolist(), parts)):
        colour = CLASS_COLOURS[j % 6]
        if part.polygons:
            x, y = _chain(part.polygons)
            fig.add_trace(
                go.Scatter(
                    x=x,
                    y=y,
                    mode="none",
                    fill="toself",
                    fillcolor=_fill(colour, 0.22),
                    name=None if named else "regions: the pale colour of the class that wins there",
                    showlegend=False,
                    hoverinfo="skip",
                )
            )
            named = True
        _set_traces(fig, part, colour, None, f"class {label}")


def _region_points(fig, parts, classes) -> None:
    """The isolated points where a class wins (a tie that goes to it), above the data."""
    for j, (label, part) in enumerate(zip(np.asarray(classes).tolist(), parts)):
        _set_traces(fig, part, CLASS_COLOURS[j % 6], None, f"class {label}", points=True)


def _points(fig, X, labels, classes, visible=True):
    shapes = symbol_indices(classes)
    for j, label in enumerate(np.asarray(classes).tolist()):
        rows = np.asarray(labels) == label
        fig.add_trace(
            go.Scatter(
                x=X[rows, 0],
                y=X[rows, 1],
                mode="markers",
                name=f"class {label}",
                marker=dict(
                    color=CLASS_COLOURS[j % 6],
                    symbol=CLASS_SYMBOLS[shapes[j]],
                    size=10,
                    line=dict(color="white", width=1),
                ),
                visible=visible,
            )
        )


def _line(fig, w, b, limit, colour, name, dash="solid"):
    """The line w·x + b = 0 across the square (nothing if it misses it)."""
    w = np.asarray(w, float)
    if not w.any():  # w = 0: the score is the constant b, there is no line
        return
    if abs(w[1]) >= abs(w[0]):
        xs = np.array([-limit, limit])
        ys = -(b + w[0] * xs) / w[1]
    else:
        ys = np.array([-limit, limit])
        xs = -(b + w[1] * ys) / w[0]
    fig.add_trace(
        go.Scatter(
            x=xs,
            y=ys,
            mode="lines",
            name=name,
            line=dict(color=colour, width=3, dash=dash),
            hoverinfo="name",
        )
    )


def _frame(fig, limit, height, title):
    """Square axes over [−limit, limit]², the legend in two columns under the plot: the
    bottom margin (and the height, so that the plot keeps its size) grows with its rows."""
    entries = sum(1 for t in fig.data if t.name and t.showlegend is not False)
    extra = LEGEND_ROW * max(0, -(-entries // 2) - LEGEND_ROWS)
    style.base_layout(fig, title=title, height=height + extra)
    fig.update_xaxes(title="x₁", range=[-limit, limit], constrain="domain")
    fig.update_yaxes(title="x₂", range=[-limit, limit], scaleanchor="x", constrain="domain")
    # the legend under the plot (fixed margin), so it covers no region and no point
    fig.update_layout(
        margin=dict(b=215 + extra),
        legend=dict(
            orientation="h",
            x=0,
            xanchor="left",
            y=-0.17,
            yanchor="top",
            font=dict(size=13),
            entrywidth=0.5,
            entrywidthmode="fraction",
        ),
    )
    return fig


#: cells a side of the grid on which a picture's regions are put into words
WORDS_GRID = 60


def _cells_in(parts, limit: float, grid: int = WORDS_GRID) -> np.ndarray:
    """Which part's cells hold each grid cell's centre: (grid, grid) of positions in
    ``parts`` (−1: none, a border), row 0 at the top of the square. The cells of the cut
    are convex, corners anticlockwise: inside means left of (or on) every edge."""
    axis = -limit + (np.arange(grid) + 0.5) * (2 * limit / grid)
    gx, gy = np.meshgrid(axis, axis[::-1])
    points = np.column_stack([gx.ravel(), gy.ravel()])
    owner = np.full(points.shape[0], -1)
    for j, part in enumerate(parts):
        for corners in part.polygons:
            corners = np.asarray(corners, float)
            edges = np.roll(corners, -1, axis=0) - corners
            offsets = points[:, None, :] - corners[None, :, :]
            cross = edges[None, :, 0] * offsets[:, :, 1] - edges[None, :, 1] * offsets[:, :, 0]
            owner[(owner < 0) & np.all(cross >= -1e-12, axis=1)] = j
    return owner.reshape(grid, grid)


def _wrong_points_text(X, labels, predicted, what: str) -> str:
    """The training points a scheme predicts as another class: how many, the first few."""
    X, labels, predicted = np.asarray(X, float), np.asarray(labels), np.asarray(predicted)
    wrong = np.flatnonzero(predicted != labels)
    if wrong.size == 0:
        return f"{what} predicts every training point's own class."
    named = "; ".join(
        f"({_coordinate_text(X[i, 0])}, {_coordinate_text(X[i, 1])}) of class "
        f"{labels[i]} predicted {predicted[i]}"
        for i in wrong[:6]
    )
    more = f"; and {wrong.size - 6} more" if wrong.size > 6 else ""
    return (
        f"{what} predicts another class for {wrong.size} of the {len(labels)} training "
        f"points: {named}{more}."
    )


def scheme_words(X, labels, model, parts, limit: float, tie=None, what: str = "It") -> str:
    """A scheme's picture in words: where each class wins in the square (region_words on
    the exact regions ``parts``, and ``tie`` when ties have area), and the training points
    it predicts wrongly (the points that matter)."""
    names = {j: f"Class {label}" for j, label in enumerate(np.asarray(model.classes).tolist())}
    cells = _cells_in(list(parts) + ([tie] if tie is not None else []), limit)
    if tie is not None:
        names[len(parts)] = "A tie (no single winner)"
    return (
        f"{region_words(cells, names)} "
        f"{_wrong_points_text(X, labels, model.predict(np.asarray(X, float)), what)}"
    )


def ova_figure(X, labels, ova, region, limit, *, shown_lines=(), height=700) -> go.Figure:
    """One-vs-all: the plane coloured by argmax_j w_j·x + b_j, its ties (on lines: the
    borders between regions), the chosen binary lines that cross the square."""
    fig = go.Figure()
    tie = (region["ova_tie"], TIE_COLOUR, "rgba(0, 0, 0, 0.45)", "tied score")
    _regions(fig, region["ova"], ova.classes)
    _set_traces(fig, *tie, width=2)
    for j, label in enumerate(ova.classes.tolist()):
        if label in shown_lines and line_meets_square([*ova.weights[j], ova.biases[j]], limit):
            _line(
                fig,
                ova.weights[j],
                ova.biases[j],
                limit,
                CLASS_COLOURS[j % 6],
                f"line {label} vs rest",
                dash=CLASS_DASHES[j % 6],
            )
    _points(fig, X, labels, ova.classes)
    _region_points(fig, region["ova"], ova.classes)
    _set_traces(fig, *tie, points=True)
    _frame(fig, limit, height, "one-vs-all: argmax of k scores")
    return with_words(fig, scheme_words(X, labels, ova, region["ova"], limit, what="One-vs-all"))


def ovo_figure(X, labels, ovo, region, limit, *, height=700) -> go.Figure:
    """One-vs-one: the plane coloured by the vote winner, tied votes in grey."""
    fig = go.Figure()
    tie = (region["ovo_tie"], "rgb(80, 80, 80)", "rgba(80, 80, 80, 0.55)", "tied vote")
    _regions(fig, region["ovo"], ovo.classes)
    _set_traces(fig, *tie)
    _points(fig, X, labels, ovo.classes)
    _region_points(fig, region["ovo"], ovo.classes)
    _set_traces(fig, *tie, points=True)
    _frame(fig, limit, height, "one-vs-one: most votes")
    ties = region["ovo_tie"] if region["ovo_tie"].has_area else None
    return with_words(
        fig, scheme_words(X, labels, ovo, region["ovo"], limit, tie=ties, what="One-vs-one")
    )


def disagreement_figure(X, labels, classes, region, limit, *, height=560) -> go.Figure:
    """Where the two schemes predict different classes (dark: an area shaded, a line with
    no area drawn as a line, a point as a cross), the data on top."""
    fig = go.Figure()
    disagree = (region["disagree"], "rgb(0, 0, 0)", "rgba(0, 0, 0, 0.45)", "disagree")
    _set_traces(fig, *disagree)
    _points(fig, X, labels, classes)
    _set_traces(fig, *disagree, points=True)
    _frame(fig, limit, height, "where they disagree")
    part: PlaneSet = region["disagree"]
    words = (
        region_words(_cells_in([part], limit), {0: "Where the two schemes disagree"})
        if part.has_area
        else "The two schemes disagree on no area of the square"
        + (f", only {places_text(part)}." if not part.empty else ".")
    )
    return with_words(fig, words)


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
    fig = go.Figure(
        go.Scatter(
            x=grid_x,
            y=grid_y,
            mode="markers",
            name="click to add",
            showlegend=False,
            marker=dict(size=14, color="rgba(0,0,0,0.01)"),
            hovertemplate="add a point at (%{x:.2f}, %{y:.2f})<extra></extra>",
        )
    )
    present = [c for c in classes if np.any(np.asarray(labels) == c)]
    _points(fig, X, labels, np.asarray(present, dtype=int))
    for trace in fig.data[1:]:
        trace.hovertemplate = "click to remove<extra></extra>"
    style.base_layout(fig, height=height)
    fig.update_xaxes(title="x₁", range=[-limit, limit], constrain="domain")
    fig.update_yaxes(title="x₂", range=[-limit, limit], scaleanchor="x", constrain="domain")
    fig.update_layout(
        clickmode="event+select",
        dragmode=False,
        uirevision="draw",
        margin=dict(l=60, r=10, t=20, b=95),
        legend=dict(
            orientation="h", x=0, xanchor="left", y=-0.17, yanchor="top", font=dict(size=14)
        ),
    )
    return fig


# ---------------------------------------------------------------------------
# The page's menus, texts and tables (pages/multiclass.py shows them)
# ---------------------------------------------------------------------------

#: data sources: link value -> what it is
SOURCES = {
    "blobs": "k blobs, generated",
    "upload": "your CSV file with k labels",
    "draw": "points you click on a chart, with a class picker",
}
#: where the blob centres go (link values)
LAYOUTS = ["ring", "one class in the middle"]
#: both schemes run their binary problems stacked (perceptron_core.stacked), one loop turn
#: per update of the longest run; a turn costs about this much plus this per example of
#: every problem (upper figures, measured at k = 6, n = 600 on a loaded machine)
SECONDS_PER_TURN = 60e-6
SECONDS_PER_TURN_EXAMPLE = 10e-9

#: plain text with Unicode, not KaTeX: math would cost the page KaTeX's 265 kB script
SUMMARY = (
    "A perceptron learns a line between two classes (and, given enough updates, finds one "
    "whenever a line separates them). With k classes, Remark 1.36 builds a classifier from "
    "several binary perceptrons in one of two ways. **One-vs-all** trains k perceptrons, "
    "perceptron j with class j as +1 and every other class as −1, and gives a point to the "
    "class whose score **w**ⱼ · **x** + bⱼ is largest. Problem j has the share 1 − nⱼ/n of "
    "negatives (nⱼ points of class j among n), close to (k−1)/k when the classes are of "
    "similar size: the table below gives it. **One-vs-one** trains one perceptron per pair "
    "(j, j′) on those two classes only, k(k−1)/2 of them, and lets each pair vote: for j "
    "where **w**ⱼⱼ′ · **x** + bⱼⱼ′ > 0, for j′ where it is ≤ 0 (sign(0) = −1); the class "
    "with the most votes wins. When several classes share the top score or the top vote "
    "count the notes allow any choice; here the first class in the list wins, and the "
    "charts mark where that happens: shaded where it covers an area, as a line or a point "
    "where it does not."
)

PLANE_CAPTION = (
    "Every share of the square on this page (where a class wins, where a top score or vote "
    "is tied, where the schemes disagree) is computed exactly and shown to 0.1% (a share "
    "that is neither 0 nor all of the square is never shown as 0% or 100%): the pair lines "
    "of one-vs-one and the lines where two one-vs-all scores are equal cut the square into "
    "polygons on which both rules are constant, and their areas are exact fractions (the "
    "perceptrons' weights taken at their stored values). A tie or a disagreement on a line "
    "or at a point has no area: the charts draw it as a line or a cross, and it adds 0 to "
    "the shares."
)


def fit_seconds(k: int, n: int, max_epochs: int) -> float:
    """Upper estimate of both schemes' time: each runs its binary problems stacked (k
    problems on n points; k(k-1)/2 on the points of two classes, counted as 4n/k), one
    turn per update of its longest run (at most MAX_UPDATES, and max_epochs·n steps)
    plus one per epoch."""
    turns = min(MAX_UPDATES, max_epochs * n) + max_epochs
    examples = k * n + k * (k - 1) // 2 * min(n, 4 * n // max(k, 1) + 1)
    return turns * (2 * SECONDS_PER_TURN + SECONDS_PER_TURN_EXAMPLE * examples)


def advice_text(own: bool) -> str:
    """What to change when both schemes would take too long: the blobs' settings, or the
    student's own data (whose n and k are not controls)."""
    return (
        "Lower the epoch limit, or use fewer points or classes in your data."
        if own
        else "Lower the epoch limit or n, or use fewer classes."
    )


def budget_text(k: int, n: int, max_epochs: int, budget: float, own: bool = False) -> str | None:
    """Why both schemes are not trained (their estimated time is over ``budget`` seconds),
    or None when they fit. The estimate is written with the digits that keep "more than
    the budget" true as written (4.02 s, not 4 s, against 4 s)."""
    seconds = fit_seconds(k, n, max_epochs)
    if seconds <= budget:
        return None
    limit = f"{budget:g}"
    for digits in range(7):
        shown = f"{seconds:.{digits}f}"
        if float(shown) > float(limit):
            break
    return (
        f"Training both schemes could need about {shown} s of computing "
        f"(k = {k} classes, n = {n} points, up to {max_epochs} epochs per binary "
        f"run), more than the {limit} s one request may use on "
        f"this shared server. {advice_text(own)}"
    )


def share_text(share, decimals: int = 1) -> str:
    """A share as a percentage that rounding never turns into 0% or 100%: a share
    strictly between 0 and 1 that would round to either is written "< 0.1%" or "> 99.9%"
    (with ``decimals`` digits after the point)."""
    share = float(share)
    text = f"{share:.{decimals}%}"
    least = 10.0**-decimals
    if 0 < share and float(text[:-1]) == 0:
        return f"< {least:.{decimals}f}%"
    if share < 1 and float(text[:-1]) == 100:
        return f"> {100 - least:.{decimals}f}%"
    return text


def count_text(part: int, whole: int) -> str:
    """ "90 of 120 (75%)": a count, its whole and the share (never rounded to 0% or
    100% unless it is)."""
    return f"{part} of {whole} ({share_text(part / whole, 0)})"


def places_text(part: PlaneSet) -> str:
    """Where the parts of a set with no area lie: "on lines", "at points", "on lines and
    at points", or "" when it has none."""
    return " and ".join(
        w for w, has in (("on lines", part.has_lines), ("at points", part.has_points)) if has
    )


def tie_area_text(part: PlaneSet) -> str:
    """The area of the square where a scheme's top score or vote is tied: its exact share,
    or 0 and where the ties lie (lines, points: no area)."""
    if part.has_area:
        return share_text(part.share)
    places = places_text(part)
    return f"0 (ties only {places})" if places else "0 (no tie)"


def side_by_side(numbers: dict) -> dict[str, list[str]]:
    """The two schemes' numbers (:func:`summary`) as table columns of text."""

    def column(a):
        return [
            f"{share_text(a['accuracy'])} ({a['right']} of {a['points']})",
            a["perceptrons"],
            a["updates"],
            f"{a['converged']} of {a['perceptrons']}",
            a["training_ties"],
            tie_area_text(a["tie"]),
        ]

    return {
        "": [
            "training accuracy",
            "perceptrons",
            "total updates",
            "binary problems their runs separated",
            "training points with a tie",
            "area of the square with a tie",
        ],
        "one-vs-all": [str(v) for v in column(numbers["one-vs-all"])],
        "one-vs-one": [str(v) for v in column(numbers["one-vs-one"])],
    }


def disagreement_text(numbers: dict, n_points: int) -> str:
    """Where the two schemes give different classes (square and training points)."""
    part: PlaneSet = numbers["disagree"]
    points = f"on {numbers['disagree_training']} of the {n_points} training points"
    places = places_text(part)
    if part.has_area:
        extra = f" (and {places}, which add no area: the chart draws them)" if places else ""
        return (
            f"The two schemes give different classes on **{share_text(part.share)}** of "
            f"the square drawn{extra}, and {points}."
        )
    if places:
        return (
            f"The two schemes give different classes on no area of the square drawn, "
            f"only {places}, which have no area (the chart draws them), and {points}."
        )
    return (
        f"The two schemes give the same class everywhere in the square drawn, so also "
        f"at all {n_points} training points."
    )


def imbalance_columns(ova, region: dict, numbers: dict) -> dict[str, list]:
    """One-vs-all's binary problems, one row per class: its −1 examples, what its run did
    (and whether a line separates it), where the class wins in the square."""
    counts = numbers["class_counts"]
    n = sum(counts)
    columns = _binary_columns(
        "problem",
        [f"{label} vs rest" for label in ova.classes.tolist()],
        [count_text(n - c, n) for c in counts],
        ova,
        numbers["stopped"],
        numbers["separable"],
        numbers["max_updates"],
    )
    columns["wins in the square"] = [
        share_text(part.share)
        if part.has_area
        else "0 (nowhere)"
        if part.empty
        else f"0 (only {places_text(part)})"
        for part in region["ova"]
    ]
    return columns


def middle_text(ova, numbers: dict) -> str:
    """For the "one class in the middle" layout: whether a line separates the middle
    class (the first, class 0) from the rest for the data on screen (decided exactly,
    :func:`summary`) and whether its perceptron stopped with one, or which limit stopped
    it."""
    label = ova.classes.tolist()[0]
    stop = numbers["stopped"][0]
    if numbers["separable"][0]:
        found = (
            "its perceptron found one"
            if stop is None
            else f"its perceptron had not found one when it stopped at "
            f"{limit_text(stop, numbers['max_updates'])}"
        )
        return (
            f"Class {label} sits in the middle, yet with these points a line does "
            f"separate {label} from the rest ({found}): the other blobs leave room for "
            "it."
        )
    return (
        f"Class {label} sits in the middle and with these points no line separates "
        f"{label} from the rest, so one-vs-all's perceptron for {label} cannot stop "
        f"with every point right: it stopped at {limit_text(stop, numbers['max_updates'])}."
    )


def pairs_columns(ovo, numbers: dict) -> dict[str, list]:
    """One-vs-one's pairs: the −1 examples (class j′ of pair (j, j′)) and what its run did
    (and whether a line separates the pair)."""
    counts = numbers["class_counts"]
    negatives = [
        count_text(counts[jj], counts[j] + counts[jj]) for j, jj in ovo.pair_codes.tolist()
    ]
    return _binary_columns(
        "pair (+1, −1)",
        [f"{p[0]} vs {p[1]}" for p in ovo.pairs.tolist()],
        negatives,
        ovo,
        numbers["pairs_stopped"],
        numbers["pairs_separable"],
        numbers["max_updates"],
    )


def run_text(
    updates: int, stopped: str | None, separable: bool, max_updates: int = MAX_UPDATES
) -> str:
    """What one binary run did: "separated it after 11 updates", or the limit it stopped
    at and whether a line separates its problem (decided exactly)."""
    count = f"{updates:,} update{'s' * (updates != 1)}"
    if stopped is None:
        return f"separated it after {count}"
    line = "a line does separate it" if separable else "no line separates it"
    return f"stopped at {limit_text(stopped, max_updates)} after {count}; {line}"


def _binary_columns(
    heading: str,
    names: list,
    negatives: list,
    runs,
    stopped: list,
    separable: list,
    max_updates: int,
) -> dict[str, list]:
    """The columns one-vs-all's and one-vs-one's tables share, one row per binary problem:
    its name, its −1 examples and what its run did (:func:`run_text`). Few columns: the
    table fits a phone's width."""
    return {
        heading: names,
        "−1 examples": negatives,
        "its run": [
            run_text(u, stop, line, max_updates)
            for u, stop, line in zip(runs.n_updates.tolist(), stopped, separable)
        ],
    }


def _coordinate_text(value: float) -> str:
    """The shortest text that reads back as the same float (1 for 1.0, 0.1234567 whole)."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


def points_text(points) -> str:
    """Drawn points as a link writes them, 'x,y,class;x,y,class', each coordinate in the
    shortest text that reads back as the same number (the link opens the same points)."""
    return ";".join(f"{_coordinate_text(a)},{_coordinate_text(b)},{int(c):d}" for a, b, c in points)
