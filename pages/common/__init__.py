"""Streamlit helpers shared by the pages (not a page itself): import them from here,
``from pages.common import PageLink, page_guard, ...``.

Pages stay thin: widgets, one cached call into the core, figures, layout. The modules:

- ``routing``: :func:`use_app_navigation`, called below before anything else is imported
  (a first deep link on a fresh server runs a page without app.py; see app.py).
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
(``pages.common.upload_limits.SESSION_UPLOAD_BYTES``), not this package's copy of the name.
"""

from pages.common.routing import use_app_navigation

# Routing (see app.py, next to st.navigation): every page imports this package first, and
# a page opened by the old way never reaches app.py, so the switch has to be made here,
# before any other module of the package is imported.
use_app_navigation()

from pages.common.accessibility import (  # noqa: E402
    ACCESSIBILITY_CSS,
    accessibility_styles,
    chart_summary,
    on_a_phone,
    screen_reader_text,
)
from pages.common.compute import computed  # noqa: E402
from pages.common.guard import page_guard  # noqa: E402
from pages.common.link_cleaning import (  # noqa: E402
    MAX_PARAM_CHARS,
    LinkParam,
    bool_param,
    check_link_value,
    choice_param,
    clean_query_params,
    float_param,
    int_param,
    report_link_notices,
    text_param,
)
from pages.common.link_urls import copy_link_control, url_snapshot, view_link  # noqa: E402
from pages.common.linked_controls import LABELLED_WIDGETS, LINK_TEXT_CHARS, PageLink, link_rule  # noqa: E402
from pages.common.notation import named_result, named_results, notation_panel  # noqa: E402
from pages.common.own_data_drawing import (  # noqa: E402
    DRAW_REACH,
    DRAW_SPACING,
    drawn_data,
    edit_drawn_points,
    points_from_link,
    restore_drawn_points,
)
from pages.common.own_data_source import data_source_control, own_data  # noqa: E402
from pages.common.own_data_spec import BINARY_LABELS, OwnData, OwnDataSpec  # noqa: E402
from pages.common.own_data_upload import read_own_csv, uploaded_data  # noqa: E402
from pages.common.page_basics import PLOTLY_CONFIG, core_call, page_header, show_chart  # noqa: E402
from pages.common.page_table import COURSE_ORDER, PAGE_TABLE, PageEntry, page_path  # noqa: E402
from pages.common.presenter import (  # noqa: E402
    PRESENTER_CSS,
    about_this_page,
    off_stage,
    presenter_mode,
    presenting,
    prose,
)
from pages.common.quizzes import QuizQuestion, quiz  # noqa: E402
from pages.common.request_budget import REQUEST_CPU_SECONDS, RequestBudget  # noqa: E402
from pages.common.shown_text import SHOWN_CHARS, as_code, plain_text, shown_value  # noqa: E402
from pages.common.upload_limits import SESSION_UPLOAD_BYTES  # noqa: E402

__all__ = [
    "ACCESSIBILITY_CSS",
    "accessibility_styles",
    "chart_summary",
    "on_a_phone",
    "screen_reader_text",
    "COURSE_ORDER",
    "PAGE_TABLE",
    "PageEntry",
    "page_path",
    "BINARY_LABELS",
    "DRAW_REACH",
    "DRAW_SPACING",
    "LABELLED_WIDGETS",
    "LINK_TEXT_CHARS",
    "MAX_PARAM_CHARS",
    "PLOTLY_CONFIG",
    "PRESENTER_CSS",
    "REQUEST_CPU_SECONDS",
    "SESSION_UPLOAD_BYTES",
    "SHOWN_CHARS",
    "LinkParam",
    "OwnData",
    "OwnDataSpec",
    "PageLink",
    "QuizQuestion",
    "RequestBudget",
    "about_this_page",
    "as_code",
    "bool_param",
    "check_link_value",
    "choice_param",
    "clean_query_params",
    "computed",
    "copy_link_control",
    "core_call",
    "data_source_control",
    "drawn_data",
    "edit_drawn_points",
    "float_param",
    "int_param",
    "link_rule",
    "named_result",
    "named_results",
    "notation_panel",
    "off_stage",
    "own_data",
    "page_guard",
    "page_header",
    "plain_text",
    "points_from_link",
    "presenter_mode",
    "presenting",
    "prose",
    "quiz",
    "read_own_csv",
    "report_link_notices",
    "restore_drawn_points",
    "show_chart",
    "shown_value",
    "text_param",
    "uploaded_data",
    "url_snapshot",
    "use_app_navigation",
    "view_link",
]
