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
]
