"""Streamlit helpers shared by the pages (not a page itself). Import each from its module,
``from pages.common.linked_controls import PageLink``; importing this package does nothing.

Pages stay thin: widgets, one cached call into the core, figures, layout. The modules:

- ``routing``: :func:`use_app_navigation`, called once from :func:`configure_server`
  (a first deep link on a fresh server would run a page without app.py; see app.py).
- ``page_basics``: the page header, a chart with the shared Plotly config, a call into
  the core that shows a ValueError's message.
- ``presenter``: presenter mode (``?present=1``) and the prose it leaves out.
- ``quizzes``: "Check your understanding", one quiz helper for every page.
- ``notation``: the Notation panel and one-line statements of named results.
- ``shown_text``: user and link text in messages, cut and shown as written.
- ``link_cleaning``: what a link value may be (:class:`LinkParam`), dropping the ones a
  widget could not take, and one warning naming every ignored value.
- ``link_urls``: the link that restores a view, and the "Copy link" popover.
- ``linked_controls``: :class:`PageLink`, one declaration per control bound to the URL.
- ``page_table``: every page (name, menu title, icon, Home's link text), one table.
- ``accessibility``: focus, phone and screen-reader styles; a chart's summary in words.
- ``guard``: :func:`page_guard`, an unexpected exception becomes one short message.
- The player of a frozen run (on the page and as an HTML file) is a package of its own,
  ``pages.player``.
- ``request_budget``: the CPU budget of one request.
- ``compute``: :func:`computed`, a computation in a worker process (the standard
  library's process pool), apart from the server's interpreter.
- ``upload_limits``: uploaded files bounded per session, freed when the session ends.
- ``server``: :func:`configure_server`, what the server process needs set once (app.py).
- ``own_data_spec``, ``own_data_upload``, ``own_data_drawing``, ``own_data_source``: the
  student's own data, uploaded as a CSV file or drawn on a chart.

Settings are read where they are defined: a test that changes one patches that module
(``pages.common.upload_limits.SESSION_UPLOAD_BYTES``).
"""
