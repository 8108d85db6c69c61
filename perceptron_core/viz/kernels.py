"""Pictures of the /kernels page: the kernel player's payload, the lift to 3-D, the timing chart.

Arrays in, JSON-ready data (or a Plotly figure) out; never streamlit. The player
(``pages/player/player.js`` with ``pages/player/kernels_scene.js``) evaluates the decision
function f(x) = sum_i alpha_i y_i K(x_i, x) + b (eq. 2 of
notes-perceptron-kernels-columbia.txt) on a grid in the browser from the
update list, so the payload grows with the number of updates (one index each),
not with updates x grid cells.
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import plotly.graph_objects as go

from ..kernels import (
    KERNEL_FORMULAS,
    KERNELS,
    KernelMarginResult,
    KernelTrace,
    NoSeparatorProof,
    kernel_margin,
    kernel_perceptron,
    monotone_conjunction_features,
    monotone_conjunction_kernel,
    no_separator_proof,
    opposite_copies,
    separates_exactly,
)
from ..margin import max_margin
from ..perceptron import ScoreRounding, row_norms, run_perceptron
from . import style
from .describe import WORDS_KEY
from .region_words import region_words

#: grid cells per side on which the browser evaluates f (GRID x GRID points)
GRID = 72


def gram_matrix(trace: KernelTrace) -> np.ndarray:
    """K(x_i, x_j) of the run's kernel on its training examples, shape (n, n)."""
    return KERNELS[trace.kernel](
        trace.X, trace.X, degree=trace.degree, coef0=trace.coef0, scale=trace.scale
    )


class GramColumns:
    """The columns of the run's Gram matrix for some examples: K(x_j, x_i) for every
    training example j and each i in ``wanted`` (the examples updated on, the support).

    The player's numbers need only these: at n = 2 000 a run to 2 000 updates touches
    about 1 060 examples and one without flipped labels about 20, so the whole (n, n)
    matrix (26-35 ms there) is not computed. The kernel is evaluated on the
    same pairs as :func:`gram_matrix`, so the values are its columns.
    """

    def __init__(self, trace: KernelTrace, wanted):
        self.index = np.unique(np.asarray(wanted, dtype=np.int64))  # sorted examples i
        self.values = (
            KERNELS[trace.kernel](  # (n, len(index))
                trace.X,
                trace.X[self.index],
                degree=trace.degree,
                coef0=trace.coef0,
                scale=trace.scale,
            )
            if self.index.size
            else np.zeros((len(trace.y), 0))
        )

    def positions(self, ids) -> np.ndarray:
        """Where examples ``ids`` (each in ``index``) are among the columns."""
        return np.searchsorted(self.index, np.asarray(ids, dtype=np.int64))


def kernel_text(trace: KernelTrace) -> str:
    """The kernel with its parameters, in words (e.g. K(x, z) = exp(−κ ‖x − z‖²) with κ = 2,
    width σ = 0.5; a width that is not a short decimal is written ≈)."""
    formula = KERNEL_FORMULAS[trace.kernel]
    if trace.kernel == "poly":
        return (
            f"{formula} with degree {trace.degree}, c = {_number_text(trace.coef0)}, "
            f"κ = {_number_text(trace.scale)}"
        )
    if trace.kernel == "rbf":
        return (
            f"{formula} with κ = {_number_text(trace.scale)} (width σ "
            f"{approx_text(rbf_width(trace.scale), 3)})"
        )
    return formula


def rbf_width(scale: float) -> float:
    """The width σ of the RBF kernel exp(−κ‖x − z‖²) = exp(−‖x − z‖²/(2σ²)): σ = 1/√(2κ)."""
    return float(1.0 / np.sqrt(2.0 * scale))


#: the help of the label-noise slider: what it does, and what the page then says
NOISE_HELP = (
    "Each label is flipped at random with this chance, so the number flipped varies "
    "(the data's description says how many were). Flipped labels can make the "
    "data impossible to separate in a kernel's feature space, or separable only "
    "with a small margin; the player says which holds for the data on screen."
)

#: the label of the kernel's scale κ on the page: which way it goes
SCALE_LABEL = "scale κ (larger κ: narrower RBF bumps)"
#: the help of the kernel's scale κ on the page
SCALE_HELP = (
    "κ multiplies the inner products inside the kernel. RBF: K(x, z) = "
    "exp(−κ‖x − z‖²) is a bump around each example of width σ = 1/√(2κ), so a "
    "larger κ gives narrower bumps and a smaller κ wider ones (κ = 0.5: σ = 1; "
    "κ = 2: σ = 0.5; κ = 50: σ = 0.1). Polynomial: K(x, z) = (κ x·z + c)^degree; a "
    "larger κ, against c, gives the higher-degree terms more weight. (Software "
    "such as scikit-learn calls κ gamma; here γ always means a margin.)"
)


def training_accuracy(
    trace: KernelTrace, columns: GramColumns | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Share of training examples with sign f(x) = y, and how many have y f(x) <= 0.

    Parameters
    ----------
    trace : KernelTrace
    columns : GramColumns of the run holding (at least) its updated examples, if built

    Returns two arrays of shape (n_updates + 1,), after 0, 1, ..., M updates
    (sign(0) = -1, so f(x) = 0 predicts -1).

    The values f_k(x_j) are those of ``trace.decision_path(trace.X)`` (eq. 2), computed
    the same way and in the same blocks of updates (so bit for bit the same numbers):
    each update on example i adds y_i K(x_i, x_j) to f - b, a cumulative sum over the
    update columns of the Gram matrix. Only the two counts per update are kept, not the
    (M + 1, n) table of values (150 ms at n = M = 2 000 with the table).
    """
    y = trace.y
    n = y.shape[0]
    columns = GramColumns(trace, trace.update_indices) if columns is None else columns
    rows = np.ascontiguousarray(columns.values.T)  # row r: K(x_j, x_i) for every j, i = index[r]
    at = columns.positions(trace.update_indices)  # the row of each update's example
    positive = y > 0
    correct = np.empty(trace.n_updates + 1, dtype=np.int64)
    wrong_side = np.empty(trace.n_updates + 1, dtype=np.int64)
    # after 0 updates f = 0 on every example: predicted -1, and y f(x) = 0 <= 0 for all
    correct[0], wrong_side[0] = int(np.count_nonzero(~positive)), n
    running = np.zeros(n)  # f - b after `done` updates
    done, last = 0, trace.n_updates
    chunk = max(1, (1 << 22) // max(n, 1))  # decision_path's blocks of updates
    # one block's values and signs, reused (a fresh 32 MB array per step costs page faults)
    block = np.empty((min(chunk, last), n))
    signs, agree = (np.empty((min(chunk, last), n), dtype=bool) for _ in range(2))
    while done < last:
        stop = min(done + chunk, last)
        ids = trace.update_indices[done:stop]
        k = stop - done
        values, positive_f, same = block[:k], signs[:k], agree[:k]
        # f_t - b_t = f_{t-1} - b_{t-1} + y_{i_t} K(x_{i_t}, x): one row per update, summed
        # in order down the rows (a cumulative sum adds one term at a time, as
        # decision_path's along its columns; x + y = y + x exactly, so the same numbers)
        np.take(rows, at[done:stop], axis=0, out=values)
        values *= y[ids][:, None]
        np.cumsum(values, axis=0, out=values)
        values += running[None, :]
        running = values[-1].copy()
        values += trace.biases[done + 1 : stop + 1][:, None]  # f_t(x_j), (k, n)
        # predicted +1 where f > 0 (sign(0) = -1); right where that is y's sign
        np.greater(values, 0, out=positive_f)
        np.equal(positive_f, positive[None, :], out=same)
        correct[done + 1 : stop + 1] = np.count_nonzero(same, axis=1)
        values *= y[None, :]  # y_j f_t(x_j)
        np.less_equal(values, 0, out=same)
        wrong_side[done + 1 : stop + 1] = np.count_nonzero(same, axis=1)
        done = stop
    return correct / n, wrong_side


def feature_norms_sq(trace: KernelTrace, columns: GramColumns | None = None) -> np.ndarray:
    """‖w_k‖² in feature space after k = 0..M updates, from the Gram matrix alone
    (``columns``: GramColumns of the run holding its updated examples, if built).

    An update on example i adds a_i = y_i (Phi(x_i), 1) to w, so
    ‖w + a_i‖² = ‖w‖² + 2 y_i f(x_i) + K~(x_i, x_i), where y_i f(x_i) is the
    score just before the update and K~ = K (+ 1 with a bias): the proof's
    second quantity (Theorem 1.28), in the feature space.
    """
    ids = trace.update_indices
    if ids.size == 0:
        return np.zeros(1)
    columns = GramColumns(trace, ids) if columns is None else columns
    # K(x_i, x_i) of each update's example: row i of its column
    diagonal = columns.values[ids, columns.positions(ids)] + (1.0 if trace.bias else 0.0)
    return np.concatenate([[0.0], np.cumsum(2.0 * trace.update_scores + diagonal)])


def feature_alignment(
    trace: KernelTrace, margin: KernelMarginResult, columns: GramColumns | None = None
) -> np.ndarray:
    """⟨w_k, u⟩ after k = 0..M updates, u the unit max-margin direction in feature space
    (``columns``: GramColumns of the run holding the margin's support, if built).

    u = p / ‖p‖ with p = sum_s lambda_s a_s the nearest point of kernel_margin;
    ⟨a_j, p⟩ = y_j sum_s lambda_s y_s K~(x_j, x_s), so each update on i adds
    ⟨a_i, u⟩ >= gamma_Phi (the proof's first quantity, Theorem 1.28).
    """
    y = trace.y.astype(float)
    support, weights = margin.support, margin.support_weights
    columns = GramColumns(trace, support) if columns is None else columns
    gram = columns.values[:, columns.positions(support)] + (1.0 if trace.bias else 0.0)  # (n, |S|)
    products = y * (gram @ (weights * y[support]))  # <a_j, p> for every j
    norm = float(np.sqrt(max(float(weights @ products[support]), 0.0)))
    along = products / norm  # <a_j, u>
    return np.concatenate([[0.0], np.cumsum(along[trace.update_indices])])


# ---------------------------------------------------------------------------
# Numbers inside a sentence that states a bound: rounded the way that keeps it true
# ---------------------------------------------------------------------------


def rounded_text(value: float, digits: int = 3, direction: str = "near") -> str:
    """``value`` to ``digits`` significant digits, rounded ``"up"``, ``"down"`` or to the
    nearest (``"near"``), in exact arithmetic (so "at most" a number rounded up stays
    true); plain decimals from 0.001 up to a million, else m × 10ᵉ."""
    value = float(value)
    if not np.isfinite(value):
        return "∞" if value > 0 else "−∞"
    if value == 0:
        return "0"
    sign, exact = ("−" if value < 0 else ""), abs(Fraction(value))
    if value < 0:  # rounding a negative number up is rounding its size down
        direction = {"up": "down", "down": "up"}.get(direction, direction)
    power = math.floor(math.log10(abs(value))) - digits + 1
    units = exact / Fraction(10) ** power
    if units >= 10**digits:  # log10 rounded up across a power of ten
        power, units = power + 1, units / 10
    elif units < 10 ** (digits - 1):
        power, units = power - 1, units * 10
    whole = {"up": math.ceil, "down": math.floor}.get(direction, round)(units)
    if whole >= 10**digits:  # 9.99 rounded up to 10.0
        power, whole = power + 1, -(-whole // 10) if direction == "up" else whole // 10
    lead = power + digits - 1  # the exponent of the leading digit
    if -3 <= lead < 6:
        if power >= 0:
            return sign + f"{whole * 10**power:,}"
        text = str(whole).rjust(-power + 1, "0")
        return sign + text[:power] + "." + text[power:]
    mantissa = str(whole)
    mantissa = mantissa[0] + ("." + mantissa[1:] if len(mantissa) > 1 else "")
    exponent = str(lead).replace("-", "⁻").translate(SUPERSCRIPT)
    return f"{sign}{mantissa} × 10{exponent}"


def _trimmed(text: str) -> str:
    """A decimal without trailing zeros after its point (2.500 -> 2.5, 3.000 × 10⁸ ->
    3 × 10⁸)."""
    number, _, power = text.partition(" × ")
    if "." in number:
        number = number.rstrip("0").rstrip(".")
    return number + (" × " + power if power else "")


def approx_text(value: float, digits: int = 4) -> str:
    """``= v`` when ``digits`` significant digits write ``value`` exactly, else ``≈ v``
    (trailing zeros dropped)."""
    text = _trimmed(rounded_text(value, digits))
    return ("= " if _text_value(text) == Fraction(float(value)) else "≈ ") + text


def _text_value(text: str) -> Fraction:
    """The number a text of :func:`rounded_text` writes, exactly."""
    number, _, power = text.replace(",", "").replace("−", "-").partition(" × 10")
    digits = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
    exponent = int(power.translate(digits)) if power else 0
    return Fraction(number) * Fraction(10) ** exponent


def most_updates_text(bound: float) -> str:
    """The most updates a bound allows, as a whole number (its floor) up to 10¹⁵; above
    that, rounded up to three digits (an "at most" stays true)."""
    if not np.isfinite(bound):
        return "∞"
    if bound < 1e15:
        return f"{math.floor(bound):,}"
    return rounded_text(bound, 3, "up")


def _number_text(value: float) -> str:
    """A setting as the student typed it (2, 0.5, 0.123456789): the shortest exact text."""
    return f"{value:g}" if float(f"{value:g}") == value else repr(float(value))


def opposite_duplicates(X, y) -> tuple[int, int] | None:
    """The first pair (i, j), i < j, of examples at the same point with opposite labels,
    or None (perceptron_core.kernels.opposite_copies). Such a pair lifts to a_j = −a_i
    for every kernel (Φ(x_i) = Φ(x_j)), so no separator exists."""
    return opposite_copies(X, y)


def _examples_text(indices, most: int = 8) -> str:
    """Examples named as a person numbers them (from 1): "examples 3, 8 and 12"; more than
    ``most`` of them: the first ones and how many more."""
    numbers = [f"{int(i) + 1:,}" for i in sorted(indices)]
    if len(numbers) == 1:
        return f"example {numbers[0]}"
    if len(numbers) > most:
        return (
            f"{len(numbers)} examples ({', '.join(numbers[: most - 2])} and "
            f"{len(numbers) - most + 2} more)"
        )
    return "examples " + ", ".join(numbers[:-1]) + " and " + numbers[-1]


def _limit_text(trace) -> str:
    """The limit a run stopped at, numbers written with separators ("the limit of 2,000
    updates")."""
    found = re.search(r"limit of (\d+) (updates|epochs)", trace.stop_reason or "")
    if found is None:
        return "its limit"
    return f"the limit of {int(found.group(1)):,} {found.group(2)}"


def _stopped_text(trace) -> str:
    """What a run that did not converge did, from the trace."""
    limit = _limit_text(trace)
    if limit.endswith(" updates"):
        return f"this run stopped at {limit}"
    return (
        f"this run stopped at {limit}, after {trace.n_updates:,} "
        f"update{'s' if trace.n_updates != 1 else ''}"
    )


def separability_state(
    trace: KernelTrace, margin: KernelMarginResult | None, proof: NoSeparatorProof | None
) -> str:
    """How the page knows whether a separator exists in feature space:

    ``"unknown"`` (the margin was not computed), ``"margin"`` (a separator with a margin
    was found, rounding allowed for), ``"proof"`` (proved impossible in exact
    arithmetic), ``"run"`` (the run itself separated the data), ``"rbf"`` (the RBF kernel
    on data where no point carries both labels: always separable), ``"undecided"``.
    """
    if margin is None:
        return "unknown"
    if margin.separable:
        return "margin"
    if proof is not None or _copies_proof(trace) is not None:
        return "proof"
    if trace.converged:
        return "run"
    if trace.kernel == "rbf" and opposite_copies(trace.X, trace.y) is None:
        return "rbf"
    return "undecided"


def _copies_proof(trace: KernelTrace) -> NoSeparatorProof | None:
    """Two copies of a point with opposite labels, as a proof (cheap to find, exact)."""
    copies = opposite_copies(trace.X, trace.y)
    return (
        None
        if copies is None
        else NoSeparatorProof(
            examples=np.asarray(copies), weights=(Fraction(1, 2), Fraction(1, 2)), same_point=True
        )
    )


def _proof_text(trace: KernelTrace, proof: NoSeparatorProof | None) -> str:
    """Why no separator exists, from the exact proof (or two copies of one point)."""
    proof = proof if proof is not None else _copies_proof(trace)
    if proof is None:
        raise ValueError(
            "no proof that these data have no separator was given, and no point carries "
            "both labels; pass the proof from kernel_no_separator_proof."
        )
    padded = "yᵢ(Φ(xᵢ), 1)" if trace.bias else "yᵢΦ(xᵢ)"
    if proof.same_point:
        i, j = (int(k) for k in proof.examples)
        why = (
            f"Examples {i + 1:,} and {j + 1:,} are the same point with opposite labels, "
            "so every kernel gives them the same features and no f has y f(x) > 0 on "
            "both"
        )
    elif len(proof.examples) == 1:
        why = (
            f"Example {int(proof.examples[0]) + 1:,} lifts to aᵢ = {padded} = 0 exactly, "
            "so y f(x) = 0 there for every f"
        )
    else:
        why = (
            f"No hyperplane through the origin of feature space has every lifted example "
            f"aᵢ = {padded} strictly on its positive side (γ_Φ = 0): a convex combination "
            f"of the lifted {_examples_text(proof.examples)} is exactly 0 (solved in "
            "exact rational arithmetic on the stored values), so for every w one of "
            "them has ⟨aᵢ, w⟩ ≤ 0"
        )
    run = "" if trace.converged else f"; {_stopped_text(trace)}"
    return (
        f" {why}. Then no f has y f(x) > 0 on every example: the perceptron never "
        f"stops on these data{run}, and no mistake bound applies."
    )


def _hull_text(margin: KernelMarginResult) -> str:
    """How close the hull of the lifted examples came to the origin, rounded up."""
    return (
        f"the hull of the lifted examples (the smallest convex set holding them all) "
        f"comes within {rounded_text(margin.hull_distance, 2, 'up')} of the origin "
        "(floating point, its rounding allowed for)"
    )


def _at_least_bound_text(margin: KernelMarginResult) -> str:
    """(R_Φ / distance)², the least Theorem 1.28's bound can be when γ_Φ ≤ distance."""
    least = (margin.radius / margin.hull_distance) ** 2 * (1 - 1e-12)
    return rounded_text(least, 2, "down")


def _no_separator_found_text(
    trace: KernelTrace,
    margin: KernelMarginResult,
    proof: NoSeparatorProof | None,
    state: str,
    proof_stopped: bool = False,
) -> str:
    """What a run can be told when the margin computation found no separator."""
    if state == "proof":
        return _proof_text(trace, proof)
    found = (
        f" The margin computation found no separator in feature space: {_hull_text(margin)}, "
        f"so γ_Φ ≤ {rounded_text(margin.hull_distance, 2, 'up')}."
    )
    if state == "run":
        return (
            found + " Yet this run ended with y f(x) > 0 for every example, so a separator "
            "exists: γ_Φ is positive but that small, Theorem 1.28's bound "
            f"(R_Φ/γ_Φ)² is at least {_at_least_bound_text(margin)}, and none is shown."
        )
    if state == "rbf":
        return (
            found + " Yet with the RBF kernel, data in which no point carries both "
            "labels are always separable in feature space (on the distinct points the "
            "table of values K(xᵢ, xⱼ) is positive definite, so some f has f(x) = y at "
            "every example): γ_Φ is positive but that small, so Theorem 1.28's bound "
            f"(R_Φ/γ_Φ)² is at least {_at_least_bound_text(margin)}; "
            f"{_stopped_text(trace)}, well within it."
        )
    checked = (
        "no proof in exact arithmetic that none exists either (the search for one "
        "was stopped: it needs more computing than this part of the page may use on "
        "this shared server)"
        if proof_stopped
        else "nor a proof in exact arithmetic that none exists"
    )
    return (
        found + f" It found {checked}: the data may be not separable, or separable "
        "only with a margin that small, when Theorem 1.28's bound (R_Φ/γ_Φ)² would be "
        f"at least {_at_least_bound_text(margin)}. No bound is shown; "
        f"{_stopped_text(trace)}."
    )


def _margin_text(trace: KernelTrace, margin: KernelMarginResult) -> str:
    """R_Φ, γ_Φ and Theorem 1.28's bound, each number rounded the way that keeps the
    sentence true."""
    longest = "(Φ(x), 1)" if trace.bias else "Φ(x)"
    gamma = (
        f"the best margin γ_Φ {approx_text(margin.margin)}"
        if margin.best
        else f"a separator with margin γ_Φ ≥ {rounded_text(margin.margin, 4, 'down')} "
        "(the best may be larger)"
    )
    return (
        f" In feature space R_Φ {approx_text(margin.radius)} (the longest {longest}) and "
        f"{gamma}, so Theorem 1.28 (started at w = 0 and updating when y f(x) ≤ 0, the "
        "perceptron makes at most (R/γ)² updates on data of radius R that a unit "
        f"vector separates with margin γ > 0) allows at most "
        f"{most_updates_text(margin.bound)} updates: (R_Φ/γ_Φ)² "
        f"{approx_text(margin.bound, 6)}."
    )


def _end_text(
    trace: KernelTrace,
    margin: KernelMarginResult | None,
    proof: NoSeparatorProof | None = None,
    proof_stopped: bool = False,
) -> str:
    state = separability_state(trace, margin, proof)
    if trace.converged:
        text = (
            f"Converged after {trace.n_updates:,} update{'s' if trace.n_updates != 1 else ''} "
            f"in {trace.epochs:,} epoch{'s' if trace.epochs != 1 else ''} (rounds of n "
            "examined examples): every training example has y f(x) > 0."
        )
        if margin is None:  # state "unknown": nothing to add about a separator
            return text
        if state == "margin":
            text += (
                f" Theorem 1.28 in feature space allowed at most "
                f"{most_updates_text(margin.bound)}; {trace.n_updates:,} "
                f"{'was' if trace.n_updates == 1 else 'were'} needed."
            )
        else:
            text += _no_separator_found_text(trace, margin, proof, state, proof_stopped)
        return text
    text = (
        f"Stopped without converging: no separator found after {trace.n_updates:,} "
        f"updates ({_limit_text(trace)})."
    )
    if margin is None:  # state "unknown"
        return text
    if state == "margin":
        cap = most_updates_text(margin.bound)
        if margin.bound > trace.n_updates:
            text += (
                " The data are separable in this feature space, but Theorem 1.28 allows up "
                f"to {cap} updates, more than the {trace.n_updates:,} this run made "
                "before its limit."
            )
        else:
            text += (
                " The data are separable in this feature space and the run stayed "
                f"within Theorem 1.28's {cap} updates; it reached its limit on examined "
                "examples first."
            )
    else:
        text += _no_separator_found_text(trace, margin, proof, state, proof_stopped)
    return text


def _facts(
    trace: KernelTrace,
    margin: KernelMarginResult | None,
    proof: NoSeparatorProof | None = None,
    proof_stopped: bool = False,
) -> str:
    text = f"Kernel {kernel_text(trace)}" + (
        "; bias b learnt (K + 1)." if trace.bias else "; no bias."
    )
    state = separability_state(trace, margin, proof)
    if margin is None:  # state "unknown"
        return text + (
            " The margin in feature space was not computed (it took too long "
            "on this server), so no bound is shown."
        )
    if state == "margin":
        return text + _margin_text(trace, margin)
    return (
        text
        + f" In feature space R_Φ {approx_text(margin.radius)}."
        + _no_separator_found_text(trace, margin, proof, state, proof_stopped)
    )


def player_payload(
    trace: KernelTrace,
    margin: KernelMarginResult | None,
    *,
    limit: float,
    player: dict,
    grid: int = GRID,
    proof: NoSeparatorProof | None = None,
    proof_stopped: bool = False,
) -> dict:
    """Everything the /kernels player shows, for one kernel perceptron run (JSON-ready).

    Parameters
    ----------
    trace : KernelTrace of ``kernel_perceptron`` on 2-D data (trace.X of shape (n, 2))
    margin : KernelMarginResult of ``kernel_margin`` for the same data, kernel and bias
        (None: not computed)
    limit : float, half-width of the square view [-limit, limit]²
    player : dict from ``viz.player.player_spec``
    grid : points per side of the grid on which the browser evaluates f
    proof : NoSeparatorProof of ``kernel_no_separator_proof`` for the same data, kernel
        and bias, or None (none found, or not computed)
    proof_stopped : whether the search for that proof was stopped (past its counted work)

    Returns
    -------
    dict with the data, the kernel (name and parameters, evaluated in the browser
    exactly as the core does), the updates (indices, steps, scores y f(x) before
    each (M,), biases b (M+1,), accuracy (M+1,), wrong_side (M+1,), norm_sq (M+1,),
    alignment (M+1,) or None), the example examined at each step, the bound and texts.
    """
    from .player import encode_indices

    X = np.asarray(trace.X, dtype=float)
    y = np.asarray(trace.y, dtype=int)
    # the margin result whose bound applies: computed, and a separator found
    separated = margin if margin is not None and margin.separable else None
    # the Gram matrix's columns once, for the accuracy, ‖w‖² and ⟨w, u⟩
    columns = GramColumns(
        trace,
        np.concatenate([trace.update_indices, [] if separated is None else separated.support]),
    )
    accuracy, wrong_side = training_accuracy(trace, columns)
    steps = np.arange(1, trace.n_examined + 1)
    cyclic = trace.order == "cyclic"
    examined = encode_indices(
        trace.indices_at_steps(steps) if steps.size and not cyclic else [], len(y), cyclic=cyclic
    )
    norm_sq = feature_norms_sq(trace, columns)
    return {
        "player": player,
        "X": X.tolist(),
        "y": y.tolist(),
        "limit": float(limit),
        "grid": int(grid),
        "kernel": {
            "name": trace.kernel,
            "degree": int(trace.degree),
            "coef0": float(trace.coef0),
            "scale": float(trace.scale),
            "text": kernel_text(trace),
        },
        "bias": bool(trace.bias),
        "examined": examined,
        "updates": {
            "indices": [int(i) for i in trace.update_indices],
            "steps": [int(s) for s in trace.update_steps],
            "scores": [float(s) for s in trace.update_scores],
            "biases": [float(b) for b in trace.biases],
            "accuracy": accuracy.tolist(),
            "wrong_side": [int(v) for v in wrong_side],
            "norm_sq": norm_sq.tolist(),
            "alignment": (
                None if separated is None else feature_alignment(trace, separated, columns).tolist()
            ),
        },
        "converged": bool(trace.converged),
        "bound": None if separated is None else _bound_payload(separated),
        "facts": _facts(trace, margin, proof, proof_stopped),
        "end_text": _end_text(trace, margin, proof, proof_stopped),
    }


def _bound_payload(margin: KernelMarginResult) -> dict:
    """Theorem 1.28's bound in feature space for the player, from a margin result that
    found a separator."""
    return {
        "radius": float(margin.radius),
        "margin": float(margin.margin),
        "value": float(margin.bound),
        "best": bool(margin.best),
        # the progress bar's words: at most this many updates, (R_Φ/γ_Φ)² ≈ ...
        "most_text": most_updates_text(margin.bound),
        "value_text": approx_text(margin.bound, 6),
        "radius_text": approx_text(margin.radius),
        "margin_text": (
            approx_text(margin.margin)
            if margin.best
            else "≥ " + rounded_text(margin.margin, 4, "down")
        ),
    }


# ---------------------------------------------------------------------------
# Lifting: a feature map to 3-D, the plane found there, its preimage in the plane
# ---------------------------------------------------------------------------

#: name -> (third coordinate as a function of x1, x2, its formula)
LIFTS = {
    "squared_norm": (lambda a, b: a * a + b * b, "x₁² + x₂²"),
    "product": (lambda a, b: a * b, "x₁·x₂"),
    "constant": (lambda a, b: np.ones_like(a), "1"),
}


def lift(X, name: str) -> np.ndarray:
    """Φ(x) = (x₁, x₂, z(x₁, x₂)) for the lift ``name`` of :data:`LIFTS`, shape (n, 3)."""
    X = np.asarray(X, dtype=float)
    third, _ = LIFTS[name]
    return np.column_stack([X[:, 0], X[:, 1], third(X[:, 0], X[:, 1])])


def _class_traces_3d(Z, y) -> list[dict]:
    traces = []
    for label, name in ((1, "class +1"), (-1, "class −1")):
        members = y == label
        marker = style.class_marker(label)
        traces.append(
            dict(
                type="scatter3d",
                x=Z[members, 0],
                y=Z[members, 1],
                z=Z[members, 2],
                mode="markers",
                name=name,
                marker=dict(
                    color=marker["color"], size=4, symbol="circle" if label > 0 else "square"
                ),
            )
        )
    return traces


def lift_figure(
    X, y, name: str, w, b, *, limit: float, height: int = 520, through_origin: bool = False
) -> go.Figure:
    """The lifted points in 3-D and the plane w·Φ + b = 0 found there.

    Built as plain dicts (``style.figure_without_validation``): the page builds it on every
    run with the part open, for new data on every link, and Plotly's validation was most
    of the server's work for /kernels.

    Parameters
    ----------
    X : ndarray (n, 2); y : ndarray (n,) in {-1, +1}
    name : key of LIFTS
    w : ndarray (3,), b : float, the separator in the lifted space (None: none drawn)
    limit : half-width of the square the plane is drawn over
    through_origin : draw the plane down to z = 0 and mark the origin (the bias trick)
    """
    y = np.asarray(y)
    Z = lift(X, name)
    traces = _class_traces_3d(Z, y)
    if w is not None and abs(w[2]) > 1e-12:
        axis = np.linspace(-limit, limit, 25)
        gx, gy = np.meshgrid(axis, axis)
        # the plane w·Φ + b = 0 solved for its third coordinate: z = −(w₁x₁ + w₂x₂ + b)/w₃
        gz = -(w[0] * gx + w[1] * gy + b) / w[2]
        span = (float(Z[:, 2].min()), float(Z[:, 2].max()))
        if through_origin:
            span = (min(span[0], 0.0), max(span[1], 0.0))
        pad = 0.3 * max(span[1] - span[0], 0.5)
        gz = np.where((gz >= span[0] - pad) & (gz <= span[1] + pad), gz, np.nan)
        traces.append(
            dict(
                type="surface",
                x=gx,
                y=gy,
                z=gz,
                showscale=False,
                opacity=0.45,
                colorscale=[[0, style.WEIGHT], [1, style.WEIGHT]],
                name="separating plane",
                showlegend=True,
                hoverinfo="skip",
            )
        )
    if through_origin:
        traces.append(
            dict(
                type="scatter3d",
                x=[0],
                y=[0],
                z=[0],
                mode="markers",
                name="origin",
                marker=dict(color=style.HYPERPLANE, size=6, symbol="diamond"),
            )
        )
    layout = style.base_layout_spec(height=height)

    def axis_spec(title: str) -> dict:
        return dict(title=dict(text=title, font=dict(size=14)), tickfont=dict(size=11))

    layout.update(
        margin=dict(l=0, r=0, t=10, b=0, autoexpand=False),
        scene=dict(
            xaxis=axis_spec("x₁"),
            yaxis=axis_spec("x₂"),
            zaxis=axis_spec("z = " + LIFTS[name][1]),
            aspectmode="cube",
            camera=dict(eye=dict(x=1.5, y=-1.6, z=0.9)),
        ),
        uirevision=name,
        legend=layout["legend"] | dict(font=dict(size=14)),
        meta={WORDS_KEY: lift_words(Z, y, name, w, b)},
    )
    return style.figure_without_validation(traces, layout)


def preimage_figure(
    X, y, name: str, w, b, *, limit: float, height: int = 520, grid: int = 161
) -> go.Figure:
    """The data in the plane with the preimage {x : w·Φ(x) + b = 0} of the lifted plane.

    The curve is the zero level of g(x) = w₁x₁ + w₂x₂ + w₃ z(x) + b on a grid: a
    circle or ellipse for z = x₁² + x₂², a hyperbola for z = x₁x₂, a line for z = 1.
    Built as plain dicts, as :func:`lift_figure`. The predicted class on the grid is sent
    as bytes (0 or 1, uint8): the same cells and colours in an eighth of the JSON.
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    traces = []
    if w is not None:
        axis = np.linspace(-limit, limit, grid)
        gx, gy = np.meshgrid(axis, axis)
        third, _ = LIFTS[name]
        values = w[0] * gx + w[1] * gy + w[2] * third(gx, gy) + b
        # predicted +1 where g > 0, -1 elsewhere (sign(0) = -1)
        traces.append(
            dict(
                type="heatmap",
                x=axis,
                y=axis,
                z=(values > 0).astype(np.uint8),
                zmin=0,
                zmax=1,
                showscale=False,
                colorscale=[[0, style.NEGATIVE_FILL], [1, style.POSITIVE_FILL]],
                hoverinfo="skip",
                showlegend=False,
            )
        )
        traces.append(
            dict(
                type="contour",
                x=axis,
                y=axis,
                z=values,
                showscale=False,
                hoverinfo="skip",
                contours=dict(start=0, end=0, size=1, coloring="none"),
                line=dict(color=style.HYPERPLANE, width=3),
                name="where the plane cuts: w·Φ(x) + b = 0",
                showlegend=True,
            )
        )
    for label, label_name in ((1, "class +1"), (-1, "class −1")):
        members = y == label
        traces.append(
            dict(
                type="scatter",
                x=X[members, 0],
                y=X[members, 1],
                mode="markers",
                name=label_name,
                marker=style.class_marker(label),
            )
        )
    layout = style.base_layout_spec(height=height)
    layout.update(
        xaxis=dict(range=[-limit, limit], title=dict(text="x₁"), constrain="domain"),
        yaxis=dict(
            range=[-limit, limit],
            title=dict(text="x₂"),
            scaleanchor="x",
            scaleratio=1,
            constrain="domain",
        ),
        margin=dict(l=70, r=10, t=10, b=60, autoexpand=False),
        legend=layout["legend"] | dict(font=dict(size=14)),
        meta={WORDS_KEY: preimage_words(X, y, name, w, b, limit)},
    )
    return style.figure_without_validation(traces, layout)


def _wrong_side_text(scores, y) -> str:
    """How many points a separator puts on the wrong side (a score y·g ≤ 0), in words."""
    wrong = int(np.sum(np.asarray(y) * np.asarray(scores) <= 0))
    return (
        "every point is on its class's side"
        if wrong == 0
        else f"{wrong} of the {len(y)} points {'is' if wrong == 1 else 'are'} on the wrong side "
        "(or on it)"
    )


def _linear_text(values, names) -> str:
    """ "0.52·x₁ − 0.3·x₂ + 1.2": three significant digits a term, zero terms left out."""
    terms = [
        (float(v), name)
        for v, name in zip(values, names, strict=True)
        if f"{abs(float(v)):.3g}" != "0"
    ]
    if not terms:
        return "0"
    text = ""
    for k, (value, name) in enumerate(terms):
        sign = ("−" if value < 0 else "") if k == 0 else (" − " if value < 0 else " + ")
        text += f"{sign}{abs(value):.3g}".replace("e-", "e−") + name
    return text


def lift_words(Z, y, name: str, w, b) -> str:
    """The 3-D lift in words: the plane found solved for the lifted coordinate, on which
    side of it each class lies, and how many points are on the wrong side."""
    third = LIFTS[name][1]
    if w is None:
        return "No plane is drawn: the perceptron stopped without separating the lifted points."
    if abs(w[2]) <= 1e-12:
        return (
            f"The plane found does not depend on z = {third} (its third weight is 0): it "
            "stands upright over the line w₁x₁ + w₂x₂ + b = 0, as a line in the plane "
            "would."
        )
    scores = np.asarray(Z) @ np.asarray(w[:3], float) + b
    plane = "z = " + _linear_text([-w[0] / w[2], -w[1] / w[2], -b / w[2]], ["·x₁", "·x₂", ""])
    above, below, larger = (
        ("above", "below", "larger") if w[2] > 0 else ("below", "above", "smaller")
    )
    return (
        f"The plane found is {plane}, with z = {third} the lifted coordinate: it "
        f"predicts +1 {above} it ({larger} z) and −1 {below} it; "
        f"{_wrong_side_text(scores, y)}."
    )


def preimage_words(X, y, name: str, w, b, limit: float, grid: int = 60) -> str:
    """Where the plane's cut runs in the square, in words: which part the perceptron
    predicts +1 (region_words, from the same g as the picture), and the points on the
    wrong side."""
    if w is None:
        return "No curve is drawn: the perceptron stopped without separating the lifted points."
    axis = np.linspace(-limit, limit, grid)
    gx, gy = np.meshgrid(axis, axis[::-1])  # row 0 at the top of the square
    third, _ = LIFTS[name]
    values = w[0] * gx + w[1] * gy + w[2] * third(gx, gy) + b
    X = np.asarray(X, float)
    scores = w[0] * X[:, 0] + w[1] * X[:, 1] + w[2] * third(X[:, 0], X[:, 1]) + b
    names = {1: "w·Φ(x) + b > 0 (predicted +1)", -1: "w·Φ(x) + b ≤ 0 (predicted −1)"}
    regions = region_words(np.where(values > 0, 1, -1), names)
    return f"{regions} The curve w·Φ(x) + b = 0 runs between them; {_wrong_side_text(scores, y)}."


# ---------------------------------------------------------------------------
# The monotone-conjunction kernel: explicit features against the kernel
# ---------------------------------------------------------------------------


def timing_figure(bits, explicit_seconds, kernel_seconds, *, height: int = 420) -> go.Figure:
    """Time for one Gram matrix: explicit 2ⁿ features against 2^|Ones| (log y axis).

    explicit_seconds may hold NaN where the explicit way was not run (over budget).
    Built as plain dicts, as :func:`lift_figure`.
    """
    bits = np.asarray(bits)
    explicit = np.asarray(explicit_seconds, dtype=float) * 1e3
    kernel = np.asarray(kernel_seconds, dtype=float) * 1e3
    traces = [
        dict(
            type="scatter",
            x=bits,
            y=explicit,
            mode="lines+markers",
            name="written out: Φ(x)·Φ(z)",
            line=dict(color=style.NEGATIVE, width=3),
            marker=dict(symbol="square", size=9),
        ),
        dict(
            type="scatter",
            x=bits,
            y=kernel,
            mode="lines+markers",
            name="kernel: 2^|Ones(x, z)|",
            line=dict(color=style.POSITIVE, width=3),
            marker=dict(size=9),
        ),
    ]
    layout = style.base_layout_spec(height=height)
    layout.update(
        xaxis=dict(title=dict(text="bits d")),
        yaxis=dict(title=dict(text="milliseconds (log scale)"), type="log", dtick=1),
    )
    return style.figure_without_validation(traces, layout)


# ---------------------------------------------------------------------------
# The page's menus and texts (pages/kernels.py shows them)
# ---------------------------------------------------------------------------

#: generated data sets: link value -> what they are
GENERATED = {"circles": "two circles", "xor": "XOR (four corners)", "blobs": "two blobs"}
#: every data source: link value -> what it is
DATA = GENERATED | {"upload": "your CSV file", "draw": "points you click on a chart"}
#: kernels on the menu: link value -> name
KERNEL_MENU = {"linear": "linear", "poly": "polynomial", "rbf": "RBF (Gaussian)"}
#: feature maps to 3-D on the menu: link value -> what they add
LIFT_MENU = {"auto": "auto", "squared_norm": "z = x₁² + x₂²", "product": "z = x₁·x₂"}

# The page's texts are plain text with Unicode (bold upright w), not KaTeX: a Markdown element
# with math waits for KaTeX's 265 kB script before it paints, and SUMMARY is the largest thing
# the first view paints. Italic emphasis is bold: italic costs a 138 kB font.
SUMMARY = (
    "The perceptron only ever adds examples to **w**: with αᵢ the number of updates example i "
    "caused, **w** = Σᵢ αᵢ yᵢ xᵢ, so every score **w** · x is a sum of inner products xᵢ · x. "
    "Replace each inner product by a kernel K(x, z) = Φ(x) · Φ(z) and the same algorithm runs "
    "on the features Φ(x), which may have many more coordinates than x, without ever writing "
    "Φ(x) down. A flat boundary there is a curved one here (unless Φ is linear, as for the "
    "linear kernel or degree 1). The rule becomes f(x) = Σᵢ αᵢ yᵢ K(xᵢ, x) + b, and an "
    "update on xᵢ (when yᵢ f(xᵢ) ≤ 0) adds 1 to αᵢ."
)

PLAYER_TEXT = (
    "The colours show f(x) on the whole square, the black curve is f(x) = 0 (the "
    "boundary), and the light halo round each point grows with its αᵢ (up to a "
    "cap, so it never hides the data). The picture is drawn in your browser from the "
    "list of updates."
)

DUAL_TEXT = (
    "The perceptron never needs **w** itself: **w** = Σᵢ αᵢ yᵢ xᵢ, so "
    "**w** · x = Σᵢ αᵢ yᵢ (xᵢ · x) (eq. 1). Storing the counts αᵢ instead of **w** is the "
    "**dual** perceptron. Below, the dual run with the linear kernel K(x, z) = x · z is "
    "checked against the ordinary (primal) run on the data above, with the same bias "
    "setting, order and limits."
)

CONJUNCTION_TEXT = (
    "For bit vectors x, z ∈ {0, 1}ᵈ let Φ(x) list the value of every monotone conjunction "
    "(an AND of some of the bits, the empty one being 1): 2ᵈ features. Φ(x) · Φ(z) counts "
    "the conjunctions true on both, and a conjunction is true on both exactly when all its "
    "bits are 1 in x and in z: any subset of Ones(x, z), the positions where both are 1. So "
    "K(x, z) = 2^|Ones(x, z)|, two to the number of such positions (Claim 2.1): one pass "
    "over the d bits, O(d) time, where writing Φ(x) out takes 2ᵈ entries."
)

#: digits written as exponents (2³⁰) and as indices (x₁)
SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")

LEARN_TEXT = (
    "**Learn a target over d bits.** The label is a monotone conjunction or "
    "disjunction of the first r bits. Both are linear in Φ: a conjunction is one "
    "coordinate of Φ, a disjunction a sum of coordinates with signs "
    "(inclusion–exclusion, e.g. x₁ ∨ x₂ = x₁ + x₂ − x₁∧x₂), and the empty "
    "conjunction 1 is a coordinate too. So the labels are separable in the 2ᵈ "
    "features, and the kernel perceptron, run there without a bias, stops after "
    "finitely many updates (Theorem 1.28)."
)


def export_caption(max_updates: int, max_epochs: int) -> str:
    """The caption beside the offline player's download button: both of a run's limits."""
    return (
        f"A run that has not converged stops at {max_updates:,} updates or "
        f"{max_epochs:,} epochs (rounds of n examined examples), whichever comes first. "
        "The HTML file holds this run and the player (buttons, keys, Play): open it in "
        "any browser, with no server or internet."
    )


def data_label(name: str, n: int, data_seed: int, noise: float, flipped: int = 0) -> str:
    """How generated data are named on the page and in the offline player's title: the
    chance of a flip the slider set and the number of labels it flipped."""
    flips = (
        f", each label flipped with chance {_number_text(noise)}: {flipped:,} flipped"
        if noise
        else ""
    )
    return f"{GENERATED[name]}, n = {n:,}, seed {data_seed}{flips}"


#: the RBF scale at or below which the margin in feature space was quick to compute
#: (measured with kernel_margin on circles, XOR and blobs, n = 200 and 400, 0 and 30 %
#: flipped labels: at most 0.25 s of CPU at κ ≤ 0.5; from κ = 2 up, seconds to minutes
#: on noisy data, and over a second at κ = 50 even without noise)
QUICK_RBF_SCALE = 0.5


def slow_margin_text(
    n: int, seconds: float, noise: float = 0.0, kernel: str = "rbf", scale: float = 1.0
) -> str:
    """Why no bound is shown when the margin in feature space needs too much work, and what
    makes it quicker, among the settings on screen: fewer points, less label noise (when
    some is set) and, for the RBF kernel above QUICK_RBF_SCALE only, a smaller κ (wider
    bumps; measured, see QUICK_RBF_SCALE; the polynomial kernel's κ hardly changes the
    time)."""
    quicker = ["fewer points (n)"] + (["less label noise"] if noise > 0 else [])
    if kernel == "rbf" and scale > QUICK_RBF_SCALE:
        quicker.append(f"a smaller κ (κ ≤ {QUICK_RBF_SCALE:g} was quick in our measurements)")
    fewer = ", ".join(quicker[:-1]) + " or " + quicker[-1] if len(quicker) > 1 else quicker[0]
    return (
        f"The margin in feature space for these {n:,} points needs more than about "
        f"{seconds:g} s of computing (counted from the steps of Wolfe's algorithm), the "
        f"most this part of the page may use on this shared server, so no bound is shown. "
        f"{fewer[0].upper() + fewer[1:]} may let it finish."
    )


# ---------------------------------------------------------------------------
# The dual perceptron: the same mistakes as the primal one (eq. 1)
# ---------------------------------------------------------------------------


def dual_check(X, y, bias: bool, order: str, seed: int, max_updates: int) -> dict:
    """The linear-kernel run and ``run_perceptron`` on the same data, order and limits.

    Returns a dict: ``dual`` (KernelTrace), ``primal`` (Trace), ``w_dual`` = Σ αᵢ yᵢ xᵢ,
    shape (2,) (eq. 1), ``difference`` (:func:`runs_difference`: None when the runs
    agree) and ``same`` (they agree).
    """
    limits = dict(bias=bias, order=order, seed=seed, max_updates=max_updates, max_epochs=500)
    dual = kernel_perceptron(X, y, kernel="linear", **limits)
    primal = run_perceptron(X, y, **limits)
    difference = runs_difference(primal, dual, X, y)
    # w = Σ α_i y_i x_i (eq. 1) from the dual run, against the primal w
    return dict(
        dual=dual,
        primal=primal,
        same=difference is None,
        difference=difference,
        w_dual=(dual.alphas * np.asarray(y)) @ np.asarray(X, dtype=float),
    )


def runs_difference(primal, dual, X, y) -> str | None:
    """Where the dual run departs from the primal one, in words, or None if they agree.

    They agree when they update on the same examples at the same steps and, up to
    rounding, record the same scores and end at the same w = Σ αᵢ yᵢ xᵢ. Both
    compute exactly defined numbers in floating point, in different orders, so a
    number may differ by its rounding error: :class:`ScoreRounding`'s slack (16 ulps
    of the sum of the sizes of the terms) for each of the two runs.
    """
    X = np.asarray(X, dtype=float)
    steps_p, steps_d = primal.update_steps, dual.update_steps
    ids_p, ids_d = primal.update_indices, dual.update_indices
    common = min(ids_p.size, ids_d.size)
    differs = np.flatnonzero(
        (ids_p[:common] != ids_d[:common]) | (steps_p[:common] != steps_d[:common])
    )
    if differs.size or ids_p.size != ids_d.size:
        k = int(differs[0]) if differs.size else common
        said = [
            f"{name} run: "
            + (
                f"on example {int(ids[k]) + 1} at step {int(steps[k]):,}"
                if k < ids.size
                else "none (it stopped)"
            )
            for name, ids, steps in (("primal", ids_p, steps_p), ("dual", ids_d, steps_d))
        ]
        return f"update {k + 1:,} differs ({'; '.join(said)})."
    rounding = ScoreRounding(row_norms(X))
    for k, (index, b) in enumerate(zip(ids_p.tolist(), primal.biases[:-1].tolist())):
        slack = 2 * rounding.slack(b)  # each run may be off by its slack
        if abs(primal.update_scores[k] - dual.update_scores[k]) > slack:
            return (
                f"update {k + 1:,} has score {primal.update_scores[k]:.6g} in the primal "
                f"run and {dual.update_scores[k]:.6g} in the dual one."
            )
        rounding.add(index)
    w_dual = (dual.alphas * np.asarray(y)) @ X
    if np.abs(w_dual - primal.weights[-1]).max(initial=0.0) > 2 * rounding.slack(0.0):
        return "the final w differs: Σ αᵢ yᵢ xᵢ is not the primal run's w."
    return None


def dual_verdict(check: dict) -> str:
    """Whether the two runs made the same updates, in words."""
    if check["same"]:
        return (
            f"Checked: both runs make the same {check['primal'].n_updates:,} updates, on "
            "the same examples at the same steps."
        )
    return f"The two runs differ: {check['difference']}"


def dual_metrics(check: dict, bias: bool) -> list[tuple[str, str]]:
    """(label, value) of the four numbers shown under the verdict."""
    primal, w_dual, n = check["primal"], check["w_dual"], len(check["dual"].alphas)
    return [
        (
            "primal w (run_perceptron)",
            f"({primal.weights[-1][0]:.3f}, {primal.weights[-1][1]:.3f})".replace("-", "−"),
        ),
        ("dual Σ αᵢ yᵢ xᵢ", f"({w_dual[0]:.3f}, {w_dual[1]:.3f})".replace("-", "−")),
        ("b (both)" if bias else "b", f"{primal.biases[-1]:.0f}" if bias else "0 (off)"),
        ("examples with α > 0", f"{int(np.count_nonzero(check['dual'].alphas))} of {n}"),
    ]


def dual_limit_text(check: dict) -> str | None:
    """Why both runs stopped without separating the data, when they agree and neither
    converged (None otherwise)."""
    primal, dual = check["primal"], check["dual"]
    if not check["same"] or primal.converged or dual.converged:
        return None
    return (
        "With the linear kernel neither run separated these data: both stopped at "
        f"{_limit_text(primal)}, making the same updates until then."
    )


# ---------------------------------------------------------------------------
# Lifting, as a section: the run in 3-D and what it says
# ---------------------------------------------------------------------------

#: the lifts' third coordinates as polynomials {exponents: coefficient}, for exact arithmetic
LIFT_POLYNOMIALS = {
    "squared_norm": {(2, 0): 1, (0, 2): 1},
    "product": {(1, 1): 1},
    "constant": {(0, 0): 1},
}
#: the plane's coordinates x₁ and x₂ as polynomials
PLANE = ({(1, 0): 1}, {(0, 1): 1})


def lift_name_for(choice: str, dataset: str) -> str:
    """The lift a menu choice means ("auto": the product for XOR, else the squared norm)."""
    if choice != "auto":
        return choice
    return "product" if dataset == "xor" else "squared_norm"


@dataclass(frozen=True)
class Separation:
    """Whether a hyperplane separates some points, and how that was decided.

    separable : True (a candidate separator checked in exact arithmetic), False (a proof in
        exact arithmetic that none exists), None (neither was found)
    margin : the separator's margin (max_margin) when separable, else None
    w, b : the separator that was checked (None when not separable)
    proof : NoSeparatorProof when not separable
    hull_distance : when undecided, how close the hull of the points y(z, 1) (y z without a
        bias) came to the origin (rounded up)
    """

    separable: bool | None
    margin: float | None = None
    w: np.ndarray | None = None
    b: float = 0.0
    proof: NoSeparatorProof | None = None
    hull_distance: float = 0.0


def separation(X, y, features, bias: bool, candidates=()) -> Separation:
    """Decide whether a hyperplane (with a bias, or through the origin) separates the points
    features(x) in exact arithmetic where possible.

    ``features``: polynomials (as perceptron_core.kernels.polynomial_features gives them);
    ``candidates``: (w, b, margin) triples to check exactly, e.g. the best separator
    max_margin found and a perceptron run's final weights. Failing those, the hull of the
    padded points is searched for an exact convex combination equal to 0.
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    for w, b, margin in candidates:
        if w is None or not np.all(np.isfinite(w)) or not np.isfinite(b):
            continue
        if separates_exactly(X, y, features, w, b if bias else 0.0):
            return Separation(True, margin=margin, w=np.asarray(w, dtype=float), b=float(b))
    Z = np.column_stack([_float_values(X, polynomial) for polynomial in features])
    copies = opposite_copies(X, y)
    if copies is not None:
        same = NoSeparatorProof(
            examples=np.asarray(copies), weights=(Fraction(1, 2), Fraction(1, 2)), same_point=True
        )
        return Separation(False, proof=same)
    hull = kernel_margin(Z, y, kernel="linear", bias=bias)
    proof = no_separator_proof(X, y, features, bias, hull.support, hull.support_weights)
    if proof is not None:
        return Separation(False, proof=proof)
    return Separation(None, hull_distance=hull.hull_distance)


def _float_values(X, polynomial: dict) -> np.ndarray:
    """A polynomial feature of every row of X, in floating point (for the solvers)."""
    total = np.zeros(X.shape[0])
    for exponents, coefficient in polynomial.items():
        term = np.full(X.shape[0], float(coefficient))
        for column, power in enumerate(exponents):
            if power:
                term = term * X[:, column] ** power
        total = total + term
    return total


def lifted_run(X, y, lift_name: str, max_updates: int) -> tuple:
    """(the data in the plane: a Separation, the lifted data: a Separation, the perceptron's
    run on the lifted points with a bias, the other lift's Separation or None).

    The other lift (z = x₁·x₂ against z = x₁² + x₂²) is decided only when this one does
    not separate the data, so the page can say whether it would.
    """
    X = np.asarray(X, dtype=float)
    plane = max_margin(X, y)
    flat = separation(
        X, y, PLANE, True, [(plane.w, plane.b, plane.margin)] if plane.separable else []
    )
    Z = lift(X, lift_name)
    trace = run_perceptron(Z, y, bias=True, max_updates=max_updates, max_epochs=500)
    lifted = _lift_separation(X, y, lift_name, Z, trace)
    other = None
    if not lifted.separable and lift_name in ("squared_norm", "product"):
        other_name = "product" if lift_name == "squared_norm" else "squared_norm"
        other = _lift_separation(X, y, other_name, lift(X, other_name), None)
    return flat, lifted, trace, other


def _lift_separation(X, y, name: str, Z, trace) -> Separation:
    """Whether a plane separates the points lifted by ``name``: the best plane and the
    run's final plane (if it converged) checked exactly, else a proof searched for."""
    best = max_margin(Z, y)
    candidates: list[tuple[np.ndarray, float, float | None]] = (
        [(best.w, best.b, best.margin)] if best.separable else []
    )
    if trace is not None and trace.converged:
        candidates.append(
            (
                np.asarray(trace.weights[-1]),
                float(trace.biases[-1]),
                best.margin if best.separable else None,
            )
        )
    return separation(X, y, PLANE + (LIFT_POLYNOMIALS[name],), True, candidates)


def _proof_words(proof: NoSeparatorProof | None, points: str) -> str:
    """The exact proof in a few words: which points balance out."""
    if proof is None:
        raise ValueError(
            "a Separation with separable=False must carry its proof (a NoSeparatorProof)."
        )
    if proof.same_point:
        i, j = (int(k) for k in proof.examples)
        return f"examples {i + 1:,} and {j + 1:,} are the same point with opposite labels"
    return (
        f"a convex combination of the {points} of {_examples_text(proof.examples)} is "
        "exactly 0, in exact rational arithmetic"
    )


def _undecided_words(hull_distance: float, points: str) -> str:
    return (
        f"no separator was found, nor a proof that none exists: the hull of the {points} "
        f"(the smallest convex set holding them all) comes within "
        f"{rounded_text(hull_distance, 2, 'up')} of the origin (floating point, its "
        "rounding allowed for)"
    )


def lift_texts(
    flat: Separation, lifted: Separation, trace, lift_name: str, other: Separation | None = None
) -> dict:
    """What the lift section says: ``flat_separable`` and ``flat`` (the note on the data in
    the plane), ``text`` (what the lift found), and ``w``, ``b`` of the plane found in
    3-D (``w`` None when no plane is drawn: none separates, or the run stopped first)."""
    third = LIFTS[lift_name][1]
    padded = "points yᵢ(xᵢ, 1)"
    if flat.separable:
        flat_text = (
            "These data are separable by a line: one with margin "
            f"{_margin_words(flat.margin)} has every point strictly on its side "
            "(checked in exact arithmetic), so they do not need a lift; the lift "
            "still works."
        )
    elif flat.separable is False:
        flat_text = (
            f"No line separates these data: {_proof_words(flat.proof, padded)}, "
            "so every line has one of them on its wrong side or on it."
        )
    else:
        flat_text = (
            "No line was shown to separate these data: "
            + _undecided_words(flat.hull_distance, padded)
            + "."
        )
    plane = f"$\\Phi(x) = (x_1, x_2, {third})$"
    w3, b3 = None, 0.0
    if lifted.separable and trace.converged:
        w3, b3 = np.asarray(trace.weights[-1]), float(trace.biases[-1])
        weights = ", ".join(f"{v:.2f}".replace("-", "−") for v in w3)
        text = (
            f"With {plane} a plane separates the lifted points: one with margin "
            f"{_margin_words(lifted.margin)} there has every point strictly on its side "
            "(checked in exact arithmetic). The perceptron, run on the three coordinates "
            f"with a bias, found w ≈ ({weights}), b = {b3:.0f} after "
            f"{trace.n_updates:,} update{'s' if trace.n_updates != 1 else ''}. The points "
            f"of the plane where $w_1x_1 + w_2x_2 + w_3\\,({third}) + b = 0$ form the "
            "curve on the right: the boundary it draws in the plane."
        )
    elif lifted.separable:
        text = (
            f"With {plane} a plane separates the lifted points: one with margin "
            f"{_margin_words(lifted.margin)} there has every point strictly on its side "
            "(checked in exact arithmetic). The perceptron had not found one when it "
            f"stopped (at {_limit_text(trace)}), so no plane is drawn."
        )
    else:
        lifted_points = "lifted points yᵢ(Φ(xᵢ), 1)"
        found = (
            "no plane separates the lifted points: " + _proof_words(lifted.proof, lifted_points)
            if lifted.separable is False
            else _undecided_words(lifted.hull_distance, lifted_points)
        )
        text = f"With {plane} {found}, so no plane is drawn."
        if other is not None:
            other_name = "product" if lift_name == "squared_norm" else "squared_norm"
            other_third = LIFTS[other_name][1]
            if other.separable:
                text += f" The other map, z = {other_third}, does separate them: choose it above."
            elif other.separable is False:
                text += f" The other map, z = {other_third}, does not separate them either."
    return dict(flat_separable=bool(flat.separable), flat=flat_text, text=text, w=w3, b=b3)


def _margin_words(margin: float | None) -> str:
    return "γ " + approx_text(margin, 3) if margin is not None and np.isfinite(margin) else "γ > 0"


def bias_trick_data(seed: int, max_updates: int) -> tuple:
    """Two blobs on the same rays from the origin: a line separates them, not one through 0.

    Returns (X (40, 2), y (40,), through the origin: a Separation, with a bias: a
    Separation, the perceptron's run with a bias).
    """
    rng = np.random.default_rng(seed)
    angles = rng.uniform(np.pi / 8, 3 * np.pi / 8, 40)
    radii = np.where(np.arange(40) < 20, rng.uniform(0.25, 0.5, 40), rng.uniform(0.7, 1.0, 40))
    X = np.column_stack([np.cos(angles), np.sin(angles)]) * radii[:, None]
    y = np.where(np.arange(40) < 20, -1, 1)
    trace = run_perceptron(X, y, bias=True, max_updates=max_updates)
    origin_best, free_best = max_margin(X, y, bias=False), max_margin(X, y, bias=True)
    through_origin = separation(
        X,
        y,
        PLANE,
        False,
        [(origin_best.w, 0.0, origin_best.margin)] if origin_best.separable else [],
    )
    candidates: list[tuple[np.ndarray, float, float | None]] = (
        [(free_best.w, free_best.b, free_best.margin)] if free_best.separable else []
    )
    if trace.converged:
        candidates.append((np.asarray(trace.weights[-1]), float(trace.biases[-1]), None))
    free = separation(X, y, PLANE, True, candidates)
    return X, y, through_origin, free, trace


def bias_trick_text(through_origin: Separation, free: Separation, trace) -> str:
    """The bias trick as a lift (x ↦ (x, 1)), and what these data show."""
    if through_origin.separable:
        origin = "a line through the origin separates the classes (checked in exact arithmetic)"
    elif through_origin.separable is False:
        origin = (
            "no line through the origin separates the classes ("
            + _proof_words(through_origin.proof, "points yᵢxᵢ")
            + ")"
        )
    else:
        origin = "no line through the origin was shown to separate the classes"
    if free.separable:
        bias = (
            f"a line with a bias does: one with margin {_margin_words(free.margin)} has "
            "every point strictly on its side (checked in exact arithmetic)"
        )
    elif free.separable is False:
        bias = "no line with a bias does either"
    else:
        bias = "no line with a bias was shown to either"
    run = (
        f" The perceptron with the padded 1 needed {trace.n_updates:,} updates."
        if trace.converged
        else " The perceptron with the padded 1 had not separated "
        f"them when it stopped (at {_limit_text(trace)})."
    )
    return (
        "Append a constant 1 to every example, $x \\mapsto (x_1, x_2, 1)$, and the weights "
        "$(w_1, w_2, b)$: then $(w, b)\\cdot(x, 1) = w\\cdot x + b$. A line that misses the "
        "origin in the plane becomes a plane through the origin in 3-D, cut by the sheet "
        f"$z = 1$ where the data now live. Here {origin}; {bias}.{run}"
    )


# ---------------------------------------------------------------------------
# The monotone-conjunction kernel (Claim 2.1)
# ---------------------------------------------------------------------------

#: the most bits the calculator takes: its table lists all 2ᵈ conjunctions (1,024 rows)
MAX_CALCULATOR_BITS = 10


def parse_bits(text: str, length: int | None = None):
    """The bits of ``text`` (spaces ignored) as an int array, or None if it holds anything
    but the characters 0 and 1, is empty, or (``length`` given) has another length."""
    bits = "".join(str(text).split())
    if bits and set(bits) <= {"0", "1"} and (length is None or len(bits) == length):
        return np.array([int(c) for c in bits])
    return None


def _bits_problem(name: str, text: str) -> str | None:
    """What is wrong with one bit string, in words, or None."""
    bits = "".join(str(text).split())
    if not bits:
        return f"{name} is empty: type its bits, for example 1101."
    wrong = next((c for c in bits if c not in "01"), None)
    if wrong is not None:
        return (
            f"{name} holds {wrong!r}, which is not a bit: type only the digits 0 and 1, "
            "for example 1101."
        )
    if len(bits) > MAX_CALCULATOR_BITS:
        return (
            f"{name} has {len(bits)} bits; the calculator takes at most "
            f"{MAX_CALCULATOR_BITS} (its table lists all 2ᵈ conjunctions, "
            f"{2**MAX_CALCULATOR_BITS:,} rows at d = {MAX_CALCULATOR_BITS})."
        )
    return None


def read_bits(x_text: str, z_text: str) -> tuple:
    """The calculator's two bit vectors: (x, z, None), or (None, None, what to fix).

    Each must be 1 to MAX_CALCULATOR_BITS characters 0 or 1 (spaces ignored), both of
    the same length d: K(x, z) compares bit i of x with bit i of z.
    """
    problems = [p for p in (_bits_problem("x", x_text), _bits_problem("z", z_text)) if p]
    if problems:
        return None, None, " ".join(problems)
    x, z = parse_bits(x_text), parse_bits(z_text)
    if x.size != z.size:
        return (
            None,
            None,
            (
                f"x has {x.size} bit{'s' if x.size != 1 else ''} and z has "
                f"{z.size}: give both the same number of bits (K(x, z) compares "
                "bit i of x with bit i of z)."
            ),
        )
    return x, z, None


def _conjunction_name(subset) -> str:
    """A conjunction of bits written as in the notes (x₁∧x₃); the empty one is 1."""
    return " ∧ ".join(f"x{str(j + 1).translate(SUBSCRIPT)}" for j in subset) or "1 (empty)"


def conjunction_by_hand(x_bits, z_bits) -> tuple[dict, str]:
    """Φ(x), Φ(z) and their products written out (Claim 2.1), one row per conjunction.

    Returns (the table's columns {header: values}, 2ᵈ rows, conjunctions by size as the
    notes list them; the sentence that checks Φ(x)·Φ(z) = 2^|Ones(x, z)|).
    """
    x_bits, z_bits = np.asarray(x_bits, dtype=int), np.asarray(z_bits, dtype=int)
    d = x_bits.size
    features = monotone_conjunction_features(np.vstack([x_bits, z_bits])).astype(int)
    # column s of the features is the conjunction of the bits j with (s >> j) & 1
    subsets = {s: [j for j in range(d) if s >> j & 1] for s in range(2**d)}
    order = sorted(subsets, key=lambda s: (len(subsets[s]), subsets[s]))
    columns = {
        "conjunction": [_conjunction_name(subsets[s]) for s in order],
        "on x": [int(features[0, s]) for s in order],
        "on z": [int(features[1, s]) for s in order],
        "both": [int(features[0, s] * features[1, s]) for s in order],
    }
    return columns, conjunction_sentence(x_bits, z_bits)


def conjunction_sentence(x_bits, z_bits) -> str:
    """K(x, z) for the calculator: the positions where both bits are 1, and 2 to their
    number, against the sum over all 2ᵈ conjunctions (Claim 2.1)."""
    x_bits, z_bits = np.asarray(x_bits, dtype=int), np.asarray(z_bits, dtype=int)
    d = x_bits.size
    both = [j + 1 for j in range(d) if x_bits[j] and z_bits[j]]
    ones = len(both)
    kernel_value = int(monotone_conjunction_kernel(x_bits[None], z_bits[None])[0, 0])
    features = monotone_conjunction_features(np.vstack([x_bits, z_bits])).astype(int)
    where = (
        "no position has a 1 in both"
        if not both
        else f"position{'s' if ones != 1 else ''} "
        + (", ".join(map(str, both[:-1])) + " and " + str(both[-1]) if ones > 1 else str(both[0]))
        + (" has" if ones == 1 else " have")
        + " a 1 in both"
    )
    return (
        f"x = {''.join(map(str, x_bits))} and z = {''.join(map(str, z_bits))} have d = {d} "
        f"bits; {where}, so |Ones(x, z)| = {ones} and K(x, z) = "
        f"2{str(ones).translate(SUPERSCRIPT)} = {kernel_value:,}. Written out over the "
        f"2{str(d).translate(SUPERSCRIPT)} = {2**d:,} conjunctions, Φ(x)·Φ(z) = "
        f"{int(features[0] @ features[1]):,}: the same number (Claim 2.1)."
    )


def _best_of_three(function) -> tuple[float, float]:
    """(fastest, total) seconds of three calls."""
    times = []
    for _ in range(3):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times), sum(times)


#: the most bits the timing writes the 2ᵈ features out for (2¹⁴ = 16 384 features a row):
#: each bit more doubles its time, and d = 15 and 16 cost 0.02-0.03 CPU-s more of the
#: timing, on every new server process, for two more points on the same doubling line
EXPLICIT_MAX_BITS = 14


def conjunction_timing(rows: int = 24, budget: float = 1.5) -> tuple[list, list, list]:
    """Seconds for one rows x rows Gram matrix, explicit (2ⁿ features) against the kernel.

    Best of three per n = 2..20; the explicit way runs up to EXPLICIT_MAX_BITS and stops
    sooner once one n took more than a fifth of the budget (its time doubles with every
    bit). Returns (bits, explicit seconds (nan where not run), kernel seconds).
    """
    rng = np.random.default_rng(0)
    bits, explicit, kernel_times = [], [], []
    spent, explicit_on = 0.0, True
    for size in range(2, 21):
        A = rng.integers(0, 2, size=(rows, size)).astype(float)
        seconds, total = _best_of_three(lambda A=A: monotone_conjunction_kernel(A, A))
        spent += total
        slow = np.nan
        if explicit_on and size <= EXPLICIT_MAX_BITS:

            def explicit_gram(A=A):
                features = monotone_conjunction_features(A)
                return features @ features.T

            slow, total = _best_of_three(explicit_gram)
            spent += total
            explicit_on = slow < budget / 5 and spent < budget
        bits.append(size)
        explicit.append(slow)
        kernel_times.append(seconds)
    return bits, explicit, kernel_times


def timing_caption(bits, explicit) -> str:
    """What the timing chart measured, and up to which d the explicit way ran."""
    measured = [b for b, e in zip(bits, explicit) if np.isfinite(e)]
    return (
        "Time for the Gram matrix (every value K(x, z)) of 24 random bit vectors, best "
        "of 3, measured on this server (the chart is kept for an hour). The explicit way "
        f"writes out 2ᵈ features and was run up to d = {measured[-1]}; each extra bit "
        "doubles the number of features it writes. The kernel needs one inner product of "
        "the bits per pair, O(d)."
    )


#: fresh examples a learnt target is tested on
TEST_EXAMPLES = 2_000


def learn_target(kind: str, size: int, bits: int, m: int, seed: int, max_updates: int):
    """The kernel perceptron (K(x, z) = 2^|Ones(x, z)|, no bias) on m random examples of a
    monotone conjunction or disjunction of the first ``size`` of ``bits`` bits.

    Returns (trace, how many of TEST_EXAMPLES fresh examples it predicts right, how many
    training labels are +1).
    """
    rng = np.random.default_rng(seed)
    # each bit is 1 with probability 2^(-1/r): a conjunction of r bits is true about half the time
    p_one = 0.5 ** (1 / size) if kind == "conjunction" else 1 - 0.5 ** (1 / size)
    A = (rng.random((m + TEST_EXAMPLES, bits)) < p_one).astype(float)
    target = A[:, :size].min(axis=1) if kind == "conjunction" else A[:, :size].max(axis=1)
    labels = np.where(target > 0, 1, -1)
    train_A, train_y = A[:m], labels[:m]
    trace = kernel_perceptron(
        train_A,
        train_y,
        kernel="monotone_conjunction",
        bias=False,
        max_updates=max_updates,
        max_epochs=500,
    )
    test = np.where(trace.decision_function(A[m:]) > 0, 1, -1)  # sign(0) = −1
    return trace, int(np.count_nonzero(test == labels[m:])), int(np.count_nonzero(train_y > 0))


def share_text(count: int, total: int) -> str:
    """ "1,812 of 2,000 (90.6 %)": the percentage rounded down, so it reads 100 % only when
    every one is counted."""
    percent = math.floor(1000 * count / total) / 10 if total else 0.0
    return f"{count:,} of {total:,} ({percent:g} %)"


def learn_target_texts(
    kind: str, size: int, bits: int, m: int, learnt, right: int, positive: int
) -> tuple[str, str | None]:
    """What the run on a conjunction or disjunction did, and (or None) why it fits the
    training examples but not fresh ones."""
    joiner = " ∧ " if kind == "conjunction" else " ∨ "
    formula = joiner.join(f"x{str(j + 1).translate(SUBSCRIPT)}" for j in range(size))
    state = (
        "converged: every training example has y f(x) > 0, so each is classified correctly"
        if learnt.converged
        else f"stopped at {_limit_text(learnt)} before converging"
    )
    features = f"2{str(bits).translate(SUPERSCRIPT)}"
    text = (
        f"Target {formula} over d = {bits} bits; {share_text(positive, m)} training "
        f"examples are positive. The kernel perceptron with K(x, z) = 2^|Ones(x, z)| works "
        f"in a space of {features} features without writing one down. It made "
        f"**{learnt.n_updates:,} update{'s' if learnt.n_updates != 1 else ''}** (examples with "
        f"y f(x) ≤ 0) on {m:,} examples in {learnt.epochs:,} "
        f"epoch{'s' if learnt.epochs != 1 else ''} and {state}; it predicts "
        f"{share_text(right, TEST_EXAMPLES)} fresh examples right."
    )
    overfit = None
    if learnt.converged and right < 0.75 * TEST_EXAMPLES:
        overfit = (
            f"It fits every training example but predicts under 75 % of fresh ones "
            f"right: with {features} features many weight vectors fit {m:,} examples, "
            "and the perceptron found one that is not the target. The kernel saves "
            "time, not examples."
        )
    return text, overfit
