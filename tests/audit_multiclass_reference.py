"""Independent references for /multiclass's claims (tests only): exact areas by cutting the
square with half-planes in fractions, the rules evaluated at exact points with plain loops,
every piece of zero area found by brute force, a linear program for separability, and the
textbook perceptron loop for the runs.

None of it calls perceptron_core.arrangement or perceptron_core.multiclass_plane: it
recomputes what those decide, another way.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import numpy as np
from reference_perceptron import reference_perceptron

from perceptron_core.viz.multiclass import MAX_UPDATES  # noqa: F401  (a setting, not a result)

# MAX_UPDATES: what /multiclass passes to each binary run besides the epoch limit (the
# page's setting, read from where the page reads it; the runs themselves are recomputed
# here with the textbook loop)


def frac(value) -> Fraction:
    return Fraction(float(value))


# ---------------------------------------------------------------------------
# The two rules at an exact point (plain loops; ties to the first class)
# ---------------------------------------------------------------------------


def ova_at(weights, biases, point) -> tuple[int, bool]:
    """argmax_j w_j·x + b_j at an exact point: (first class with the top score, tied?)."""
    scores = [
        frac(w[0]) * point[0] + frac(w[1]) * point[1] + frac(b) for w, b in zip(weights, biases)
    ]
    best = max(scores)
    return scores.index(best), scores.count(best) > 1


def ovo_at(pair_codes, weights, biases, k, point) -> tuple[int, bool]:
    """The vote winner at an exact point: pair (j, j′) votes j when its score is > 0."""
    votes = [0] * k
    for (j, jj), w, b in zip(pair_codes, weights, biases):
        score = frac(w[0]) * point[0] + frac(w[1]) * point[1] + frac(b)
        votes[j if score > 0 else jj] += 1
    best = max(votes)
    return votes.index(best), votes.count(best) > 1


def rules_at(ova, ovo, point) -> dict:
    k = len(ova.classes)
    a, a_tie = ova_at(ova.weights, ova.biases, point)
    o, o_tie = ovo_at(ovo.pair_codes.tolist(), ovo.weights, ovo.biases, k, point)
    return {"ova": a, "ova_tie": a_tie, "ovo": o, "ovo_tie": o_tie, "disagree": a != o}


def training_numbers(ova, ovo, X, labels) -> dict:
    """Accuracy counts, ties and disagreements at the training points, exactly."""
    codes = [sorted(set(labels.tolist())).index(v) for v in labels.tolist()]
    out = {"ova_right": 0, "ovo_right": 0, "ova_ties": 0, "ovo_ties": 0, "disagree": 0}
    for x, code in zip(X.tolist(), codes):
        r = rules_at(ova, ovo, (frac(x[0]), frac(x[1])))
        out["ova_right"] += r["ova"] == code
        out["ovo_right"] += r["ovo"] == code
        out["ova_ties"] += r["ova_tie"]
        out["ovo_ties"] += r["ovo_tie"]
        out["disagree"] += r["disagree"]
    return out


# ---------------------------------------------------------------------------
# Exact areas: the square cut by closed half-planes, depth first, in fractions
# ---------------------------------------------------------------------------


def lines_of(ova, ovo) -> list[tuple[Fraction, Fraction, Fraction]]:
    """Every line either rule changes on: one-vs-one's pair lines and s_i = s_j."""
    rows = [(frac(w[0]), frac(w[1]), frac(b)) for w, b in zip(ovo.weights, ovo.biases)]
    scores = [(frac(w[0]), frac(w[1]), frac(b)) for w, b in zip(ova.weights, ova.biases)]
    rows += [
        tuple(p - q for p, q in zip(scores[i], scores[j]))
        for i, j in combinations(range(len(scores)), 2)
    ]
    return [row for row in rows if row[0] or row[1]]


def clip(polygon, line, sign):
    """The part of a convex polygon where sign·(a₁x + a₂y + c) >= 0 (Sutherland–Hodgman)."""
    a, b, c = line
    out = []
    for k, p in enumerate(polygon):
        q = polygon[(k + 1) % len(polygon)]
        vp = sign * (a * p[0] + b * p[1] + c)
        vq = sign * (a * q[0] + b * q[1] + c)
        if vp >= 0:
            out.append(p)
        if (vp > 0 > vq) or (vp < 0 < vq):
            t = vp / (vp - vq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def area(polygon) -> Fraction:
    return (
        abs(
            sum(
                (p[0] * q[1] - q[0] * p[1] for p, q in zip(polygon, polygon[1:] + polygon[:1])),
                Fraction(0),
            )
        )
        / 2
    )


def square(limit):
    L = frac(limit)
    return [(-L, -L), (L, -L), (L, L), (-L, L)]


def exact_shares(ova, ovo, limit) -> dict:
    """Share of the square, exactly, where each rule gives each class, where each one's top
    is tied and where they disagree: the rules evaluated at the centroid of every cell."""
    lines = lines_of(ova, ovo)
    k = len(ova.classes)
    total = area(square(limit))
    out = {
        "ova": [Fraction(0)] * k,
        "ovo": [Fraction(0)] * k,
        "ova_tie": Fraction(0),
        "ovo_tie": Fraction(0),
        "disagree": Fraction(0),
    }

    def visit(polygon, depth):
        if depth == len(lines):
            size = area(polygon)
            centre = (
                sum(p[0] for p in polygon) / len(polygon),
                sum(p[1] for p in polygon) / len(polygon),
            )
            r = rules_at(ova, ovo, centre)
            out["ova"][r["ova"]] += size / total
            out["ovo"][r["ovo"]] += size / total
            for key in ("ova_tie", "ovo_tie", "disagree"):
                out[key] += size / total if r[key] else 0
            return
        for sign in (1, -1):
            part = clip(polygon, lines[depth], sign)
            if len(part) >= 3 and area(part) > 0:
                visit(part, depth + 1)

    visit(square(limit), 0)
    return out


# ---------------------------------------------------------------------------
# Every piece with no area: the crossings of the lines (and of the square's sides) and
# a point inside every stretch of a line between two crossings
# ---------------------------------------------------------------------------


def zero_area_candidates(ova, ovo, limit) -> tuple[list, list]:
    """(corners, stretch midpoints) of all lines inside the square, exactly."""
    L = frac(limit)
    sides = [
        (Fraction(1), Fraction(0), -L),
        (Fraction(1), Fraction(0), L),
        (Fraction(0), Fraction(1), -L),
        (Fraction(0), Fraction(1), L),
    ]
    lines = lines_of(ova, ovo)
    everything = lines + sides

    def inside(p):
        return -L <= p[0] <= L and -L <= p[1] <= L

    def meet(u, v):
        det = u[0] * v[1] - u[1] * v[0]
        if det == 0:
            return None
        return ((u[1] * v[2] - u[2] * v[1]) / det, (u[2] * v[0] - u[0] * v[2]) / det)

    corners, middles = set(), set()
    for u in lines:
        on_u = sorted(
            {p for v in everything if v is not u and (p := meet(u, v)) is not None and inside(p)}
        )
        corners.update(on_u)
        middles.update(((p[0] + q[0]) / 2, (p[1] + q[1]) / 2) for p, q in zip(on_u, on_u[1:]))
    corners.update((sx * L, sy * L) for sx in (-1, 1) for sy in (-1, 1))
    return sorted(corners), sorted(middles)


def zero_area_places(ova, ovo, limit, shares) -> dict:
    """For each set with no area: whether it holds stretches of lines ("lines") or only
    corners ("points"). Keys as in :func:`exact_shares`, region sets as ("ova", j)."""
    corners, middles = zero_area_candidates(ova, ovo, limit)
    k = len(ova.classes)
    found: dict = {}

    def note(key, kind):
        found.setdefault(key, set()).add(kind)

    for kind, points in (("lines", middles), ("points", corners)):
        for p in points:
            r = rules_at(ova, ovo, p)
            note(("ova", r["ova"]), kind)
            note(("ovo", r["ovo"]), kind)
            for key in ("ova_tie", "ovo_tie", "disagree"):
                if r[key]:
                    note(key, kind)
    out = {}
    for key in (
        [("ova", j) for j in range(k)]
        + [("ovo", j) for j in range(k)]
        + ["ova_tie", "ovo_tie", "disagree"]
    ):
        share = shares[key[0]][key[1]] if isinstance(key, tuple) else shares[key]
        kinds = found.get(key, set())
        if share > 0:
            out[key] = "area"
        elif "lines" in kinds:
            out[key] = "lines"
        elif "points" in kinds:
            out[key] = "points"
        else:
            out[key] = "nowhere"
    return out


# ---------------------------------------------------------------------------
# Separability (a linear program) and the runs (the textbook loop)
# ---------------------------------------------------------------------------


def line_separates(P, N) -> bool:
    """Is there (w, b) with w·p + b ≥ 1 on P and ≤ −1 on N? (scipy's HiGHS)"""
    from scipy.optimize import linprog

    X = np.vstack([P, N])
    y = np.concatenate([np.ones(len(P)), -np.ones(len(N))])
    A_ub = -(y[:, None] * np.hstack([X, np.ones((len(y), 1))]))
    result = linprog(
        np.zeros(3), A_ub=A_ub, b_ub=-np.ones(len(y)), bounds=[(None, None)] * 3, method="highs"
    )
    return result.status == 0


def reference_runs(X, labels, order, seed, max_epochs, max_updates=MAX_UPDATES) -> dict:
    """Every binary run of both schemes by the textbook loop: one-vs-all's problems, then
    the pairs in (j, j′) order, each as (updates, converged, limit or None, w, b)."""
    classes = sorted(set(labels.tolist()))

    def run(rows, y):
        r = reference_perceptron(
            X[rows],
            y,
            bias=True,
            order=order,
            seed=seed,
            max_updates=max_updates,
            max_epochs=max_epochs,
        )
        updates = len(r.update_indices)
        limit = (
            None if r.converged else ("update limit" if updates >= max_updates else "epoch limit")
        )
        return updates, r.converged, limit, r.w, r.b

    everyone = np.arange(len(labels))
    ova = [run(everyone, np.where(labels == c, 1, -1)) for c in classes]
    ovo = []
    for a, b in combinations(classes, 2):
        rows = np.flatnonzero((labels == a) | (labels == b))
        ovo.append(run(rows, np.where(labels[rows] == a, 1, -1)))
    return {"classes": classes, "ova": ova, "ovo": ovo}


def percent(share, decimals=1) -> str:
    """A share as the page should write it: never rounded to 0% or 100% unless it is."""
    share = Fraction(share)
    text = f"{float(share):.{decimals}%}"
    if 0 < share < 1 and float(text[:-1]) in (0.0, 100.0):
        least = 10.0**-decimals
        return (
            f"< {least:.{decimals}f}%"
            if float(text[:-1]) == 0
            else f"> {100 - least:.{decimals}f}%"
        )
    return text
