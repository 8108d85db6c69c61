"""/kernels' questions: the dual form, feature maps, which kernels separate XOR."""

from __future__ import annotations

from pages.common.quizzes import QuizQuestion

QUESTIONS = (
    QuizQuestion(
        key="kernels_quiz_xor",
        question="XOR: the four points (±1, ±1), labelled +1 where the two signs agree. With a "
        "bias, which kernel perceptron stops with every point right?",
        options=(
            "the linear kernel",
            "the polynomial kernel of degree 2",
            "neither: no kernel can help",
        ),
        answer="the polynomial kernel of degree 2",
        why="No line works: a score w·x + b averages to b over the two +1 points and also to b "
        "over the two −1 points (each pair is symmetric about 0), so b would have to be "
        "positive and not positive at once; the linear perceptron never stops. "
        "(κ x·z + c)² with κ > 0, c ≥ 0 is the inner product of features that include "
        "a positive multiple of x₁x₂, and the label is exactly the sign of x₁x₂: the lifted "
        "data are separable, so Theorem 1.28, applied to the features Φ(x), bounds the "
        "updates and the run stops.",
    ),
    QuizQuestion(
        key="kernels_quiz_dual",
        question="αᵢ counts the updates example i caused. Which score does the kernel "
        "perceptron compute for a new x?",
        options=(
            "Σᵢ αᵢ yᵢ K(xᵢ, x) + b",
            "Σᵢ yᵢ K(xᵢ, x) + b over all points",
            "K(w, x) + b with w stored",
        ),
        answer="Σᵢ αᵢ yᵢ K(xᵢ, x) + b",
        why="The perceptron only ever adds yᵢΦ(xᵢ) to its weights, once per update, so "
        "w = Σᵢ αᵢ yᵢ Φ(xᵢ) and w·Φ(x) = Σᵢ αᵢ yᵢ Φ(xᵢ)·Φ(x) = Σᵢ αᵢ yᵢ K(xᵢ, x). Points "
        "that never caused an update have αᵢ = 0 and drop out; a sum over all points "
        "with weight 1 is a different rule. w itself lives in feature space and is never "
        "written down, which is the point of the kernel.",
    ),
    QuizQuestion(
        key="kernels_quiz_conjunctions",
        question="Monotone conjunctions over d bits: Φ(x) has 2ᵈ coordinates. What does "
        "computing K(x, z) = Φ(x)·Φ(z) cost?",
        options=("about d steps", "about 2ᵈ steps", "about d² steps"),
        answer="about d steps",
        why="A conjunction is true on both x and z exactly when all its bits are 1 in both, so "
        "the conjunctions true on both are the subsets of the positions where x and z are "
        "both 1 (the empty one included): K(x, z) = 2^(number of shared ones), one pass "
        "over the d bits. Writing Φ(x) out would cost 2ᵈ; the kernel never does.",
    ),
)
