"""/bound's questions: the mistake bound and the margin (Theorem 1.28, eq. 1.5, Exercise
1.29)."""

from __future__ import annotations

from pages.common.quizzes import QuizQuestion

QUESTIONS = (
    QuizQuestion(
        key="bound_quiz_scale",
        question="Through the origin (no bias, start at w = 0, threshold δ = 0), every "
        "example x is replaced by 10·x. What happens to the number of updates?",
        options=(
            "It is multiplied by 100",
            "It is divided by 100",
            "It does not change",
            "It depends on the data set",
        ),
        answer="It does not change",
        why="The radius R and the margin γ are both multiplied by 10, so (R/γ)² is the "
        "same number. More than that, the run itself is the same: each weight vector "
        "is 10 times the one of the unscaled run, each score y⟨w, x⟩ is 100 times the "
        "old one, and multiplying by 100 never changes a sign, so exactly the same "
        "examples trigger updates. With a learnt bias this breaks: the padded "
        "coordinate 1 is not scaled, so the padded margin γ₂ and the count can change "
        "(see the **Scaling and translation** tab).",
    ),
    QuizQuestion(
        key="bound_quiz_margin",
        question="No bias: the radius R stays the same and the margin γ doubles. What "
        "happens to the bound (R/γ)²?",
        options=("It doubles", "It halves", "It is divided by 4", "It does not change"),
        answer="It is divided by 4",
        why="The margin enters squared in the denominator: (R/(2γ))² = (R/γ)²/4. In the "
        "proof (from w = 0, δ = 0) every update moves w at least γ further along the "
        "separating unit vector w*, while ‖w‖² grows by at most R²; a wider gap means "
        "each update makes more progress, so fewer updates fit before the two facts "
        "collide. With a bias the bound is T(A) = (R² + 1)/γ₂², and γ₂ (the bias "
        "counts in its norm) need not double when γ does, so T(A) need not be divided "
        "by exactly 4. The observed counts need not drop by 4 either: the bound holds for "
        "every data set and order, and a run may stay far below it (the **Margin "
        "sweep** tab shows by how much).",
    ),
    QuizQuestion(
        key="bound_quiz_size",
        question="On separable data, started at w = 0 with δ = 0, does the bound on the "
        "number of updates grow with the number of points n or with the "
        "dimension d?",
        options=("It grows with n", "It grows with d", "It grows with both", "With neither"),
        answer="With neither",
        why="Only R and the margin appear in the bound (γ without a bias, γ₂ with "
        "one); the proof never counts points or coordinates, and it holds for any "
        "order of the examples. Two caveats: n and d can change R and γ of a particular "
        "data set (more points usually leave a smaller margin, which the **n and d** tab "
        "holds fixed), and the bound counts updates, not passes: checking that no "
        "mistake is left still costs a sweep over all n points.",
    ),
)
