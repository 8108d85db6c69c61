"""The instructor's poll on the projector: the question to ask, the buttons, and the poll as the
hall sees it, in one fragment that refreshes every second (one small rerun for the projector's
session, none for the students'). The buttons come first, so on a 1280×720 screen in presenter
mode they and the results fit without scrolling.

A poll's life: **Open the poll** → answers arrive (how many, not who chose what) → **Close the
poll** (its votes shown without the right answer; **Hide the result** while the room discusses)
→ **Vote again** on the same question, once (peer instruction) → **Show the answers** (closes
the poll if open: no answer changes after it), with both votes side by side.
"""

from __future__ import annotations

import html

import streamlit as st

from classroom import ClassError, class_store
from classroom.store import MAX_EXPECTED
from pages.class_parts import questions, results
from pages.class_parts.follow import REFRESH_SECONDS

#: session state: the message of the last refused action (shown once)
_REFUSAL = "class_refusal"
_STATUS_CSS = """<style>
.lab-headline {font-size: 1.3em; font-weight: 700; margin: 0.2rem 0 0.1rem 0;}
.lab-question {font-size: 1em; font-weight: 600; line-height: 1.3; margin: 0 0 0.3rem 0;}
ul.lab-options {margin: 0 0 0.3rem 0 !important; padding-left: 0 !important; list-style: none;}
ul.lab-options li {margin: 0 !important; padding: 0 !important;}
</style>"""


def question_picker() -> None:
    """The question the next Open the poll asks (and a /train view for Predict the next step:
    by default the view this class follows, which the projector's player publishes)."""
    labels = questions.choices()
    st.selectbox("Question", list(labels), format_func=labels.get, key="class_choice")
    if st.session_state.get("class_choice") == questions.PREDICT:
        st.text_input(
            "Link of the /train view (empty: the view your projector shows, as "
            "students who follow see it)",
            key="class_train_link",
            placeholder="/train?data=…&step=4",
            help="With Predict first on, the projector's player publishes the step it "
            "waits on: the poll asks the question it asks.",
        )


def _act(action, *args) -> None:
    """Run a store action in a button's callback; a refusal is kept to be shown."""
    try:
        action(*args)
    except ClassError as error:
        st.session_state[_REFUSAL] = error.message


def _open(code: str, key: str) -> None:
    choice = st.session_state.get("class_choice")
    link = st.session_state.get("class_train_link", "").strip()

    def open_poll():
        store = class_store()
        shown = link
        if choice == questions.PREDICT and not shown:  # the view the projector publishes
            shown = store.instructor_state(code, key)["view"]
            if not shown:
                raise ClassError(
                    "No view to predict: open /train in this browser (its player "
                    "publishes the step it shows, and with Predict first the step "
                    "it waits on), or paste a /train link.",
                    400,
                )
        store.open_poll(code, key, questions.poll_for(choice, shown))

    _act(open_poll)


def poll_buttons(code: str, key: str, poll: dict | None) -> None:
    """Open, Close, Show the answers and Vote again, enabled when they apply; Hide (or Show)
    the result of a closed poll."""
    store = class_store()
    live = poll is not None and poll["status"] == "open"
    shown = poll is not None and poll["revealed"]
    with st.container(horizontal=True, key="class_buttons"):
        st.button(
            "Open the poll", key="class_open", type="primary", on_click=_open, args=(code, key)
        )
        st.button(
            "Close the poll",
            key="class_close",
            disabled=not live,
            on_click=_act,
            args=(store.close, code, key),
        )
        st.button(
            "Show the answers",
            key="class_reveal",
            disabled=poll is None or shown,
            on_click=_act,
            args=(store.reveal, code, key),
        )
        st.button(
            "Vote again",
            key="class_again",
            disabled=poll is None or shown or poll["round"] > 1,
            help="Peer instruction: the same question again after the room has "
            "discussed; both votes are then shown side by side.",
            on_click=_act,
            args=(store.vote_again, code, key),
        )
        if poll is not None and not live and not shown:
            hidden = poll["hidden"]
            st.button(
                "Show the result" if hidden else "Hide the result",
                key="class_hide",
                on_click=_act,
                args=(store.hide_result, code, key, not hidden),
            )


@st.fragment(run_every=REFRESH_SECONDS)
def poll_panel(code: str, key: str) -> None:
    """The buttons, then the poll as the hall sees it."""
    try:
        state = class_store().instructor_state(code, key)
    except ClassError as error:
        st.error(error.message, icon=":material/error:")
        return
    poll = state["poll"]
    poll_buttons(code, key, poll)
    refusal = st.session_state.pop(_REFUSAL, None)
    if refusal:
        st.error(refusal, icon=":material/error:")
    warning = results.crowd_warning(state)
    if warning:
        st.warning(warning, icon=":material/groups:")
    if poll is None:
        st.info(
            f"No poll yet: {state['joined']} joined. Pick a question and press **Open the poll**.",
            icon=":material/how_to_vote:",
        )
        return
    st.html(
        _STATUS_CSS + f'<p class="lab-headline">{results.headline(state)}</p>'
        f'<p class="lab-question">{html.escape(poll["question"])}</p>'
    )
    closed_votes_shown = poll["status"] != "open" and not poll["hidden"]
    if poll["revealed"] or closed_votes_shown:
        st.html(results.results_table(poll))
    else:
        options = "".join(
            f"<li><b>{letter}.</b> {html.escape(option)}</li>"
            for letter, option in zip(results.LETTERS, poll["options"])
        )
        st.html(f'<ul class="lab-options">{options}</ul>')
        joined = max(state["joined"], poll["total"])
        hidden_until = "you show the result" if poll["status"] != "open" else "the poll closes"
        st.progress(
            poll["total"] / joined if joined else 0.0,
            text=f"{poll['total']} of {joined} joined have answered; who chose what "
            f"stays hidden until {hidden_until}",
        )
    for note in (results.movement(poll) if poll["revealed"] else "", results.late_note(poll)):
        if note:
            st.caption(note)
    if poll["revealed"]:
        st.success(
            f"**Right answer: {poll['options'][poll['answer']]}.** {poll['why']}",
            icon=":material/check_circle:",
        )


def joining_controls(code: str, key: str, state: dict) -> None:
    """Close joining (or open it again) and the class size past which the projector warns."""
    store = class_store()
    joining = state["joining"]
    st.button(
        "Close joining" if joining else "Open joining",
        key="class_joining",
        icon=":material/lock:" if joining else ":material/lock_open:",
        help="Closed: no new browser can join; those who joined go on answering.",
        on_click=_act,
        args=(store.set_joining, code, key, not joining),
    )
    if "class_expected" not in st.session_state:
        st.session_state.class_expected = state["expected"]
    st.number_input(
        "Expected class size (the projector warns past it; 0: no warning)",
        min_value=0,
        max_value=MAX_EXPECTED,
        step=1,
        key="class_expected",
        on_change=lambda: _act(store.set_expected, code, key, int(st.session_state.class_expected)),
    )
