"""/adversary's questions: the adversarial lower bound (Theorem 1.34)."""

from __future__ import annotations

from pages.common.quizzes import QuizQuestion

QUESTIONS = (
    QuizQuestion(
        key="adversary_quiz_count",
        question="Margin γ = 0.25 and dimension d = 100. How many mistakes can the adversary "
        "force on every deterministic learner?",
        options=("4", "16", "100", "none against a clever learner"),
        answer="16",
        why="Theorem 1.34 gives min(⌊1/γ²⌋, d) = min(16, 100) = 16. The adversary shows e₁, "
        "e₂, …, e₁₆ and labels each one the opposite of what the learner predicts, so "
        "every round is a mistake however clever the learner is. It stops at 16 because "
        "it must keep a margin of γ: n orthonormal examples each at distance γ from a "
        "hyperplane through the origin need a unit w* with nγ² ≤ ‖w*‖² = 1. With d = 5 "
        "it could force only 5. 4 is 1/γ, not 1/γ².",
    ),
    QuizQuestion(
        key="adversary_quiz_certificate",
        question="The labels are chosen only after the learner has answered. Why do they "
        "always have margin γ?",
        options=(
            "w* = γ·(y₁, …, yₙ, 0, …) works for any labels",
            "the adversary picks labels the learner finds easy",
            "only when the learner is the perceptron",
        ),
        answer="w* = γ·(y₁, …, yₙ, 0, …) works for any labels",
        why="The examples are the unit vectors e₁, …, eₙ, so yᵢ⟨w*, eᵢ⟩ = yᵢ·γyᵢ = γ for every "
        "i, whatever the signs yᵢ are, and ‖w*‖ = γ√n ≤ 1 because n ≤ 1/γ². A separator "
        "exists for every labelling, so the adversary can let the learner's answers "
        "decide the labels: the certificate does not care who the learner is.",
    ),
    QuizQuestion(
        key="adversary_quiz_optimal",
        question="Unit-length data through the origin with margin γ, and d ≥ 1/γ². What does "
        "Theorem 1.34 say about the perceptron?",
        options=(
            "no learner beats its worst case",
            "it is best on every data set",
            "a cleverer learner makes fewer mistakes",
        ),
        answer="no learner beats its worst case",
        why="Started at w = 0 with δ = 0, the perceptron makes at most 1/γ² mistakes on such "
        "data, and the adversary forces ⌊1/γ²⌋ on any deterministic learner, so up to "
        "rounding no learner has a better guarantee. It is a statement about the worst "
        "case only: on a particular data set another learner may well make fewer "
        "mistakes, and with d < 1/γ² the adversary can force only d.",
    ),
)
