"""/generalisation's questions: margin mistakes, the 3/((N+1)γ²) bound, stability, the hinge
loss (notes-perceptron-margin-generalization.txt)."""

from __future__ import annotations

from pages.common.quizzes import QuizQuestion

QUESTIONS = (
    QuizQuestion(
        key="generalisation_quiz_band",
        question="The margin perceptron (no bias) meets a point on the right side of the line "
        "with y xᵀw = 0.4. Does it update?",
        options=("no, the point is classified correctly", "yes, it is a margin mistake"),
        answer="yes, it is a margin mistake",
        why="Its test is y xᵀw < 1, not ≤ 0: a point inside the band (0 < y xᵀw < 1) counts as "
        "a margin mistake, so w ← w + y x. It stops only when every training point has "
        "y xᵀw ≥ 1. With ‖x‖ ≤ 1 and a unit w* of margin γ it still makes at most 3/γ² "
        "updates: each one raises wᵀw* by at least γ and ‖w‖² by less than 3.",
    ),
    QuizQuestion(
        key="generalisation_quiz_rate",
        question="Training points IID with ‖x‖ ≤ 1, separable with margin γ by a line through "
        "the origin. How does the bound on the margin perceptron's expected test "
        "error shrink as N grows?",
        options=("like 1/N", "like 1/√N", "it does not shrink"),
        answer="like 1/N",
        why="The bound is 3/((N + 1)γ²): among N training points plus one test point, at most "
        "3/γ² can ever be margin mistakes, and by symmetry the test point is one of them "
        "with probability at most 3/((N + 1)γ²). A test point that was never a margin "
        "mistake would not have changed the run, so the final line classifies it right. "
        "The uniform law (for any separating line) gives about √(log N / N), the 1/√N "
        "answer: true, but weaker for this algorithm.",
    ),
    QuizQuestion(
        key="generalisation_quiz_holdout",
        question="A training point never caused a margin mistake. Leave it out and retrain, "
        "with the other points in the same order. What comes out?",
        options=("the same w", "a w a little smaller", "a different line in general"),
        answer="the same w",
        why="The point never changed w: every time it was examined the test y xᵀw < 1 failed "
        "and nothing happened. Removing it removes only steps that did nothing, so the "
        "remaining points see the same w at every step and trigger the same updates. "
        "This is the stability step of the 3/((N + 1)γ²) argument; a point that did "
        "cause an update may change the line when it is left out.",
    ),
    QuizQuestion(
        key="generalisation_quiz_hinge",
        question="The margin perceptron is stochastic gradient descent with step 1 on which "
        "loss of y xᵀw?",
        options=(
            "the hinge loss max(0, 1 − y xᵀw)",
            "the 0–1 loss",
            "the perceptron loss max(0, −y xᵀw)",
        ),
        answer="the hinge loss max(0, 1 − y xᵀw)",
        why="The hinge loss has gradient −y x where y xᵀw < 1 and 0 where y xᵀw > 1 (at the "
        "kink y xᵀw = 1 the page takes 0, as the notes do), so a step of size 1 against it "
        "adds y x exactly on margin mistakes: the margin perceptron. The perceptron loss "
        "has its kink at 0, so SGD on it updates when y xᵀw ≤ 0 (taking slope −1 at the "
        "kink, as the page does): the plain perceptron. The 0–1 loss is flat almost "
        "everywhere: its gradient is 0 and SGD on it would never move.",
    ),
)
