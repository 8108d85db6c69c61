"""The parts of /class (pages/class.py), the live class. Not pages.

- ``questions``: the polls an instructor can open (every page's "Check your understanding",
  and "Predict the next step" on a /train view);
- ``instructor``: Start a class, the join link (on an address phones reach) and its QR code,
  and the instructor's view laid out;
- ``projector`` and ``results``: the poll's buttons, joining, and the poll as the hall sees it
  (both votes of peer instruction side by side);
- ``keeper``: the instructor's key, kept by the session and the browser, never in the address
  bar; Copy the instructor link;
- ``follow``: Follow the lecturer, the instructor's side;
- ``student``: the phone's view, a small browser element that polls the class's JSON route
  (classroom/routes.py) and posts the student's taps, so no script reruns per student.

The classes themselves live in the Streamlit-free package ``classroom`` (memory or Redis).
"""
