"""/aggressive's questions: updating on correct examples too (Remark 1.19, Exercise 1.20)."""

from __future__ import annotations

from pages.common.quizzes import QuizQuestion

QUESTIONS = (
    QuizQuestion(
        key="aggressive_quiz_forever",
        question="Remark 1.19's sequence: every label is +1 (so w = 0, b = 1 separates it), "
        "almost every example is the same unit vector x, and example k is −2x when k "
        "is a power of 2. The aggressive rule updates after every example, from 0. "
        "How many mistakes does it make?",
        options=(
            "none after the first few",
            "at most a handful, as the perceptron",
            "infinitely many",
        ),
        answer="infinitely many",
        why="Its weights are the running sum of all (xᵢ, 1), so the score of example k + 1 "
        "is k(⟨x̄ₖ, xₖ₊₁⟩ + 1), with x̄ₖ the average of the first k examples. The average "
        "tends to x, so when k + 1 is a power of 2, ⟨x̄ₖ, xₖ₊₁⟩ tends to ⟨x, −2x⟩ = −2 < −1: "
        "from some point on, every power of 2 is a mistake, about log₂ T of them among "
        "the first T examples: slow, but without end. The tempting answer is wrong because "
        "the perceptron's guarantee is about the perceptron: updating only on mistakes "
        "(δ = 0, from 0) it makes at most ‖a‖²‖w*‖²/s² = 5 updates here (‖a‖² ≤ 4 + 1 "
        "with w* = (0, 1) and s = 1).",
    ),
    QuizQuestion(
        key="aggressive_quiz_proof",
        question="Which step of the proof of Theorem 1.28 fails for the aggressive rule?",
        options=(
            "⟨w, w*⟩ grows by at least s per update",
            "‖w‖² grows by at most 2δ + max‖aᵢ‖² per update",
            "Cauchy–Schwarz: ⟨w, w*⟩ ≤ ‖w‖‖w*‖",
        ),
        answer="‖w‖² grows by at most 2δ + max‖aᵢ‖² per update",
        why="Adding a to w gives ‖w + a‖² = ‖w‖² + 2⟨w, a⟩ + ‖a‖². The perceptron adds a only "
        "when ⟨w, a⟩ ≤ δ, which caps the middle term at 2δ. On a correct example ⟨w, a⟩ can "
        "be as large as ‖w‖‖a‖, so ‖w‖ may grow in proportion to the number of updates, "
        "just as fast as ⟨w, w*⟩, and the two facts never collide. The first step still "
        "holds: every example has ⟨a, w*⟩ ≥ s whether or not it was a mistake, and "
        "Cauchy–Schwarz holds for any vectors.",
    ),
    QuizQuestion(
        key="aggressive_quiz_every_time",
        question="Exercise 1.20: can the aggressive rule (from 0, δ = 0) err on every single "
        "example of a sequence whose labels are all +1?",
        options=(
            "no, Theorem 1.28 forbids it",
            "yes, with examples that grow in length",
            "only if δ > 0",
        ),
        answer="yes, with examples that grow in length",
        why="All labels +1 are separated by w = 0, b = 1, yet this page's sequence does it in "
        "one dimension: xₖ = +(2k − 1) for odd k and −(2k − 1) for even k. The sums of the "
        "first examples alternate 1, −2, 3, −4, …, so example k scores "
        "xₖ·(x₁ + … + xₖ₋₁) + (k − 1) = −2(k − 1)² ≤ 0: a mistake every time, the first "
        "one included (score 0). Theorem 1.28 does not forbid it, since it is about "
        "updating only on mistakes. Here each example is long enough to outweigh the sum "
        "of all before it, so the lengths grow; whether a bounded sequence can do the "
        "same is the exercise's follow-up question.",
    ),
)
