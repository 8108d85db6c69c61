"""perceptron_core: Perceptron Lab's computation and, in ``viz/``, its pictures.

* The computation is every module here but ``viz/``: NumPy only (and the standard
  library). Data, the perceptron and its example orders, margins, the bounds and
  the quantities of their proofs, the constructions of Remark 1.19 and Theorem
  1.34, sweeps, CSV and JSON, kernels, generalisation, multiclass, relaxation.
  Small functions, plain arrays in, frozen results out.
* The pictures are ``perceptron_core.viz``: Plotly only (on NumPy arrays). Arrays
  or the computation's results in, a Plotly figure or a JSON-ready player
  payload out.

Imports point one way, pages -> viz -> the computation: ``import perceptron_core``
loads neither Plotly nor Streamlit, and nothing here imports Streamlit
(tests/core/test_dependency_rule.py checks exactly this). The mathematics follows the
notes in ``shared/seeds`` (numbering from notes-perceptron-yu.txt).

Notation
--------
The symbols the pages' Notation panels show (``theory.NOTATION``; each page lists its
own, ``theory.PAGE_NOTATION``; a test keeps this table and that one the same):

========= ==================================================================================
symbol    meaning
========= ==================================================================================
xᵢ, yᵢ    the i-th example and its label, yᵢ ∈ {−1, +1}
w, b      the weight vector and the bias: the prediction is sign(w·x + b) (b = 0 when no
          bias is learnt); the notes on margins write β for w
w*        a unit vector (with a bias b*) that separates the data: the one a proof compares w
          with
d         the dimension: how many coordinates each example xᵢ has
n         the number of examples (on /relaxation, of inequalities)
N         the number of training points; the test point is number N + 1
t         the number of updates so far: examples that failed the test y(w·x + b) ≤ δ (the
          notes' mistakes)
xₖ        the k-th example of a sequence, k = 1, 2, 3, …: k counts examples, not updates
u         the shift of a translation: every example moves by u along the first coordinate,
          xᵢ → xᵢ + u e₁ (Exercise 1.29)
R         radius of the data: R = maxᵢ ‖xᵢ‖
γ         geometric margin: the largest distance from the nearest example to a separating
          hyperplane (through the origin when there is no bias); γ means a margin and
          nothing else
aᵢ        the padded example aᵢ = yᵢ(xᵢ, 1) with a bias (Remark 1.17); aᵢ = yᵢxᵢ without
γ₂        margin of the padded problem: γ₂ = max over ‖w‖ ≤ 1 of minᵢ ⟨aᵢ, w⟩; with a bias
          the bias counts in the norm, so γ₂ ≤ γ
δ         threshold: an update happens when y(w·x + b) ≤ δ (δ = 0 in the plain perceptron)
w₀        the starting weights (w₀ = 0, b₀ = 0 unless a random start is chosen); with a
          bias, (1.4) uses the length of the padded start, ‖(w₀, b₀)‖
s         a margin of an unnormalised w*: ⟨aᵢ, w*⟩ ≥ s > 0 for every i (bound (1.4))
T(A)      maxᵢ ‖aᵢ‖² / γ₂²: most updates from w₀ = 0 with δ = 0 (eq. 1.5)
(1.4)     t ≤ (2δ + maxᵢ ‖aᵢ‖² + 2γ₂‖w₀‖) / γ₂²: most updates for any δ ≥ 0 and start w₀
          (Theorem 1.28 with a unit w*)
ε         the notebook's margin: some (w*, b*) with ‖w*‖ ≤ 1 and b*² ≤ 1 has yᵢ(w*·xᵢ + b*)
          ≥ ε for every i
λ         the factor every example is multiplied by when the data are scaled (Exercise 1.29)
sign(0)   read as −1: a point on the hyperplane is predicted −1
ŷ         the predicted label: ŷ = sign(f(x)), with sign(0) = −1
β         the notes' name for the weight vector w (β* for w*, β₀ for the start w₀)
η         step size: the relaxation parameter of a relaxation step, or the step of SGD
τ         the window of the chaotic rule: every inequality is chosen at least once in every
          τ iterations
aᵢ·w ≤ cᵢ inequality i of the system Aᵀw ≤ c (A has the columns aᵢ)
Pᵢ(w)     the nearest point to w of the half-plane of inequality i (the projection)
k         the number of classes
K(x, z)   a kernel: K(x, z) = Φ(x)·Φ(z), the inner product of the features (x and z name
          its two arguments; b is only ever the bias)
Φ         a feature map: Φ(x) lists the features of x (the lift)
f(x)      the score the prediction thresholds: f(x) = w·x + b, or with a kernel f(x) = Σᵢ αᵢ
          yᵢ K(xᵢ, x) + b; the prediction is sign f(x)
αᵢ        how many updates example i has caused (the dual weights: w = Σᵢ αᵢ yᵢ Φ(xᵢ))
κ         the kernel's scale: (κ x·z + c)^degree for the polynomial kernel, exp(−κ‖x − z‖²)
          for the RBF kernel, where a larger κ means narrower bumps (software such as
          scikit-learn calls it gamma)
σ         the width of the RBF kernel: exp(−κ‖x − z‖²) = exp(−‖x − z‖²/(2σ²)), σ = 1/√(2κ)
c         the constant of the polynomial kernel (κ x·z + c)^degree
R_Φ, γ_Φ  the radius and the margin of the padded examples yᵢ(Φ(xᵢ), 1) in feature space
          (without the 1 when no bias is learnt)
========= ==================================================================================
"""

from .constructions import (
    LEARNERS,
    AdversaryResult,
    AggressiveCounterexample,
    ScriptedLearner,
    adversarial_lower_bound,
    adversary_size,
    aggressive_counterexample,
    aggressive_score,
    always_wrong_sequence,
    counterexample_x,
    running_average_product,
)
from .data import (
    DATASETS,
    Dataset,
    make_blobs,
    make_circles,
    make_separable,
    make_xor,
    with_label_noise,
)
from .kernels import (
    KERNEL_FORMULAS,
    KERNEL_PARAMETERS,
    KERNELS,
    MAX_CONJUNCTION_BITS,
    MAX_KERNEL_SAMPLES,
    KernelMarginResult,
    KernelTrace,
    ProofUnfinished,
    kernel_margin,
    kernel_perceptron,
    monotone_conjunction_features,
    monotone_conjunction_kernel,
)
from .margin import (
    MarginResult,
    MarginUnfinished,
    max_margin,
    padded_margin,
    padded_max_margin,
    padded_separator,
    separator_margin,
)
from .perceptron import (
    GREEDY_ORDERS,
    ORDERS,
    STREAM_ORDERS,
    ExaminedStep,
    Trace,
    example_order,
    run_perceptron,
)
from .theory import (
    BoundSummary,
    ProofQuantities,
    bias_bound,
    bound_summary,
    margin_mistake_bound,
    novikoff_bound,
    padded_bound,
    proof_quantities,
    threshold_bound,
    training_path,
)

__all__ = [
    "DATASETS",
    "Dataset",
    "make_separable",
    "make_xor",
    "make_circles",
    "make_blobs",
    "with_label_noise",
    "ORDERS",
    "STREAM_ORDERS",
    "GREEDY_ORDERS",
    "Trace",
    "ExaminedStep",
    "run_perceptron",
    "example_order",
    "MarginResult",
    "max_margin",
    "padded_margin",
    "padded_max_margin",
    "padded_separator",
    "separator_margin",
    "BoundSummary",
    "ProofQuantities",
    "novikoff_bound",
    "padded_bound",
    "threshold_bound",
    "bias_bound",
    "margin_mistake_bound",
    "bound_summary",
    "proof_quantities",
    "training_path",
    "LEARNERS",
    "AdversaryResult",
    "AggressiveCounterexample",
    "ScriptedLearner",
    "adversarial_lower_bound",
    "adversary_size",
    "aggressive_counterexample",
    "aggressive_score",
    "always_wrong_sequence",
    "counterexample_x",
    "running_average_product",
    "KERNELS",
    "KERNEL_PARAMETERS",
    "KERNEL_FORMULAS",
    "MAX_KERNEL_SAMPLES",
    "MAX_CONJUNCTION_BITS",
    "KernelTrace",
    "KernelMarginResult",
    "MarginUnfinished",
    "ProofUnfinished",
    "kernel_perceptron",
    "kernel_margin",
    "monotone_conjunction_kernel",
    "monotone_conjunction_features",
]

from .multiclass import OneVsAll, OneVsOne, one_vs_all, one_vs_one  # noqa: E402
from .relaxation import (  # noqa: E402
    INDEX_RULE_LABELS,
    INDEX_RULES,
    RelaxationTrace,
    perceptron_eta,
    perceptron_system,
    project,
    relaxation,
    relaxation_step,
)

__all__ += [
    "OneVsAll",
    "OneVsOne",
    "one_vs_all",
    "one_vs_one",
    "INDEX_RULES",
    "INDEX_RULE_LABELS",
    "RelaxationTrace",
    "relaxation",
    "relaxation_step",
    "project",
    "perceptron_system",
    "perceptron_eta",
]

from .generalisation import (  # noqa: E402
    LOSS_LABELS,
    LOSSES,
    ErrorEstimate,
    GeneralisationCurve,
    generalisation_curve,
    make_unit_margin,
    margin_perceptron,
    sgd_linear,
    stability_bound,
    test_error_exact_2d,
    test_error_sample,
    uniform_bound,
)

__all__ += [
    "LOSSES",
    "LOSS_LABELS",
    "ErrorEstimate",
    "GeneralisationCurve",
    "generalisation_curve",
    "make_unit_margin",
    "margin_perceptron",
    "sgd_linear",
    "stability_bound",
    "test_error_exact_2d",
    "test_error_sample",
    "uniform_bound",
]

from .io import LoadedClasses, parse_class_csv  # noqa: E402

__all__ += ["LoadedClasses", "parse_class_csv"]
