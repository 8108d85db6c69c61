"""/train's questions: the algorithm, one update at a time (Algorithm 1.16, Theorem 1.28)."""

from __future__ import annotations

from pages.common.quizzes import QuizQuestion

QUESTIONS = (
    QuizQuestion(
        key="quiz_single_point",
        question="The data are one point (x, +1) with x ≠ 0, w starts at 0 (and b at 0) and "
        "δ = 0 (update when y(w·x + b) ≤ 0). How many mistakes can the perceptron "
        "make on it?",
        options=("exactly one", "as many as the order allows", "none"),
        answer="exactly one",
        why="Starting at 0, the first look is a mistake (score 0 ≤ 0). After it w = x (and "
        "b = 1), so the score is ‖x‖² (+1) > 0 forever: one mistake. With a random start "
        "it can take several: each update adds ‖x‖² to the score (‖x‖² + 1 with a bias), "
        "so after t updates the score is w₀·x + b₀ + t‖x‖² (+ t with a bias), and it errs "
        "until that is above 0; with δ > 0 it errs until the score exceeds δ. Try it: "
        "choose the data source \u201cdraw\u201d and click once on the chart.",
    ),
    QuizQuestion(
        key="quiz_order",
        question="On separable data, where every example is examined again and again, can a "
        "bad order of the examples stop the perceptron from converging?",
        options=(
            "yes, some orders cycle forever",
            "no: every such order converges, within the same bound",
        ),
        answer="no: every such order converges, within the same bound",
        why="Theorem 1.28 counts updates, whichever example caused them: every update raises "
        "⟨w, w*⟩ by at least γ₂ and ‖w‖² by at most max‖aᵢ‖² + 2δ (γ and yᵢxᵢ without "
        "a bias; the vectors include b with one), for any order. The order changes which "
        "updates happen, how many, and the line the run ends on, never the bound.",
    ),
    QuizQuestion(
        key="quiz_delta",
        question="What does a threshold δ > 0 change?",
        options=(
            "nothing at all",
            "it asks for a score above δ, and the bound grows by 2δ/γ₂²",
            "it makes the perceptron converge faster",
        ),
        answer="it asks for a score above δ, and the bound grows by 2δ/γ₂²",
        why="With δ > 0 an example that is correct but scores at most δ still triggers an "
        "update, so on separable data the run ends with every y(w·x + b) > δ. The proof's "
        "‖w‖² may now grow by max‖aᵢ‖² + 2δ per update, which is the 2δ in bound (1.4): "
        "it adds 2δ/γ₂² to the bound (γ₂ and aᵢ = yᵢ(xᵢ, 1) with a bias; γ and yᵢxᵢ "
        "without). A larger bound is no promise of more updates: on some data δ > 0 even "
        "saves updates.",
    ),
)
