"""The live class's polls (issue 24): every page's questions by key, and "Predict the next
step" built from a /train link, and clear refusals for a link it cannot use."""

from __future__ import annotations

import pytest

from classroom import ClassError
from pages.class_parts.questions import PREDICT, choices, poll_for
from pages.common.question_bank import QUESTIONS_BY_PAGE, predict_next_step_question


def test_every_bank_question_can_be_polled_with_its_right_answer():
    for questions in QUESTIONS_BY_PAGE.values():
        for item in questions:
            poll = poll_for(item.key)
            assert poll["options"][poll["answer"]] == item.answer
    assert PREDICT in choices() and len(choices()) == 1 + sum(map(len, QUESTIONS_BY_PAGE.values()))


@pytest.mark.parametrize("step", [0, 1, 5, 17])
def test_predict_the_next_step_polls_the_question_built_from_the_view(step):
    """The bank's question (checked against the plain reference loop in
    test_question_bank.py) reaches the poll with the same right answer, from the whole URL."""
    link = f"https://lab.example/train?n=20&margin=0.1&data_seed=4&step={step}"
    poll = poll_for(PREDICT, link)
    item = predict_next_step_question(
        {"n": "20", "margin": "0.1", "data_seed": "4", "step": str(step)}
    )
    assert poll["key"] == item.key and poll["options"][poll["answer"]] == item.answer


@pytest.mark.parametrize("link", ["https://lab.example/bound?n=20", "not a link", ""])
def test_a_link_that_is_not_a_train_view_is_refused_with_a_message(link):
    with pytest.raises(ClassError, match="/train"):
        poll_for(PREDICT, link)
