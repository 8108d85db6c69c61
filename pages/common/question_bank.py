"""Every page's "Check your understanding" questions, in one bank (issue 24).

The pages show their own set through :func:`pages.common.quizzes.quiz`; the live class
(/class) offers the same questions as polls, by page. A question's ``key`` is stable: a
poll names its question by it.
"""

from __future__ import annotations

from pages.common.quizzes import QuizQuestion

#: page name (as in pages/common/page_table.py) -> that page's questions, 2 to 4 each
QUESTIONS_BY_PAGE: dict[str, tuple[QuizQuestion, ...]] = {}


def question_by_key(key: str) -> QuizQuestion:
    """The question whose ``key`` is ``key``; ``KeyError`` if no page has it."""
    for questions in QUESTIONS_BY_PAGE.values():
        for question in questions:
            if question.key == key:
                return question
    raise KeyError(key)
