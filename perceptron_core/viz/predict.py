"""Predict first on /train: the three candidate lines of an update (JSON-ready texts).

When the example examined updates (w, b), the player asks which line comes next among three:
the true one, w + y·x with b + y (Algorithm 1.16, line 4), and two wrong updates a student
might make, labelled A, B, C. The same rule runs in the browser
(pages/player/predict_train.js: trainCandidates), on the projector and in a follower's copy,
and here for a live class's poll of the question the projector waits on; the tests check
that the two agree on whole runs.
"""

from __future__ import annotations

import math

import numpy as np

from ..shown_numbers import exact_text, relation_text
from .train import state_slacks

#: wrong updates, in the order they are tried, with why each is wrong (A, B or C is the letter)
WRONG_KINDS = {
    "minus": "{L} subtracts y·x{and_y}: the update adds {them}.",
    "keep_bias": "{L} leaves b as it was: with a bias the update also adds y to b.",
    "replace": "{L} replaces {wb} by {yx}: the update adds {them} to the {wb} it has.",
    "unlabelled": "{L} adds x{and_1} without the label's sign: the update adds y·x{and_y}.",
    "turned": "{L} is the line along the new w: the line is perpendicular to w.",
    "twice": "{L} makes the update twice: one update adds y·x once.",
}
LETTERS = "ABC"


def candidate_slot(k: int) -> int:
    """Where the right candidate goes (0, 1, 2) at the k-th update (0-based): a hash of k, so
    the right letter follows no pattern (the player's ``predictSlot``)."""
    return ((k + 1) * 2654435761) % 2**32 % 3


def arrange(right: dict, wrong: list[dict], k: int) -> list[dict]:
    """The right candidate put at its slot among (at most two of) the wrong ones, lettered."""
    order = list(wrong[:2])
    order.insert(min(candidate_slot(k), len(order)), right)
    return [dict(item, letter=LETTERS[i]) for i, item in enumerate(order)]


def _wrong_line(kind: str, w, b: float, x, y: int, new_w, new_b: float) -> tuple[list, float]:
    """(w, b) after a wrong update of ``kind``, in the player's float operations."""
    if kind == "minus":
        return [w[0] - y * x[0], w[1] - y * x[1]], b - y
    if kind == "keep_bias":
        return list(new_w), b
    if kind == "replace":
        return [y * x[0], y * x[1]], float(y)
    if kind == "unlabelled":
        return [w[0] + x[0], w[1] + x[1]], b + 1
    if kind == "turned":
        return [-new_w[1], new_w[0]], new_b
    return [w[0] + 2 * y * x[0], w[1] + 2 * y * x[1]], b + 2 * y


def same_line(a: dict, c: dict, bias: bool) -> bool:
    """Whether two (w, b) draw the same line w·x + b = 0 with the same side predicted +1 (one
    is a positive multiple of the other), up to a relative 1e-9; without a bias, w alone
    (lines through 0). The same line with the sides swapped is another candidate."""
    u = [*a["w"], a["b"]] if bias else list(a["w"])
    v = [*c["w"], c["b"]] if bias else list(c["w"])
    cross = max(abs(u[i] * v[j] - u[j] * v[i]) for i in range(len(u)) for j in range(i + 1, len(u)))
    same_way = sum(p * q for p, q in zip(u, v)) > 0
    return same_way and cross <= 1e-9 * (math.hypot(*u) * math.hypot(*v))


def read_apart(a: dict, c: dict, bias: bool) -> bool:
    """Whether two candidates read differently with two decimals (a number differs by > 0.011)."""
    return (
        abs(a["w"][0] - c["w"][0]) > 0.011
        or abs(a["w"][1] - c["w"][1]) > 0.011
        or (bias and abs(a["b"] - c["b"]) > 0.011)
    )


def line_candidates(
    w, b: float, x, y: int, new_w, new_b: float, bias: bool, k: int
) -> list[dict] | None:
    """The three candidates at the k-th update (0-based) on example (x, y), from (w, b) to
    the run's (new_w, new_b).

    Returns
    -------
    list of dicts ``{"letter", "kind", "w", "b"}``, the true one (kind "true") exactly once
    and the first two wrong kinds of :data:`WRONG_KINDS` whose lines differ from it and from
    each other; None when new_w = 0 (no line).
    """
    w, x, new_w = [float(v) for v in w], [float(v) for v in x], [float(v) for v in new_w]
    b, new_b, y = float(b), float(new_b), int(y)
    if new_w[0] == 0 and new_w[1] == 0:
        return None
    right = {"kind": "true", "w": new_w, "b": new_b if bias else 0.0}
    wrong: list[dict] = []
    for kind in WRONG_KINDS:
        if len(wrong) == 2:
            break
        if not bias and kind == "keep_bias":
            continue
        line_w, line_b = _wrong_line(kind, w, b if bias else 0.0, x, y, right["w"], right["b"])
        line = {"kind": kind, "w": line_w, "b": line_b if bias else 0.0}
        if line_w[0] == 0 and line_w[1] == 0:
            continue
        if any(
            same_line(line, other, bias) or not read_apart(line, other, bias)
            for other in (right, *wrong)
        ):
            continue
        wrong.append(line)
    return arrange(right, wrong, k)


def _number(v: float) -> str:
    """Whole numbers as they are, others with two decimals (the player's ``trainNumber``)."""
    v = float(v)
    text = str(int(v)) if v.is_integer() else f"{v:.2f}"
    return "0.00" if text in ("-0.00",) else text.replace("-", "−")


def _pair(v) -> str:
    return f"({_number(v[0])}, {_number(v[1])})"


def why_wrong(kind: str, letter: str, bias: bool) -> str:
    """Why candidate ``letter`` of ``kind`` is not the update."""
    return WRONG_KINDS[kind].format(
        L=letter,
        and_y=" and y" if bias else "",
        them="them" if bias else "it",
        wb="(w, b)" if bias else "w",
        yx="(y·x, y)" if bias else "y·x",
        and_1=" and 1" if bias else "",
    )


def next_line_question(trace, X, y, shown_step: int, target: int) -> dict:
    """ "Which line comes next?" about the update at step ``target`` of a run shown at step
    ``shown_step`` (the projector waits on it): the candidates of :func:`line_candidates`.

    Returns
    -------
    dict with ``question``, ``options`` (the candidates' texts), ``answer`` (the true one's
    text), ``why`` and ``candidates``. Raises ValueError when step ``target`` makes no
    update, or its new w is 0.
    """
    nxt = trace.example_at(int(target), X, y)
    if not nxt.updated:
        raise ValueError(f"step {target:,} makes no update, so there is no new line to predict.")
    k = int(nxt.updates_before)
    x, label = np.asarray(X, float)[nxt.index], int(y[nxt.index])
    new_w, new_b = trace.weights[k + 1], float(trace.biases[k + 1])
    candidates = line_candidates(nxt.w, nxt.b, x, label, new_w, new_b, trace.bias, k)
    if candidates is None:
        raise ValueError(f"the update at step {target:,} makes w = 0: no line to draw.")
    delta = exact_text(trace.delta)
    written = [
        f"{c['letter']}: w = {_pair(c['w'])}" + (f", b = {_number(c['b'])}" if trace.bias else "")
        for c in candidates
    ]
    right = next(i for i, c in enumerate(candidates) if c["kind"] == "true")
    between = int(target) - int(shown_step) - 1
    passed = (
        f" (the {between:,} example{'s' * (between != 1)} before it pass"
        f"{'es' * (between == 1)} the test)"
        if between
        else ""
    )
    plus_b = " + b" if trace.bias else ""
    question = (
        f"Step {shown_step:,} is on screen. The update at step {target:,} examines "
        f"example {nxt.index + 1}: x = {_pair(x)}, y = {'+1' if label > 0 else '−1'}"
        f"{passed}. Which line comes next?"
    )
    slack = state_slacks(trace, X)[k]
    score = relation_text(0.0 if abs(nxt.score) <= slack else float(nxt.score), "≤", delta)
    why = (
        f"Its score y(w·x{plus_b}) = {score} ≤ δ = {delta}, so w ← w + y·x = "
        f"{_pair(new_w)}"
        + (f" and b ← b + y = {_number(new_b)}" if trace.bias else "")
        + f": line {candidates[right]['letter']}. "
        + " ".join(
            why_wrong(c["kind"], c["letter"], trace.bias) for c in candidates if c["kind"] != "true"
        )
    )
    return {
        "question": question,
        "options": tuple(written),
        "answer": written[right],
        "why": why,
        "candidates": candidates,
    }
