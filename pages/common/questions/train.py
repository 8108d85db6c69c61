"""/train's questions: the algorithm, one update at a time (Algorithm 1.16, Theorem 1.28)."""

from __future__ import annotations

from pages.common.quizzes import QuizQuestion

QUESTIONS = (
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
