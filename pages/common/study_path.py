"""Learn in order: the self-study path. Home lists the lesson pages in the order a course meets
them, each with what it teaches in a line, a mark when its checkpoint is done and Continue to
where the student left off; each page ends with its checkpoint: its "Check your understanding"
questions all answered right and, on a page with a player, a prediction round (answers with
Predict first on, pages/player/player_predict.js).

The progress lives in the student's browser only: one localStorage entry written and read by
a small element (study_path.js). The server sends the element the page's questions and how
many of them this session has answered right; nothing goes back (the element sets no value),
nothing names the student, and Reset on Home clears it.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from pages.common.page_table import PAGE_TABLE
from pages.player.predict_link import PREDICTION_ROUND

HERE = Path(__file__).resolve().parent
#: the path, in the order a course meets the pages
STUDY_ORDER = (
    "train",
    "bound",
    "aggressive",
    "adversary",
    "kernels",
    "generalisation",
    "multiclass",
    "relaxation",
)
#: what each page of the path teaches, in a line
TEACHES = {
    "train": "what one update does to the line, and why the updates stop when some line has a margin",
    "bound": "how the updates made compare with the bound as the margin, n and d change",
    "aggressive": "why updating on examples already right can go on for ever",
    "adversary": "why, in high dimension, no deterministic learner can promise fewer mistakes "
    "than one over the margin squared",
    "kernels": "how a kernel lets the same perceptron separate data no line separates",
    "generalisation": "margin mistakes, and a bound on the test error that falls like 1/N",
    "multiclass": "how binary perceptrons combine into a classifier of many classes",
    "relaxation": "the relaxation method for linear inequalities, the perceptron among them",
}
#: the pages whose checkpoint has a prediction round (they have a player)
PLAYER_PAGES = ("train", "kernels", "generalisation", "relaxation")
#: the browser's localStorage entry (pages/player/player_predict.js writes the same one)
STORAGE_KEY = "perceptron_lab_study"
_CSS = """
.study {display: flex; flex-direction: column; gap: 0.6rem; font-size: 1rem; color: #111;}
.study ol {margin: 0; padding-left: 1.6rem; display: flex; flex-direction: column; gap: 0.45rem;}
.study li {line-height: 1.4;}
.study a {color: #005F92; font-weight: 600;}
.study a:focus-visible, .study button:focus-visible {outline: 3px solid #111; outline-offset: 2px;}
.study .mark {display: inline-block; min-width: 5.2em; font-weight: 700;}
.study .parts {display: block; font-size: 0.88em; color: #333;}
.study .actions {display: flex; flex-wrap: wrap; gap: 0.6rem; align-items: center;}
.study .continue, .study button {font: inherit; min-height: 2.75rem; padding: 0.45rem 0.95rem;
  border-radius: 0.5rem; border: 1px solid #005F92; display: inline-flex; align-items: center;
  box-sizing: border-box;}
.study .continue {background: #005F92; color: #fff; text-decoration: none;}
.study button {background: #fff; color: #111; border-color: #8a8f98; cursor: pointer;}
.study .said, .study .note {margin: 0; font-size: 0.88em; color: #333;}
.study.checkpoint {border: 1px solid #c9ccd3; border-radius: 0.6rem; padding: 0.8rem 1rem;}
.study.checkpoint ul {margin: 0; padding-left: 0; list-style: none;}
.study.checkpoint h3 {margin: 0; font-size: 1.1rem;}
"""
_ELEMENT = None


def _element(data: dict, key: str) -> None:
    global _ELEMENT
    if _ELEMENT is None:
        _ELEMENT = st.components.v2.component(
            "lab_study_path", js=(HERE / "study_path.js").read_text(encoding="utf-8"), css=_CSS
        )
    _ELEMENT(data=data, key=key)


def _path(question_counts: dict[str, int]) -> list[dict]:
    titles = {entry.name: entry.title for entry in PAGE_TABLE}
    return [
        {
            "name": name,
            "title": titles[name],
            "teaches": TEACHES[name],
            "player": name in PLAYER_PAGES,
            "questions": question_counts.get(name, 0),
        }
        for name in STUDY_ORDER
    ]


def learn_in_order(question_counts: dict[str, int]) -> None:
    """Home's Learn in order: the path with the marks, Continue and Reset (in the browser)."""
    st.subheader("Learn in order")
    st.caption(
        "Studying alone? Take the pages in this order. Each ends with a checkpoint: its "
        "questions, and on a page with a player a round of predictions (switch "
        "**Predict first** on in the player). Your progress stays in this browser: "
        "nothing is sent to the server."
    )
    _element(
        {
            "mode": "home",
            "storage": STORAGE_KEY,
            "round": PREDICTION_ROUND,
            "pages": _path(question_counts),
        },
        key="lab_study_home",
    )


def checkpoint(questions) -> None:
    """The checkpoint of the page whose questions these are (pages/common/question_bank.py),
    under them: how many this session answered right (the answers checked with each
    question's Check button in quizzes.py, not an option picked and not yet checked), and,
    in the browser, its prediction round, its mark and the next page."""
    from pages.common.question_bank import QUESTIONS_BY_PAGE
    from pages.common.quizzes import checked_answer

    questions = tuple(questions)
    page = next((name for name, own in QUESTIONS_BY_PAGE.items() if tuple(own) == questions), None)
    if page not in STUDY_ORDER:
        return
    right = sum(checked_answer(item) == item.answer for item in questions)
    _element(
        {
            "mode": "page",
            "page": page,
            "storage": STORAGE_KEY,
            "round": PREDICTION_ROUND,
            "right": int(right),
            "total": len(questions),
            "pages": _path({page: len(questions)}),
        },
        key=f"lab_study_{page}",
    )
