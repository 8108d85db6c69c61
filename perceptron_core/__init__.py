"""perceptron_core: the pure NumPy engine behind Perceptron Lab.

No UI here: small functions, plain arrays in, frozen results out. The
mathematics follows the notes in ``shared/seeds`` (numbering from
notes-perceptron-yu.txt).
"""

from .constructions import (LEARNERS, AdversaryResult, AggressiveCounterexample,
                            ScriptedLearner, adversarial_lower_bound, adversary_size,
                            aggressive_counterexample, aggressive_score, always_wrong_sequence,
                            counterexample_x, running_average_product)
from .data import DATASETS, Dataset, make_blobs, make_circles, make_separable, make_xor, \
    with_label_noise
from .kernels import (KERNEL_FORMULAS, KERNEL_PARAMETERS, KERNELS, MAX_CONJUNCTION_BITS,
                      MAX_KERNEL_SAMPLES, KernelMarginResult, KernelTrace, kernel_margin,
                      kernel_perceptron, monotone_conjunction_features,
                      monotone_conjunction_kernel)
from .margin import MarginResult, max_margin, padded_margin, padded_separator
from .perceptron import (GREEDY_ORDERS, ORDERS, STREAM_ORDERS, ExaminedStep, Trace,
                         example_order, run_perceptron)
from .theory import (BoundSummary, ProofQuantities, bias_bound, bound_summary,
                     margin_mistake_bound, novikoff_bound, padded_bound, proof_quantities,
                     training_path,
                     threshold_bound)

__all__ = [
    "DATASETS", "Dataset", "make_separable", "make_xor", "make_circles", "make_blobs",
    "with_label_noise",
    "ORDERS", "STREAM_ORDERS", "GREEDY_ORDERS", "Trace", "ExaminedStep", "run_perceptron",
    "example_order",
    "MarginResult", "max_margin", "padded_margin", "padded_separator",
    "BoundSummary", "ProofQuantities", "novikoff_bound", "padded_bound", "threshold_bound",
    "bias_bound", "margin_mistake_bound", "bound_summary", "proof_quantities", "training_path",
    "LEARNERS", "AdversaryResult", "AggressiveCounterexample", "ScriptedLearner",
    "adversarial_lower_bound", "adversary_size", "aggressive_counterexample",
    "aggressive_score", "always_wrong_sequence", "counterexample_x", "running_average_product",
    "KERNELS", "KERNEL_PARAMETERS", "KERNEL_FORMULAS", "MAX_KERNEL_SAMPLES",
    "MAX_CONJUNCTION_BITS",
    "KernelTrace", "KernelMarginResult", "kernel_perceptron", "kernel_margin",
    "monotone_conjunction_kernel", "monotone_conjunction_features",
]

from .multiclass import OneVsAll, OneVsOne, one_vs_all, one_vs_one  # noqa: E402
from .relaxation import (INDEX_RULE_LABELS, INDEX_RULES, RelaxationTrace,  # noqa: E402
                         perceptron_eta, perceptron_system, project, relaxation,
                         relaxation_step)

__all__ += [
    "OneVsAll", "OneVsOne", "one_vs_all", "one_vs_one",
    "INDEX_RULES", "INDEX_RULE_LABELS", "RelaxationTrace", "relaxation", "relaxation_step",
    "project", "perceptron_system", "perceptron_eta",
]

from .generalisation import (LOSS_LABELS, LOSSES, ErrorEstimate,  # noqa: E402
                             GeneralisationCurve, generalisation_curve, make_unit_margin,
                             margin_perceptron, sgd_linear, stability_bound,
                             test_error_exact_2d, test_error_sample, uniform_bound)

__all__ += [
    "LOSSES", "LOSS_LABELS", "ErrorEstimate", "GeneralisationCurve", "generalisation_curve",
    "make_unit_margin", "margin_perceptron", "sgd_linear", "stability_bound",
    "test_error_exact_2d", "test_error_sample", "uniform_bound",
]
