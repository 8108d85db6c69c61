"""/multiclass's questions: one-vs-all, one-vs-one and ties (Remark 1.36)."""

from __future__ import annotations

from pages.common.quizzes import QuizQuestion

QUESTIONS = (
    QuizQuestion(
        key="multiclass_quiz_count",
        question="k = 5 classes. How many binary perceptrons do one-vs-all and one-vs-one train?",
        options=("5 and 10", "5 and 20", "10 and 5", "5 and 25"),
        answer="5 and 10",
        why="One-vs-all trains one perceptron per class, class j against the rest: k = 5. "
        "One-vs-one trains one per unordered pair of classes: k(k − 1)/2 = 10. Counting "
        "ordered pairs gives 20, but the pair (j, j′) and the pair (j′, j) are the same "
        "problem with the labels swapped.",
    ),
    QuizQuestion(
        key="multiclass_quiz_imbalance",
        question="k classes of equal size. In one-vs-all, what share of each binary problem's "
        "examples are labelled −1?",
        options=("1/2", "1/k", "(k − 1)/k"),
        answer="(k − 1)/k",
        why="Class j is +1 and the other k − 1 classes are all −1, so (k − 1)/k of the examples "
        "are negatives: 4 in 5 with k = 5. That imbalance is the price of training only k "
        "perceptrons; one-vs-one trains k(k − 1)/2 of them, each on two classes only, so "
        "with equal sizes each of its problems is balanced, 1/2 each.",
    ),
    QuizQuestion(
        key="multiclass_quiz_tie",
        question="k = 3 classes 0, 1, 2, one-vs-one. At a point x, 0 beats 1, 1 beats 2 and "
        "2 beats 0. Which class does this page predict at x?",
        options=("class 0", "class 1", "class 2", "none: one-vs-one has no answer there"),
        answer="class 0",
        why="Each class wins exactly one of its two duels, so each has one vote: a three-way "
        "tie. The notes allow any choice among tied classes; this page gives a tie to the "
        "first class in the list, class 0 (as it does for one-vs-all's scores), and the "
        "one-vs-one chart marks such places in grey. The votes alone cannot break the "
        "tie: one-vs-one has no single score per class to compare.",
    ),
    QuizQuestion(
        key="multiclass_quiz_separable",
        question="Class A sits at (−2, 0), B at (0, 0), C at (2, 0); every perceptron learns a "
        "bias, as here. Which one-vs-all problem has no separating line?",
        options=("A vs rest", "B vs rest", "C vs rest", "none of them"),
        answer="B vs rest",
        why="A line for B vs rest needs w·(0, 0) + b = b > 0 and w·(±2, 0) + b < 0; adding the "
        "last two gives 2b < 0, a contradiction. So that perceptron never stops (it runs "
        "to its limit, and the page names the problem as not separated). A vs rest and C "
        "vs rest are separated by vertical lines, and every pair is separable, so each "
        "one-vs-one perceptron stops.",
    ),
)
