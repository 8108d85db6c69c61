"""/relaxation's questions: projections, η, solvable systems (Algorithm 1.37, Exercise 1.22)."""

from __future__ import annotations

from pages.common.quizzes import QuizQuestion

QUESTIONS = (
    QuizQuestion(
        key="relaxation_quiz_eta_one",
        question="w violates the chosen inequality aᵢ·w ≤ cᵢ. Where does one move with η = 1 "
        "put w?",
        options=(
            "on the line aᵢ·w = cᵢ",
            "at its mirror image across that line",
            "halfway to that line",
        ),
        answer="on the line aᵢ·w = cᵢ",
        why="The move is w ← (1 − η)w + η Pᵢ(w), with Pᵢ(w) the nearest point of the half-plane; "
        "for a violated inequality that point is on the line aᵢ·w = cᵢ, so η = 1 lands "
        "exactly on it (a projection). η = 2 goes twice as far, to the mirror image "
        "(a reflection), and η = 1/2 stops halfway. The other inequalities may be broken "
        "by the move: one move fixes one inequality only.",
    ),
    QuizQuestion(
        key="relaxation_quiz_eta_range",
        question="Why does the method take η in (0, 2] only?",
        options=(
            "beyond 2 a move can go farther from the solutions",
            "beyond 2 it is merely slower",
            "no reason: any η > 0 works",
        ),
        answer="beyond 2 a move can go farther from the solutions",
        why="Let r be the distance from w to the violated line. For any solution z of the "
        "system, one move gives ‖w′ − z‖² ≤ ‖w − z‖² − η(2 − η)r², because z lies in the "
        "half-plane. For 0 < η < 2 every move brings w strictly closer to every solution, "
        "and with η = 2 never farther; for η > 2 the term turns positive, and for a "
        "solution z on that line the squared distance grows by η(η − 2)r². η = 0 would "
        "never move at all.",
    ),
    QuizQuestion(
        key="relaxation_quiz_infeasible",
        question="The system has no solution (the page says so). What does the relaxation "
        "method do?",
        options=(
            "it keeps moving and never satisfies every inequality",
            "it stops at the point closest to all half-planes",
            "it reports an error",
        ),
        answer="it keeps moving and never satisfies every inequality",
        why="It stops only when w satisfies every inequality, and no point does, so some "
        "inequality is always violated and there is always another move: the run ends "
        "at the iteration limit. The method itself cannot tell an infeasible system from "
        "a slow one; the page checks solvability separately, exactly, and says so.",
    ),
    QuizQuestion(
        key="relaxation_quiz_perceptron",
        question="The perceptron (no bias, threshold δ) as a system Aᵀw ≤ c: what are column "
        "aᵢ and cᵢ?",
        options=("aᵢ = −yᵢxᵢ and cᵢ = −δ", "aᵢ = yᵢxᵢ and cᵢ = δ", "aᵢ = xᵢ and cᵢ = 0"),
        answer="aᵢ = −yᵢxᵢ and cᵢ = −δ",
        why="The perceptron wants yᵢ(w·xᵢ) > δ for every i; multiplying by −1 turns this "
        "into (−yᵢxᵢ)·w < −δ, an inequality of the form aᵢ·w ≤ cᵢ except at equality. "
        "Its update adds yᵢxᵢ = −aᵢ, a move towards the violated half-plane, so it is a "
        "relaxation step with its own ηₜ, which changes from update to update. With "
        "aᵢ = yᵢxᵢ and cᵢ = δ the system would ask for scores at most δ: the opposite.",
    ),
)
