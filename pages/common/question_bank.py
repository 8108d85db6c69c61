"""Every page's "Check your understanding" questions, in one bank (issue 24).

The pages show their own set through :func:`pages.common.quizzes.quiz`; the live class
(/class) offers the same questions as polls, by page. A question's ``key`` is stable: a
poll names its question by it.
"""

from __future__ import annotations

from pages.common.quizzes import QuizQuestion

# ---------------------------------------------------------------------------
# /train: the algorithm, one update at a time (Algorithm 1.16, Theorem 1.28)
# ---------------------------------------------------------------------------

TRAIN = (
    QuizQuestion(
        key="quiz_single_point",
        question="The data are one point (x, +1) with x ≠ 0, w starts at 0 and δ = 0 (update "
                 "when y(w·x + b) ≤ 0). How many mistakes can the perceptron make on it?",
        options=("exactly one", "as many as the order allows", "none"),
        answer="exactly one",
        why="Starting at 0, the first look is a mistake (score 0 ≤ 0). After it w = x (and "
            "b = 1), so the score is ‖x‖² (+1) > 0 forever: one mistake. With a random start "
            "it can take several: each update adds ‖x‖² (‖x‖² + 1 with a bias) to the score, "
            "so it errs until w₀·x + b₀ + k(‖x‖² + 1) > 0; with δ > 0 it errs until the score "
            "exceeds δ. Try it: choose the source \u201cdraw\u201d and click once on the "
            "chart."),
    QuizQuestion(
        key="quiz_order",
        question="On separable data, where every example is examined again and again, can a "
                 "bad order of the examples stop the perceptron from converging?",
        options=("yes, some orders cycle forever", "no, only the number of updates can change"),
        answer="no, only the number of updates can change",
        why="Theorem 1.28 counts updates, whichever example caused them: every update raises "
            "⟨w, w*⟩ by at least γ₂ and ‖w‖² by at most max‖aᵢ‖² (γ and R² without a bias; "
            "the vectors include b with one), for any order. The order changes which updates "
            "happen, never the bound."),
    QuizQuestion(
        key="quiz_delta",
        question="What does a threshold δ > 0 change?",
        options=("nothing at all", "it asks for a margin, and the bound grows by 2δ/γ₂²",
                 "it makes the perceptron converge faster"),
        answer="it asks for a margin, and the bound grows by 2δ/γ₂²",
        why="With δ > 0 an example that is correct but scores at most δ still triggers an "
            "update, so the run ends with every y(w·x + b) > δ. The proof's ‖w‖² may now grow "
            "by max‖aᵢ‖² + 2δ per update, which is the 2δ in bound (1.4) (γ₂ and "
            "aᵢ = yᵢ(xᵢ, 1) with a bias; γ and yᵢxᵢ without)."),
)
# ---------------------------------------------------------------------------
# /bound: the mistake bound and the margin (Theorem 1.28, eq. 1.5, Exercise 1.29)
# ---------------------------------------------------------------------------

BOUND = (
    QuizQuestion(
        key="bound_quiz_scale",
        question="Through the origin (no bias, start at w = 0, threshold δ = 0), every "
                 "example x is replaced by 10·x. What happens to the number of updates?",
        options=("It is multiplied by 100", "It is divided by 100", "It does not change",
                 "It depends on the data set"),
        answer="It does not change",
        why="The radius R and the margin γ are both multiplied by 10, so (R/γ)² is the "
            "same number. More than that, the run itself is the same: each weight vector "
            "is 10 times the one of the unscaled run, each score y⟨w, x⟩ is 100 times the "
            "old one, and multiplying by 100 never changes a sign, so exactly the same "
            "examples trigger updates. With a learnt bias this breaks: the padded "
            "coordinate 1 is not scaled, so the padded margin γ₂ and the count can change "
            "(see the *Scaling and translation* tab)."),
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
            "counts in its norm) need not double when γ does, so T(A) is divided by "
            "roughly, not exactly, 4. The observed counts usually drop less: the bound is "
            "a worst case, see the *Margin sweep* tab."),
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
            "data set (more points usually leave a smaller margin, which the *n and d* tab "
            "holds fixed), and the bound counts updates, not passes: checking that no "
            "mistake is left still costs a sweep over all n points."),
)

#: page name (as in pages/common/page_table.py) -> that page's questions, 2 to 4 each
QUESTIONS_BY_PAGE: dict[str, tuple[QuizQuestion, ...]] = {
    "train": TRAIN,
    "bound": BOUND,
}


def question_by_key(key: str) -> QuizQuestion:
    """The question whose ``key`` is ``key``; ``KeyError`` if no page has it."""
    for questions in QUESTIONS_BY_PAGE.values():
        for question in questions:
            if question.key == key:
                return question
    raise KeyError(key)
