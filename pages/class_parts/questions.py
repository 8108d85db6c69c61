"""The polls an instructor can open: every page's "Check your understanding" questions
(pages/common/question_bank.py), by page, and "Predict the next step" on a /train view (the
one the projector publishes, by default: pages/class_parts/projector.py)."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

from classroom import ClassError, poll_question
from pages.common import question_bank as bank
from pages.common.page_table import PAGE_TABLE

#: the choice that builds a question from a /train view instead of taking one from the bank
PREDICT = "predict"


def page_titles() -> dict[str, str]:
    return {entry.name: entry.title for entry in PAGE_TABLE}


def choices() -> dict[str, str]:
    """Question key -> the label the instructor picks it by ("Page title: question")."""
    titles = page_titles()
    labels = {}
    for page, questions in bank.QUESTIONS_BY_PAGE.items():
        for item in questions:
            labels[item.key] = f"{titles.get(page, page)}: {item.question}"
    labels[PREDICT] = (
        "Predict the next step on /train: the question your projector's player "
        "waits on (Predict first), else will the next example cause an update?"
    )
    return labels


def train_link_params(link: str) -> dict[str, str]:
    """The query parameters of a /train link (the whole URL or just its path and query)."""
    parts = urlsplit(str(link or "").strip())
    if parts.path.rstrip("/").split("/")[-1] != "train":
        raise ClassError(
            "Paste the link of a /train view (its “Copy link”, or the address "
            "bar while you present it).",
            400,
        )
    return dict(parse_qsl(parts.query))


def poll_for(choice: str, train_link: str = "") -> dict:
    """The question of ``choice`` as the store keeps a poll's question."""
    if choice == PREDICT:
        try:
            item = bank.predict_next_step_question(train_link_params(train_link))
        except (KeyError, ValueError) as error:
            if isinstance(error, ClassError):
                raise
            raise ClassError(f"That /train view cannot be predicted: {error}", 400) from None
    else:
        try:
            item = bank.question_by_key(choice)
        except KeyError:
            raise ClassError(
                "That question is not in the bank any more: pick another.", 400
            ) from None
    return poll_question(item.key, item.question, item.options, item.answer, item.why)
