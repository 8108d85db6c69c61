"""The texts of every page's "Check your understanding" questions, one module per page
(``QUESTIONS`` in each); pages/common/question_bank.py gathers them by page."""
