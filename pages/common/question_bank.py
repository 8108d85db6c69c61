"""Every page's "Check your understanding" questions, in one bank.

The pages show their own set through :func:`pages.common.quizzes.quiz`; the live class
(/class) offers the same questions as polls, by page. A question's ``key`` is stable: a
poll names its question by it. The texts are in pages/common/questions/, one module per
page. A page ends with ``quiz(QUESTIONS_BY_PAGE["<name>"])`` (both imported from here);
:func:`predict_next_step_question` asks about a /train view from its link.
"""

from __future__ import annotations

import hashlib
import json

from pages.common.questions import (
    adversary,
    aggressive,
    bound,
    generalisation,
    kernels,
    multiclass,
    relaxation,
    train,
)
from pages.common.quizzes import QuizQuestion, quiz  # noqa: F401 (a page's one import)

#: page name (as in pages/common/page_table.py) -> that page's questions, 2 to 4 each
QUESTIONS_BY_PAGE: dict[str, tuple[QuizQuestion, ...]] = {
    "train": train.QUESTIONS,
    "bound": bound.QUESTIONS,
    "aggressive": aggressive.QUESTIONS,
    "adversary": adversary.QUESTIONS,
    "kernels": kernels.QUESTIONS,
    "multiclass": multiclass.QUESTIONS,
    "relaxation": relaxation.QUESTIONS,
    "generalisation": generalisation.QUESTIONS,
}

#: the key of every "Predict the next step" question starts with this
PREDICT_PREFIX = "predict_next_"


def question_by_key(key: str) -> QuizQuestion:
    """The question whose ``key`` is ``key``; ``KeyError`` if no page has it."""
    for questions in QUESTIONS_BY_PAGE.values():
        for question in questions:
            if question.key == key:
                return question
    raise KeyError(key)


def predict_next_step_question(train_link_params: dict[str, str]) -> QuizQuestion:
    """ "Will the next example cause an update?" about the /train view a link shows.

    ``train_link_params``: the query parameters of a /train link (``st.query_params`` of
    that page, or a copied link's), ``step=`` included. The run is rebuilt through the
    same cached call /train uses (pages/train_parts/runs.py); a value /train would ignore
    gives its default, as on the page. The key encodes the view (settings, data, step):
    the same view gives the same key. Raises ValueError when the run has ended at that
    step, or when the view cannot be rebuilt from a link (uploaded data).

    A view whose player waits on a prediction (Predict first: ``ask=`` and ``ask_part=``,
    pages/player/predict_link.py) is asked the question the player asks: whether the next
    step updates (``ask_part=update``), or which of the three candidate lines comes next
    (``ask_part=line``, the same A, B, C), at the step ``ask=`` names.
    """
    from pages.player.predict_link import waiting_step
    from pages.train_parts.runs import run_from_link
    from perceptron_core.viz.predict import next_line_question
    from perceptron_core.viz.train import next_step_question

    settings, X, y, trace, step = run_from_link(train_link_params)
    raw_ask, raw_part = (str(train_link_params.get(name, "")) for name in ("ask", "ask_part"))
    ask = int(raw_ask) if raw_ask.isascii() and raw_ask.isdigit() else None
    part = "line" if raw_part == "line" or (ask is not None and ask > step + 1) else "update"
    if ask is not None and (why := waiting_step(step, trace.update_steps, trace.n_examined, ask)):
        raise ValueError(f"the view's ask={ask} is {why}")
    if ask is not None and part == "line":
        texts = next_line_question(trace, X, y, step, ask)
    else:
        texts = next_step_question(trace, X, y, step)
    view = dict(settings, step=step)
    if ask is not None:
        view.update(ask=ask, ask_part=part)
    if settings["source"] == "draw":
        view["points"] = [[float(a), float(b), int(c)] for (a, b), c in zip(X, y)]
    digest = hashlib.sha256(json.dumps(view, sort_keys=True).encode()).hexdigest()[:16]
    return QuizQuestion(
        key=f"{PREDICT_PREFIX}{digest}",
        question=texts["question"],
        options=texts["options"],
        answer=texts["answer"],
        why=texts["why"],
    )
