"""The parts of /class (pages/class.py), the live class of issue 24. Not pages.

- ``questions``: the polls an instructor can open (every page's "Check your understanding",
  and "Predict the next step" on a /train view);
- ``instructor``: Start a class, the join link and its QR code, the poll's buttons and the
  projector's live count;
- ``student``: the phone's view, a small browser element that polls the class's JSON route
  (classroom/routes.py) and posts the student's taps, so no script reruns per student.

The classes themselves live in the Streamlit-free package ``classroom`` (memory or Redis).
"""
