"""What the projector says about a poll: its headline, and its votes as a table with bars (one
column per vote: peer instruction's first and second votes side by side), computed from the
instructor's state of the class (classroom.ClassStore.instructor_state)."""

from __future__ import annotations

import html

LETTERS = "ABCDEFGH"
RESULTS_CSS = """<style>
.lab-results {border-collapse: collapse; width: auto; max-width: 100%;
  margin: 0.1rem 0 0.3rem 0;}
.lab-results th, .lab-results td {text-align: left; padding: 0.05rem 0.6rem 0.05rem 0;
  vertical-align: middle; border: none; background: none; line-height: 1.35;}
.lab-results thead th {font-size: 0.8em; font-weight: 600;}
.lab-results tbody th {font-weight: 400;}
.lab-results tr.lab-right th {font-weight: 700;}
.lab-results td {white-space: nowrap;}
.lab-bar {display: inline-block; width: 3.5em; height: 0.65em; background: #e3e6ec;
  border-radius: 0.2em; margin-right: 0.35em; vertical-align: middle;}
.lab-bar span {display: block; height: 100%; background: #005f92; border-radius: 0.2em;}
.lab-right .lab-bar span {background: #17692e;}
</style>"""


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _share(count: int, total: int) -> str:
    return f"{count} ({count / total:.0%})" if total else str(count)


def _of(count: int, total: int) -> str:
    return f"{count} of {total}" + (f" ({count / total:.0%})" if total else "")


def headline(state: dict) -> str:
    """ "12 answers · Poll open · 30 joined": the poll's stage and the room, in one line."""
    poll = state["poll"]
    stage = (
        "Answers shown"
        if poll["revealed"]
        else "Poll closed"
        if poll["status"] != "open"
        else "Second vote open"
        if poll["round"] > 1
        else "Poll open"
    )
    parts = [_plural(poll["total"], "answer"), stage, f"{state['joined']} joined"]
    if not state["joining"]:
        parts.append("joining closed")
    return " · ".join(parts)


def late_note(poll: dict) -> str:
    """Answers from tokens minted after the poll's first answer, said so the instructor
    notices."""
    late = poll.get("late", 0)
    if not late:
        return ""
    if late == 1:
        return (
            "1 of these answers came from a browser that joined after this poll's first "
            "answer: a late student, or a second vote from a browser that cleared its "
            "storage."
        )
    return (
        f"{late} of these answers came from browsers that joined after this poll's first "
        "answer: late students, or second votes from browsers that cleared their storage."
    )


def crowd_warning(state: dict) -> str:
    """More joined than the instructor expects: said on the projector."""
    expected, joined = state["expected"], state["joined"]
    if not expected or joined <= expected:
        return ""
    return (
        f"{joined} joined, more than the {expected} you expect: someone may have joined "
        "more than once (a second device, a cleared browser or a script). Close joining "
        "once everyone is in."
    )


def results_table(poll: dict) -> str:
    """The votes per option, one column per round, the right answer marked once revealed."""
    rounds = [("Votes", poll["counts"], poll["total"])]
    if "first" in poll:
        rounds = [
            ("1st vote", poll["first"]["counts"], poll["first"]["total"]),
            ("2nd vote", poll["counts"], poll["total"]),
        ]
    right = poll.get("answer") if poll["revealed"] else None
    head = "".join(f'<th scope="col">{name}</th>' for name, _, _ in rounds)
    rows = []
    for index, option in enumerate(poll["options"]):
        mark = " ✓ right answer" if index == right else ""
        cells = []
        for _, counts, total in rounds:
            width = 100 * counts[index] / total if total else 0
            cells.append(
                f'<td><span class="lab-bar"><span style="width:{width:.1f}%"></span>'
                f"</span>{_share(counts[index], total)}</td>"
            )
        rows.append(
            f'<tr{" class=lab-right" if mark else ""}><th scope="row">'
            f"<b>{LETTERS[index]}.</b> {html.escape(option)}{mark}</th>"
            f"{''.join(cells)}</tr>"
        )
    return (
        f'{RESULTS_CSS}<table class="lab-results"><thead><tr><th scope="col">Option</th>'
        f"{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def movement(poll: dict) -> str:
    """How the second vote moved, per student who voted both times (once revealed)."""
    first = poll.get("first")
    if not first or "both" not in first:
        return ""
    right = poll["answer"]
    before, after = first["counts"][right], poll["counts"][right]
    text = (
        f"Right answers: {_of(before, first['total'])} in the first vote, "
        f"{_of(after, poll['total'])} in the second. "
    )
    if not first["both"]:
        return text + "No one voted both times."
    return text + (
        f"Of the {first['both']} who voted both times, {first['to_right']} moved to "
        f"the right answer and {first['from_right']} moved away from it."
    )
